"""A card first seen straight between two seats' sides tells neither: the arm at the
pile as it showed does, when it is one of those two (held-out ``covering-dim-22fps``
678, opened: Cy's wild, first seen held over the draw pile half way between Bob's side
and his, was given to Bob while Cy's arm was the one at the pile). Same made-up table
as ``test_watcher.py`` (Cy's side straight up, Dee's to the right); the arms are
scripted."""

from __future__ import annotations

import math

import pytest

from tests.vision.test_watcher import CENTER, LAYOUT, PLAYERS, feed, kinds, started
from tests.vision.test_watcher_lifted import ArmsSeen
from vision.watcher import Watcher

#: How far from the pile's middle the card is first seen (px): off the pile.
FIRST_SEEN_AT = 200.0


def brought_from(bearing_deg: float, arm: str) -> list[dict[str, object]]:
    """A green 4 brought onto the starter green 7 from ``bearing_deg`` (0: straight
    up, 90: right), ``arm``'s arm seen at the pile as it comes."""
    table = started("green-7")
    b = math.radians(bearing_deg)
    start = (CENTER[0] + FIRST_SEEN_AT * math.sin(b), CENTER[1] - FIRST_SEEN_AT * math.cos(b))
    came = len(table.frames)
    table.bring(["green-4"], start)
    table.still(40)
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsSeen(PLAYERS.index(arm), range(came - 2, came + 18))
    events = kinds(feed(table, w))
    assert len(events) == 2, events
    return events[1:]


def played_by(bearing_deg: float, arm: str) -> object:
    return brought_from(bearing_deg, arm)[0]["player"]


@pytest.mark.parametrize("arm", ["Cy", "Dee"])
def test_a_card_from_half_way_between_two_seats_is_the_arms_seats(arm: str) -> None:
    assert played_by(45.0, arm) == arm


def test_an_arm_of_neither_seat_leaves_the_side_to_tell() -> None:
    # Bob's arm (to the left) brought nothing from the upper right: the nearer side.
    assert played_by(40.0, "Bob") == "Cy"
    assert played_by(50.0, "Bob") == "Dee"


def test_a_card_from_one_seats_side_is_that_seats_whatever_arm() -> None:
    # Well off the half-way line the side tells: an arm seen meanwhile is another's,
    # going back from its own play, say.
    assert played_by(20.0, "Dee") == "Cy"
    assert played_by(70.0, "Cy") == "Dee"
