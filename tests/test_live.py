"""The live loop end to end: a rendered game video -> watcher -> tracker -> store -> pages.

The recogniser here is the renderer's oracle (the true boxes of each frame), so that
these tests check the wiring in seconds; the trained model has its own tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask

from synth.video import OracleDetector, RenderResult, render_video, script_game
from tracker import Game, preset
from uno_table.live import LiveRunner, build_app
from web.store import Store, StoredEvent

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "live-token"
#: Seconds the loop may take over a short video (the oracle), with a real model, and
#: to find a video missing.
RUN_S = 120.0
LONG_RUN_S = 300.0
MISSING_VIDEO_S = 60.0


def wrong_opening(video: RenderResult) -> list[dict[str, Any]]:
    """The video's deal, then a starter flipped that the video does not show."""
    return [untimed(video.truth[0]), {"type": "flip", "card": "red-0"}]


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> RenderResult:
    out = tmp_path_factory.mktemp("video") / "game.mp4"
    log = script_game(np.random.default_rng(0), ["Ann", "Bob"], turns=4)
    return render_video(log, out, seed=0)


def wait_until_done(runner: LiveRunner, timeout: float = RUN_S) -> None:
    assert runner._thread is not None
    runner._thread.join(timeout)
    assert not runner._thread.is_alive(), "the live loop did not finish the video"


def untimed(event: dict[str, Any]) -> dict[str, Any]:
    """``event`` without its time: what the tracker and the store keep."""
    return {k: v for k, v in event.items() if k != "t"}


def start_live(video: RenderResult, tmp_path: Path, **options: Any) -> tuple[Flask, LiveRunner]:
    """The live loop over ``video`` (not in real time) on a fresh database, started;
    the recogniser is the renderer's oracle unless ``options`` say otherwise."""
    settings: dict[str, Any] = {
        "layout": str(video.layout_path),
        "recognizer": OracleDetector(video.boxes_path, drop=0.0, mislabel=0.0),
        "opening": [untimed(video.truth[0])],
        **options,
    }
    app, runner = build_app(
        source=str(video.path),
        players=["Ann", "Bob"],
        rules="official",
        db=str(tmp_path / "live.db"),
        token=TOKEN,
        realtime=False,
        **settings,
    )
    assert runner is not None
    return app, runner


def run_live(
    video: RenderResult, tmp_path: Path, timeout: float = RUN_S, **options: Any
) -> tuple[Flask, LiveRunner]:
    """:func:`start_live`, run to the end of the video."""
    app, runner = start_live(video, tmp_path, **options)
    wait_until_done(runner, timeout)
    return app, runner


def stored_events(app: Flask) -> list[StoredEvent]:
    store = Store.open(app.config["DATABASE"])
    return store.stored_events(app.extensions["uno_table"]["service"].match.id)


def true_game(video: RenderResult) -> Game:
    game, _ = Game.replay([untimed(e) for e in video.truth], preset("official"))
    return game


def test_video_to_stored_events_and_live_pages(video: RenderResult, tmp_path: Path) -> None:
    opening = untimed(video.truth[0])
    app, runner = start_live(video, tmp_path)
    sub = app.extensions["uno_table"]["broker"].subscribe()
    wait_until_done(runner)

    # Every event the camera saw is stored with its verdict, after the referee's deal.
    stored = stored_events(app)
    assert stored[0].source == "system" and stored[0].event == opening
    vision_events = [s.event for s in stored[1:]]
    assert all(s.source == "vision" for s in stored[1:])
    assert vision_events[0] == {"type": "flip", "card": video.truth[1]["card"]}
    # The game the camera followed ends where the true game ends (a pass is not seen).
    seen = app.test_client().get("/api/state").json["game"]
    for key in ("top", "color", "hands", "direction"):
        assert seen[key] == true_game(video).state_json()[key], key

    # Every page heard each of them, in order.
    heard = []
    while (message := sub.get(timeout=0.1)) is not None:
        heard.append(json.loads(message.data))
    assert [m["n"] for m in heard] == [s.n for s in stored[1:]]
    assert {m["source"] for m in heard} == {"vision"}

    # The video shows the last frame, boxed; /healthz says the file has ended.
    n, jpeg = runner.frame_jpeg() or (0, b"")
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (480, 640, 3) and n == video.frames - 1
    health = app.test_client().get("/healthz").json
    assert health["camera"]["state"] == "ended"
    assert health["recognition"]["available"] is True
    assert runner.frames_processed == video.frames


