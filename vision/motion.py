"""How a track moves: at rest, creeping to rest, since when it lies still.

The card tracker's judgements of motion, which the rules read (a play is a card that
came to rest on the pile; a card creeping to rest is not at rest yet). Distances are
in card lengths of the table's ``card`` (``TableLayout.card_px``), times in seconds;
the settings are :class:`vision.watcher_config.WatcherConfig`'s.
"""

from __future__ import annotations

import math
import statistics
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.tracks import Sighting, Track
    from vision.watcher_config import WatcherConfig

#: Sighting times are frame numbers over a frame rate: a span this much short of a
#: setting is that setting (3 frames at 15 frames/s span 0.2 s, less a rounding).
SPAN_ROUNDING_S = 1e-9


class Motion:
    """Judgements of a track's motion, for :class:`vision.card_tracker.CardTracker`."""

    cfg: WatcherConfig

    def at_rest(
        self, tr: Track, t: float, card: float, rest_s: float, still: float | None = None
    ) -> bool:
        """Seen now, still over the last ``rest_s`` (at least two sightings): within
        ``still`` card lengths of its last sighting (``WatcherConfig.still`` unless
        given)."""
        if tr.last_t != t or len(tr.sightings) < 2:
            return False
        last = tr.sightings[-1]
        lim = (self.cfg.still if still is None else still) * card
        for n, s in enumerate(reversed(tr.sightings), start=1):
            if math.hypot(s.x - last.x, s.y - last.y) > lim:
                return False
            if n >= 2 and last.t - s.t >= rest_s - SPAN_ROUNDING_S:
                return True
        return False

    def lying_still(
        self, tr: Track, t: float, card: float, rest_s: float, still: float | None = None
    ) -> bool:
        """Seen now and lying still over the last ``rest_s``: every sighting since lies
        within ``still`` card lengths (``WatcherConfig.still`` unless given) of their
        median place (at least two sightings).

        :meth:`at_rest` measures from the last sighting, which is right for telling
        a card that just stopped; over a long wait (``quiet_play_rest_s``) a box that
        wanders by a few pixels about a card lying still (the detector's, or a steep
        camera's small cards) would restart the wait at every outlier.
        """
        if tr.last_t != t or len(tr.sightings) < 2:
            return False
        window: list[Sighting] = []
        for s in reversed(tr.sightings):
            window.append(s)
            if t - s.t >= rest_s - SPAN_ROUNDING_S:
                break
        else:
            return False  # not seen that long
        mx = statistics.median(s.x for s in window)
        my = statistics.median(s.y for s in window)
        lim = (self.cfg.still if still is None else still) * card
        return all(math.hypot(s.x - mx, s.y - my) <= lim for s in window)

    def rest_began(self, tr: Track, card: float, name: str) -> float:
        """When ``tr``'s present rest as ``name`` began: its first sighting since which
        every one lies within ``still`` of its last and was read as ``name`` (a track
        on the pile may have been a misreading at the same place before)."""
        last = tr.sightings[-1]
        lim = self.cfg.still * card
        began = last.t
        for s, read in reversed(tr.reads()):
            if read != name or math.hypot(s.x - last.x, s.y - last.y) > lim:
                break
            began = s.t
        return began

    def rest_box(
        self, tr: Track, card: float, window_s: float
    ) -> tuple[float, float, float, float]:
        """Where ``tr`` lies now, steadied: each side of its box the median over the
        sightings of the last ``window_s`` that lie within ``still`` of the last one.

        The trained detector's box of a card lying still wanders by a few pixels from
        frame to frame (its overlap with itself falls to about 0.8 now and then): one
        frame's box is no measure of whether a card lies otherwise than before.
        """
        last = tr.sightings[-1]
        lim = self.cfg.still * card
        boxes = [
            s.box
            for s in tr.sightings
            if last.t - s.t <= window_s + SPAN_ROUNDING_S
            and math.hypot(s.x - last.x, s.y - last.y) <= lim
        ]
        x1, y1, x2, y2 = (statistics.median(b[k] for b in boxes) for k in range(4))
        return (x1, y1, x2, y2)

    def gap_end(self, tr: Track, gap_s: float, after: float) -> float | None:
        """When ``tr`` was seen again after the latest time it went unseen ``gap_s`` or
        longer (between two sightings, the later one after ``after``); None if it never
        did among its sightings kept."""
        later = None
        for s in reversed(tr.sightings):
            if later is not None and later.t - s.t >= gap_s - SPAN_ROUNDING_S:
                return later.t
            if s.t <= after:
                return None
            later = s
        return None

    def moved_to_rest(self, tr: Track, card: float, after: float) -> float | None:
        """When ``tr`` was first seen where it lies now, if it lay elsewhere after
        ``after`` (a sighting then farther than ``still`` card lengths from its last);
        None if every sighting kept since ``after`` lies where it lies now.

        The detector may give one box to a card and a copy of its face put nearly on
        it: their track then moves without going unseen.
        """
        last = tr.sightings[-1]
        lim = self.cfg.still * card
        start = None
        for s in reversed(tr.sightings):
            if s.t <= after:
                return None
            if math.hypot(s.x - last.x, s.y - last.y) > lim:
                return start
            start = s.t
        return None

    def came_to_rest(
        self, tr: Track, t: float, card: float, rest_s: float, still: float | None = None
    ) -> bool:
        """At rest (:meth:`at_rest`) and not still on its way (:meth:`on_its_way`): how
        a card put down, alone or with others, is judged to lie there."""
        return self.at_rest(tr, t, card, rest_s, still) and not self.on_its_way(tr, card)

    def on_its_way(self, tr: Track, card: float) -> bool:
        """Creeping to rest (:meth:`creeping`) or slid on by a hand (:meth:`sliding`):
        still on its way, though it moves less than ``still`` between frames."""
        return self.creeping(tr, card) or self.sliding(tr, card)

    def creeping(self, tr: Track, card: float) -> bool:
        """Still easing to rest, though it moves less than ``still`` between frames.

        A card slid onto the pile slows down evenly (friction), and a slow player's card
        creeps the last part of its way: judged at rest by ``still`` alone it would be
        played a third of a second before it stops. It is creeping while it came
        farther than ``creep`` over the last ``creep_s`` on the line it came along the
        ``creep_s`` before, and no farther than ``creep_slow`` then (a slow card: a fast
        one stops within a frame or two of looking still). A box that jitters about a
        card lying still keeps to no line.

        The same is asked over spans of ``creep_long_s``: the slowest hands' cards creep
        slower than their boxes jitter over one ``creep_s`` (``fast-messy-24fps`` seed
        655: Ann's wild draw four, 3.7 s on its way, moved 1-2 px a frame and was
        played 0.7 s before it stopped).
        """
        spans = (self.cfg.creep_s, self.cfg.creep_long_s)
        return any(self._creeping_over(tr, card, h) for h in spans if h > 0)

    def _creeping_over(self, tr: Track, card: float, h: float) -> bool:
        """:meth:`creeping` over spans of ``h`` seconds: ``creep`` the least move a span
        (averaged over a longer span, the boxes' jitter is less: a slower creep shows),
        ``creep_slow`` the same speed as over a ``creep_s``."""
        last_t = tr.sightings[-1].t
        if last_t - tr.sightings[0].t < 2 * h:
            return False  # not seen long enough to tell
        # Where it was over each of the last three spans of h (averaged: one box
        # jitters by a pixel or two, as much as a creeping card moves a frame).
        spans: list[list[Sighting]] = [[], [], []]  # the latest first
        for s in tr.sightings:
            if last_t - s.t <= 3 * h:
                spans[min(2, int((last_t - s.t) / h + SPAN_ROUNDING_S))].append(s)
        if not all(spans):
            return False  # a gap: nothing to tell from
        (x2, y2), (x1, y1), (x0, y0) = (
            (sum(s.x for s in span) / len(span), sum(s.y for s in span) / len(span))
            for span in spans
        )
        now = (x2 - x1, y2 - y1)
        before = (x1 - x0, y1 - y0)
        came = math.hypot(*now)
        scale = h / self.cfg.creep_s
        if (
            came <= self.cfg.creep * card * min(1.0, scale)
            or math.hypot(*before) > self.cfg.creep_slow * card * scale
        ):
            return False  # stopped; or a fast card, stopped hard
        along = (now[0] * before[0] + now[1] * before[1]) / (came * math.hypot(*before) or 1.0)
        return along >= math.cos(math.radians(self.cfg.creep_angle_deg))

    def sliding(self, tr: Track, card: float) -> bool:
        """Slid on slowly and steadily by a hand that still holds it: over the last
        three ``creep_s`` and over the last one and a half, a straight line fitted to its
        places moves at ``slide_speed`` card lengths a second or more, and at no more
        than ``creep_slow`` a ``creep_s``, over the later half at least
        ``slide_steady`` times as fast as over the whole (a card easing to rest,
        however it came, slows down). Its box's jitter hides such a slow card's move over
        one ``creep_s`` (:meth:`creeping`) now and then: ``fast-messy-24fps`` seed 640,
        Cy's yellow 7, slid on at 0.4-0.6 card lengths a second for 4 s, was played 2 s
        before he let go of it, then taken for taken back as it slid on.
        """
        cfg = self.cfg
        if not cfg.slide_speed:
            return False
        window = 3 * cfg.creep_s
        last_t = tr.sightings[-1].t
        if last_t - tr.sightings[0].t < window:
            return False  # not seen long enough to tell
        recent = [s for s in tr.sightings if last_t - s.t <= window + SPAN_ROUNDING_S]
        later = [s for s in recent if last_t - s.t <= window / 2 + SPAN_ROUNDING_S]
        if len(later) < 3:
            return False  # a gap: nothing to tell from
        slowest, fastest = cfg.slide_speed * card, cfg.creep_slow * card / cfg.creep_s
        speeds = [math.hypot(*_velocity(part)) for part in (recent, later)]
        # Steadily: a card easing to rest moves slower over the later half.
        steady = speeds[1] >= cfg.slide_steady * speeds[0]
        return steady and all(slowest <= v <= fastest for v in speeds)


def _velocity(sightings: list[Sighting]) -> tuple[float, float]:
    """The velocity (pixels a second) of a straight line fitted to ``sightings``'
    places over their times (least squares; at least two times)."""
    n = len(sightings)
    mt = sum(s.t for s in sightings) / n
    mx = sum(s.x for s in sightings) / n
    my = sum(s.y for s in sightings) / n
    var = sum((s.t - mt) ** 2 for s in sightings) or 1e-9
    vx = sum((s.t - mt) * (s.x - mx) for s in sightings) / var
    vy = sum((s.t - mt) * (s.y - my) for s in sightings) / var
    return vx, vy
