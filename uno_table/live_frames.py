"""What the pages see of the camera: the latest frame and the cards in front of each seat.

:class:`LatestFrame` keeps the live loop's latest picture twice: annotated, for the
video on the tablet (encoded as JPEG once per frame, however many viewers ask), and as
it came, for the camera check and the deck setup. :func:`cards_by_seat` reads the cards
lying in front of each seat (for scoring a round). Neither loads OpenCV until a frame
is encoded.

>>> frames = LatestFrame()
>>> frames.jpeg(75) is None, frames.raw() is None
(True, True)
"""

from __future__ import annotations

import threading
from typing import Any


class LatestFrame:
    """The latest annotated frame (served as JPEG) and the same frame as it came."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._annotated: Any = None  # BGR image with the overlay
        self._raw: Any = None  # the same frame as it came (deck setup, camera check)
        self._index = -1
        self._jpeg: tuple[int, bytes] | None = None

    def put(self, annotated: Any, raw: Any, index: int) -> None:
        """The loop's newest frame (``index`` tells viewers whether it is new)."""
        with self._lock:
            self._annotated = annotated
            self._raw = raw
            self._index = index

    def raw(self) -> Any:
        """The latest frame as it came from the camera (BGR, not annotated), or None."""
        with self._lock:
            return self._raw

    def jpeg(self, quality: int) -> tuple[int, bytes] | None:
        """``(frame_index, jpeg_bytes)`` of the latest annotated frame, encoded once per
        frame for all viewers; None before the first frame (the last one if encoding fails)."""
        with self._lock:
            if self._annotated is None:
                return None
            if self._jpeg is None or self._jpeg[0] != self._index:
                import cv2

                ok, buf = cv2.imencode(".jpg", self._annotated, [cv2.IMWRITE_JPEG_QUALITY, quality])
                if not ok:
                    return self._jpeg
                self._jpeg = (self._index, buf.tobytes())
            return self._jpeg


def cards_by_seat(detections: Any, layout: Any, players: list[str]) -> dict[str, list[str]]:
    """The faces recognised in front of each player's seat (not backs, not on the draw
    pile), in the order of ``detections``; every player has a list."""
    seats: dict[str, list[str]] = {p: [] for p in players}
    for det in detections:
        if det.card == "back":
            continue
        x, y = det.center
        if layout.draw.contains(x, y):
            continue
        seat = layout.seat_at(x, y)
        if seat is not None and seat < len(players):
            seats[players[seat]].append(det.card)
    return seats
