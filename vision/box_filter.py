"""One box per card: boxes that are a part of another card are dropped.

Up close the detector sometimes boxes one card two or three times: the whole card,
its oval or central disc, its corner index. Rotated non-maximum suppression keeps
them all, since a small box inside a large one overlaps it little by IoU. A card
never lies wholly inside a card box much larger than itself (cards are all one
size, and a card half hidden under another is still boxed whole), so a box lying
mostly inside a box several times its area is a part of that card.

>>> big = np.float32([[(0, 0), (100, 0), (100, 150), (0, 150)]])
>>> oval = np.float32([[(30, 40), (70, 40), (70, 110), (30, 110)]])
>>> other = np.float32([[(90, 0), (190, 0), (190, 150), (90, 150)]])
>>> keep = inner_boxes_kept(np.concatenate([big, oval, other]), np.intp([0, 0, 0]))
>>> keep.tolist()
[True, False, True]
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]

#: Share of a box's area that must lie inside a larger box for it to be a part of it.
INNER_COVER = 0.8
#: How many times larger (by area) the containing box must be.
INNER_AREA_RATIO = 2.0


def _area(quad: F32) -> float:
    return abs(float(cv2.contourArea(quad.astype(np.float32))))


def _overlap(a: F32, b: F32) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


def inner_boxes_kept(corners: F32, cls_id: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """Which boxes to keep: face-up boxes (class 0) lying :data:`INNER_COVER` inside a
    box (of any class) :data:`INNER_AREA_RATIO` times their area or more are dropped."""
    n = len(corners)
    keep = np.ones(n, bool)
    if n < 2:
        return keep
    areas = np.array([_area(q) for q in corners])
    for j in np.nonzero(cls_id == 0)[0]:
        if areas[j] <= 0:
            continue
        for i in range(n):
            if i == j or areas[i] < INNER_AREA_RATIO * areas[j]:
                continue
            if _overlap(corners[i], corners[j]) >= INNER_COVER * areas[j]:
                keep[j] = False
                break
    return keep
