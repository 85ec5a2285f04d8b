"""The changes of a calibration's crops that move the domain (vision.deck_augment):
another box, another table, another light; none of them when switched off."""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck_augment import Augment, augmented_crops, lighting, moved_quad, on_random_table

SIZE = 96
#: A card (a red square with a white disc) lying on a black table in a 300 x 300 photo.
QUAD = np.float32([(100, 100), (200, 100), (200, 200), (100, 200)])


def _photo() -> np.ndarray:
    img = np.zeros((300, 300, 3), np.uint8)
    img[100:200, 100:200] = (40, 40, 220)
    cv2.circle(img, (150, 150), 30, (255, 255, 255), -1)
    return img


def test_switched_off_the_domain_changes_draw_the_same_crops_as_before() -> None:
    """Augment() makes the crops it made before the domain changes existed: same random
    draws, same pixels (their settings at 0 draw nothing)."""
    a = augmented_crops(_photo(), QUAD, 6, SIZE, np.random.default_rng(3))
    off = Augment(rotate=0, scale=0, shift=0, background_prob=0, haze=0, shade=0, hue=0)
    b = augmented_crops(_photo(), QUAD, 6, SIZE, np.random.default_rng(3), off)
    assert np.array_equal(a, b)
    on = augmented_crops(_photo(), QUAD, 6, SIZE, np.random.default_rng(3), Augment(rotate=10))
    assert not np.array_equal(a[1:], on[1:])
    assert np.array_equal(a[0], on[0])  # the first crop is always the photo as it is


def test_the_box_is_turned_scaled_and_shifted_within_its_ranges() -> None:
    rng = np.random.default_rng(0)
    aug = Augment(rotate=15, scale=0.2, shift=0.1)
    for _ in range(200):
        q = moved_quad(rng, QUAD, aug)
        edge = q[1] - q[0]
        angle = np.degrees(np.arctan2(edge[1], edge[0]))
        assert abs(angle) <= 15 + 1e-3
        assert 0.8 * 100 - 1e-3 <= np.linalg.norm(edge) <= 1.2 * 100 + 1e-3
        assert np.all(np.abs(q.mean(0) - QUAD.mean(0)) <= 0.1 * 100 + 1e-3)


def test_a_random_table_replaces_the_photo_around_the_card_only() -> None:
    """The card is zoomed out so the black table shows; on a random table the pixels
    outside the card are no longer black, and the card's own pixels are unchanged."""
    crop = np.zeros((SIZE, SIZE, 3), np.uint8)
    crop[24:72, 24:72] = (40, 40, 220)
    card = np.float32([(24, 24), (72, 24), (72, 72), (24, 72)])
    rng = np.random.default_rng(1)
    tables = [on_random_table(crop, card, rng) for _ in range(5)]
    for out in tables:
        assert np.array_equal(out[30:66, 30:66], crop[30:66, 30:66])
    outside = np.stack([t[:16].reshape(-1, 3).mean(0) for t in tables])
    assert outside.max() > 20  # not black: the table was replaced
    assert np.ptp(outside, axis=0).max() > 10  # and each time another table


def test_haze_washes_the_card_out_and_shade_darkens_one_side() -> None:
    crop = np.full((SIZE, SIZE, 3), (40, 40, 220), np.uint8)
    rng = np.random.default_rng(2)
    hazed = [lighting(crop, rng, Augment(haze=0.5)) for _ in range(20)]
    sat = [cv2.cvtColor(h, cv2.COLOR_BGR2HSV)[..., 1].mean() for h in hazed]
    base_sat = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)[..., 1].mean()
    assert max(sat) <= base_sat and min(sat) < 0.85 * base_sat
    shaded = lighting(np.full((SIZE, SIZE, 3), 128, np.uint8), rng, Augment(shade=0.5))
    assert np.ptp(shaded.astype(int)) > 5  # light falls off across the card
    assert np.array_equal(lighting(crop, rng, Augment()), crop)  # off: unchanged
