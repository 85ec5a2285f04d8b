"""The card tracker: detections in, tracks with ids out (linking, motion, lost and found).

One :class:`Track` per physical card: each frame's detections are linked to the
tracks by position (with the card's motion) first and face second, so a one-frame
misreading or a missed frame does not split a card; a face-down card never links to
a face, and a card lost in flight for a while never links to a box of another
colour. A back seen farther out on a drawn card's way is that card (at a low frame
rate its sightings do not link), and a second box of the same face beside a card
arriving is that card too. What the rules make of a track is its
:class:`TrackState`, which linking reads: a settled card on the pile keeps its face.

The rules that read tracks (plays, several cards, draws, take-backs, seats) are
:class:`vision.watcher.Watcher`'s.

>>> from vision.calibration import TableLayout
>>> from vision.watcher_config import WatcherConfig
>>> tracker = CardTracker(TableLayout.default(640, 480, 4), WatcherConfig())
>>> for i, y in enumerate([470, 445, 420]):
...     [track] = tracker.update([Detection("red-7", 0.9, (295, y - 38, 345, y + 38), ())], i / 30)
>>> track.id, track.name, len(track.sightings), track.state
(0, 'red-7', 3, <TrackState.FREE: 'free'>)
"""

from __future__ import annotations

import math
import statistics
from collections import deque

from vision.boxes import box_middle, box_overlap
from vision.calibration import TableLayout
from vision.faces import BACK, other_colors, unlike_faces
from vision.motion import SPAN_ROUNDING_S, Motion
from vision.tracks import Detection, Track
from vision.watcher_config import WatcherConfig


