"""A jump-in put square on the card it copies: another seat's covering hand goes to
the discard pile, hides the top card, and leaves the same face lying where it lay.
No picture tells the copy from the card under it; the hand does: nobody reaches for
the discard pile to take nothing away (found with the trained recogniser on the
``covering-hand`` tuning style, seed 618: docs/watcher.md, "Twentieth pass"). A hand
reaching past the discard pile for the draw pile puts nothing there. Same made-up
table as ``test_watcher.py``; the arm's sightings are scripted."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, FPS, LAYOUT, PLAYERS, SEAT_EDGE, Table, started
from tests.vision.test_watcher_arm_plays import events
from tests.vision.test_watcher_covered_copy import covered_after, lying
from tests.vision.test_watcher_lifted import ArmsSeen
from vision.arm_probe import DRAW, ArmSighting
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

ANN = PLAYERS.index("Ann")
BOB = PLAYERS.index("Bob")
#: Frames the covering hand is over the pile (half a second).
COVERING = 15
#: Frames a hand reaching for the draw pile is seen over the discard pile first.
PASSING = 5


def square_on_top(
    pile: str, across: bool = False, passing: int = PASSING
) -> list[dict[str, object]]:
    """Ann plays a green 4; Bob's hand covers the pile for half a second, his arm
    reaching for ``pile`` (the discard pile; or the draw pile, seen over the discard
    pile in its first ``passing`` frames), and leaves a green 4 lying where Ann's lay
    (or ``across`` it)."""
    square = lying("green-4", CENTER[0] + 1, CENTER[1], across=across)
    table, first_covered = covered_after("green-5", [("green-4", "Ann", CENTER)], [square])
    return with_bob_s_arm(table, first_covered, passing if pile == DRAW else None)


def with_bob_s_arm(
    table: Table, first_covered: int, passing: int | None
) -> list[dict[str, object]]:
    """The watcher's events over ``table``'s frames, Bob's arm seen over the discard
    pile for the ``COVERING`` frames from ``first_covered``; with ``passing``, the same
    arm on to the draw pile after that many of them."""
    arms = ArmsSeen(BOB, range(first_covered, first_covered + COVERING))
    if passing is not None:
        arms.seen[passing:] = [
            ArmSighting(s.t, BOB, SEAT_EDGE["Bob"], s.tip, DRAW, True, to_discard=s.to_discard)
            for s in arms.seen[passing:]
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


def test_a_hand_seen_mostly_at_the_pile_then_nearer_the_draw_pile_put_its_card_down() -> None:
    # Its far end passing between the piles as it went back, seen twice a little nearer
    # the draw pile's middle, after thirteen looks at the discard pile: it put a card
    # down, not drew (``covering-messy-dim-23fps`` held-out 692, opened: Bob's yellow 2
    # half on Cy's, from the left, never played).
    out = square_on_top(DRAW, across=True, passing=COVERING - 2)
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Bob"}


def ann_twice(back_after_s: float) -> list[dict[str, object]]:
    """Ann's covering hand puts a green 4 on the pile; it shows once her arm has gone,
    and is played a moment later. Her arm comes back ``back_after_s`` after it went,
    covers the pile for half a second, and leaves a green 4 lying across hers."""
    table = started("green-5")
    first = len(table.frames)
    table.still(COVERING, covered=True)
    table.pile.append([("green-4", *CENTER)])
    gone = int(back_after_s * FPS)
    table.still(gone)
    second = len(table.frames)
    table.still(COVERING, covered=True)
    table.pile.append([("green-4", CENTER[0] + 8, CENTER[1] + 5)])
    table.frames += [[lying("green-4", CENTER[0] + 8, CENTER[1] + 5, across=True)]] * 40
    arms = ArmsSeen(ANN, range(first, first + COVERING))
    arms.seen += ArmsSeen(ANN, range(second, second + COVERING)).seen
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = arms
    return events(w, table)


def test_the_same_hand_back_at_the_pile_after_its_play_was_judged_brings_a_second() -> None:
    # Her first green 4 is judged after her arm went (it showed only then, and lay
    # still a while), and her arm is back soon after that: a visit of its own all the
    # same, gone longer than arm_away_s (``covering-dim-22fps`` and nine more styles,
    # held-out 679, opened: Ann's second green 9, a jump-in on her own, taken for the
    # first seen again).
    cfg = WatcherConfig()
    out = ann_twice(back_after_s=cfg.arm_away_s + cfg.quiet_play_rest_s)
    assert out[1:] == [{"type": "play", "card": "green-4", "player": "Ann"}] * 2


def own_copy_over_a_pile_card(pile_card_shows: bool) -> list[dict[str, object]]:
    """Ann plays a green 9, Bob a green 4 on it, the green 9 showing beside it. Bob's
    covering hand hides the pile for half a second, seen over the discard pile, then
    reaching on past it, nearer the draw pile (his fingertips beyond the card he puts
    down). It leaves a green 4 lying a little left of his, over the green 9's middle,
    and the green 9 showing again or not (``pile_card_shows``)."""
    nine = ("green-9", CENTER[0] - 20, CENTER[1])
    copy = lying("green-4", CENTER[0] - 10, CENTER[1])
    showing = [copy, lying(*nine)] if pile_card_shows else [copy]
    table, first_covered = covered_after(
        "green-5", [("green-9", "Ann", nine[1:]), ("green-4", "Bob", CENTER)], showing
    )
    for frame in table.frames[first_covered - 20 : first_covered]:  # Bob's play lying
        frame.append(lying(*nine))
    return with_bob_s_arm(table, first_covered, PASSING)


def test_a_hand_that_covered_a_pile_card_for_good_put_a_card_down() -> None:
    # ``covering-dim-22fps`` and three more covering styles held-out 708 (opened): Ann's
    # second yellow 6 put on her first from beyond the pile, her arm's far end nearer
    # the draw pile than the discard pile's middle, taken for the first seen again as
    # she drew; the yellow skip beside it, seen in every frame before, never showed
    # again. A hand passing over the pile uncovers what it hid.
    out = own_copy_over_a_pile_card(pile_card_shows=False)
    assert [e["type"] for e in out] == ["flip", "play", "play", "play"]
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Bob"}
    # Every pile card seen again: the hand drew, passing over the pile.
    assert [e["type"] for e in own_copy_over_a_pile_card(pile_card_shows=True)] == [
        "flip",
        "play",
        "play",
    ]
