"""The seat of the arm at the pile (vision.arm_seats, asked through vision.hands.ArmWatch)."""

from __future__ import annotations

import numpy as np

from vision.arm_probe import ArmSighting
from vision.calibration import TableLayout
from vision.hands import ArmWatch

FPS = 25.0


def _watch(runs: list[tuple[float, float, int]]) -> ArmWatch:
    """An arm watch that saw, at the discard pile, seat ``s`` from ``t0`` to ``t1``."""
    arms = ArmWatch(TableLayout.default(640, 480, 4))
    for t0, t1, seat in runs:
        for k in range(round(t0 * FPS), round(t1 * FPS) + 1):
            arms.sightings.append(ArmSighting(k / FPS, seat, (0.0, 0.0), (320.0, 240.0)))
    return arms


def test_the_arm_leaving_the_pile_last_is_the_seat() -> None:
    # Bob's arm, then Dee's put a card down: Dee's.
    arms = _watch([(1.0, 1.5, 1), (2.0, 2.4, 3)])
    assert arms.seat_between(0.5, 2.6) == 3


def test_a_stray_sighting_last_does_not_hide_the_arm_before_it() -> None:
    # covering-untidy-25fps seed 604 (true boxes): Dee's hand put a yellow 8 down and
    # left; a single sighting of her arm half a second later was the latest, and the
    # votes over the half second before it (one frame) found no seat: the play was
    # lost. With no seat there, the whole window votes.
    arms = _watch([(1.0, 1.44, 3), (2.04, 2.04, 3)])
    assert arms.seat_between(0.0, 2.3) == 3
    arms = _watch([(1.0, 1.44, 3), (2.04, 2.04, 1)])
    assert arms.seat_between(0.0, 2.3) == 3  # one frame of another arm is no seat either
    assert _watch([(2.04, 2.04, 3)]).seat_between(0.0, 2.3) is None


def test_after_a_stray_sighting_the_latest_arm_not_the_most_seen() -> None:
    # covering-untidy-25fps seed 604 (trained recogniser): Cy's arm played a yellow 7
    # (13 frames), Dee's brought a yellow 8 (12 frames) and one frame of it was seen
    # half a second later. The whole window's votes tied and gave Cy's seat, whose
    # yellow 7 then counted as the card that arm brought: the yellow 8 was lost.
    arms = _watch([(0.0, 0.48, 2), (1.0, 1.44, 3), (2.04, 2.04, 3)])
    assert arms.seat_between(0.0, 2.3) == 3
    arms = _watch([(0.0, 0.8, 2), (1.0, 1.44, 3), (2.04, 2.04, 1)])  # the older arm seen longer
    assert arms.seat_between(0.0, 2.3) == 3


def test_the_arm_there_as_the_card_showed_the_one_come_last() -> None:
    # quick-untidy-26fps seed 607 (trained recogniser): Dee's arm, going back from her
    # green 2, was at the pile from 4.81 s to 5.54 s; Ann's came at 5.54 s with a green
    # 7, first seen at 5.65 s, and left at 5.73 s. Over the last half second Dee's arm
    # had more sightings: the green 7 was taken for a card Dee's arm uncovered.
    arms = _watch([(4.81, 5.54, 3), (5.54, 5.73, 0)])
    assert arms.seat_for(5.65) == 0
    # The next player's arm reaching in after the card showed is not the one.
    arms = _watch([(4.81, 5.7, 3), (6.0, 6.2, 0)])
    assert arms.seat_for(5.65) == 3
    # No arm there as it showed (gone a while before): the window's votes, as before.
    arms = _watch([(4.0, 4.5, 2), (4.6, 5.0, 3)])
    assert arms.seat_for(5.65) == arms.seat_between(3.65, 5.95) == 3


