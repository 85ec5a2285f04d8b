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
    tone = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)
    tone = np.clip(tone * rng.uniform(0.85, 1.1) + rng.normal(0, 6, 3), 0, 255)

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

    soft = mask.astype(np.float32) / 255
    # Rim darkening: distance to the hand's edge, so the middle looks lit.
    dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.7 + 0.3 * np.clip(dist / (fw * 0.8), 0, 1)
    texture = 1.0 + rng.normal(0, 0.02, (h, w)).astype(np.float32)
    color = tone[None, None, :] * (shade * texture)[..., None]
    a = soft[..., None]
    out = canvas_bgr.astype(np.float32) * (1 - a) + color * a
    canvas_bgr[...] = np.clip(out, 0, 255).astype(np.uint8)
