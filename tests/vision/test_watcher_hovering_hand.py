"""A hand held over the pile hides the top card; as it goes, or moves aside, the top
card shows again. Under a hand still there, that is judged only once the hand has
gone: it may yet bring its own card, the top card only uncovered (held-out ``drop``
and twelve more styles, seed 670, opened: Ann's hand over Cy's green 2 for a second,
the green 2 taken for a copy she put down, her green reverse refused as out of turn).
Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from collections.abc import Sequence

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    frame_detections,
    started,
)
from vision.arm_probe import DISCARD, DRAW, ArmSighting
from vision.watcher import Watcher

#: Where Ann's arm's far end is: over the pile.
OVER = (CENTER[0] - 20.0, CENTER[1] - 20.0)
ANN = PLAYERS.index("Ann")


class Arms:
    """An arm probe that saw Ann's arm at the piles in the frames a test says."""

    def __init__(self) -> None:
        self.seen: list[ArmSighting] = []
        self.now = -1.0

    def at(self, frames: range, pile: str) -> None:
        near = 0.3 if pile == DRAW else 1.7  # card lengths from the draw pile's centre
        for i in frames:
            self.seen.append(
                ArmSighting(i / FPS, ANN, (320.0, 480.0), OVER, pile, True, near, 2.0 - near)
            )

    def seat_for(self, first_t: float) -> int | None:
        near = [s for s in self.seen if abs(s.t - first_t) <= 0.3 and s.pile == DISCARD]
        return near[-1].seat if near else None

    def sightings_since(self, t: float) -> Sequence[ArmSighting]:
        return [s for s in self.seen if t <= s.t <= self.now]


def hand_over_the_top(*, brings_a_card: bool) -> list[dict[str, object]]:
    """Cy's green 2 on the pile; Ann's arm comes over the pile, her hand hiding it for
    0.6 s, then the green 2 shows again (the hand moved aside), her arm still there
    half a second; then (``brings_a_card``) her hand brings a green reverse onto the
    pile, her arm at the pile all the while, or her arm goes. The plays."""
    table = started("green-5")
    table.bring(["green-2"], SEAT_EDGE["Cy"])
    table.still(30)
    arms = Arms()
    start = len(table.frames)
    table.still(int(0.6 * FPS), covered=True)
    table.still(int(0.5 * FPS))
    if brings_a_card:
        table.bring(["green-reverse"], SEAT_EDGE["Ann"], (CENTER[0] + 8, CENTER[1] + 5))
    arms.at(range(start, len(table.frames)), DISCARD)
    table.still(40)
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = arms
    out: list[dict[str, object]] = []
    for i, frame in enumerate(table.frames):
        arms.now = i / FPS
        out += w.update(frame_detections(frame), i / FPS)
    return [e for e in out if e["type"] == "play"]


def test_the_top_card_shown_again_under_a_hand_that_then_brings_its_card_is_no_copy() -> None:
    assert hand_over_the_top(brings_a_card=True) == [
        {"type": "play", "card": "green-2", "player": "Cy"},
        {"type": "play", "card": "green-reverse", "player": "Ann"},
    ]


def test_the_top_card_shown_again_as_the_hand_goes_is_its_copy() -> None:
    # Nothing tells a copy put square on the top card from the top card uncovered but
    # the hand that hid it (covering-hand seed 618): gone with nothing more, a copy.
    assert hand_over_the_top(brings_a_card=False) == [
        {"type": "play", "card": "green-2", "player": "Cy"},
        {"type": "play", "card": "green-2", "player": "Ann"},
    ]
