"""A covering hand over the pile hides the top card and shows, as it moves aside, a
card deeper down: under a hand still there, that face is judged only once the hand
has gone. The hand may yet put its own card down, the deeper card only uncovered
(held-out ``covering-candle-20fps`` seed 676, opened: Cy's hand over Bob's yellow 5
showed the starter yellow 7 beside it; taken for a copy Cy put down, his yellow skip
0.05 s on was refused as a second play). Same made-up table as ``test_watcher.py``;
the arm is scripted."""

from __future__ import annotations

from tests.vision.test_watcher import (
    CENTER,
    DRAW,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    det,
    feed,
    kinds,
    started,
)
from tests.vision.test_watcher_covered_copy import lying
from tests.vision.test_watcher_lifted import ArmsSeen
from vision.watcher import Watcher

#: Frames Cy's hand hides the whole pile, and frames the starter shows beside it
#: before his card is seen.
COVERED = 10
UNCOVERED = 2
#: Frames the starter is seen as the hand hides the yellow 5, before it hides the
#: whole pile: too few to say how it lay (``lay_before_sightings``).
BESIDE = 2
#: Frames his arm is still seen once his card shows.
LEAVING = 6


def cy_s_hand_over_the_pile(*, puts_a_card: bool) -> list[dict[str, object]]:
    """The starter yellow 7; Bob's yellow 5 a third of a card off it; Cy's covering
    hand hides the yellow 5, the yellow 7 seen beside it, then the whole pile; it
    moves aside: the yellow 7 shows again where it lay, his arm at the pile; then
    (``puts_a_card``) his yellow skip shows on the pile, or his hand goes and the
    yellow 7 alone stays in sight."""
    table = started("yellow-7")
    table.bring(["yellow-5"], SEAT_EDGE["Bob"], (CENTER[0] - 20.0, CENTER[1] - 12.0))
    table.still(40)
    # Cy's hand comes over the yellow 5: the starter shows beside it (the detector
    # boxes the part in sight), then the hand hides the whole pile.
    start = len(table.frames)
    for _ in range(BESIDE):
        table.frames.append([det("back", *DRAW), lying("yellow-7", *CENTER)])
    table.still(COVERED, covered=True)
    for _ in range(UNCOVERED):
        table.frames.append([det("back", *DRAW), lying("yellow-7", *CENTER)])
    if puts_a_card:
        table.pile.append([("yellow-skip", CENTER[0] - 10.0, CENTER[1] - 6.0)])
        table.still(40)
    else:
        for _ in range(40):
            table.frames.append([det("back", *DRAW), lying("yellow-7", *CENTER)])
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsSeen(PLAYERS.index("Cy"), range(start, len(table.frames) - 40 + LEAVING))
    return kinds(feed(table, w))[1:]


def test_a_deeper_card_shown_under_a_hand_that_then_puts_its_card_down_is_no_copy() -> None:
    assert cy_s_hand_over_the_pile(puts_a_card=True) == [
        {"type": "play", "card": "yellow-5", "player": "Bob"},
        {"type": "play", "card": "yellow-skip", "player": "Cy"},
    ]


def test_a_deeper_card_shown_as_the_hand_goes_is_its_copy() -> None:
    # Gone with nothing more: the face lies where no card of the play showed before,
    # put there by another seat's hand than the top card's player's, a copy (as
    # covering-half-light seed 604: Dee's green 5 put square on Cy's green 8 over Bob's
    # green 5), not the top card taken back while that hand waited.
    assert cy_s_hand_over_the_pile(puts_a_card=False) == [
        {"type": "play", "card": "yellow-5", "player": "Bob"},
        {"type": "play", "card": "yellow-7", "player": "Cy"},
    ]
