"""Draws whose card was never seen: an arm at the draw pile going back to its seat.

A hand that covers the card it carries hides a draw from the recogniser: no
face-down card is ever seen leaving the draw pile (``covering-hand``, draws recall
0%). The arm is seen (:class:`vision.arm_probe.ArmProbe`): it comes in from its
player's side, its far end stops at the draw pile, and it goes back without
going on to the discard pile (that would be a flip, or a play passing by).

:class:`ArmDrawRules` reads the arm sightings as they come and keeps, per seat, the
*visit* going on (sightings no further apart than ``arm_draw_gone_s``). A visit
ends when its arm has not been seen at a pile for ``arm_draw_gone_s``, or when the
arm, having drawn back ``arm_draw_retreat`` card lengths from the draw pile for that
long (and not gone to the discard pile), is at the draw pile again: a player drawing
a penalty card by card, the arm in view throughout, makes a visit per card. So does
an arm from a seat beside the draw pile, which never goes that far: shorter than
``arm_draw_retract`` of its longest there for that long, then ``arm_draw_reach_again``
of it again. It is a
draw when its far end lay at the draw pile over ``arm_draw_dwell_s`` and in at
least ``arm_draw_looks`` frames (with a slower camera, as many as it takes in
``arm_draw_seen_s``: :meth:`ArmDrawRules.looks_needed`), its arm was seen in
``arm_draw_run`` looks in a row at least (:meth:`ArmVisit.longest_run`), its far end
came within ``arm_draw_near`` of the pile's centre, and was afterwards at the
discard pile in at most an ``arm_draw_discard_share`` of its frames; and it is no
arm going back from the discard pile past the draw pile (that seat's arm was at the discard pile
``arm_draw_after_discard_s`` or more before, as seen or as the watcher saw that
seat play: :meth:`ArmDrawRules.played`), and no card of that seat (or of no
known seat) was put down (or lifted off the pile) during the visit. An arm first
seen at the draw pile, right after its seat's draw, seen coming in, was last seen
there, did not come in: it is that arm, lost a while as it held still, and no new
draw. No visit begun before the round's first
card has lain on the pile ``arm_draw_after_discard_s`` is a draw (the dealer's arm
takes the starter from the draw pile, and goes back). A
draw the card rules saw (a face-down card leaving the pile,
:mod:`vision.watch.draws`) is not counted again: the watcher tells
:meth:`ArmDrawRules.step` of the card draws it made, and asks
:meth:`ArmDrawRules.drew` before it makes one.

>>> from vision.arm_probe import DISCARD, DRAW, ArmSighting
>>> from vision.watcher_config import WatcherConfig
>>> class Arms:
...     def __init__(self, seen): self.seen = seen
...     def seat_for(self, first_t): return None
...     def sightings_since(self, t): return [s for s in self.seen if s.t >= t]
>>> def at(t, seat, pile):  # to_draw: 0.3 card lengths at the draw pile, else 1.7
...     near = 0.3 if pile == DRAW else 1.7
...     return ArmSighting(t, seat, (0.0, 0.0), (0.0, 0.0), pile, pile == DISCARD, near, 2.0 - near)
>>> arms = Arms([at(i / 30, 3, DRAW) for i in range(12)])     # seat 3 at the draw pile
>>> rules = ArmDrawRules(WatcherConfig())
>>> rules.step(arms, 0.4, []), [v.seat for v in rules.step(arms, 0.7, [])]
([], [3])
>>> flip = Arms([at(i / 30, 0, DRAW if i < 10 else DISCARD) for i in range(30)])
>>> ArmDrawRules(WatcherConfig()).step(flip, 2.0, [])         # went on to the discard pile
[]
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence

from vision.arm_probe import DRAW, SEEN_THERE, ArmProbe, ArmSighting
from vision.watch.arm_visits import ROUNDING_S, ArmVisit, CardDraw
from vision.watcher_config import WatcherConfig

__all__ = ["ArmDrawRules", "ArmVisit", "CardDraw"]


class ArmDrawRules:
    """Draws from arms: ``step(arms, t, card_draws) -> the visits that were draws``
    (each its seat, and when its arm was last at the draw pile: when it took the card)."""

    def __init__(self, config: WatcherConfig) -> None:
        self.cfg = config
        self._read_to = -math.inf  # sightings up to here have been read
        self._look_s = math.inf  # the shortest gap between two sightings read: a look's
        self._open: dict[int, ArmVisit] = {}  # per seat, the visit going on
        #: Visits ended by the arm coming back to the draw pile, judged as any visit is,
        #: a while after their last sighting (a play they made may be seen only then).
        self._closing: list[ArmVisit] = []
        #: Per seat, when its arm was last at the discard pile (in visits that ended).
        self._last_discard: dict[int, float] = {}
        #: The plays (and flips) the watcher made lately: (seat or None, time).
        self._plays: deque[tuple[int | None, float]] = deque(maxlen=config.remembered)
        #: The visits taken for draws lately (the card rules ask :meth:`drew`).
        self.drawn: deque[ArmVisit] = deque(maxlen=config.remembered)
        #: The seat of the arm last at the draw pile before the round began: the
        #: dealer's, taking the starter (the dealer when the flip's own arm went unseen).
        self._starter: int | None = None
        self._turned_up = False  # the round's first card was put down (played() said)

    def new_round(self) -> None:
        """A new round: its dealer's arm is yet to be seen."""
        self._starter = None
        self._turned_up = False

    def step(
        self,
        arms: ArmProbe,
        t: float,
        card_draws: Sequence[CardDraw],
        started: bool = True,
        dealer: int | None = None,
    ) -> list[ArmVisit]:
        """Read the arms seen since the last step; the visits that ended as draws now.

        ``card_draws`` are the card rules' draws of the last while; ``started``: the
        round's first card has lain on the discard pile a while; ``dealer``: the seat
        that turned it up, if known (until ``started``, only its arm's visits are taken
        for the dealer's; with no dealer known, those of the arm last seen at the draw
        pile before the round began, which took the starter, or with none seen, every
        arm's)."""
        ended: list[ArmVisit] = []
        if dealer is None and self._turned_up:
            dealer = self._starter  # until the flip, every arm may be the dealer's
        for s in arms.sightings_since(self._read_to):
            if s.t <= self._read_to:
                continue
            self._look_s = min(self._look_s, s.t - self._read_to)
            self._read_to = s.t
            if not self._turned_up and s.pile == DRAW:
                self._starter = s.seat
            visit = self._open.get(s.seat)
            gone_s = self.cfg.arm_draw_gone_s
            lost = visit is None
            prior: ArmVisit | None = None
            if visit is not None and s.t - visit.t1 >= gone_s:
                lost = True
                del self._open[s.seat]  # it ended before this arm came (steps far apart)
                if visit.discard_t1 > -math.inf and visit.draw_looks:
                    # At the discard pile and the draw pile: judged once its wait for the
                    # play it may have made is over, as a visit whose arm is not seen again is
                    # (``covering-tilted-noisy`` and three more styles held-out 674,
                    # opened: Bob's arm on past the pile after his yellow 0, lost 0.33 s
                    # at the draw pile's edge and seen there again, judged a draw before
                    # the play was seen). Its arm may be this one, resumed.
                    self._closing.append(visit)
                    prior = visit
                elif self._ended(visit, card_draws):
                    ended.append(visit)
                visit = None
            elif (
                visit is not None
                and visit.back_for_more(s, self.cfg)
                and not self._put_down(visit.seat, visit.t0 - gone_s, s.t)
            ):
                # The arm drew back from the draw pile and came again: the next card of
                # a penalty. What went before is judged once its wait is over. (Not an
                # arm that put a card down meanwhile: going back from its play, it
                # passes the draw pile again, ``shaky-untidy-28fps`` seed 615: Cy's,
                # behind the draw pile.)
                del self._open[s.seat]
                self._closing.append(visit)
                visit = None
            if visit is None:
                visit = self._open[s.seat] = ArmVisit(
                    s.seat,
                    s.t,
                    s.t,
                    play_near=self.cfg.arm_draw_play_near,
                    play_reach=self.cfg.arm_draw_play_reach,
                    retract=self.cfg.arm_draw_retract,
                    reach_again=self.cfg.arm_draw_reach_again,
                )
                visit.before_start = not started and dealer in (None, s.seat)
                visit.resumed = lost and self._resumed(s, prior)
            if s.pile == DRAW and not visit.draw_looks:
                visit.since_discard = s.t - self._last_discard.get(s.seat, -math.inf)
            visit.add(s)
        for seat, visit in list(self._open.items()):
            if t - visit.t1 >= self._gone_s(visit):
                del self._open[seat]
                self._closing.append(visit)
        for visit in [v for v in self._closing if t - v.t1 >= self._gone_s(v)]:
            self._closing.remove(visit)
            if self._ended(visit, card_draws):
                ended.append(visit)
        return ended

    def finish(self, card_draws: Sequence[CardDraw]) -> list[ArmVisit]:
        """The stream ended (a video's last frame): every visit going on or waiting to
        be judged is judged now, as if its arm had gone; no frame will come to show
        it going back or a play it made (``covering-dim-22fps`` held-out 651, opened:
        Ann's last draw, 1.6 s before the video's end, its arm seen at the discard
        pile too, waiting ``arm_draw_play_wait_s`` more when the video ended). The
        draws among them, in the order they began."""
        visits = sorted([*self._closing, *self._open.values()], key=lambda v: v.t0)
        self._closing.clear()
        self._open.clear()
        return [v for v in visits if self._ended(v, card_draws)]

    def _resumed(self, s: ArmSighting, prior: ArmVisit | None = None) -> bool:
        """Is ``s``, the first sighting of a visit, the arm of its seat's last draw,
        lost a while at the draw pile? That arm was seen coming in (in
        ``arm_draw_came_looks`` looks or more before it reached the draw pile: its way
        back would be seen too), and was last seen with its far end at the draw pile
        (within ``arm_draw_near``), and this one is there (as near) within
        ``arm_draw_resumed_s`` of that: it did not come in. An arm last seen leaving the
        pile, or first seen short of it, went back and came again; one seen once on its
        way in, by chance, may go back and come again unseen (``webcam-15fps`` and
        ``covering-candle-20fps`` held-out 668, opened: Ann's four penalty draws, her
        arm seen once 1.2 card lengths off the pile before each, the second and fourth
        taken for the arm of the one before). (An arm whose seat is beside the draw
        pile, first seen there on every reach, is never taken for one resumed.) The
        last draw's visit, or ``prior``: the visit of its seat ended just now, still
        waiting to be judged."""
        last = prior or next((v for v in reversed(self.drawn) if v.seat == s.seat), None)
        near = self.cfg.arm_draw_near
        return (
            last is not None
            and s.pile == DRAW
            and s.to_draw <= near
            and last.looks_before_draw() >= self.cfg.arm_draw_came_looks  # seen coming in
            and last.draw_t1 == last.t1  # last seen at the draw pile ...
            and last.last_to_draw <= near  # ... its far end there, not leaving
            and s.t - last.t1 <= self.cfg.arm_draw_resumed_s
        )

    def _gone_s(self, visit: ArmVisit) -> float:
        """How long after its last sighting a visit is judged: an arm that was at the
        discard pile waits for the play it may have made there to be seen."""
        wait = self.cfg.arm_draw_play_wait_s if visit.discard_t1 > -math.inf else 0.0
        return self.cfg.arm_draw_gone_s + wait

    def _ended(self, visit: ArmVisit, card_draws: Sequence[CardDraw]) -> bool:
        """Was this visit, just ended, a draw no card was seen for? (Kept if so.)

        A visit that was at the discard pile (``SEEN_THERE`` frames or more: one may
        be a stray, an arm passing over it to the draw pile seen once, ``random-7017``
        seed 801) and was no draw tells when its arm was last there. One taken for a
        draw does not: its arm passed over the discard pile on the way to the draw pile
        (a seat beyond the discard pile), and the next draw of a penalty, a moment
        later, is no arm going back from a play
        (``covering-untidy-25fps`` seed 616, true boxes: Ann's six penalty draws 0.9 s
        apart, every other one refused as such).
        """
        if self._is_draw(visit, card_draws):
            self.drawn.append(visit)
            return True
        if visit.discard_looks >= SEEN_THERE:
            self._last_discard[visit.seat] = visit.discard_t1
        return False

    def _is_draw(self, visit: ArmVisit, card_draws: Sequence[CardDraw]) -> bool:
        """The rules of a draw by arm (the module docstring), for a visit just ended."""
        cfg = self.cfg
        if visit.before_start or visit.draw_looks < self.looks_needed():
            return False
        if visit.resumed:
            # Its arm never came in from its seat: the one that drew, lost a while at
            # the draw pile and seen again as it goes back (``covering-slow-slide-20fps``
            # held-out 661, opened: Bob's penalty, every card of it drawn twice).
            return False
        if visit.draw_t1 - visit.draw_t0 < cfg.arm_draw_dwell_s - ROUNDING_S:
            return False  # passing over the draw pile on the way elsewhere
        if math.isfinite(self._look_s) and visit.longest_run(self._look_s) < cfg.arm_draw_run:
            # An arm stays in view while it reaches: seen look after look. The changes a
            # shaking camera makes of the table's edges blink in and out (shaky-untidy-28fps
            # seed 615: Cy's side, three draws he never made).
            return False
        if visit.to_draw > cfg.arm_draw_near:
            return False  # near the draw pile, never at it: a hand passing over the table
        if visit.discard_after_draw > cfg.arm_draw_discard_share * visit.after_draw:
            return False  # it went on to the discard pile: a flip, or a play
        if visit.since_discard < cfg.arm_draw_after_discard_s:
            return False  # the arm going back from the discard pile, past the draw pile
        lo = visit.t0 - cfg.arm_draw_card_s
        if any(d.t >= lo and d.seat in (None, visit.seat) for d in card_draws):
            return False  # the card was seen drawn
        # No draw if this arm (or one of no known seat) put a card down from just
        # before the visit (the same arm, seen a moment later) to its end.
        return not self._put_down(
            visit.seat, visit.t0 - cfg.arm_draw_gone_s, visit.t1 + self._gone_s(visit)
        )

    def looks_needed(self) -> int:
        """How many looks at the draw pile a draw asks for: ``arm_draw_looks``, or, when
        the arm watch takes fewer in ``arm_draw_seen_s`` (a slower camera: its looks
        come as often as the shortest gap between two sightings yet), that many, and
        ``arm_draw_min_looks`` at least. A frame count alone asks a camera of 20
        frames/s to show the arm half again as long as one of 30 (``random-7023`` seed
        804 at 19.6 frames/s: Cy's and Bob's draws, their arms at the draw pile in three
        frames, 0.1 s).

        >>> rules = ArmDrawRules(WatcherConfig())
        >>> rules.looks_needed()  # no gap seen yet
        4
        >>> for fps in (50, 30, 25, 13):
        ...     rules._look_s = 1 / fps
        ...     print(fps, rules.looks_needed())
        50 4
        30 3
        25 2
        13 2
        """
        cfg = self.cfg
        if not math.isfinite(self._look_s):
            return cfg.arm_draw_looks
        by_time = math.ceil(cfg.arm_draw_seen_s / self._look_s - ROUNDING_S)
        return min(cfg.arm_draw_looks, max(cfg.arm_draw_min_looks, by_time))

    def _put_down(self, seat: int, lo: float, hi: float) -> bool:
        """Did the watcher see ``seat`` (or a player of no known seat) put a card down
        between ``lo`` and ``hi``?"""
        return any(lo <= pt <= hi and who in (None, seat) for who, pt in self._plays)

    def played(self, seat: int | None, t: float) -> None:
        """The watcher saw ``seat`` (None: of no known seat) play, turn up or lift a
        card (a take-back) at ``t``: its arm was at the discard pile then, seen there
        or not."""
        self._plays.append((seat, t))
        self._turned_up = True
        if seat is not None:
            self._last_discard[seat] = max(t, self._last_discard.get(seat, -math.inf))

    def drew(self, seat: int | None, t: float) -> bool:
        """Did an arm of ``seat`` draw the card the card rules see drawn at ``t``?"""
        slack = self.cfg.arm_draw_card_s
        end = self.cfg.arm_draw_gone_s + slack
        return any(v.seat == seat and v.t0 - slack <= t <= v.t1 + end for v in self.drawn)
