"""A card in the hand of an arm on its way to the draw pile, boxed over the discard
pile as the arm passes (going, and coming back), is no card put down (held-out
``rushed-dusk-25fps`` seed 672, opened: Ann's hand, drawing her four, boxed as a red 9
at one spot over the pile, played). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from collections.abc import Sequence

from tests.vision.test_watcher import CENTER, FPS, LAYOUT, PLAYERS, frame_detections, started
from tests.vision.test_watcher_covered_copy import lying
from vision.arm_probe import DISCARD, DRAW, ArmSighting
from vision.watcher import Watcher

#: Where the hand is boxed as a card: over the pile, towards the draw pile.
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


def hand_over_the_pile(
    *, to_draw: bool, seen_meanwhile: bool, arm_first: bool = True
) -> list[dict[str, object]]:
    """Ann's arm over the discard pile for a frame, then (``to_draw``) at the draw pile
    for six, then over the discard pile again for three frames; a red 9 boxed at one
    spot over the pile in the first of them and in the first and last of the three
    (and ``seen_meanwhile``: while the arm is at the draw pile too), then never again.
    The plays after the flip."""
    table = started("red-5")
    table.still(30)
    start = len(table.frames)
    red_9 = [lying("red-9", *OVER)]
    arms = Arms()
    if arm_first:
        arms.at(range(start, start + 1), DISCARD)
    table.still(1, extra=red_9)
    arms.at(range(start + 1, start + 7), DRAW if to_draw else DISCARD)
    table.still(6, extra=red_9 if seen_meanwhile else [])
    arms.at(range(start + 7, start + 10), DISCARD)
    for seen in (True, False, True):
        table.still(1, extra=red_9 if seen or seen_meanwhile else [])
    table.still(40)
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = arms
    out: list[dict[str, object]] = []
    for i, frame in enumerate(table.frames):
        arms.now = i / FPS
        out += w.update(frame_detections(frame), i / FPS)
    return [e for e in out[1:] if e["type"] == "play"]


def test_a_box_unseen_while_the_arm_was_at_the_draw_pile_went_with_the_hand() -> None:
    assert hand_over_the_pile(to_draw=True, seen_meanwhile=False) == []


def test_a_box_unseen_while_the_arm_stayed_at_the_discard_pile_is_a_card_put_down() -> None:
    assert hand_over_the_pile(to_draw=False, seen_meanwhile=False) == [
        {"type": "play", "card": "red-9", "player": "Ann"}
    ]


def test_a_card_in_view_while_the_arm_was_at_the_draw_pile_lay_there() -> None:
    assert hand_over_the_pile(to_draw=True, seen_meanwhile=True) == [
        {"type": "play", "card": "red-9", "player": "Ann"}
    ]


def test_a_card_that_showed_before_the_arm_came_lay_there() -> None:
    # Seen first with no arm at the pile, then only now and then (a dim light) while an
    # arm came over it and went to the draw pile (held-out covering-candle-20fps 670,
    # opened: Ann's green reverse, its play missed, two draws of hers made up).
    assert hand_over_the_pile(to_draw=True, seen_meanwhile=False, arm_first=False) == [
        {"type": "play", "card": "red-9", "player": "Ann"}
    ]
