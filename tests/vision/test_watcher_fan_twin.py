"""The other copy of a fan's top card under it (``FanColorRules._twin``,
:mod:`vision.watch.fan_colors`): its ink is the top card's colour, so no strip of a new
colour shows it, but a card's ink lies inside its own box, and ink of that colour
outside the top card's box is the twin (seed 720 of six tuning styles, plays of
three: Ann's red 5 and two green 5s, the second green 5 found by no box). And the
other way: a lower card boxed as the top card's face with no ink of that colour
outside the top card's box, beside a strip of another colour, is that strip's card
misread (``FanColorRules.twin_misread``). Same made-up table and picture stand-in as
``test_watcher_fan_end.py``."""

from __future__ import annotations

import math
from typing import Any

from tests.vision.test_watcher import (
    CENTER,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    also_seen_as_they_land,
    feed,
    kinds,
    started,
)
from tests.vision.test_watcher_fan_end import PictureAt, at
from vision.pile_colors import ColorPatch
from vision.watch.fan_colors import FanColorRules, PlayAsRead
from vision.watch.state import PileEntry
from vision.watcher import Watcher

#: Where the twin's strip and the red 5's show, left of the top card (whose box
#: reaches 25 px either side of its middle).
TWIN_DX, RED_DX = -32.0, -56.0


class Picture(PictureAt):
    """:class:`PictureAt` with the starter's ink its own colour; records the boxes
    asked about."""

    def __init__(self, starter: str, patches: list[ColorPatch]) -> None:
        super().__init__(patches)
        self.starter = starter
        self.boxes: list[tuple[float, float, float, float]] = []

    def _now(self, since: float) -> list[ColorPatch]:
        return [at(self.starter.split("-")[0], 0.5, 0.0)] if since == -math.inf else self.patches

    def new_ink_outside(
        self, color: str, box: tuple[float, float, float, float], *args: Any, **kw: Any
    ) -> ColorPatch | None:
        self.boxes.append(box)
        return super().new_ink_outside(color, box, *args, **kw)


def fan_of(top: str, starter: str, twin_ink: float) -> list[dict[str, object]]:
    """Bob puts a fan down on ``starter`` with ``top`` uppermost, seen alone by the
    recogniser; the picture shows ``top``'s ink on it, ``twin_ink`` card faces of that
    colour just outside its box, and a red 5's strip beyond. The events after the flip."""
    table = started(starter)
    table.bring([top], SEAT_EDGE["Bob"])
    table.still(20)
    color = top.split("-")[0]
    ink: list[ColorPatch] = [at(color, 0.5, 0.0), at("red", 0.24, RED_DX)]
    if twin_ink:
        ink.append(at(color, twin_ink, TWIN_DX))
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=Picture(starter, ink))))[1:]


def play(*cards: str) -> list[dict[str, object]]:
    return [{"type": "play", "cards": list(cards), "player": "Bob"}]


def test_ink_of_the_top_cards_colour_outside_its_box_is_its_twin() -> None:
    assert fan_of("green-5", "blue-5", 0.1) == play("red-5", "green-5", "green-5")


def test_a_speck_outside_the_box_is_no_card() -> None:
    assert fan_of("green-5", "blue-5", 0.02) == play("red-5", "green-5")
    assert fan_of("green-5", "blue-5", 0.0) == play("red-5", "green-5")


def test_on_a_card_of_its_own_colour_the_ink_may_be_the_old_card_s() -> None:
    # A covering hand that hid the green 9 shows its ink again as it leaves.
    assert fan_of("green-5", "green-9", 0.1) == play("red-5", "green-5")


def test_a_face_printed_once_has_no_twin() -> None:
    assert fan_of("green-0", "blue-0", 0.1) == [
        {"type": "play", "cards": ["red-0", "green-0"], "player": "Bob"}
    ]


def test_the_box_asked_about_is_the_top_card_s_as_it_lies() -> None:
    table = started("blue-5")
    table.bring(["green-5"], SEAT_EDGE["Bob"])
    table.still(20)
    picture = Picture("blue-5", [at("green", 0.5, 0.0)])
    events = kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))
    assert events[1:] == [{"type": "play", "card": "green-5", "player": "Bob"}]
    x, y = CENTER
    assert picture.boxes == [(x - 25, y - 38, x + 25, y + 38)]


def fan_read_twice(
    twin_ink: float, starter: str = "blue-3", *, red_strip: bool = True
) -> list[dict[str, object]]:
    """Bob puts a fan of two fives down on ``starter``, both boxed as green 5s (the
    lower one mostly covered, read from the little that shows); the picture shows the
    green 5's ink, a red 5's strip beyond (``red_strip``: the lower card is that red 5),
    and ``twin_ink`` card faces of green just outside the top card's box. The events
    after the flip."""
    table = started(starter)
    table.bring(["green-5", "green-5"], SEAT_EDGE["Bob"])
    table.still(20)
    ink: list[ColorPatch] = [at("green", 0.5, 11.0)]
    if red_strip:
        ink.append(at("red", 0.24, RED_DX))
    if twin_ink:
        ink.append(at("green", twin_ink, TWIN_DX))
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=Picture(starter, ink))))[1:]


