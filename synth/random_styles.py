"""Randomised video styles: every setting of :class:`~synth.styles.VideoStyle` drawn
at random, for training data that spans the looks rather than repeating named ones.

The ranges (:data:`RANGES`) are the span of the named **tuning** styles
(:data:`synth.styles.TUNING_STYLES`), widened only where the issue's description of
real tables says so (15 to 30 frames a second); they were not chosen by looking at a
held-out style or video. A randomised style is named ``random-<seed>`` and is the same
for the same seed.

>>> a, b = random_style(7), random_style(7)
>>> a == b and a.name == "random-7"
True
>>> lo, hi = RANGES["fps"]
>>> all(lo <= (random_style(s).fps or 30.0) <= hi for s in range(50))
True
>>> len({random_style(s).hold for s in range(50)})
2
"""

from __future__ import annotations

import math
import random

from synth.styles import VideoStyle

#: Each setting's range (low, high); drawn uniformly unless said otherwise below.
RANGES: dict[str, tuple[float, float]] = {
    "fps": (15.0, 30.0),
    "motion_blur": (0.0, 1.0),  # frame intervals of exposure
    "noise": (1.0, 2.0),  # times the house noise
    "camera_height": (0.9, 1.25),  # times the house camera's
    "tilt_deg": (0.0, 22.0),  # only for a tilted camera (TILTED_SHARE)
    "light_level": (0.42, 1.1),  # drawn log-uniformly
    "warmth": (-1.0, 0.4),  # -1: a warm lamp (0.72, 0.93, 1.16); 0.4: cool daylight
    "pile_offset": (1.0, 2.8),  # times the house spread, only for an untidy pile
    "pile_angle": (1.0, 2.3),
    "player_speed_spread": (0.0, 0.75),
    "drop_scale": (1.2, 1.6),
    "shake": (0.5, 2.2),
}
#: The share of styles whose hand covers the card until it lets go.
COVER_SHARE = 0.5
#: How cards come to the pile: carried, slid, dropped.
ENTRY_SHARES = (("carry", 0.5), ("slide", 0.25), ("drop", 0.25))
#: The share of styles with a tilted camera, and with an untidy pile.
TILTED_SHARE = 0.35
UNTIDY_SHARE = 0.5
#: How far each colour gain moves with the warmth (B, G, R) at warmth -1.
WARM_GAINS = (-0.28, -0.07, 0.16)


def random_style(seed: int) -> VideoStyle:
    """The randomised style of ``seed`` (module doc)."""
    rng = random.Random(seed)

    def draw(key: str) -> float:
        lo, hi = RANGES[key]
        return round(rng.uniform(lo, hi), 3)

    lo, hi = RANGES["light_level"]
    light = round(math.exp(rng.uniform(math.log(lo), math.log(hi))), 3)
    warmth = draw("warmth")
    balance = tuple(round(1.0 - g * warmth, 3) for g in WARM_GAINS)
    entry = rng.choices([e for e, _ in ENTRY_SHARES], [w for _, w in ENTRY_SHARES])[0]
    untidy = rng.random() < UNTIDY_SHARE
    return VideoStyle(
        name=f"random-{seed}",
        fps=draw("fps"),
        hold="cover" if rng.random() < COVER_SHARE else "edge",
        entry=entry,
        motion_blur=draw("motion_blur"),
        noise=draw("noise"),
        camera_height=draw("camera_height"),
        tilt_deg=draw("tilt_deg") if rng.random() < TILTED_SHARE else 0.0,
        light_level=light,
        white_balance=(balance[0], balance[1], balance[2]),
        pile_offset=draw("pile_offset") if untidy else 1.0,
        pile_angle=draw("pile_angle") if untidy else 1.0,
        player_speed_spread=draw("player_speed_spread"),
        drop_scale=draw("drop_scale"),
        shake=draw("shake"),
    )
