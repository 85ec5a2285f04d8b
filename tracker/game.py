"""The game: apply an event, get a verdict; undo; replay a log.

The tracker is an observer: it sees what lands on the table and hears the referee's
rulings, so it knows how many cards each player holds, never which. Every event gets
exactly one :class:`Verdict`; bad input gives a ``bad-event`` verdict, never an
exception.

>>> from tracker.rules import preset
>>> game = Game(preset("official"))
>>> _ = game.apply({"type": "round", "players": ["Ann", "Bob", "Cy"], "dealer": "Cy"})
>>> _ = game.apply({"type": "flip", "card": "red-5"})
>>> game.apply({"type": "play", "card": "red-7"}).ok
True
>>> verdict = game.apply({"type": "play", "card": "blue-3"})
>>> verdict.ok, verdict.alerts[0].code, verdict.state["turn"]
(False, 'illegal-card', 'Bob')
>>> game.undo().state["top"]
'red-5'
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from functools import partial
from typing import Any, Final

from tracker.events import (
    EVENT_TYPES,
    Catch,
    Challenge,
    Draw,
    Event,
    EventError,
    Pass,
    Uno,
    parse_event,
)
from tracker.handlers.common import Bad, Context
from tracker.handlers.plays import on_color, on_play
from tracker.handlers.rounds import on_end_round, on_flip, on_round
from tracker.messages import Alert
from tracker.rules import OFFICIAL, RuleSet
from tracker.state import FLIP, OVER, PHASE_NAMES, PLAY, GameState
from tracker.verdict import Verdict


class Game:
    """A match of UNO as a referee follows it: rounds, turns, penalties, scores.

    ``Game(rules)`` waits for a ``round`` event. :meth:`apply` takes one event (a dict,
    as parsed from a JSON line) and returns a :class:`Verdict`; it never raises.
    """

    #: Undo rebuilds the state from the nearest checkpoint; one is kept every N changes.
    CHECKPOINT_EVERY: Final = 64

    def __init__(self, rules: RuleSet | None = None) -> None:
        self._ctx = Context(rules if rules is not None else OFFICIAL)
        self.seq = 0
        self._s = GameState()
        self._history: list[Event] = []
        self._checkpoints: dict[int, GameState] = {0: self._s.copy()}
        self._handlers: dict[str, Any] = {
            "round": partial(on_round, self._ctx),
            "flip": partial(on_flip, self._ctx),
            "play": partial(on_play, self._ctx),
            "color": partial(on_color, self._ctx),
            "draw": self._on_draw,
            "pass": self._on_pass,
            "uno": self._on_uno,
            "catch": self._on_catch,
            "challenge": self._on_challenge,
            "end-round": partial(on_end_round, self._ctx),
        }

    # ------------------------------------------------------------------ public API

    @property
    def rules(self) -> RuleSet:
        """The rules the game judges by; may be changed between events."""
        return self._ctx.rules

    @rules.setter
    def rules(self, rules: RuleSet) -> None:
        self._ctx.rules = rules

    @classmethod
    def replay(
        cls, events: Iterable[object], rules: RuleSet | None = None
    ) -> tuple[Game, list[Verdict]]:
        """Apply every event of a log to a new game; the game and one verdict per event.

        >>> game, verdicts = Game.replay([{"type": "round", "players": ["A", "B"]}])
        >>> verdicts[0].ok, game.state_json()["hands"]
        (True, {'A': 7, 'B': 7})
        """
        game = cls(rules)
        return game, [game.apply(event) for event in events]

    def apply(self, event: object) -> Verdict:
        """Judge one event, apply it when it is legal, and say what happened.

        ``event`` is a typed event (:mod:`tracker.events`) or a dict, parsed here.
        """
        self.seq += 1
        self._ctx.extra = None
        if not isinstance(event, _EVENT_CLASSES):
            try:
                event = parse_event(event)
            except EventError as error:
                bad = Alert("bad-event", None, {"reason": error.reason, "detail": str(error)})
                return self._verdict(False, [bad])
        etype = event.type
        if etype == "undo":
            return self._undo()
        try:
            ok, alerts, changed = self._handlers[etype](self._s, event)
        except Bad as bad:
            return self._verdict(False, [bad.alert])
        except Exception as error:  # a bug must not stop the live game
            with contextlib.suppress(Exception):
                self._rebuild()  # back to the state before this event
            internal = Bad("internal", f"{type(error).__name__}: {error}")
            return self._verdict(False, [internal.alert])
        if changed:
            if etype != "color" and not (ok and etype == "play"):
                self._s.multi = ()
            history = self._history
            history.append(event)
            if not len(history) % self.CHECKPOINT_EVERY:
                self._checkpoints[len(history)] = self._s.copy()
        return self._verdict(ok, alerts)

    def judge(self, event: object) -> Verdict:
        """The verdict ``event`` would get now, without applying it (no side effect).

        >>> from tracker.events import parse_event
        >>> game = Game()
        >>> _ = game.apply({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"})
        >>> _ = game.apply({"type": "flip", "card": "red-5"})
        >>> game.judge({"type": "play", "card": "blue-3"}).codes
        ['illegal-card']
        >>> game.judge(parse_event({"type": "play", "card": "red-3"})).state["top"]
        'red-3'
        >>> game.state_json()["top"], game.seq
        ('red-5', 2)

        Judging an ``undo`` says what the state was before the last event, e.g. whose
        turn it was before the last play:

        >>> _ = game.apply({"type": "play", "card": "red-3"})
        >>> game.judge({"type": "undo"}).state["turn"], game.state_json()["turn"]
        ('Ann', 'Bob')
        """
        saved = (self.seq, self._s, list(self._history), dict(self._checkpoints))
        self._s = self._s.copy()  # the handlers change the state in place
        try:
            return self.apply(event)
        finally:
            self.seq, self._s, self._history, self._checkpoints = saved
            self._ctx.extra = None

    def apply_json(self, line: str | bytes) -> Verdict:
        """Judge one line of a JSON Lines log; a line that is not JSON gets ``bad-event``.

        >>> Game().apply_json("{oops").alerts[0].params["reason"]
        'not-json'
        """
        try:
            event = json.loads(line)
        except (ValueError, RecursionError) as error:  # not UTF-8; nested too deep
            self.seq += 1
            self._ctx.extra = None
            not_json = Bad("not-json", f"the line is not JSON ({error})")
            return self._verdict(False, [not_json.alert])
        return self.apply(event)

    def undo(self) -> Verdict:
        """Take back the last event that changed the state (same as ``{"type": "undo"}``)."""
        return self.apply({"type": "undo"})

    @property
    def events(self) -> list[dict[str, Any]]:
        """The events that changed the state, in order (undone ones removed), as JSON."""
        return [event.to_json() for event in self._history]

    @property
    def history(self) -> tuple[Event, ...]:
        """The events that changed the state, as typed values."""
        return tuple(self._history)

    def state_json(self) -> dict[str, Any]:
        """The DESIGN.md state plus the match: players, round, dealer, totals, scores."""
        s = self._s
        state = self._state()
        dealer = s.dealer if s.phase in (FLIP, PLAY, OVER) else s.next_dealer
        state.update(
            {
                "players": list(s.players),
                "round": s.round_no,
                "dealer": s.players[dealer] if s.players and dealer >= 0 else None,
                "totals": dict(zip(s.players, s.totals, strict=True)),
                "round_scores": [dict(r) for r in s.round_scores],
                "rules": self.rules.name,
                "in_round": s.phase in (FLIP, PLAY, OVER),
                "match_winner": s.match_winner,
                "phase": PHASE_NAMES[s.phase],
                "draw_pile": s.draw_pile,
                "discard_pile": s.discard,
                "uno_called": [p for p, c in zip(s.players, s.called, strict=True) if c],
            }
        )
        return state

    # ------------------------------------------------------------------ plumbing

    def _state(self) -> dict[str, Any]:
        s = self._s
        top = s.top
        return {
            "turn": s.players[s.turn] if s.turn >= 0 else None,
            "direction": "clockwise" if s.direction == 1 else "counterclockwise",
            "top": top.name if top is not None else None,
            "color": s.color,
            "pending_draw": s.pending,
            "hands": dict(zip(s.players, s.hands, strict=True)),
        }

    def _verdict(self, ok: bool, alerts: list[Alert]) -> Verdict:
        s = self._s
        top = s.top
        snapshot = (
            s.players,
            tuple(s.hands),
            s.players[s.turn] if s.turn >= 0 else None,
            "clockwise" if s.direction == 1 else "counterclockwise",
            top.name if top is not None else None,
            s.color,
            s.pending,
        )
        return Verdict(self.seq, ok, alerts, snapshot, self._ctx.extra)

    def _undo(self) -> Verdict:
        if not self._history:
            bad = Bad("nothing-to-undo", "nothing to undo")
            return self._verdict(False, [bad.alert])
        self._history.pop()
        self._rebuild()
        return self._verdict(True, [])

    def _rebuild(self) -> None:
        """Restore the state from the nearest checkpoint and the events after it."""
        size = len(self._history)
        for key in [k for k in self._checkpoints if k > size]:
            del self._checkpoints[key]
        start = max(self._checkpoints)
        self._s = self._checkpoints[start].copy()
        for event in self._history[start:]:
            self._handlers[event.type](self._s, event)
        self._ctx.extra = None

    # ------------------------------------------------------------------ handlers

    def _on_draw(self, s: GameState, ev: Draw) -> tuple[bool, list[Alert], bool]:
        c = self._ctx
        rules = c.rules
        if not (s.phase == OVER and s.pending):
            c.need_play(s)
        count = 1 if ev.count is None else ev.count
        seat = c.seat(s, ev.player)
        name = s.players[seat]
        implied_pass = False
        if seat != s.turn:
            if s.phase == PLAY and s.drew and s.pending == 0 and seat == c.next(s, s.turn):
                implied_pass = True
            else:
                alert = Alert("out-of-turn", name, {"turn": c.name(s, s.turn)}, "draw")
                return False, [alert], False
        pending = 0 if implied_pass else s.pending
        if pending:
            if count > pending:
                raise Bad(
                    "bad-field", f"{name} takes the {pending} penalty cards, not {count}", name
                )
        elif not rules.draw_until_playable:
            if s.drew and not implied_pass:
                raise Bad("already-drew", f"{name} already drew a card this turn", name)
            if count > 1:
                raise Bad("bad-field", f"{name} draws one card on a turn under these rules", name)
        if count > c.available(s):
            raise Bad("empty-pile", f"only {c.available(s)} card(s) are left to draw", name)
        if implied_pass:
            s.turn = seat
        if s.catch != seat:
            s.catch = -1
        s.wd4 = None
        s.auto_passed = -1
        c.take(s, seat, count)
        if pending:
            s.pending -= count
            if s.pending == 0:
                s.pending_kind = ""
                s.penalty_served = True
                s.turn = c.next(s, seat) if s.phase == PLAY else -1
        else:
            s.drew = True
            if not rules.play_drawn_card and not rules.draw_until_playable:
                s.drew = False
                s.auto_passed = seat
                s.turn = c.next(s, seat)
        c.pile_check(s)
        if s.provisional_call is not None:
            call, s.provisional_call = s.provisional_call, None
            return True, c.false_call(s, call), True
        return True, [], True

    def _on_pass(self, s: GameState, ev: Pass) -> tuple[bool, list[Alert], bool]:
        c = self._ctx
        c.need_play(s)
        seat = c.seat(s, ev.player)
        name = s.players[seat]
        if seat != s.turn:
            if seat == s.auto_passed:
                return True, [], False  # drawing already ended that turn
            alert = Alert("out-of-turn", name, {"turn": c.name(s, s.turn)}, "pass")
            return False, [alert], False
        if s.pending:
            raise Bad("must-draw-penalty", f"{name} must take the {s.pending} cards", name)
        if not s.drew and c.available(s) > 0:
            # (With nothing left to draw, a player who cannot play just passes.)
            raise Bad("must-draw", f"{name} must draw a card before passing", name)
        if s.catch != seat:
            s.catch = -1
        s.wd4 = None
        s.drew = False
        s.turn = c.next(s, seat)
        if s.provisional_call is not None:
            call, s.provisional_call = s.provisional_call, None
            return True, c.false_call(s, call), True
        return True, [], True

    def _on_uno(self, s: GameState, ev: Uno) -> tuple[bool, list[Alert], bool]:
        c = self._ctx
        c.need_play(s)
        seat = c.seat(s, ev.player)
        held = s.hands[seat]
        if held > 2 and c.rules.multi_play and seat == s.turn:
            # Before several cards at once: the play that follows says whether it was true.
            changed = s.provisional_call != (seat, held)
            s.provisional_call = (seat, held)
            return True, [], changed
        # The call counts just before (2 cards) or just after (1 card) the next-to-last card.
        if held in (1, 2):
            changed = not s.called[seat] or s.catch == seat
            s.called[seat] = True
            if s.catch == seat:
                s.catch = -1
            return True, [], changed
        penalty = c.rules.false_uno_penalty
        if penalty:
            taken = c.take(s, seat, penalty)
            c.pile_check(s)
            alert = Alert("false-uno", s.players[seat], {"hand": held, "count": taken})
            return False, [alert], True
        return True, [], False

    def _on_catch(self, s: GameState, ev: Catch) -> tuple[bool, list[Alert], bool]:
        c = self._ctx
        if s.phase not in (PLAY, OVER):
            c.need_play(s)
        seat = c.seat(s, ev.player)
        by = c.seat(s, ev.by, "by")
        name = s.players[seat]
        if by == seat:
            raise Bad("bad-field", f"{name} cannot catch themselves", name)
        if s.catch != seat:
            if s.hands[seat] != 1:
                why = f"{name} holds {s.hands[seat]} cards"
            elif s.called[seat]:
                why = f"{name} called UNO"
            else:
                why = "too late: the next player has already acted"
            raise Bad("catch-rejected", f"the catch does not stand: {why}", name)
        taken = c.take(s, seat, c.rules.uno_penalty)
        s.catch = -1
        c.pile_check(s)
        params = {"by": s.players[by], "count": taken}
        return True, [Alert("missed-uno", name, params)], True

    def _on_challenge(self, s: GameState, ev: Challenge) -> tuple[bool, list[Alert], bool]:
        c = self._ctx
        rules = c.rules
        c.need_play(s)
        if not (rules.draw4_restricted and rules.draw4_challenge):
            raise Bad("no-challenge", "these rules have no Wild Draw Four challenge")
        guilty = ev.guilty
        seat = c.seat(s, ev.player)
        name = s.players[seat]
        if s.wd4 is None or s.wd4[1] != seat:
            raise Bad(
                "no-challenge",
                f"{name} cannot challenge now: only the victim of the Wild Draw Four just "
                "played, before acting",
                name,
            )
        offender, victim = s.wd4
        s.wd4 = None
        if guilty:
            taken = c.take(s, offender, rules.challenge_guilty_draw)
            s.pending = max(s.pending - 4, 0)
            if s.pending == 0:
                s.pending_kind = ""
                if rules.challenge_guilty_victim_loses_turn:
                    s.turn = c.next(s, victim)
            c.pile_check(s)
            alert = Alert("wild-draw4-bluff", s.players[offender], {"count": taken, "by": name})
            return True, [alert], True
        c.take(s, victim, s.pending + rules.challenge_wrong_draw - 4)
        s.pending = 0
        s.pending_kind = ""
        s.penalty_served = True
        s.turn = c.next(s, victim)
        c.pile_check(s)
        return True, [], True


# ---------------------------------------------------------------------- helpers

_EVENT_CLASSES: Final = tuple(EVENT_TYPES.values())


__all__ = ["Game", "Verdict"]
