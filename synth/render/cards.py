"""Procedural UNO card faces: every canonical card, several editions, print wear.

Nothing is loaded from disk: each face is drawn with OpenCV primitives and Hershey
fonts, so training data can be made anywhere, offline. A face is a BGRA image whose
alpha is 0 outside the card's rounded corners.

>>> img = render_card("red-7", width=100)
>>> img.shape, img.dtype.name
((150, 100, 4), 'uint8')
>>> int(img[0, 0, 3]), int(img[75, 50, 3])
(0, 255)

Editions (``EDITIONS``):

- ``2018``: the current design: flat colours, thick black outlines, two-card Draw Two
  symbol, four-colour Wild oval (the deck of ``shared/data/real-cards``).
- ``classic``: the older design: symbols with an offset black drop shadow, ``WILD``
  lettering, serif digits.
- ``flat``: an off-brand style: no tilted oval but a white disc, sans digits, thin
  outlines, often different colour shades.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from synth.render.hands import draw_hand
from synth.render.table import render_table
from tracker.cards import COLORED_VALUES
from vision.labels import CARDS, COLORS, FACES

__all__ = [
    "CARDS",
    "COLORS",
    "EDITIONS",
    "FACES",
    "VALUES",
    "draw_hand",
    "render_card",
    "render_table",
]

Image = npt.NDArray[np.uint8]

VALUES: tuple[str, ...] = COLORED_VALUES
EDITIONS: tuple[str, ...] = ("2018", "classic", "flat")

# Base BGR colours per edition; the renderer jitters around them.
_PALETTES: dict[str, dict[str, tuple[int, int, int]]] = {
    "2018": {
        "red": (40, 30, 215),
        "yellow": (0, 205, 250),
        "green": (70, 160, 45),
        "blue": (205, 130, 0),
    },
    "classic": {
        "red": (35, 25, 200),
        "yellow": (10, 215, 245),
        "green": (60, 150, 30),
        "blue": (170, 90, 10),
    },
    "flat": {
        "red": (60, 50, 235),
        "yellow": (40, 220, 255),
        "green": (90, 185, 60),
        "blue": (220, 150, 40),
    },
}

_SS = 2  # supersampling factor: draw at twice the size, then shrink with INTER_AREA


def _parse(card: str) -> tuple[str | None, str]:
    """Split a canonical name into (colour or None, value)."""
    if card in ("wild", "wild-draw4", "back"):
        return None, card
    color, _, value = card.partition("-")
    if color not in COLORS or value not in VALUES:
        raise ValueError(f"unknown card name {card!r}; expected one of {', '.join(CARDS)}")
    return color, value


def _jitter(
    bgr: tuple[int, int, int], rng: np.random.Generator | None, amount: float, min_sat: int = 60
) -> tuple[int, int, int]:
    if rng is None:
        return bgr
    hsv = cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2HSV)[0, 0].astype(np.float32)
    hsv[0] = (hsv[0] + rng.normal(0, 3.0 * amount)) % 180
    hsv[1] = np.clip(hsv[1] * rng.uniform(1 - 0.15 * amount, 1 + 0.05 * amount), min_sat, 255)
    hsv[2] = np.clip(hsv[2] * rng.uniform(1 - 0.15 * amount, 1 + 0.08 * amount), 0, 255)
    out = cv2.cvtColor(hsv.astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_HSV2BGR)[0, 0]
    return (int(out[0]), int(out[1]), int(out[2]))


# ----------------------------------------------------------------------------- masks
# Every symbol is first drawn as a white-on-black mask in its own square, then stamped
# onto the card with a fill colour, an outline and a shadow. That keeps one code path
# for digits, icons and corner indices across editions.


def _text_mask(text: str, font: int, italic: bool, bold: float, underline: bool) -> Image:
    """A tight mask of ``text`` drawn with a Hershey font."""
    scale = 6.0
    thick = max(2, round(6 * bold))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    pad = thick * 2 + 10
    h, w = th + base + 2 * pad, tw + 2 * pad
    mask = np.zeros((h, w), np.uint8)
    cv2.putText(mask, text, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
    if underline:
        y = pad + th + max(6, thick)
        cv2.line(mask, (pad + tw // 6, y), (pad + tw - tw // 6, y), 255, max(4, thick))
    if italic:
        shear = 0.22
        m = np.float32([[1, -shear, shear * h], [0, 1, 0]])
        mask = cv2.warpAffine(mask, m, (w + int(shear * h), h))
    ys, xs = np.nonzero(mask > 20)
    if len(xs) == 0:
        return mask
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


def _skip_mask(size: int) -> Image:
    m = np.zeros((size, size), np.uint8)
    c = size // 2
    r = int(size * 0.40)
    t = int(size * 0.13)
    cv2.circle(m, (c, c), r, 255, t, cv2.LINE_AA)
    d = int(r * 0.72)
    cv2.line(m, (c - d, c + d), (c + d, c - d), 255, t, cv2.LINE_AA)
    return m


def _reverse_mask(size: int, curved: bool) -> Image:
    """Two arrows side by side pointing opposite ways along the rising diagonal."""
    m = np.zeros((size, size), np.uint8)
    s = size / 100.0
    # One arrow pointing up, centred at the origin: shaft then head (units of size/100).
    shaft_w, head_w = 8.0, 17.0
    up = np.array(
        [
            (-shaft_w, 44),
            (-shaft_w, -14),
            (-head_w, -14),
            (0, -46),
            (head_w, -14),
            (shaft_w, -14),
            (shaft_w, 44),
        ],
        np.float32,
    )
    if curved:  # the classic design bends the tails outwards
        up[0] = (-shaft_w - 8, 40)
        up[6] = (shaft_w - 8, 48)
    for sign in (1.0, -1.0):
        pts = up * np.float32([1, sign])  # the second arrow points down
        pts[:, 0] += 16 * sign  # side by side
        ang = math.radians(40)
        rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
        p = (pts @ rot.T) * s + size / 2
        cv2.fillPoly(m, [np.round(p).astype(np.int32)], 255, cv2.LINE_AA)
    return m


def _cards_icon(size: int, n: int) -> list[tuple[npt.NDArray[np.int32], int]]:
    """Polygons of ``n`` small overlapping tilted cards (Draw Two / Wild Draw Four)."""
    polys: list[tuple[npt.NDArray[np.int32], int]] = []
    cw, ch = size * 0.30, size * 0.46
    offsets = (
        [(-0.12, 0.10), (0.12, -0.10)]
        if n == 2
        else [
            (-0.20, 0.06),
            (-0.06, -0.10),
            (0.07, 0.10),
            (0.21, -0.06),
        ]
    )
    for i, (ox, oy) in enumerate(offsets):
        cx, cy = size / 2 + ox * size, size / 2 + oy * size
        rect = ((cx, cy), (cw, ch), 20.0)
        box = cv2.boxPoints(rect)
        polys.append((np.round(box).astype(np.int32), i))
    return polys


def _glyph_mask(value: str, edition: str, rng: np.random.Generator | None) -> Image:
    """The big centre symbol for a coloured card's value."""
    size = 400
    if value == "0":
        # Hershey's zero is slashed; UNO's is a plain oval ring.
        m = np.zeros((size, int(size * 0.7)), np.uint8)
        cv2.ellipse(
            m,
            (int(size * 0.35), size // 2),
            (int(size * 0.26), int(size * 0.42)),
            0,
            0,
            360,
            255,
            int(size * 0.13),
            cv2.LINE_AA,
        )
        if edition == "2018":
            shear = 0.2
            mat = np.float32([[1, -shear, shear * size], [0, 1, 0]])
            m = cv2.warpAffine(m, mat, (int(size * 0.7 + shear * size), size))
        return m
    if value.isdigit():
        font = {
            "2018": cv2.FONT_HERSHEY_DUPLEX,
            "classic": cv2.FONT_HERSHEY_TRIPLEX,
            "flat": cv2.FONT_HERSHEY_SIMPLEX,
        }[edition]
        if rng is not None and rng.random() < 0.25:
            font = int(
                rng.choice(
                    [
                        cv2.FONT_HERSHEY_SIMPLEX,
                        cv2.FONT_HERSHEY_DUPLEX,
                        cv2.FONT_HERSHEY_TRIPLEX,
                        cv2.FONT_HERSHEY_COMPLEX,
                    ]
                )
            )
        italic = edition != "flat"
        bold = 1.6 if edition != "flat" else 1.3
        if rng is not None:
            bold *= rng.uniform(0.85, 1.2)
        return _text_mask(value, font, italic, bold, underline=value in ("6", "9"))
    if value == "skip":
        return _skip_mask(size)
    if value == "reverse":
        return _reverse_mask(size, curved=edition == "classic")
    if value == "draw2":
        if edition == "flat":
            return _text_mask("+2", cv2.FONT_HERSHEY_SIMPLEX, False, 1.4, False)
        m = np.zeros((size, size), np.uint8)
        for poly, _ in _cards_icon(size, 2):
            cv2.fillPoly(m, [poly], 255, cv2.LINE_AA)
        return m
    raise ValueError(value)


def _corner_mask(value: str, edition: str) -> Image:
    """The small index printed in two corners."""
    font = cv2.FONT_HERSHEY_DUPLEX if edition != "classic" else cv2.FONT_HERSHEY_TRIPLEX
    if value == "0":
        return _glyph_mask("0", "flat" if edition == "flat" else "2018", None)
    if value.isdigit():
        return _text_mask(value, font, edition != "flat", 1.4, underline=value in ("6", "9"))
    if value == "skip":
        return _skip_mask(200)
    if value == "reverse":
        return _reverse_mask(200, curved=edition == "classic")
    if value == "draw2":
        return _text_mask("+2", font, edition != "flat", 1.4, False)
    if value == "wild-draw4":
        return _text_mask("+4", font, edition != "flat", 1.4, False)
    raise ValueError(value)


# ----------------------------------------------------------------------------- stamping


def _stamp(
    canvas: Image,
    mask: Image,
    center: tuple[float, float],
    height: float,
    *,
    fill: tuple[int, int, int],
    outline: int = 0,
    outline_color: tuple[int, int, int] = (0, 0, 0),
    shadow: tuple[int, int] = (0, 0),
    angle: float = 0.0,
    max_width: float | None = None,
) -> None:
    """Paint ``mask`` scaled to ``height`` px, centred at ``center``, rotated by ``angle``."""
    mh, mw = mask.shape
    scale = height / mh
    if max_width is not None and mw * scale > max_width:
        scale = max_width / mw
    m = cv2.getRotationMatrix2D((mw / 2, mh / 2), angle, scale)
    m[0, 2] += center[0] - mw / 2
    m[1, 2] += center[1] - mh / 2
    # Work on the bounding box of the stamp only: full-canvas warps dominate the cost.
    ch, cw = canvas.shape[:2]
    box = np.float32([(0, 0), (mw, 0), (mw, mh), (0, mh)]) @ m[:, :2].T + m[:, 2]
    pad = 2 * outline + abs(shadow[0]) + abs(shadow[1]) + 4
    x0 = max(0, int(box[:, 0].min()) - pad)
    y0 = max(0, int(box[:, 1].min()) - pad)
    x1 = min(cw, int(box[:, 0].max()) + pad + 1)
    y1 = min(ch, int(box[:, 1].max()) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return
    m[0, 2] -= x0
    m[1, 2] -= y0
    h, w = y1 - y0, x1 - x0
    roi = canvas[y0:y1, x0:x1]
    placed = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    layers: list[tuple[npt.NDArray[np.float32], tuple[int, int, int]]] = []
    if outline > 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * outline + 1, 2 * outline + 1))
        grown = cv2.dilate(placed, k)
        if shadow != (0, 0):
            sm = np.float32([[1, 0, shadow[0]], [0, 1, shadow[1]]])
            grown = np.maximum(grown, cv2.warpAffine(grown, sm, (w, h)))
        layers.append((grown, outline_color))
    elif shadow != (0, 0):
        sm = np.float32([[1, 0, shadow[0]], [0, 1, shadow[1]]])
        layers.append((cv2.warpAffine(placed, sm, (w, h)), outline_color))
    layers.append((placed, fill))
    for alpha, color in layers:
        a = alpha[..., None]
        roi[..., :3] = (roi[..., :3] * (1 - a) + np.float32(color) * a).astype(np.uint8)