class CardTracker(Motion):
    """Links each frame's detections to tracks (``update``); ``tracks`` are the cards
    seen lately (the watcher drops those lost for good)."""

    def __init__(self, layout: TableLayout, config: WatcherConfig) -> None:
        self.layout = layout
        self.cfg = config
        self.tracks: list[Track] = []
        self.next_id = 0
        self.frame_dt = 1 / 30  # the time between looks, smoothed
        self._last_t = -math.inf
        # How tracks lost lately lay (:meth:`forget`): when each was last seen, its face,
        # its box steadied; a new track of that face there is that card seen again.
        self.lain: deque[tuple[float, str, tuple[float, float, float, float]]] = deque()

    def update(self, dets: list[Detection], t: float) -> list[Track]:
        """Link ``dets`` seen at ``t`` (new tracks where none fits); each one's track."""
        if self._last_t > -math.inf:
            # The time between looks, smoothed: the frame rate the watcher is fed at.
            self.frame_dt = 0.9 * self.frame_dt + 0.1 * min(1.0, t - self._last_t)
        self._last_t = t
        return self.link(dets, t, self.layout.card_px)

    def link(
        self,
        dets: list[Detection],
        t: float,
        card: float,
    ) -> list[Track]:
        """Link ``dets`` to tracks (new ones where none fits); returns each one's track."""
        cfg = self.cfg
        damp = cfg.predict_damping
        live = [tr for tr in self.tracks if t - tr.last_t <= cfg.lost_s]
        pairs: list[tuple[float, int, int]] = []
        for ti, tr in enumerate(live):
            dt = max(0.0, t - tr.last_t)
            # Hidden a while: as many frames as hidden_gap_s spans at this frame rate.
            hidden = dt >= cfg.hidden_gap_s - SPAN_ROUNDING_S
            lx, ly = tr.xy
            # Predicted position; damped, as cards slow down before they land.
            px, py = lx + damp * tr.vx * dt, ly + damp * tr.vy * dt
            speed = math.hypot(tr.vx, tr.vy)
            # At a low frame rate a card moves a lot between two looks, even one whose
            # speed is not known yet: the gate grows with the time between looks.
            gap = min(self.frame_dt, cfg.gate_gap_cap_s)
            gate = (cfg.match_gate + cfg.gate_per_frame_gap * gap) * card
            gate_pred = gate + cfg.gate_speed_s * speed * dt
            moving = speed > cfg.still * card / cfg.moving_window_s
            for di, (name, _conf, box, _cands) in enumerate(dets):
                cx, cy = box_middle(box)
                # Nearer of the predicted and the last position: a card that stopped
                # while unseen is where it was last seen, not where it was heading.
                d_pred = math.hypot(cx - px, cy - py)
                d_last = math.hypot(cx - lx, cy - ly)
                if d_pred > gate_pred and d_last > gate:
                    continue
                d = min(d_pred, d_last)
                if (name == BACK) != (tr.name == BACK):
                    continue  # cards are not turned over in flight: a back stays a back
                if tr.settled and name != tr.name:
                    continue  # a card on the pile keeps its face; another face is another card
                if tr.settled and hidden and box_overlap(box, tr.box) < cfg.same_box_overlap:
                    continue  # hidden a while, then lying otherwise: a copy put on it
                if name != tr.name and not moving and d > cfg.other_face_reach * card:
                    continue  # another face, elsewhere: another card, not a misreading
                # (Another face on) a card lying still as a card on the pile lies: its box
                # wandering by a few pixels (``lying_still``: the trained detector's, a
                # shaking camera's; ``still``, a tenth narrower, let a card put beside
                # it take its track, shaky-untidy-28fps seed 602, trained recogniser).
                lying = name != tr.name and self.lying_still(
                    tr, tr.last_t, card, cfg.quiet_play_rest_s, cfg.lying_still
                )
                if (
                    (unlike_faces(name, tr.name) or (name != tr.name and hidden))
                    and box_overlap(box, tr.box) < cfg.same_box_overlap
                    and lying
                ):
                    continue  # a card lying still, then an unlike face lying otherwise,
                    # or another face lying otherwise after a hand hid it: a card put on
                    # it, not a misreading
                if (
                    hidden
                    and name != BACK
                    and d_last > cfg.same_spot * card
                    and self.lying_still(
                        tr, tr.last_t, card, cfg.quiet_play_rest_s, cfg.lying_still
                    )
                ):
                    continue  # a card lying still, hidden a while by a hand, then seen
                    # elsewhere: the hand's card, not this one moved under it
                    # (``covering-messy-dim-23fps`` held-out 705, opened: Ann's green
                    # skip, read once as a green 5 as her hand brought it, took the
                    # track of a green 5 lying 0.8 card lengths off, played as a green 5)
                if unlike_faces(name, tr.name) and hidden and lying:
                    continue  # a card lying still, hidden a while by a hand, then an
                    # unlike face where it lay: a card put square on it
                if (
                    moving
                    and dt >= cfg.lost_in_flight_s
                    and other_colors(name, tr.name)
                    and other_colors(name, tr.last_name)
                ):
                    continue  # lost a while in flight, found in another colour: another card
                if (
                    moving
                    and d_pred > cfg.other_color_off_path * card
                    and other_colors(name, tr.name)
                    and other_colors(name, tr.last_name)
                ):
                    continue  # another colour off its path: a card carried beside it, whose
                    # box showed as this one's went unseen for a frame (house seed 652)
                cost = d / card
                if name != tr.name:
                    cost += cfg.face_change_cost  # prefer the same face; still allow a flicker
                if tr.settled:
                    cost += cfg.settled_cost  # a card landing on the pile claims a detection first
                elif not moving:
                    cost += cfg.still_cost
                pairs.append((cost, ti, di))
        pairs.sort()
        used_t: set[int] = set()
        linked: dict[int, Track] = {}
        for _cost, ti, di in pairs:
            if ti in used_t or di in linked:
                continue
            used_t.add(ti)
            linked[di] = live[ti]
            self._observe(live[ti], dets[di], t)
        for di, det in enumerate(dets):
            if di not in linked:
                linked[di] = self._new_track(det, t)
        return [linked[di] for di in range(len(dets))]

    def _new_track(self, det: Detection, t: float) -> Track:
        name, box = det.name, det.box
        cx, cy = box_middle(box)
        tr = Track(
            id=self.next_id,
            first_t=t,
            first_xy=(cx, cy),
            first_in_discard=self.layout.discard.contains(cx, cy),
            first_in_draw=self.layout.draw.contains(
                cx, cy, margin=self.cfg.draw_margin * self.layout.card_px
            ),
            votes=deque(maxlen=self.cfg.votes),
            looks=deque(maxlen=self.cfg.votes),
        )
        tr.was_outside_discard = not tr.first_in_discard
        if tr.first_in_discard and name != BACK:
            # A card lost lately where it lies, seen again: shown again now, as it lay.
            tr.lay_before = self._lay_before(name, (cx, cy), t)
            if tr.lay_before is not None:
                tr.back_t = t
        self.next_id += 1
        tr.note(det, t)
        if name == BACK and not tr.first_in_draw:
            self._stitch_draw(tr, t)
        elif name != BACK:
            self._inherit_arrival(tr, t)
        self.tracks.append(tr)
        return tr

    def forget(self, gone: list[Track]) -> None:
        """``gone`` are lost for good: keep how each lay (:meth:`_how_it_lay`) for
        ``lay_memory_s``, so that a track of its face first seen where it lay takes that
        as how it lay before a hand hid it (:attr:`Track.lay_before`).

        A hand passing over a card on the pile may hide it longer than a track lives:
        the card seen again is a new track, yet lies as the lost one did. On a messy
        pile a half-covered card may read as another face each time it shows
        (``shaky-covering-messy-26fps`` held-out 706, opened: Cy's yellow 2 read as a
        yellow 1 in nine tracks over ten seconds, the ninth, shown as his arm came with
        his green Draw Two, taken for a card that arm put down).
        """
        for tr in gone:
            lay = self._how_it_lay(tr)
            if lay is not None:
                self.lain.append((tr.last_t, *lay))
        self._forget_lain_before(self._last_t)

    def _forget_lain_before(self, t: float) -> None:
        """Drop what :attr:`lain` keeps of tracks lost more than ``lay_memory_s``
        before ``t`` (asked on every loss, so it never outgrows that span)."""
        while self.lain and t - self.lain[0][0] > self.cfg.lay_memory_s:
            self.lain.popleft()

    def _lay_before(
        self, name: str, xy: tuple[float, float], t: float
    ) -> tuple[str, tuple[float, float, float, float]] | None:
        """How the latest lost track of face ``name`` whose box's middle lies within
        ``same_spot`` of ``xy`` lay, if it was lost ``lay_memory_s`` or less before ``t``."""
        self._forget_lain_before(t)
        reach = self.cfg.same_spot * self.layout.card_px
        for _last, face, box in reversed(self.lain):
            cx, cy = box_middle(box)
            if face == name and math.hypot(cx - xy[0], cy - xy[1]) <= reach:
                return face, box
        return None

    def split(self, tr: Track, since: float) -> Track:
        """Make ``tr``'s sightings from ``since`` on a track of their own (a new card
        the detector took for ``tr``, put where it lay); ``tr`` keeps the earlier ones."""
        keep = [s for s in tr.sightings if s.t < since]
        moved = [s for s in tr.sightings if s.t >= since]
        if not keep or not moved:
            raise ValueError(f"no sightings of track {tr.id} on both sides of {since}")
        n = min(len(moved), len(tr.votes))
        first = moved[0]
        new = Track(
            id=self.next_id,
            first_t=first.t,
            first_xy=(first.x, first.y),
            first_in_discard=self.layout.discard.contains(first.x, first.y),
            first_in_draw=False,
            sightings=deque(moved, maxlen=tr.sightings.maxlen),
            votes=deque(list(tr.votes)[-n:], maxlen=tr.votes.maxlen),
            looks=deque(list(tr.looks)[-n:], maxlen=tr.looks.maxlen),
            last_t=tr.last_t,
            last_name=tr.last_name,
        )
        self.next_id += 1
        new.faces = {name for name, _ in new.votes}
        new.max_travel = max(math.hypot(s.x - first.x, s.y - first.y) for s in moved)
        new.was_outside_discard = not all(self.layout.discard.contains(s.x, s.y) for s in moved)
        tr.sightings = deque(keep, maxlen=tr.sightings.maxlen)
        for queue in (tr.votes, tr.looks):
            for _ in range(min(n, len(queue) - 1)):
                queue.pop()
        tr.last_t = keep[-1].t
        self.tracks.append(new)
        return new

    def _inherit_arrival(self, tr: Track, t: float) -> None:
        """A second box of the same face beside a card arriving: that card, boxed twice.

        A card landing on a tight pile may be boxed alone and together with the heap
        under it; the second track takes over where the card came from.
        """
        for o in self.tracks:
            if (
                not o.settled
                and o.was_outside_discard
                and t - o.last_t <= self.cfg.lost_s
                and self.same_card(o, tr.name, tr.xy)
            ):
                tr.came_as(o)
                return

    def same_card(
        self, tr: Track, name: str, xy: tuple[float, float], reach: float | None = None
    ) -> bool:
        """Is ``tr`` the card ``name`` at ``xy`` (the same face, at nearly the same place,
        ``reach`` card lengths, by default ``same_spot``)?"""
        near = (reach or self.cfg.same_spot) * self.layout.card_px
        return tr.name == name and math.hypot(tr.xy[0] - xy[0], tr.xy[1] - xy[1]) <= near

    def was_card(self, tr: Track, name: str, xy: tuple[float, float]) -> bool:
        """Is ``tr`` the card ``name`` at ``xy``: :meth:`same_card`, or read as
        ``name`` before and lying at its spot now, whatever it reads as (a fan's lower
        card, mostly covered, is misread once it lies: ``house`` seed 647, plays of
        three, Bob's yellow 6 boxed as a yellow 5 under his green 6)?"""
        return self.same_card(tr, name, xy) or (
            name in tr.faces and self.same_card(tr, tr.name, xy)
        )

    def _stitch_draw(self, tr: Track, t: float) -> None:
        """A back seen farther out on the way a drawn card was going: the same card.

        At a low frame rate a drawn card moves more than a card length between two
        looks, so its sightings do not link; they lie on one ray from the pile.
        """
        dcx, dcy = self.layout.draw.center
        nx, ny = tr.xy[0] - dcx, tr.xy[1] - dcy
        dn = math.hypot(nx, ny)
        best: Track | None = None
        best_d = 0.0
        card = self.layout.card_px
        cfg = self.cfg
        for old in self.tracks:
            if (
                old.name != BACK
                or old.handed_on
                or t - old.last_t > cfg.stitch_gap_s
                or old.last_t == t
            ):
                continue  # (a track seen in this frame is a card of its own)
            ofx, ofy = old.first_xy
            if (
                not old.first_in_draw
                and math.hypot(ofx - dcx, ofy - dcy) > cfg.stitch_near_draw * card
            ):
                continue  # neither seen at the pile nor near it
            if (
                old.first_in_draw
                and old.max_travel < cfg.stitch_pile_travel * card
                and t - old.first_t > cfg.stitch_pile_s
            ):
                continue  # the draw pile itself, lying there for a while
            ox, oy = old.xy[0] - dcx, old.xy[1] - dcy
            do = math.hypot(ox, oy)
            if do < cfg.stitch_pile_reach * card or do >= dn:
                continue  # the pile itself, or not behind the new sighting
            if (ox * nx + oy * ny) / (do * dn) < math.cos(math.radians(cfg.stitch_angle_deg)):
                continue
            if do > best_d:
                best, best_d = old, do
        if best is not None:
            tr.carry_on(best)
            tr.first_in_draw = True

    def _how_it_lay(self, tr: Track) -> tuple[str, tuple[float, float, float, float]] | None:
        """``tr``'s face and its box steadied over its sightings kept, when it was seen
        ``lay_before_sightings`` times or more and every look kept read that face."""
        if len(tr.sightings) < self.cfg.lay_before_sightings:
            return None
        if any(read != tr.name for read, _ in tr.votes):
            return None
        x1, y1, x2, y2 = (statistics.median(s.box[k] for s in tr.sightings) for k in range(4))
        return tr.name, (x1, y1, x2, y2)

    def _observe(self, tr: Track, det: Detection, t: float) -> None:
        box = det.box
        cx, cy = box_middle(box)
        px, py = tr.xy
        dt = t - tr.last_t
        if dt >= self.cfg.hidden_gap_s - SPAN_ROUNDING_S:
            tr.back_t = t  # a hand over it, say: it may lie otherwise now
            # (seen too little to tell this time: as it lay before that, if known)
            tr.lay_before = self._how_it_lay(tr) or tr.lay_before
        if dt > 1e-6:
            a = self.cfg.velocity_smoothing  # smoothed velocity, for prediction only
            tr.vx = a * (cx - px) / dt + (1 - a) * tr.vx
            tr.vy = a * (cy - py) / dt + (1 - a) * tr.vy
        tr.note(det, t)
        fx, fy = tr.first_xy
        tr.max_travel = max(tr.max_travel, math.hypot(cx - fx, cy - fy))
        if not self.layout.discard.contains(cx, cy):
            tr.was_outside_discard = True
