"""Many plausible views of one card photo, for fitting a deck head on few photos.

One photo per face is too few to fit anything; the camera at the table will see
the card smaller, blurred, in other light, boxed a little off. :func:`augmented_crops`
cuts ``n`` upright crops of the card at ``quad`` the way the recogniser would, each
with the box moved, the card shrunk, the light, white balance, focus, noise and
JPEG changed at random, half of them turned half a turn.

>>> rng = np.random.default_rng(0)
>>> img = np.full((200, 140, 3), 200, np.uint8)
>>> quad = np.float32([(20, 20), (120, 20), (120, 170), (20, 170)])
>>> augmented_crops(img, quad, 4, 96, rng).shape
(4, 96, 96, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition import warp_crop

Image = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Augment:
    """Ranges of the random changes (fractions of the card's width, or factors)."""

    corner_jitter: float = 0.04  # each corner moved by up to this share of the width (s.d.)
    min_side: int = 22  # the crop shrunk to a side between this and the crop size
    brightness: float = 0.35  # gain in [1 - b, 1 + b]
    white_balance: float = 0.15  # per-channel gain in [1 - w, 1 + w]
    saturation: float = 0.35  # saturation gain in [1 - s, 1 + s]
    gamma: float = 0.35  # gamma in [1 - g, 1 + g]
    blur_prob: float = 0.4
    noise_sd: float = 6.0  # grey levels (s.d., drawn up to this)
    jpeg_quality: tuple[int, int] = (35, 95)
    # Changes of the domain (another camera, light, table, detector), off by default:
    rotate: float = 0.0  # the box turned by up to this many degrees either way
    scale: float = 0.0  # the box grown or shrunk by a factor in [1 - s, 1 + s]
    shift: float = 0.0  # the box moved by up to this share of its width and height
    background_prob: float = 0.0  # the photo around the card replaced by a random table
    haze: float = 0.0  # blended towards a light colour by up to this share (washed out)
    contrast: float = 0.0  # contrast gain in [1 - c, 1 + c] around the mean
    shade: float = 0.0  # light falling off across the card by up to this share
    hue: float = 0.0  # hue turned by up to this many degrees either way


def jitter_quad(rng: np.random.Generator, quad: F32, amount: float) -> F32:
    """Each corner moved by a normal draw of ``amount`` of the card's width (s.d.)."""
    w = float(np.linalg.norm(quad[1] - quad[0]))
    return (quad + rng.normal(0.0, amount * w, quad.shape)).astype(np.float32)


def moved_quad(rng: np.random.Generator, quad: F32, aug: Augment) -> F32:
    """``quad`` turned by up to ``aug.rotate`` degrees, scaled by up to ``aug.scale``
    and shifted by up to ``aug.shift`` of its sides, about its centre (the box another
    detector, camera or hand would give); unchanged when all three are 0.

    >>> q = np.float32([(0, 0), (10, 0), (10, 20), (0, 20)])
    >>> bool(np.allclose(moved_quad(np.random.default_rng(0), q, Augment()), q))
    True
    """
    if not (aug.rotate or aug.scale or aug.shift):
        return quad
    c = quad.mean(axis=0)
    a = np.radians(rng.uniform(-aug.rotate, aug.rotate))
    k = rng.uniform(1 - aug.scale, 1 + aug.scale)
    rot = k * np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    w = float(np.linalg.norm(quad[1] - quad[0]))
    h = float(np.linalg.norm(quad[3] - quad[0]))
    move = rng.uniform(-aug.shift, aug.shift, 2) * np.array([w, h])
    return ((quad - c) @ rot.T + c + move).astype(np.float32)


def random_table(rng: np.random.Generator, size: int) -> Image:
    """A random table top: a plain colour with a gradient, stripes (wood, cloth) and
    noise."""
    base = rng.uniform(0, 255, 3)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    a = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(a) * xx + np.sin(a) * yy)[..., None] * rng.uniform(-60, 60)
    stripes = np.sin(xx * rng.uniform(5, 60) + yy * rng.uniform(-20, 20))[..., None]
    img = (
        base
        + ramp
        + stripes * rng.uniform(0, 30)
        + rng.normal(0, rng.uniform(0, 12), (size, size, 3))
    )
    return np.clip(img, 0, 255).astype(np.uint8)


def on_random_table(crop: Image, card: F32, rng: np.random.Generator) -> Image:
    """``crop`` with everything outside the polygon ``card`` (crop pixels) replaced by a
    :func:`random_table`."""
    size = crop.shape[0]
    mask = np.zeros((size, size), np.uint8)
    cv2.fillConvexPoly(mask, np.round(card).astype(np.int32), 255)
    mask = cv2.GaussianBlur(mask, (3, 3), 0).astype(np.float32)[..., None] / 255.0
    out = crop * mask + random_table(rng, size) * (1 - mask)
    return np.clip(out, 0, 255).astype(np.uint8)


