"""An untidy pile outgrows the discard zone a calibration drew: a card carried in and
resting just beyond the zone is on the pile (found on the ``scattered-pile`` tuning
style, docs/watcher.md). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    Det,
    feed,
    kinds,
    started,
)
from tests.vision.test_watcher_covered_copy import ArmAtPile, lying
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

CARD = LAYOUT.card_px
ZONE = LAYOUT.discard
MIDDLE_Y = (ZONE.y1 + ZONE.y2) / 2


def test_a_card_carried_in_resting_just_beyond_the_zone_is_a_play() -> None:
    table = started("red-5")
    # Brought from Ann's side, it comes to rest a tenth of a card beyond the zone's
    # right edge (a card put down off-centre on an untidy pile).
    table.bring(["red-7"], SEAT_EDGE["Ann"], (ZONE.x2 + 0.1 * CARD, MIDDLE_Y))
    table.still(30)
    assert kinds(feed(table))[-1] == {"type": "play", "card": "red-7", "player": "Ann"}


def test_a_card_resting_farther_off_or_never_carried_is_no_play() -> None:
    assert WatcherConfig().rest_margin <= WatcherConfig().off_pile_margin
    far = started("red-5")
    # Farther than far_rest_margin beyond the zone (put down short of the pile, a card
    # carried from a seat may rest up to that far out: test_watcher_short_of_pile.py):
    # not on the pile.
    assert WatcherConfig().far_rest_margin < 0.7
    far.bring(["red-7"], SEAT_EDGE["Ann"], (ZONE.x2 + 0.7 * CARD, MIDDLE_Y))
    far.still(30)
    assert kinds(feed(far)) == [{"type": "flip", "card": "red-5"}]
    # Just beyond the zone but never seen moving (a pile card found again): no play.
    still = started("red-5")
    still.still(30, extra=[("red-7", 0.9, _box(ZONE.x2 + 0.1 * CARD, MIDDLE_Y))])
    assert kinds(feed(still)) == [{"type": "flip", "card": "red-5"}]


def _box(x: float, y: float) -> tuple[float, float, float, float]:
    return (x - 25, y - 38, x + 25, y + 38)


def pile_card_first_boxed_past_the_edge(
    config: WatcherConfig | None = None,
) -> list[dict[str, object]]:
    """Ann's green 4 lying at the pile zone's lower edge, Bob's green 7 on the pile;
    a hand hides the pile long enough for every track to be lost; as it goes the
    green 4 is first boxed as its lower half (the box's middle a tenth of a card
    past the zone's edge), then whole (``covering-untidy-25fps`` seed 601, trained
    recogniser: a blue 5 at the untidy pile's edge played again). The events."""
    table = started("green-5")
    spot = (CENTER[0] - 5, LAYOUT.discard.y2 - 23)
    table.bring(["green-4"], SEAT_EDGE["Ann"], spot)
    table.still(20)
    table.bring(["green-7"], SEAT_EDGE["Bob"], CENTER)
    table.still(20, extra=[lying("green-4", *spot)])
    table.still(20, covered=True)
    half = ("green-4", 0.5, (spot[0] - 25, spot[1] + 10, spot[0] + 25, spot[1] + 52))
    table.still(2, extra=[half])
    table.still(40, extra=[lying("green-4", *spot)])
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, config)))


def test_a_pile_card_first_boxed_just_past_the_edge_is_no_play_again() -> None:
    assert pile_card_first_boxed_past_the_edge() == [
        {"type": "flip", "card": "green-5"},
        {"type": "play", "card": "green-4", "player": "Ann"},
        {"type": "play", "card": "green-7", "player": "Bob"},
    ]


def test_without_the_margin_it_passes_for_a_card_brought_in() -> None:
    off = WatcherConfig.from_dict({"came_in_margin": 0.0})
    assert pile_card_first_boxed_past_the_edge(off)[-1]["card"] == "green-4"


