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


def jitter_quad(rng: np.random.Generator, quad: F32, amount: float) -> F32:
    """Each corner moved by a normal draw of ``amount`` of the card's width (s.d.)."""
    w = float(np.linalg.norm(quad[1] - quad[0]))
    return (quad + rng.normal(0.0, amount * w, quad.shape)).astype(np.float32)


def photometric(crop: Image, rng: np.random.Generator, aug: Augment = Augment()) -> Image:
    """Light, white balance, saturation, focus, noise and compression changed at random."""
    size = crop.shape[0]
    side = int(rng.integers(aug.min_side, size + 1))
    if side < size:
        small = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)
        crop = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
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
        q = jitter_quad(rng, quad, aug.corner_jitter) if i else quad
        crop = warp_crop(image, q, size)
        crop = photometric(crop, rng, aug) if i else crop
        out[i] = crop[::-1, ::-1] if i % 2 else crop
    return out
