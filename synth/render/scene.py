"""Table scenes seen from above: a discard pile, a draw pile, loose cards, hands.

The composer draws on a flat "table plane", tracks which card is on top at every
pixel (to know how much of each card is visible), then photographs the plane with a
random camera (perspective, light, shadows, glare, blur, noise, JPEG).

>>> import numpy as np
>>> s = compose_scene(np.random.default_rng(3), cards=["red-7", "back"], size=(240, 320))
>>> s.image.shape, [c.card for c in s.cards]
((240, 320, 3), ['red-7', 'back'])
>>> s.cards[0].corners.shape
(4, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from synth.render.cards import FACES, render_card
from synth.render.hands import draw_hand
from synth.render.table import render_table

Image = npt.NDArray[np.uint8]
Corners = npt.NDArray[np.float32]


@dataclass
class PlacedCard:
    """A card in a scene: its name, its corners in the image and the visible fraction.

    ``corners`` are (4, 2) float32 pixels in the card's own order: top-left,
    top-right, bottom-right, bottom-left of the face as printed.
    """

    card: str
    corners: Corners
    visible: float

    @property
    def xyxy(self) -> tuple[float, float, float, float]:
        x, y = self.corners[:, 0], self.corners[:, 1]
        return (float(x.min()), float(y.min()), float(x.max()), float(y.max()))


@dataclass
class Scene:
    """A rendered BGR image and the cards in it, bottom of the pile first."""

    image: Image
    cards: list[PlacedCard] = field(default_factory=list)


@dataclass
class SceneStyle:
    """Knobs of the composer; the defaults cover a webcam 30-80 cm above a table."""

    card_width: tuple[float, float] = (0.07, 0.22)  # card width as a fraction of image width
    hand_prob: float = 0.35
    distractor_prob: float = 0.4
    glare_prob: float = 0.3
    blur_prob: float = 0.4
    jpeg_prob: float = 0.7
    perspective: float = 0.12  # max corner displacement as a fraction of the image
    pile_spread: tuple[float, float] = (0.05, 0.35)  # pile cards' offsets, in card widths
    pile_share: float = 0.65  # chance that a card lies on the discard pile


class CardBank:
    """A pool of pre-rendered faces, reused across scenes (rendering dominates the cost).

    Each name keeps up to ``variants`` random renders at ``width`` px; a request for
    a card past that picks one of them at random and resizes it.
    """

    def __init__(
        self,
        rng: np.random.Generator,
        variants: int = 12,
        width: int = 192,
        edition: str | None = None,
    ) -> None:
        self.rng = rng
        self.variants = variants
        self.width = width
        self.edition = edition
        self.pool: dict[str, list[Image]] = {}

    def face(self, card: str, width: int) -> Image:
        faces = self.pool.setdefault(card, [])
        if len(faces) < self.variants:
            faces.append(render_card(card, rng=self.rng, edition=self.edition, width=self.width))
            img = faces[-1]
        else:
            img = faces[int(self.rng.integers(len(faces)))]
        if width >= self.width:
            return img
        height = round(width * 1.5)
        return cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)


def random_cards(rng: np.random.Generator, n: int, back_prob: float = 0.15) -> list[str]:
    """``n`` random card names (faces uniformly, ``back`` with ``back_prob``)."""
    return [
        "back" if rng.random() < back_prob else str(FACES[int(rng.integers(len(FACES)))])
        for _ in range(n)
    ]


def _card_quad(center: tuple[float, float], w: float, angle_deg: float) -> Corners:
    """Corners (TL, TR, BR, BL) of a ``w`` x ``1.5 w`` card rotated by ``angle_deg``."""
    h = w * 1.5
    local = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return (local @ rot.T + np.array(center)).astype(np.float32)


def _layout(
    rng: np.random.Generator, names: Sequence[str], plane_hw: tuple[int, int], style: SceneStyle
) -> list[tuple[str, Corners]]:
    """Positions for ``names``: most on a discard pile, the rest loose or in a draw pile."""
    ph, pw = plane_hw
    cw = pw * rng.uniform(*style.card_width)
    out: list[tuple[str, Corners]] = []
    pile_center = (rng.uniform(0.25, 0.75) * pw, rng.uniform(0.25, 0.75) * ph)
    base_angle = rng.uniform(0, 360)
    pile_spread = rng.uniform(*style.pile_spread)
    for name in names:
        w = cw * rng.uniform(0.95, 1.05)
        if rng.random() < style.pile_share:  # on the discard pile
            c = (
                pile_center[0] + rng.normal(0, pile_spread * cw),
                pile_center[1] + rng.normal(0, pile_spread * cw),
            )
            angle = base_angle + rng.normal(0, 35)
        else:  # loose card anywhere
            c = (rng.uniform(0.05, 0.95) * pw, rng.uniform(0.05, 0.95) * ph)
            angle = rng.uniform(0, 360)
        out.append((name, _card_quad(c, w, angle)))
    return out


def _paste(
    canvas: npt.NDArray[np.float32],
    owner: npt.NDArray[np.int16],
    face: Image,
    quad: Corners,
    index: int,
    shadow: tuple[float, float, float],
) -> int:
    """Warp the BGRA ``face`` onto ``quad``; returns the card's pixel area."""
    ch, cw = canvas.shape[:2]
    fh, fw = face.shape[:2]
    sx, sy, strength = shadow
    # Only the card's bounding box (plus its shadow) is touched.
    pad = int(abs(sx) + abs(sy)) * 3 + 3
    x0 = max(0, int(quad[:, 0].min()) - pad)
    y0 = max(0, int(quad[:, 1].min()) - pad)
    x1 = min(cw, int(quad[:, 0].max()) + pad + 1)
    y1 = min(ch, int(quad[:, 1].max()) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return 0
    w, h = x1 - x0, y1 - y0
    src = np.float32([(0, 0), (fw, 0), (fw, fh), (0, fh)])
    m = cv2.getPerspectiveTransform(src, (quad - np.float32([x0, y0])).astype(np.float32))
    warped = cv2.warpPerspective(face, m, (w, h), flags=cv2.INTER_LINEAR)
    a = warped[..., 3].astype(np.float32) / 255
    roi = canvas[y0:y1, x0:x1]
    if strength > 0:
        sm = np.float32([[1, 0, sx], [0, 1, sy]])
        sh = cv2.warpAffine(a, sm, (w, h))
        sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, abs(sx) + abs(sy)))
        roi *= (1 - strength * sh)[..., None]
    roi[...] = roi * (1 - a[..., None]) + warped[..., :3].astype(np.float32) * a[..., None]
    inside = a > 0.5
    owner[y0:y1, x0:x1][inside] = index
    return int(inside.sum())