def _rounded_rect(mask: Image, x0: int, y0: int, x1: int, y1: int, r: int, value: int) -> None:
    cv2.rectangle(mask, (x0 + r, y0), (x1 - r, y1), value, -1)
    cv2.rectangle(mask, (x0, y0 + r), (x1, y1 - r), value, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(mask, (cx, cy), r, value, -1, cv2.LINE_AA)


def _paint(canvas: Image, mask: Image, color: tuple[int, int, int]) -> None:
    x, y, w, h = cv2.boundingRect(mask)  # blend only where the mask is set
    if w == 0 or h == 0:
        return
    roi = canvas[y : y + h, x : x + w]
    a = (mask[y : y + h, x : x + w].astype(np.float32) / 255)[..., None]
    roi[..., :3] = (roi[..., :3] * (1 - a) + np.float32(color) * a).astype(np.uint8)


# ----------------------------------------------------------------------------- faces


def _wild_oval(
    canvas: Image,
    center: tuple[int, int],
    axes: tuple[int, int],
    angle: float,
    palette: dict[str, tuple[int, int, int]],
) -> None:
    """The four-colour oval of the Wild card (red, blue, yellow, green quadrants)."""
    h, w = canvas.shape[:2]
    oval = np.zeros((h, w), np.uint8)
    cv2.ellipse(oval, center, axes, angle, 0, 360, 255, -1, cv2.LINE_AA)
    quads = [("red", 180, 270), ("blue", 270, 360), ("green", 0, 90), ("yellow", 90, 180)]
    for name, a0, a1 in quads:
        q = np.zeros((h, w), np.uint8)
        cv2.ellipse(q, center, (axes[0] * 2, axes[1] * 2), angle, a0, a1, 255, -1)
        _paint(canvas, cv2.min(q, oval), palette[name])


def render_card(
    card: str,
    *,
    rng: np.random.Generator | None = None,
    edition: str | None = None,
    width: int = 200,
) -> Image:
    """Draw one card face (or ``back``) as a BGRA image of ``round(width*1.5)`` x ``width``.

    ``rng`` adds variation (colour shades, fonts, print wear, a random edition when
    ``edition`` is None); without it the result is deterministic (the 2018 edition).

    >>> render_card("wild", width=60).shape
    (90, 60, 4)
    >>> render_card("purple-3")
    Traceback (most recent call last):
    ...
    ValueError: unknown card name 'purple-3'; expected one of red-0, red-1, ...
    """
    if card not in CARDS:
        raise ValueError(f"unknown card name {card!r}; expected one of {', '.join(CARDS[:2])}, ...")
    if width < 16:
        raise ValueError(f"width must be at least 16 px, got {width}")
    if edition is None:
        edition = "2018" if rng is None else str(rng.choice(EDITIONS, p=[0.5, 0.3, 0.2]))
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}; expected one of {', '.join(EDITIONS)}")
    color, value = _parse(card)
    height = round(width * 1.5)
    W, H = width * _SS, height * _SS
    amount = 1.0 if rng is not None else 0.0
    palette = {k: _jitter(v, rng, 1.0) for k, v in _PALETTES[edition].items()}
    white = _jitter((245, 247, 248), rng, 0.3, min_sat=0)
    black = _jitter((25, 25, 25), rng, 0.3, min_sat=0)

    canvas = np.zeros((H, W, 4), np.uint8)
    canvas[..., :3] = white
    corner_r = int(W * 0.07)
    alpha = np.zeros((H, W), np.uint8)
    _rounded_rect(alpha, 0, 0, W - 1, H - 1, corner_r, 255)
    canvas[..., 3] = alpha

    margin = int(W * (0.06 + (rng.uniform(-0.01, 0.015) if rng is not None else 0.0)))
    inner = np.zeros((H, W), np.uint8)
    _rounded_rect(inner, margin, margin, W - 1 - margin, H - 1 - margin, int(W * 0.05), 255)
    base = black if color is None or card == "back" else palette[color]
    _paint(canvas, inner, base)

    cx, cy = W // 2, H // 2
    oval_angle = -60.0 + (rng.normal(0, 3) if rng is not None else 0.0)
    axes = (int(H * 0.40), int(W * 0.36))
    outline = max(2, int(W * 0.018))

    if card == "back":
        cv2.ellipse(
            canvas, (cx, cy), axes, oval_angle, 0, 360, (*palette["red"], 255), -1, cv2.LINE_AA
        )
        uno = _text_mask("UNO", cv2.FONT_HERSHEY_TRIPLEX, True, 1.8, False)
        _stamp(
            canvas,
            uno,
            (cx, cy),
            H * 0.22,
            fill=palette["yellow"],
            outline=outline,
            shadow=(-outline, outline),
            angle=25,
            max_width=W * 0.8,
        )
    elif value == "wild":
        if edition == "flat":
            cv2.circle(canvas, (cx, cy), int(W * 0.36), (*white, 255), -1, cv2.LINE_AA)
            _wild_oval(canvas, (cx, cy), (int(W * 0.32), int(W * 0.32)), 0, palette)
        else:
            _wild_oval(canvas, (cx, cy), axes, oval_angle, palette)
        if edition == "classic":
            word = _text_mask("WILD", cv2.FONT_HERSHEY_TRIPLEX, True, 1.3, False)
            _stamp(
                canvas,
                word,
                (cx, cy),
                H * 0.10,
                fill=white,
                outline=outline,
                angle=25,
                max_width=W * 0.6,
            )
        small_axes = (int(W * 0.09), int(W * 0.055))
        for pos, rot in (((W * 0.16, H * 0.10), 0.0), ((W * 0.84, H * 0.90), 180.0)):
            _wild_oval(canvas, (int(pos[0]), int(pos[1])), small_axes, oval_angle + rot, palette)
    else:
        # The white centre oval (a disc for the flat edition).
        if edition == "flat":
            cv2.circle(canvas, (cx, cy), int(W * 0.36), (*white, 255), -1, cv2.LINE_AA)
        else:
            cv2.ellipse(canvas, (cx, cy), axes, oval_angle, 0, 360, (*white, 255), -1, cv2.LINE_AA)
        shadow = (0, 0)
        if edition == "classic":
            shadow = (-int(W * 0.035), int(W * 0.035))
        if value == "wild-draw4":
            size = 400
            icon_h = H * 0.42
            for poly, i in _cards_icon(size, 4):
                m = np.zeros((size, size), np.uint8)
                cv2.fillPoly(m, [poly], 255, cv2.LINE_AA)
                fill = palette[("blue", "green", "red", "yellow")[i]]
                _stamp(canvas, m, (cx, cy), icon_h, fill=fill, outline=outline)
        elif value == "draw2" and edition != "flat":
            size = 400
            for poly, _i in _cards_icon(size, 2):
                m = np.zeros((size, size), np.uint8)
                cv2.fillPoly(m, [poly], 255, cv2.LINE_AA)
                _stamp(canvas, m, (cx, cy), H * 0.45, fill=base, outline=outline, shadow=shadow)
        else:
            glyph = _glyph_mask(value, edition, rng)
            gh = H * (0.42 if value.isdigit() else 0.36)
            _stamp(
                canvas,
                glyph,
                (cx, cy),
                gh,
                fill=base,
                outline=outline,
                shadow=shadow,
                max_width=W * 0.62,
            )
        corner = _corner_mask("wild-draw4" if value == "wild-draw4" else value, edition)
        ch = H * 0.085
        for pos, rot in (((W * 0.17, H * 0.095), 0.0), ((W * 0.83, H * 0.905), 180.0)):
            _stamp(
                canvas,
                corner,
                pos,
                ch,
                fill=white,
                outline=max(1, outline // 2),
                angle=rot,
                max_width=W * 0.22,
            )

    if rng is not None:
        canvas = _wear(canvas, rng, amount)
    out = cv2.resize(canvas, (width, height), interpolation=cv2.INTER_AREA)
    out[..., 3] = np.where(out[..., 3] > 127, 255, out[..., 3]).astype(np.uint8)
    return out


def _wear(canvas: Image, rng: np.random.Generator, amount: float) -> Image:
    """Print wear: a soft gloss gradient, faded edges, scratches and dirt specks."""
    h, w = canvas.shape[:2]
    rgb = canvas[..., :3].astype(np.float32)
    # Uneven ink and a gloss gradient across the card.
    gx, gy = rng.normal(0, 0.08 * amount, 2)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grad = 1.0 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    rgb *= grad[..., None]
    if rng.random() < 0.5:
        # Worn edges: lighten a thin band along the border.
        band = np.zeros((h, w), np.uint8)
        t = int(w * rng.uniform(0.005, 0.02)) + 1
        cv2.rectangle(band, (0, 0), (w - 1, h - 1), 255, t)
        band_f = cv2.GaussianBlur(band, (0, 0), t).astype(np.float32)[..., None] / 255
        rgb = rgb * (1 - 0.5 * band_f) + 230 * 0.5 * band_f
    for _ in range(int(rng.integers(0, 6))):
        p0 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        p1 = (p0[0] + int(rng.normal(0, w * 0.15)), p0[1] + int(rng.normal(0, w * 0.15)))
        shade = float(rng.uniform(180, 255))
        cv2.line(rgb, p0, p1, (shade, shade, shade), 1, cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 10))):
        p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        v = float(rng.uniform(0, 90))
        cv2.circle(rgb, p, int(rng.integers(1, 3)), (v, v, v), -1)
    canvas = canvas.copy()
    canvas[..., :3] = np.clip(rgb, 0, 255).astype(np.uint8)
    return canvas
