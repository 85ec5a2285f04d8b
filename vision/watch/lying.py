"""A card first seen lying on the discard pile (a hand covered it on the way, or the
recogniser could not read it in flight): a card just put down, a copy of a face on
the pile, or a pile card seen again.

:class:`LyingCardRules` holds the rules :class:`vision.watch.plays.PlayRules` asks
about such a card: whether it is new (:meth:`~LyingCardRules.is_new_card`), whether an
arm brought it (:meth:`~LyingCardRules.put_down_by_arm`), whether a pile card is read
where it lies (:meth:`~LyingCardRules.read_beside_pile_card`), and a copy of the top
card's face put on it by a quick hand (:meth:`~LyingCardRules.copy_on_top`).
"""

from __future__ import annotations

import math
from collections import deque

from vision.arm_probe import SEEN_THERE
from vision.boxes import box_overlap
from vision.faces import BACK, card_value
from vision.motion import SPAN_ROUNDING_S
from vision.tracks import Track, same_moments
from vision.watch.landing import LandingRules
from vision.watch.state import PileEntry, WatcherState


class LyingCardRules:
    """The rules for a card first seen lying on the pile (see the module)."""

    def __init__(
        self,
        state: WatcherState,
        landing: LandingRules,
        plays_by_seat: deque[tuple[PileEntry, int]],
    ) -> None:
        self.state = state
        self.cfg = state.cfg
        self.landing = landing
        # The plays committed lately, with the seat that made each (PlayRules keeps it).
        self.plays_by_seat = plays_by_seat

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
            if moved and _centre_shift(rest, ref) < self.cfg.still * card:
                # Its box shrank, its middle stayed: a hand over part of it, not a copy
                # beside it (quick-untidy-26fps seed 780, plays of three: Cy's hand
                # hovering over Bob's green 1 with the card it played next).
                continue
            seat = arms.seat_for(back)
            players = self.state.players
            if seat is None or (
                top.player in players
                and players.index(top.player) == seat
                and back - top.t <= self.cfg.straighten_s
                # (not if it went away and came back: a jump-in of its own, a second
                # copy, ``warm-drop-untidy-28fps`` held-out 664, opened: Bob's green 1s)
                and not self._arm_came_back(seat, top.t, back)
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
        came_in = self.state.came_in(tr, card)
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
        lay = max(self._came_to_lie(tr)[1], tr.read_since())
        put_down = t - lay <= self.cfg.put_down_judged_s and self.put_down_by_arm(tr)
        since = t - self.cfg.beside_gap_s
        if not came_in and not put_down and self.read_beside_pile_card(tr, card, since):
            # Moved about on the pile only, and a pile card is seen where it lies: two
            # whole cards cannot lie in one place, it is that card misread (its own box
            # blinks now and then while the other reads it).
            return False
        if self.state.pile:
            top = self.state.pile[-1]
            if tr.first_t <= top.t and any(
                self.state.tracker.was_card(tr, c, xy)
                for c, xy in zip(top.cards, top.spots, strict=True)
            ):
                # It came with the last play and lies where a card of it lies, read as
                # that card before: that card, misread (``dim-warm`` seed 647, plays
                # of three: Bob's yellow 6, lost on its way, found by its colour,
                # boxed as a yellow 5 once it lay).
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
                )
            again = self.state.near_pile_card(tr, card, reach=self.cfg.pile_reach)
            # Put down by an arm: a copy of a pile card's face, lying otherwise than it
            # (a covering hand put it down), or where no card of its face lies (beside
            # it: ``covering-untidy-25fps`` seed 606, trained recogniser, Cy's green 4
            # put beside Bob's).
            copy = put_down and (again is None or self.landing.covered_copy(tr, again, card))
            if not came_in and again is not None and not copy:
                # A pile card seen again (uncovered, re-detected, or pushed about by
                # the card put on it): it never came from outside the pile.
                return False
            if not arrived and name in top.cards and not copy:
                return False
            if copy and not came_in and name == top.top and self._hand_still_there(lay, t):
                # The top card's face under a hand still over the pile: judged once the
                # hand has gone. A hand held over the pile, then brought back with its
                # card, uncovers the top card as it goes (``drop`` and twelve more
                # styles held-out 670: Ann's hand over Cy's green 2 for a second, the
                # green 2 taken for her copy, her green reverse refused); one that put
                # a copy down leaves it (the play's time is when it came to lie there).
                return False
        if arrived:
            return True
        if not put_down and (
            self.read_beside_pile_card(tr, card) or self.state.once_read_as_pile_card(tr, card)
        ):
            return False
        if not put_down and self.arm_brought_another(tr):
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

    def put_down_by_arm(self, tr: Track) -> bool:
        """Did an arm bring this card, first seen on the pile (a covering hand)?

        Not an arm whose card was played about then (``one_play_per_arm_s``, before or
        after) and not taken back before this one showed, when this one is of another
        value: a hand brings one play (cards put down together share a value), and the
        card it brings, in lying down, covers and uncovers the pile cards around it,
        whose boxes come and go: a pile card seen again, not a card put down
        (``quick-untidy-26fps`` seed 602, ``scattered-pile`` seeds 601 and 602, trained
        recogniser).
        """
        arms = self.state.arms
        if arms is None:
            return False
        back, came = self._came_to_lie(tr)
        # The arm there as it came to lie there (fast-blur-untidy-22fps seed 601, trained
        # recogniser: a pile card seen since Ann played, hidden a moment by Dee's green
        # reverse carried over it, was taken for a card Ann's arm put down), or as it
        # began to read as its face, when its track is a misreading's older than the card
        # (``rushed-dusk-25fps`` seed 671, held out: Bob's blue reverse on the track of
        # a pile card's misreading first seen as Ann's arm brought her wild, refused as
        # a card Ann's arm brought besides its wild).
        lay = max(came, tr.read_since())
        seat = arms.seat_for(lay)
        if seat is None:
            return False
        if back is not None and self._lay_there_before(tr):
            return False
        if self._own_play_seen_again(tr, seat, lay):
            return False
        return not self._brought_another(tr, seat, card_value(tr.name), lay)

    def _own_play_seen_again(self, tr: Track, seat: int, lay: float) -> bool:
        """Is ``tr`` of a face of the last play, made by ``seat``'s arm on the visit it
        was on as ``tr`` came to lie there (it did not leave and come back)?

        One visit brings one play: two cards of a face put down together are one play
        of both, seen together. A box of that face showing under the hand's card after
        it was played is the heap under it misread (``high-tilted`` seed 655: Ann's red
        2 on a red skip, a second red 2 boxed a third of a card lower 0.3 s on, over
        Bob's red 2 deeper down, was played again).
        """
        if not self.plays_by_seat or not self.state.pile:
            return False
        play, by = self.plays_by_seat[-1]
        return (
            by == seat
            and play is self.state.pile[-1]
            and tr.name in play.cards
            and lay >= play.t
            and not self._arm_came_back(seat, play.t, lay)
        )

    def _hand_still_there(self, lay: float, t: float) -> bool:
        """Is the arm that was at the pile at ``lay`` still there at ``t`` (seen at the
        discard pile within ``arm_draw_gone_s``)?"""
        arms = self.state.arms
        seat = None if arms is None else arms.seat_for(lay)
        if arms is None or seat is None:
            return False
        since = t - self.cfg.arm_draw_gone_s
        return any(s.seat == seat and s.at_discard for s in arms.sightings_since(since))

    def _came_to_lie(self, tr: Track) -> tuple[float | None, float]:
        """When ``tr`` was seen again after it last went unseen ``hidden_gap_s`` (None
        if it never did), and when it came to lie where it lies: then, or when first seen
        (its track may be older: a misreading at that place before the card was put
        down, a hand over it meanwhile)."""
        back = tr.back_t
        return back, tr.first_t if back is None else back

    def arm_brought_another(self, tr: Track) -> bool:
        """Was the arm at the pile as ``tr`` came to lie there that of a seat that brought
        a card of another value then (carried in view, or played: ``one_play_per_arm_s``),
        a face new to the pile?

        A play of a face the pile held already (a copy put down, or a pile card
        uncovered and taken for one) is no such evidence (``covering-untidy-25fps`` seed
        720, plays of three, trained recogniser: a Wild Draw Four two deep, uncovered by
        Ann's hand and played as a copy, would have hidden the red skip she put down).
        """
        arms = self.state.arms
        _back, lay = self._came_to_lie(tr)
        seat = None if arms is None else arms.seat_for(lay)
        if seat is None:
            return False
        return self._brought_another(tr, seat, card_value(tr.name), lay, new_faces=True)

    def _brought_another(
        self, tr: Track, seat: int, value: str, lay: float, *, new_faces: bool = False
    ) -> bool:
        """Did ``seat``'s arm bring a card of another value than ``value`` about when
        ``tr`` came to lie there (``lay``): carried in view, or a play of it (``new_faces``:
        of a face no earlier play had), not taken back before ``tr`` showed (then ``tr``
        was put down in its place)?"""
        return self._carried_in_view(tr, seat, value, lay) or any(
            by == seat
            and abs(lay - play.t) <= self.cfg.one_play_per_arm_s
            and card_value(play.top) != value
            and (play.taken_back_t is None or play.taken_back_t > lay)
            and not (new_faces and self._face_seen_before(play))
            and not self._arm_came_back(seat, play.t, lay)
            for play, by in self.plays_by_seat
        )

    def _arm_came_back(self, seat: int, since: float, lay: float) -> bool:
        """Did ``seat``'s arm leave the discard pile after ``since`` (unseen there
        ``arm_away_s`` or longer) and come back (seen there twice) by ``lay``?

        Then it is on a second visit, and brings a second play: after two skips with
        three players the same seat plays again a second or two later
        (``covering-hand`` seed 615, trained recogniser: Cy's green 7, put down by his
        covering hand 1.8 s after his skips, was taken for a pile card his skips'
        hand uncovered). At the discard pile means its far end within
        ``arm_draw_play_near`` of the pile's centre, as for a draw by arm: a still arm's
        remains a card and a half off, the arm itself gone back for a second card, are
        not the arm there (``covering-dim-22fps`` held-out 664, opened: Bob's second
        green 1, a jump-in on his own, taken for his first seen again).
        """
        arms = self.state.arms
        if arms is None:
            return False
        prev, away, back = since, False, 0
        for seen in arms.sightings_since(since):
            if seen.t > lay:
                break
            if seen.seat != seat or seen.to_discard > self.cfg.arm_draw_play_near:
                continue  # not at the discard pile (a still arm's ghost beside it)
            if seen.t - prev >= self.cfg.arm_away_s:
                away, back = True, 0  # gone that long: what comes now is a new visit
            back += 1
            prev = seen.t
            if away and back >= SEEN_THERE:
                return True
        return False

    def _face_seen_before(self, play: PileEntry) -> bool:
        """Did a play under ``play`` on the pile have its top face?"""
        for entry in self.state.pile:
            if entry is play:
                return False
            if play.top in entry.cards:
                return True
        return False

    def _lay_there_before(self, tr: Track) -> bool:
        """Was ``tr`` seen lying as it lies now, read as its face, before it last went
        unseen (a hand over it; :attr:`vision.tracks.Track.lay_before`)?

        A hand that passes over a card lying on the pile and leaves it where it was
        put nothing down there: on an untidy pile the next player's covering hand
        hides the pile cards beside the top as it brings its own card
        (``covering-untidy-25fps`` seed 601, trained recogniser: a green 8 seen lying
        beside the top for a second, hidden by Dee's hand bringing a blue 7, was taken
        for a copy that hand put down). A card put square on it would lie as it did:
        no picture tells those apart, and a hand seldom puts a card square on a pile
        card that shows.
        """
        if tr.lay_before is None:
            return False
        face, then = tr.lay_before
        if face != tr.name:
            return False
        now = self.state.tracker.rest_box(tr, self.state.layout.card_px, self.cfg.quiet_play_rest_s)
        return box_overlap(then, now) >= self.cfg.same_box_overlap

    def _carried_in_view(self, tr: Track, seat: int, value: str, lay: float) -> bool:
        """Was a card of another value than ``tr``'s seen coming in from ``seat``'s side
        about when ``tr`` came to lie there (``one_play_per_arm_s``)?

        That arm carried that card, in view, not ``tr``: a card slid or carried over
        the pile hides the pile cards it passes and uncovers them again, and their
        boxes come back drawn otherwise (part of the card in view) while the arm is
        there (``fast-blur-untidy-22fps`` seed 601, trained recogniser: the top green
        8 uncovered as Bob's green 7 went over it was taken for a green 8 his hand put
        down, played before the green 7 came to rest). It is that play's, committed
        or not yet.
        """
        layout = self.state.layout
        # Played on the pile before that arm came and seen lying there since: not
        # carried by it (``shaky-untidy-28fps`` seed 606, trained recogniser: Cy's
        # green 1, played four seconds before and seen on the pile until his hand
        # covered it, counted as the card his arm carried in view: his blue 4 was lost).
        played_before = {
            i for e in self.state.pile if e.t < lay - self.cfg.one_play_per_arm_s for i in e.ids
        }
        return any(
            o is not tr
            and o.id not in played_before
            and o.name != BACK
            and o.was_outside_discard
            and not o.first_in_discard
            and not o.first_in_draw
            and card_value(o.name) != value
            # Seen coming before ``tr`` lay there, and moving (not a still misreading
            # beside the pile: a back on the draw pile read as a wild, covering-high-camera
            # seed 602).
            and o.first_t <= lay
            and o.max_travel >= self.cfg.arrived_travel * layout.card_px
            and abs(o.last_t - lay) <= self.cfg.one_play_per_arm_s
            and layout.seat_for_bearing(layout.bearing(*o.first_xy)) == seat
            for o in self.state.tracks
        )

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
