"""The painter of synthetic game videos: one frame of the table as the camera sees it.

:class:`Renderer` holds what stays put for a video (the table, the seats, the
pile's place, the deck edition, the camera of its style) and paints a frame: the
table and the settled pile (kept until the pile changes), the cards moving, the
hand or the covering hand, the light, the camera's warp and shake, the sensor
noise; it returns the frame and every card's box and visible share
(:class:`FrameCard`). A camera that sees past the table's edge is painted on a
canvas that covers all it sees, the floor round the table included, so arms and
cards coming in are seen over the floor. What moves where and when (the clips of a
game's timeline) is :mod:`synth.video_plan`'s and :mod:`synth.video_motion`'s.
"""

from __future__ import annotations

import dataclasses
import math
import zlib
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from synth.render.cards import render_card
from synth.render.hands import draw_covering_hand, draw_hand
from synth.render.table import render_table
from synth.styles import (
    FLOOR_BGR,
    PACE_MAX,
    VideoStyle,
    blur_card,
    camera_homography,
    warp_layout,
    warp_points,
)
from vision.calibration import TableLayout

Image = npt.NDArray[np.uint8]

_HAND_ID = 65535
_CANVAS_MARGIN_PX = 8  # canvas past the camera's view: the shake, and no edge in sight


def _ray_to_edge(
    start: tuple[float, float], d: tuple[float, float], poly: npt.NDArray[np.float64]
) -> float:
    """How far from ``start`` (inside the convex ``poly``) along ``d`` its edge lies.

    >>> square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float64)
    >>> _ray_to_edge((5.0, 5.0), (1.0, 0.0), square)
    5.0
    """
    best = math.inf
    for k in range(len(poly)):
        (ax, ay), (bx, by) = poly[k], poly[(k + 1) % len(poly)]
        ex, ey = bx - ax, by - ay
        den = d[0] * ey - d[1] * ex
        if abs(den) < 1e-12:
            continue  # the ray runs along this edge
        t = ((ax - start[0]) * ey - (ay - start[1]) * ex) / den
        u = ((ax - start[0]) * d[1] - (ay - start[1]) * d[0]) / den
        if t > 0 and -1e-9 <= u <= 1 + 1e-9:
            best = min(best, t)
    if best == math.inf:
        raise ValueError("the point is not inside the polygon")
    return float(best)


@dataclass
class Placed:
    name: str
    xy: tuple[float, float]
    angle: float


@dataclass
class Moving:
    name: str
    xy: tuple[float, float]
    angle: float
    scale: float = 1.0  # > 1: held above the table, nearer the camera
    blur: tuple[float, float] = (0.0, 0.0)  # motion blur: the way moved while exposed (px)
    soft: float = 0.0  # blur of a card coming nearer or going away (px)


Hand = tuple[tuple[float, float], tuple[float, float], int]  # fingertip, arm's start, seed


@dataclass(frozen=True)
class Cover:
    """A hand lying on a card (style ``hold="cover"``): where and how the card lies."""

    xy: tuple[float, float]
    angle: float
    arm: tuple[float, float]
    seed: int
    cards: int = 1  # a fan of several cards is covered by one hand


@dataclass(frozen=True)
class FrameCard:
    """A card in a rendered frame: its name, the fraction left uncovered, its upright
    box ``(x1, y1, x2, y2)`` clipped to the frame, and its four corners (unclipped)."""

    name: str
    visible: float
    box: tuple[float, float, float, float]
    corners: tuple[tuple[float, float], ...]


