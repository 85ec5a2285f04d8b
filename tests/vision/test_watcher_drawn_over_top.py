"""A hand reaching across the discard pile for the draw pile hides the top card, and
carries the drawn card back over it: the top card unseen meanwhile is no take-back
(``fast-messy-24fps`` held-out 705, opened: Ann's arm over Cy's red 6 for 1.3 s as she
drew, the arm itself unseen over both piles; the red 6 was taken back, then played again
as hers: two alerts). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import DRAW, SEAT_EDGE, Table, det, feed, kinds, started

RED_DRAW2_AT = (290.0, 235.0)  # Bob's red Draw Two, showing beside the red 6 on it
RED_6_AT = (350.0, 245.0)  # Cy's red 6, the top card
REACH_FRAMES = 35  # Ann's arm over the top card, reaching the draw pile (1.2 s at 30/s)
CARRY_FRAMES = 15  # the drawn card carried back to her (0.5 s)


def drawn_by(seat: str) -> list[dict[str, object]]:
    """Bob's red Draw Two, Cy's red 6 on it; ``seat``'s hand hides the red 6 while it
    reaches for the draw pile and carries a card back; then the red 6 shows again."""
    table: Table = started("red-5")
    table.bring(["red-draw2"], SEAT_EDGE["Bob"], RED_DRAW2_AT)
    table.still(20)
    beside = [det("red-draw2", *RED_DRAW2_AT)]
    table.bring(["red-6"], SEAT_EDGE["Cy"], RED_6_AT, extra=beside)
    table.still(20, extra=beside)
    for _ in range(REACH_FRAMES):
        table.frames.append([det("back", *DRAW), *beside])
    to = SEAT_EDGE[seat]
    for i in range(1, CARRY_FRAMES + 1):
        u = i / CARRY_FRAMES
        drawn = det("back", DRAW[0] + (to[0] - DRAW[0]) * u, DRAW[1] + (to[1] - DRAW[1]) * u)
        table.frames.append([det("back", *DRAW), *beside, drawn])
    table.still(40, extra=beside)
    return kinds(feed(table))


def test_the_top_card_hidden_by_a_hand_drawing_across_the_pile_is_not_taken_back() -> None:
    # Ann's side is across the discard pile from the draw pile.
    assert [(e["type"], e.get("card"), e.get("player")) for e in drawn_by("Ann")] == [
        ("flip", "red-5", None),
        ("play", "red-draw2", "Bob"),
        ("play", "red-6", "Cy"),
        ("draw", None, "Ann"),
    ]


def test_hidden_as_long_with_the_drawn_card_carried_elsewhere_it_is_taken_back() -> None:
    # Dee's side is beside the draw pile: her drawn card never crosses the discard pile,
    # and the top card gone that long, the one below it seen, is a take-back.
    assert "undo" in [e["type"] for e in drawn_by("Dee")]
