"""Video styles: each renders, and differs from the house look only as its name says."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from synth.styles import (
    FLOOR_BGR,
    HELD_OUT_STYLES,
    STYLES,
    TUNING_STYLES,
    VideoStyle,
    get_style,
)
from synth.video import RenderResult, render_video, simulated_game
from uno_table.cli import main
from vision.calibration import TableLayout
from vision.hands import ArmWatch
from vision.source import read_video

# The house look, seed 7, game below: its decoded frames and files, rendered by the
# renderer before styles existed (commit 66d4717). House must stay frame for frame.
HOUSE_FRAMES = 234
#: Its frames' fingerprints (:func:`frame_fingerprint`), from a render identical to that
#: commit's on the machine that made it (frame hash 5ee23618...96575 there).
HOUSE_FRAMES_FILE = Path(__file__).with_name("data") / "house-frames-16x12.npz"
#: Grey levels (0-255) the fingerprint cells may differ by on another machine: 99 in 100
#: of them at most this much, and on average over all. (Rendered with OpenCV 4.14 instead
#: of 5.1: 99th percentile 5, mean 0.21, one cell in a few frames up to 22, where a moving
#: edge is drawn a pixel aside; the dim-warm style instead: mean 73.)
FINGERPRINT_P99_DIFF = 8
FINGERPRINT_MEAN_DIFF = 0.5
HOUSE_FILES_SHA = {
    "boxes.jsonl": "ce33bab3d2acd6c938d3ba2bb78e1b78ab08285dc955559b311c9669f2486d21",
    "truth.jsonl": "08c144a983f1360c66e9b2ed0f4532dae92cd6f0eb398e7aad231edae1d93591",
    "layout.json": "88524f3ee8f2d0fff11f090a91db2ab3d968dc28874dd88e8e0c825debc969d6",
}


def _game() -> list[dict[str, Any]]:
    return simulated_game(7, players=3, turns=3, retract_prob=0.3)


@pytest.fixture(scope="module")
def videos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, RenderResult]:
    """The same game and seed in every style, rendered on first use."""
    folder = tmp_path_factory.mktemp("styles")
    cache: dict[str, RenderResult] = {}

    class Lazy(dict[str, RenderResult]):
        def __missing__(self, name: str) -> RenderResult:
            cache[name] = render_video(_game(), folder / f"{name}.mp4", seed=7, style=name)
            self[name] = cache[name]
            return cache[name]

    return Lazy()


def frame_fingerprint(video: Path) -> np.ndarray:
    """Each decoded frame of ``video`` in grey, shrunk to 16x12 cells (area average)."""
    return np.stack(
        [
            cv2.resize(
                cv2.cvtColor(f.image, cv2.COLOR_BGR2GRAY), (16, 12), interpolation=cv2.INTER_AREA
            )
            for f in read_video(video)
        ]
    )


def _boxes(res: RenderResult) -> list[dict[str, Any]]:
    return [json.loads(line) for line in res.boxes_path.read_text().splitlines()]


def _plays(res: RenderResult) -> list[dict[str, Any]]:
    return [e for e in res.truth if e["type"] == "play" and "card" in e]


def _seen(res: RenderResult, card: str, t0: float, t1: float, min_visible: float) -> list[Any]:
    """Boxes of ``card`` at least ``min_visible`` uncovered in frames from t0 to t1."""
    return [
        c
        for f in _boxes(res)
        if t0 <= f["t"] < t1
        for c in f["cards"]
        if c[0] == card and c[1] >= min_visible
    ]


def test_every_style_is_named_and_in_one_group_and_changes_what_it_says() -> None:
    assert set(TUNING_STYLES) | set(HELD_OUT_STYLES) == set(STYLES)
    assert not set(TUNING_STYLES) & set(HELD_OUT_STYLES)
    assert "house" in TUNING_STYLES
    changed = {name: set(s.changes()) for name, s in STYLES.items()}
    assert changed == {
        "house": set(),
        "covering-hand": {"hold"},
        "slide": {"entry"},
        "drop": {"entry", "motion_blur"},
        "webcam-15fps": {"fps", "motion_blur", "noise"},
        "high-tilted": {"camera_height", "tilt_deg"},
        "dim-warm": {"light_level", "white_balance"},
        "messy-pile": {"pile_offset", "pile_angle"},
        "player-speeds": {"player_speed_spread"},
        "webcam-20fps": {"fps", "motion_blur", "noise"},
        "scattered-pile": {"pile_offset", "pile_angle"},
        "low-drop": {"entry", "motion_blur", "drop_scale"},
        "low-tilted-warm-slide": {
            "camera_height",
            "tilt_deg",
            "light_level",
            "white_balance",
            "entry",
        },
        "fast-messy-24fps": {
            "fps",
            "motion_blur",
            "player_speed_spread",
            "pile_offset",
            "pile_angle",
        },
        "covering-tilted-noisy": {"hold", "camera_height", "tilt_deg", "noise"},
        "covering-high-camera": {"hold", "camera_height", "tilt_deg"},
        "covering-dim-webcam": {"hold", "light_level", "white_balance", "fps", "motion_blur"},
        "quick-untidy-26fps": {
            "fps",
            "motion_blur",
            "player_speed_spread",
            "pile_offset",
            "pile_angle",
        },
        "covering-dim-22fps": {
            "hold",
            "camera_height",
            "tilt_deg",
            "light_level",
            "white_balance",
            "fps",
            "motion_blur",
        },
        "steep-messy-speeds": {
            "camera_height",
            "tilt_deg",
            "pile_offset",
            "pile_angle",
            "player_speed_spread",
        },
        "covering-slow-slide-20fps": {
            "hold",
            "entry",
            "fps",
            "motion_blur",
            "player_speed_spread",
        },
        "warm-drop-untidy-28fps": {
            "entry",
            "drop_scale",
            "fps",
            "motion_blur",
            "light_level",
            "white_balance",
            "pile_offset",
            "pile_angle",
            "player_speed_spread",
        },
        "evening-lamp-slide-24fps": {"entry", "fps", "motion_blur", "light_level", "white_balance"},
        "half-light": {"light_level", "white_balance"},
        "covering-half-light": {"hold", "light_level", "white_balance", "noise"},
        "dim-slide-22fps": {"entry", "fps", "motion_blur", "noise", "light_level", "white_balance"},
        "fast-blur-untidy-22fps": {
            "fps",
            "motion_blur",
            "player_speed_spread",
            "pile_offset",
            "pile_angle",
        },
        "covering-lamp-slide-20fps": {
            "hold",
            "entry",
            "fps",
            "motion_blur",
            "noise",
            "light_level",
            "white_balance",
        },
        "rushed-dusk-25fps": {
            "fps",
            "motion_blur",
            "player_speed_spread",
            "pile_offset",
            "pile_angle",
            "light_level",
            "white_balance",
        },
        "covering-untidy-25fps": {
            "hold",
            "fps",
            "motion_blur",
            "noise",
            "player_speed_spread",
            "pile_offset",
            "pile_angle",
        },
        "shaky-untidy-28fps": {
            "fps",
            "shake",
            "motion_blur",
            "pile_offset",
            "pile_angle",
            "light_level",
            "white_balance",
            "player_speed_spread",
        },
        "covering-slide-warm-21fps": {
            "hold",
            "entry",
            "fps",
            "motion_blur",
            "noise",
            "light_level",
            "white_balance",
            "player_speed_spread",
        },
        "grainy-webcam-13fps": {"fps", "motion_blur", "noise", "light_level"},
        "covering-messy-dim-23fps": {
            "hold",
            "fps",
            "motion_blur",
            "noise",
            "pile_offset",
            "pile_angle",
            "light_level",
            "white_balance",
        },
        "covering-high-scattered-27fps": {
            "hold",
            "camera_height",
            "fps",
            "motion_blur",
            "noise",
            "pile_offset",
            "pile_angle",
        },
        "shaky-covering-messy-26fps": {
            "hold",
            "fps",
            "shake",
            "motion_blur",
            "noise",
            "camera_height",
            "pile_offset",
            "pile_angle",
            "light_level",
            "player_speed_spread",
        },
        "shaky-scattered-24fps": {
            "fps",
            "shake",
            "motion_blur",
            "noise",
            "pile_offset",
            "pile_angle",
            "white_balance",
        },
        "covering-warm-dusk-22fps": {
            "hold",
            "camera_height",
            "fps",
            "motion_blur",
            "noise",
            "light_level",
            "white_balance",
        },
        "night-covering-tilted-24fps": {
            "hold",
            "camera_height",
            "tilt_deg",
            "fps",
            "motion_blur",
            "noise",
            "light_level",
            "white_balance",
        },
        "dusk-drop-cool": {"entry", "motion_blur", "fps", "light_level", "white_balance"},
        "covering-candle-20fps": {
            "hold",
            "camera_height",
            "fps",
            "motion_blur",
            "noise",
            "light_level",
            "white_balance",
        },
        "covering-dark-tilted": {
            "hold",
            "camera_height",
            "tilt_deg",
            "light_level",
            "white_balance",
            "noise",
        },
    }
    # Each new tuning style stands for a held-out one's phenomenon with other values.
    for tuning, held_out in (
        ("webcam-20fps", "webcam-15fps"),
        ("scattered-pile", "messy-pile"),
        ("low-drop", "drop"),
    ):
        assert changed[tuning] <= changed[held_out] | {"drop_scale"}
        assert STYLES[tuning] != dataclasses.replace(STYLES[held_out], name=tuning)
    with pytest.raises(ValueError, match="drop_scale"):
        VideoStyle("x", entry="drop", drop_scale=0.9)
    with pytest.raises(ValueError, match="shake"):
        VideoStyle("x", shake=-0.5)
    with pytest.raises(ValueError, match="no video style 'fancy'"):
        get_style("fancy")
    with pytest.raises(ValueError, match="hold"):
        VideoStyle("x", hold="pinch")


@pytest.mark.slow
def test_house_renders_frame_for_frame_as_before_styles(videos: dict[str, RenderResult]) -> None:
    res = videos["house"]
    assert res.frames == HOUSE_FRAMES
    # Every frame, in grey and shrunk to 16x12 cells, as it was: decoded pixels differ by
    # a grey level here and there from one machine (CPU, codec build) to another, while a
    # card or hand drawn elsewhere changes a cell by tens of levels.
    want = np.load(HOUSE_FRAMES_FILE)["frames"].astype(np.int16)
    got = frame_fingerprint(res.path).astype(np.int16)
    assert got.shape == want.shape
    diff = np.abs(got - want)
    assert np.percentile(diff, 99) <= FINGERPRINT_P99_DIFF
    assert diff.mean() <= FINGERPRINT_MEAN_DIFF
    for suffix, sha in HOUSE_FILES_SHA.items():
        data = res.path.with_name(f"{res.path.name}.{suffix}").read_bytes()
        assert hashlib.sha256(data).hexdigest() == sha, suffix


@pytest.mark.slow
def test_covering_hand_hides_the_card_until_it_lets_go(videos: dict[str, RenderResult]) -> None:
    house, cover = videos["house"], videos["covering-hand"]
    assert [e["type"] for e in cover.truth] == [e["type"] for e in house.truth]
    plays = _plays(cover)
    assert plays
    for ev in plays:
        # House: the card is seen on its way in (the fingers hold its edge) ...
        assert _seen(house, ev["card"], ev["t"] - 0.35, ev["t"], 0.4)
        # ... covered: never more than a sliver of it until it has landed ...
        assert not _seen(cover, ev["card"], ev["t"] - 0.35, ev["t"], 0.4)
        # ... and in full once the hand has gone.
        assert _seen(cover, ev["card"], ev["t"], ev["t"] + 1.0, 0.95)


@pytest.mark.slow
def test_webcam_15fps_has_half_the_frames_and_blurs_moving_cards(
    videos: dict[str, RenderResult],
) -> None:
    house, cam = videos["house"], videos["webcam-15fps"]
    assert cam.fps == 15.0
    assert cv2.VideoCapture(str(cam.path)).get(cv2.CAP_PROP_FPS) == pytest.approx(15)
    assert cam.frames == math.ceil(house.frames / 2)
    assert len(list(read_video(cam.path))) == cam.frames
    # The same events at the same times: only the camera differs.
    assert [(e["type"], e["t"]) for e in cam.truth] == [(e["type"], e["t"]) for e in house.truth]


@pytest.mark.slow
def test_high_tilted_camera_sees_a_smaller_table_in_perspective(
    videos: dict[str, RenderResult],
) -> None:
    house, high = videos["house"], videos["high-tilted"]
    lh, lt = TableLayout.load(house.layout_path), TableLayout.load(high.layout_path)
    assert lt.card_px < 0.9 * lh.card_px
    first = next(iter(read_video(high.path))).image
    # Past the far edge of the table: the floor, in both top corners.
    for x in (3, 636):
        assert np.abs(first[3, x].astype(int) - FLOOR_BGR).max() < 25
    # The layout follows the camera: each played card rests in its discard zone.
    boxes = _boxes(high)
    for ev in _plays(high):
        frame = boxes[round(ev["t"] * high.fps) + 2]
        centres = [((c[2][0] + c[2][2]) / 2, (c[2][1] + c[2][3]) / 2) for c in frame["cards"]]
        names = [c[0] for c in frame["cards"]]
        i = names.index(ev["card"])
        assert lt.discard.contains(*centres[i], margin=lt.card_px / 2)


@pytest.mark.slow
def test_dim_warm_light_is_darker_and_redder(videos: dict[str, RenderResult]) -> None:
    a = next(iter(read_video(videos["house"].path))).image.astype(float)
    b = next(iter(read_video(videos["dim-warm"].path))).image.astype(float)
    assert b.mean() < 0.75 * a.mean()
    ratio = lambda im: im[..., 2].mean() / im[..., 0].mean()  # noqa: E731  (red / blue)
    assert ratio(b) > 1.2 * ratio(a)


@pytest.mark.slow
def test_messy_pile_spreads_the_cards_further_and_askew(videos: dict[str, RenderResult]) -> None:
    def spread(res: RenderResult) -> float:
        layout = TableLayout.load(res.layout_path)
        boxes = _boxes(res)
        cx, cy = layout.discard.center
        dists = []
        for ev in _plays(res):
            for c in boxes[round(ev["t"] * res.fps) + 2]["cards"]:
                if c[0] == ev["card"]:
                    x, y = (c[2][0] + c[2][2]) / 2, (c[2][1] + c[2][3]) / 2
                    dists.append(math.hypot(x - cx, y - cy))
        return float(np.mean(dists))

    assert spread(videos["messy-pile"]) > 2.0 * spread(videos["house"])
    assert spread(videos["scattered-pile"]) > 1.5 * spread(videos["house"])


@pytest.mark.slow
def _drop_heights(res: RenderResult) -> list[float]:
    """Per play, the card's long side held high over its long side at rest."""
    boxes = _boxes(res)

    def long_sides(card: str, t0: float, t1: float) -> list[float]:
        """The card's long side (px) in the frames from t0 to t1, from its corners."""
        out = []
        for f in boxes:
            if t0 <= f["t"] < t1:
                for c, quad in zip(f["cards"], f["quads"], strict=True):
                    if c[0] == card:
                        q = np.array(quad)
                        out.append(float(np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1).max()))
        return out

    ratios = []
    for ev in _plays(res):
        high = long_sides(ev["card"], ev["t"] - 0.5, ev["t"] - 0.15)
        rest = long_sides(ev["card"], ev["t"] + 0.05, ev["t"] + 0.3)
        assert high and rest
        ratios.append(max(high) / max(rest))
    return ratios


