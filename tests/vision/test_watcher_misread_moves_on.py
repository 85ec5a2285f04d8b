"""A card judged a misreading for want of new ink, that then moves on, is a card on its
way: a slow dealer's starter stood a moment at the pile's edge, near the draw pile, where
the picture from before it was seen had its ink already (``steep-messy-speeds`` seed 655,
trained recogniser: the red 4's flip never seen, nine alerts). Same made-up table as
``test_watcher.py``."""

from __future__ import annotations

import math

from tests.vision.test_watcher import (
    CENTER,
    DRAW,
    LAYOUT,
    PLAYERS,
    PictureSays,
    Table,
    feed,
    ink,
    kinds,
)
from vision.pile_colors import ColorPatch
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

#: Where the dealer's hand stops a moment: inside the pile's zone, at the draw pile.
EDGE = (380.0, 180.0)


class InkOnlyAtThePile(PictureSays):
    """New red ink in the middle of a card at the pile's centre; none at its edge by
    the draw pile (the card's ink was there before it was first seen)."""

    def __init__(self) -> None:
        super().__init__([ink("red", 0.5)])

    def new_colors(
        self, near: tuple[float, float], radius: float, **kw: object
    ) -> list[ColorPatch] | None:
        if math.dist(near, EDGE) < 0.3 * LAYOUT.card_px:
            return []
        return [ink("red", 0.5)]


def dealt_slowly(config: WatcherConfig | None = None) -> list[dict[str, object]]:
    table = Table()
    table.still(5)
    table.bring(["red-5"], DRAW, EDGE, n=10)
    table.pile.pop()
    for _ in range(10):  # held still there a third of a second
        table.frames.append([*table.visible_pile(), ("red-5", 0.9, _box(EDGE))])
    table.bring(["red-5"], EDGE, CENTER, n=30)
    table.still(30)
    watcher = Watcher(LAYOUT, PLAYERS, config or WatcherConfig(), pile_colors=InkOnlyAtThePile())
    return kinds(feed(table, watcher))


def _box(xy: tuple[float, float]) -> tuple[float, float, float, float]:
    return (xy[0] - 25, xy[1] - 38, xy[0] + 25, xy[1] + 38)


def test_a_misreading_that_moves_on_is_the_starter_turned_up() -> None:
    assert dealt_slowly() == [{"type": "flip", "card": "red-5"}]


def test_without_the_rule_the_starter_stays_a_misreading() -> None:
    assert dealt_slowly(WatcherConfig(misread_moved=0.0)) == []
