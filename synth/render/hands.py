"""Skin-coloured hands and fingers reaching over the table, to occlude cards.

>>> import numpy as np
>>> canvas = np.full((120, 160, 3), 200, np.uint8)
>>> draw_hand(canvas, (80, 60), (160, 120), np.random.default_rng(1), 18)
>>> bool((canvas != 200).any())
True
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

# BGR skin tones from very light to very dark.
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (189, 214, 244),
    (160, 195, 234),
    (130, 170, 220),
    (105, 145, 198),
    (80, 115, 170),
    (55, 85, 135),
    (40, 60, 95),
    (30, 45, 70),
)


def draw_hand(
    canvas_bgr: Image,
    tip_xy: tuple[float, float],
    from_xy: tuple[float, float],
    rng: np.random.Generator,
    width_px: float,
) -> None:
    """Paint, in place, an arm and hand reaching from ``from_xy`` with a fingertip at ``tip_xy``.

    ``width_px`` is a finger's width; the palm is about four fingers wide and the arm
    a little narrower. Shading darkens the outline so the hand reads as a solid object.
    """
    h, w = canvas_bgr.shape[:2]
    tip = np.array(tip_xy, np.float32)
    start = np.array(from_xy, np.float32)
    vec = tip - start
    length = float(np.linalg.norm(vec))
    if length < 1.0:
        return
    d = vec / length
    n = np.array([-d[1], d[0]], np.float32)
    fw = max(2.0, float(width_px))
    tone = _skin_tone(rng)

    mask = np.zeros((h, w), np.uint8)
    finger_len = fw * rng.uniform(2.5, 4.0)
    palm_c = tip - d * (finger_len + fw * 1.6)
    # Arm: a quadrilateral from the start to the wrist.
    wrist = palm_c - d * fw * 1.8
    arm_w = fw * rng.uniform(1.4, 1.9)
    arm = np.array(
        [start + n * arm_w * 1.2, wrist + n * arm_w, wrist - n * arm_w, start - n * arm_w * 1.2]
    )
    cv2.fillPoly(mask, [np.round(arm).astype(np.int32)], 255, cv2.LINE_AA)
    # Palm: a rotated ellipse.
    ang = math.degrees(math.atan2(float(d[1]), float(d[0])))
    cv2.ellipse(
        mask,
        (int(palm_c[0]), int(palm_c[1])),
        (int(fw * 2.0), int(fw * 2.2)),
        ang,
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
    )
    # Pointing finger to the tip, plus some curled neighbours.
    base = palm_c + d * fw * 1.2
    cv2.line(
        mask,
        tuple(np.round(base).astype(int)),
        tuple(np.round(tip).astype(int)),
        255,
        int(fw),
        cv2.LINE_AA,
    )
    for k in range(int(rng.integers(0, 4))):
        side = 1 if k % 2 == 0 else -1
        off = n * fw * (1.0 + (k // 2)) * side
        flen = finger_len * rng.uniform(0.3, 0.8)
        p0 = base + off
        p1 = p0 + (d * math.cos(0.3 * side) + n * math.sin(0.3 * side) * side) * flen
        cv2.line(
            mask,
            tuple(np.round(p0).astype(int)),
            tuple(np.round(p1).astype(int)),
            255,
            int(fw * 0.95),
            cv2.LINE_AA,
        )
    if rng.random() < 0.6:  # thumb
        side = 1 if rng.random() < 0.5 else -1
        p0 = palm_c + n * fw * 1.6 * side
        p1 = p0 + (d * 0.6 + n * 0.8 * side) * finger_len * 0.8
        cv2.line(
            mask,
            tuple(np.round(p0).astype(int)),
            tuple(np.round(p1).astype(int)),
            255,
            int(fw * 1.1),
            cv2.LINE_AA,
        )

    _paint(canvas_bgr, mask, tone, rng, fw)


def _skin_tone(rng: np.random.Generator) -> npt.NDArray[np.float32]:
    tone = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)
    return np.clip(tone * rng.uniform(0.85, 1.1) + rng.normal(0, 6, 3), 0, 255)


def _paint(
    canvas_bgr: Image,
    mask: npt.NDArray[np.uint8],
    tone: npt.NDArray[np.float32],
    rng: np.random.Generator,
    fw: float,
) -> None:
    """Blend the skin ``tone`` into ``canvas_bgr`` where ``mask`` is set, shaded."""
    h, w = canvas_bgr.shape[:2]
    soft = mask.astype(np.float32) / 255
    # Rim darkening: distance to the hand's edge, so the middle looks lit.
    dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.7 + 0.3 * np.clip(dist / (fw * 0.8), 0, 1)
    texture = 1.0 + rng.normal(0, 0.02, (h, w)).astype(np.float32)
    color = tone[None, None, :] * (shade * texture)[..., None]
    a = soft[..., None]
    out = canvas_bgr.astype(np.float32) * (1 - a) + color * a
    canvas_bgr[...] = np.clip(out, 0, 255).astype(np.uint8)


def draw_covering_hand(
    canvas_bgr: Image,
    center_xy: tuple[float, float],
    angle_deg: float,
    card_wh: tuple[float, float],
    from_xy: tuple[float, float],
    rng: np.random.Generator,
    width_px: float,
) -> None:
    """Paint, in place, a hand lying flat on a card, its arm reaching from ``from_xy``.

    The palm and the fingers cover the whole card (``card_wh`` wide and long, centred
    on ``center_xy``, turned by ``angle_deg`` as ``cv2.getRotationMatrix2D`` turns
    it); the fingertips reach past its far end, away from the arm.

    >>> canvas = np.full((200, 200, 3), 200, np.uint8)
    >>> draw_covering_hand(canvas, (100, 100), 0, (40, 60), (100, 260), np.random.default_rng(2), 8)
    >>> bool((canvas[75:125, 85:115] != 200).all(axis=2).all())
    True
    """
    h, w = canvas_bgr.shape[:2]
    c = np.array(center_xy, np.float32)
    start = np.array(from_xy, np.float32)
    vec = c - start
    length = float(np.linalg.norm(vec))
    if length < 1.0:
        return
    d = vec / length  # from the arm towards the fingertips
    n = np.array([-d[1], d[0]], np.float32)
    fw = max(2.0, float(width_px))
    tone = _skin_tone(rng)
    mask = np.zeros((h, w), np.uint8)
    cw, ch = card_wh
    # The palm over the card: the card's rectangle, a little larger.
    a = math.radians(-angle_deg)
    ax = np.array([math.cos(a), math.sin(a)], np.float32)
    ay = np.array([-math.sin(a), math.cos(a)], np.float32)
    hx, hy = cw * 0.58, ch * 0.56
    palm = np.array(
        [c - ax * hx - ay * hy, c + ax * hx - ay * hy, c + ax * hx + ay * hy, c - ax * hx + ay * hy]
    )
    cv2.fillPoly(mask, [np.round(palm).astype(np.int32)], 255, cv2.LINE_AA)
    # Fingers past the far end, side by side.
    reach = max(cw, ch) * 0.5
    for k in range(4):
        off = n * fw * (k - 1.5) * 1.05
        p0 = c + off
        p1 = c + off + d * (reach + fw * rng.uniform(0.8, 2.0))
        cv2.line(
            mask,
            tuple(np.round(p0).astype(int)),
            tuple(np.round(p1).astype(int)),
            255,
            int(fw),
            cv2.LINE_AA,
        )
    # The arm, from outside to the wrist at the card's near end.
    wrist = c - d * reach * 0.8
    arm_w = fw * rng.uniform(1.6, 2.1)
    arm = np.array(
        [start + n * arm_w * 1.2, wrist + n * arm_w, wrist - n * arm_w, start - n * arm_w * 1.2]
    )
    cv2.fillPoly(mask, [np.round(arm).astype(np.int32)], 255, cv2.LINE_AA)
    _paint(canvas_bgr, mask, tone, rng, fw)
