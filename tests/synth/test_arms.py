"""Arms as evidence (vision.hands): the seat of a play whose card a hand covered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from synth.video import OracleDetector, RenderResult, render_video, simulated_game
from vision.calibration import TableLayout
from vision.hands import ArmWatch
from vision.watcher import Watcher


@pytest.fixture(scope="module")
def covered(tmp_path_factory: pytest.TempPathFactory) -> RenderResult:
    log = simulated_game(31, players=4, turns=6, retract_prob=0.0)
    return render_video(
        log, tmp_path_factory.mktemp("arms") / "c.mp4", seed=31, style="covering-hand"
    )


def _watch(res: RenderResult, with_arms: bool) -> list[dict[str, Any]]:
    """The watcher's plays on the video, from true boxes, with or without arms."""
    layout = TableLayout.load(res.layout_path)
    watcher = Watcher(layout, res.players)
    arms = ArmWatch(layout)
    if with_arms:
        watcher.arms = arms
    oracle = OracleDetector(res.boxes_path, seed=3)
    cap = cv2.VideoCapture(str(res.path))
    events: list[dict[str, Any]] = []
    i = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        t = i / res.fps
        arms.update(np.asarray(frame), t)
        oracle.seek(i)
        events += [e for e in watcher.update(oracle.detect(frame), t) if e["type"] == "play"]
        i += 1
    return events


@pytest.mark.slow
def test_arms_give_the_seat_of_covered_plays(covered: RenderResult) -> None:
    truth = [e for e in covered.truth if e["type"] == "play"]
    without = _watch(covered, with_arms=False)
    with_arms = _watch(covered, with_arms=True)
    assert [e.get("card") for e in with_arms] == [e.get("card") for e in without]
    # The card is first seen on the pile: its way in tells no seat.
    assert sum(1 for e in without if e.get("player")) <= len(without) // 3
    # The arm that brought it does, and rightly.
    by_card = {e["card"]: e["player"] for e in truth if "card" in e}
    seated = [e for e in with_arms if e.get("player")]
    assert len(seated) >= 0.8 * len(with_arms) > 0
    assert all(by_card.get(e["card"], e["player"]) == e["player"] for e in seated)


def test_an_arm_from_the_left_edge_is_the_left_seat_and_a_card_alone_is_none(
    tmp_path: Path,
) -> None:
    layout = TableLayout.default(320, 240, 4)  # seats: bottom, left, top, right
    arms = ArmWatch(layout)
    table = np.full((240, 320, 3), 120, np.uint8)
    assert arms.update(table, 0.0) == []
    # A card appearing on the pile on its own, with no arm: no sighting.
    card = table.copy()
    card[100:140, 145:175] = (30, 30, 200)
    assert arms.update(card, 0.1) == []
    arm = card.copy()
    arm[110:130, 0:165] = (90, 140, 200)  # from the left edge to the pile
    seen = arms.update(arm, 0.2) + arms.update(arm, 0.3)
    assert [s.seat for s in seen] == [1, 1]
    assert arms.seat_for(0.25) == 1
    assert arms.seat_for(9.0) is None  # long after: nothing
