"""The table's light evened out before the recogniser reads a frame (vision.exposure)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from synth.video import render_video, simulated_game
from vision.calibration import TableLayout
from vision.detector import CardRecognizer
from vision.exposure import LightBalance
from vision.pipeline import detect_at_pile
from vision.source import read_video


def test_a_card_white_in_a_warm_dim_light_comes_back_white() -> None:
    table = np.full((120, 160, 3), (20, 30, 45), np.uint8)
    table[40:80, 60:90] = (95, 115, 140)  # a card's white under a warm lamp at half light
    gains = LightBalance().gains(table)
    assert gains[0] > gains[1] > gains[2] > 1.0  # blue lifted most: the lamp is warm
    balanced = LightBalance()(table)
    assert np.abs(balanced[60, 75].astype(int) - 235).max() <= 1
    assert balanced[0, 0, 0] == round(20 * 235 / 95)  # the table lifted as much as the white


def test_a_well_lit_frame_is_read_as_it_comes() -> None:
    frame = np.full((60, 80, 3), (60, 90, 120), np.uint8)
    frame[20:40, 30:50] = (238, 240, 236)
    assert LightBalance()(frame) is frame


def test_a_frame_with_nothing_white_is_lifted_at_most_max_gain_and_never_darkened() -> None:
    night = np.full((60, 80, 3), 10, np.uint8)
    assert LightBalance().gains(night) == pytest.approx([1 / 0.35] * 3)
    assert LightBalance()(night)[0, 0, 0] == round(10 / 0.35)
    glare = np.full((60, 80, 3), 255, np.uint8)
    assert LightBalance().gains(glare) == pytest.approx([1.0] * 3)


def _read_after(
    rec: CardRecognizer, video: Path, card: str, t0: float, span: float
) -> tuple[int, int]:
    """Frames from ``t0`` to ``t0 + span`` in which ``card`` lies at least 60% uncovered,
    and of those, the frames in which the recogniser boxes it with its name."""
    layout = TableLayout.load(str(video) + ".layout.json")
    lines = Path(str(video) + ".boxes.jsonl").read_text().splitlines()
    truth = [json.loads(line) for line in lines]
    seen = read = 0
    for frame in read_video(video):
        if not t0 <= frame.t < t0 + span:
            continue
        boxes = [b for name, vis, b in truth[frame.index]["cards"] if name == card and vis >= 0.6]
        if not boxes:
            continue
        seen += 1
        x1, y1, x2, y2 = boxes[0]
        dets = detect_at_pile(rec, frame.image, layout)
        for name, (a1, b1, a2, b2) in zip(dets.card, dets.xyxy, strict=True):
            if name == card and x1 <= (a1 + a2) / 2 <= x2 and y1 <= (b1 + b2) / 2 <= y2:
                read += 1
                break
    return seen, read


@pytest.mark.slow
def test_in_a_dim_warm_light_a_played_card_is_boxed_with_the_light_evened_out(
    tmp_path: Path,
) -> None:
    # The tuning style dim-slide-22fps (0.47 of the house light, a warm lamp, slid
    # cards with blur at 22 frames/s), the styles benchmark's game 602: Bob's yellow
    # draw-2 (played at 16.5 s) was never boxed in the 2 s after it landed, and the
    # watcher lost the play; with the light evened out it is boxed and read. Detector
    # fine-tune 7 (4 December 2026, trained on frames of randomised styles, dim ones
    # among them) boxes it in most frames as they come too (19 of 26): the balance
    # reads it at least as often.
    log = simulated_game(602, players=5, turns=12, retract_prob=0.08)
    res = render_video(log, tmp_path / "dim.mp4", seed=602, style="dim-slide-22fps")
    (t_play,) = [float(e["t"]) for e in res.truth if e.get("card") == "yellow-draw2"]
    rec = CardRecognizer.load(use_deck=False)
    seen, balanced = _read_after(rec, Path(res.path), "yellow-draw2", t_play, 2.0)
    rec.light_balance = None
    seen_again, as_it_comes = _read_after(rec, Path(res.path), "yellow-draw2", t_play, 2.0)
    assert seen == seen_again >= 20
    assert balanced >= 0.8 * seen
    assert balanced >= as_it_comes
