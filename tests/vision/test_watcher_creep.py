"""A slow player's card slid onto the pile slows down evenly and creeps the last part of
its way: it is played when it stops, not while it creeps, and a card put down fast is
played as soon as it stops (found on the tuning style ``quick-untidy-26fps``,
docs/watcher.md). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    det,
    feed,
    kinds,
    started,
)
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

SLOW_FRAMES = 45  # 1.5 s from the player's side to the pile, slowing evenly
SLOW_FROM = 1.6  # card lengths below the pile's centre (Ann's side)


def slid_slowly(config: WatcherConfig | None = None) -> tuple[float, float]:
    """The time of the red-7's play and the time it stopped."""
    table = started("red-5")
    start = (CENTER[0], CENTER[1] + SLOW_FROM * LAYOUT.card_px)
    stopped = (len(table.frames) + SLOW_FRAMES - 1) / FPS
    table.bring(["red-7"], start, n=SLOW_FRAMES)
    table.still(30)
    events = feed(table, Watcher(LAYOUT, PLAYERS, config or WatcherConfig()))
    return next(t for t, e in events if e["type"] == "play"), stopped


def test_a_slowly_creeping_card_is_played_when_it_stops() -> None:
    t_play, stopped = slid_slowly()
    assert stopped - 0.15 <= t_play <= stopped + 0.2


def test_judged_by_stillness_alone_it_would_be_played_while_it_still_creeps() -> None:
    # No card counts as slow: the creeping rule is off.
    t_play, stopped = slid_slowly(WatcherConfig(creep_slow=0.0))
    assert t_play < stopped - 0.3


def test_a_slow_card_hiding_the_top_card_as_it_creeps_in_is_no_take_back() -> None:
    # Bob's red-7 lies on the red-5; Ann's red-3 creeps in over 2.5 s and hides the
    # red-7 for its last 2.3 s, while the red-5 under both is boxed again: no undo
    # (a red-7 unseen that long, the red-5 seen, would be a take-back).
    table = started("red-5")
    table.bring(["red-7"], SEAT_EDGE["Bob"])
    table.still(20)
    start = (CENTER[0], CENTER[1] + SLOW_FROM * LAYOUT.card_px)
    table.bring(["red-3"], start, n=75)
    for frame in table.frames[-70:]:
        frame[:] = [det("red-5", *CENTER) if d[0] == "red-7" else d for d in frame]
    table.still(30)
    assert [(e["type"], e.get("card")) for e in kinds(feed(table))] == [
        ("flip", "red-5"),
        ("play", "red-7"),
        ("play", "red-3"),
    ]
