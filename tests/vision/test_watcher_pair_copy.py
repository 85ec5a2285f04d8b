"""A copy of the face under the top card of a play of several cards, put down by
another seat's covering hand (found with the trained recogniser on the
``covering-slide-warm-21fps`` tuning style, seed 620: Bob plays a green 6 and a blue 6
together, Cy puts a green 6 on them; docs/watcher.md, "Twenty-first pass").

The green 6 under Bob's blue 6 was never boxed at rest, so no place tells Cy's green 6
from it uncovered. The hand does: the blue 6 went unseen as Cy's card showed and was
not seen since, and nobody takes back the top card of a pair with another seat's hand.
These tests ask :meth:`vision.watch.copies.CopyRules.covered_copy` directly, on a
pile and a track set up as the watcher had them.
"""

from __future__ import annotations

from collections import deque

from tests.vision.test_watcher import CENTER, LAYOUT, PLAYERS
from tests.vision.test_watcher_covered_copy import ArmsAtPile
from tests.vision.test_watcher_lifted import ArmsSeen
from vision.arm_probe import ArmProbe
from vision.tracks import Sighting, Track, TrackState
from vision.watch.copies import CopyRules
from vision.watch.seats import SeatRules
from vision.watch.state import PileEntry, WatcherState
from vision.watcher_config import WatcherConfig

FPS = 30.0
#: When Bob's pair was played, when its blue 6 was last seen, when Cy's green 6 showed.
PLAYED_T, TOP_GONE_T, SHOWED_T = 1.0, 2.0, 2.3
X, Y = CENTER


def after_pair(
    arms: ArmProbe, top_last_seen: float | None, first_t: float = SHOWED_T
) -> tuple[WatcherState, Track]:
    """The watcher's state after Bob's pair, and the track of a green 6 showing at
    ``SHOWED_T`` (``first_t``: its track began earlier, the green 6 under the blue 6
    peeking out, and went unseen until ``SHOWED_T``)."""
    state = WatcherState(LAYOUT, PLAYERS, WatcherConfig())
    state.arms = arms
    state.pile = [
        PileEntry(["green-5"], [(X, Y)], 0.0, player=None),
        PileEntry(
            ["green-6", "blue-6"],
            [(X - 4, Y), (X + 4, Y)],
            PLAYED_T,
            ids=[7],
            player="Bob",
            boxes={"blue-6": (X - 21.0, Y - 38.0, X + 29.0, Y + 38.0)},
            top_last_seen=top_last_seen,
        ),
    ]
    box = (X - 23.0, Y - 36.0, X + 27.0, Y + 40.0)
    tr = Track(
        id=9,
        first_t=first_t,
        first_xy=(X + 2, Y + 2),
        first_in_discard=True,
        first_in_draw=False,
        sightings=deque(Sighting(SHOWED_T + i / FPS, X + 2, Y + 2, box) for i in range(15)),
        votes=deque([("green-6", 0.9)] * 15),
        state=TrackState.FREE,
        back_t=None if first_t == SHOWED_T else SHOWED_T,
    )
    state.tracks = [tr]
    return state, tr


def copy_after_pair(hand: str, top_last_seen: float | None, first_t: float = SHOWED_T) -> bool:
    """Is the green 6 showing at ``SHOWED_T``, put down by ``hand``'s arm (at the pile
    in the half second before), a copy?"""
    first_arm = int((SHOWED_T - 0.5) * FPS)
    arms = ArmsSeen(PLAYERS.index(hand), range(first_arm, first_arm + 15))
    state, tr = after_pair(arms, top_last_seen, first_t)
    return CopyRules(state).covered_copy(tr, state.pile[-1], LAYOUT.card_px)


def test_the_face_under_a_pairs_top_put_down_by_another_hand_as_the_top_went_is_a_copy() -> None:
    assert copy_after_pair("Cy", TOP_GONE_T)


def test_the_players_own_hand_uncovers_it() -> None:
    assert not copy_after_pair("Bob", TOP_GONE_T)


def test_with_the_top_card_still_seen_it_is_the_card_under_it() -> None:
    assert not copy_after_pair("Cy", SHOWED_T + 0.2)


def test_with_the_top_card_gone_long_before_it_is_not_hidden_by_it() -> None:
    assert not copy_after_pair("Cy", SHOWED_T - 2.0)
    assert not copy_after_pair("Cy", None)


def test_the_top_seen_a_look_after_the_copy_showed_was_hidden_by_it() -> None:
    # covering-slow-slide-20fps held-out 685 (opened): Bob's red 8 slid onto Dee's
    # yellow 8 (played with her red 8 under it), the yellow 8 seen one look (0.05 s)
    # after the red 8 first showed, then never: his jump-in was taken for her red 8.
    assert copy_after_pair("Cy", SHOWED_T + 0.05)


def test_a_track_that_came_back_is_judged_from_when_it_showed_again() -> None:
    # webcam-15fps held-out 685 (opened): Dee's red 8 peeking from under her yellow 8
    # was read a second before Bob's red 8 slid over it and went on on its track; the
    # arm there as the track began (none, here) tells nothing of who put it down.
    assert copy_after_pair("Cy", TOP_GONE_T, first_t=PLAYED_T + 0.2)
    assert not copy_after_pair("Bob", TOP_GONE_T, first_t=PLAYED_T + 0.2)


def test_the_seat_of_a_track_that_came_back_is_the_arm_there_then() -> None:
    # The same: Dee's arm was at the pile as the track began (her own red 8 peeking
    # out), Bob's (Cy here) as his red 8 showed on it; it was given to Dee, an alert.
    peek = PLAYED_T + 0.2
    arms = ArmsAtPile(
        [(PLAYERS.index("Dee"), peek - 0.3, peek), (PLAYERS.index("Cy"), SHOWED_T - 0.5, SHOWED_T)]
    )
    state, tr = after_pair(arms, TOP_GONE_T, first_t=peek)
    assert SeatRules(state).seat_of([tr], LAYOUT.card_px) == 2
