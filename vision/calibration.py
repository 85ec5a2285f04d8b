"""Table calibration: where the discard pile, the draw pile and the seats are.

A :class:`TableLayout` is a small JSON file per table. Seats are *bearings*: the angle,
in degrees clockwise from the top of the image, at which a seat lies as seen from the
discard pile's centre. Players are listed clockwise (DESIGN.md), so seat ``i`` is
player ``i``. A card or hand arriving from bearing ``b`` belongs to the seat whose
bearing is nearest ``b``.

>>> layout = TableLayout.default(640, 480, 4)
>>> [round(b) for b in layout.seats]         # bottom, left, top, right: clockwise
[180, 270, 0, 90]
>>> layout.seat_at(320, 470), layout.seat_at(5, 240), layout.seat_at(320, 240)
(0, 1, None)
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Box = tuple[float, float, float, float]


def bearing_of(dx: float, dy: float) -> float:
    """Degrees clockwise from image-up of the vector ``(dx, dy)`` (image y points down).

    >>> bearing_of(0, -1), bearing_of(1, 0), bearing_of(0, 1), bearing_of(-1, 0)
    (0.0, 90.0, 180.0, 270.0)
    """
    return math.degrees(math.atan2(dx, -dy)) % 360.0 + 0.0


def angle_diff(a: float, b: float) -> float:
    """Smallest absolute difference of two bearings, in degrees (0..180)."""
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


@dataclass(frozen=True)
class Zone:
    """An axis-aligned rectangle in pixels: ``x1, y1, x2, y2``."""

    x1: float
    y1: float
    x2: float
    y2: float

    def __post_init__(self) -> None:
        if not (self.x2 > self.x1 and self.y2 > self.y1):
            raise ValueError(f"empty zone {self.as_list()}: need x1 < x2 and y1 < y2")

    @classmethod
    def around(cls, cx: float, cy: float, w: float, h: float) -> Zone:
        return cls(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2)

    def contains(self, x: float, y: float, margin: float = 0.0) -> bool:
        return (
            self.x1 - margin <= x <= self.x2 + margin and self.y1 - margin <= y <= self.y2 + margin
        )

    def overlap(self, box: Box) -> float:
        """Fraction of ``box``'s area inside the zone."""
        x1, y1, x2, y2 = box
        iw = max(0.0, min(x2, self.x2) - max(x1, self.x1))
        ih = max(0.0, min(y2, self.y2) - max(y1, self.y1))
        area = max(1e-6, (x2 - x1) * (y2 - y1))
        return iw * ih / area

    def scaled(self, sx: float, sy: float) -> Zone:
        return Zone(self.x1 * sx, self.y1 * sy, self.x2 * sx, self.y2 * sy)

    def as_list(self) -> list[float]:
        return [round(self.x1, 1), round(self.y1, 1), round(self.x2, 1), round(self.y2, 1)]


