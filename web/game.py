"""The game service: one tracker game per match, kept in step with the store.

Every event, from the referee's tablet or from the camera, goes through
:meth:`GameService.submit`: under one lock the tracker judges it, the store appends
event and verdict (committed before anyone is answered), then every live page hears
of it. On start the current match is rebuilt by replaying its stored events, so a
server killed mid-game comes back in exactly the same state.

With healing on (the default; ``HEAL`` in the app's config), the game is wrapped in a
:class:`tracker.heal.Healer`: a refusal that a missed event explains is healed, the
inferred events stored before the real one with source ``inferred`` (they undo like
any other), and where it is unsure ONE ``ask-referee`` alert offers a one-tap fix
(:meth:`GameService.resolve`). The camera's view of the pile comes in through
:meth:`GameService.observe_top`. See docs/healing.md.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tracker import Game, rulespec
from tracker.heal import AskReferee, Healed, Healer
from tracker.rules import RuleError, RuleSet
from web.broker import Broker
from web.store import Match, Store
from web.timeline import Entry, Timeline, is_amend_marker

#: The type of the stored event that changes the rules between rounds (the service's
#: own, never sent to the tracker; ``/api/events`` does not take it).
RULES_EVENT = "rules"
#: The source an inferred event is stored with (the page labels it).
INFERRED = "inferred"
ASK = "ask-referee"


def is_rules_change(event: Mapping[str, Any], verdict: Mapping[str, Any]) -> bool:
    """Whether a stored event is a change of the rule set (see :meth:`GameService.change_rules`)."""
    return event.get("type") == RULES_EVENT and "rule_set" in verdict


def resolve_rules(rules: RuleSet | object) -> RuleSet:
    """A rule set from a :class:`RuleSet`, a preset name or a ``{"preset", "set"}`` spec;
    :class:`ServiceError` (400) naming what is wrong otherwise."""
    if isinstance(rules, RuleSet):
        return rules
    try:
        return rulespec.from_spec(rules)
    except RuleError as exc:
        raise ServiceError(f"bad rule set: {exc}", 400) from exc


class ServiceError(Exception):
    """A request the game cannot take now; ``status`` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class Submitted:
    """What :meth:`GameService.submit` answers: the stored number and the verdict."""

    n: int
    verdict: dict[str, Any]
    snapshot: dict[str, Any] = field(repr=False)
    #: True when this is the stored answer to an earlier post with the same client_id.
    repeated: bool = False


def rounds_of(state: Mapping[str, Any]) -> list[dict[str, Any] | None]:
    """The match's rounds from the tracker's state: results so far, None for one in play."""
    scores = state.get("round_scores") or []
    rounds: list[dict[str, Any] | None] = [
        dict(s) if isinstance(s, Mapping) else {"points": s} for s in scores
    ]
    if state.get("in_round") and len(rounds) < int(state.get("round") or 0):
        rounds.append(None)
    return rounds


def _asks(verdict: Mapping[str, Any]) -> bool:
    """Whether a stored verdict asked the referee (an ``ask-referee`` alert)."""
    alerts = verdict.get("alerts")
    return isinstance(alerts, list) and any(
        isinstance(a, Mapping) and a.get("code") == ASK for a in alerts
    )


def _shown_source(source: str, verdict: Mapping[str, Any]) -> str:
    """The source the timeline says for a stored event: an event an amendment applied
    again is said as the one it repeats (the camera's, the referee's)."""
    again = verdict.get("again")
    if isinstance(again, Mapping) and isinstance(again.get("source"), str):
        return str(again["source"])
    return source


def history_size(game: Game) -> int:
    """How many events the game's history holds (those that changed the state).

    ``Game.events`` copies the list; the tracker's own list is read where it is one, so
    that following every event of a long match stays linear.
    """
    history = getattr(game, "_history", None)
    return len(history) if isinstance(history, list) else len(game.events)