def card_first_read_past_a_corner(config: WatcherConfig | None = None) -> list[dict[str, object]]:
    """Dee's hand brings a green 4 over the pile's upper right corner, the recogniser
    reading it first a twentieth of a card above the pile's zone near that corner (a
    little nearer Cy's side than Dee's, as seen from the pile) and as it slides a
    third of a card length to rest;
    Dee's arm is seen at the pile meanwhile (``shaky-untidy-28fps`` seed 602, trained
    recogniser: Dee's red 9 given to Cy). The events."""
    table = started("green-5")
    first = len(table.frames)  # the first frame it is read in
    start = (ZONE.x2 + 1, ZONE.y1 - 9)
    end = (start[0] - 22, start[1] + 22)
    table.bring(["green-4"], start, end, n=8)
    table.still(45)
    w = Watcher(LAYOUT, PLAYERS, config)
    w.arms = ArmAtPile(PLAYERS.index("Dee"), (first - 6) / FPS, (first + 12) / FPS)
    return kinds(feed(table, w))


def test_a_card_first_read_just_past_the_pile_is_the_seat_of_the_arm_there() -> None:
    assert card_first_read_past_a_corner()[-1] == {
        "type": "play",
        "card": "green-4",
        "player": "Dee",
    }


def test_without_the_margin_its_first_place_gives_the_nearer_seat() -> None:
    # Not when it is so near half way between the two seats' sides that it tells
    # neither (seat_tie_deg): the arm there does, the margin or not.
    off = WatcherConfig.from_dict({"came_in_margin": 0.0, "seat_tie_deg": 0.0})
    assert card_first_read_past_a_corner(off)[-1] == {
        "type": "play",
        "card": "green-4",
        "player": "Cy",
    }
    tie_only = WatcherConfig.from_dict({"came_in_margin": 0.0})
    assert card_first_read_past_a_corner(tie_only)[-1]["player"] == "Dee"


def covered_play_beside_a_face_past_the_edge(
    config: WatcherConfig | None = None,
) -> list[dict[str, object]]:
    """A pile card at the pile zone's upper edge, read as a red 9 or a red 6 by turns,
    first boxed just past the edge, never seen moving; Bob's covering hand puts a red
    7 down on the pile
    (``fast-blur-untidy-22fps`` seed 602, trained recogniser: Bob's red 7 waited for
    such a card as a companion, and was dropped with it). The events."""
    table = started("red-5")
    past = (CENTER[0] - 20, ZONE.y1 - 0.15 * CARD)  # where it is first read
    inside = (past[0], ZONE.y1 + 0.08 * CARD)  # where its box then stays
    reads = ("red-6", "red-9", "red-9")  # two thirds of its vote a red 9: no steady face

    def misread(k: int, at: tuple[float, float]) -> Det:
        return lying(reads[k % len(reads)], *at)

    table.still(1, extra=[misread(0, past)])
    table.still(1, extra=[misread(1, past)])
    for k in range(2, 12):
        table.still(1, extra=[misread(k, inside)])
    arm_from = len(table.frames)
    table.still(8, covered=True)
    for k in range(40):
        table.still(1, extra=[lying("red-7", CENTER[0] + 6, CENTER[1] + 4), misread(k, inside)])
    w = Watcher(LAYOUT, PLAYERS, config)
    w.arms = ArmAtPile(PLAYERS.index("Bob"), arm_from / FPS, (arm_from + 12) / FPS)
    return kinds(feed(table, w))


def test_a_covered_play_beside_a_face_first_read_past_the_edge_is_played_alone() -> None:
    assert covered_play_beside_a_face_past_the_edge() == [
        {"type": "flip", "card": "red-5"},
        {"type": "play", "card": "red-7", "player": "Bob"},
    ]


def test_without_the_margin_the_face_past_the_edge_passes_for_a_card_brought_in() -> None:
    off = WatcherConfig.from_dict({"came_in_margin": 0.0})
    out = covered_play_beside_a_face_past_the_edge(off)
    assert {"type": "play", "card": "red-7", "player": "Bob"} not in out
    assert len(out) == 3