@dataclass(frozen=True)
class TableLayout:
    """Frame size, the two pile zones, the seats (bearings, clockwise) and card size.

    ``card_px`` is the long side of a card in pixels: the watcher scales its distance
    thresholds by it, so the same layout logic works for any camera height.
    """

    width: int
    height: int
    discard: Zone
    draw: Zone
    seats: tuple[float, ...]
    card_px: float
    names: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"bad frame size {self.width}x{self.height}")
        if len(self.seats) < 2:
            raise ValueError("a table needs at least 2 seats")
        if self.card_px <= 0:
            raise ValueError("card_px must be positive")

    # ---------------------------------------------------------------- construction
    @classmethod
    def default(cls, width: int, height: int, n_seats: int) -> TableLayout:
        """Discard pile in the middle, draw pile beside it, seats evenly around.

        Seat 0 sits at the bottom edge of the image; the others follow clockwise.
        """
        if not 2 <= n_seats <= 10:
            raise ValueError(f"between 2 and 10 seats, not {n_seats}")
        card = 0.16 * min(width, height)
        cx, cy = width / 2, height / 2
        seats = tuple((180.0 + 360.0 * i / n_seats) % 360.0 for i in range(n_seats))
        discard = Zone.around(cx, cy, 1.9 * card, 1.9 * card)
        db = _between_seats(seats, 45.0)
        dist = 1.75 * card
        dx, dy = math.sin(math.radians(db)) * dist, -math.cos(math.radians(db)) * dist
        draw = Zone.around(cx + dx, cy + dy, 1.15 * card, 1.15 * card)
        return cls(width, height, discard, draw, seats, card)

    def with_seats(self, bearings: list[float] | tuple[float, ...]) -> TableLayout:
        return TableLayout(
            self.width,
            self.height,
            self.discard,
            self.draw,
            tuple(float(b) % 360.0 for b in bearings),
            self.card_px,
            self.names,
        )

    def for_players(self, names: list[str] | tuple[str, ...]) -> TableLayout:
        """This table seating ``names`` (clockwise): the same bearings when the count is
        unchanged, else as many seats spread evenly clockwise from seat 0's bearing.

        >>> table = TableLayout.default(640, 480, 4)
        >>> table.for_players(["A", "B", "C"]).seats
        (180.0, 300.0, 60.0)
        """
        n = len(names)
        if n < 2:
            raise ValueError("a table needs at least 2 seats")
        seats = (
            self.seats
            if n == len(self.seats)
            else tuple((self.seats[0] + 360.0 * i / n) % 360.0 for i in range(n))
        )
        return dataclasses.replace(self.with_seats(seats), names=tuple(names))

    def scaled(self, width: int, height: int) -> TableLayout:
        """The same table seen at another resolution (bearings do not change)."""
        sx, sy = width / self.width, height / self.height
        return TableLayout(
            width,
            height,
            self.discard.scaled(sx, sy),
            self.draw.scaled(sx, sy),
            self.seats,
            self.card_px * math.sqrt(sx * sy),
            self.names,
        )

    # ---------------------------------------------------------------- queries
    @property
    def center(self) -> tuple[float, float]:
        return self.discard.center

    def bearing(self, x: float, y: float) -> float:
        """Bearing of a point as seen from the discard pile's centre."""
        cx, cy = self.center
        return bearing_of(x - cx, y - cy)

    def seat_for_bearing(self, b: float) -> int:
        """The seat whose bearing is nearest ``b``."""
        return min(range(len(self.seats)), key=lambda i: angle_diff(self.seats[i], b))

    def seat_at(self, x: float, y: float) -> int | None:
        """The seat a point at ``(x, y)`` belongs to; ``None`` on the discard pile itself."""
        if self.discard.contains(x, y):
            return None
        return self.seat_for_bearing(self.bearing(x, y))

    def seat_anchor(self, seat: int, reach: float = 1.0) -> tuple[float, float]:
        """A point towards ``seat``: ``reach`` 1.0 is the frame's edge (renderer, drawing)."""
        cx, cy = self.center
        b = math.radians(self.seats[seat])
        dx, dy = math.sin(b), -math.cos(b)
        # Distance along the ray to the image border.
        ts = []
        if dx > 1e-9:
            ts.append((self.width - cx) / dx)
        if dx < -1e-9:
            ts.append(-cx / dx)
        if dy > 1e-9:
            ts.append((self.height - cy) / dy)
        if dy < -1e-9:
            ts.append(-cy / dy)
        t = min(ts) * reach
        return (cx + dx * t, cy + dy * t)

    # ---------------------------------------------------------------- persistence
    def to_dict(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "discard": self.discard.as_list(),
            "draw": self.draw.as_list(),
            "seats": [round(b, 2) for b in self.seats],
            "card_px": round(self.card_px, 2),
            "names": list(self.names),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableLayout:
        try:
            return cls(
                int(d["width"]),
                int(d["height"]),
                Zone(*(float(v) for v in d["discard"])),
                Zone(*(float(v) for v in d["draw"])),
                tuple(float(b) % 360.0 for b in d["seats"]),
                float(d.get("card_px") or 0.16 * min(int(d["width"]), int(d["height"]))),
                tuple(str(n) for n in d.get("names", ())),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a table layout: {exc!r}") from exc

    def save(self, path: str | Path) -> None:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(p.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=2) + "\n")
        tmp.replace(p)  # never leave a half-written layout behind

    @classmethod
    def load(cls, path: str | Path) -> TableLayout:
        p = Path(path)
        try:
            data = json.loads(p.read_text())
        except json.JSONDecodeError as exc:
            raise ValueError(f"{p}: not JSON ({exc.msg}, line {exc.lineno})") from exc
        if not isinstance(data, dict):
            raise ValueError(f"{p}: a table layout is a JSON object")
        try:
            return cls.from_dict(data)
        except ValueError as exc:
            raise ValueError(f"{p}: {exc}") from exc

    # ---------------------------------------------------------------- auto-proposal
    @classmethod
    def propose(
        cls,
        frame_bgr: npt.NDArray[np.uint8],
        n_seats: int,
        detections: Any | None = None,
    ) -> TableLayout:
        """Propose a layout from one look at the table (then edit and save it).

        With ``detections`` (a :class:`vision.detections.Detections` of the frame) the
        discard pile is where the face cards are and the draw pile where the backs
        are. Without, card-sized blobs that stand out from the cloth are found with
        OpenCV: the brightest (a face's white border) is the discard pile, the
        darkest (the black back) the draw pile. Seats cannot be seen before people
        sit down: they are spread evenly, seat 0 at the bottom edge.
        """
        h, w = frame_bgr.shape[:2]
        base = cls.default(w, h, n_seats)
        faces: list[Box] = []
        backs: list[Box] = []
        if detections is not None and len(detections):
            for d in detections:
                (backs if d.card == "back" else faces).append(d.box)
        else:
            blobs = _card_blobs(frame_bgr, base.card_px)
            blobs.sort(key=lambda b: -b[1])  # darkest (a back) first
            if blobs and blobs[0][1] >= 0.25:
                backs.append(blobs.pop(0)[0])
            if blobs:
                # The discard pile: the face blob nearest the middle of the picture.
                blobs.sort(
                    key=lambda b: math.hypot(
                        (b[0][0] + b[0][2] - w) / 2, (b[0][1] + b[0][3] - h) / 2
                    )
                )
                faces.append(blobs[0][0])
        card = base.card_px
        if detections is not None and len(detections):
            # Axis-aligned boxes of tilted cards overstate them a little; that is fine.
            card = float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in faces + backs]))
        discard, draw = base.discard, base.draw
        if faces:
            x1, y1, x2, y2 = _union(faces)
            cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
            side = max(1.9 * card, x2 - x1 + 0.6 * card, y2 - y1 + 0.6 * card)
            discard = Zone.around(cx, cy, side, side)
        if backs:
            x1, y1, x2, y2 = _union(backs)
            cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
            side = max(1.15 * card, x2 - x1 + 0.3 * card, y2 - y1 + 0.3 * card)
            draw = Zone.around(cx, cy, side, side)
        return cls(w, h, discard, draw, base.seats, card)


