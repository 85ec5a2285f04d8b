"""The still table: what lies still in the picture, and what changed against it.

Motion segmentation for the arm watch (:mod:`vision.hands`) on a small copy of each
frame. A pixel unchanged from frame to frame for ``settle_s`` is *table* (a card put
down becomes table); a pixel that differs from the table by more than ``diff`` has
*moved* (an arm). Two things a real camera does are handled here:

* **A shaking camera** moves every edge on the table by a fraction of a pixel, enough
  to change the pixels of an untidy pile's edges or a patterned table's veins in
  every frame. Each frame is first shifted back onto the still table by the shift
  that lines the two up best (phase correlation, ``align_max_px``); what is left of
  the shake changes edges only, so at an edge (a pixel whose 3 x 3 neighbourhood
  spans ``edge`` or more in a channel) pixels are compared blurred (``blur_px``); an
  arm over the plain table is compared sharp, its thin or dim parts kept.
* **A ghost**: the inside of an arm of one colour sliding along its length does not
  change from frame to frame, so after ``settle_s`` it becomes table, and when the
  arm leaves, the table it uncovers differs from that "table": an arm's shape that
  is no arm, for ``settle_s`` more. So the table a change covered is remembered
  (one layer, *under*) when the change becomes table; where a frame shows that
  table again, it is table at once.
* **A shadow**: an arm lifted off the table, or just out of the picture, darkens the
  table under it, the same colour in less light; every channel the same share of the
  table's (``shadow_dark`` to ``shadow_light``, ``shadow_spread``), compared blurred,
  it is no arm.

>>> import numpy as np
>>> table = StillTable(StillTableConfig(settle_s=0.2))
>>> plain = np.full((60, 80, 3), 120, np.uint8)
>>> table.update(plain, 0.0) is None                # the first frame: the table
True
>>> arm = plain.copy(); arm[20:40, 40:80] = (90, 140, 200)
>>> int(table.update(arm, 0.1).sum())                # an arm: 20 x 40 pixels moved
800
>>> for t in (0.2, 0.3, 0.4):                        # lying still: it becomes table
...     moved = table.update(arm, t)
>>> int(moved.sum())
0
>>> int(table.update(plain, 0.5).sum())              # gone: no ghost of it is left
0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

__all__ = ["StillTable", "StillTableConfig"]

Picture = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class StillTableConfig:
    """What counts as still and as changed; levels are 8-bit, in the house light."""

    diff: int = 12  # a pixel changed: this much brighter or darker in a channel (times
    # the light the pipeline passes, PileColors.light)
    settle_s: float = 0.5  # a pixel unchanged this long is table (or a card lying on it)
    relight_share: float = 0.5  # this share of the frame changed at once: the light, not an arm
    #: At an edge (a pixel whose 3 x 3 neighbourhood spans ``edge`` or more in a
    #: channel) pixels are compared blurred, by a Gaussian of ``blur_px`` (pixels of
    #: the small copy; 0: not blurred).
    edge: int = 40
    blur_px: float = 2.0
    #: Remember the table a change covered when the change becomes table, and take a
    #: frame showing it again for table at once (no ghost of an arm that lay still).
    under: bool = True
    #: A shaking camera moves the whole picture: each frame is first shifted onto the
    #: still table by the shift that lines them up best (phase correlation), when that
    #: is ``align_min_px`` or more and at most ``align_max_px`` (pixels of the small
    #: copy; a larger one is no shake). 0 for ``align_max_px``: not shifted.
    align_min_px: float = 0.2
    align_max_px: float = 3.0
    #: What moved in the last frame (an arm over the table), and this many pixels
    #: around it, is left out when the shift is measured.
    align_margin_px: int = 2
    #: A shadow is no arm: a pixel darker than the still table by a ratio between
    #: ``shadow_dark`` and ``shadow_light`` in every channel, the channels' ratios no
    #: more than ``shadow_spread`` apart (the same colour, less light), compared blurred
    #: (a shadow is soft) where the table is ``shadow_min`` bright or more (a dark
    #: table's ratios are noise). 0 for ``shadow_spread``: shadows are arms.
    shadow_dark: float = 0.6
    shadow_light: float = 0.95
    shadow_spread: float = 0.08
    shadow_min: int = 40


def _channel_max(img: Picture) -> Picture:
    b, g, r = cv2.split(img)
    return np.asarray(cv2.max(cv2.max(b, g), r), np.uint8)


def _change(
    sharp: Picture,
    sharp_ref: Picture,
    soft: Picture,
    soft_ref: Picture,
    blurred: npt.NDArray[np.bool_],
) -> Picture:
    """Each pixel's change against a reference: blurred where ``blurred``, else sharp."""
    change = _channel_max(np.asarray(cv2.absdiff(sharp, sharp_ref), np.uint8))
    change_soft = _channel_max(np.asarray(cv2.absdiff(soft, soft_ref), np.uint8))
    return np.where(blurred, change_soft, change)


