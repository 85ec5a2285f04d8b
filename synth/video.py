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

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "g.mp4"
>>> log = script_game(np.random.default_rng(0), ["Ann", "Bob"], turns=2)
>>> r = render_video(log, out, seed=0)
>>> r.path.exists(), r.frames > 30, r.truth[0]["type"]
(True, True, 'round')
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from synth.game_script import (  # noqa: F401  (re-exported: synth.video's names)
    DEFAULT_PLAYERS,
    script_game,
    simulated_game,
)
from synth.oracle import OracleDetector  # noqa: F401  (re-exported)
from synth.painter import (
    Cover,
    FrameCard,  # noqa: F401  (re-exported)
    Hand,
    Moving,
    Placed,
    Renderer,
)
from synth.styles import (
    DROP_RELEASE,
    DROP_SPIN_DEG,
    SLIDE_RELEASE,
    SLIDE_TRAVEL,
    VideoStyle,
    get_style,
)

Event = dict[str, Any]

DEMO_VERSION = "4"  # bump to re-render cached demo videos after a renderer change


def _ease_out(u: float) -> float:
    """A card slid onto the pile: even deceleration (friction), still at ``u`` = 1."""
    u = min(1.0, max(0.0, u))
    return 1.0 - (1.0 - u) ** 2


def _ease_in_out(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3.0 - 2.0 * u)


def _lerp(a: tuple[float, float], b: tuple[float, float], u: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u)


@dataclass
class _Clip:
    """One action in time: what moves, where the hand is, how the piles change."""

    kind: str  # play | retract | draw | flip | pass-over
    t0: float
    seat_xy: tuple[float, float]  # where the arm comes from (outside the frame)
    cards: list[str] = field(default_factory=list)
    starts: list[tuple[float, float]] = field(default_factory=list)
    ends: list[tuple[float, float]] = field(default_factory=list)
    angles: list[float] = field(default_factory=list)
    reach: float = 0.0  # hand reaching in, before anything moves
    travel: float = 0.5  # the card(s) moving
    hold: float = 0.1  # the hand staying after the card rests
    leave: float = 0.35  # the hand going back
    hand_seed: int = 0
    touch: tuple[float, float] = (0.0, 0.0)  # pass-over: how far the hand reaches
    spin: float = 0.0  # style drop: how far the card turns as it falls

    @property
    def t_move(self) -> float:
        return self.t0 + self.reach

    @property
    def t_rest(self) -> float:
        return self.t0 + self.reach + self.travel

    @property
    def t1(self) -> float:
        return self.t_rest + self.hold + self.leave


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


