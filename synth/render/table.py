"""Generated table tops seen from above: wood, felt, cloth, laminate, patterned covers.

>>> import numpy as np
>>> t = render_table(48, 64, np.random.default_rng(0))
>>> t.shape, t.dtype.name
((48, 64, 3), 'uint8')
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
FloatImage = npt.NDArray[np.float32]

KINDS: tuple[str, ...] = ("wood", "felt", "cloth", "laminate", "pattern", "stone")


def smooth_noise(height: int, width: int, rng: np.random.Generator, scale: float) -> FloatImage:
    """Zero-mean, unit-ish noise whose blobs are about ``scale`` px wide."""
    gh = max(2, int(height / scale) + 2)
    gw = max(2, int(width / scale) + 2)
    small = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)


def _wood(h: int, w: int, rng: np.random.Generator) -> FloatImage:
    base = np.array(
        [rng.uniform(40, 120), rng.uniform(80, 160), rng.uniform(120, 210)], np.float32
    )  # BGR browns, light oak to walnut
    if rng.random() < 0.25:
        base *= rng.uniform(0.4, 0.7)  # dark stained wood
    # Rings: a sine of a coordinate warped by low-frequency noise, along a random axis.
    angle = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    v = -xx * np.sin(angle) + yy * np.cos(angle)
    warp = smooth_noise(h, w, rng, max(h, w) / 3) * rng.uniform(10, 40)
    freq = rng.uniform(0.05, 0.25)
    rings = np.sin((v + warp) * freq + 0.3 * np.sin(u * 0.01))
    grain = smooth_noise(h, w, rng, 2.0) * 0.25
    streak = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 1.0)
    # Streaks along the grain: blur hard along u only by rotating the noise field.
    m = cv2.getRotationMatrix2D((w / 2, h / 2), float(np.degrees(angle)), 1.0)
    streak = cv2.warpAffine(cv2.blur(streak, (41, 1)), m, (w, h), borderMode=cv2.BORDER_REFLECT)
    tone = 1.0 + 0.10 * rings + 0.05 * grain + 0.25 * streak
    img = base[None, None, :] * tone[..., None]
    if rng.random() < 0.5:  # planks
        n = int(rng.integers(2, 6))
        for k in range(1, n):
            pos = int(k * (h if np.sin(angle) < 0.7 else w) / n)
            if abs(np.sin(angle)) < 0.7:
                cv2.line(img, (0, pos), (w, pos), tuple(float(c) * 0.55 for c in base), 2)
            else:
                cv2.line(img, (pos, 0), (pos, h), tuple(float(c) * 0.55 for c in base), 2)
    return img


def _felt(h: int, w: int, rng: np.random.Generator) -> FloatImage:
    palette = [(40, 110, 30), (120, 60, 20), (40, 30, 130), (60, 60, 60), (90, 40, 70)]
    base = np.array(palette[int(rng.integers(len(palette)))], np.float32) * rng.uniform(0.6, 1.3)
    fine = rng.standard_normal((h, w)).astype(np.float32) * rng.uniform(4, 10)
    blotch = smooth_noise(h, w, rng, max(h, w) / 4) * rng.uniform(5, 15)
    return base[None, None, :] + (fine + blotch)[..., None]


def _cloth(h: int, w: int, rng: np.random.Generator) -> FloatImage:
    base = rng.uniform(60, 240, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(2.0, 4.0)
    weave = np.sin(xx * np.pi / period) * np.sin(yy * np.pi / period) * rng.uniform(4, 12)
    blotch = smooth_noise(h, w, rng, max(h, w) / 5) * 8
    return base[None, None, :] + (weave + blotch)[..., None]


def _laminate(h: int, w: int, rng: np.random.Generator) -> FloatImage:
    grey = rng.uniform(90, 235)
    tint = rng.normal(0, 8, 3).astype(np.float32)
    base = np.float32(grey) + tint
    speck = rng.standard_normal((h, w)).astype(np.float32) * rng.uniform(1, 6)
    return base[None, None, :] + (speck + smooth_noise(h, w, rng, w / 3) * 6)[..., None]


def _pattern(h: int, w: int, rng: np.random.Generator) -> FloatImage:
    c1 = rng.uniform(120, 250, 3).astype(np.float32)
    c2 = rng.uniform(20, 200, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cell = rng.uniform(12, 60)
    angle = rng.uniform(0, np.pi)
    u = xx * np.cos(angle) + yy * np.sin(angle)
    v = -xx * np.sin(angle) + yy * np.cos(angle)
    if rng.random() < 0.5:  # gingham / check
        a = (np.floor(u / cell) % 2).astype(np.float32)
        b = (np.floor(v / cell) % 2).astype(np.float32)
        mix = (a + b) / 2
    else:  # stripes
        mix = (np.floor(u / cell) % 2).astype(np.float32)
    mix = cv2.GaussianBlur(mix, (0, 0), 0.8)
    img = c1[None, None, :] * (1 - mix[..., None]) + c2[None, None, :] * mix[..., None]
    return img + rng.standard_normal((h, w, 1)).astype(np.float32) * 3


def _stone(h: int, w: int, rng: np.random.Generator) -> FloatImage:
    base = rng.uniform(100, 220, 3).astype(np.float32)
    veins = np.abs(smooth_noise(h, w, rng, w / 6) + 0.5 * smooth_noise(h, w, rng, w / 15))
    vein = np.clip(1 - veins * 4, 0, 1) * rng.uniform(20, 70)
    return base[None, None, :] - vein[..., None] + smooth_noise(h, w, rng, 4)[..., None] * 5


_MAKERS = {
    "wood": _wood,
    "felt": _felt,
    "cloth": _cloth,
    "laminate": _laminate,
    "pattern": _pattern,
    "stone": _stone,
}


def render_table(
    height: int, width: int, rng: np.random.Generator, kind: str | None = None
) -> Image:
    """A BGR table top of ``height`` x ``width`` px; ``kind`` one of ``KINDS`` (random if None).

    Lighting is uneven on purpose: a broad vignette and a brighter region where a lamp
    would be.
    """
    if height <= 0 or width <= 0:
        raise ValueError(f"table size must be positive, got {height}x{width}")
    if kind is None:
        kind = str(rng.choice(KINDS, p=[0.35, 0.15, 0.15, 0.15, 0.1, 0.1]))
    if kind not in _MAKERS:
        raise ValueError(f"unknown table kind {kind!r}; expected one of {', '.join(KINDS)}")
    img = _MAKERS[kind](height, width, rng)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    lx, ly = rng.uniform(0, width), rng.uniform(0, height)
    d = np.sqrt((xx - lx) ** 2 + (yy - ly) ** 2) / max(height, width)
    light = rng.uniform(0.75, 1.15) * (1.0 - rng.uniform(0.1, 0.45) * d)
    img = img * light[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)
