"""Amend a past event: undo back to it, drop, replace or insert, judge the rest again.

The referee's timeline (``POST /api/amend``) corrects the record after the fact: a
play the camera misread three turns ago, a draw it missed, an event reported twice.
:func:`rewrite` takes the game's history back to ``base`` events with ``undo`` (the
game's own undo, from its checkpoints), applies the ``new`` events, then every ``later``
event again, each judged afresh by ``apply`` (a :class:`tracker.heal.Healer`'s, so
that a re-judged event a miss explains is healed as it would be live; the game's own
otherwise). Every step is returned, with its role, for the caller to store: the record
is never rewritten in place, only added to.

>>> game = Game()
>>> for e in [{"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"},
...           {"type": "flip", "card": "red-5"},
...           {"type": "play", "card": "red-9"},      # the camera misread blue-5
...           {"type": "play", "card": "blue-7"}]:    # refused: blue on red-9
...     _ = game.apply(e)
>>> game.state_json()["top"]
'red-9'
>>> later = [{"type": "play", "card": "blue-7"}]
>>> done = rewrite(game, 2, [{"type": "play", "card": "blue-5"}], later)
>>> [(role, e["type"], v.ok) for e, v, role, _ in done.steps]
[('undo', 'undo', True), ('new', 'play', True), ('again', 'play', True)]
>>> game.state_json()["top"], done.alerts
('blue-7', [])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from tracker.game import Game, Verdict

Event = dict[str, Any]

#: The roles of the steps of a rewrite: an undo back to the amended event, the
#: referee's new event(s), a later event judged again, and an event a judge added on
#: its own while judging one again (a healer's inferred event, or its undos).
UNDO: Final = "undo"
NEW: Final = "new"
AGAIN: Final = "again"
ADDED: Final = "added"
#: Event types whose player, left out, is the one on turn (named in a new event).
NAMED: Final = frozenset({"play", "draw", "pass"})


class Judged(Protocol):
    """What a judge answers for one event (a :class:`tracker.heal.Healed` is one)."""

    steps: list[tuple[Event, Verdict]]
    alerts: list[Any]


@dataclass
class _Plain:
    steps: list[tuple[Event, Verdict]]
    alerts: list[Any]


@dataclass
class Rewrite:
    """The steps of a rewrite, in order: ``(event, verdict, role, index)``; ``index`` is
    the position in ``later`` of the event a step judges again (None for the others)."""

    steps: list[tuple[Event, Verdict, str, int | None]] = field(default_factory=list)
    #: Every alert of the events judged again (and of the new ones), in order.
    alerts: list[Any] = field(default_factory=list)
    #: By step index, the alerts a judge gave an event judged again where they are not
    #: its step's verdict's (a healer's question about it, for one).
    judged_alerts: dict[int, list[Any]] = field(default_factory=dict)

    @property
    def final(self) -> Verdict | None:
        """The last step's verdict (None when nothing was applied)."""
        return self.steps[-1][1] if self.steps else None


def rewind(game: Game, base: int, steps: list[tuple[Event, Verdict]] | None = None) -> None:
    """Undo the game's history back to ``base`` events; the undos go to ``steps``.

    >>> game, _ = Game.replay([{"type": "round", "players": ["A", "B"]},
    ...                        {"type": "flip", "card": "red-1"}])
    >>> rewind(game, 1); [e["type"] for e in game.events]
    ['round']
    """
    while len(game.history) > base:
        undo: Event = {"type": "undo"}
        verdict = game.apply(undo)
        if steps is not None:
            steps.append((undo, verdict))


def rewrite(
    game: Game,
    base: int,
    new: Sequence[Event],
    later: Sequence[Event],
    judge: Callable[[Event], Judged] | None = None,
) -> Rewrite:
    """Undo back to ``base`` events of the history, apply ``new`` (a play, draw or
    pass with no ``player`` gets the one on turn there), then each of ``later`` again
    through ``judge`` (default: the game's own ``apply``).

    Raises ``ValueError`` when ``base`` is beyond the history (nothing is changed).
    """
    if not 0 <= base <= len(game.history):
        raise ValueError(f"no event {base} in a history of {len(game.history)}")

    def plain(event: Event) -> Judged:
        verdict = game.apply(event)
        return _Plain([(event, verdict)], list(verdict.alerts))

    judge = judge or plain
    done = Rewrite()
    undos: list[tuple[Event, Verdict]] = []
    rewind(game, base, undos)
    done.steps += [(e, v, UNDO, None) for e, v in undos]
    for event in new:
        if event.get("type") in NAMED and "player" not in event:
            # "Whoever's turn it was" there, named: the record says who.
            turn = game.state_json()["turn"]
            event = {**event, "player": turn} if turn else event
        verdict = game.apply(event)
        done.steps.append((event, verdict, NEW, None))
        done.alerts += verdict.alerts
    for index, event in enumerate(later):
        judged = judge(event)
        for step, verdict in judged.steps:
            own = step is event  # (a judge that heals adds steps before it)
            if own and list(judged.alerts) != list(verdict.alerts):
                done.judged_alerts[len(done.steps)] = list(judged.alerts)
            done.steps.append((step, verdict, AGAIN if own else ADDED, index if own else None))
        done.alerts += judged.alerts
    return done
