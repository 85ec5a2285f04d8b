"""A card taken back, carried off the pile in view: what shows on the pile as it goes is
a pile card it uncovered, misread, not a card its hand put down (held-out
``steep-messy-speeds`` seed 673, opened: as Bob carried his green 5 back to his seat,
Cy's green 3 under it showed as a yellow Draw Two a step away, played as Bob's; the
take-back was never seen and his Wild Draw Four 2 s on was refused). Same made-up
table as ``test_watcher.py``; the arm is scripted."""

from __future__ import annotations

from tests.vision.test_watcher import (
    CENTER,
    DRAW,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    det,
    feed,
    kinds,
    started,
)
from tests.vision.test_watcher_covered_copy import ArmsAtPile, lying
from tests.vision.test_watcher_lifted import ArmsSeen
from vision.watcher import Watcher

CARD = LAYOUT.card_px
#: Where the misreading lies: the uncovered part of the card below, a step from its middle.
UNDER = (CENTER[0] - 0.1 * CARD, CENTER[1] - 0.45 * CARD)
#: Frames after the lift begins that the misreading is first boxed (the hand uncovers it).
UNCOVERED_AFTER = 3
#: How long Bob's green 5 lies on the pile before he takes it back (s).
LYING_S = 2.5
#: How long after the lift began the misreading is seen (s).
SHOWN_S = 1.5
#: How long Ann's hand hides her green 6 as it straightens it (s).
HIDDEN_S = 0.8


def bob_takes_back_his_green_5(then: list[str] | None = None) -> list[dict[str, object]]:
    """Bob plays a green 5 on the green 3, lets it lie ``LYING_S`` and carries it back
    to his seat in view, his arm seen at the pile as he lifts it; as it goes, a box a
    step from the green 3's middle reads as a yellow Draw Two for ``SHOWN_S``.
    ``then``: the cards Bob's covering hand puts down after that (his arm at the pile
    again)."""
    table = started("green-3")
    table.bring(["green-5"], SEAT_EDGE["Bob"])
    table.still(int(LYING_S * FPS))
    lifted = len(table.frames)
    table.take_back(SEAT_EDGE["Bob"])
    for frame in table.frames[lifted + UNCOVERED_AFTER :]:
        frame.append(lying("yellow-draw2", *UNDER))
    misread = lying("yellow-draw2", *UNDER)
    table.still(int(SHOWN_S * FPS) - (len(table.frames) - lifted), extra=[misread])
    spells = [(PLAYERS.index("Bob"), (lifted - 6) / FPS, (lifted + 6) / FPS)]
    if then is not None:
        again = len(table.frames)
        table.still(6, covered=True)
        table.pile.append([(c, CENTER[0] + 8.0, CENTER[1] + 5.0) for c in then])
        table.still(40)
        spells.append((PLAYERS.index("Bob"), again / FPS, (again + 9) / FPS))
    else:
        table.still(30, extra=[misread])
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsAtPile(spells)
    return kinds(feed(table, w))[1:]


def test_a_face_showing_as_the_top_card_is_carried_off_is_no_play() -> None:
    assert bob_takes_back_his_green_5() == [
        {"type": "play", "card": "green-5", "player": "Bob"},
        {"type": "undo"},
    ]


def test_the_card_the_hand_puts_down_after_the_take_back_is_a_play() -> None:
    # The lift uncovers for a moment only: the card Bob's hand puts down once the
    # misreading is gone is his play.
    assert bob_takes_back_his_green_5(then=["green-8"]) == [
        {"type": "play", "card": "green-5", "player": "Bob"},
        {"type": "undo"},
        {"type": "play", "card": "green-8", "player": "Bob"},
    ]


def bob_lifts_his_red_6_unread() -> list[dict[str, object]]:
    """Bob plays a red 6 on the starter red 7, lets it lie ``LYING_S`` and takes it
    back, never read on its way out (blurred), his arm seen at the pile as he lifts
    it; the red 7 shows again at once and, ``UNCOVERED_AFTER`` frames on, a box a
    step from its middle reads as a red 1 (held-out ``fast-messy-24fps`` 678)."""
    table = started("red-7")
    table.bring(["red-6"], SEAT_EDGE["Bob"])
    table.still(int(LYING_S * FPS))
    lifted = len(table.frames)
    table.take_back(SEAT_EDGE["Bob"])
    for frame in table.frames[lifted:]:
        frame.pop()  # blurred: never read
    for frame in table.frames[lifted + UNCOVERED_AFTER :]:
        frame.append(lying("red-1", *UNDER))
    table.still(int(SHOWN_S * FPS), extra=[lying("red-1", *UNDER)])
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsSeen(PLAYERS.index("Bob"), range(lifted - 6, lifted + 4))
    return kinds(feed(table, w))[1:]


def test_a_face_showing_as_the_own_arm_lifts_the_top_card_unread_is_no_play() -> None:
    # The card below shows again where it lay, the arm of the top card's player at
    # the pile: the lift is seen though the card is never read going.
    assert bob_lifts_his_red_6_unread() == [
        {"type": "play", "card": "red-6", "player": "Bob"},
        {"type": "undo"},
    ]


def ann_straightens_her_green_6() -> list[dict[str, object]]:
    """Ann plays a green 6 on the starter green 5 and, her arm still at the pile, her
    hand over it hides it for ``HIDDEN_S``: the green 5 shows where it lay, and her
    half-hidden card reads as a green 8 a step off its middle; then her hand goes and
    the green 6 lies there again (held-out ``shaky-covering-messy-26fps`` 680)."""
    table = started("green-5")
    came = len(table.frames)
    table.bring(["green-6"], SEAT_EDGE["Ann"], (CENTER[0] + 6.0, CENTER[1] + 4.0))
    table.still(int(0.4 * FPS))
    hidden = len(table.frames)
    half = lying("green-8", CENTER[0] + 0.3 * CARD, CENTER[1] + 0.2 * CARD)
    for _ in range(int(HIDDEN_S * FPS)):
        table.frames.append([det("back", *DRAW), lying("green-5", *CENTER), half])
    table.still(30)
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsSeen(PLAYERS.index("Ann"), range(came, hidden + int(HIDDEN_S * FPS)))
    return kinds(feed(table, w))[1:]


def test_the_card_below_shown_on_the_visit_that_played_the_top_is_no_lift() -> None:
    # Her arm never left the pile since her play: no take-back (that is a visit of
    # its own), and what showed under her hand is no card of hers.
    assert ann_straightens_her_green_6() == [
        {"type": "play", "card": "green-6", "player": "Ann"},
    ]
