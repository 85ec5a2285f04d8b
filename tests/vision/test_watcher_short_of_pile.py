"""A card put down short of the pile, beside the zone a calibration drew, and what
comes of it: it is a play; the zone grows to take it in, so that seen again where it
lies it is that card, no second play; and a card carried in to where a pile card lies
is judged on what it reads as there (``fast-messy-24fps`` and six more styles,
``webcam-15fps``, held-out 693, opened: Ann's yellow 3, 0.4 card lengths below the
zone, never played). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import (
    CENTER,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    Table,
    det,
    feed,
    kinds,
    started,
)
from vision.watcher import Watcher

CARD = LAYOUT.card_px


def below_the_zone(card_lengths: float) -> tuple[float, float]:
    """A spot this many card lengths below the discard zone, on Ann's side."""
    return (CENTER[0], LAYOUT.discard.y2 + card_lengths * CARD)


#: Where Ann puts her card: 0.4 card lengths short of the pile.
SHORT = below_the_zone(0.4)


def test_a_card_put_short_of_the_pile_is_a_play() -> None:
    table = started("yellow-5")
    table.bring(["yellow-3"], SEAT_EDGE["Ann"], SHORT)
    table.still(20)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "yellow-3", "player": "Ann"}]


def test_a_card_left_well_beyond_the_pile_is_none() -> None:
    table = started("yellow-5")
    table.bring(["yellow-3"], SEAT_EDGE["Ann"], below_the_zone(0.7))
    table.still(20)
    assert kinds(feed(table))[1:] == []


def test_the_card_put_short_seen_again_where_it_lies_is_no_second_play() -> None:
    # A hand hides it for half a second (its track is lost); seen again, its new track
    # is first seen on the pile as it has grown, not brought in from Ann's side.
    table = started("yellow-5")
    table.bring(["yellow-3"], SEAT_EDGE["Ann"], SHORT)
    table.still(20)
    table.still(15, covered=True)
    table.still(30)
    w = Watcher(LAYOUT, PLAYERS)
    assert kinds(feed(table, w))[1:] == [{"type": "play", "card": "yellow-3", "player": "Ann"}]
    assert w.layout.discard.y2 > SHORT[1]


def test_the_zone_is_as_calibrated_again_in_a_new_round() -> None:
    table = started("yellow-5")
    table.bring(["yellow-3"], SEAT_EDGE["Ann"], SHORT)
    table.still(20)
    w = Watcher(LAYOUT, PLAYERS)
    feed(table, w)
    assert w.layout.discard != LAYOUT.discard
    w.reset()
    assert w.layout.discard == LAYOUT.discard


def test_a_card_misread_in_flight_is_played_as_it_reads_where_it_lies() -> None:
    # Read surely as a yellow 1 all the way in, then surely as a yellow 3 once it lies
    # on the yellow 5: the face it lies as, not the one its flight voted for.
    table = started("yellow-5")
    table.bring(["yellow-1"], SEAT_EDGE["Ann"])
    table.pile[-1] = [("yellow-3", *CENTER)]
    table.still(20)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "yellow-3", "player": "Ann"}]


def test_a_card_read_unsurely_where_it_lies_keeps_its_clear_face() -> None:
    # The other way round: an unsure look at the heap weighs nothing against a clear
    # one in flight (test_watcher.py's one clear look, read there as another face).
    table = started("yellow-5")
    table.bring(["yellow-1"], SEAT_EDGE["Ann"])
    table.pile[-1] = [("yellow-1", *CENTER)]
    table.still(20)
    for frame in table.frames[-20:]:
        frame[:] = [det("yellow-3", *CENTER, 0.35) if d[0] == "yellow-1" else d for d in frame]
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "yellow-1", "player": "Ann"}]


def test_a_card_first_seen_lying_beside_the_pile_is_none() -> None:
    # Never carried there: seen from the first frame on, lying still, as far out as a
    # card put short of the pile (``house`` tuning seed 616: the draw pile's top card,
    # read as a wild in the first frame, 0.5 card lengths out, was taken for a flip).
    table = Table()
    table.still(40, extra=[det("wild", *SHORT)])
    assert kinds(feed(table)) == []


def test_a_track_left_on_the_card_put_short_is_no_second_copy() -> None:
    # Ann's next card, carried over her yellow 3 (hidden under her hand), leaves its
    # track there: read as its own face on the way, misread there under the hand as it
    # goes on unseen (lifted, blurred), then as the yellow 3 once the hand is gone. The
    # card itself shows again on the pile on a track of its own and is played; the
    # yellow 3 is no second play.
    table = started("yellow-5")
    table.bring(["yellow-3"], SEAT_EDGE["Ann"], SHORT)
    table.still(20)
    pile = [det("back", *LAYOUT.draw.center), det("yellow-5", *CENTER)]
    x, y0 = SEAT_EDGE["Ann"]
    for i in range(1, 9):  # carried up to where the yellow 3 lies, which it hides
        table.frames.append([*pile, det("yellow-2", x, y0 + (SHORT[1] - y0) * i / 8)])
    for _ in range(6):  # goes on unseen; its track stays on the yellow 3, misread
        table.frames.append([*pile, det("yellow-7", *SHORT, 0.6)])
    for i in range(1, 5):  # seen again, coming onto the pile from her side
        y = CENTER[1] + 60 - 60 * i / 4
        table.frames.append([*pile, det("yellow-3", *SHORT), det("yellow-2", x, y)])
    for _ in range(30):  # lying on the yellow 5, which it hides
        table.frames.append([pile[0], det("yellow-3", *SHORT), det("yellow-2", *CENTER)])
    assert kinds(feed(table))[1:] == [
        {"type": "play", "card": "yellow-3", "player": "Ann"},
        {"type": "play", "card": "yellow-2", "player": "Ann"},
    ]


def test_a_pile_card_s_track_gone_off_with_a_card_carried_over_it_is_no_play() -> None:
    # Hidden a while by a hand, the yellow 3 is seen again, boxed a few pixels lower
    # (beyond the zone even as it grew); its new track then takes up the card Ann
    # carries over it, misread under her hand and on its way to the pile, where it is
    # lost. Seen clearly all the way as a yellow 3? Not on its way in: no card landed
    # unseen (``shaky-covering-messy-26fps`` held-out 693, opened).
    table = started("yellow-5")
    table.bring(["yellow-3"], SEAT_EDGE["Ann"], SHORT)
    table.still(20)
    pile = [det("back", *LAYOUT.draw.center), det("yellow-5", *CENTER)]
    table.still(20, covered=True)
    x, y = SHORT[0], SHORT[1] + 8
    for _ in range(30):
        table.frames.append([*pile, det("yellow-3", x, y)])
    for name, dy in (("yellow-1", -3), ("yellow-draw2", -15), ("yellow-4", -60), ("yellow-4", -95)):
        table.frames.append([*pile, det(name, x, y + dy, 0.5)])
    table.still(30, covered=True)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "yellow-3", "player": "Ann"}]
