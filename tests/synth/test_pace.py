"""A player's pace in the renderer: bounded, and a dropped card falls as fast for anyone."""

from __future__ import annotations

import numpy as np

from synth.painter import Renderer
from synth.styles import DROP_RELEASE, PACE_MAX, VideoStyle
from synth.video_plan import _plan

PLAYERS = ["Ann", "Bob", "Cy"]


def _renderer(style: VideoStyle, seed: int = 1) -> Renderer:
    return Renderer(640, 480, PLAYERS, np.random.default_rng(seed), 30.0, style)


def test_no_player_is_slower_than_the_pace_bound() -> None:
    # A spread this wide draws paces far past the bound (e^2 is 7.4) for some seeds.
    wild = VideoStyle("wild-paces", player_speed_spread=2.0)
    paces = [
        p
        for seed in range(40)
        for p in Renderer(
            640, 480, PLAYERS, np.random.default_rng(0), 30.0, wild, np.random.default_rng(seed)
        ).speeds
    ]
    assert max(paces) == PACE_MAX
    assert min(paces) < 0.5  # the quick end is left as drawn
    assert sum(p == PACE_MAX for p in paces) < len(paces) / 3


def _play_clips(pace: float) -> list[tuple[float, float, float]]:
    """Per play of a short game dropped by a player of ``pace``: (travel, carried high,
    falling), in seconds."""
    r = _renderer(VideoStyle("drop-test", entry="drop"))
    r.speeds = [pace] * len(PLAYERS)
    log = [
        {"type": "round", "players": PLAYERS, "dealer": "Ann"},
        {"type": "flip", "card": "red-5"},
        {"type": "play", "card": "red-7", "player": "Bob"},
        {"type": "play", "card": "blue-7", "player": "Cy"},
        {"type": "play", "card": "blue-2", "player": "Ann"},
    ]
    clips, _ = _plan(log, r, PLAYERS, np.random.default_rng(3), 0.0)
    return [
        (c.travel, c.release * c.travel, (1.0 - c.release) * c.travel)
        for c in clips
        if c.kind == "play"
    ]


def test_a_slow_player_carries_a_dropped_card_slowly_but_it_falls_as_fast() -> None:
    median, slow = _play_clips(1.0), _play_clips(3.0)
    assert len(median) == len(slow) == 3
    for (travel, carried, fell), (s_travel, s_carried, s_fell) in zip(median, slow, strict=True):
        assert carried == DROP_RELEASE * travel
        assert s_carried == 3.0 * carried  # the same draws: three times as slow in the hand
        assert abs(s_fell - fell) < 1e-9  # ... and the same fall
        assert s_fell < 0.3  # a card falls in a fraction of a second
        assert s_travel < 3.0 * travel