def lighting(crop: Image, rng: np.random.Generator, aug: Augment) -> Image:
    """Haze, contrast, light falling off across the card and a turned hue, at random
    (nothing when those settings are 0)."""
    if not (aug.haze or aug.contrast or aug.shade or aug.hue):
        return crop
    x = crop.astype(np.float32)
    if aug.hue:
        hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(-aug.hue, aug.hue) / 2) % 180
        x = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    if aug.contrast:
        m = x.mean()
        x = m + (x - m) * rng.uniform(1 - aug.contrast, 1 + aug.contrast)
    if aug.haze:
        light = rng.uniform(180, 255, 3)
        t = rng.uniform(0, aug.haze)
        x = x * (1 - t) + light * t
    if aug.shade:
        size = crop.shape[0]
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size - 0.5
        a = rng.uniform(0, 2 * np.pi)
        ramp = 1 + (np.cos(a) * xx + np.sin(a) * yy) * 2 * rng.uniform(0, aug.shade)
        x = x * ramp[..., None]
    return np.clip(x, 0, 255).astype(np.uint8)


def photometric(crop: Image, rng: np.random.Generator, aug: Augment = Augment()) -> Image:
    """Light, white balance, saturation, focus, noise and compression changed at random."""
    size = crop.shape[0]
    side = int(rng.integers(aug.min_side, size + 1))
    if side < size:
        small = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)
        crop = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    crop = lighting(crop, rng, aug)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] *= rng.uniform(1 - aug.saturation, 1 + aug.saturation)
    crop = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR)
    x = crop.astype(np.float32) / 255.0
    x = x ** rng.uniform(1 - aug.gamma, 1 + aug.gamma)
    gains = rng.uniform(1 - aug.white_balance, 1 + aug.white_balance, 3)
    x = x * gains * rng.uniform(1 - aug.brightness, 1 + aug.brightness)
    out = np.clip(x * 255.0, 0, 255).astype(np.uint8)
    if rng.random() < aug.blur_prob:
        k = int(rng.choice([3, 5]))
        if rng.random() < 0.5:
            out = cv2.GaussianBlur(out, (k, k), 0)
        else:
            kernel = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1.0 / k
            angle = float(rng.uniform(0, 180))
            rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle, 1.0)
            kernel = cv2.warpAffine(kernel, rot, (k, k))
            kernel /= max(float(kernel.sum()), 1e-6)
            out = cv2.filter2D(out, -1, kernel)
    sd = rng.uniform(0, aug.noise_sd)
    if sd > 0.5:
        noisy = out.astype(np.float32) + rng.normal(0, sd, out.shape)
        out = np.clip(noisy, 0, 255).astype(np.uint8)
    quality = int(rng.integers(aug.jpeg_quality[0], aug.jpeg_quality[1] + 1))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def smear(crop: Image, length: float, angle_deg: float) -> Image:
    """``crop`` smeared along a line ``length`` pixels long at ``angle_deg`` (a card
    moving during the exposure, as the renderer's ``synth.styles.blur_card`` smears it);
    the border repeats the crop's edge. Under 1 pixel: the crop unchanged.

    >>> bar = np.zeros((9, 9, 3), np.uint8)
    >>> bar[:, 4] = 255
    >>> smear(bar, 5, 0)[4, 2:7, 0].tolist()  # a vertical bar smeared sideways
    [51, 51, 51, 51, 51]
    >>> int(smear(bar, 5, 90)[4, 4, 0])  # along itself: unchanged
    255
    """
    if length < 1.0:
        return crop
    k = int(np.ceil(length)) | 1
    kernel = np.zeros((k, k), np.float32)
    c = k // 2
    dx = 0.5 * (k - 1) * np.cos(np.radians(angle_deg))
    dy = 0.5 * (k - 1) * np.sin(np.radians(angle_deg))
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
    kernel /= max(float(kernel.sum()), 1e-6)
    return np.asarray(cv2.filter2D(crop, -1, kernel, borderType=cv2.BORDER_REPLICATE), np.uint8)


def augmented_crops(
    image: Image,
    quad: F32,
    n: int,
    size: int,
    rng: np.random.Generator,
    aug: Augment = Augment(),
) -> Image:
    """``n`` augmented upright ``size`` crops of the card at ``quad`` (TL TR BR BL)."""
    out = np.empty((n, size, size, 3), np.uint8)
    for i in range(n):
        q = jitter_quad(rng, moved_quad(rng, quad, aug), aug.corner_jitter) if i else quad
        crop = warp_crop(image, q, size)
        if i and aug.background_prob and rng.random() < aug.background_prob:
            to_crop = cv2.getPerspectiveTransform(
                q, np.float32([(0, 0), (size, 0), (size, size), (0, size)])
            )
            card = cv2.perspectiveTransform(quad[None].astype(np.float32), to_crop)[0]
            crop = on_random_table(crop, card, rng)
        crop = photometric(crop, rng, aug) if i else crop
        out[i] = crop[::-1, ::-1] if i % 2 else crop
    return out
