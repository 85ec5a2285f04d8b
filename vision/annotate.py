"""Drawing recognised cards on a frame: outlines and names, kept apart from the logic.

>>> import numpy as np
>>> from vision.detections import Detections
>>> frame = np.zeros((120, 160, 3), np.uint8)
>>> out = annotate(frame, Detections.from_list([("red-7", 0.93, (20, 20, 60, 80))]))
>>> out.shape, bool(out.any()), bool(frame.any())
((120, 160, 3), True, False)
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.detections import Detections

Image = npt.NDArray[np.uint8]

#: Outline colour (BGR) per card colour; wilds and backs get their own.
PALETTE: dict[str, tuple[int, int, int]] = {
    "red": (60, 60, 230),
    "yellow": (0, 210, 250),
    "green": (80, 190, 60),
    "blue": (230, 140, 20),
    "wild": (200, 60, 200),
    "back": (160, 160, 160),
}


def card_color(card: str) -> tuple[int, int, int]:
    """The outline colour for a card name."""
    if card == "back":
        return PALETTE["back"]
    if card.startswith("wild"):
        return PALETTE["wild"]
    return PALETTE.get(card.split("-", 1)[0], (255, 255, 255))


def annotate(
    frame: Image, detections: Detections, *, thickness: int = 2, show_confidence: bool = True
) -> Image:
    """A copy of ``frame`` with each card outlined (its rotated corners when known) and named."""
    out = frame.copy()
    scale = max(0.4, min(out.shape[:2]) / 900)
    for i, det in enumerate(detections):
        color = card_color(det.card)
        if detections.corners is not None:
            pts = np.round(detections.corners[i]).astype(np.int32)
            cv2.polylines(out, [pts], True, color, thickness, cv2.LINE_AA)
            anchor = pts[np.argmin(pts[:, 1])]
        else:
            x1, y1, x2, y2 = (round(v) for v in det.box)
            cv2.rectangle(out, (x1, y1), (x2, y2), color, thickness, cv2.LINE_AA)
            anchor = np.array([x1, y1])
        label = f"{det.card} {det.confidence:.2f}" if show_confidence else det.card
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        x = int(np.clip(anchor[0] - tw // 2, 0, max(0, out.shape[1] - tw)))
        y = int(np.clip(anchor[1] - 6, th + base, out.shape[0] - 1))
        cv2.rectangle(out, (x, y - th - base), (x + tw, y + base), color, -1)
        cv2.putText(out, label, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 1, cv2.LINE_AA)
    return out
