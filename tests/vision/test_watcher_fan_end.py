"""A fan's lowest card found by the new ink at the fan's far end
(``FanColorRules._fan_end``, :mod:`vision.watch.fan_colors`): the lowest card of a
fan lies on the pile's colour more often than not, and then shows new ink only
beyond the old top card, farther from the fan's top card than its strips are looked
for (``house`` seed 654, plays of three: Bob's red 6, green 6 and blue 6 on a red 9).
Same made-up table as ``test_watcher.py``; the picture is a stand-in that knows
where each new ink lies."""

from __future__ import annotations

import math
from typing import Any

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    feed,
    kinds,
    started,
)
from tests.vision.test_watcher_fan_strip_picture import ArmsAt
from vision.pile_colors import ColorPatch
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

#: How far apart the fan's cards lie: its end lies beyond ``strip_reach`` of the top.
SPREAD = 40.0


class PictureAt:
    """A stand-in for :class:`vision.pile_colors.PileColors` that knows where the new
    ink lies: asked about a circle, it gives the patches whose middles lie in it, the
    starter card's red for the flip (asked since ever), ``patches`` after it."""

    def __init__(self, patches: list[ColorPatch]) -> None:
        self.patches = patches

    def _now(self, since: float) -> list[ColorPatch]:
        return [at("red", 0.5, 0.0)] if since == -math.inf else self.patches

    def new_colors(
        self, near: tuple[float, float], radius: float, *, since: float, **_: Any
    ) -> list[ColorPatch] | None:
        found = [p for p in self._now(since) if math.dist(p.xy, near) <= radius]
        return sorted(found, key=lambda p: -p.area)

    def changed_area(
        self, near: tuple[float, float], radius: float, *, since: float, **_: Any
    ) -> float | None:
        return sum(p.area for p in self._now(since) if math.dist(p.xy, near) <= radius)

    def new_ink_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        **_: Any,
    ) -> ColorPatch | None:
        """The patches of ``color`` near ``near`` whose middles lie outside ``box``
        (the first one's middle)."""
        x1, y1, x2, y2 = box
        out = [
            p
            for p in self._now(since)
            if p.color == color
            and math.dist(p.xy, near) <= radius
            and not (x1 <= p.xy[0] <= x2 and y1 <= p.xy[1] <= y2)
        ]
        return ColorPatch(color, sum(p.area for p in out), out[0].xy if out else near)

    def changed_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        **kw: Any,
    ) -> ColorPatch | None:
        """New ink of ``color`` outside ``box`` is all that changed there."""
        return self.new_ink_outside(color, box, near, radius, since=since, **kw)


def at(color: str, area: float, dx: float) -> ColorPatch:
    return ColorPatch(color, area, (CENTER[0] + dx, CENTER[1]))


def fan_on_a_red_9(end_ink: list[ColorPatch], config: WatcherConfig | None = None) -> list[Any]:
    """Bob puts a green 6 and a blue 6 down together on the red 9, fanned; the
    recogniser sees those two. The picture shows their inks, and ``end_ink`` where
    else it says. The events after the flip."""
    table = started("red-9")
    table.bring(["green-6", "blue-6"], SEAT_EDGE["Bob"], spread=SPREAD)
    table.still(20)
    own = [at("green", 0.3, -SPREAD / 2), at("blue", 0.5, SPREAD / 2)]
    picture = PictureAt([*own, *end_ink])
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, config, pile_colors=picture)))[1:]


#: Red ink a fan's step beyond the green 6 (the lower card seen), past the strips' reach.
RED_AT_THE_END = at("red", 0.06, -SPREAD / 2 - SPREAD - 5)


def test_red_ink_at_the_fan_s_end_is_its_lowest_card() -> None:
    config = WatcherConfig()
    top = (CENTER[0] + SPREAD / 2, CENTER[1])
    assert math.dist(RED_AT_THE_END.xy, top) > config.strip_reach * LAYOUT.card_px
    assert fan_on_a_red_9([RED_AT_THE_END]) == [
        {"type": "play", "cards": ["red-6", "green-6", "blue-6"], "player": "Bob"}
    ]


def test_without_the_look_at_the_end_the_red_6_is_missed() -> None:
    # Unless the green 6, matching the red 9 by neither colour nor value, has a red
    # card looked for under it (the red changed past it on the fan's line: found too).
    three = [{"type": "play", "cards": ["red-6", "green-6", "blue-6"], "player": "Bob"}]
    assert fan_on_a_red_9([RED_AT_THE_END], WatcherConfig.from_dict({"fan_end_reach": 0.0})) == (
        three
    )
    off = WatcherConfig.from_dict({"fan_end_reach": 0.0, "unmatched_lower_change": 2.0})
    assert fan_on_a_red_9([RED_AT_THE_END], off) == [
        {"type": "play", "cards": ["green-6", "blue-6"], "player": "Bob"}
    ]


def test_a_speck_or_a_colour_of_the_fan_at_its_end_is_no_card() -> None:
    two = [{"type": "play", "cards": ["green-6", "blue-6"], "player": "Bob"}]
    assert fan_on_a_red_9([at("red", 0.01, -SPREAD / 2 - SPREAD - 5)]) == two
    assert fan_on_a_red_9([at("green", 0.2, -SPREAD / 2 - SPREAD - 5)]) == two
    # Red ink off the fan's line is no card of it.
    off_line = ColorPatch("red", 0.06, (CENTER[0] - SPREAD / 2, CENTER[1] + SPREAD * 1.5))
    assert fan_on_a_red_9([off_line]) == two


class HandOverTheEnd(PictureAt):
    """:class:`PictureAt`, with red ink at the fan's end new only against a picture
    taken while a hand held still over the pile (``before`` at or after ``hand_t``):
    an old red card's edge the hand covered then."""

    def __init__(self, patches: list[ColorPatch], hand_t: float) -> None:
        super().__init__(patches)
        self.hand_t = hand_t

    def new_colors(
        self, near: tuple[float, float], radius: float, *, since: float, **kw: Any
    ) -> list[ColorPatch] | None:
        found = super().new_colors(near, radius, since=since, **kw) or []
        if since != -math.inf and kw["before"] >= self.hand_t:
            found += [p for p in [RED_AT_THE_END] if math.dist(p.xy, near) <= radius]
        return found


def test_the_fan_s_end_is_told_from_the_picture_before_the_hand_came() -> None:
    # covering-dim-22fps held-out 713, opened: Ann's green, yellow and blue 6; her hand
    # held still over the pile, unseen by the arm probe, covered an old red card's edge
    # in the last still picture before her cards came; against it, that edge was new
    # red at the fan's end, a red 6. The strips were told from the picture before the
    # hand came, the fan's end from the one with the hand in it.
    table = started("red-9")
    table.still(30)
    came = len(table.frames) - 20  # the hand comes 20 frames before the cards show
    table.bring(["green-6", "blue-6"], SEAT_EDGE["Bob"], spread=SPREAD)
    table.still(20)
    own = [at("green", 0.3, -SPREAD / 2), at("blue", 0.5, SPREAD / 2)]
    picture = HandOverTheEnd(own, hand_t=came / FPS)
    w = Watcher(LAYOUT, PLAYERS, pile_colors=picture)
    # Seen as it came and as it left, unseen a second at most between.
    w.arms = ArmsAt([*range(came, came + 6), *range(came + 35, came + 45)], "Bob")
    assert kinds(feed(table, w))[1:] == [
        {"type": "play", "cards": ["green-6", "blue-6"], "player": "Bob"}
    ]
