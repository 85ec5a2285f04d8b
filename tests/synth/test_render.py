"""The synthetic renderer: faces, tables, hands, scenes and the YOLO dataset writers."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from synth.render import CARDS, EDITIONS, FACES, draw_hand, render_card, render_table
from synth.render.dataset import (
    write_classifier_dataset,
    write_detection_dataset,
    write_photo_dataset,
)
from synth.render.scene import compose_scene
from synth.render.table import KINDS
from vision.geometry import order_card_corners, rect_corners, warp_crop


def test_there_are_54_faces_and_a_back() -> None:
    assert len(FACES) == 54 and len(set(FACES)) == 54
    # The classifier's class order (the models were trained with it): tracker.cards's.
    values = (*(str(n) for n in range(10)), "skip", "reverse", "draw2")
    colors = ("red", "yellow", "green", "blue")
    trained_order = (*(f"{c}-{v}" for c in colors for v in values), "wild", "wild-draw4")
    assert trained_order == FACES
    assert CARDS[-1] == "back" and "wild-draw4" in FACES and "blue-draw2" in FACES


@pytest.mark.parametrize("card", CARDS)
def test_every_card_renders_with_transparent_corners(card: str) -> None:
    img = render_card(card, width=60)
    assert img.shape == (90, 60, 4) and img.dtype == np.uint8
    assert img[0, 0, 3] == 0 and img[-1, -1, 3] == 0  # rounded corners
    assert (img[10:-10, 10:-10, 3] == 255).all()  # opaque inside


@pytest.mark.parametrize("edition", EDITIONS)
def test_editions_differ_and_are_deterministic_without_rng(edition: str) -> None:
    a = render_card("green-reverse", edition=edition, width=80)
    b = render_card("green-reverse", edition=edition, width=80)
    assert np.array_equal(a, b)
    other = render_card("green-reverse", edition="flat" if edition != "flat" else "2018", width=80)
    assert not np.array_equal(a, other)


def test_card_colours_are_right() -> None:
    import cv2

    # The coloured band just inside the white edge carries the card colour (OpenCV hue).
    hues = {"red": (170, 181), "yellow": (20, 35), "green": (45, 80), "blue": (95, 125)}
    for color, (lo, hi) in hues.items():
        img = render_card(f"{color}-5", width=100)
        band = img[30:120, 8:12, :3].reshape(-1, 3).mean(axis=0).astype(np.uint8)
        hue = int(cv2.cvtColor(band.reshape(1, 1, 3), cv2.COLOR_BGR2HSV)[0, 0, 0])
        hue = hue + 180 if color == "red" and hue < 10 else hue
        assert lo <= hue <= hi, (color, hue)
    wild = render_card("wild", width=100)
    assert wild[30:120, 8:12, :3].mean() < 60  # black card


def test_random_variation_changes_the_face() -> None:
    rng = np.random.default_rng(0)
    a = render_card("red-3", rng=rng, edition="2018")
    b = render_card("red-3", rng=rng, edition="2018")
    assert a.shape == b.shape and not np.array_equal(a, b)


def test_bad_names_and_editions_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown card"):
        render_card("purple-3")
    with pytest.raises(ValueError, match="unknown edition"):
        render_card("red-3", edition="1971")


@pytest.mark.parametrize("kind", KINDS)
def test_tables(kind: str) -> None:
    t = render_table(60, 80, np.random.default_rng(1), kind)
    assert t.shape == (60, 80, 3) and t.dtype == np.uint8 and t.std() > 1


def test_hand_paints_from_the_edge_to_the_tip() -> None:
    canvas = np.zeros((200, 200, 3), np.uint8)
    draw_hand(canvas, (100, 100), (200, 180), np.random.default_rng(2), 14)
    painted = canvas.any(axis=2)
    assert painted[100, 100] and painted[175, 190]
    assert not painted[20, 20]


def test_scene_reports_cards_and_visibility() -> None:
    rng = np.random.default_rng(5)
    scene = compose_scene(rng, cards=["red-1", "blue-2", "back"], size=(240, 320))
    assert scene.image.shape == (240, 320, 3)
    assert [c.card for c in scene.cards] == ["red-1", "blue-2", "back"]
    for c in scene.cards:
        assert c.corners.shape == (4, 2) and 0.0 <= c.visible <= 1.0
    # The last card is drawn last: nothing covers it but hands.
    assert scene.cards[-1].visible > 0.3 or scene.cards[-1].xyxy[0] < 0


def test_corner_ordering_makes_portrait_cards() -> None:
    pts = np.float32([(10, 10), (70, 10), (70, 100), (10, 100)])
    for shift in range(4):
        out = order_card_corners(np.roll(pts, shift, axis=0))
        assert np.linalg.norm(out[1] - out[0]) < np.linalg.norm(out[2] - out[1])
        assert out[0, 1] + out[1, 1] <= out[2, 1] + out[3, 1]
    # A landscape card becomes portrait too.
    land = np.float32([(0, 0), (90, 0), (90, 60), (0, 60)])
    r = rect_corners(land)
    assert np.linalg.norm(r[1] - r[0]) == pytest.approx(60, abs=1)


def test_detection_dataset_is_in_obb_format(tmp_path: Path) -> None:
    yaml_path = write_detection_dataset(tmp_path, n_train=3, n_val=1, size=(96, 128), seed=4)
    text = yaml_path.read_text()
    assert "names:" in text and "0: card" in text and "1: back" in text
    labels = sorted((tmp_path / "labels" / "train").glob("*.txt"))
    assert len(labels) == 3 and len(list((tmp_path / "images" / "train").glob("*.jpg"))) == 3
    rows = [line.split() for f in labels for line in f.read_text().splitlines()]
    assert rows, "some card must be labelled"
    for row in rows:
        assert row[0] in ("0", "1") and len(row) == 9
        assert all(0.0 <= float(v) <= 1.0 for v in row[1:])


def test_dense_pile_scenes_bury_all_but_the_top_cards() -> None:
    import dataclasses

    from synth.render.dataset import _style

    rng = np.random.default_rng(6)
    buried = 0
    for _ in range(4):
        style = dataclasses.replace(_style(rng, 0.0, 1.0), hand_prob=0.0, distractor_prob=0.0)
        assert style.pile_share > 0.8
        scene = compose_scene(rng, cards=["red-1"] * 8, size=(240, 320), style=style)
        visible = [c.visible for c in scene.cards]
        buried += sum(v < 0.3 for v in visible)
        assert visible[-1] > 0.9  # the last card put down lies whole on top
    assert buried >= 8  # most of the 32 cards are under others: not labelled


def test_photo_dataset_shows_large_framed_cards(tmp_path: Path) -> None:
    write_photo_dataset(tmp_path, n_train=6, n_val=1, seed=2, long_side=160)
    images = sorted((tmp_path / "images" / "train").glob("*.jpg"))
    assert len(images) == 6 and len(list((tmp_path / "images" / "val").glob("*.jpg"))) == 1
    shapes = {cv2.imread(str(p)).shape[:2] for p in images}
    assert shapes <= {(160, 120), (120, 160)}
    for img in images:
        rows = [
            line.split()
            for line in (tmp_path / "labels" / "train" / f"{img.stem}.txt").read_text().splitlines()
        ]
        assert rows, "every photo shows a card"
        # The largest card covers a good part of the picture (unlike a table scene).
        areas = [cv2.contourArea(np.array(r[1:], np.float32).reshape(4, 2)) for r in rows]
        assert max(areas) > 0.04


def test_classifier_dataset_has_a_folder_per_face(tmp_path: Path) -> None:
    faces = ("red-7", "wild", "blue-skip")
    write_classifier_dataset(tmp_path, n_train=2, n_val=1, seed=3, crop=32, faces=faces)
    for split, n in (("train", 2), ("val", 1)):
        assert sorted(p.name for p in (tmp_path / split).iterdir()) == sorted(faces)
        for f in faces:
            crops = list((tmp_path / split / f).glob("*.jpg"))
            assert len(crops) == n
            img = cv2.imread(str(crops[0]))
            assert img is not None and img.shape == (32, 32, 3)


def test_warp_crop_of_a_large_card_is_not_aliased() -> None:
    # A card 600 pixels tall printed with one-pixel stripes: cut to 64 pixels, the
    # stripes must average to grey, not alias into coarse bands.
    image = np.zeros((700, 500, 3), np.uint8)
    image[::2] = 255
    corners = np.float32([(50, 50), (450, 50), (450, 650), (50, 650)])
    crop = warp_crop(image, corners, 64)
    assert crop.shape == (64, 64, 3)
    assert abs(float(crop.mean()) - 127.5) < 12 and float(crop.std()) < 20
    # A card near the crop's size is warped directly, stripes and all.
    small = warp_crop(image, np.float32([(0, 0), (64, 0), (64, 64), (0, 64)]), 64)
    assert float(small.std()) > 100
