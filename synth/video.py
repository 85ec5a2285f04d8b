"""Synthetic game videos: a scripted UNO game acted out on a rendered table.

A game is an event log (DESIGN.md). Each event becomes a short clip seen from above:
a hand comes in from the player's seat carrying the card to the discard pile, lets
go and withdraws; a draw is a hand reaching into the draw pile and carrying a
face-down card back to its seat; a retraction is a hand taking the top card back.
On top: hands passing over the table, camera noise, slow and sudden lighting changes
and a slightly shaking camera. How hands carry cards, the camera, the light and the
pile follow a named style (``synth.styles``: ``house``, the default, and others).
The video is written with OpenCV (``mp4v``), next to

* ``<video>.truth.jsonl``: the event log with ``t``, the time each event happened
  (a play: the moment its card came to rest; a draw: the moment the card was
  picked up; an undo: the moment the card was lifted off the pile);
* ``<video>.boxes.jsonl``: per frame, every card's box and visible fraction (for the
  "oracle" detector, which measures the watcher apart from the recogniser), and
  under ``quads`` each card's four corners (for detector training data);
* ``<video>.layout.json``: the table layout, as a calibration would give it.

The timeline of clips is :mod:`synth.video_plan`'s, where cards and hands are inside a
clip :mod:`synth.video_motion`'s; this module writes the frames and files, and keeps the
demo video.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "g.mp4"
>>> log = script_game(np.random.default_rng(0), ["Ann", "Bob"], turns=2)
>>> r = render_video(log, out, seed=0)
>>> r.path.exists(), r.frames > 30, r.truth[0]["type"]
(True, True, 'round')
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from synth.game_script import (  # noqa: F401  (re-exported: synth.video's names)
    DEFAULT_PLAYERS,
    script_game,
    simulated_game,
)
from synth.oracle import OracleDetector  # noqa: F401  (re-exported)
from synth.painter import (
    FrameCard,  # noqa: F401  (re-exported)
    Moving,
    Placed,
    Renderer,
)
from synth.styles import VideoStyle, get_style
from synth.video_motion import (  # noqa: F401  (re-exported: they lived here)
    _blurred,
    _cards_at,
    _clip_state,
    _ease_in_out,
    _ease_out,
    _lerp,
    _mean,
)
from synth.video_plan import (  # noqa: F401  (re-exported: they lived here)
    Event,
    _Clip,
    _pass_over,
    _plan,
    _seat_from_clip,
)

DEMO_VERSION = "4"  # bump to re-render cached demo videos after a renderer change


@dataclass
class RenderResult:
    """What :func:`render_video` wrote and the ground truth it knows."""

    path: Path
    truth_path: Path
    boxes_path: Path
    layout_path: Path
    players: list[str]
    fps: float
    frames: int
    truth: list[Event]


@dataclass(frozen=True)
class DemoVideo:
    """The bundled demo video: the file, its ground-truth log and the players."""

    path: Path
    truth_path: Path
    players: list[str]
    layout_path: Path | None = None


def render_video(
    log: list[Event],
    path: str | Path,
    *,
    seed: int = 0,
    width: int = 640,
    height: int = 480,
    fps: float = 30.0,
    pass_over_prob: float = 0.1,
    shake_px: float = 1.2,
    lighting: bool = True,
    style: str | VideoStyle = "house",
) -> RenderResult:
    """Act out ``log`` (DESIGN.md events; its first event is ``round``) into a video.

    Writes the video and its ``.truth.jsonl``, ``.boxes.jsonl`` and ``.layout.json``
    next to it (written to temporary names first, so a crash leaves no half file).
    ``style`` is a :class:`synth.styles.VideoStyle` or its name (``synth.styles.STYLES``);
    a style's ``fps``, where it sets one, wins over ``fps``.
    """
    st = get_style(style)
    if not log or log[0].get("type") != "round":
        raise ValueError("the log must start with a 'round' event naming the players")
    players = [str(p) for p in log[0]["players"]]
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    fps = st.fps if st.fps is not None else fps
    shake_px *= st.shake
    r = Renderer(width, height, players, rng, fps, st, np.random.default_rng([seed, 0x5717]))
    clips, truth = _plan(log, r, players, rng, pass_over_prob)
    duration = (clips[-1].t1 if clips else 1.0) + 1.0
    n_frames = math.ceil(duration * fps)
    tmp = out.with_name(out.stem + ".part" + out.suffix)
    writer = cv2.VideoWriter(str(tmp), cv2.VideoWriter.fourcc(*"mp4v"), fps, (width, height))
    if not writer.isOpened():
        raise RuntimeError(f"OpenCV cannot write {tmp} with the mp4v codec")
    boxes_tmp = out.with_name(out.name + ".boxes.part")
    # Lighting: a slow drift plus a few sudden changes (a lamp, a cloud).
    steps = sorted(float(x) for x in rng.uniform(0, duration, size=int(duration // 12) + 1))
    levels = [float(rng.uniform(0.8, 1.15)) for _ in steps]
    tint = rng.uniform(0.93, 1.07, 3)
    phase = float(rng.uniform(0, 6.28))
    shake = np.zeros(2)
    ci = 0
    applied = 0  # clips whose pile changes are applied
    try:
        with boxes_tmp.open("w") as boxes_file:
            for i in range(n_frames):
                t = i / fps
                # Pile changes of clips whose cards have come to rest / been lifted.
                while applied < len(clips) and clips[applied].t_move <= t:
                    c = clips[applied]
                    if c.kind == "retract":
                        del r.pile[-len(c.cards) :]
                        r._static = None
                    elif c.kind in ("play", "flip") and c.t_rest > t:
                        break
                    elif c.kind in ("play", "flip"):
                        for n, e, a in zip(c.cards, c.ends, c.angles, strict=True):
                            r.pile.append(Placed(n, e, a))
                        r._static = None
                    applied += 1
                while ci < len(clips) and clips[ci].t1 < t:
                    ci += 1
                moving: list[Moving] = []
                hand = None
                if ci < len(clips) and clips[ci].t0 <= t:
                    moving, hand = _clip_state(clips[ci], t, r)
                    if st.motion_blur > 0 and moving:
                        moving = _blurred(moving, clips[ci], t - st.motion_blur / fps, r)
                g = 1.0 + 0.06 * math.sin(2 * math.pi * t / 9.0 + phase)
                if lighting:
                    for s, lv in zip(steps, levels, strict=True):
                        if t >= s:
                            g *= 1.0 + (lv - 1.0) * min(1.0, (t - s) / 0.3)
                else:
                    g = 1.0
                light = (float(g * tint[0]), float(g * tint[1]), float(g * tint[2]))
                if st.light_level != 1.0 or st.white_balance != (1.0, 1.0, 1.0):
                    lv, wb = st.light_level, st.white_balance
                    light = (light[0] * lv * wb[0], light[1] * lv * wb[1], light[2] * lv * wb[2])
                shake = 0.8 * shake + rng.normal(0, shake_px * 0.45, 2)
                shake = np.clip(shake, -2.5 * shake_px, 2.5 * shake_px)
                img, boxes = r.frame(moving, hand, t, light, (float(shake[0]), float(shake[1])), i)
                writer.write(img)
                boxes_file.write(
                    json.dumps(
                        {
                            "i": i,
                            "t": round(t, 4),
                            "cards": [
                                [c.name, c.visible, [round(x, 1) for x in c.box]] for c in boxes
                            ],
                            "quads": [
                                [[round(x, 1), round(y, 1)] for x, y in c.corners] for c in boxes
                            ],
                        }
                    )
                    + "\n"
                )
    finally:
        writer.release()
    os.replace(tmp, out)
    boxes_path = out.with_name(out.name + ".boxes.jsonl")
    os.replace(boxes_tmp, boxes_path)
    truth_path = out.with_name(out.name + ".truth.jsonl")
    truth_path.write_text("".join(json.dumps(e) + "\n" for e in truth))
    layout_path = out.with_name(out.name + ".layout.json")
    r.layout.save(layout_path)
    return RenderResult(out, truth_path, boxes_path, layout_path, players, fps, n_frames, truth)


# ---------------------------------------------------------------------------- demo


def _cache_dir() -> Path:
    from vision.yolo_env import PROJECT_ROOT

    return Path(os.environ.get("UNO_TABLE_CACHE") or PROJECT_ROOT / ".cache") / "demo"


def ensure_demo_video(turns: int = 30, seed: int = 2024) -> DemoVideo:
    """The demo video, rendered into ``.cache/demo/`` on first use (some seconds).

    >>> demo = ensure_demo_video()               # doctest: +SKIP
    >>> demo.path.name, demo.players             # doctest: +SKIP
    ('demo-v1-2024.mp4', ['Ann', 'Bob', 'Cy', 'Dee'])
    """
    folder = _cache_dir()
    path = folder / f"demo-v{DEMO_VERSION}-{seed}.mp4"
    truth = path.with_name(path.name + ".truth.jsonl")
    layout = path.with_name(path.name + ".layout.json")
    players = list(DEFAULT_PLAYERS)
    if not (path.exists() and truth.exists() and layout.exists()):
        # A legal game under the official rules (the demo's default), one take-back.
        log = simulated_game(seed, len(players), "official", turns, retract_prob=0.05)
        render_video(log, path, seed=seed)
    return DemoVideo(path, truth, players, layout)
