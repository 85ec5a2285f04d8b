"""Self-healing: one missed or misread event costs at most one alert, never a cascade.

A :class:`Healer` wraps a :class:`~tracker.game.Game`. An event the game would refuse
(out of turn, illegal card, penalty pending, a pass with no draw, a colour with no wild
on top...) is first explained: the smallest set of missed events that makes it legal
(a play by the player on turn, a draw, a pending penalty taken, a pass, a colour
named, a take-back, a misread card) is searched by trying candidates on the game and
taking them back. The inferred events are applied marked ``"inferred": true``, then
the real event. When no single explanation is clear, the best one is applied all the
same (later events are judged against it) and ONE ``ask-referee`` alert offers the
others as a one-tap fix (:meth:`Healer.resolve`). The camera's view of the pile
(:meth:`Healer.observe_top`) is evidence: a card seen on top, steadily, that the record
does not show names the missed play.

The parts: :mod:`tracker.heal_catalogue` lists the explanations, :mod:`tracker.heal_trials`
tries one on the game and takes it back, :mod:`tracker.heal_options` holds their costs and
texts, :mod:`tracker.heal_answers` what the healer answers, :mod:`tracker.heal_view` the
camera's view of the pile, :mod:`tracker.heal_questions` a healing's question and its
other answers; the :class:`Healer` here chooses and asks.

>>> from tracker.rules import preset
>>> healer = Healer(Game(preset("official")))
>>> _ = healer.apply({"type": "round", "players": ["Ann", "Bob", "Cy"], "dealer": "Cy"})
>>> _ = healer.apply({"type": "flip", "card": "red-5"})
>>> healed = healer.apply({"type": "play", "card": "blue-9", "player": "Bob"})
>>> healed.ok, healed.codes
(False, ['ask-referee'])
>>> print(healed.alerts[0].message())
Bob played out of turn: it is Ann's turn. (Refused; tap to correct. Or: Ann played red-9.)
>>> healed = healer.apply({"type": "play", "card": "blue-3", "player": "Cy"})
>>> healed.kind, healed.alerts, healed.inferred   # it makes sense only with the miss
('revised', [], [{'type': 'play', 'player': 'Ann', 'card': 'red-9', 'inferred': True}])
>>> healer.resolve(0, card="blue-5").ok   # the referee: yes, and it was blue-5
True
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from tracker.amend import Rewrite, rewrite
from tracker.game import Game, Verdict
from tracker.heal_answers import ASK, AskReferee, Healed
from tracker.heal_catalogue import Catalogue
from tracker.heal_options import HealSettings, Option, drawn_count, event_cards, with_card
from tracker.heal_questions import Question, revise, undone
from tracker.heal_trials import commit, fits, restore
from tracker.heal_view import PileView

Event = dict[str, Any]

#: Event types whose refusal may come from a missed event.
HEALABLE: Final = frozenset({"play", "draw", "pass", "color", "flip"})
#: Refusals a missed event explains (alert codes, and ``bad-event`` reasons).
MISS_CODES: Final = frozenset(
    {"out-of-turn", "illegal-card", "penalty-pending", "illegal-last-card"}
)
MISS_REASONS: Final = frozenset(
    {
        "must-draw",
        "must-draw-penalty",
        "no-wild",
        "need-flip",
        "round-over",
        "too-many-copies",
        "not-enough-cards",  # a missed draw: the hand holds one more than the record
        "already-drew",  # a penalty missed: its cards are drawn one by one
    }
)


class Healer:
    """A game that heals itself from missed events; see the module docstring."""

    def __init__(self, game: Game, settings: HealSettings | None = None) -> None:
        self.game = game
        self.settings = settings or HealSettings()
        self.question: Question | None = None
        self._silent: Question | None = None  # the others of the last silent healing
        self._asked = 0
        self.view = PileView(self.settings, game)  # the camera's view of the pile
        self._refused: list[Event] = []  # refused events no explanation took yet
        #: The inferred draws (log indices) the camera then saw late (:meth:`_seen_late`).
        self._late: set[int] = set()

    # ------------------------------------------------------------------ public API

    def apply(self, event: object) -> Healed:
        """Judge one event; heal a refusal that a missed event explains."""
        game = self.game
        if not isinstance(event, dict) or event.get("type") not in HEALABLE:
            return self._plain(event)
        log = game.events
        at, seq = len(log), game.seq
        verdict = game.apply(event)
        ignored = None
        if self._duplicate(event, verdict, log[-1] if log else None):
            ignored = "duplicate"
        elif self._seen_late(event, verdict, log):
            ignored = "seen-late"
        if ignored is not None:
            restore(game, at, [], seq)
            game.seq = seq + 1
            healed = Healed([], verdict, False)
            healed.state, healed.kind, healed.alerts = _design_state(game), ignored, []
            return self._done(healed)
        if verdict.ok and event["type"] == "flip" and game.state_json()["top"] is None:
            self.view.returned |= {c.name for c in event_cards(event)}  # (a Wild Draw Four)
        if verdict.ok or not _missable(verdict, event):
            if not verdict.ok:
                self.view.ignored.update(c.name for c in event_cards(event))
            elif event["type"] != "color":
                self._refused = []
            return self._done(Healed([(event, verdict)], verdict, verdict.ok))
        restore(game, at, [], seq)
        return self._decide(event, self._explain(event, verdict), at, seq)

    def undo(self) -> Healed:
        """Take back the last event, inferred or not (``{"type": "undo"}``)."""
        return self.apply({"type": "undo"})

    def observe_top(self, card: str | None, t: float) -> Healed | None:
        """The card the camera sees on top of the discard pile at time ``t`` (None: no
        card seen, or a hand over the pile). A steady top unlike the record's for
        ``top_patience_s`` is healed: the missed play inferred, or the referee asked."""
        missed = self.view.sight(card, t)  # (None too: the time of the camera's view)
        if card is None or not missed:
            return None
        game = self.game
        at, seq = len(game.events), game.seq
        for earlier in (self.question, self._silent):
            # Another answer to an earlier healing that lays the card seen: no new one.
            revised = self._revise(earlier, None, seq, card)
            if revised is not None:
                return self._done(revised)
        options = [
            o
            for o in self._catalogue().top_options(card)
            if fits(game, o, None, at, seq, card)
            # The card the record laid just under its top, seen again: on an untidy pile
            # the new card lies beside it, out of sight or read less surely; not the new
            # card misread as the old one's twin (``covering-untidy-25fps`` seed 780,
            # plays of three, trained recogniser: Cy's blue Draw Two read back as the
            # green 1 under it, Ann's penalty draw then refused: three alerts). A twin
            # played since, or a take-back, it may be.
            and not (o.kind == "misread" and card in self.view.under)
        ]
        return self._decide(None, options, at, seq) if options else None

    def resolve(self, index: int, card: str | None = None, color: str | None = None) -> Healed:
        """The referee's one tap: option ``index`` of the open question is what happened
        (0 is the one applied), with ``card`` (and a wild's ``color``) instead of the
        card it guessed ("Correct it"). The undos and events it takes are in ``steps``.

        Raises ``LookupError`` when no question is open or ``index`` is no option, and
        ``ValueError`` for a ``card`` that is no card or an option that lays none.
        """
        q = self.question
        if q is None or not 0 <= index < len(q.options):
            raise LookupError(f"no open question with an option {index}")
        option = q.options[index]
        if card is not None:
            option = with_card(option, card, color)
        game = self.game
        later = game.events[q.end :]
        steps: list[tuple[Event, Verdict]] = []
        restore(game, q.base, q.tail, None, steps)
        answer = commit(game, option, q.event, steps)
        self.question = None
        self._done(Healed([], answer, answer.ok))
        alerts = list(answer.alerts)
        for event in later:  # judged again, healed where they need it
            again = self.apply(event)
            steps += again.steps
            alerts += again.alerts
        healed = Healed(steps, answer, answer.ok)
        healed.state, healed.alerts = _design_state(game), alerts
        healed.kind = option.kind if option.as_judged is None else None
        return self._done(healed)

    def amend(self, base: int, new: list[Event], later: list[Event]) -> Rewrite:
        """Rewrite the record from ``base`` events of the history on
        (:func:`tracker.amend.rewrite`): ``new`` applied there, then each of ``later``
        judged again, healed where it needs it. The open question, if any, is dropped:
        the log it would restore is no longer the game's."""
        self.forget()
        done = rewrite(self.game, base, new, later, self.apply)
        self.view.note(self.game)
        return done

    def forget(self) -> None:
        """Drop what the healer remembers of the log (open question, the last silent
        healing, refusals not yet explained): the log was rewritten under it."""
        self.question = self._silent = None
        self._refused = []

    # ------------------------------------------------------------------ explanations

    def _catalogue(self) -> Catalogue:
        """The explanations the game's present state and the camera's view allow."""
        view = self.view
        return Catalogue(self.game, self.settings, view.seen, view.saw_top, view.top)

    def _explain(self, event: Event, verdict: Verdict) -> list[Option]:
        game, s = self.game, self.settings
        at, seq = len(game.events), game.seq
        cards = event_cards(event)
        catalogue = self._catalogue()
        options = catalogue.candidates(event)
        if any(a.params.get("reason") == "too-many-copies" for a in verdict.alerts):
            options += catalogue.recounts(cards)
            options += catalogue.fewer_instead(event)
        options += catalogue.twice()
        options = catalogue.weigh(options, {c.name for c in cards})
        # The events refused just before may have been right, given the missed ones.
        options += [replace(o, replayed=list(self._refused)) for o in options if self._refused]
        # A refusal for a rule (not an impossible event) may be the player's own mistake.
        ruled = any(alert.code in MISS_CODES for alert in verdict.alerts)
        cost = s.as_judged + (0.0 if ruled else s.contradicted)
        options.append(Option("as-judged", [], cost, as_judged=verdict))
        found = [o for o in options if fits(game, o, event, at, seq, None)]
        if min((o.cost for o in found if o.as_judged is None), default=cost) >= cost:
            found += [o for o in self._earlier(at, seq) if fits(game, o, event, at, seq, None)]
        return found

    def _earlier(self, at: int, seq: int) -> list[Option]:
        """Missed events a few events back: the ones since were legal all the same."""
        s, game = self.settings, self.game
        log, out = game.events, []
        for back in range(1, s.rewrite_depth + 1):
            index = at - back
            if index < 1 or log[index]["type"] in ("round", "flip", "undo", "end-round"):
                break
            if log[index]["type"] not in ("play", "draw", "pass") or log[index].get("inferred"):
                continue
            restore(game, index, [], seq)
            for option in self._catalogue().candidates(log[index]):
                if option.rewrite is None and all("player" in e for e in option.events):
                    inferred = [{**e, "inferred": True} for e in option.events]
                    cost = option.cost + back * s.earlier
                    rewrite = (index, [*inferred, log[index]])
                    out.append(Option(option.kind, [], cost, option.guessed, rewrite))
            restore(game, index, log[index:at], seq)
        return out

    # ------------------------------------------------------------------ trying and choosing

    def _decide(self, event: Event | None, options: list[Option], at: int, seq: int) -> Healed:
        """Apply the best explanation; ask the referee when it is a guess or has rivals."""
        s, game = self.settings, self.game
        by_state: dict[tuple[Any, ...], Option] = {}
        for option in sorted(options, key=lambda o: (o.cost, o.as_judged is None)):
            by_state.setdefault(option.state, option)
        best, *others = by_state.values()
        close = [o for o in others if o.cost < best.cost + s.margin]
        rivals = [o for o in close if not o.hidden]
        hidden = [o for o in close if o.hidden]
        # A guess, a close rival, or an explanation as unlikely as a guess: ask.
        unsure = best.as_judged is None and (best.guessed or best.cost >= s.guess)
        if (rivals or unsure or best.as_judged is not None) and event is not None:
            # Before asking: does another answer to an earlier healing explain it?
            for earlier in (self.question, self._silent):
                revised = self._revise(earlier, event, seq)
                if revised is not None:
                    return self._done(revised)
        misses = [o for o in others if o.as_judged is None and not o.hidden]
        misses = misses[: s.max_options - 1]
        silent = best.as_judged is None and not (rivals or unsure) and bool(misses or hidden)
        # The log before the healing, back to where the options kept reach.
        base = min(o.base(at) for o in [best, *rivals, *hidden, *(misses if silent else [])])
        tail = game.events[base:at]
        steps: list[tuple[Event, Verdict]] = []
        final = commit(game, best, event, steps)
        healed = Healed(steps, final, final.ok)
        if best.as_judged is None:
            healed.kind = best.kind
            self._refused = []
        elif event is not None:
            self.view.ignored.update(c.name for c in event_cards(event))
            if len(game.events) == at:  # (a refusal with a penalty is in the log)
                self._refused = [*self._refused, event][-s.remember_refused :]
        if silent:  # a later event may yet need one of the other misses
            kept = [best, *misses]
            self._silent = Question(base, tail, len(game.events), event, kept, hidden)
        if rivals or unsure:
            self._asked += 1
            options = [best, *rivals[: s.max_options - 1]]
            spare = [*rivals[s.max_options - 1 :], *hidden]
            self.question = Question(base, tail, len(game.events), event, options, spare)
            player = event.get("player") if event is not None else None
            who = player if isinstance(player, str) else final.state.get("turn")
            healed.alerts = [AskReferee(who, options, self._asked)]
        return self._done(healed)

    def _revise(
        self, q: Question | None, event: Event | None, seq: int, top: str | None = None
    ) -> Healed | None:
        """Another answer to the earlier healing ``q`` (:func:`tracker.heal_questions.revise`);
        the other record of a healing, if it reaches into the rewritten log, is stale."""
        revised = revise(self.game, q, event, seq, top) if q is not None else None
        if revised is None or q is None:
            return None
        if self.question is not q and self.question and self.question.end > q.base:
            self.question = None
        if self._silent is not q and self._silent and self._silent.end > q.base:
            self._silent = None
        return revised

    # ------------------------------------------------------------------ bookkeeping

    def _duplicate(self, event: Event, verdict: Verdict, last: Event | None) -> bool:
        """A play reported twice: the same cards as the last play, by the same player,
        refused. (Where the rules take it, as a jump-in with the twin card or another
        copy on one's turn, it is a play: the two cannot be told apart.) Or the starter
        turned up twice: the camera's flip, refused, of the card last turned up, which
        the healer inferred from the pile's top as a slow hand brought it
        (``fast-messy-24fps`` seed 655: the dealer's red 4, 3 s on its way, seen on the
        pile 2 s before the watcher judged it at rest)."""
        if verdict.ok or last is None:
            return False
        if event.get("type") == "flip":
            return last.get("type") == "flip" and event_cards(last) == event_cards(event)
        if event.get("type") != "play":
            return False
        if last.get("type") != "play" or event_cards(last) != event_cards(event):
            return False
        who, before = event.get("player"), last.get("player")
        return who is None or before is None or who == before

    def _seen_late(self, event: Event, verdict: Verdict, log: list[Event]) -> bool:
        """A draw refused that the game inferred already: the player's draw, inferred
        when the referee's pass came first (the watcher judges a draw once the arm has
        gone back, and waits longer for one that passed over the discard pile), since
        which only passes and colours came. Each inferred draw is seen so once.
        ``log``: the game's events before this one."""
        if verdict.ok or event.get("type") != "draw" or not event.get("player"):
            return False
        for index in range(len(log) - 1, -1, -1):
            before = log[index]
            if before.get("type") in ("pass", "color"):
                continue
            late = (
                before.get("type") == "draw"
                and before.get("inferred") is True
                and before.get("player") == event["player"]
                and int(before.get("count", 1)) >= int(event.get("count", 1))
                and index not in self._late
            )
            if late:
                self._late.add(index)
            return bool(late)
        return False

    def _plain(self, event: object) -> Healed:
        verdict = self.game.apply(event)
        shown = event if isinstance(event, dict) else {"type": None}
        size = len(self.game.events)
        if self.question is not None and size < self.question.end:
            self.question = undone(self.question, size)  # the healing taken back
        if self._silent is not None and size < self._silent.end:
            self._silent = undone(self._silent, size)
        if verdict.ok and shown.get("type") in ("round", "end-round"):
            self.question = self._silent = None  # a round's questions end with it
            self._refused = []
            self.view.new_round()
        return self._done(Healed([(shown, verdict)], verdict, verdict.ok))

    def _done(self, healed: Healed) -> Healed:
        self.view.note(self.game)
        return healed


# ---------------------------------------------------------------------- helpers


def _missable(verdict: Verdict, event: Event) -> bool:
    """Is the refusal one a missed event may explain? (A draw of several cards refused
    as too many may be a penalty the tracker did not know of.)"""
    for alert in verdict.alerts:
        if alert.code in MISS_CODES:
            continue
        reason = alert.params.get("reason")
        if alert.code == "bad-event" and (reason in MISS_REASONS or drawn_count(event) > 1):
            continue
        return False
    return bool(verdict.alerts)


def _design_state(game: Game) -> dict[str, Any]:
    """The DESIGN.md state of ``game`` (turn, direction, top, color, pending, hands)."""
    state = game.state_json()
    return {k: state[k] for k in ("turn", "direction", "top", "color", "pending_draw", "hands")}


__all__ = ["ASK", "AskReferee", "HealSettings", "Healed", "Healer"]
