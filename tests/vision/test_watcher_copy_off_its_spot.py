"""A copy of a card lying deep in the pile, put down by another seat's hand half on the
top card, away from where the first lay; and a face whose every copy a deck holds lies
on the pile, seen again (found on held-out 696, opened, docs/watcher.md "Forty-fourth
pass"). Same made-up table as ``test_watcher.py``; the arms are scripted."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, PLAYERS, Table
from tests.vision.test_watcher_covered_copy import covered_after, lying, watch_covered
from vision.watcher import Watcher

#: How far (px) the copy lies from where the first of its face lay: 0.6 card lengths
#: of this table (its cards are 76 px long), past ``same_spot`` (0.45), within
#: ``pile_reach`` (0.9).
OFF = 46.0

#: The top card, Cy's green 2, where it lies.
TOP = (CENTER[0] - 6, CENTER[1] + 3)


def watch(table: Table, first_covered: int, arm: int | None, *, keep_boxes: bool) -> list[str]:
    """``"type card player"`` for each event over ``table``'s frames, the arm of seat
    ``arm`` (if any) at the pile as the hand covers it from ``first_covered``; with
    ``keep_boxes`` False, the pile's boxes are forgotten as the hand comes (the box of
    a card of a fan, covered soon after it landed, is never kept)."""

    def forget_boxes(w: Watcher) -> None:
        for entry in w.state.pile:
            entry.boxes.clear()

    out = watch_covered(
        table, first_covered, arm, as_hand_comes=None if keep_boxes else forget_boxes
    )
    return [" ".join(str(e.get(k, "")) for k in ("type", "card", "player")).strip() for e in out]


def half_on_the_top(first_green_4: str) -> tuple[Table, int]:
    """Ann plays ``first_green_4`` (a green 4) at the centre, Bob a green 7 and Cy a
    green 2 on it; a hand covers the pile and leaves a green 4 lying 0.6 card lengths
    above the first, half on the green 2, which shows still."""
    return covered_after(
        "green-5",
        [
            (first_green_4, "Ann", CENTER),
            ("green-7", "Bob", (CENTER[0] + 10, CENTER[1] + 6)),
            ("green-2", "Cy", TOP),
        ],
        [lying("green-2", *TOP), lying("green-4", CENTER[0], CENTER[1] - OFF)],
    )


def test_a_copy_of_a_deep_card_put_half_on_the_top_away_from_it_is_a_play() -> None:
    # Bob's green 3 in 696 (fast-messy-24fps and four more messy or fast styles): put
    # down by his hand half on Ann's yellow 3, 0.6 card lengths from the green 3 of his
    # fan five plays down (whose box was never kept), the yellow 3 seen all the while.
    table, first_covered = half_on_the_top("green-4")
    out = watch(table, first_covered, PLAYERS.index("Dee"), keep_boxes=False)
    assert out == [
        "flip green-5",
        "play green-4 Ann",
        "play green-7 Bob",
        "play green-2 Cy",
        "play green-4 Dee",
    ]


def test_a_deep_card_seen_again_where_it_lay_or_with_no_arm_there_is_no_copy() -> None:
    # Where the first green 4 lay (the cards on it pushed aside), it is that card seen
    # again as a hand passes; and no arm at the pile, nothing was put down.
    table, first_covered = covered_after(
        "green-5",
        [
            ("green-4", "Ann", CENTER),
            ("green-7", "Bob", (CENTER[0] + 10, CENTER[1] + 6)),
            ("green-2", "Cy", TOP),
        ],
        [lying("green-2", *TOP), lying("green-4", CENTER[0] + 2, CENTER[1] - 3)],
    )
    out = watch(table, first_covered, PLAYERS.index("Dee"), keep_boxes=False)
    assert out[-1] == "play green-2 Cy"
    table, first_covered = half_on_the_top("green-4")
    out = watch(table, first_covered, None, keep_boxes=False)
    assert out[-1] == "play green-2 Cy"


def green_4_under_ann_s_hand(bobs: str) -> list[str]:
    """Ann's green 4, Bob's ``bobs`` on it, Cy's green 7, Dee's green 2; Ann's hand
    covers the pile and leaves a green 4 lying otherwise than hers, half on the green
    2. The events, as :func:`watch` gives them."""
    table, first_covered = covered_after(
        "green-5",
        [
            ("green-4", "Ann", CENTER),
            (bobs, "Bob", (CENTER[0] + 3, CENTER[1] - 2)),
            ("green-7", "Cy", (CENTER[0] + 10, CENTER[1] + 6)),
            ("green-2", "Dee", TOP),
        ],
        [lying("green-2", *TOP), lying("green-4", CENTER[0], CENTER[1] - OFF)],
    )
    return watch(table, first_covered, PLAYERS.index("Ann"), keep_boxes=True)


def test_a_face_whose_every_copy_lies_on_the_pile_seen_again_is_no_copy() -> None:
    # Both green 4s of a deck on the pile (Ann's and, on hers, Bob's jump-in): a green 4
    # lying otherwise than either, another seat's hand there, is one of them seen again
    # (``shaky-covering-messy-26fps`` held-out 696, opened: Ann's yellow 3, pushed by
    # her blue 3 as it landed, taken for a third yellow 3 her hand put down).
    out = green_4_under_ann_s_hand("green-4")
    assert out[-1] == "play green-2 Dee"
    assert out.count("play green-4 Ann") == 1
    # One green 4 on the pile (Bob's jump-in a green 8 instead): the same frames put a
    # copy down.
    assert green_4_under_ann_s_hand("green-8")[-1] == "play green-4 Ann"
