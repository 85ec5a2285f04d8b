"""Arms reaching in from the table's edge: who put a card down when it was hidden.

When a hand covers the card it carries, the card is first seen lying on the pile:
its way in says nothing of who played it. The arm does: it crosses the edge of the
picture on the player's side. :class:`ArmWatch` keeps, per frame, the things that
changed against the still table (motion segmentation on a small copy of the
frame, :mod:`vision.still_table`: compared blurred at edges, where a shaking camera
changes the pixels of an untidy pile in every frame, and without the ghost of an arm
that lay still; changes thinner than ``thin_px`` dropped, such as the
table's edge flickering against the floor as the camera shakes), keeps those that
cross the frame's edge (or, not seen to it, run ``span`` card lengths or more: an
arm lost over a floor of its colour) and reach near the discard pile, and remembers
from which side they came in and which pile they reached. The watcher asks it
through :class:`vision.arm_probe.ArmProbe`: its seat rules for the seat of a play
whose card's own way in tells nothing (:meth:`ArmWatch.seat_for`), its draw rules
for a draw whose card was never seen (an arm at the draw pile going back to its
seat, :mod:`vision.watch.arm_draws`).

>>> import numpy as np
>>> from vision.calibration import TableLayout
>>> layout = TableLayout.default(320, 240, 4)     # seat 0 at the bottom edge
>>> arms = ArmWatch(layout)
>>> table = np.full((240, 320, 3), 120, np.uint8)
>>> arms.update(table, 0.0)
[]
>>> arm = table.copy()
>>> arm[120:240, 150:170] = (90, 140, 200)        # from the bottom edge up to the pile
>>> [s.seat for s in arms.update(arm, 0.1) + arms.update(arm, 0.2)]
[0, 0]
>>> arms.seat_between(0.0, 0.3)
0
>>> arms.update(None, 0.4)
Traceback (most recent call last):
...
ValueError: no picture: an arm watch needs a colour frame (height x width x 3), not None
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision import arm_seats
from vision.arm_probe import DISCARD, DRAW, ArmSighting
from vision.arm_seats import SeatConfig
from vision.calibration import TableLayout
from vision.still_table import StillTable, StillTableConfig

__all__ = ["ArmConfig", "ArmSighting", "ArmWatch", "SeatConfig"]


@dataclass(frozen=True)
class ArmConfig:
    """What counts as an arm at the pile; distances in card lengths, times in seconds."""

    work_width: int = 160  # work on a copy this many pixels wide (speed; 4x smaller at 640)
    #: What lies still and what changed against it (a pixel changed, unchanged for
    #: how long is table, compared blurred at edges under a shaking camera):
    #: :class:`vision.still_table.StillTableConfig`.
    still: StillTableConfig = field(default_factory=StillTableConfig)
    join_px: int = 5  # parts of an arm this close (pixels of the small copy) are joined
    #: Changes still thinner than this once joined (pixels of the small copy) are
    #: dropped: the table's edge flickering against the floor as the camera shakes.
    thin_px: int = 3
    min_area: float = 0.08  # an arm covers at least this many card faces
    reach: float = 1.6  # its far end comes within this of the discard pile's centre
    #: An arm need not cross the frame's edge where it crosses the floor unseen (a dark
    #: arm on a dark floor past the table's edge): one this long from its far end
    #: (card lengths) is an arm too, come from its other end.
    span: float = 2.5
    draw_reach: float = 1.0  # ... or within this of the draw pile's (an arm drawing)
    keep_s: float = 6.0  # how long sightings are kept
    #: How the seat of an arm is told (:class:`vision.arm_seats.SeatConfig`).
    seats: SeatConfig = field(default_factory=SeatConfig)
    #: What marks an arm: ``motion`` (changed against the still table, the default),
    #: ``skin`` (skin-coloured pixels, :data:`SKIN_CR` and :data:`SKIN_CB` in YCrCb) or
    #: ``both`` (changed and skin-coloured). Measured in docs/watcher.md ("Skin or
    #: motion"); the default is what measured best.
    mask: str = "motion"


#: Skin in YCrCb (OpenCV's order): the textbook chroma box (Chai and Ngan, 1999), not
#: fitted here.
SKIN_CR = (133, 173)
SKIN_CB = (77, 127)
MASKS = ("motion", "skin", "both")


def skin_mask(small: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """1 where a BGR picture's colour is skin's (:data:`SKIN_CR`, :data:`SKIN_CB`)."""
    ycrcb = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    low = np.array([0, SKIN_CR[0], SKIN_CB[0]], np.uint8)
    high = np.array([255, SKIN_CR[1], SKIN_CB[1]], np.uint8)
    return (np.asarray(cv2.inRange(ycrcb, low, high)) > 0).astype(np.uint8)


def _check_frame(frame: object) -> npt.NDArray[np.uint8]:
    """The frame as an 8-bit colour picture, or a clear error (a bad frame)."""
    if not isinstance(frame, np.ndarray):
        raise ValueError(
            "no picture: an arm watch needs a colour frame (height x width x 3), "
            f"not {type(frame).__name__ if frame is not None else None}"
        )
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.shape[0] < 2 or frame.shape[1] < 2:
        raise ValueError(f"not a colour frame (height x width x 3): shape {frame.shape}")
    if frame.dtype != np.uint8:
        raise ValueError(f"not an 8-bit frame: {frame.dtype}")
    return frame


class ArmWatch:
    """Arms crossing the frame's edge towards the discard pile, frame by frame."""

    def __init__(self, layout: TableLayout, config: ArmConfig | None = None) -> None:
        self.layout = layout
        self.cfg = config or ArmConfig()
        if self.cfg.mask not in MASKS:
            raise ValueError(f"unknown arm mask {self.cfg.mask!r}: one of {', '.join(MASKS)}")
        self._table = StillTable(self.cfg.still)
        self.sightings: deque[ArmSighting] = deque()
        #: Arms seen crossing the frame's edge that reached no pile, as (time, seat): a
        #: dark arm over a dark table is seen only where it crosses the floor
        #: (:meth:`seat_for`).
        self.in_view: deque[tuple[float, int]] = deque()

    def update(
        self, frame_bgr: npt.NDArray[np.uint8], t: float, *, light: float = 1.0
    ) -> list[ArmSighting]:
        """Look at one frame; returns (and keeps) the arms at the pile in it.

        ``light`` is the light over the house light (``PileColors.light``): in half
        the light an arm changes the picture half as much, and ``diff`` is scaled so.
        """
        cfg = self.cfg
        h, w = _check_frame(frame_bgr).shape[:2]
        scale = min(1.0, cfg.work_width / w)
        sw, sh = max(8, round(w * scale)), max(8, round(h * scale))
        # Back to the layout's pixels (a frame of another size than the layout's: scaled).
        to_layout = self.layout.width / sw
        sharp = np.asarray(cv2.resize(frame_bgr, (sw, sh), interpolation=cv2.INTER_AREA), np.uint8)
        moved = self._table.update(sharp, t, light)
        if moved is None:
            return []
        if cfg.mask == "skin":
            moved = skin_mask(sharp)
        elif cfg.mask == "both":
            moved &= skin_mask(sharp)
        # Skin close to the table's colour leaves only parts of an arm: join them.
        join = np.ones((cfg.join_px, cfg.join_px), np.uint8)
        moved = np.asarray(cv2.morphologyEx(moved, cv2.MORPH_CLOSE, join))
        if cfg.thin_px > 1:  # then drop what is still thin: edges flickering, noise
            thin = np.ones((cfg.thin_px, cfg.thin_px), np.uint8)
            moved = np.asarray(cv2.morphologyEx(moved, cv2.MORPH_OPEN, thin))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(moved, connectivity=8)
        card_area = (self.layout.card_px / to_layout) ** 2 / 1.5
        ring = np.zeros_like(moved, dtype=bool)
        ring[0, :] = ring[-1, :] = ring[:, 0] = ring[:, -1] = True
        cx, cy = self.layout.discard.center
        card = self.layout.card_px
        found = []
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] < cfg.min_area * card_area:
                continue
            blob = labels == i
            edge = np.argwhere(blob & ring)
            ys, xs = np.nonzero(blob)
            if len(edge):  # from outside the picture
                ey, ex = edge.mean(axis=0)
                ends = [int(np.argmax((xs - ex) ** 2 + (ys - ey) ** 2))]
            else:  # an arm from where it was last seen, or a card moving
                # Its other end: the farthest from its point nearest the discard pile.
                near = int(np.argmin((xs * to_layout - cx) ** 2 + (ys * to_layout - cy) ** 2))
                back = int(np.argmax((xs - xs[near]) ** 2 + (ys - ys[near]) ** 2))
                length = math.hypot(float(xs[back] - xs[near]), float(ys[back] - ys[near]))
                if length * to_layout < cfg.span * card:
                    continue  # not from outside the picture: a card moving, not an arm
                ex, ey = float(xs[back]), float(ys[back])
                # Its far end: its point nearest the discard pile; but one that crosses
                # the discard pile ends beyond it, the farthest from its other end (an
                # arm reaching over the pile to draw), unless that end is at no pile
                # (the changes of a shaking striped table joined to the arm). Changes
                # beside the pile (an arm's wake on a grained table) keep the nearest.
                ends = [near]
                if self.layout.discard.contains(xs[near] * to_layout, ys[near] * to_layout):
                    ends.insert(0, int(np.argmax((xs - ex) ** 2 + (ys - ey) ** 2)))
            entry = (float(ex) * to_layout, float(ey) * to_layout)
            for end in ends:
                tip = (float(xs[end]) * to_layout, float(ys[end]) * to_layout)
                sighting = self._at_pile(t, entry, tip)
                if sighting is not None:
                    found.append(sighting)
                    break
            else:
                if len(edge):
                    seat = self.layout.seat_for_bearing(self.layout.bearing(*entry))
                    self.in_view.append((t, seat))
        self.sightings.extend(found)
        while self.sightings and self.sightings[0].t < t - cfg.keep_s:
            self.sightings.popleft()
        while self.in_view and self.in_view[0][0] < t - cfg.keep_s:
            self.in_view.popleft()
        return found

    def _at_pile(
        self, t: float, entry: tuple[float, float], tip: tuple[float, float]
    ) -> ArmSighting | None:
        """The sighting of an arm come in at ``entry`` whose far end is ``tip`` (the
        layout's pixels), if that reaches a pile."""
        cfg, layout = self.cfg, self.layout
        card = layout.card_px
        to_discard = math.dist(tip, layout.discard.center)
        to_draw = math.dist(tip, layout.draw.center)
        at_discard = to_discard <= cfg.reach * card
        at_draw = to_draw <= cfg.draw_reach * card
        if not (at_discard or at_draw):
            return None
        pile = DRAW if at_draw and (to_draw < to_discard or not at_discard) else DISCARD
        seat = layout.seat_for_bearing(layout.bearing(*entry))
        return ArmSighting(t, seat, entry, tip, pile, at_discard, to_draw / card, to_discard / card)

    def seat_between(self, t0: float, t1: float) -> int | None:
        """The seat of the arm last at the pile between ``t0`` and ``t1``, if one was
        (:func:`vision.arm_seats.seat_between`)."""
        return arm_seats.seat_between(self.sightings, t0, t1, self.cfg.seats)

    def seat_for(self, first_t: float) -> int | None:
        """The seat of the arm that left a card first seen at ``first_t`` (the watcher's
        ask; :func:`vision.arm_seats.seat_for`: the arm at the pile as it showed, else
        the one come into view since, else the last at the pile)."""
        return arm_seats.seat_for(self.sightings, self.in_view, first_t, self.cfg.seats)

    def came_in_view(self, t0: float, first_t: float) -> int | None:
        """The seat of the arm that came into view last before ``first_t``, reaching no
        pile (:func:`vision.arm_seats.came_in_view`)."""
        return arm_seats.came_in_view(self.sightings, self.in_view, t0, first_t, self.cfg.seats)

    def sightings_since(self, t: float) -> Sequence[ArmSighting]:
        """The arms seen at a pile from ``t`` on, oldest first (the watcher's draw rules)."""
        return [s for s in self.sightings if s.t >= t]

    def reset(self) -> None:
        self._table.reset()
        self.sightings.clear()
        self.in_view.clear()