def test_one_arm_flickering_across_the_line_between_two_seats_is_not_an_arm_come_last() -> None:
    # random-7027 seed 803 (trained recogniser): Bob's arm brought a red 9 (seen from
    # 12.90 s to 13.35 s) and, leaving, crossed the table's edge on the line between
    # his seat and Ann's: two frames of it were Ann's, a "visit" come last.
    arms = _watch([(12.9, 13.2, 1), (13.24, 13.28, 0), (13.32, 13.4, 1)])
    assert arms.seat_for(13.1) == 1
    # Two arms at once (seen in the same frames): the one come last, as before.
    arms = _watch([(12.9, 13.4, 1), (13.2, 13.3, 0)])
    assert arms.seat_for(13.1) == 0


def test_an_arm_come_into_view_after_the_last_arm_left_the_pile_is_the_seat() -> None:
    # covering-dim-22fps held-out 703 (opened): Bob's arm put his red 1 down and left
    # the pile at 17.15 s, seen going back over the floor until 18.15 s; Cy's dark arm
    # over the dark table was seen only where it crossed the floor above it, from
    # 18.18 s, and his green 1 first showed on the pile at 18.95 s: given to Bob.
    arms = _watch([(16.8, 17.15, 1)])
    cy = [(18.18 + k / FPS, 2) for k in range(12)]
    bob_going = [(17.65 + k / FPS, 1) for k in range(13)]
    assert arms.seat_for(18.95) == 1  # no arm in view: the last at the pile, as before
    arms.in_view.extend(sorted(bob_going + cy))
    assert arms.came_in_view(16.95, 18.95) == 2
    assert arms.seat_for(18.95) == 2
    # Cy's arm seen once, or only after the card showed (the next player reaching in),
    # is not the one: the arm last at the pile.
    once = _watch([(16.8, 17.15, 1)])
    once.in_view.extend([*bob_going, (18.5, 2)])
    assert once.seat_for(18.95) == 1
    later = _watch([(16.8, 17.15, 1)])
    later.in_view.extend([*bob_going, *[(19.0 + k / FPS, 2) for k in range(5)]])
    assert later.seat_for(18.95) == 1
    # An arm at the pile as the card showed is the seat, whatever came into view.
    there = _watch([(18.8, 19.1, 3)])
    there.in_view.extend(cy)
    assert there.seat_for(18.95) == 3


def test_an_arm_crossing_the_edge_that_reaches_no_pile_is_kept_in_view() -> None:
    layout = TableLayout.default(320, 240, 4)  # seat 2 on the top edge
    arms = ArmWatch(layout)
    table = np.full((240, 320, 3), 120, np.uint8)
    arms.update(table, 0.0)
    stub = table.copy()
    stub[0:40, 150:170] = (60, 70, 90)  # over the floor beyond the table's edge only
    assert arms.update(stub, 0.1) == [] and arms.update(stub, 0.2) == []
    assert [seat for _, seat in arms.in_view] == [2, 2]
    assert arms.came_in_view(0.0, 0.3) == 2
    arms.reset()  # a new round: what was in view goes with the rest
    assert arms.came_in_view(0.0, 0.3) is None


def test_a_stray_sighting_after_the_arm_at_the_pile_does_not_forget_that_arm() -> None:
    # night-covering-tilted-24fps held-out 709 (opened), at 24 frames/s: Dee's arm at
    # the pile from 4.67 s until 5.083 s, a visit gap (0.25 s) before her green 4 first
    # showed at 5.333 s, and once more at 5.417 s; Bob's arm came into view meanwhile.
    # Her latest visit was the one stray sighting, and the card was given to Bob.
    fps = 24.0
    arms = ArmWatch(TableLayout.default(640, 480, 4))
    for k in [*range(112, 123), 130]:
        arms.sightings.append(ArmSighting(k / fps, 3, (0.0, 0.0), (320.0, 240.0)))
    arms.in_view.extend((k / fps, 1) for k in range(123, 129))
    assert arms.seat_for(128 / fps) == 3
    # Gone longer before it showed: the arm come into view since, as before.
    arms = ArmWatch(TableLayout.default(640, 480, 4))
    for k in [*range(110, 121), 130]:
        arms.sightings.append(ArmSighting(k / fps, 3, (0.0, 0.0), (320.0, 240.0)))
    arms.in_view.extend((k / fps, 1) for k in range(121, 129))
    assert arms.seat_for(128 / fps) == 1
