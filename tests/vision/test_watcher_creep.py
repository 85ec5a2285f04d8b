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


#: A slow player's hand slides a card steadily onto the pile, holding it all the way:
#: half a card length a second for 2.4 s, its box jittering by up to 3 px across its
#: way (Cy's yellow 7, ``fast-messy-24fps`` seed 640, the trained recogniser's boxes).
HELD_FRAMES = 72
HELD_JITTER = ((0.0, 0.0), (3.0, 1.0), (-3.0, -1.0), (2.5, -1.5), (-2.0, 1.5), (1.0, 0.0))


HELD_FROM = 1.2  # card lengths below the pile's centre


def jittered_onto_pile(
    frames: int,
    from_lengths: float,
    jitter: tuple[tuple[float, float], ...],
    eased: bool,
    config: WatcherConfig | None,
) -> tuple[list[tuple[float, str]], float]:
    """A red-7 brought onto the red-5 in ``frames`` frames from ``from_lengths`` card
    lengths below it, steadily or ``eased`` (slowing evenly to a stop), its box
    ``jitter``-ed frame by frame: the events (time, type) after the flip, and the time
    the card stopped."""
    table = started("red-5")
    start_y = CENTER[1] + from_lengths * LAYOUT.card_px
    for i in range(1, frames + 1):
        jx, jy = jitter[i % len(jitter)]
        u = 1 - (1 - i / frames) ** 2 if eased else i / frames
        y = start_y + (CENTER[1] - start_y) * u
        table.frames.append([*table.visible_pile(), det("red-7", CENTER[0] + jx, y + jy)])
    stopped = (len(table.frames) - 1) / FPS
    table.pile.append([("red-7", *CENTER)])
    table.still(30)
    events = feed(table, Watcher(LAYOUT, PLAYERS, config or WatcherConfig()))
    return [(t, e["type"]) for t, e in events][1:], stopped


def slid_while_held(config: WatcherConfig | None = None) -> tuple[list[tuple[float, str]], float]:
    """The events (time, type) after the flip, and the time the card stopped."""
    return jittered_onto_pile(HELD_FRAMES, HELD_FROM, HELD_JITTER, False, config)


def test_a_card_slid_on_steadily_while_held_is_played_when_it_stops() -> None:
    out, stopped = slid_while_held()
    assert [kind for _, kind in out] == ["play"]
    # Stopped hard at a slow pace: the spans of creep_long_s see it move a little
    # longer than it does (a third of a second).
    assert stopped - 0.15 <= out[0][0] <= stopped + 0.4


def test_without_the_slide_rule_its_box_s_jitter_has_it_played_on_the_way() -> None:
    # (The creep over long spans sees such a card move too: both off.)
    out, stopped = slid_while_held(WatcherConfig(slide_speed=0.0, creep_long_s=0.0))
    assert out[0] == (out[0][0], "play") and out[0][0] < stopped - 0.3


#: The slowest hand: a card eased onto the pile over 3.6 s from two card lengths off,
#: its box jittering by a pixel or two (Ann's wild draw four, ``fast-messy-24fps`` seed
#: 655, the trained recogniser's boxes: the last 0.7 s it moved a pixel a frame).
CRAWL_FRAMES = 108
CRAWL_FROM = 2.0  # card lengths below the pile's centre
CRAWL_JITTER = ((0.0, 0.0), (1.5, 1.0), (-1.0, -1.5), (1.0, -1.0), (-1.5, 0.5))


def crawled(config: WatcherConfig | None = None) -> tuple[list[tuple[float, str]], float]:
    """The events (time, type) after the flip, and the time the card stopped."""
    return jittered_onto_pile(CRAWL_FRAMES, CRAWL_FROM, CRAWL_JITTER, True, config)


def test_the_slowest_hand_s_card_is_played_when_it_stops() -> None:
    out, stopped = crawled()
    assert [kind for _, kind in out] == ["play"]
    assert stopped - 0.3 <= out[0][0] <= stopped + 0.4


def test_over_short_spans_alone_its_creep_hides_in_the_box_s_jitter() -> None:
    out, stopped = crawled(WatcherConfig(creep_long_s=0.0))
    assert [kind for _, kind in out] == ["play"] and out[0][0] < stopped - 0.3


def slid_over_its_own_second_box(config: WatcherConfig | None = None) -> list[tuple[float, str]]:
    """Ann's red-7 slid slowly over the red-5 to lie a third of a card above it; for the
    last half second of its way the red-5, under it, is boxed as a red-7 (a second box of
    the card carried over it) and lies still. The plays (time, card) and the time the
    red-7 stopped."""
    table = started("red-5")
    card = LAYOUT.card_px
    start = (CENTER[0], CENTER[1] + SLOW_FROM * card)
    end = (CENTER[0] + 10, CENTER[1] - 0.35 * card)
    table.bring(["red-7"], start, end, n=SLOW_FRAMES)
    stopped = (len(table.frames) - 1) / FPS
    for frame in table.frames[-15:]:
        frame[:] = [det("red-7", *CENTER) if d[0] == "red-5" else d for d in frame]
    table.still(30)
    events = feed(table, Watcher(LAYOUT, PLAYERS, config or WatcherConfig()))
    plays = [(t, str(e["card"])) for t, e in events if e["type"] == "play"]
    return [*plays, (stopped, "stopped")]


def test_a_card_still_slid_on_over_a_second_box_of_it_is_played_when_it_stops() -> None:
    # fast-messy-24fps and rushed-dusk-25fps held-out 705 (opened): Ann's green 3, slid
    # on over the pile, a second box of it lying still where Bob's wild lay: that box
    # was at rest, and the card still moving joined it as a card put down with it,
    # judged by stillness alone: played 0.3-0.5 s before she let go.
    *plays, (stopped, _) = slid_over_its_own_second_box()
    assert [card for _, card in plays] == ["red-7"]
    assert stopped - 0.15 <= plays[0][0] <= stopped + 0.2
