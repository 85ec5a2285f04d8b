"""The rules per event type, as :class:`~tracker.game.Game` applies them: one handler
per event type, taking a :class:`~tracker.handlers.common.Context`, the state and the
typed event; it changes the state in place and says ``(ok, alerts, changed)``.

* :mod:`tracker.handlers.common`: the context (rules, a verdict's extra) and the steps
  the rules share (seats, drawing, a refused play), :class:`~tracker.handlers.common.Bad`.
* :mod:`tracker.handlers.rounds`: ``round`` (the deal), ``flip`` (the starter card),
  ``end-round`` (the round scored).
* :mod:`tracker.handlers.plays`: ``play`` (who may play, which cards, their effect) and
  ``color``.
* :mod:`tracker.handlers.turns`: ``draw``, ``pass``, ``uno``, ``catch``, ``challenge``.

>>> from tracker.events import EVENT_TYPES
>>> sorted(HANDLERS) == sorted(set(EVENT_TYPES) - {"undo"})
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from tracker.handlers.common import Context, Outcome
from tracker.handlers.plays import on_color, on_play
from tracker.handlers.rounds import on_end_round, on_flip, on_round
from tracker.handlers.turns import on_catch, on_challenge, on_draw, on_pass, on_uno
from tracker.state import GameState

#: A handler: (context, state, typed event) -> (ok, alerts, changed).
Handler = Callable[[Context, GameState, Any], Outcome]

#: The handler of each event type (``undo`` is the game's own).
HANDLERS: Final[dict[str, Handler]] = {
    "round": on_round,
    "flip": on_flip,
    "play": on_play,
    "color": on_color,
    "draw": on_draw,
    "pass": on_pass,
    "uno": on_uno,
    "catch": on_catch,
    "challenge": on_challenge,
    "end-round": on_end_round,
}

__all__ = ["HANDLERS", "Handler"]