class GameService:
    """Owns the current match's :class:`tracker.Game`; thread-safe."""

    def __init__(
        self,
        db_path: str,
        rules: RuleSet | str,
        players: Sequence[str],
        broker: Broker,
        *,
        new_match: bool = False,
        heal: bool = True,
    ) -> None:
        self.db_path = db_path
        self.heal = heal
        self.healer: Healer | None = None
        # The open ask-referee question's params (``question``, ``options``), if any.
        self._question: dict[str, Any] | None = None
        self.broker = broker
        self.lock = threading.RLock()
        self.recent_alerts: list[dict[str, Any]] = []
        # (number, source) of each event in the game's history, undone ones removed.
        self.applied: list[tuple[int, str]] = []
        # The refusals and verdicts the round's timeline lists (web/timeline.py).
        self.round_log = Timeline()
        # Called after every stored event as (event, verdict, source), e.g. the live loop.
        self.listeners: list[Callable[[dict[str, Any], dict[str, Any], str], None]] = []
        store = Store.open(db_path)
        try:
            match = store.latest_match()
            if match is None or new_match:
                # A bad rule set fails here, before anything is stored.
                store.create_match(list(players), resolve_rules(rules))
                match = store.latest_match()
            assert match is not None
            self._load(store, match)
        finally:
            store.close()

    # -- loading -------------------------------------------------------------------

    def _load(self, store: Store, match: Match) -> None:
        """Rebuild the game of ``match`` by replaying its stored events (a change of the
        rules between rounds is a stored event too, applied here, not by the tracker)."""
        stored = store.stored_events(match.id)
        game = Game(match.ruleset())
        self.match = match
        self.game = game
        self.n = stored[-1].n if stored else 0
        self.recent_alerts = []
        self.applied = []
        self.round_log = Timeline()
        verdict: dict[str, Any] | None = None
        for s in stored:
            if is_rules_change(s.event, s.verdict):
                game.rules = rulespec.from_spec(s.verdict["rule_set"])
                verdict = s.verdict
                continue
            if is_amend_marker(s.event, s.verdict):
                summary = s.verdict["amend"]
                self.round_log.drop(summary.get("dropped") or [])
                self.forget_alerts(set(summary.get("removed") or []))
                verdict = s.verdict
                continue
            size = history_size(game)
            verdict = game.apply(s.event).to_json()
            source = _shown_source(s.source, s.verdict)
            self._follow(size, s.n, source)
            refused = not verdict.get("ok") and history_size(game) == size
            self.round_log.note(s.n, source, s.event, verdict, self.applied, refused=refused)
            if s.verdict.get("healed") or _asks(s.verdict):
                verdict = s.verdict  # the healer's answer, as it was given
            self._track(s.event, verdict, s.n)
        self.last = verdict
        # A question asked before a restart is not asked again: its answer was applied.
        self.healer = Healer(game) if self.heal else None
        self._question = None

    def _follow(self, size_before: int, n: int, source: str) -> None:
        """Keep :attr:`applied` in step with the game's history after event ``n``."""
        size = history_size(self.game)
        self.applied.extend([(n, source)] * max(size - size_before, 0))
        del self.applied[len(self.applied) - max(size_before - size, 0) :]  # undone

    def undo_target(self) -> dict[str, Any] | None:
        """What an ``undo`` would take back now: the last event that changed the state
        (a refused play changed nothing, so it is not that), its number and source."""
        history = self.game.events
        if not history or not self.applied:
            return None
        n, source = self.applied[-1]
        return {"n": n, "source": source, "event": history[-1]}

    def timeline(self) -> list[Entry]:
        """The current round's events, oldest first (:class:`web.timeline.Timeline`)."""
        with self.lock:
            return self.round_log.entries(self.applied, self.game.events)

    def forget_alerts(self, numbers: set[int]) -> None:
        """Take the alerts of events no longer in the record out of the recent ones."""
        self.recent_alerts = [a for a in self.recent_alerts if a.get("n") not in numbers]

    def clear_question(self) -> None:
        """The open question is no longer asked (the log it asked about was rewritten:
        :meth:`tracker.heal.Healer.amend` forgot it)."""
        self._question = None

    def _track(self, event: dict[str, Any], verdict: dict[str, Any], n: int) -> None:
        for alert in verdict.get("alerts") or []:
            self.recent_alerts.append({**alert, "n": n, "event": event})
        del self.recent_alerts[:-20]

    # -- reading -------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything a page needs to draw itself."""
        with self.lock:
            return {
                "match": self.match.to_json(),
                "rule_set": rulespec.spec_of(self.game.rules),
                "n": self.n,
                "game": self.game.state_json(),
                "last": self.last,
                "alerts": list(self.recent_alerts),
                "undo": self.undo_target(),
                "question": self.open_question(),
            }

    def open_question(self) -> dict[str, Any] | None:
        """The open ``ask-referee`` question, if any: its alert's ``params`` as they are
        now (a later event may have revised which option is applied: option 0 is always
        the one in the record) and ``n``, the number of the event that asked it."""
        healer, asked = self.healer, self._question
        if healer is None or healer.question is None or asked is None:
            return None
        params = AskReferee(None, healer.question.options, int(asked["question"])).params
        return {**params, "n": asked["n"]}

    # -- writing -------------------------------------------------------------------

    def submit(
        self, event: dict[str, Any], store: Store, *, source: str, client_id: str | None = None
    ) -> Submitted:
        """Judge ``event``, store it with its verdict, tell every page; in that order.

        ``client_id`` is the poster's own id for this event: posted again (a retry after
        a lost answer), the stored answer comes back and nothing is applied twice.
        """
        with self.lock:
            if client_id is not None:
                earlier = self._earlier(store, client_id, event)
                if earlier is not None:
                    return earlier
            return self._submit(event, store, source, client_id)

    def _earlier(
        self, store: Store, client_id: str, event: dict[str, Any] | None
    ) -> Submitted | None:
        """The stored answer to ``client_id``; 409 if it was another event."""
        stored = store.event_by_client_id(client_id)
        if stored is None:
            return None
        if event is not None and stored.event != event:
            raise ServiceError(
                f"client_id {client_id!r} was already used for another event "
                f"({stored.event.get('type')}, number {stored.n}); choose a new one"
            )
        return Submitted(stored.n, stored.verdict, self.snapshot(), repeated=True)

    def _submit(
        self, event: dict[str, Any], store: Store, source: str, client_id: str | None = None
    ) -> Submitted:
        def judge() -> Healed | None:
            if self.healer is not None:
                return self.healer.apply(event)
            verdict = self.game.apply(event)
            return Healed([(event, verdict)], verdict, verdict.ok)

        return self._store(judge, event, store, source, client_id)

    def _store(
        self,
        judge: Callable[[], Healed | None],
        event: dict[str, Any] | None,
        store: Store,
        source: str,
        client_id: str | None = None,
    ) -> Submitted:
        """Apply what ``judge`` does to the game, store each of its steps (the inferred
        events, and every step before the input's own, with source ``inferred``; the
        last with the whole verdict and ``client_id``), then tell every page. ``event``
        is the input (None: the camera's view of the pile, or the referee's answer to
        a question); its own step is stored with ``source``."""
        try:
            healed = judge()
            if healed is None:
                raise ServiceError("nothing to apply")
            verdict = healed.to_json()
        except ServiceError:
            raise
        except (LookupError, ValueError):
            raise  # the caller's error (a resolve with no such question)
        except Exception as exc:  # the tracker promises not to raise; be safe anyway
            self._reload(store)
            raise ServiceError(f"the tracker failed on this event: {exc}", 500) from exc
        steps = [(e, v.to_json()) for e, v in healed.steps]
        if not steps:  # a play reported twice: nothing to store
            return Submitted(self.n, verdict, self.snapshot())
        steps[-1] = (steps[-1][0], verdict)
        # Every step before the input's own is the healer's (inferred events, the undos
        # a correction takes, events applied again).
        sources = [
            source if i == len(steps) - 1 and not step.get("inferred") else INFERRED
            for i, (step, _) in enumerate(steps)
        ]
        return self.record(steps, sources, sources, event, source, client_id, store)

    def record(
        self,
        steps: Sequence[tuple[dict[str, Any], dict[str, Any]]],
        sources: Sequence[str],
        shown: Sequence[str],
        event: dict[str, Any] | None,
        source: str,
        client_id: str | None,
        store: Store,
        *,
        before_publish: Callable[[], None] | None = None,
    ) -> Submitted:
        """Store steps the game has applied (each with its stored source; ``shown`` is
        the source the timeline says, e.g. the camera's for an event applied again; the
        last step with ``client_id``), then tell every page. ``event`` is the input
        (None: the last step is shown), ``source`` who sent it."""
        state = self.game.state_json()
        rows = [
            (step, answer, by, client_id if i == len(steps) - 1 else None)
            for i, ((step, answer), by) in enumerate(zip(steps, sources, strict=True))
        ]
        try:
            # One transaction: every step of a healing or an amendment, or none.
            numbers = store.append_events(self.match.id, rows, rounds=rounds_of(state))
            stored = list(zip(numbers, sources, strict=True))
        except Exception as exc:
            # Not stored, so not applied: rebuild the game from what is stored.
            self._reload(store)
            raise ServiceError(f"could not store the event: {exc}", 503) from exc
        verdict = steps[-1][1]
        n = stored[-1][0]
        self.n = n
        self.last = verdict
        self._follow_steps(
            steps, [(number, by) for (number, _), by in zip(stored, shown, strict=True)]
        )
        for (step, answer), (number, _) in zip(steps, stored, strict=True):
            self._track(step, answer, number)
            for alert in answer.get("alerts") or []:  # (the last question asked stays)
                if isinstance(alert, Mapping) and alert.get("code") == ASK:
                    self._question = {**alert.get("params", {}), "n": number}
        winner = state.get("match_winner")
        if (winner or None) != self.match.winner:
            store.set_match_winner(self.match.id, winner or None)
            self.match = store.match(self.match.id) or self.match
        if before_publish is not None:
            before_publish()
        snapshot = self.snapshot()
        shown_event = event if event is not None else steps[-1][0]
        self.broker.publish(
            "verdict",
            {
                "n": n,
                "t": time.time(),
                "source": source,
                "event": shown_event,
                "verdict": verdict,
                "snapshot": snapshot,
                "steps": [
                    {"n": number, "source": by, "event": step}
                    for (step, _), (number, by) in zip(steps, stored, strict=True)
                ],
            },
        )
        for listener in self.listeners:
            # A listener's failure is its own: the event is stored and published.
            with contextlib.suppress(Exception):
                listener(shown_event, verdict, source)
        return Submitted(n, verdict, snapshot)

    def _follow_steps(
        self,
        steps: Sequence[tuple[dict[str, Any], dict[str, Any]]],
        stored: Sequence[tuple[int, str]],
    ) -> None:
        """:meth:`_follow` over several stored steps: an accepted ``undo`` takes one
        back, another accepted event adds one; then matched to the game's history."""
        for (step, answer), (n, by) in zip(steps, stored, strict=True):
            if step.get("type") == "amend":  # an amendment's marker: not the game's
                continue
            ok = bool(answer.get("ok"))
            if ok and step.get("type") == "undo":
                del self.applied[-1:]
            elif ok:
                self.applied.append((n, by))
            self.round_log.note(n, by, step, answer, self.applied, refused=not ok)
        size = history_size(self.game)
        while len(self.applied) < size:  # (an event the tracker kept though refused)
            self.applied.append(stored[-1])
        del self.applied[size:]

    def observe_top(self, card: str | None, t: float, store: Store) -> Submitted | None:
        """The card the camera sees on top of the discard pile at video time ``t``
        (:meth:`tracker.heal.Healer.observe_top`): a steady top unlike the record's is
        healed, its steps stored and published like an event's. None when nothing
        was done (or healing is off)."""
        with self.lock:
            healer = self.healer
            if healer is None:
                return None
            healed = healer.observe_top(card, t)
            if healed is None:
                return None
            return self._store(lambda: healed, None, store, INFERRED)

    def resolve(
        self,
        question: int,
        index: int,
        store: Store,
        *,
        card: str | None = None,
        color: str | None = None,
    ) -> Submitted:
        """The referee's answer to the open ``ask-referee`` question ``question``:
        option ``index`` is what happened (0, the one applied: nothing changes), with
        ``card`` (and a wild's ``color``) when the card was another ("Correct it")."""
        with self.lock:
            healer = self.healer
            open_q = self.open_question()
            if healer is None or open_q is None:
                raise ServiceError("no question is open: nothing to answer")
            if open_q.get("question") != question:
                raise ServiceError(
                    f"question {question} is no longer open (the open one is "
                    f"{open_q.get('question')}); reload the page"
                )
            options = open_q.get("options") or []
            if not 0 <= index < len(options):
                raise ServiceError(f"question {question} has no option {index}", 400)
            if index == 0 and card is None:  # "Yes": as recorded; nothing changes
                healer.question = None
                verdict = {**(self.last or {}), "alerts": [], "answered": question}
                snapshot = self.snapshot()
                self.broker.publish("snapshot", snapshot)
                return Submitted(self.n, verdict, snapshot)
            try:
                return self._store(
                    lambda: healer.resolve(index, card=card, color=color),
                    None,
                    store,
                    "referee",
                )
            except LookupError as exc:
                raise ServiceError(str(exc)) from exc
            except ValueError as exc:
                raise ServiceError(f"cannot correct to that card: {exc}", 400) from exc

    def reload(self, store: Store) -> None:
        """Rebuild the game from what is stored (after a failure half-way)."""
        self._reload(store)

    def _reload(self, store: Store) -> None:
        self._question = None
        match = store.match(self.match.id) or self.match
        self._load(store, match)

    def correct(
        self, card: str, color: str | None, store: Store, *, client_id: str | None = None
    ) -> list[Submitted]:
        """Replace the last play (a misread card) by ``card``: an undo, then the play.

        With ``client_id``, the undo and the play are stored as ``<client_id>/undo`` and
        ``<client_id>/play``; a retry gets their stored answers.
        """
        ids = (f"{client_id}/undo", f"{client_id}/play") if client_id else (None, None)
        with self.lock:
            if ids[0] is not None and ids[1] is not None:
                first = self._earlier(store, ids[0], None)
                if first is not None:
                    stored = store.event_by_client_id(ids[1])
                    if stored is not None and stored.event.get("card") != card:
                        raise ServiceError(
                            f"client_id {client_id!r} was already used to correct to "
                            f"{stored.event.get('card')}; choose a new one"
                        )
                    second = self._earlier(store, ids[1], None)
                    return [first] if second is None else [first, second]
            history = self.game.events  # the events that changed the state, undos removed
            if not history or history[-1].get("type") != "play":
                raise ServiceError("the last event applied is not a play; nothing to correct")
            player = history[-1].get("player")
            if not player:
                # "Whoever's turn it was": the state an undo would go back to.
                player = self.game.judge({"type": "undo"}).state.get("turn")
            play: dict[str, Any] = {"type": "play", "card": card}
            if player:
                play["player"] = player
            if color:
                play["color"] = color
            undone = self._submit({"type": "undo"}, store, "referee", ids[0])
            if not undone.verdict.get("ok"):
                return [undone]
            return [undone, self._submit(play, store, "referee", ids[1])]

    def preview(self, event: dict[str, Any], store: Store) -> dict[str, Any]:
        """The verdict ``event`` would get now, without applying or storing it."""
        del store  # judged on the live game, which is in step with the store
        with self.lock:
            return self.game.judge(event).to_json()

    def change_rules(
        self, rules: RuleSet | object, store: Store, *, client_id: str | None = None
    ) -> Submitted:
        """Change the rule set between rounds; stored (and logged) as a ``rules`` event.

        Refused (409) while a round is in progress: a rule must not change under a hand
        being played. Undoing back into an earlier round keeps the new rules.
        """
        ruleset = resolve_rules(rules)
        with self.lock:
            if client_id is not None:
                earlier = self._earlier(store, client_id, None)
                if earlier is not None:
                    return earlier
            if self.game.state_json().get("in_round"):
                raise ServiceError(
                    "a round is in progress: the rules can change only between rounds "
                    "(end the round first)"
                )
            spec = rulespec.spec_of(ruleset)
            event = {"type": RULES_EVENT, **spec}
            verdict = {"ok": True, "alerts": [], "rule_set": spec, "seq": self.game.seq}
            try:
                n = store.append_event(
                    self.match.id, event, verdict, source="referee", client_id=client_id
                )
            except Exception as exc:
                raise ServiceError(f"could not store the change: {exc}", 503) from exc
            self.game.rules = ruleset
            self.n = n
            self.last = verdict
            snapshot = self.snapshot()
            self.broker.publish(
                "verdict",
                {
                    "n": n,
                    "t": time.time(),
                    "source": "referee",
                    "event": event,
                    "verdict": verdict,
                    "snapshot": snapshot,
                },
            )
            return Submitted(n, verdict, snapshot)

    def new_match(
        self,
        players: Sequence[str],
        rules: RuleSet | object,
        store: Store,
        *,
        client_id: str | None = None,
    ) -> tuple[Match, bool]:
        """Finish the current match and start a new one; ``(match, repeated)``.

        ``rules`` is a rule set, a preset name or ``{"preset", "set"}``. With
        ``client_id``, a retry answers the match the first request made.
        """
        ruleset = resolve_rules(rules)
        with self.lock:
            if client_id is not None:
                earlier = store.match_by_client_id(client_id)
                if earlier is not None:
                    return earlier, True
            match_id = store.create_match(list(players), ruleset, client_id=client_id)
            match = store.match(match_id)
            assert match is not None
            self._load(store, match)
            self.broker.publish("snapshot", self.snapshot())
            return match, False
