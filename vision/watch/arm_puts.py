"""Which arm put a card down: the arm at the pile as a card first seen lying there
came to lie there, and whether that arm brought it or another card (a hand brings one
play). :class:`vision.watch.lying.LyingCardRules` asks these of a card first seen
lying on the discard pile.
"""

from __future__ import annotations

from collections import deque

from vision.arm_probe import SEEN_THERE
from vision.boxes import box_overlap
from vision.faces import BACK, card_value
from vision.tracks import Track
from vision.watch.state import PileEntry, WatcherState


class ArmPutRules:
    """Did an arm put a card down (:meth:`put_down_by_arm`), did it bring another
    (:meth:`arm_brought_another`), is it still at the pile (:meth:`hand_still_there`)?"""

    def __init__(self, state: WatcherState, plays_by_seat: deque[tuple[PileEntry, int]]) -> None:
        self.state = state
        self.cfg = state.cfg
        # The plays committed lately, with the seat that made each (PlayRules keeps it).
        self.plays_by_seat = plays_by_seat

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
        # The arm there as it came to lie there (fast-blur-untidy-22fps seed 601, trained
        # recogniser: a pile card seen since Ann played, hidden a moment by Dee's green
        # reverse carried over it, was taken for a card Ann's arm put down), as what it
        # reads as now (:meth:`lay`).
        lay = self.lay(tr)
        seat = self._seat_at(lay)
        if seat is None:
            return False
        if tr.back_t is not None and self._lay_there_before(tr):
            return False
        if self._own_play_seen_again(tr, seat, lay):
            return False
        return not self._brought_another(tr, seat, card_value(tr.name), lay)

    def _own_play_seen_again(self, tr: Track, seat: int, lay: float) -> bool:
        """Is ``tr`` of the value of the last play, made by ``seat``'s arm on the visit
        it was on as ``tr`` came to lie there (it did not leave and come back between
        the two, whichever came first)?

        One visit brings one play: cards of a value put down together are one play of
        them all, seen together, and a lower card of it seen only once the hand left is
        the amendment's to find, by its ink
        (:meth:`vision.watch.fans.SeveralCardRules.amendment`). A box of that value
        showing under the hand's card after it was played is the heap under it
        misread (``high-tilted`` seed 655: Ann's red 2 on a red skip, a second red 2
        boxed a third of a card lower 0.3 s on, over Bob's red 2 deeper down, was
        played again; ``messy-pile`` and ``covering-messy-dim-23fps`` held-out 711,
        opened: Bob's green 3 put down beside Ann's yellow 3 two plays down, the
        yellow 3 boxed anew a little larger as his hand went, taken for a copy his
        arm put down).
        """
        if not self.plays_by_seat or not self.state.pile:
            return False
        play, by = self.plays_by_seat[-1]
        # Before the play was judged or after, on the same visit: the arm did not leave
        # and come back between the two (``covering-messy-dim-23fps`` held-out 711,
        # opened: the yellow 3 boxed anew at 10.91 s, Bob's green 3 judged at 11.13 s).
        first, then = sorted((play.t, lay))
        return (
            by == seat
            and play is self.state.pile[-1]
            and tr.id not in play.ids  # not a card of that play itself
            and card_value(tr.name) == card_value(play.top)
            and not self.arm_came_back(seat, first, then)
        )

    def hand_still_there(self, lay: float, t: float) -> bool:
        """Is the arm that was at the pile at ``lay`` still there at ``t`` (seen at the
        discard pile within ``arm_draw_gone_s``)?"""
        arms, seat = self.state.arms, self._seat_at(lay)
        if arms is None or seat is None:
            return False
        since = t - self.cfg.arm_draw_gone_s
        return any(s.seat == seat and s.at_discard for s in arms.sightings_since(since))

    def _seat_at(self, t: float) -> int | None:
        """The seat of the arm at the discard pile as a card showed there at ``t``, if
        an arm was (none without the arm watch)."""
        arms = self.state.arms
        return None if arms is None else arms.seat_for(t)

    def lay(self, tr: Track) -> float:
        """When ``tr`` came to lie where it lies as what it reads as now: when it came
        to lie there (:meth:`vision.tracks.Track.showed_t`: its track may be older, a
        misreading at that place before the card was put down, a hand over it
        meanwhile), or when it began to read as its face, when its track is a
        misreading's older than the card (``rushed-dusk-25fps`` seed 671, held out:
        Bob's blue reverse on the track of a pile card's misreading first seen as Ann's
        arm brought her wild, refused as a card Ann's arm brought besides its wild)."""
        return max(tr.showed_t(), tr.read_since())

    def arm_brought_another(self, tr: Track) -> bool:
        """Was the arm at the pile as ``tr`` came to lie there that of a seat that brought
        a card of another value then (carried in view, or played: ``one_play_per_arm_s``),
        a face new to the pile?

        A play of a face the pile held already (a copy put down, or a pile card
        uncovered and taken for one) is no such evidence (``covering-untidy-25fps`` seed
        720, plays of three, trained recogniser: a Wild Draw Four two deep, uncovered by
        Ann's hand and played as a copy, would have hidden the red skip she put down).
        """
        lay = tr.showed_t()
        seat = self._seat_at(lay)
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
            and not self.arm_came_back(seat, play.t, lay)
            for play, by in self.plays_by_seat
        )

    def arm_came_back(self, seat: int, since: float, lay: float) -> bool:
        """Did ``seat``'s arm leave the discard pile (unseen there ``arm_away_s`` or
        longer, counted from its last look there up to ``one_play_per_arm_s`` before
        ``since``) and come back after ``since`` (seen there twice) by ``lay``?

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
        for seen in arms.sightings_since(since - self.cfg.one_play_per_arm_s):
            if seen.t > lay:
                break
            if seen.seat != seat or seen.to_discard > self.cfg.arm_draw_play_near:
                continue  # not at the discard pile (a still arm's ghost beside it)
            if seen.t < since:
                prev = seen.t  # the visit that brought the play, gone before it was judged
                continue
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