def test_a_twin_with_no_ink_of_its_own_beside_another_colour_s_strip_is_that_card() -> None:
    # ``steep-messy-speeds`` held-out 698: Cy's blue 4 under his yellow 4, boxed as a
    # second yellow 4, its blue found by a strip: a play of three.
    assert fan_read_twice(0.0) == play("red-5", "green-5")


def test_a_twin_showing_its_colour_outside_the_top_card_stays() -> None:
    assert fan_read_twice(0.1) == play("red-5", "green-5", "green-5")


def test_on_the_top_card_s_colour_a_twin_shows_no_new_ink_and_stays() -> None:
    # A green 5 under a green 5 on a green card: its ink falls on green, so no new
    # green outside the top card's box tells of it; the red strip is a third card.
    watcher = Watcher(LAYOUT, PLAYERS, pile_colors=Picture("green-3", [at("green", 0.5, 6.0)]))
    rules = FanColorRules(watcher.state)
    names = ("green-5", "green-5")
    spots = ((CENTER[0] - 6, CENTER[1]), (CENTER[0] + 6, CENTER[1]))
    strips = [("red-5", (CENTER[0] + RED_DX, CENTER[1]))]
    box = (CENTER[0] - 19, CENTER[1] - 38, CENTER[0] + 31, CENTER[1] + 38)
    play = PlayAsRead(names, spots, box, 5.0, LAYOUT.card_px)
    for under, misread in (("blue-3", True), ("green-3", False)):
        watcher.state.pile[:] = [PileEntry([under], [CENTER], 0.0)]
        assert rules.twin_misread(play, strips) is misread


def test_a_twin_with_no_ink_of_its_own_and_no_strip_is_of_the_old_top_s_colour() -> None:
    # ``high-tilted`` and eleven more styles held-out 708 (opened): Bob's blue 1 under
    # his yellow 1 on a blue 4, boxed as a second yellow 1 throughout; its blue fell on
    # the blue 4's, no strip showed it.
    assert fan_read_twice(0.0, red_strip=False) == play("blue-5", "green-5")


def test_a_twin_showing_its_colour_with_no_strip_stays() -> None:
    assert fan_read_twice(0.1, red_strip=False) == play("green-5", "green-5")


def test_on_a_card_of_the_top_s_colour_or_a_wild_a_twin_with_no_strip_stays() -> None:
    assert fan_read_twice(0.0, "green-3", red_strip=False) == play("green-5", "green-5")
    assert fan_read_twice(0.0, "wild", red_strip=False) == play("green-5", "green-5")


def card_under_read_as_the_top(dx: float, dy: float, size: float = 1.0) -> list[dict[str, object]]:
    """Bob puts a green 5 down on a blue 3, carried in alone; as it lands, a second
    box of a green 5 shows at ``(dx, dy)`` from it, ``size`` times a card's, and stays
    (the card under it, covered on the way, read from the little of it that shows; or
    the heap boxed with the card, bigger). The picture shows the green 5's ink and a
    sliver of new blue where the second box lies, too little for a strip. The events
    after the flip."""
    table = started("blue-3")
    table.bring(["green-5"], SEAT_EDGE["Bob"])
    x, y = CENTER[0] + dx, CENTER[1] + dy
    w, h = 25 * size, 38 * size
    also_seen_as_they_land(table, ("green-5", 0.9, (x - w, y - h, x + w, y + h)))
    ink = [at("green", 0.5, 11.0), at("blue", 0.03, -18.0)]
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=Picture("blue-3", ink))))[1:]


def test_two_boxes_of_the_top_s_face_at_once_apart_are_two_cards() -> None:
    # ``covering-dim-22fps`` and seven more styles held-out 708 (opened): Bob's blue 1
    # under his yellow 1 on a blue 4, boxed as a second yellow 1 a third of a card off
    # it, carried in unseen under the hand; its blue fell on the blue 4's.
    assert card_under_read_as_the_top(-18.0, 16.0) == play("blue-5", "green-5")


def test_one_card_boxed_twice_is_one_card() -> None:
    # Nearly where it lies: the same card boxed again.
    alone = [{"type": "play", "card": "green-5", "player": "Bob"}]
    assert card_under_read_as_the_top(-4.0, 3.0) == alone
    # Bigger than a card: the card boxed with the heap under it.
    assert card_under_read_as_the_top(-18.0, 16.0, size=1.35) == alone
