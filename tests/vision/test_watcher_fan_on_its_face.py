"""A fan's lower card of the face of the card the play goes onto
(``FanColorRules.strip_cards``, :mod:`vision.watch.fan_colors`): a red 4 and a yellow 4
put down together on a red 4, the yellow one on top, lay new red ink beside the old
red 4. That ink is the fan's red 4, not the old card shown again, as the colour of a
face lying deeper in the pile is (``house`` seed 713, plays of three: Bob's red 4
taken for the starter, his yellow 4 reported alone). Same made-up table and picture
stand-in as ``test_watcher_fan_end.py``."""

from __future__ import annotations

from tests.vision.test_watcher import LAYOUT, PLAYERS, SEAT_EDGE, feed, kinds, started
from tests.vision.test_watcher_fan_end import PictureAt, at
from vision.watcher import Watcher

#: The fan's red 4 shows beside the yellow one, a third of a card from it.
STEP = 26.0


def yellow_4_on(first: str, ink: str) -> list[dict[str, object]]:
    """Bob puts a yellow 4 down on ``first`` (the starter, lying at the pile's centre);
    the recogniser sees the yellow 4 only, and the picture shows new ``ink`` beside
    it, a fan's step towards the old card. The events after the flip."""
    table = started(first)
    table.bring(["yellow-4"], SEAT_EDGE["Bob"], end=(LAYOUT.discard.center[0] + STEP / 2, 240.0))
    table.still(20)
    top = STEP / 2
    picture = PictureAt([at("yellow", 0.5, top), at(ink, 0.24, top - STEP)])
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]


def test_the_fan_s_card_of_the_face_it_goes_onto_is_found() -> None:
    assert yellow_4_on("red-4", "red") == [
        {"type": "play", "cards": ["red-4", "yellow-4"], "player": "Bob"}
    ]


def test_ink_of_another_colour_there_is_a_lower_card_as_before() -> None:
    assert yellow_4_on("red-4", "blue") == [
        {"type": "play", "cards": ["blue-4", "yellow-4"], "player": "Bob"}
    ]
