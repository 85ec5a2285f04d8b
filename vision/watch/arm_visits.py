"""One arm's reach to the piles, as the draw rules keep it (:class:`ArmVisit`), and a
draw the card rules made (:class:`CardDraw`). Split from
:mod:`vision.watch.arm_draws` in the forty-seventh session (no change of behaviour).

>>> from vision.arm_probe import DRAW, ArmSighting
>>> visit = ArmVisit(2, 0.0, 0.0, retract=0.5, reach_again=0.85)
>>> for k, length in enumerate([80.0, 120.0, 160.0, 150.0]):
...     visit.add(ArmSighting(k / 30, 2, (0.0, 0.0), (0.0, length), DRAW, False, 0.3, 1.7))
>>> visit.draw_looks, visit.draw_reach, visit.looks_before_draw()
(4, 160.0, 0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from vision.arm_probe import DISCARD, DRAW, ArmSighting
from vision.watcher_config import WatcherConfig

__all__ = ["IN_A_ROW_LOOKS", "ROUNDING_S", "ArmVisit", "CardDraw"]

#: Sighting times are frame numbers over a frame rate: a span this much short of a
#: setting is that setting (5 frames at 20 frames/s span 0.2 s, less a rounding).
ROUNDING_S = 1e-6
#: Two sightings are in a row when the second comes at most this many looks after
#: the first (a look's time jitters with the camera's clock).
IN_A_ROW_LOOKS = 1.5


@dataclass
class ArmVisit:
    """One arm's reach to the piles: from its first sighting to its last."""

    seat: int
    t0: float
    t1: float
    #: When its far end was first and last at the draw pile, and in how many frames.
    draw_t0: float = math.inf
    draw_t1: float = -math.inf
    draw_looks: int = 0
    #: The nearest its far end came to the draw pile's centre, in card lengths.
    to_draw: float = math.inf
    #: Begun before the round's first card was turned up (the dealer takes it).
    before_start: bool = False
    #: Frames after the first at the draw pile, and those of them at the discard pile.
    after_draw: int = 0
    discard_after_draw: int = 0
    #: When its far end was last at the discard pile, and in how many frames.
    discard_t1: float = -math.inf
    discard_looks: int = 0
    #: At the discard pile means: its far end nearest to it of the piles, and this near
    #: its centre (card lengths; ``WatcherConfig.arm_draw_play_near``) ...
    play_near: float = math.inf
    #: ... and, after the draw pile, the arm as long as this share of its longest there
    #: (``WatcherConfig.arm_draw_play_reach``): an arm going back is shorter.
    play_reach: float = 0.0
    #: The arm's longest at the draw pile: from where it crosses the frame's edge to its
    #: far end, in pixels.
    draw_reach: float = 0.0
    #: How long before its first frame at the draw pile this seat's arm was last at
    #: the discard pile in an earlier visit (an arm going back from a play, seen
    #: again as it passes the draw pile).
    since_discard: float = math.inf
    #: The farthest its far end went from the draw pile's centre since it was last
    #: there (card lengths; 0 until it has been there).
    drew_back: float = 0.0
    #: Since when its arm has been drawn back: shorter than ``retract`` of its longest
    #: at the draw pile, and not ``reach_again`` of it since (inf: it is not;
    #: ``WatcherConfig.arm_draw_retract``, ``arm_draw_reach_again``).
    short_since: float = math.inf
    retract: float = 0.0
    reach_again: float = 1.0
    #: When it was seen (every sighting, in order).
    seen_t: list[float] = field(default_factory=list)
    #: How far its far end was from the draw pile's centre when last seen (card lengths).
    last_to_draw: float = math.inf
    #: First seen at the draw pile just after its seat's draw, seen coming in, was
    #: last seen there (``WatcherConfig.arm_draw_resumed_s``): the same arm, lost a
    #: while as it held still.
    resumed: bool = False

    def longest_run(self, look_s: float) -> int:
        """The most sightings in a row: each at most ``IN_A_ROW_LOOKS`` looks after the
        last (``look_s``, the time between two looks).

        >>> v = ArmVisit(0, 0.0, 0.0, seen_t=[0.0, 0.1, 0.3, 0.4, 0.5, 0.7])
        >>> v.longest_run(0.1)
        3
        """
        best = run = 0
        last = -math.inf
        for t in self.seen_t:
            run = run + 1 if t - last <= IN_A_ROW_LOOKS * look_s else 1
            best = max(best, run)
            last = t
        return best

    def looks_before_draw(self) -> int:
        """How often it was seen before its far end first reached the draw pile.

        >>> ArmVisit(0, 0.0, 0.3, draw_t0=0.2, seen_t=[0.0, 0.1, 0.2, 0.3]).looks_before_draw()
        2
        """
        return sum(1 for t in self.seen_t if t < self.draw_t0)

    def back_for_more(self, s: ArmSighting, cfg: WatcherConfig) -> bool:
        """Is ``s``, at the draw pile, the arm back for another card? Since it was last
        there it went ``arm_draw_retreat`` card lengths or more from the pile for
        ``arm_draw_gone_s`` or more, or (an arm whose seat is beside the draw pile
        never goes far from it) was shorter than ``arm_draw_retract`` of its longest
        there for as long, and now reaches ``arm_draw_reach_again`` of it; and it was
        not at the discard pile (an arm that was there may have played: its visit is
        judged as one)."""
        if s.pile != DRAW or not self.draw_looks or self.discard_t1 >= self.draw_t1:
            return False
        gone_s = cfg.arm_draw_gone_s - ROUNDING_S
        if self.drew_back >= cfg.arm_draw_retreat and s.t - self.draw_t1 >= gone_s:
            return True
        length = math.dist(s.entry, s.tip)
        again = length >= self.reach_again * self.draw_reach
        return again and s.t - self.short_since >= gone_s

    def add(self, s: ArmSighting) -> None:
        self.t1 = s.t
        length = math.dist(s.entry, s.tip)
        self.seen_t.append(s.t)
        self.last_to_draw = s.to_draw
        # At the discard pile, and not an arm going back from the draw pile over it.
        at_discard = (
            s.pile == DISCARD
            and s.to_discard <= self.play_near
            and length >= self.play_reach * self.draw_reach
        )
        if self.draw_looks:
            self.after_draw += 1
            if at_discard:
                self.discard_after_draw += 1
        if at_discard:
            self.discard_t1 = s.t
            self.discard_looks += 1
        self.to_draw = min(self.to_draw, s.to_draw)
        if self.draw_looks and s.pile != DRAW:
            self.drew_back = max(self.drew_back, s.to_draw)
        if not self.draw_looks or length >= self.reach_again * self.draw_reach:
            self.short_since = math.inf  # (once short, short until it reaches out again)
        elif length < self.retract * self.draw_reach and not math.isfinite(self.short_since):
            self.short_since = s.t
        if s.pile == DRAW:
            self.drew_back = 0.0
            self.draw_reach = max(self.draw_reach, length)
            self.draw_t0 = min(self.draw_t0, s.t)
            self.draw_t1 = s.t
            self.draw_looks += 1


@dataclass(frozen=True)
class CardDraw:
    """A draw the card rules made: when, and for which seat (None: unknown)."""

    t: float
    seat: int | None
