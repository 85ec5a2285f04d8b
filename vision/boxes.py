"""Upright boxes ``(x1, y1, x2, y2)``: overlap, containment, and a card's apparent size.

Plain arithmetic, no OpenCV: the watcher imports it.
"""

from __future__ import annotations

import math

#: A card's short side over its long side (``vision.geometry.CARD_ASPECT``, which the
#: watcher does not import: that module loads OpenCV).
CARD_SHAPE = 0.64


def box_middle(box: tuple[float, ...]) -> tuple[float, float]:
    """The middle of an upright box.

    >>> box_middle((10.0, 20.0, 30.0, 60.0))
    (20.0, 40.0)
    """
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def apparent_scale(box: tuple[float, ...], card_px: float) -> float:
    """How big a card looks, from its upright box, in card lengths (1: ``card_px``).

    A card of long side ``s * card_px`` turned by any angle has the upright box
    ``w = s (L sin a + W cos a)``, ``h = s (L cos a + W sin a)``; ``s`` follows from
    ``w`` and ``h`` whatever the angle. A card held above the table, nearer the
    camera, looks bigger than the cards lying on it.

    >>> [round(apparent_scale(box, 100), 3) for box in [(0, 0, 64, 100), (0, 0, 100, 64)]]
    [1.0, 1.0]
    >>> round(apparent_scale((0, 0, 116, 116), 100), 2)  # turned 45 degrees
    1.0
    >>> round(apparent_scale((0, 0, 76.8, 120), 100), 2)  # held high: 1.2x
    1.2
    """
    w, h = box[2] - box[0], box[3] - box[1]
    long, short = card_px, CARD_SHAPE * card_px
    return math.sqrt(((w + h) / (long + short)) ** 2 + ((h - w) / (long - short)) ** 2) / math.sqrt(
        2
    )


def _intersection(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The area two upright boxes ``(x1, y1, x2, y2)`` share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def box_overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Intersection over union of two upright boxes ``(x1, y1, x2, y2)``.

    >>> box_overlap((0, 0, 10, 10), (5, 0, 15, 10))
    0.3333333333333333
    """
    inter = _intersection(a, b)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def box_within(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The share of upright box ``a`` that lies inside box ``b``.

    >>> box_within((2, 2, 8, 8), (0, 0, 10, 10))
    1.0
    >>> box_within((5, 0, 15, 10), (0, 0, 10, 10))
    0.5
    """
    area = (a[2] - a[0]) * (a[3] - a[1])
    return _intersection(a, b) / area if area > 0 else 0.0
