"""A pile card hidden by a hand passing over the pile loses its track; seen again, the
tracker may link it to a track begun on a misreading outside the pile (the hand, read
as a card), which thus seems to have come in with the pile card's face. Such a track,
read as that face only where the pile card lies and lying as it lay, is that card seen
again, no play (``steep-messy-speeds`` held-out 713, opened: Bob's yellow 4, hidden by
Dee's hand, taken up 0.3 s on by a track begun on her hand by the draw pile, read as a
red 1 and a wild, played as hers). A copy carried in and read as its face on its way,
or put down lying otherwise, is a play. Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

import pytest

from tests.vision.test_watcher import CENTER, DRAW, SEAT_EDGE, Table, det, feed, kinds

#: Where Bob's yellow 4 lies on the pile.
SPOT = (350.0, 200.0)
#: The hand's way in from the draw pile's side, read as cards (red 1, then wild).
HAND = [
    ("red-1", 440.0, 150.0),
    ("red-1", 430.0, 160.0),
    ("wild", 418.0, 170.0),
    ("wild", 405.0, 180.0),
]
#: Frames the yellow 4 is hidden (longer than ``lost_s`` at 30 frames a second).
HIDDEN = 16
STARTED = [
    {"type": "flip", "card": "red-5"},
    {"type": "play", "card": "yellow-4", "player": "Bob"},
]


def table_with_bobs_yellow_4() -> Table:
    """A red 5 turned up; Bob's yellow 4 put on it at ``SPOT``."""
    table = Table()
    table.still(5)
    table.bring(["red-5"], DRAW, CENTER)
    table.still(20)
    table.bring(["yellow-4"], SEAT_EDGE["Bob"], SPOT)
    table.still(30)
    return table


def hand_passes(table: Table, then_unseen: int) -> None:
    """A hand hides the pile's top card ``HIDDEN`` frames, read as ``HAND`` on its way
    in, then nothing for ``then_unseen`` frames."""
    for _ in range(HIDDEN - len(HAND) - then_unseen):
        table.frames.append([det("back", *DRAW)])
    for name, x, y in HAND:
        table.frames.append([det("back", *DRAW), det(name, x, y)])
    for _ in range(then_unseen):
        table.frames.append([det("back", *DRAW)])


@pytest.mark.parametrize("then_unseen", [2, 4, 8])
def test_a_pile_card_seen_again_on_a_misreading_s_track_is_no_play(then_unseen: int) -> None:
    table = table_with_bobs_yellow_4()
    hand_passes(table, then_unseen)
    table.still(40)  # the yellow 4 shows again where it lay, as it lay
    assert kinds(feed(table)) == STARTED


def test_a_copy_read_on_its_way_put_square_on_it_is_a_play() -> None:
    table = table_with_bobs_yellow_4()
    table.bring(["yellow-4"], SEAT_EDGE["Dee"], SPOT)  # read as itself in flight
    table.still(40)
    assert kinds(feed(table)) == [*STARTED, {"type": "play", "card": "yellow-4", "player": "Dee"}]


def test_a_copy_misread_on_its_way_lying_otherwise_is_a_play() -> None:
    table = table_with_bobs_yellow_4()
    hand_passes(table, 2)
    # It lies half a card lower than Bob's: a card put down, whose reads on its way
    # were other faces.
    lower = (SPOT[0], SPOT[1] + 38.0)
    table.pile.append([("yellow-4", *lower)])
    table.still(40)
    assert kinds(feed(table)) == [*STARTED, {"type": "play", "card": "yellow-4", "player": "Dee"}]
