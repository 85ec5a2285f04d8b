"""The watcher's view of arms: who reached in, from which seat, to which pile.

:class:`vision.hands.ArmWatch` (OpenCV) finds arms crossing the frame's edge in the
frames; the watcher asks it through :class:`ArmProbe`, so that it loads no image
code (tests lend it a stand-in). An :class:`ArmSighting` is one arm in one frame.

>>> s = ArmSighting(1.0, 2, (320.0, 0.0), (330.0, 200.0), "draw", False)
>>> s.seat, s.pile, s.at_discard
(2, 'draw', False)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["DISCARD", "DRAW", "SEEN_THERE", "ArmProbe", "ArmSighting"]

#: The piles an arm's far end can be nearest to.
DISCARD = "discard"
DRAW = "draw"
#: Sightings of an arm at a pile that say it went there (one may be a stray).
SEEN_THERE = 2


@dataclass(frozen=True)
class ArmSighting:
    """An arm in one frame, reaching a pile.

    ``entry`` is where it crosses the frame's edge, ``tip`` its far end (full-size
    pixels); ``seat`` is the seat whose side ``entry`` is on; ``pile`` the pile its
    tip is nearest to (among those it reaches); ``at_discard`` whether the tip
    reaches the discard pile at all (an arm drawing may pass near it); ``to_draw``
    how far the tip is from the draw pile's centre, in card lengths, ``to_discard``
    from the discard pile's.
    """

    t: float
    seat: int
    entry: tuple[float, float]
    tip: tuple[float, float]
    pile: str = DISCARD
    at_discard: bool = True
    to_draw: float = math.inf  # how far its tip is from the draw pile's centre, in card lengths
    to_discard: float = math.inf  # ... and from the discard pile's


class ArmProbe(Protocol):
    """Arms seen reaching in from the table's edge (:class:`vision.hands.ArmWatch`)."""

    def seat_for(self, first_t: float) -> int | None:
        """The seat of the arm at the discard pile around a card first seen at ``first_t``."""
        ...

    def sightings_since(self, t: float) -> Sequence[ArmSighting]:
        """The arms seen at a pile from ``t`` on, oldest first."""
        ...