def _plan(
    log: list[Event],
    r: Renderer,
    players: list[str],
    rng: np.random.Generator,
    pass_over_prob: float,
) -> tuple[list[_Clip], list[Event]]:
    """Turn the event log into clips on a timeline and the truth log with times."""
    seat = {p: i for i, p in enumerate(players)}
    st = r.style
    clips: list[_Clip] = []
    truth: list[Event] = []
    t = 0.8
    card = r.card_px
    pile_top: list[_Clip] = []  # play clips whose cards are on the pile, for undo
    dealer = 0
    current = 0
    for ev in log:
        typ = ev.get("type")
        if typ == "round":
            dealer = seat.get(str(ev.get("dealer", players[0])), 0)
            current = (dealer + 1) % len(players)
            truth.append({"t": 0.0, **ev})
            continue
        if typ in ("play", "flip"):
            names = list(ev["cards"]) if "cards" in ev else [str(ev["card"])]
            who = dealer if typ == "flip" else seat.get(str(ev.get("player", "")), current)
            current = who
            if t > 0.8 and rng.random() < pass_over_prob:
                clips.append(_pass_over(r, rng, t, int(rng.integers(len(players)))))
                t = clips[-1].t1 + float(rng.uniform(0.2, 0.5))
            base = (
                r.center[0] + float(rng.normal(0, 0.1 * card * st.pile_offset)),
                r.center[1] + float(rng.normal(0, 0.1 * card * st.pile_offset)),
            )
            ang = r.true_seats[who] + float(rng.normal(0, 14 * st.pile_angle))
            sp = r.speeds[who]  # this player's pace (1.0 but for style player-speeds)
            slide = SLIDE_TRAVEL if st.entry == "slide" and typ == "play" else 1.0
            dxs, dys = r.seat_dir(who)
            ends, starts, angles = [], [], []
            k = len(names)
            for j in range(k):
                lat = (j - (k - 1) / 2) * 0.36 * card  # fanned, side by side
                ends.append((base[0] - dys * lat, base[1] + dxs * lat))
                angles.append(ang + (j - (k - 1) / 2) * 12)
                if typ == "flip":
                    starts.append(r.draw_xy)
                else:
                    s = r.seat_point(who, 0.7, float(rng.uniform(-0.5, 0.5)))
                    starts.append((s[0] - dys * lat, s[1] + dxs * lat))
            clip = _Clip(
                kind="flip" if typ == "flip" else "play",
                t0=t,
                seat_xy=r.seat_point(who, 3.0, float(rng.uniform(-0.4, 0.4))),
                cards=names,
                starts=starts,
                ends=ends,
                angles=angles,
                reach=float(rng.uniform(0.3, 0.45)) * sp if typ == "flip" else 0.0,
                travel=float(rng.uniform(0.45, 0.75)) * sp * slide,
                hold=float(rng.uniform(0.05, 0.2)) * sp,
                leave=float(rng.uniform(0.3, 0.45)) * sp,
                hand_seed=int(rng.integers(2**31)),
            )
            if st.entry == "drop" and typ == "play":
                clip.spin = float(r.style_rng.uniform(-DROP_SPIN_DEG, DROP_SPIN_DEG))
            clips.append(clip)
            pile_top.append(clip)
            truth.append({"t": round(clip.t_rest, 3), **ev})
            t = clip.t1 + float(rng.uniform(0.25, 0.8))
        elif typ == "undo":
            if not pile_top:
                continue
            played = pile_top.pop()
            t += float(rng.uniform(0.3, 0.7))  # a moment of hesitation
            seat_i = _seat_from_clip(played, r)
            clip = _Clip(
                kind="retract",
                t0=t,
                seat_xy=played.seat_xy,
                cards=list(played.cards),
                starts=list(played.ends),
                ends=[r.seat_point(seat_i, 0.8, 0.0) for _ in played.cards],
                angles=list(played.angles),
                reach=float(rng.uniform(0.3, 0.45)) * r.speeds[seat_i],
                travel=float(rng.uniform(0.4, 0.6)) * r.speeds[seat_i],
                hold=0.0,
                leave=0.0,
                hand_seed=int(rng.integers(2**31)),
            )
            clips.append(clip)
            truth.append({"t": round(clip.t_move, 3), **ev})
            t = clip.t1 + float(rng.uniform(0.3, 0.7))
        elif typ == "draw":
            who = seat.get(str(ev.get("player", "")), current)
            current = who
            for _ in range(int(ev.get("count", 1))):
                clip = _Clip(
                    kind="draw",
                    t0=t,
                    seat_xy=r.seat_point(who, 3.0, float(rng.uniform(-0.4, 0.4))),
                    cards=["back"],
                    starts=[r.draw_xy],
                    ends=[r.seat_point(who, 0.8, float(rng.uniform(-0.4, 0.4)))],
                    angles=[r.draw_angle],
                    reach=float(rng.uniform(0.35, 0.5)) * r.speeds[who],
                    travel=float(rng.uniform(0.45, 0.65)) * r.speeds[who],
                    hold=0.0,
                    leave=0.0,
                    hand_seed=int(rng.integers(2**31)),
                )
                clips.append(clip)
                truth.append({"t": round(clip.t_move, 3), "type": "draw", "player": players[who]})
                t = clip.t1 + float(rng.uniform(0.2, 0.5))
        else:
            # Rulings the camera cannot see (pass, color, uno...): in the log, no clip.
            truth.append({"t": round(t, 3), **ev})
            if typ == "pass":
                current = (seat.get(str(ev.get("player", "")), current) + 1) % len(players)
    return clips, truth


def _seat_from_clip(clip: _Clip, r: Renderer) -> int:
    cx, cy = r.center
    b = math.degrees(math.atan2(clip.seat_xy[0] - cx, -(clip.seat_xy[1] - cy))) % 360
    return min(
        range(len(r.true_seats)),
        key=lambda i: min(abs(r.true_seats[i] % 360 - b), 360 - abs(r.true_seats[i] % 360 - b)),
    )


def _pass_over(r: Renderer, rng: np.random.Generator, t: float, seat: int) -> _Clip:
    """A hand passing over the piles (reaching for a drink, pointing): no event."""
    cx, cy = r.center
    return _Clip(
        kind="pass-over",
        t0=t,
        seat_xy=r.seat_point(seat, 3.0, float(rng.uniform(-0.3, 0.3))),
        reach=float(rng.uniform(0.35, 0.5)),
        travel=float(rng.uniform(0.1, 0.4)),
        leave=float(rng.uniform(0.3, 0.5)),
        hold=0.0,
        hand_seed=int(rng.integers(2**31)),
        touch=(
            cx + float(rng.normal(0, 0.3 * r.card_px)),
            cy + float(rng.normal(0, 0.3 * r.card_px)),
        ),
    )