def _distractors(canvas: npt.NDArray[np.float32], rng: np.random.Generator) -> None:
    """Things that are not cards: a phone, paper, a cup, a pen, a coaster."""
    h, w = canvas.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        kind = rng.integers(4)
        color = tuple(float(v) for v in rng.uniform(0, 255, 3))
        c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        s = float(rng.uniform(0.05, 0.3) * w)
        if kind == 0:  # rectangle: phone, paper, book
            box = cv2.boxPoints((c, (s, s * rng.uniform(0.3, 2.5)), float(rng.uniform(0, 180))))
            cv2.fillPoly(canvas, [np.round(box).astype(np.int32)], color, cv2.LINE_AA)
        elif kind == 1:  # cup or coaster from above
            cv2.circle(canvas, (int(c[0]), int(c[1])), int(s / 2), color, -1, cv2.LINE_AA)
            inner = tuple(v * 0.6 for v in color)
            cv2.circle(canvas, (int(c[0]), int(c[1])), int(s / 2.6), inner, -1, cv2.LINE_AA)
        elif kind == 2:  # pen
            p1 = (int(c[0] + s * rng.normal()), int(c[1] + s * rng.normal()))
            cv2.line(canvas, (int(c[0]), int(c[1])), p1, color, max(2, int(s / 15)), cv2.LINE_AA)
        else:  # scribbled note
            for k in range(int(rng.integers(2, 6))):
                y = int(c[1] + k * s / 6)
                cv2.line(canvas, (int(c[0]), y), (int(c[0] + s), y), color, 2, cv2.LINE_AA)


