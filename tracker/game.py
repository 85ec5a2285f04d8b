"""The game: apply an event, get a verdict; undo; replay a log.

The tracker is an observer: it sees what lands on the table and hears the referee's
rulings, so it knows how many cards each player holds, never which. Every event gets
exactly one :class:`Verdict`; bad input gives a ``bad-event`` verdict, never an
exception. The rules of each event type are in :mod:`tracker.handlers`; the game
dispatches to them, keeps the history and undoes.

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

from tracker.events import EVENT_TYPES, Event, EventError, parse_event
from tracker.handlers import HANDLERS
from tracker.handlers.common import Bad, Context
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
        #: Positions in the history of the events applied marked ``"inferred": true``
        #: (a healer's events for what the camera missed): :attr:`events` keeps the mark.
        self._inferred: set[int] = set()
        self._checkpoints: dict[int, GameState] = {0: self._s.copy()}
        self._handlers: dict[str, Any] = {
            etype: partial(handler, self._ctx) for etype, handler in HANDLERS.items()
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
        inferred = isinstance(event, dict) and event.get(INFERRED) is True
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
            if inferred:
                self._inferred.add(len(history) - 1)
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
        inferred = set(self._inferred)
        self._s = self._s.copy()  # the handlers change the state in place
        try:
            return self.apply(event)
        finally:
            self.seq, self._s, self._history, self._checkpoints = saved
            self._inferred = inferred
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
        """The events that changed the state, in order (undone ones removed), as JSON;
        those applied marked ``"inferred": true`` keep the mark.

        >>> game = Game()
        >>> _ = game.apply({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"})
        >>> _ = game.apply({"type": "flip", "card": "red-5"})
        >>> _ = game.apply({"type": "draw", "player": "Ann", "inferred": True})
        >>> game.events[-1]
        {'type': 'draw', 'player': 'Ann', 'inferred': True}
        >>> game.history[-1]
        Draw(player='Ann', count=None)
        """
        marked = self._inferred
        return [
            {**event.to_json(), INFERRED: True} if i in marked else event.to_json()
            for i, event in enumerate(self._history)
        ]

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
        self._inferred.discard(len(self._history))
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


# ---------------------------------------------------------------------- helpers

_EVENT_CLASSES: Final = tuple(EVENT_TYPES.values())
#: The key that marks an event the healer inferred (:attr:`Game.events` keeps it).
INFERRED: Final = "inferred"


__all__ = ["Game", "Verdict"]