def _cards_at(clip: _Clip, t: float, r: Renderer) -> list[Moving]:
    """Where the clip's cards are at ``t``, between ``clip.t_move`` and ``clip.t_rest``."""
    u = (t - clip.t_move) / clip.travel
    if r.style.entry == "drop" and clip.kind == "play":
        # Carried high above the pile (nearer the camera: bigger), then let go: it falls
        # faster and faster, shrinking to its size on the table and turning a little.
        high = r.style.drop_scale
        if u < DROP_RELEASE:
            e = _ease_in_out(u / DROP_RELEASE)
            return [
                Moving(n, _lerp(s, d, e), a - clip.spin, high)
                for n, s, d, a in zip(clip.cards, clip.starts, clip.ends, clip.angles, strict=True)
            ]
        f = min(1.0, (u - DROP_RELEASE) / (1.0 - DROP_RELEASE)) ** 2
        return [
            Moving(n, d, a - clip.spin * (1.0 - f), high - (high - 1.0) * f)
            for n, d, a in zip(clip.cards, clip.ends, clip.angles, strict=True)
        ]
    e = _ease_out(u) if clip.kind in ("play", "flip") else _ease_in_out(u)
    return [
        Moving(n, _lerp(s, d, e), a)
        for n, s, d, a in zip(clip.cards, clip.starts, clip.ends, clip.angles, strict=True)
    ]


def _blurred(moving: list[Moving], clip: _Clip, t_open: float, r: Renderer) -> list[Moving]:
    """The moving cards smeared over the way they went since the shutter opened."""
    if t_open < clip.t_move:
        return moving
    before = _cards_at(clip, t_open, r)
    if len(before) != len(moving):
        return moving
    return [
        dataclasses.replace(
            m,
            blur=(m.xy[0] - b.xy[0], m.xy[1] - b.xy[1]),
            soft=abs(m.scale - b.scale) * r.card_px * 0.5,
        )
        for m, b in zip(moving, before, strict=True)
    ]


def _mean(xys: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in xys) / len(xys), sum(p[1] for p in xys) / len(xys))


def _clip_state(clip: _Clip, t: float, r: Renderer) -> tuple[list[Moving], Hand | Cover | None]:
    """What moves at time ``t`` inside ``clip`` and where the hand is."""
    card = r.card_px
    arm = clip.seat_xy
    if clip.kind == "pass-over":
        if t < clip.t_move:
            u = _ease_in_out((t - clip.t0) / clip.reach)
            tip = _lerp(r.seat_point(_seat_from_clip(clip, r), 0.5), clip.touch, u)
        elif t < clip.t_rest:
            tip = clip.touch
        else:
            u = _ease_in_out((t - clip.t_rest) / max(1e-6, clip.leave))
            tip = _lerp(clip.touch, r.seat_point(_seat_from_clip(clip, r), 0.5), u)
        return [], (tip, arm, clip.hand_seed)

    def trailing(xy: tuple[float, float]) -> tuple[float, float]:
        # Fingers hold the card by its edge on the player's side.
        dx, dy = arm[0] - xy[0], arm[1] - xy[1]
        n = math.hypot(dx, dy) or 1.0
        return (xy[0] + dx / n * 0.42 * card, xy[1] + dy / n * 0.42 * card)

    cover = r.style.hold == "cover"
    k = len(clip.cards)

    def holding(xys: Sequence[tuple[float, float]]) -> Hand | Cover:
        if cover:  # the hand lies on the card(s)
            return Cover(_mean(xys), clip.angles[0], arm, clip.hand_seed, k)
        return (trailing(xys[0]), arm, clip.hand_seed)

    def leaving(xys: Sequence[tuple[float, float]], u: float) -> Hand | Cover:
        if cover:
            out = r.seat_point(_seat_from_clip(clip, r), 1.2)
            return Cover(_lerp(_mean(xys), out, u), clip.angles[0], arm, clip.hand_seed, k)
        outside = r.seat_point(_seat_from_clip(clip, r), 0.6)
        return (_lerp(trailing(xys[0]), outside, u), arm, clip.hand_seed)

    first_start = clip.starts[0]
    if t < clip.t_move:  # the hand reaches in, nothing moves yet
        u = _ease_in_out((t - clip.t0) / max(1e-6, clip.reach))
        if cover:
            return [], leaving(clip.starts, 1.0 - u)
        outside = r.seat_point(_seat_from_clip(clip, r), 0.6)
        return [], (_lerp(outside, trailing(first_start), u), arm, clip.hand_seed)
    entry = r.style.entry if clip.kind == "play" else "carry"
    release = clip.t_rest
    if entry == "slide":
        release = clip.t_move + SLIDE_RELEASE * clip.travel
    elif entry == "drop":
        release = clip.t_move + DROP_RELEASE * clip.travel
    if release < clip.t_rest and t >= release:
        # Let go before the card rests (slid: it coasts; dropped: it falls): the hand leaves.
        u = _ease_in_out((t - release) / max(1e-6, clip.t1 - release))
        at = [m.xy for m in _cards_at(clip, release, r)]
        return (_cards_at(clip, t, r) if t < clip.t_rest else []), leaving(at, u)
    if t < clip.t_rest:
        moving = _cards_at(clip, t, r)
        return moving, holding([m.xy for m in moving])
    if t < clip.t_rest + clip.hold:
        return [], holding(clip.ends)
    u = _ease_in_out((t - clip.t_rest - clip.hold) / max(1e-6, clip.leave))
    return [], leaving(clip.ends, u)


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