def _camera(
    rng: np.random.Generator, plane_hw: tuple[int, int], out_hw: tuple[int, int], amount: float
) -> npt.NDArray[np.float64]:
    """A homography from the table plane to the image: scale plus a random tilt."""
    ph, pw = plane_hw
    oh, ow = out_hw
    src = np.float32([(0, 0), (pw, 0), (pw, ph), (0, ph)])
    jitter = rng.uniform(-amount, amount, (4, 2)) * np.float32([ow, oh])
    # The plane is a bit larger than the view, so the table fills the frame after the tilt.
    margin = np.float32([(-1, -1), (1, -1), (1, 1), (-1, 1)]) * np.float32([ow, oh]) * 0.12
    dst = np.float32([(0, 0), (ow, 0), (ow, oh), (0, oh)]) + margin + jitter
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _photograph(img: npt.NDArray[np.float32], rng: np.random.Generator, style: SceneStyle) -> Image:
    """Light, glare, blur, noise and JPEG: what a webcam does to the table."""
    h, w = img.shape[:2]
    # White balance and exposure.
    img = img * rng.uniform(0.88, 1.12, 3).astype(np.float32)[None, None, :]
    img = img * rng.uniform(0.6, 1.3) + rng.uniform(-20, 20)
    if rng.random() < style.glare_prob:
        glare = np.zeros((h, w), np.float32)
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        ax = (int(rng.uniform(0.03, 0.2) * w), int(rng.uniform(0.02, 0.12) * w))
        cv2.ellipse(glare, c, ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        glare = cv2.GaussianBlur(glare, (0, 0), max(ax) / 3 + 1)
        img = img + glare[..., None] * rng.uniform(60, 200)
    img = np.clip(img, 0, 255)
    gamma = rng.uniform(0.75, 1.3)
    img = 255.0 * (img / 255.0) ** gamma
    if rng.random() < style.blur_prob:
        if rng.random() < 0.7:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.6))
        else:  # motion blur
            k = int(rng.integers(3, 9))
            kernel = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1.0 / k
            rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1)
            kernel = cv2.warpAffine(kernel, rot, (k, k))
            kernel /= max(kernel.sum(), 1e-6)
            img = cv2.filter2D(img, -1, kernel)
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < style.jpeg_prob:
        q = int(rng.integers(30, 95))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def compose_scene(
    rng: np.random.Generator,
    *,
    cards: Sequence[str] | None = None,
    size: tuple[int, int] = (480, 640),
    style: SceneStyle | None = None,
    edition: str | None = None,
    bank: CardBank | None = None,
) -> Scene:
    """Render one table scene of ``size`` (height, width) with ``cards`` (random if None).

    Cards are drawn in order, so the last one is on top of the pile. Every placed
    card is returned, with the fraction of its area left visible after the cards and
    hands drawn over it (0 when it is hidden or out of the frame).
    """
    style = style or SceneStyle()
    oh, ow = size
    names = list(cards) if cards is not None else random_cards(rng, int(rng.integers(1, 9)))
    plane_hw = (oh, ow)
    ph, pw = plane_hw
    canvas = render_table(ph, pw, rng).astype(np.float32)
    if rng.random() < style.distractor_prob:
        _distractors(canvas, rng)
    owner = np.full((ph, pw), -1, np.int16)
    light = rng.uniform(0, 2 * math.pi)
    shadow_len = rng.uniform(0.5, 4.0)
    shadow = (
        shadow_len * math.cos(light),
        shadow_len * math.sin(light),
        float(rng.uniform(0.1, 0.45)),
    )
    placed = _layout(rng, names, plane_hw, style)
    areas: list[int] = []
    for i, (name, quad) in enumerate(placed):
        cw = float(np.linalg.norm(quad[1] - quad[0]))
        # Render a little larger than shown so that the warp only ever shrinks.
        fw = max(24, int(cw * 1.25))
        if bank is not None:
            face = bank.face(name, fw)
        else:
            face = render_card(name, rng=rng, edition=edition, width=fw)
        areas.append(_paste(canvas, owner, face, quad, i, shadow))
    if rng.random() < style.hand_prob and placed:
        for _ in range(int(rng.integers(1, 3))):
            target = placed[int(rng.integers(len(placed)))][1]
            tip = target.mean(axis=0) + rng.normal(0, 0.3, 2) * np.linalg.norm(
                target[1] - target[0]
            )
            edge = rng.integers(4)
            start = [
                (rng.uniform(0, pw), -20.0),
                (rng.uniform(0, pw), ph + 20.0),
                (-20.0, rng.uniform(0, ph)),
                (pw + 20.0, rng.uniform(0, ph)),
            ][int(edge)]
            fw = float(np.linalg.norm(target[1] - target[0])) * rng.uniform(0.18, 0.3)
            before = canvas.astype(np.uint8)
            hand_img = before.copy()
            draw_hand(hand_img, (float(tip[0]), float(tip[1])), start, rng, fw)
            covered = np.any(hand_img != before, axis=2)
            canvas[covered] = hand_img[covered].astype(np.float32)
            owner[covered] = -2
    hmat = _camera(rng, plane_hw, (oh, ow), style.perspective)
    warped = cv2.warpPerspective(
        canvas, hmat, (ow, oh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    owner_img = cv2.warpPerspective(owner, hmat, (ow, oh), flags=cv2.INTER_NEAREST, borderValue=-1)
    image = _photograph(warped, rng, style)
    result: list[PlacedCard] = []
    for i, (name, quad) in enumerate(placed):
        pts = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float32), hmat)
        corners = pts.reshape(4, 2).astype(np.float32)
        area = abs(float(cv2.contourArea(corners)))
        seen = int((owner_img == i).sum())
        visible = min(1.0, seen / area) if area > 1 and areas[i] > 0 else 0.0
        result.append(PlacedCard(name, corners, visible))
    return Scene(image, result)


def crop_card(image: Image, corners: Corners, size: int = 96) -> Image:
    """The card inside ``corners`` warped upright onto a ``size`` x ``size`` square.

    The 2:3 card is stretched to a square on purpose: the classifier always sees
    the same geometry, and nothing is lost to a centre crop.
    """
    dst = np.float32([(0, 0), (size, 0), (size, size), (0, size)])
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    return cv2.warpPerspective(
        image, m, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )
