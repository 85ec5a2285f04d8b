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

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]

#: Share of a box's area that must lie inside a larger box for it to be a part of it.
INNER_COVER = 0.8
#: How many times larger (by area) the containing box must be.
INNER_AREA_RATIO = 2.0
#: In a whole photo, a face box covering at least this share of the picture is a
#: close-up (a card held to the camera, a phone photo of one card) ...
CLOSEUP_AREA = 0.10
#: ... and among close-up boxes, one sharing this share of its area with a surer one
#: read as the same face is the same card boxed again (askew, or with a corner cut off).
CLOSEUP_SHARED = 0.3
#: The name of a face-down card's box (never filtered as a close-up).
BACK = "back"


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


def closeup_boxes_kept(
    corners: F32, conf: F32, names: Sequence[str], shape: tuple[int, ...]
) -> npt.NDArray[np.bool_]:
    """Which boxes to keep of a whole picture, once each box is named: among face
    boxes each covering :data:`CLOSEUP_AREA` of it, one sharing :data:`CLOSEUP_SHARED`
    of its area with a surer box **of the same face** is dropped. A card filling the
    picture is boxed askew two or three times, and each of those boxes reads as that
    card; the cards of a fan held to the camera overlap as much but read as different
    faces, so they stay. On a table seen from above every card is far smaller than a
    tenth of the picture, so the cards of a pile are never compared here.

    >>> card = np.float32([(50, 0), (350, 0), (350, 450), (50, 450)])
    >>> askew = np.float32([(0, 100), (300, 0), (400, 300), (100, 400)])
    >>> boxes = np.stack([card, askew])
    >>> closeup_boxes_kept(boxes, np.float32([0.9, 0.5]), ["red-7", "red-7"], (480, 400)).tolist()
    [True, False]
    >>> closeup_boxes_kept(boxes, np.float32([0.9, 0.5]), ["red-7", "blue-2"], (480, 400)).tolist()
    [True, True]
    """
    n = len(corners)
    keep = np.ones(n, bool)
    frame = float(shape[0] * shape[1])
    big = [i for i in range(n) if names[i] != BACK and _area(corners[i]) >= CLOSEUP_AREA * frame]
    big.sort(key=lambda i: -float(conf[i]))
    kept: list[int] = []
    for j in big:
        area = _area(corners[j])
        if any(
            names[i] == names[j] and _overlap(corners[i], corners[j]) >= CLOSEUP_SHARED * area
            for i in kept
        ):
            keep[j] = False
        else:
            kept.append(j)
    return keep
