"""Synthetic game videos: the files, the ground truth, the oracle, the demo video."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from synth.video import (
    OracleDetector,
    RenderResult,
    ensure_demo_video,
    render_video,
    script_game,
    simulated_game,
)
from vision.calibration import TableLayout
from vision.source import read_video


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> RenderResult:
    log = simulated_game(11, players=3, turns=6, retract_prob=0.5)
    return render_video(log, tmp_path_factory.mktemp("synth") / "g.mp4", seed=11)


def test_video_and_its_files_are_written(rendered: RenderResult) -> None:
    frames = list(read_video(rendered.path))
    assert len(frames) == rendered.frames
    assert frames[0].image.shape == (480, 640, 3)
    assert cv2.VideoCapture(str(rendered.path)).get(cv2.CAP_PROP_FPS) == pytest.approx(30)
    boxes = [json.loads(line) for line in rendered.boxes_path.read_text().splitlines()]
    assert [b["i"] for b in boxes] == list(range(rendered.frames))
    layout = TableLayout.load(rendered.layout_path)
    assert layout.names == ("Ann", "Bob", "Cy")
    assert not list(rendered.path.parent.glob("*.part*")), "no half-written files left"


def test_truth_log_is_timed_and_matches_the_script(rendered: RenderResult) -> None:
    truth = [json.loads(line) for line in rendered.truth_path.read_text().splitlines()]
    assert truth == rendered.truth
    assert truth[0]["type"] == "round" and truth[1]["type"] == "flip"
    times = [e["t"] for e in truth]
    assert times == sorted(times)
    assert max(times) < rendered.frames / rendered.fps
    assert any(e["type"] == "undo" for e in truth)  # retract_prob=0.5 made some


def test_a_card_is_in_the_boxes_where_the_truth_says_it_rests(rendered: RenderResult) -> None:
    oracle = OracleDetector(rendered.boxes_path, drop=0.0, mislabel=0.0, jitter_px=0.0)
    layout = TableLayout.load(rendered.layout_path)
    for ev in rendered.truth:
        if ev["type"] != "play" or "card" not in ev:
            continue
        i = round(ev["t"] * rendered.fps) + 3
        oracle.seek(i)
        dets = oracle.detect(np.zeros((1, 1, 3), np.uint8))
        on_pile = [
            d.card for d in dets if layout.discard.contains(*d.center, margin=layout.card_px / 2)
        ]
        assert ev["card"] in on_pile


def test_each_card_s_corners_lie_on_its_box(rendered: RenderResult) -> None:
    lines = rendered.boxes_path.read_text().splitlines()
    n_cards = 0
    for line in lines[::10]:
        frame = json.loads(line)
        assert len(frame["quads"]) == len(frame["cards"])
        for (_name, _vis, box), quad in zip(frame["cards"], frame["quads"], strict=True):
            q = np.array(quad)
            assert q.shape == (4, 2)
            side = np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)
            assert 1.3 <= side.max() / side.min() <= 1.7  # a card's 2:3 rectangle
            # The box is the corners' upright box, clipped to the frame.
            x1, y1 = np.clip(q.min(0), 0, [640, 480])
            x2, y2 = np.clip(q.max(0), 0, [640, 480])
            assert np.allclose(box, [x1, y1, x2, y2], atol=0.2)
            n_cards += 1
    assert n_cards > 20


def test_frames_show_cards_and_hands(rendered: RenderResult) -> None:
    # Frame-to-frame differences: something moves (hands, cards), and the picture is
    # noisy like a camera (two frames of a still table are never identical).
    frames = [
        f.image.astype(np.int16) for _, f in zip(range(90), read_video(rendered.path), strict=False)
    ]
    diffs = [float(np.abs(b - a).mean()) for a, b in itertools.pairwise(frames)]
    assert min(diffs) > 0.5
    assert max(diffs) > 3 * min(diffs)


def test_simulated_game_names_every_actor() -> None:
    log = simulated_game(4, players=4, turns=12)
    assert log[0]["type"] == "round"
    acts = [e for e in log if e["type"] in ("play", "draw")]
    assert len(acts) == 12 + sum(1 for e in log if e["type"] == "undo")
    assert all(e.get("player") in log[0]["players"] for e in acts)


def test_script_game_and_bad_logs() -> None:
    log = script_game(np.random.default_rng(2), ["A", "B"], turns=3)
    assert log[0] == {"type": "round", "players": ["A", "B"], "dealer": "A"}
    with pytest.raises(ValueError, match="round"):
        render_video([{"type": "flip", "card": "red-1"}], Path("never.mp4"))


def test_demo_video_is_rendered_once_and_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNO_TABLE_CACHE", str(tmp_path))
    demo = ensure_demo_video(turns=2, seed=5)
    assert demo.path.exists() and demo.truth_path.exists()
    assert demo.players == ["Ann", "Bob", "Cy", "Dee"]
    stamp = demo.path.stat().st_mtime_ns
    again = ensure_demo_video(turns=2, seed=5)
    assert again.path == demo.path and again.path.stat().st_mtime_ns == stamp
