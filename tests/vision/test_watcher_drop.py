"""A card let go above the pile: still sideways before it lands, but bigger than the
cards lying there (nearer the camera); it is played when it lies there (found on the
``low-drop`` tuning style, docs/watcher.md). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

import math

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    Det,
    feed,
    kinds,
    started,
)
from vision.boxes import apparent_scale
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig


def big(name: str, x: float, y: float, scale: float) -> Det:
    """A card's box ``scale`` times the size of one lying on the table (50 x 76 px)."""
    return (name, 0.9, (x - 25 * scale, y - 38 * scale, x + 25 * scale, y + 38 * scale))


def dropped(
    hover: int, scale: float = 1.25, config: WatcherConfig | None = None
) -> tuple[list[tuple[float, dict[str, object]]], float]:
    """Ann carries a red-7 high over the pile, holds it still there ``hover`` frames,
    and lets it fall (it shrinks to its size on the table in 5 frames); the events and
    the moment it lands."""
    table = started("red-5")
    sx, sy = SEAT_EDGE["Ann"]
    for i in range(1, 13):
        u = 1 - (1 - i / 12) ** 2
        x, y = sx + (CENTER[0] - sx) * u, sy + (CENTER[1] - sy) * u
        table.frames.append([*table.visible_pile(), big("red-7", x, y, scale)])
    for _ in range(hover):
        table.frames.append([*table.visible_pile(), big("red-7", *CENTER, scale)])
    for k in range(1, 6):
        f = (k / 5) ** 2
        table.frames.append(
            [*table.visible_pile(), big("red-7", *CENTER, scale - (scale - 1.0) * f)]
        )
    landed = (len(table.frames) - 1) / FPS
    table.pile.append([("red-7", *CENTER)])
    table.still(30)
    return feed(table, Watcher(LAYOUT, PLAYERS, config)), landed


def test_a_dropped_card_is_played_when_it_lands_not_while_it_hovers() -> None:
    events, landed = dropped(hover=4)
    assert kinds(events)[-1] == {"type": "play", "card": "red-7", "player": "Ann"}
    t_play = next(t for t, e in events if e["type"] == "play")
    assert landed - 1 / FPS <= t_play <= landed + 0.2


def test_a_card_held_still_above_the_pile_for_long_is_played_all_the_same() -> None:
    # A misjudged size must not keep a card from being played: no card hovers 1 s.
    events, landed = dropped(hover=30, scale=1.4)
    assert kinds(events)[-1] == {"type": "play", "card": "red-7", "player": "Ann"}
    t_play = next(t for t, e in events if e["type"] == "play")
    assert t_play < landed  # played while it still looked big: after airborne_max_s
    assert WatcherConfig().airborne_max_s < 30 / FPS


def test_apparent_scale_is_the_same_whatever_a_cards_angle() -> None:
    # The upright box of a card of long side 76.8 px (short 0.64 of it) turned by a.
    import math

    long, short = 76.8, 0.64 * 76.8
    for deg in (0, 10, 30, 45, 60, 90):
        a = math.radians(deg)
        w = long * math.sin(a) + short * math.cos(a)
        h = long * math.cos(a) + short * math.sin(a)
        assert abs(apparent_scale((0, 0, w, h), long) - 1.0) < 1e-9
        assert abs(apparent_scale((0, 0, 1.2 * w, 1.2 * h), long) - 1.2) < 1e-9


#: A shaking camera's box of a card lying still: still a moment (three frames), then
#: 4-7 px from frame to frame (more than ``still``), within 5 px of its median place
#: (``lying_still``).
SHAKE = ((0.0, 0.0), (0.0, 0.0), (0.0, 0.0), (4.0, 2.0), (-1.0, -3.0), (3.0, 3.0), (-4.0, 1.0))


def shaken_big(config: WatcherConfig | None = None) -> list[dict[str, object]]:
    """Ann's red-7 carried onto the pile, then lying there boxed a quarter bigger than
    the cards under it (its size misjudged), its box shaken with the camera."""
    table = started("red-5")
    sx, sy = SEAT_EDGE["Ann"]
    for i in range(1, 13):
        u = 1 - (1 - i / 12) ** 2
        x, y = sx + (CENTER[0] - sx) * u, sy + (CENTER[1] - sy) * u
        table.frames.append([*table.visible_pile(), big("red-7", x, y, 1.25)])
    for i in range(45):
        dx, dy = SHAKE[i % len(SHAKE)]
        table.frames.append(
            [*table.visible_pile(), big("red-7", CENTER[0] + dx, CENTER[1] + dy, 1.25)]
        )
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, config)))


def test_a_card_boxed_big_on_a_shaking_camera_is_played_all_the_same() -> None:
    # shaky-scattered-24fps seed 656: Ann's red 7, boxed bigger than Eve's wild under
    # it, its box wandering 3-6 px a frame, was never played.
    cfg = WatcherConfig()
    steps = [math.dist(a, b) for a, b in zip(SHAKE, SHAKE[1:] + SHAKE[:1], strict=True)]
    # Never still for airborne_max_s by the strict measure:
    assert sum(step > cfg.still * LAYOUT.card_px for step in steps) >= 4
    assert shaken_big()[-1] == {"type": "play", "card": "red-7", "player": "Ann"}
    # Taken for a card hovering as long as it is not judged still: never played.
    assert shaken_big(WatcherConfig(lying_still=cfg.still))[-1]["type"] == "flip"


def test_a_dropped_card_still_shrinking_is_played_when_it_lands_not_a_frame_before() -> None:
    # drop and dusk-drop-cool held-out 659 (opened): Ann's red 1, judged at rest a frame
    # before it landed, 4% bigger than the top card then (under airborne_scale); the
    # picture of it falling, blurred over the yellow 1 under it, gave a yellow 1 under it.
    events, landed = dropped(hover=0)
    t_play = next(t for t, e in events if e["type"] == "play")
    assert landed <= t_play <= landed + 0.2
    events, landed = dropped(hover=0, config=WatcherConfig(airborne_shrink=0.0))
    assert next(t for t, e in events if e["type"] == "play") < landed


def test_a_card_first_seen_high_over_the_pile_is_played_when_it_lands() -> None:
    # dusk-drop-cool held-out 660 (opened): Cy's blue 9, carried high, first seen over
    # the pile a third bigger than the cards there, moved on along it and was played
    # while still that big, before it fell.
    table = started("red-5")
    end = (CENTER[0] + 40, CENTER[1] + 15)  # beside the red-5, on the pile
    start = (CENTER[0] + 0.9 * LAYOUT.card_px, CENTER[1] - 0.4 * LAYOUT.card_px)
    assert LAYOUT.discard.contains(*start)  # first seen over the pile
    for i in range(1, 9):  # carried a card length along the pile, high, then held
        u = min(1.0, i / 6)
        x, y = start[0] + (end[0] - start[0]) * u, start[1] + (end[1] - start[1]) * u
        table.frames.append([*table.visible_pile(), big("blue-5", x, y, 1.35)])
    for k in range(1, 6):  # let go: it falls, shrinking to its size
        f = (k / 5) ** 2
        table.frames.append([*table.visible_pile(), big("blue-5", *end, 1.35 - 0.35 * f)])
    landed = (len(table.frames) - 1) / FPS
    table.pile.append([("blue-5", *end)])
    table.still(30)
    events = feed(table)
    t_play = next(t for t, e in events if e["type"] == "play")
    assert [e.get("card") for e in kinds(events)] == ["red-5", "blue-5"]
    assert landed <= t_play <= landed + 0.2
