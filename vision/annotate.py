"""Drawing on a frame: recognised cards (outlines and names), the discard pile's zone
and the players' seats; kept apart from the logic (the live picture uses
:func:`annotate_table`).

>>> import numpy as np
>>> from vision.detections import Detections
>>> frame = np.zeros((120, 160, 3), np.uint8)
>>> out = annotate(frame, Detections.from_list([("red-7", 0.93, (20, 20, 60, 80))]))
>>> out.shape, bool(out.any()), bool(frame.any())
((120, 160, 3), True, False)
>>> from vision.calibration import TableLayout
>>> big = np.zeros((480, 1280, 3), np.uint8)
>>> annotate_table(big, None, TableLayout.default(1280, 480, 2), ["Ann", "Bob"], "Ann").shape
(360, 960, 3)
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration import TableLayout
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


#: The discard pile's zone, the seats' name plates, a name, and the name on turn.
ZONE_COLOR = (200, 200, 200)
PLATE_COLOR = (30, 30, 30)
NAME_COLOR = (235, 235, 235)
TURN_COLOR = (0, 220, 255)


def annotate(
    frame: Image,
    detections: Detections,
    *,
    thickness: int = 2,
    show_confidence: bool = True,
    scale: float = 1.0,
) -> Image:
    """A copy of ``frame`` with each card outlined (its rotated corners when known) and
    named; ``scale`` maps the detections' coordinates onto ``frame`` (a resized frame)."""
    out = frame.copy()
    draw_cards(out, detections, thickness=thickness, show_confidence=show_confidence, scale=scale)
    return out


def draw_cards(
    out: Image,
    detections: Detections,
    *,
    thickness: int = 2,
    show_confidence: bool = True,
    scale: float = 1.0,
) -> None:
    """Outline and name each card on ``out`` itself (see :func:`annotate`)."""
    text_scale = max(0.4, min(out.shape[:2]) / 900)
    for i, det in enumerate(detections):
        color = card_color(det.card)
        if detections.corners is not None:
            pts = np.round(detections.corners[i] * scale).astype(np.int32)
            cv2.polylines(out, [pts], True, color, thickness, cv2.LINE_AA)
            anchor = pts[np.argmin(pts[:, 1])]
        else:
            x1, y1, x2, y2 = (round(v * scale) for v in det.box)
            cv2.rectangle(out, (x1, y1), (x2, y2), color, thickness, cv2.LINE_AA)
            anchor = np.array([x1, y1])
        label = f"{det.card} {det.confidence:.2f}" if show_confidence else det.card
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, text_scale, 1)
        x = int(np.clip(anchor[0] - tw // 2, 0, max(0, out.shape[1] - tw)))
        y = int(np.clip(anchor[1] - 6, th + base, out.shape[0] - 1))
        cv2.rectangle(out, (x, y - th - base), (x + tw, y + base), color, -1)
        font = cv2.FONT_HERSHEY_SIMPLEX
        cv2.putText(out, label, (x, y), font, text_scale, (0, 0, 0), 1, cv2.LINE_AA)


def draw_layout(
    out: Image, layout: TableLayout, players: list[str], turn: str | None, scale: float = 1.0
) -> None:
    """The discard pile's zone, and each player's name at their side of the table
    (whose turn it is in yellow), on ``out`` itself."""
    z = layout.discard
    corners = [(round(x * scale), round(y * scale)) for x, y in ((z.x1, z.y1), (z.x2, z.y2))]
    cv2.rectangle(out, corners[0], corners[1], ZONE_COLOR, 1)
    h, w = out.shape[:2]
    for seat, name in enumerate(players[: len(layout.seats)]):
        x, y = layout.seat_anchor(seat, 0.88)
        (tw, th), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, 0.6, 2)
        x1 = int(min(max(x * scale - tw / 2, 4), w - tw - 8))
        y1 = int(min(max(y * scale - th / 2, th + 6), h - 6))
        cv2.rectangle(out, (x1 - 4, y1 - th - 6), (x1 + tw + 4, y1 + 6), PLATE_COLOR, -1)
        color = TURN_COLOR if name == turn else NAME_COLOR
        font = cv2.FONT_HERSHEY_SIMPLEX
        cv2.putText(out, name, (x1, y1), font, 0.6, color, 2, cv2.LINE_AA)


def annotate_table(
    frame: Image,
    detections: Detections | None,
    layout: TableLayout | None,
    players: list[str],
    turn: str | None,
    *,
    max_width: int = 960,
) -> Image:
    """The live picture: ``frame`` shrunk to at most ``max_width`` pixels across, with
    the table's layout (:func:`draw_layout`) and the recognised cards drawn on it."""
    h, w = frame.shape[:2]
    scale = min(1.0, max_width / w)
    size = (round(w * scale), round(h * scale))
    out: Image = np.asarray(cv2.resize(frame, size), np.uint8) if scale < 1 else frame.copy()
    if layout is not None:
        draw_layout(out, layout, players, turn, scale)
    if detections is not None:
        draw_cards(out, detections, scale=scale)
    return out