def _between_seats(seats: tuple[float, ...], wanted: float) -> float:
    """The midpoint between two neighbouring seats nearest the bearing ``wanted``."""
    s = sorted(seats)
    mids = []
    for i, a in enumerate(s):
        b = s[(i + 1) % len(s)]
        gap = (b - a) % 360.0 or 360.0
        mids.append((a + gap / 2) % 360.0)
    return min(mids, key=lambda m: angle_diff(m, wanted))


def _union(boxes: list[Box]) -> Box:
    a = np.array(boxes, dtype=np.float64)
    return (float(a[:, 0].min()), float(a[:, 1].min()), float(a[:, 2].max()), float(a[:, 3].max()))


def _card_blobs(frame_bgr: npt.NDArray[np.uint8], card_px: float) -> list[tuple[Box, float]]:
    """Card-sized regions that stand out from the cloth: ``(box, darkness)``.

    Darkness is the share of near-black pixels: high for the black UNO back, low for
    a face with its white border.
    """
    import cv2

    small = cv2.GaussianBlur(frame_bgr, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = np.median(lab.reshape(-1, 3), axis=0)
    dist = np.linalg.norm(lab - table, axis=2)
    mask = (dist > 40).astype(np.uint8) * 255
    k = max(3, int(card_px * 0.15) | 1)
    # Close the gaps inside a card (its print) so that one card is one blob.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    dark = (cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY) < 60).astype(np.uint8)
    out: list[tuple[Box, float]] = []
    min_area = (0.35 * card_px) ** 2
    max_area = (2.0 * card_px) ** 2
    for c in contours:
        area = cv2.contourArea(c)
        if not min_area <= area <= max_area:
            continue
        x, y, bw, bh = cv2.boundingRect(c)
        fh, fw = dark.shape
        if x <= 1 or y <= 1 or x + bw >= fw - 1 or y + bh >= fh - 1:
            continue  # the piles lie inside the picture; dark corners are vignetting
        if max(bw, bh) > 2.2 * card_px or min(bw, bh) < 0.4 * max(bw, bh):
            continue  # an arm, a shadow, a fan of cards in a hand: not a pile
        region = np.zeros(dark.shape, np.uint8)
        cv2.drawContours(region, [c], -1, 1, -1)
        share = float((dark & region).sum()) / max(1.0, float(region.sum()))
        out.append(((float(x), float(y), float(x + bw), float(y + bh)), share))
    return out
