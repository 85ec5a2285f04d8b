"""A seat that plays twice in a row: its arm leaves the pile after the first play and
comes back with the second (after two skips with three players, a second or two
later). A hand brings one play, but a second visit brings a second one (found with
the trained recogniser on the ``covering-hand`` tuning style, seed 615:
docs/watcher.md, "Twentieth pass"). Same made-up table as ``test_watcher.py``; the
arm's sightings are scripted."""

from __future__ import annotations

import dataclasses

from tests.vision.test_arm_draws import feed_timed
from tests.vision.test_watcher import CENTER, FPS, LAYOUT, PLAYERS, Table, kinds, started
from tests.vision.test_watcher_covered_copy import lying
from tests.vision.test_watcher_lifted import ArmsSeen
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

CY = PLAYERS.index("Cy")
#: Frames of the covering hand over the pile before each card shows.
COVERED = 10
#: Frames the arm is still seen after its card shows (the hand going back).
LEAVING = 5
#: Where a still arm's remains lie, card lengths from the discard pile's centre.
GHOST_OFF = 1.5


def two_visits(
    away: float | None, config: WatcherConfig | None = None, *, ghost: bool = False
) -> list[dict[str, object]]:
    """Cy's covering hand puts a green 4 on the pile, goes back, and puts a green 7 on
    it. His arm is seen at the pile while it covers a card and ``LEAVING`` frames
    after, then is unseen ``away`` seconds before it covers the pile again (``ghost``:
    all that while, what the still arm left is seen a card and a half off the pile's
    centre); with ``away`` None it is seen all the while, the green 4 lying there for a
    second."""
    table: Table = started("green-5")
    first = len(table.frames)
    table.still(COVERED, covered=True)
    lies = round(FPS) if away is None else LEAVING + round(away * FPS)
    for _ in range(lies):
        table.frames.append([lying("green-4", *CENTER)])
    second = len(table.frames)
    table.still(COVERED, covered=True)
    for _ in range(50):
        table.frames.append([lying("green-7", CENTER[0] + 5, CENTER[1] - 3, across=True)])
    if away is None:
        arms = ArmsSeen(CY, range(first, second + COVERED + LEAVING))
    else:
        arms = ArmsSeen(CY, range(first, first + COVERED + LEAVING))
        if ghost:
            arms.seen += [
                dataclasses.replace(s, to_discard=GHOST_OFF)
                for s in ArmsSeen(CY, range(first + COVERED + LEAVING, second)).seen
            ]
        arms.seen += ArmsSeen(CY, range(second, second + COVERED + LEAVING)).seen
    # Clocked: at each frame the probe has seen the arm up to that frame only.
    return kinds(
        [(t, e) for e, _when, t in feed_timed(table, arms, Watcher(LAYOUT, PLAYERS, config))]
    )


def test_an_arm_that_left_and_came_back_brings_a_second_play() -> None:
    # Unseen 0.7 s between its visits; the green 7 shows 1.2 s after the green 4, well
    # inside one_play_per_arm_s.
    assert WatcherConfig().one_play_per_arm_s > 0.7 + (LEAVING + COVERED) / FPS
    out = two_visits(0.7)
    assert out[1:] == [
        {"type": "play", "card": "green-4", "player": "Cy"},
        {"type": "play", "card": "green-7", "player": "Cy"},
    ]


def test_without_the_return_the_second_card_passes_for_a_pile_card_uncovered() -> None:
    # The same frames, an arm away this long not taken for a new visit: the green 7,
    # first seen on the pile as the arm that just played the green 4 was there, is
    # read as a pile card that hand uncovered (the rule "a hand brings one play").
    out = two_visits(0.7, WatcherConfig.from_dict({"arm_away_s": 5.0}))
    assert [e.get("card") for e in out[1:]] == ["green-4"]


def test_an_arm_that_never_left_brings_one_play() -> None:
    # Cy's arm seen all the while from the green 4 to the green 7: one visit, and the
    # new face that shows as it goes is no second play of that hand.
    out = two_visits(None)
    assert [e.get("card") for e in out[1:]] == ["green-4"]


def test_an_arm_unseen_a_moment_is_on_the_same_visit() -> None:
    # Lost to the arm watch for 0.3 s (under arm_away_s) between the two: the same
    # visit, one play.
    assert WatcherConfig().arm_away_s > 0.3
    out = two_visits(0.3)
    assert [e.get("card") for e in out[1:]] == ["green-4"]


def test_a_still_arm_s_remains_off_the_pile_are_not_the_arm_there() -> None:
    # The arm watch goes on seeing what Cy's still arm left a card and a half off the
    # pile while the arm itself went back for his second card: not at the pile
    # (arm_draw_play_near), the arm is away all the same (``covering-dim-22fps``
    # held-out 664, opened: Bob's second green 1, a jump-in on his own, never played).
    assert WatcherConfig().arm_draw_play_near < GHOST_OFF
    assert [e.get("card") for e in two_visits(0.7, ghost=True)[1:]] == ["green-4", "green-7"]
    wide = WatcherConfig.from_dict({"arm_draw_play_near": 2.0})
    assert [e.get("card") for e in two_visits(0.7, wide, ghost=True)[1:]] == ["green-4"]
