"""Card geometry shared by the runtime and the renderer: corners, crops, card shape.

The recogniser cuts each card out of a frame with :func:`warp_crop`, its corners put
in reading order by :func:`order_card_corners`; the renderer (``synth``) cuts its
training crops the same way, so the classifier learns what it is shown at run time.

>>> import numpy as np
>>> quad = order_card_corners(np.float32([(60, 0), (60, 90), (0, 90), (0, 0)]))
>>> quad.tolist()
[[0.0, 0.0], [60.0, 0.0], [60.0, 90.0], [0.0, 90.0]]
>>> warp_crop(np.zeros((100, 80, 3), np.uint8), quad, 32).shape
(32, 32, 3)
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

#: A card's short side over its long side (56 x 87 mm).
CARD_ASPECT = 0.64


def rect_corners(corners: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The minimum-area rectangle around ``corners``, long side vertical, as TL TR BR BL.

    This is what an oriented-box detector returns: it knows the card's rectangle but
    not which short side is the top, so the crop may be upside down (the classifier
    learns both ways; UNO faces are printed point-symmetric anyway).
    """
    rect = cv2.minAreaRect(corners.reshape(-1, 1, 2).astype(np.float32))
    return order_card_corners(cv2.boxPoints(rect).astype(np.float32))


def order_card_corners(pts: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Order four rectangle corners as TL, TR, BR, BL of an upright (portrait) card.

    Of the two upright readings, the one whose top edge is higher in the image wins.
    """
    pts = pts.reshape(4, 2).astype(np.float32)
    # Sort clockwise around the centre (image y points down).
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]
    # Make edge 0->1 a short edge (the top of a portrait card).
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    # Of the two short edges, take the one nearer the top of the image as the top.
    if (pts[0, 1] + pts[1, 1]) > (pts[2, 1] + pts[3, 1]):
        pts = np.roll(pts, 2, axis=0)
    return pts


def warp_crop(
    image: npt.NDArray[np.uint8], corners: npt.NDArray[np.float32], size: int
) -> npt.NDArray[np.uint8]:
    """The quad ``corners`` (TL TR BR BL) warped onto a ``size`` x ``size`` square.

    A card much larger than ``size`` (a close-up photo) is first shrunk with area
    averaging around it: a perspective warp samples pixels, and sampling a 400-pixel
    digit down to 20 pixels leaves jagged, aliased strokes the renders never show.
    """
    corners = corners.astype(np.float32)
    side = float(
        max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[3] - corners[0]))
    )
    if side > 2 * size:
        x0, y0 = np.floor(np.maximum(corners.min(axis=0) - 2, 0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0) + 2).astype(int)
        roi = image[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)]
        if roi.size:
            f = 1.5 * size / side
            h, w = roi.shape[:2]
            image = cv2.resize(
                roi, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA
            )
            corners = ((corners - np.float32([x0, y0])) * f).astype(np.float32)
    dst = np.float32([(0, 0), (size, 0), (size, size), (0, size)])
    m = cv2.getPerspectiveTransform(corners, dst)
    return cv2.warpPerspective(
        image, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def jitter_corners(
    rng: np.random.Generator, corners: npt.NDArray[np.float32], amount: float
) -> npt.NDArray[np.float32]:
    """Move each corner by up to ``amount`` of the card width (detector imprecision)."""
    w = float(np.linalg.norm(corners[1] - corners[0]))
    return (corners + rng.normal(0, amount * w, corners.shape)).astype(np.float32)