class _Layer:
    """A picture of the table, sharp and blurred."""

    def __init__(self, sharp: Picture, soft: Picture, *, copy: bool = True) -> None:
        self.sharp = sharp.copy() if copy else sharp
        self.soft = soft.copy() if copy else soft

    def take(self, sharp: Picture, soft: Picture, where: npt.NDArray[np.bool_]) -> None:
        """Take these pictures' pixels ``where`` it says."""
        if not where.any():
            return
        mask = where.view(np.uint8)
        cv2.copyTo(sharp, mask, self.sharp)
        cv2.copyTo(soft, mask, self.soft)


class StillTable:
    """The still table of a stream of small frames (:meth:`update`, frame by frame)."""

    def __init__(self, config: StillTableConfig | None = None) -> None:
        self.cfg = config or StillTableConfig()
        self._still: _Layer | None = None
        self._under: _Layer | None = None
        self._has_under = np.zeros((1, 1), bool)
        self._prev: _Layer | None = None
        self._changed_t = np.zeros((1, 1), np.float32)
        self._window: npt.NDArray[np.float32] | None = None
        # What moved in the last frame (an arm): left out of the next alignment.
        self._moved_last: npt.NDArray[np.uint8] | None = None

    def reset(self) -> None:
        """Forget the table (the next frame is the table)."""
        self._still = self._under = self._prev = None

    def update(self, sharp: Picture, t: float, light: float = 1.0) -> Picture | None:
        """What changed against the still table in this frame (1 where it did),
        keeping the still table up to date; None on the first frame and when most of
        the picture changed at once (the light, or the camera moved: begun again)."""
        cfg = self.cfg
        diff = cfg.diff * light
        if self._still is not None and self._still.sharp.shape == sharp.shape:
            sharp = self._aligned(sharp, self._still.sharp)
        soft = sharp
        if cfg.blur_px > 0:
            soft = np.asarray(cv2.GaussianBlur(sharp, (0, 0), cfg.blur_px), np.uint8)
        still, prev, under = self._still, self._prev, self._under
        if still is None or prev is None or under is None or still.sharp.shape != sharp.shape:
            self._begin(sharp, soft, t)
            return None
        at_edge = self._edges(still.sharp, light)
        # What has not changed from frame to frame for settle_s becomes table (a card
        # put down does; an arm moving, or lying there briefly, does not).
        frame_edges = self._edges(sharp, light)
        edges_now = at_edge | frame_edges
        change = _change(sharp, prev.sharp, soft, prev.soft, edges_now)
        self._changed_t[change > diff] = t
        self._prev = _Layer(sharp, soft, copy=False)  # this frame's own pictures
        settled = self._changed_t <= t - cfg.settle_s
        if cfg.under:
            # A change becoming table: remember the table it covers (the first time).
            covering = settled & ~self._has_under
            covering &= _change(sharp, still.sharp, soft, still.soft, edges_now) > diff
            under.take(still.sharp, still.soft, covering)
            self._has_under |= covering
        still.take(sharp, soft, settled)
        moved = _change(sharp, still.sharp, soft, still.soft, at_edge) > diff
        if cfg.under and self._has_under.any():
            blurred = self._edges(under.sharp, light) | frame_edges
            again = _change(sharp, under.sharp, soft, under.soft, blurred) <= diff
            back = self._has_under & again
            still.take(sharp, soft, back)  # the table uncovered again: table at once
            self._has_under &= ~back
            moved &= ~back
        if moved.mean() > cfg.relight_share:  # the light changed, or the camera moved
            self._begin(sharp, soft, t)
            return None
        if cfg.shadow_spread > 0:
            moved &= ~self._shadow(soft, still.soft, light)
        self._moved_last = moved.astype(np.uint8)
        return self._moved_last

    def _aligned(self, sharp: Picture, ref: Picture) -> Picture:
        """``sharp`` shifted onto ``ref`` when the camera shook (``align_min_px`` to
        ``align_max_px``); as it is otherwise."""
        cfg = self.cfg
        if cfg.align_max_px <= 0:
            return sharp
        if self._window is None or self._window.shape != sharp.shape[:2]:
            self._window = np.asarray(
                cv2.createHanningWindow((sharp.shape[1], sharp.shape[0]), cv2.CV_32F)
            )
        gray = np.float32(cv2.cvtColor(sharp, cv2.COLOR_BGR2GRAY))
        gref = np.float32(cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY))
        window = self._window
        last = self._moved_last
        if last is not None and last.shape == window.shape and last.any():
            # Lined up on the table, not on an arm moving over it: what moved in the
            # last frame, and a margin, weighs nothing; but not the thin lines a shake
            # leaves along the table's edges, which the alignment needs.
            thick = cv2.morphologyEx(last, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            margin = np.ones((2 * self.cfg.align_margin_px + 1,) * 2, np.uint8)
            window = window * (cv2.dilate(thick, margin) == 0)
        (dx, dy), _response = cv2.phaseCorrelate(gref, gray, window)
        if not cfg.align_min_px <= math.hypot(dx, dy) <= cfg.align_max_px:
            return sharp
        move = np.float32([[1, 0, -dx], [0, 1, -dy]])
        h, w = sharp.shape[:2]
        return np.asarray(
            cv2.warpAffine(
                sharp, move, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            ),
            np.uint8,
        )

    def _shadow(self, soft: Picture, ref: Picture, light: float) -> npt.NDArray[np.bool_]:
        """Where a (blurred) picture is a shadow on the (blurred) table: the same colour
        in less light (``shadow_dark`` to ``shadow_light`` of it in every channel)."""
        cfg = self.cfg
        ratio = (soft.astype(np.float32) + 1.0) / (ref.astype(np.float32) + 1.0)
        lo, hi = ratio.min(axis=2), ratio.max(axis=2)
        lit = ref.max(axis=2) >= cfg.shadow_min * light
        shadow = lit & (lo >= cfg.shadow_dark) & (hi <= cfg.shadow_light)
        return np.asarray(shadow & (hi - lo <= cfg.shadow_spread), bool)

    def _begin(self, sharp: Picture, soft: Picture, t: float) -> None:
        self._moved_last = None
        self._still, self._prev = _Layer(sharp, soft), _Layer(sharp, soft)
        self._under = _Layer(sharp, soft)
        self._has_under = np.zeros(sharp.shape[:2], bool)
        self._changed_t = np.full(sharp.shape[:2], t, np.float32)

    def _edges(self, img: Picture, light: float) -> npt.NDArray[np.bool_]:
        """Where a picture has an edge: its 3 x 3 neighbourhood spans ``edge`` or more."""
        span = cv2.morphologyEx(img, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        return _channel_max(np.asarray(span, np.uint8)) >= self.cfg.edge * light
