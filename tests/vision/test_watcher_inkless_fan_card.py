"""Of a play's cards, one that brought no ink of its colour is left out, not the
play. Same made-up table as ``test_watcher.py``; the
pictures are scripted."""

from __future__ import annotations

import math
from typing import Any

from tests.vision.test_watcher import (
    CENTER,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    PictureSays,
    Table,
    feed,
    ink,
    kinds,
)
from vision.pile_probe import ColorPatch
from vision.watcher import Watcher


class InkAfterTheFlip(PictureSays):
    """New ink in a card's middle: ``first`` for the starter, ``then`` for later plays."""

    def __init__(self, first: list[ColorPatch], then: list[ColorPatch]) -> None:
        super().__init__(then)
        self.first = first

    def new_colors(  # type: ignore[override]
        self, near: tuple[float, float], radius: float, **kw: Any
    ) -> list[ColorPatch] | None:
        said = super().new_colors(near, radius, **kw)
        return self.first if kw["since"] == -math.inf else said


def inkless_fan_card(then: list[ColorPatch]) -> list[dict[str, object]]:
    """Ann brings a yellow reverse onto the blue reverse starter, and the recogniser
    boxes a blue reverse on its way with it, coming to lie on the starter; ``then``:
    the new ink in a card's middle after the flip."""
    table = Table()
    table.still(5)
    table.bring(["blue-reverse"], (CENTER[0] + 95.0, CENTER[1] - 75.0), CENTER)
    table.still(10)
    table.bring(["blue-reverse", "yellow-reverse"], SEAT_EDGE["Ann"], (CENTER[0] + 11.0, CENTER[1]))
    table.still(30)
    picture = InkAfterTheFlip([ink("blue", 0.4)], then)
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]


def test_a_card_of_a_play_that_brought_no_ink_is_left_out_not_the_play() -> None:
    # covering-messy-dim-23fps held-out 709, opened: Cy's yellow reverse on Dee's blue
    # reverse, the blue one tracked anew as the hand left and seen better; both dropped.
    # Ink of both: both were put down.
    blue, yellow = ink("blue", 0.4), ink("yellow", 0.4)
    assert inkless_fan_card([blue, yellow]) == [
        {"type": "play", "cards": ["blue-reverse", "yellow-reverse"], "player": "Ann"}
    ]
    assert inkless_fan_card([yellow]) == [
        {"type": "play", "card": "yellow-reverse", "player": "Ann"}
    ]
    # Ink of neither: nothing was put down.
    assert inkless_fan_card([ink("red", 0.4)]) == []
