"""The pile's close look: the cut-out around a region, and which boxes of the two looks to keep.

:meth:`vision.recognition.CardRecognizer.detect_focused` runs both stages on the whole
frame and again on the cut-out around the discard pile (:func:`focus_roi`), where its
cards come out larger; :func:`focus_merge` joins the two looks' boxes (``xyxy``, from
:func:`_xyxy`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]

Box = tuple[float, float, float, float]


def _xyxy(corners: F32, shape: tuple[int, ...]) -> F32:
    """Axis-aligned boxes of ``corners`` (n, 4, 2), clipped to a frame of ``shape``."""
    if len(corners) == 0:
        return np.zeros((0, 4), np.float32)
    h, w = shape[:2]
    box = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    return np.clip(box, 0, [w, h, w, h]).astype(np.float32)


def focus_roi(region: Box, margin: float, shape: tuple[int, ...]) -> Box:
    """The whole-pixel cut-out around ``region``, ``margin`` pixels wider, inside the frame."""
    h, w = shape[:2]
    x0, y0, x1, y1 = region
    return (
        float(max(0, int(x0 - margin))),
        float(max(0, int(y0 - margin))),
        float(min(w, int(np.ceil(x1 + margin)))),
        float(min(h, int(np.ceil(y1 + margin)))),
    )


def focus_merge(
    whole: F32, near: F32, region: Box, roi: Box, shape: tuple[int, ...], edge: float = 2.0
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Which boxes (``xyxy``) of the whole frame and of the close look at ``roi`` to keep.

    Inside ``region`` the close look decides; a box it cut at the cut-out's edge
    (not the frame's) is a card only partly in view and is left out. Outside, the
    whole frame decides, less its boxes that a kept close box already covers (a
    card lying across the region's edge).

    >>> whole = np.float32([[10, 10, 30, 40], [100, 100, 160, 160]])
    >>> near = np.float32([[105, 100, 135, 145], [50, 60, 80, 110], [41, 90, 61, 130]])
    >>> keep, take = focus_merge(whole, near, (50, 50, 200, 200), (40, 40, 210, 210), (480, 640))
    >>> keep.tolist(), take.tolist()
    ([True, False], [True, True, False])
    """
    x0, y0, x1, y1 = region

    def centred_in(b: F32) -> npt.NDArray[np.bool_]:
        cx, cy = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
        return (cx >= x0) & (cx <= x1) & (cy >= y0) & (cy <= y1)

    h, w = shape[:2]
    rx0, ry0, rx1, ry1 = roi
    cut = np.zeros(len(near), bool)
    if rx0 > 0:
        cut |= near[:, 0] <= rx0 + edge
    if ry0 > 0:
        cut |= near[:, 1] <= ry0 + edge
    if rx1 < w:
        cut |= near[:, 2] >= rx1 - edge
    if ry1 < h:
        cut |= near[:, 3] >= ry1 - edge
    take = centred_in(near) & ~cut
    keep = ~centred_in(whole)
    if take.any() and keep.any():
        b = near[take]
        inter = _intersections(whole, b)
        union = _areas(whole)[:, None] + _areas(b)[None, :] - inter
        keep &= (inter / np.maximum(union, 1e-6)).max(axis=1) < 0.5
    return keep, take


def _areas(boxes: F32) -> F32:
    """The area of each box (n, 4 ``xyxy``)."""
    return ((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])).astype(np.float32)


def _intersections(a: F32, b: F32) -> F32:
    """The area each box of ``a`` (n, 4 ``xyxy``) shares with each box of ``b`` (m, 4):
    an (n, m) array."""
    x, y = a[:, None, :], b[None, :, :]
    iw = np.clip(np.minimum(x[..., 2], y[..., 2]) - np.maximum(x[..., 0], y[..., 0]), 0, None)
    ih = np.clip(np.minimum(x[..., 3], y[..., 3]) - np.maximum(x[..., 1], y[..., 1]), 0, None)
    return (iw * ih).astype(np.float32)


def covered_by_surer(boxes: F32, scores: F32, share: float) -> npt.NDArray[np.bool_]:
    """Which ``boxes`` (n, 4 ``xyxy``) a surer box (a higher score) covers by ``share``
    of their area or more: cards half under another one.

    >>> boxes = np.float32([[0, 0, 10, 10], [5, 0, 15, 10], [40, 40, 50, 50]])
    >>> covered_by_surer(boxes, np.float32([0.9, 0.6, 0.5]), 0.3).tolist()
    [False, True, False]
    """
    covered = _intersections(boxes, boxes) / np.maximum(_areas(boxes), 1e-6)[:, None] >= share
    surer = scores[None, :] > scores[:, None]
    return np.asarray((covered & surer).any(axis=1), bool)