def test_scripted_rulings_complete_the_game(video: RenderResult, tmp_path: Path) -> None:
    """With the referee's rulings (here: the pass) the followed game is the true one."""
    app, _ = run_live(video, tmp_path, referee_script=video.truth[1:])
    stored = stored_events(app)
    rulings = [s.event for s in stored if s.source == "referee"]
    assert rulings == [untimed(e) for e in video.truth if e["type"] == "pass"]
    assert all(s.verdict["ok"] for s in stored)
    assert app.test_client().get("/api/state").json["game"] == true_game(video).state_json()


def test_a_refused_play_is_told_to_the_watcher(video: RenderResult, tmp_path: Path) -> None:
    """When the tracker refuses the camera's plays, taking those cards back is no undo."""
    app, _ = run_live(
        video,
        tmp_path,
        # The referee flipped a different starter: the camera's blue plays don't match it.
        opening=wrong_opening(video),
        # The bare tracker: the healer would take the camera's pile for the truth.
        heal=False,
    )
    stored = stored_events(app)
    refused = [s for s in stored if s.source == "vision" and not s.verdict["ok"]]
    assert any(s.event["type"] == "play" for s in refused)
    assert all(s.verdict["alerts"] for s in refused)
    # The video retracts two plays; both were refused, so neither became an undo.
    assert [s.event for s in stored if s.event["type"] == "undo"] == []


def test_the_camera_view_of_the_pile_heals_a_misread_starter(
    video: RenderResult, tmp_path: Path
) -> None:
    """The same wrong starter, healed: the camera's plays are explained, not refused."""
    app, _ = run_live(video, tmp_path, opening=wrong_opening(video))
    stored = stored_events(app)
    inferred = [s for s in stored if s.source == "inferred"]
    assert any(s.event.get("inferred") for s in inferred)
    # The refused starter costs at most one question per play it blocks until the
    # camera's view of the pile explains it (bare: every camera play refused); since
    # a card creeping to rest waits for it to stop (fifth pass), the view of the pile
    # comes first and corrects the starter to the card the camera saw, unasked.
    asked = [a for s in stored for a in s.verdict["alerts"] if a["code"] == "ask-referee"]
    assert len(asked) <= 2
    true_flip = next(e["card"] for e in video.truth if e["type"] == "flip")
    flips = [s.event for s in inferred if s.event["type"] == "flip"]
    assert flips and flips[-1]["card"] == true_flip
    last = max(i for i, s in enumerate(stored) if s.source == "inferred")
    later = [s for s in stored[last:] if s.source == "vision"]
    assert later and all(s.verdict["ok"] and not s.verdict["alerts"] for s in later)


def test_without_a_model_the_video_plays_and_health_says_so(
    video: RenderResult, tmp_path: Path
) -> None:
    empty_models = tmp_path / "models"
    empty_models.mkdir()
    app, runner = run_live(
        video, tmp_path, layout=None, recognizer=None, opening=None, models_dir=str(empty_models)
    )
    health = app.test_client().get("/healthz").json
    assert health["status"] == "degraded"
    assert health["recognition"]["available"] is False
    assert "no card model" in health["recognition"]["message"]
    assert health["camera"]["state"] == "ended"
    assert runner.frames_processed == video.frames
    frame = runner.frame_jpeg()
    assert frame is not None and frame[1][:2] == b"\xff\xd8"
    assert app.test_client().get("/api/state").json["n"] == 0  # no events without a model


