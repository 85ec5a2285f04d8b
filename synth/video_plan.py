"""A game's timeline for :mod:`synth.video`: the event log turned into clips.

Each event the camera can see becomes a :class:`_Clip` (a play, a flip, a take-back,
a draw, or a hand passing over the piles) placed on a timeline, and the truth log gets
each event's time (a play: when its card comes to rest; a draw or an undo: when the
card is picked up). Where things are inside a clip at a given moment is
:mod:`synth.video_motion`'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from synth.painter import Renderer
from synth.styles import DROP_RELEASE, DROP_SPIN_DEG, SLIDE_TRAVEL

Event = dict[str, Any]


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
    release: float = DROP_RELEASE  # style drop: the fraction of ``travel`` carried high

    @property
    def t_move(self) -> float:
        return self.t0 + self.reach

    @property
    def t_rest(self) -> float:
        return self.t0 + self.reach + self.travel

    @property
    def t1(self) -> float:
        return self.t_rest + self.hold + self.leave


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
                if sp != 1.0:
                    clip.travel, clip.release = _dropped(clip.travel, sp)
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


def _dropped(travel: float, pace: float) -> tuple[float, float]:
    """A dropped card's ``travel`` and the fraction of it carried high, for a player of
    ``pace``: the carrying is as slow as the player, the fall as quick as any fall.

    >>> travel, release = _dropped(2.0, 2.0)  # carried 0.65 x 2 s, then falls 0.35 s
    >>> round(travel, 3), round(release * travel, 3)
    (1.65, 1.3)
    """
    carry = DROP_RELEASE * travel
    fall = (1.0 - DROP_RELEASE) * travel / pace
    return carry + fall, carry / (carry + fall)


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
