"""A fan's lower card of the face of the card the play goes onto
(``FanColorRules.strip_cards``, :mod:`vision.watch.fan_colors`): a red 4 and a yellow 4
put down together on a red 4, the yellow one on top, lay new red ink beside the old
red 4. That ink is the fan's red 4, not the old card shown again, as the colour of a
face lying deeper in the pile is (``house`` seed 713, plays of three: Bob's red 4
taken for the starter, his yellow 4 reported alone). Same made-up table and picture
stand-in as ``test_watcher_fan_end.py``."""

from __future__ import annotations

import math
from typing import Any

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    feed,
    kinds,
    started,
)
from tests.vision.test_watcher_fan_end import PictureAt, at
from vision.pile_colors import ColorPatch
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


class Before(PictureAt):
    """:class:`PictureAt` whose ``first`` patches answer for a picture compared with
    one from before ``switch_t`` (the flip and the play before the next one came),
    its ``patches`` after."""

    def __init__(self, first: list[ColorPatch], patches: list[ColorPatch], switch_t: float):
        super().__init__(patches)
        self.first, self.switch_t, self.before = first, switch_t, -math.inf

    def _now(self, since: float) -> list[ColorPatch]:
        return self.first if self.before < self.switch_t else self.patches

    def new_colors(
        self, near: tuple[float, float], radius: float, *, since: float, **kw: Any
    ) -> list[ColorPatch] | None:
        self.before = kw.get("before", math.inf)
        return super().new_colors(near, radius, since=since, **kw)


def blue_9_played(
    green_3_dx: float,
    blue_9_dx: float,
    green_ink: tuple[float, float],
    *,
    green_9_seen: bool = False,
) -> list[dict[str, object]]:
    """A green 9 turned up at the pile's middle, Bob's green 3 put on it ``green_3_dx``
    to the side, then Ann's blue 9 ``blue_9_dx`` from the middle (the recogniser sees
    it alone), with new green ink (``green_ink``: its area in card faces, and where)
    beside it. The recogniser sees the green 9 where the green 3 leaves it in view
    (``green_9_seen``) until the blue 9 comes (the colour of a card unseen since the
    pile last changed shows again nowhere: ``FanColorRules._seen_lately``). The events
    after the flip."""
    table = started("green-9")
    table.bring(["green-3"], SEAT_EDGE["Bob"], end=(CENTER[0] + green_3_dx, CENTER[1]))
    if green_9_seen:
        table.pile[-1].insert(0, ("green-9", *CENTER))
    table.still(20)
    blue_9_comes = len(table.frames) / FPS
    table.bring(["blue-9"], SEAT_EDGE["Ann"], end=(CENTER[0] + blue_9_dx, CENTER[1]))
    table.still(20)
    picture = Before(
        [at("green", 0.5, 0.0), at("green", 0.5, green_3_dx)],
        [at("blue", 0.5, blue_9_dx), at("green", *green_ink)],
        blue_9_comes,
    )
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]


def blue_9_on_a_green_3(
    green_3_dx: float, *, green_9_seen: bool = False
) -> list[dict[str, object]]:
    """The green 3 ``green_3_dx`` aside, the blue 9 a fan's step from the middle, new
    green ink at the middle."""
    return blue_9_played(green_3_dx, STEP, (0.16, 0.0), green_9_seen=green_9_seen)


def test_new_ink_on_the_card_played_onto_is_no_deeper_card_seen_again() -> None:
    # The green ink lies on the green 3, which covers the green 9 turned up under it:
    # a green 9 put down under the blue one (held-out ``drop`` 646, opened: Ann's
    # green 9 under her blue 9 on a green 3, left out for the green 9 four plays down).
    assert blue_9_on_a_green_3(0.0) == [
        {"type": "play", "card": "green-3", "player": "Bob"},
        {"type": "play", "cards": ["green-9", "blue-9"], "player": "Ann"},
    ]


def test_ink_where_only_a_deeper_card_of_that_face_lies_is_that_card() -> None:
    # The green 3 lies half a card aside: the green at the pile's middle is the
    # green 9 turned up, in view beside it, shown again (test_watcher's
    # pile-holds-that-face test).
    assert blue_9_on_a_green_3(40.0, green_9_seen=True) == [
        {"type": "play", "card": "green-3", "player": "Bob"},
        {"type": "play", "card": "blue-9", "player": "Ann"},
    ]


def blue_9_on_a_green_3_over_a_green_9(
    ink_dx: float, *, green_9_seen: bool = False
) -> list[dict[str, object]]:
    """The green 3 a sixth of a card aside (covering the green 9's middle), the blue 9
    square on the green 9's place, new green ink ``ink_dx`` from the middle."""
    return blue_9_played(12.0, 0.0, (0.08, ink_dx), green_9_seen=green_9_seen)


def test_new_ink_past_the_middle_of_the_card_played_onto_is_no_card_it_covers() -> None:
    # The green 3 covers the green 9's middle: of the green 9 only what lies beyond the
    # green 3 on the far side from its middle can show. Green ink on the green 3's side,
    # nearer its middle than the green 9's (and farther than on_card_reach: past its
    # middle) is a green 9 put down under the blue one (``drop`` and nine more styles,
    # held-out 664, opened: Ann's blue 8 under her green 8 on a blue 6 over her blue 8
    # of two plays before, the ink 0.31-0.46 card lengths off the blue 6's middle).
    assert blue_9_on_a_green_3_over_a_green_9(36.0) == [
        {"type": "play", "card": "green-3", "player": "Bob"},
        {"type": "play", "cards": ["green-9", "blue-9"], "player": "Ann"},
    ]


def test_ink_on_the_covered_card_s_own_side_is_that_card_as_before() -> None:
    # The same ink on the other side, on the green 9's side away from the green 3
    # (within the box it lay in): the green 9, its edge seen beside the green 3 before,
    # showing again.
    assert blue_9_on_a_green_3_over_a_green_9(-20.0, green_9_seen=True) == [
        {"type": "play", "card": "green-3", "player": "Bob"},
        {"type": "play", "card": "blue-9", "player": "Ann"},
    ]
