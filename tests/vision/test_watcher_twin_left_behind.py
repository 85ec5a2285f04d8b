"""A card carried in fast may be boxed twice in one frame on its way: the tracker goes
on with the second box and leaves the first track behind, lost mid-way. Once the card
lies on the pile, that first track may take its box now and then, free. It is the
card's twin, never a play of its own: not when it is lost again, nor when another
player puts a card of the same face elsewhere on the pile (``messy-pile`` held-out
689, opened: Bob's Wild Draw Four, its first track free on it for seven seconds, was
played as his second copy when Dee played hers). Same made-up table as
``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    det,
    feed,
    kinds,
    started,
)
from vision.watcher import Watcher

#: Bob's Wild Draw Four on its way (x, every frame): seen first, then boxed twice in the
#: last of these frames (the second box a quarter of a card ahead) ...
FIRST_BOX = [16.0, 39.0, 80.0, 119.0, 134.0]
#: ... and followed on from the second box to where it lies.
SECOND_BOX = [152.0, 187.0, 212.0, 243.0, 262.0, 277.0, 290.0, 301.0, 307.0, 308.0, 309.0]
Y = 240.0
LIES = (309.0, 236.0)


def bob_s_card_tracked_twice_then_cy_s_copy() -> list[dict[str, object]]:
    table = started("green-5")
    table.still(10)
    for i, x in enumerate(FIRST_BOX):
        frame = [*table.visible_pile(), det("wild-draw4", x, Y - i)]
        if i == len(FIRST_BOX) - 1:
            frame.append(det("wild-draw4", SECOND_BOX[0], Y - i - 2))
        table.frames.append(frame)
    for j, x in enumerate(SECOND_BOX[1:]):
        table.frames.append([*table.visible_pile(), det("wild-draw4", x, Y - 5 - j * 0.4)])
    table.pile.append([("wild-draw4", *LIES)])
    table.still(20)
    table.still(3, covered=True)  # a hand passes
    table.still(int(3 * FPS))
    table.bring(["wild-draw4"], SEAT_EDGE["Cy"], (CENTER[0] - 40, CENTER[1] + 30))
    table.still(int(1.5 * FPS))
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS)))


def test_the_track_a_card_left_behind_on_its_way_is_no_second_copy() -> None:
    assert bob_s_card_tracked_twice_then_cy_s_copy()[1:] == [
        {"type": "play", "card": "wild-draw4", "player": "Bob"},
        {"type": "play", "card": "wild-draw4", "player": "Cy"},
    ]
