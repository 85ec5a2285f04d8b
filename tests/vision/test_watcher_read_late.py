"""A card covered onto the pile, taking over the track of the card it lies on: its
track reads as it only once its own votes outweigh the old card's, and the pile lay
still with it in that time. The picture asked whether it brought new ink must be
from before it came, not from before that vote was won (found with the trained
recogniser on the randomised tuning style ``random-7038`` seed 803: Cy's green 7,
put by a covering hand where a green 6 lay, never played). Same made-up table as
``test_watcher.py``; the arm is scripted."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    PictureSays,
    frame_detections,
    started,
)
from tests.vision.test_watcher_covered_copy import ArmsAtPile, lying
from vision.pile_colors import ColorPatch
from vision.watcher import Watcher

#: Where the green 6 shows again after a hand passed over it, and the green 7 lies.
SPOT = (CENTER[0] + 6, CENTER[1] + 4)
#: Frames after the green 7 showed that a shaking camera moves it (a fifth of a second).
SHAKEN_AFTER = 6


class StillSince(PictureSays):
    """A pile that lay still before ``came`` shows the new card's green ink; a still
    picture from once it lay there shows nothing new."""

    def __init__(self, came: float) -> None:
        super().__init__([])
        self.came = came

    def new_colors(
        self, near: tuple[float, float], radius: float, *, before: float = math.inf, **kw: Any
    ) -> list[ColorPatch] | None:
        self.befores.append(before)
        return [ColorPatch("green", 0.4, near)] if before <= self.came else []


@pytest.mark.parametrize("shaken_px", [0.0, 6.0])
def test_a_card_covered_onto_a_pile_card_s_track_is_asked_about_from_before_it_came(
    shaken_px: float,
) -> None:
    # ``shaken_px``: a shaking camera moves the whole picture that far a fifth of a
    # second after the green 7 showed, before its votes outweighed the green 6's: its
    # rest as a green 7 begins anew then, but it lay there from when it showed
    # (``shaky-covering-messy-26fps`` held-out 713, opened: Cy's red 3 on the track of
    # the starter red 4, never played).
    table = started("green-5")
    table.bring(["green-6"], SEAT_EDGE["Ann"])
    table.still(30)
    table.still(10, covered=True)  # Bob's arm passes over the pile to draw
    for _ in range(20):  # the green 6 seen again, boxed a little otherwise: a new track
        table.frames.append([*table.visible_pile()[:-1], lying("green-6", *SPOT)])
    covered = len(table.frames)
    table.still(10, covered=True)  # Cy's hand puts a green 7 where the green 6 lies
    came = len(table.frames) / FPS
    for i in range(60):
        x = SPOT[0] + (shaken_px if i >= SHAKEN_AFTER else 0.0)
        table.frames.append([*table.visible_pile()[:-1], lying("green-7", x, SPOT[1])])
    picture = StillSince(came)
    w = Watcher(LAYOUT, PLAYERS, pile_colors=picture)
    w.arms = ArmsAtPile([(PLAYERS.index("Cy"), covered / FPS, came)])
    out: list[dict[str, object]] = []
    for i, frame in enumerate(table.frames):
        out += w.update(frame_detections(frame), i / FPS)
    # The green 7's track is the green 6's, seen since before the hand came.
    assert any(tr.name == "green-7" and tr.first_t < covered / FPS for tr in w.state.tracks)
    assert out[-1] == {"type": "play", "card": "green-7", "player": "Cy"}
    assert [e["type"] for e in out] == ["flip", "play", "play"]