@pytest.mark.slow
def test_drop_shows_the_card_bigger_before_it_lands(videos: dict[str, RenderResult]) -> None:
    assert all(r > 1.35 for r in _drop_heights(videos["drop"]))  # held high: nearer the camera
    # A lower drop: bigger in the hand too, less so.
    assert all(1.12 < r < 1.3 for r in _drop_heights(videos["low-drop"]))


@pytest.mark.slow
def test_slide_lets_go_early_and_player_speeds_change_the_timing(
    videos: dict[str, RenderResult],
) -> None:
    house, slide, speeds = videos["house"], videos["slide"], videos["player-speeds"]
    # Slid: the card coasts alone before it rests (no finger on it); carried: held
    # by its edge to the end.
    for ev in _plays(slide):
        alone = _seen(slide, ev["card"], ev["t"] - 0.12, ev["t"], 0.999)
        assert alone
    held = [_seen(house, ev["card"], ev["t"] - 0.12, ev["t"], 0.999) for ev in _plays(house)]
    assert not all(held)
    # Each player has a pace of their own: the same events, at other times.
    assert [e["type"] for e in speeds.truth] == [e["type"] for e in house.truth]
    assert [e["t"] for e in speeds.truth] != [e["t"] for e in house.truth]


@pytest.mark.slow
def test_render_video_command_takes_a_style(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cam.mp4"
    assert main(["render-video", str(out), "--turns", "1", "--style", "webcam-15fps"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["style"] == "webcam-15fps"
    assert cv2.VideoCapture(str(out)).get(cv2.CAP_PROP_FPS) == pytest.approx(15)
    assert main(["render-video", str(tmp_path / "x.mp4"), "--style", "fancy"]) == 2
    assert "no video style 'fancy'" in capsys.readouterr().err
    assert not (tmp_path / "x.mp4").exists()


@pytest.mark.slow
def test_webcam_20fps_and_the_24fps_held_out_style_keep_the_house_timeline(
    videos: dict[str, RenderResult],
) -> None:
    house, cam = videos["house"], videos["webcam-20fps"]
    assert cam.fps == 20.0
    assert cam.frames == math.ceil(house.frames * 20 / 30)
    assert [(e["type"], e["t"]) for e in cam.truth] == [(e["type"], e["t"]) for e in house.truth]
    fast = videos["fast-messy-24fps"]
    assert fast.fps == 24.0
    assert [e["type"] for e in fast.truth] == [e["type"] for e in house.truth]


@pytest.mark.slow
def test_new_held_out_cameras_keep_the_played_cards_in_their_discard_zone(
    videos: dict[str, RenderResult],
) -> None:
    house = TableLayout.load(videos["house"].layout_path)
    low = TableLayout.load(videos["low-tilted-warm-slide"].layout_path)
    assert low.card_px > 1.1 * house.card_px  # a lower camera: bigger cards
    for name in ("low-tilted-warm-slide", "covering-tilted-noisy"):
        res = videos[name]
        lt = TableLayout.load(res.layout_path)
        boxes = _boxes(res)
        for ev in _plays(res):
            # Where it lies once in full view (a covering hand leaves it after a while).
            x1, y1, x2, y2 = next(
                c[2]
                for f in boxes[round(ev["t"] * res.fps) :]
                for c in f["cards"]
                if c[0] == ev["card"] and c[1] >= 0.95
            )
            assert lt.discard.contains((x1 + x2) / 2, (y1 + y2) / 2, margin=lt.card_px / 2)


@pytest.mark.slow
def test_a_camera_that_sees_past_the_table_shows_arms_over_the_floor_to_the_frame_edge(
    videos: dict[str, RenderResult],
) -> None:
    res = videos["covering-high-camera"]
    first = next(iter(read_video(res.path))).image
    assert np.abs(first[3, 3].astype(int) - FLOOR_BGR).max() < 25  # the floor is in view
    # Each covered card's arm comes in from the frame's edge on its player's side, so
    # the arm watch (which wants an arm crossing the frame's edge) names its seat. Before
    # the floor was painted round the table, arms stopped at the table's edge: no seat.
    layout = TableLayout.load(res.layout_path)
    arms = ArmWatch(layout)
    for frame in read_video(res.path):
        arms.update(frame.image, frame.t)
    plays = _plays(res)
    assert len(plays) >= 2
    assert [arms.seat_between(e["t"] - 2.0, e["t"] + 0.3) for e in plays] == [
        res.players.index(e["player"]) for e in plays
    ]


def _shifts(res: RenderResult, frames: int) -> list[float]:
    """How far the picture moves between consecutive frames (phase correlation, px)."""
    cap = cv2.VideoCapture(str(res.path))
    grays = []
    for _ in range(frames):
        ok, frame = cap.read()
        assert ok
        grays.append(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32))
    return [math.hypot(*cv2.phaseCorrelate(a, b)[0]) for a, b in itertools.pairwise(grays)]


@pytest.mark.slow
def test_a_style_s_shake_moves_the_picture_that_much_more(tmp_path: Path) -> None:
    log = simulated_game(5, players=2, turns=1, retract_prob=0.0)
    still = render_video(log, tmp_path / "still.mp4", seed=5, style=VideoStyle("still", shake=0.0))
    shaky = render_video(log, tmp_path / "shaky.mp4", seed=5, style=VideoStyle("shaky", shake=2.5))
    # The first half second: nothing moves on the table yet, only the camera.
    quiet, moved = _shifts(still, 15), _shifts(shaky, 15)
    assert max(quiet) < 0.1
    assert float(np.mean(moved)) > 0.5
