"""A copy of the top card's face put nearly on it, boxed as one card all along.

At a webcam's 13 frames/s, the detector gives the top card and the copy a hand brings
onto it a single box: the track never goes unseen, it moves a few pixels under the
hand and comes to rest where the copy lies (found with the trained recogniser on the
``grainy-webcam-13fps`` and ``covering-slide-warm-21fps`` tuning styles, seeds
619-620: docs/watcher.md, "Twenty-first pass"). A card on the pile does not move by
itself: lying elsewhere after another seat's arm was at the pile, it is that seat's
copy. Without an arm there, or moved by the hand that just played it (straightening
it), or wandering less than ``still`` card lengths, it is the same card. Same made-up
table as ``test_watcher.py``; the arm's sightings are scripted.
"""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, LAYOUT, PLAYERS, SEAT_EDGE, det, started
from tests.vision.test_watcher_arm_plays import events
from tests.vision.test_watcher_lifted import ArmsSeen
from vision.watcher import Watcher

#: Frames the hand bringing the copy is at the pile (half a second).
VISIT = 15
#: Frames the top card lies still after it came to rest, before the hand comes.
BEFORE = 20


def moved_top(
    shift: tuple[float, float], seat: str | None, wait: int = BEFORE
) -> list[dict[str, object]]:
    """Ann plays a green 4; after ``wait`` frames the arm of ``seat`` (if any) is at the
    pile while the green 4's one box slides by ``shift`` pixels, then lies still."""
    table = started("green-5")
    table.bring(["green-4"], SEAT_EDGE["Ann"])
    table.still(wait)
    visit_from = len(table.frames)
    dx, dy = shift
    for i in range(1, VISIT + 1):
        x, y = CENTER[0] + dx * i / VISIT, CENTER[1] + dy * i / VISIT
        table.frames.append([det("back", *LAYOUT.draw.center), det("green-4", x, y)])
    table.pile.append([("green-4", CENTER[0] + dx, CENTER[1] + dy)])
    table.still(40)
    w = Watcher(LAYOUT, PLAYERS)
    if seat is not None:
        w.arms = ArmsSeen(PLAYERS.index(seat), range(visit_from, visit_from + VISIT))
    return events(w, table)


def test_the_top_face_moved_under_another_seats_hand_is_its_copy() -> None:
    out = moved_top((8.0, -5.0), "Bob")
    assert [e["type"] for e in out] == ["flip", "play", "play"]
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Bob"}


def test_without_a_hand_at_the_pile_a_moved_top_card_is_the_same_card() -> None:
    assert [e["type"] for e in moved_top((8.0, -5.0), None)] == ["flip", "play"]


def test_the_hand_that_played_it_straightening_it_brings_no_copy() -> None:
    # Ann's own hand, within straighten_s of her play.
    assert [e["type"] for e in moved_top((8.0, -5.0), "Ann", wait=5)] == ["flip", "play"]


def test_a_box_wandering_less_than_still_is_the_same_card() -> None:
    assert [e["type"] for e in moved_top((2.0, -1.0), "Bob")] == ["flip", "play"]
