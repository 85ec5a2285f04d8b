"""A card slid onto the pile over a pile card's misreading: the tracker may give it the
misreading's track, older than the last play. Come to lie on the last play's card, it is
no misreading of that card, whatever the track was read as where it lay before
(held-out ``shaky-scattered-24fps`` 678, opened: a pile card read as a red 1 beside
Bob's red 1; Cy's red 6, slid from there onto Bob's, was taken for his red 1 misread and
missed). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, LAYOUT, SEAT_EDGE, det, feed, kinds, started

CARD = LAYOUT.card_px
#: Where the misreading lies: a pile card showing beside the pile's middle, on Cy's side.
BESIDE = (CENTER[0] + 0.1 * CARD, CENTER[1] - 0.9 * CARD)
#: How sure the recogniser is of the misreading: too unsure for a play of its own.
UNSURE = 0.4
#: Frames Cy's red 6 takes to slide from the misreading onto Bob's red 1.
SLIDE = 12


def cy_slides_his_red_6(start: tuple[float, float]) -> list[dict[str, object]]:
    """The starter red 7, a pile card beside it read (unsurely) as a red 1; Bob plays a
    red 1; Cy's red 6 shows at ``start`` and slides onto Bob's red 1, and lies there."""
    table = started("red-7")
    misread = det("red-1", *BESIDE, conf=UNSURE)
    table.still(10, extra=[misread])
    table.bring(["red-1"], SEAT_EDGE["Bob"], extra=[misread])
    table.still(40, extra=[misread])
    end = (CENTER[0] + 4.0, CENTER[1] + 3.0)
    for i in range(SLIDE + 1):
        u = i / SLIDE
        x, y = start[0] + (end[0] - start[0]) * u, start[1] + (end[1] - start[1]) * u
        table.frames.append([*table.visible_pile(), det("red-6", x, y)])
    table.pile.append([("red-6", *end)])
    table.still(40)
    return kinds(feed(table))[1:]


def test_a_card_slid_from_a_misreading_onto_the_top_card_is_a_play() -> None:
    assert cy_slides_his_red_6(BESIDE) == [
        {"type": "play", "card": "red-1", "player": "Bob"},
        {"type": "play", "card": "red-6", "player": "Cy"},
    ]
