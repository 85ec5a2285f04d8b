"""Labelling the detector's own boxes for the classifier (heaps, video frames), and
game video frames for the detector."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from synth.render.scene import PlacedCard
from synth.training import heap_label, write_video_cut_crops, write_video_frame_dataset
from vision.yolo_env import MODELS_DIR


def card(
    name: str, cx: float, cy: float, visible: float, w: float = 50, h: float = 76
) -> PlacedCard:
    corners = np.array(
        [
            [cx - w / 2, cy - h / 2],
            [cx + w / 2, cy - h / 2],
            [cx + w / 2, cy + h / 2],
            [cx - w / 2, cy + h / 2],
        ],
        np.float32,
    )
    return PlacedCard(name, corners, visible)


def box(x1: float, y1: float, x2: float, y2: float) -> np.ndarray:
    return np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)


def test_a_box_around_a_heap_is_labelled_with_its_top_card() -> None:
    pile = [
        card("red-3", 100, 100, 0.2),
        card("blue-4", 108, 96, 0.3),
        card("green-7", 104, 104, 1.0),
    ]
    heap = box(70, 55, 140, 145)  # looser than the top card, holding the cards under it
    assert heap_label(heap, pile).card == "green-7"


def test_a_box_holding_two_whole_cards_or_none_has_no_label() -> None:
    fan = [card("red-3", 100, 100, 0.9), card("blue-4", 140, 100, 1.0)]
    assert heap_label(box(70, 55, 170, 145), fan) is None
    buried = [card("red-3", 100, 100, 0.2), card("blue-4", 300, 300, 1.0)]
    assert heap_label(box(70, 55, 140, 145), buried) is None


def test_a_box_barely_touching_the_top_card_has_no_label() -> None:
    pile = [card("red-3", 100, 100, 0.3), card("green-7", 104, 104, 1.0)]
    assert heap_label(box(40, 20, 260, 260), pile) is None  # mostly table


def test_video_crops_are_labelled_with_the_cards_of_the_game(tmp_path: Path) -> None:
    from synth.video import simulated_game

    n = write_video_cut_crops(tmp_path, MODELS_DIR, 1, seed=9000, turns=3, every=5, imgsz=32)
    log = simulated_game(9000, players=3 + 9000 % 3, turns=3, retract_prob=0.08)
    played = {c for e in log for c in (e.get("cards") or [e.get("card")]) if c}
    faces = {p.parent.name for p in (tmp_path / "train").glob("*/*.jpg")}
    assert n == len(list((tmp_path / "train").glob("*/*.jpg"))) and n > 0
    assert faces <= played, faces - played


def test_video_frames_are_labelled_with_every_card_mostly_in_view(tmp_path: Path) -> None:
    import json

    import cv2

    from synth.video import render_video, simulated_game

    yaml_path = write_video_frame_dataset(tmp_path, 1, 1, seed=9100, turns=3, every=10)
    assert "train: images/train" in yaml_path.read_text()
    images = sorted((tmp_path / "images" / "train").glob("*.jpg"))
    assert images and list((tmp_path / "images" / "val").glob("*.jpg"))
    # The same game rendered again: its frames' cards, from the renderer.
    log = simulated_game(9100, players=3 + 9100 % 3, turns=3, retract_prob=0.08)
    res = render_video(log, tmp_path / "again.mp4", seed=9100)
    truth = res.boxes_path.read_text().splitlines()
    for img_path in images:
        frame = json.loads(truth[int(img_path.stem.split("_")[1])])
        lines = (tmp_path / "labels" / "train" / f"{img_path.stem}.txt").read_text().split("\n")
        labels = [line.split() for line in lines if line]
        wanted = [(n, v) for n, v, _ in frame["cards"] if v >= 0.3]
        assert len(labels) == len(wanted)
        assert sorted(int(x[0]) for x in labels) == sorted(int(n == "back") for n, _ in wanted)
        h, w = cv2.imread(str(img_path)).shape[:2]
        for x in labels:
            pts = np.array(x[1:], float).reshape(4, 2)
            assert ((pts >= 0) & (pts <= 1)).all()
            assert cv2.contourArea((pts * [w, h]).astype(np.float32)) > 100