def test_a_missing_video_shows_in_health_and_the_game_goes_on(tmp_path: Path) -> None:
    app, runner = build_app(
        source=str(tmp_path / "no-such-video.mp4"),
        players=["Ann", "Bob"],
        rules="official",
        db=str(tmp_path / "live.db"),
        token=TOKEN,
    )
    assert runner is not None
    wait_until_done(runner, MISSING_VIDEO_S)
    client = app.test_client()
    health = client.get("/healthz").json
    assert health["camera"]["state"] == "error"
    assert "no such video file" in health["camera"]["message"]
    assert health["recognition"]["available"] is False
    response = client.post(
        "/api/events",
        json={"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"},
        headers={"X-Referee-Token": TOKEN},
    )
    assert response.status_code == 200 and response.json["verdict"]["ok"]
    video = client.get("/video.mjpg", buffered=False)
    first = next(iter(video.response))
    video.close()
    assert b"image/jpeg" in first  # the placeholder


def test_seat_cards_are_read_from_where_cards_lie(tmp_path: Path) -> None:
    from vision.calibration import TableLayout
    from vision.detections import Detections

    runner = LiveRunner("unused.mp4", ["Ann", "Bob", "Cy", "Dee"])
    layout = TableLayout.default(640, 480, 4)
    ann_x, ann_y = layout.seat_anchor(0, 0.8)
    cy_x, cy_y = layout.seat_anchor(2, 0.8)
    cx, cy = layout.discard.center
    detections = Detections.from_list(
        [
            ("red-1", 0.9, (ann_x - 20, ann_y - 30, ann_x + 20, ann_y + 30)),
            ("wild", 0.8, (ann_x + 25, ann_y - 30, ann_x + 65, ann_y + 30)),
            ("blue-skip", 0.9, (cy_x - 20, cy_y - 30, cy_x + 20, cy_y + 30)),
            ("green-5", 0.9, (cx - 20, cy - 30, cx + 20, cy + 30)),  # the discard pile
            ("back", 0.9, (cy_x - 20, cy_y + 35, cy_x + 20, cy_y + 95)),
        ]
    )
    runner._update_seat_cards(detections, layout)
    assert runner.seat_cards() == {
        "Ann": ["red-1", "wild"],
        "Bob": [],
        "Cy": ["blue-skip"],
        "Dee": [],
    }


def read_until(proc: subprocess.Popen[str], prefix: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    seen = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if line.startswith(prefix):
            return line.split(": ", 1)[1].strip()
    raise AssertionError(f"no {prefix!r} line; output:\n{''.join(seen)}")


@pytest.mark.slow
def test_demo_serves_at_once(tmp_path: Path) -> None:
    """``uno-table demo`` answers within seconds, before its video even exists."""
    env = {**os.environ, "UNO_TABLE_CACHE": str(tmp_path / "cache"), "UNO_TABLE_TOKEN": TOKEN}
    proc = subprocess.Popen(
        [sys.executable, "-m", "uno_table", "demo", "--port", "0", "--db", str(tmp_path / "d.db")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        url = read_until(proc, "Spectators", 60)
        with urllib.request.urlopen(url + "healthz", timeout=20) as response:
            health: dict[str, Any] = json.loads(response.read())
        assert health["camera"]["state"] == "starting"  # still rendering its video
        with urllib.request.urlopen(url + "api/state", timeout=20) as response:
            state = json.loads(response.read())
        assert state["match"]["players"] == ["Ann", "Bob", "Cy", "Dee"]
        assert state["game"]["in_round"] is False  # dealt once the video is ready
        assert state["match"]["id"] == 1
    finally:
        proc.kill()
        proc.wait(10)


@pytest.mark.slow
def test_the_trained_model_in_the_loop(tmp_path: Path) -> None:
    """The committed recogniser, loaded offline, drives the same loop end to end."""
    from web.events import validate_event

    out = tmp_path / "short.mp4"
    log = script_game(np.random.default_rng(1), ["Ann", "Bob"], turns=1)
    short = render_video(log, out, seed=1)
    app, runner = run_live(short, tmp_path, LONG_RUN_S, recognizer=None)
    health = app.test_client().get("/healthz").json
    assert health["recognition"]["available"] is True, health["recognition"]
    assert health["recognition"]["backend"] in ("openvino", "onnx", "torch")
    assert health["status"] == "degraded"  # the file has ended
    assert runner.frames_processed == short.frames
    stored = stored_events(app)
    for s in stored[1:]:
        assert s.source == "vision"
        assert validate_event(s.event) == s.event  # a well-formed DESIGN.md event
        assert "ok" in s.verdict and "state" in s.verdict
