"""A jump-in put square on the card it copies: another seat's covering hand goes to
the discard pile, hides the top card, and leaves the same face lying where it lay.
No picture tells the copy from the card under it; the hand does: nobody reaches for
the discard pile to take nothing away (found with the trained recogniser on the
``covering-hand`` tuning style, seed 618: docs/watcher.md, "Twentieth pass"). A hand
reaching past the discard pile for the draw pile puts nothing there. Same made-up
table as ``test_watcher.py``; the arm's sightings are scripted."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, LAYOUT, PLAYERS, SEAT_EDGE
from tests.vision.test_watcher_arm_plays import events
from tests.vision.test_watcher_covered_copy import covered_after, lying
from tests.vision.test_watcher_lifted import ArmsSeen
from vision.arm_probe import DRAW, ArmSighting
from vision.watcher import Watcher

BOB = PLAYERS.index("Bob")
#: Frames the covering hand is over the pile (half a second).
COVERING = 15
#: Frames a hand reaching for the draw pile is seen over the discard pile first.
PASSING = 5


def square_on_top(pile: str, across: bool = False) -> list[dict[str, object]]:
    """Ann plays a green 4; Bob's hand covers the pile for half a second, his arm
    reaching for ``pile`` (the discard pile; or the draw pile, over the discard pile on
    its way), and leaves a green 4 lying where Ann's lay (or ``across`` it)."""
    square = lying("green-4", CENTER[0] + 1, CENTER[1], across=across)
    table, first_covered = covered_after("green-5", [("green-4", "Ann", CENTER)], [square])
    arms = ArmsSeen(BOB, range(first_covered, first_covered + COVERING))
    if pile == DRAW:  # the same arm over the discard pile, then on to the draw pile
        arms.seen[PASSING:] = [
            ArmSighting(s.t, BOB, SEAT_EDGE["Bob"], s.tip, DRAW, True, to_discard=s.to_discard)
            for s in arms.seen[PASSING:]
        ]
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = arms
    return events(w, table)


def test_the_top_face_left_square_on_it_by_another_hand_at_the_pile_is_a_jump_in() -> None:
    out = square_on_top("discard")
    assert [e["type"] for e in out] == ["flip", "play", "play"]
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Bob"}


def test_a_hand_reaching_past_the_pile_for_the_draw_pile_puts_nothing_there() -> None:
    out = square_on_top(DRAW)
    assert [e["type"] for e in out] == ["flip", "play"]


def test_a_hand_passing_over_the_pile_to_draw_puts_nothing_there_however_it_now_looks() -> None:
    # The top card boxed otherwise once the hand has passed (the arm still over its
    # edge): Ann drawing four over Cy's Wild Draw Four (``random-7001`` seed 801, a
    # randomised tuning style), the card's box 8 px taller each time, was taken for a
    # copy she put down. A hand that went on to the draw pile was drawing.
    out = square_on_top(DRAW, across=True)
    assert [e["type"] for e in out] == ["flip", "play"]
    # The same picture with the arm at the discard pile alone: a copy put down.
    assert [e["type"] for e in square_on_top("discard", across=True)] == ["flip", "play", "play"]