class Renderer:
    def __init__(
        self,
        width: int,
        height: int,
        players: list[str],
        rng: np.random.Generator,
        fps: float,
        style: VideoStyle | None = None,
        style_rng: np.random.Generator | None = None,
    ) -> None:
        self.w, self.h, self.fps = width, height, fps
        self.rng = rng
        self.style = style or VideoStyle()
        # The style's own draws come from their own generator: the house look draws the
        # same numbers from ``rng`` as before styles existed, frame for frame.
        self.style_rng = style_rng or np.random.default_rng(0)
        base = TableLayout.default(width, height, len(players))
        # The real table differs a little from any calibration: shift the piles and
        # let players sit a bit off their nominal bearings.
        card = base.card_px * float(rng.uniform(0.92, 1.08))
        cx = width / 2 + float(rng.normal(0, 0.1 * card))
        cy = height / 2 + float(rng.normal(0, 0.1 * card))
        self.center = (cx, cy)
        self.card_px = card
        self.card_w = round(card / 1.5)
        self.true_seats = [b + float(rng.uniform(-12, 12)) for b in base.seats]
        dx = base.draw.center[0] - base.discard.center[0]
        dy = base.draw.center[1] - base.discard.center[1]
        self.draw_xy = (cx + dx, cy + dy)
        self.draw_angle = float(rng.uniform(-20, 20))
        self.layout = dataclasses.replace(base, names=tuple(players))
        self.edition = str(rng.choice(["2018", "classic", "flat"]))
        self._faces: dict[str, Image] = {}
        self.table = render_table(height, width, rng)
        self.pile: list[Placed] = []
        self._static: tuple[Image, npt.NDArray[np.uint16], list[tuple[int, str, Any]]] | None = None
        self.noise = [
            rng.normal(0, float(rng.uniform(2.5, 5.0)), (height, width, 3)).astype(np.int16)
            for _ in range(6)
        ]
        self.areas: dict[int, int] = {}
        st = self.style
        if st.noise != 1.0:
            self.noise = [np.round(n * st.noise).astype(np.int16) for n in self.noise]
        self.camera = camera_homography(st, width, height)
        # What the camera sees of the table's plane, and the canvas painted on: the
        # frame itself for the house camera; for a camera that sees past the table's
        # edge, a larger canvas (the floor around the table) so that arms and cards
        # coming in are seen over the floor too, up to the frame's edge.
        self.view = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
        self.origin = (0, 0)  # the table's top-left corner on the canvas
        self.canvas_wh = (width, height)
        self._view_mask: npt.NDArray[np.bool_] | None = None
        if self.camera is not None:
            self.layout = warp_layout(self.layout, self.camera)
            self.view = warp_points(np.linalg.inv(self.camera), self.view)
            lo = np.floor(np.minimum(self.view.min(axis=0), 0)) - _CANVAS_MARGIN_PX
            hi = np.ceil(np.maximum(self.view.max(axis=0), (width, height))) + _CANVAS_MARGIN_PX
            self.origin = (int(-lo[0]), int(-lo[1]))
            self.canvas_wh = (int(hi[0] - lo[0]), int(hi[1] - lo[1]))
        spread = st.player_speed_spread
        self.speeds = [
            min(PACE_MAX, float(math.exp(self.style_rng.normal(0, spread)))) if spread > 0 else 1.0
            for _ in players
        ]

    # -------------------------------------------------------------- geometry helpers
    def seat_dir(self, seat: int) -> tuple[float, float]:
        b = math.radians(self.true_seats[seat])
        return (math.sin(b), -math.cos(b))

    def seat_point(self, seat: int, outside: float, lateral: float = 0.0) -> tuple[float, float]:
        """A point on the way to ``seat``: ``outside`` card lengths past what the camera sees."""
        dx, dy = self.seat_dir(seat)
        cx, cy = self.center
        if self.camera is None:  # the frame's edge
            ts = []
            if dx > 1e-9:
                ts.append((self.w - cx) / dx)
            if dx < -1e-9:
                ts.append(-cx / dx)
            if dy > 1e-9:
                ts.append((self.h - cy) / dy)
            if dy < -1e-9:
                ts.append(-cy / dy)
            edge = min(ts)
        else:
            edge = _ray_to_edge((cx, cy), (dx, dy), self.view)
        t = edge + outside * self.card_px
        return (
            cx + dx * t - dy * lateral * self.card_px,
            cy + dy * t + dx * lateral * self.card_px,
        )

    def face(self, name: str) -> Image:
        if name not in self._faces:
            self._faces[name] = render_card(
                name,
                rng=np.random.default_rng(zlib.crc32(name.encode())),
                edition=self.edition,
                width=self.card_w,
            )
        return self._faces[name]

    # -------------------------------------------------------------- drawing
    def paste(
        self,
        canvas: Image,
        idmap: npt.NDArray[np.uint16],
        name: str,
        xy: tuple[float, float],
        angle: float,
        obj: int,
        mv: Moving | None = None,
    ) -> npt.NDArray[np.float32]:
        img = self.face(name)
        h, w = img.shape[:2]
        scale = mv.scale if mv is not None else 1.0
        ox, oy = self.origin
        cw, ch = self.canvas_wh
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
        m[0, 2] += xy[0] - w / 2 + ox
        m[1, 2] += xy[1] - h / 2 + oy
        quad = (
            np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) @ m[:, :2].T + m[:, 2]
        ).astype(np.float32)
        blurred = mv is not None and (math.hypot(*mv.blur) >= 1.0 or mv.soft >= 0.5)
        pad = math.ceil(math.hypot(*mv.blur) / 2 + 2 * mv.soft) if mv and blurred else 0
        x0 = max(0, math.floor(float(quad[:, 0].min())) - 1 - pad)
        y0 = max(0, math.floor(float(quad[:, 1].min())) - 1 - pad)
        x1 = min(cw, math.ceil(float(quad[:, 0].max())) + 2 + pad)
        y1 = min(ch, math.ceil(float(quad[:, 1].max())) + 2 + pad)
        on_table = quad - np.array([ox, oy], np.float32) if ox or oy else quad
        if x1 <= x0 or y1 <= y0:
            self.areas[obj] = max(1, w * h)
            return on_table
        m[0, 2] -= x0
        m[1, 2] -= y0
        warped = cv2.warpAffine(img, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        if mv is not None and blurred:
            warped = blur_card(warped, mv.blur, mv.soft)
        a = warped[..., 3:4].astype(np.float32) / 255.0
        roi = canvas[y0:y1, x0:x1]
        roi[:] = (roi * (1.0 - a) + warped[..., :3] * a).astype(np.uint8)
        idmap[y0:y1, x0:x1][warped[..., 3] > 127] = obj
        # The whole card, in frame or not.
        self.areas[obj] = (
            round(w * h * 0.97 * scale * scale) if scale != 1.0 else round(w * h * 0.97)
        )
        return on_table

    def view_mask(self) -> npt.NDArray[np.bool_]:
        """The canvas pixels the camera sees (without its shake)."""
        if self._view_mask is None:
            cw, ch = self.canvas_wh
            mask = np.zeros((ch, cw), np.uint8)
            poly = self.view + np.array(self.origin, np.float64)
            cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
            self._view_mask = mask.astype(bool)
        return self._view_mask

    def static_layer(self) -> tuple[Image, npt.NDArray[np.uint16], list[tuple[int, str, Any]]]:
        """Table, draw pile and settled discard pile (re-made when the pile changes)."""
        if self._static is None:
            cw, ch = self.canvas_wh
            if (cw, ch) == (self.w, self.h):
                canvas = self.table.copy()
            else:  # the floor around the table
                canvas = np.empty((ch, cw, 3), np.uint8)
                canvas[:] = FLOOR_BGR
                ox, oy = self.origin
                canvas[oy : oy + self.h, ox : ox + self.w] = self.table
            idmap = np.zeros((ch, cw), np.uint16)
            objs: list[tuple[int, str, Any]] = []
            # The draw pile: a few backs, slightly offset; only the top one is a "card".
            for k in range(3):
                off = (self.draw_xy[0] - 1.5 * k, self.draw_xy[1] + 1.5 * k)
                self.paste(canvas, idmap, "back", off, self.draw_angle + 3 * k, 0)
            objs.append(
                (1, "back", self.paste(canvas, idmap, "back", self.draw_xy, self.draw_angle, 1))
            )
            for i, p in enumerate(self.pile):
                obj = 10 + i
                objs.append((obj, p.name, self.paste(canvas, idmap, p.name, p.xy, p.angle, obj)))
            self._static = (canvas, idmap, objs)
        return self._static

    def hand(
        self,
        canvas: Image,
        idmap: npt.NDArray[np.uint16],
        hand: tuple[tuple[float, float], tuple[float, float], int],
    ) -> None:
        """Paint the arm and hand, on the region it can cover only (full frames are slow)."""
        tip, start, seed = hand
        fw = self.card_px * 0.13
        ox, oy = self.origin
        cw, ch = self.canvas_wh
        # Where the arm enters the canvas: clip the segment tip -> start to it.
        sx, sy = start[0] + ox, start[1] + oy
        tx, ty = tip[0] + ox, tip[1] + oy
        u = 1.0
        for lo, hi, a, b in ((0.0, cw - 1.0, tx, sx), (0.0, ch - 1.0, ty, sy)):
            if b < lo and a != b:
                u = min(u, (lo - a) / (b - a))
            if b > hi and a != b:
                u = min(u, (hi - a) / (b - a))
        ex, ey = tx + (sx - tx) * u, ty + (sy - ty) * u
        pad = 7.0 * fw
        x0 = max(0, int(min(tx, ex) - pad))
        y0 = max(0, int(min(ty, ey) - pad))
        x1 = min(cw, int(max(tx, ex) + pad) + 1)
        y1 = min(ch, int(max(ty, ey) + pad) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        roi = canvas[y0:y1, x0:x1]
        before = roi.copy()
        draw_hand(roi, (tx - x0, ty - y0), (sx - x0, sy - y0), np.random.default_rng(seed), fw)
        changed = cv2.absdiff(before, roi).max(axis=2) > 0
        idmap[y0:y1, x0:x1][changed] = _HAND_ID

    def cover_hand(self, canvas: Image, idmap: npt.NDArray[np.uint16], cover: Cover) -> None:
        """Paint a hand lying flat on a card (or a fan of ``cover.cards``)."""
        w = self.card_w * (1.0 + 0.55 * (cover.cards - 1))
        # Paint only around the hand and the arm's way out of the frame (full frames are slow).
        pad = 1.5 * self.card_px + w
        ox, oy = self.origin
        cw, ch = self.canvas_wh
        cx, cy = cover.xy[0] + ox, cover.xy[1] + oy
        ax, ay = cover.arm[0] + ox, cover.arm[1] + oy
        x0, y0 = max(0, int(min(cx - pad, ax))), max(0, int(min(cy - pad, ay)))
        x1 = min(cw, int(max(cx + pad, ax)) + 1)
        y1 = min(ch, int(max(cy + pad, ay)) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        roi = canvas[y0:y1, x0:x1]
        before = roi.copy()
        draw_covering_hand(
            roi,
            (cx - x0, cy - y0),
            cover.angle,
            (w, self.card_w * 1.5),
            (ax - x0, ay - y0),
            np.random.default_rng(cover.seed),
            self.card_px * 0.13,
        )
        changed = cv2.absdiff(before, roi).max(axis=2) > 0
        idmap[y0:y1, x0:x1][changed] = _HAND_ID

    def frame(
        self,
        moving: list[Moving],
        hand: Hand | Cover | None,
        t: float,
        light: tuple[float, float, float],
        shake: tuple[float, float],
        frame_index: int,
    ) -> tuple[Image, list[FrameCard]]:
        static, sid, objs = self.static_layer()
        canvas = static.copy()
        idmap = sid.copy()
        objs = list(objs)
        for k, mv in enumerate(moving):
            obj = 1000 + k
            quad = self.paste(canvas, idmap, mv.name, mv.xy, mv.angle, obj, mv)
            objs.append((obj, mv.name, quad))
        if isinstance(hand, Cover):
            self.cover_hand(canvas, idmap, hand)
        elif hand is not None:
            self.hand(canvas, idmap, hand)
        if self.camera is None:
            counts = np.bincount(idmap.ravel(), minlength=_HAND_ID + 1)
        else:  # what lies in the camera's view only
            counts = np.bincount(idmap[self.view_mask()], minlength=_HAND_ID + 1)
        # Lighting (a lamp, clouds) and camera shake, then sensor noise.
        lut = np.empty((256, 1, 3), np.uint8)
        ramp = np.arange(256, dtype=np.float32)
        for c in range(3):
            lut[:, 0, c] = np.clip(ramp * light[c], 0, 255).astype(np.uint8)
        img = cv2.LUT(canvas, lut)
        dx, dy = shake
        view = None  # the camera of a style that moves it, with the shake
        if self.camera is not None:
            view = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], np.float64) @ self.camera
            ox, oy = self.origin
            from_canvas = view @ np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]], np.float64)
            img = cv2.warpPerspective(
                np.asarray(img),
                from_canvas,
                (self.w, self.h),
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=FLOOR_BGR,
            )
        else:
            m = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
            img = cv2.warpAffine(
                np.asarray(img), m, (self.w, self.h), borderMode=cv2.BORDER_REFLECT
            )
        noise = self.noise[frame_index % len(self.noise)]
        img = np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        truth: list[FrameCard] = []
        for obj, name, quad in objs:
            vis = float(counts[obj]) / float(self.areas.get(obj, 1))
            if vis < 0.05:
                continue
            if view is not None:
                quad = warp_points(view, quad).astype(np.float32) - np.array([dx, dy], np.float32)
            x1 = float(quad[:, 0].min()) + dx
            y1 = float(quad[:, 1].min()) + dy
            x2 = float(quad[:, 0].max()) + dx
            y2 = float(quad[:, 1].max()) + dy
            x1, y1 = max(0.0, x1), max(0.0, y1)
            x2, y2 = min(float(self.w), x2), min(float(self.h), y2)
            if x2 - x1 < 2 or y2 - y1 < 2:
                continue
            corners = tuple((float(x) + dx, float(y) + dy) for x, y in quad)
            truth.append(FrameCard(name, round(min(1.0, vis), 3), (x1, y1, x2, y2), corners))
        return img, truth
