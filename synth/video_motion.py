"""Motion inside a clip for :mod:`synth.video`: where the cards and the hand are at a time.

How a card travels (eased, slid, dropped from high), the smear of a moving card while
the shutter is open, and where the hand is (reaching in, carrying, covering the card,
letting go, leaving), following the video's style (``synth.styles``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from synth.painter import Cover, Hand, Moving, Renderer
from synth.styles import SLIDE_RELEASE
from synth.video_plan import _Clip, _seat_from_clip


def _ease_out(u: float) -> float:
    """A card slid onto the pile: even deceleration (friction), still at ``u`` = 1."""
    u = min(1.0, max(0.0, u))
    return 1.0 - (1.0 - u) ** 2


def _ease_in_out(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3.0 - 2.0 * u)


def _lerp(a: tuple[float, float], b: tuple[float, float], u: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u)


def _cards_at(clip: _Clip, t: float, r: Renderer) -> list[Moving]:
    """Where the clip's cards are at ``t``, between ``clip.t_move`` and ``clip.t_rest``."""
    u = (t - clip.t_move) / clip.travel
    if r.style.entry == "drop" and clip.kind == "play":
        # Carried high above the pile (nearer the camera: bigger), then let go: it falls
        # faster and faster, shrinking to its size on the table and turning a little.
        high = r.style.drop_scale
        if u < clip.release:
            e = _ease_in_out(u / clip.release)
            return [
                Moving(n, _lerp(s, d, e), a - clip.spin, high)
                for n, s, d, a in zip(clip.cards, clip.starts, clip.ends, clip.angles, strict=True)
            ]
        f = min(1.0, (u - clip.release) / (1.0 - clip.release)) ** 2
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
        release = clip.t_move + clip.release * clip.travel
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
