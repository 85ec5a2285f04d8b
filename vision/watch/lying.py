"""A card first seen lying on the discard pile (a hand covered it on the way, or the
recogniser could not read it in flight): a card just put down, a copy of a face on
the pile, or a pile card seen again.

:class:`LyingCardRules` holds the rules :class:`vision.watch.plays.PlayRules` asks
about such a card: whether it is new (:meth:`~LyingCardRules.is_new_card`), whether an
arm brought it (:class:`vision.watch.arm_puts.ArmPutRules`), whether a pile card is read
where it lies (:meth:`~LyingCardRules.read_beside_pile_card`), and a copy of the top
card's face put on it by a quick hand (:meth:`~LyingCardRules.copy_on_top`).
"""

from __future__ import annotations

import math
from collections import deque

from vision.boxes import box_overlap, box_within
from vision.faces import BACK
from vision.motion import SPAN_ROUNDING_S
from vision.tracks import Track, TrackState, same_moments
from vision.watch.arm_puts import ArmPutRules
from vision.watch.copies import CopyRules
from vision.watch.state import PileEntry, WatcherState


class LyingCardRules:
    """The rules for a card first seen lying on the pile (see the module)."""

    def __init__(
        self,
        state: WatcherState,
        copies: CopyRules,
        plays_by_seat: deque[tuple[PileEntry, int]],
    ) -> None:
        self.state = state
        self.cfg = state.cfg
        self.copies = copies
        self.arms = ArmPutRules(state, plays_by_seat)

    def copy_on_top(self, t: float, card: float) -> None:
        """A copy of the top card's face put on it by a quick hand, whose box the
        detector gave the top card's track: make it a track of its own.

        Carried in fast, a card is a blur the recogniser does not read; it hides the
        top card for a frame or two as it lands, and is then seen lying where that one
        lay, with its face: the tracker takes it for the top card seen again. It lies
        otherwise, though (its box, steadied, overlaps the top card's less than
        ``same_box_overlap``), and an arm was at the pile as the top card went unseen
        ``copy_gap_s`` or longer: another seat's, or the seat that played it, later
        than ``straighten_s`` after (sooner, its hand is straightening it). Or it never
        went unseen, the detector giving the two cards one box, but it moved: first
        seen where it lies now since the pile last changed (:meth:`Motion.moved_to_rest`),
        lying otherwise with its middle moved ``still`` or more (a box shrunk under a
        hovering hand keeps its middle), such an arm there then. As a card first seen
        lying on the pile it is then played as any such (a covered copy,
        :meth:`is_new_card`).
        """
        arms = self.state.arms
        if arms is None or not self.state.pile:
            return
        top = self.state.pile[-1]
        ref = top.boxes.get(top.top)
        if ref is None:
            return
        motion = self.state.tracker
        wait = self.cfg.quiet_play_rest_s
        for tr in self.state.own_tracks(top):
            if tr.last_t != t:
                continue
            back = motion.gap_end(tr, self.cfg.copy_gap_s, after=top.t)
            moved = back is None or t - back < wait - SPAN_ROUNDING_S
            if moved:
                # Never unseen, yet lying elsewhere now: one box for it and a copy put
                # nearly on it (grainy-webcam-13fps seed 619, trained recogniser: Bob's
                # red 1 on Dee's, 0.07 card lengths off; at 13 frames/s every look is
                # a "gap" of copy_gap_s, so the gap alone never told it either).
                # Moved since the pile last changed: a card uncovered by a take-back
                # is boxed whole again, otherwise than while covered (covering-untidy-
                # 25fps seed 610, trained recogniser: Bob's blue 2 as Cy took his blue
                # 0 back, with the first form of this rule).
                after = max(top.t, self.state.pile_changed_t)
                back = motion.moved_to_rest(tr, card, after=after)
            if (
                back is None
                or t - back < wait - SPAN_ROUNDING_S
                or not motion.at_rest(tr, t, card, wait)
            ):
                continue
            rest = motion.rest_box(tr, card, wait)
            if box_overlap(rest, ref) >= self.cfg.same_box_overlap:
                continue
            if (
                moved
                and _centre_shift(rest, ref) < self.cfg.still * card
                and box_within(rest, ref) >= self.cfg.hidden_within
            ):
                # Its box shrank, its middle stayed: a hand over part of it, not a copy
                # beside it (quick-untidy-26fps seed 780, plays of three: Cy's hand
                # hovering over Bob's green 1 with the card it played next). Not a box
                # reaching out of the one before: a copy put square on it, lying across
                # it (``drop`` held-out 680, opened: Bob's blue 8, boxed 77 by 58, on
                # the starter blue 8, 48 by 72, their middles 3 pixels apart).
                continue
            seat = arms.seat_for(back)
            players = self.state.players
            if seat is None or (
                top.player in players
                and players.index(top.player) == seat
                and back - top.t <= self.cfg.straighten_s
                # (not if it went away and came back: a jump-in of its own, a second
                # copy, ``warm-drop-untidy-28fps`` held-out 664, opened: Bob's green 1s)
                and not self.arms.arm_came_back(seat, top.t, back)
            ):
                continue  # no hand, or the hand that played it, straightening it
            motion.split(tr, back)

    def arrived(self, tr: Track, card: float) -> bool:
        """Was ``tr`` seen coming: from outside the pile
        (:meth:`~vision.watch.state.WatcherState.came_in`), or along it
        (``arrived_travel``)?"""
        return self.state.came_in(tr, card) or tr.max_travel >= self.cfg.arrived_travel * card

    def still_within(self, tr: Track, card: float) -> float:
        """How far (card lengths) ``tr``'s box may wander and the card count as at rest:
        ``still`` for a card seen coming (it is slowing down), ``lying_still`` for one
        first seen lying there (a hand covered it: only its box moves, by a few pixels
        on a heap; ``covering-hand`` seed 603, trained recogniser: Ann's red 1, boxed 5
        px higher and lower by turns, was never at rest and never played)."""
        return self.cfg.still if self.arrived(tr, card) else self.cfg.lying_still

    def is_new_card(self, tr: Track, t: float, card: float) -> bool:
        """Would this resting track on the discard pile be a card just played?"""
        name = tr.name
        if name == BACK or tr.name_share() < self.cfg.new_card_vote:
            return False  # a back, or no clear face yet (a string of misreadings)
        if tr.waited_since is not None and name != tr.waited_as:
            # It waited for a hand over the pile to go as another face: that face went
            # with the hand, a misreading under it. A pile card's face where it lies is
            # that card seen again; another face is a card put there since, judged
            # afresh (``drop`` and five more styles held-out 690, opened: Cy's red 5,
            # read as a red 8 under Bob's hand passing over it, was played as Bob's,
            # then taken back; with the wait alone, ``dusk-drop-cool`` took that track,
            # once it read as the red 5 again, for Bob's copy put square on it).
            tr.waited_since = tr.waited_as = None
            if self.state.near_pile_card(tr, card, reach=self.cfg.pile_reach) is not None:
                tr.misread_here()
                return False
        came_in = self.state.came_in(tr, card)
        if came_in and (
            self.took_a_pile_card_s_box(tr, card) or self.came_as_another_face(tr, card)
        ):
            tr.misread_here()
            return False
        if (
            came_in
            and any(self.state.pile_cards_near(tr.xy, self.cfg.same_spot * card))
            and self.not_yet_its_face(tr)
        ):
            return False
        if not came_in and self.state.was_set_aside(
            self.state.tracker.rest_box(tr, card, self.cfg.quiet_play_rest_s)
        ):
            tr.state = TrackState.PILE  # set aside as the pile was emptied, seen again
            return False
        half_on = None if came_in else self.copies.top_misread_under_a_copy(tr, card)
        if half_on is not None:
            # The top card misread under a copy of its face put half on it: the copy's
            # sightings a track of their own, if the top card's track took them.
            other, since = half_on
            if other.settled:
                self.state.tracker.split(other, since)
            tr.misread_here()
            return False
        if not came_in and self.reads_as_pile_card_now(tr, card):
            return False
        arrived = self.arrived(tr, card)
        if not came_in and max(c for n, c in tr.votes if n == name) < self.cfg.clear_look:
            # A card just put down lies on top, uncovered: it is seen clearly at least
            # once. A face that came up only in unsure looks at the heap is a guess.
            return False
        # An arm reached the pile from a seat and went back just as the card showed: it
        # was put down (a hand covered it on the way), not a pile card misread.
        # Judged as it comes to lie there: one that has lain there longer, read as its
        # face all the while, never taken for a new card, is a pile card whose box
        # drifts as cards come onto it (``steep-messy-speeds`` seed 654: the blue 6 of
        # Bob's fan, boxed anew under later plays, its box drifted off its first one
        # 3.3 s on). Not a misreading there before the card came: it reads as the card
        # only since (``random-7038`` seed 803: Cy's green 7, its track a pile card's).
        lay = self.arms.lay(tr)
        if not arrived and self.uncovered_by_lift(lay):
            return False
        put_down = t - lay <= self.cfg.put_down_judged_s and self.arms.put_down_by_arm(tr)
        since = t - self.cfg.beside_gap_s
        if not came_in and not put_down and self.read_beside_pile_card(tr, card, since):
            # Moved about on the pile only, and a pile card is seen where it lies: two
            # whole cards cannot lie in one place, it is that card misread (its own box
            # blinks now and then while the other reads it).
            return False
        if self.state.pile:
            top = self.state.pile[-1]
            if self._came_with_a_play(tr, card):
                # It came with a play and lies where a card of it lies, read as that
                # card before: that card, misread or tracked twice, its twin, never a
                # play of its own, judged now or when lost (``dim-warm`` seed 647, plays
                # of three: Bob's yellow 6, lost on its way, found by its colour, boxed
                # as a yellow 5 once it lay; ``messy-pile`` held-out 689, opened: Bob's
                # Wild Draw Four boxed twice on its way, the track left behind free on
                # it for seven seconds, played as his second copy when Dee put hers
                # elsewhere on the pile). Not if it came there since: a pile card's
                # misreading whose track a card slid over it took up
                # (``shaky-scattered-24fps`` held-out 678, opened: a pile card read as a
                # red 1 beside Bob's red 1, Cy's red 6 slid from it onto his, taken for
                # his red 1 misread).
                tr.state = TrackState.TWIN
                return False
            if arrived and name == top.top:
                # The same face as the top: a second copy only if it came from outside
                # (an adjusted top card moves too, but never leaves the pile).
                fx, fy = tr.first_xy
                sx, sy = top.spots[-1]
                return (
                    came_in
                    or math.hypot(fx - sx, fy - sy) > self.cfg.second_copy_from * card
                    or self._beside_the_top(tr, top, card)
                    or (put_down and self.copies.hid_by_a_jump_in(tr))
                )
            again = self.state.near_pile_card(tr, card, reach=self.cfg.pile_reach)
            # Put down by an arm: a copy of a pile card's face, lying otherwise than it
            # (a covering hand put it down), or where no card of its face lies (beside
            # it: ``covering-untidy-25fps`` seed 606, trained recogniser, Cy's green 4
            # put beside Bob's).
            copy = put_down and (again is None or self.copies.covered_copy(tr, again, card))
            if not came_in and again is not None and not copy:
                # A pile card seen again (uncovered, re-detected, or pushed about by
                # the card put on it): it never came from outside the pile.
                return False
            if not arrived and name in top.cards and not copy:
                return False
            if (
                copy
                and not came_in
                and (
                    again is not None
                    or name == top.top
                    or self.copies.took_the_top_s_place(tr, card)
                )
                and self.arms.hand_still_there(lay, t)
            ):
                # A pile card's face under a hand still over the pile: judged once the
                # hand has gone. A hand held over the pile, then brought back with its
                # card, uncovers the top card as it goes (``drop`` and twelve more
                # styles held-out 670: Ann's hand over Cy's green 2 for a second, the
                # green 2 taken for her copy, her green reverse refused), or a card
                # deeper down as it moves aside (``covering-candle-20fps`` held-out
                # 676, opened: Cy's hand over Bob's yellow 5 showed the starter yellow
                # 7, his yellow skip then refused); one that put a copy down leaves it
                # (the play's time is when it came to lie there; its new ink is looked
                # for from before the wait began; no take-back meanwhile). So too a face
                # that took the top card's place from one look to the next: fingers on
                # it make it read as another (``drop`` held-out 690, opened: Cy's red 5
                # under Bob's passing hand, read as a red 8).
                if tr.waited_since is None:
                    tr.waited_since, tr.waited_as = t, name
                return False
        if arrived:
            return True
        if not put_down and (
            self.read_beside_pile_card(tr, card) or self.state.once_read_as_pile_card(tr, card)
        ):
            return False
        if not put_down and self.arms.arm_brought_another(tr):
            # The arm at the pile as it came to lie there brought a card of another
            # value: a hand brings one play; this is a pile card it uncovered, misread
            # (``shaky-untidy-28fps`` seed 602, trained recogniser: the lower half of a
            # yellow 8 under Ann's yellow 7, read as a yellow 4).
            return False
        # Never seen moving: the detector may miss a card in a hand; ask for a longer rest
        # and a clear vote, so a one-off misreading of the top card is not a play.
        return (
            self.state.tracker.lying_still(
                tr, t, card, self.cfg.quiet_play_rest_s, self.still_within(tr, card)
            )
            and tr.name_share() >= self.cfg.quiet_play_vote
        )

    def _came_with_a_play(self, tr: Track, card: float) -> bool:
        """Did ``tr`` come with a play on the pile (first seen before it, after the play
        before it; before the top play, if it is the top one), and lie where a card of it
        lies since, read as that card before (:meth:`CardTracker.was_card`)?

        Not only the top play: a card carried in fast may be tracked twice, and the
        track left behind is found on the card it lost once it lies (``messy-pile``
        held-out 689, opened: Bob's wild draw four, its first track free on it for seven
        seconds, taken for his second copy as Dee played hers elsewhere on the pile)."""
        plays = self.state.pile
        for i in range(len(plays) - 1, -1, -1):
            play = plays[i]
            if tr.first_t > play.t:
                return False  # it came after this play, and so after every older one
            if 0 < i < len(plays) - 1 and tr.first_t <= plays[i - 1].t:
                continue  # older than this play: not come with it
            if tr.travel_since(play.t) < self.cfg.arrived_travel * card and any(
                self.state.tracker.was_card(tr, c, xy)
                for c, xy in zip(play.cards, play.spots, strict=True)
            ):
                return True
        return False

    def uncovered_by_lift(self, lay: float) -> bool:
        """Did ``lay``, when a card first seen lying on the pile came to lie there as
        what it reads as, fall within ``lift_uncovers_s`` of a top card's lift (from
        when it was last seen lying there to when it was first seen carried off)?

        A hand taking a card back holds that card: what showed on the pile as it went
        is a pile card it uncovered, read as something else, not a card it put down
        (``steep-messy-speeds`` held-out 673, opened: as Bob carried his green 5 back
        off the pile in view, Cy's green 3 under it showed as a yellow Draw Two; played
        as Bob's, it hid the take-back, and his Wild Draw Four 2 s on was refused).
        """
        w = self.cfg.lift_uncovers_s
        return any(last - w <= lay <= off + w for last, off in self.state.lifts)

    def _beside_the_top(self, tr: Track, top: PileEntry, card: float) -> bool:
        """Was ``tr``, of the top card's face, seen apart from the top card since it
        reads as that face: at every moment both were seen (two at least), the top
        card's own track at its spot (within ``same_spot``) and ``tr`` ``copy_apart``
        or farther from it? Then it is no top card straightened but a second copy (its
        track may be older: a pile card's misreading whose box the copy took up as it
        came, ``fast-messy-24fps`` held-out 667, opened: Ann's green 3 on Dee's, found
        1.5 s late with Bob's green 6, three alerts)."""
        spot = top.spots[-1]
        since = tr.read_since()
        for own in self.state.own_tracks(top):
            if own is tr:
                continue
            both = [(s, o) for s, o in same_moments(tr, own) if s.t >= since]
            if len(both) >= 2 and all(
                math.dist((o.x, o.y), spot) <= self.cfg.same_spot * card
                and math.dist((s.x, s.y), (o.x, o.y)) >= self.cfg.copy_apart * card
                for s, o in both
            ):
                return True
        return False

    def reads_as_pile_card_now(self, tr: Track, card: float) -> bool:
        """Is ``tr``, voted another face, read in its latest look as the pile card lying
        where it lies?

        A hand over the pile shades the card under it, and the recogniser may read it
        as another face while the hand is there; once it goes, the card reads as itself
        again (``covering-candle-20fps`` seed 643, trained recogniser: the starter blue 8,
        read as a wild under Bob's hand, was played as one). A card put down is read as
        itself once the hand is gone, not as the card under it.
        """
        if tr.last_name == tr.name:
            return False
        reach = self.cfg.same_spot * card
        return any(c == tr.last_name for c, _ in self.state.pile_cards_near(tr.xy, reach))

    def took_a_pile_card_s_box(self, tr: Track, card: float) -> bool:
        """Did ``tr``, carried in, come to rest as the face of the pile card lying where
        it lies (``same_spot``), read as that face there only after it lay there read
        as others ``swap_way_looks`` times or more?

        A card carried over a pile card at the pile's near edge may leave its track
        on that card as it goes on under another (the two boxes met): the track lies
        there, read as the carried card's face or misread under the hand going on,
        then as the pile card; no card was put down (``shaky-scattered-24fps``
        held-out 693, opened: Ann's yellow 2 carried over her yellow 3, put short of
        the pile, its track left on the yellow 3 and played as a second yellow 3). A
        copy put down there is read as its face as soon as it lies there, or before
        (``webcam-20fps`` tuning seed 615: Ann's Wild Draw Four on another, read as a
        yellow 4 twice on its way only).
        """
        if self.state.near_pile_card(tr, card) is None:
            return False
        name, (x, y) = tr.name, tr.xy
        reach = self.cfg.same_spot * card
        reads = tr.reads()
        first = next((i for i, (_s, read) in enumerate(reads) if read == name), None)
        if first is None or any(
            math.hypot(s.x - x, s.y - y) > reach for s, read in reads[first:] if read == name
        ):
            return False
        there = [s for s, _read in reads[:first] if math.hypot(s.x - x, s.y - y) <= reach]
        return len(there) >= self.cfg.swap_way_looks

    def came_as_another_face(self, tr: Track, card: float) -> bool:
        """Did ``tr``, seen coming as other faces, read as its face only where a pile
        card of that face lies (``same_spot``), lying as that card lay (their boxes
        overlapping ``same_box_overlap`` or more)?

        A hand passing over the pile hides a card, whose track is lost; seen again, it
        may be linked to a track begun on a misreading outside the pile, which thus
        seems to have come in (``steep-messy-speeds`` held-out 713, opened: Bob's
        yellow 4, hidden by Dee's hand, taken up 0.3 s on by a track begun on her hand
        by the draw pile, read as a red 1 and a wild, and played as hers). A copy
        carried in is read as its face on its way, or lies otherwise than the card of
        its face there (a copy put square on it and never read in flight is lost).
        """
        name = tr.name
        reads = tr.reads()
        first = next((i for i, (_s, read) in enumerate(reads) if read == name), None)
        if not first:
            return False  # never so read, or so read in its earliest remembered look
        reach = self.cfg.same_spot * card
        there = [
            (spot, entry.boxes[name])
            for c, spot, entry in self.state.pile_spots_near(tr.xy, reach)
            if c == name and name in entry.boxes
        ]
        if not there:
            return False  # (asked of every resting track: its box only when needed)
        box = self.state.tracker.rest_box(tr, card, self.cfg.quiet_play_rest_s)
        return any(
            box_overlap(box, was) >= self.cfg.same_box_overlap
            and all(
                math.dist((s.x, s.y), spot) <= reach for s, read in reads[first:] if read == name
            )
            for spot, was in there
        )

    def not_yet_its_face(self, tr: Track) -> bool:
        """Is ``tr``, carried in to where a pile card lies, not (yet) seen to be the
        face it is voted: never seen clearly as that face, or its latest look clearly
        another (``clear_look``)?

        Its track may have been a pile card's before it took up a card carried over
        that one, or left on a pile card by a card that went on (``shaky-scattered-
        24fps`` held-out 693, opened: Ann's yellow 2 played as her yellow 3, put short
        of the pile, whose track it took up; her yellow 5 played as two, one of them
        the yellow 3, seen there twice); or a card misread on its way, read as itself
        once it lies (``webcam-15fps`` held-out 693, opened: Ann's yellow 3 played as
        the yellow 1 it was read as in flight). Judged again as more looks come; an
        unsure look at the heap weighs nothing against a clear one in flight.
        """
        name, cfg = tr.name, self.cfg
        if max(c for n, c in tr.votes if n == name) < cfg.clear_look:
            return True
        last, conf = tr.votes[-1]
        return last != name and conf >= cfg.clear_look

    def read_beside_pile_card(self, tr: Track, card: float, since: float | None = None) -> bool:
        """Was a pile card seen at ``tr``'s place since (or just before) ``tr`` appeared
        (or since ``since``)?

        A card put on the pile hides the one under it, and the hand that brings it
        hides both for a moment. A face that comes and goes in turns with a pile
        card's at the same place, or takes its place from one frame to the next, is
        that card misread (a pile card boxed with the heap under it reads as anything).
        """
        x, y = tr.xy
        lim = self.cfg.same_spot * card
        after = tr.first_t - self.cfg.swap_gap_s if since is None else since
        return any(
            o is not tr
            and o.name != BACK
            and o.last_t >= after
            and math.hypot(o.xy[0] - x, o.xy[1] - y) <= lim
            # A pile card: played, or seen again where a card with its face was put.
            and (
                o.settled
                or self.state.near_pile_card(o, card, reach=self.cfg.pile_reach) is not None
            )
            for o in self.state.tracks
        )


def _centre_shift(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> float:
    """How far apart the middles of two boxes are (px).

    >>> _centre_shift((0, 0, 10, 10), (3, 4, 13, 14))
    5.0
    """
    return math.hypot((a[0] + a[2] - b[0] - b[2]) / 2, (a[1] + a[3] - b[1] - b[3]) / 2)
