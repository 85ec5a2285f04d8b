"""The watcher's only view of pixels: what card-ink colours came onto the pile.

:class:`vision.pile_colors.PileColors` (OpenCV) answers these questions from the
frames; the watcher asks them through :class:`PileColorProbe`, so that it loads no
image code (tests lend it a stand-in).

>>> ColorPatch("red", 0.4, (320.0, 240.0)).area
0.4
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

__all__ = ["ColorPatch", "PileColorProbe"]


@dataclass(frozen=True)
class ColorPatch:
    """A colour that appeared: its name, its area (in card faces) and its centroid; and
    whether it is all a sliver (nowhere as wide as a square of
    :data:`vision.pile_colors.TABLE_INK_WIDTH` map pixels: a card's edge, not a card)."""

    color: str
    area: float
    xy: tuple[float, float]
    sliver: bool = False


class PileColorProbe(Protocol):
    """What colours came onto the pile near a place since a time, and how much of one
    lies outside a card's box (see :class:`vision.pile_colors.PileColors`); ``None``
    when it cannot tell."""

    def new_colors(
        self,
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        else_at_since: bool = False,
        hands: bool = True,
        table_slivers: bool = True,
    ) -> list[ColorPatch] | None: ...

    def new_ink_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        table_slivers: bool = True,
    ) -> ColorPatch | None: ...

    def changed_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        shown_now: bool = False,
    ) -> ColorPatch | None: ...

    def changed_area(
        self,
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        else_at_since: bool = False,
        hands: bool = True,
    ) -> float | None: ...
