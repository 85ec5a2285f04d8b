"""A copy of a pile card put down under a covering hand, or that card seen again?

A covering hand hides a card until it lies on the pile; when its face is one the pile
holds (the top card's, a jump-in; one under it), what tells a copy put down from a
pile card uncovered by a hand leaving it, or misread where it lies, is where and how
it lies, which arm put it down, and whether the top card went unseen as it showed.
Questions the lying-card rules ask (:class:`vision.watch.lying.LyingCardRules`),
reading what the landing rules keep of the pile (:class:`vision.watch.landing.LandingRules`:
each play's boxes and spots as it came to rest, how its top card was boxed). Split
from :mod:`vision.watch.landing` in the forty-seventh session (no change of behaviour).
"""

from __future__ import annotations

import math

from tracker.cards import COPIES
from vision.arm_probe import DISCARD, DRAW, SEEN_THERE
from vision.boxes import box_middle, box_overlap, box_within
from vision.calibration import Box
from vision.tracks import Track
from vision.watch.state import PileEntry, WatcherState


class CopyRules:
    """:meth:`covered_copy`, :meth:`took_the_top_s_place`,
    :meth:`top_misread_under_a_copy` and :meth:`hid_by_a_jump_in`, asked of a card
    first seen lying on the pile."""

    def __init__(self, state: WatcherState) -> None:
        self.state = state
        self.cfg = state.cfg

    def covered_copy(self, tr: Track, again: PileEntry, card: float) -> bool:
        """Is ``tr``, put down by an arm with the face of the top play (``again``),
        another copy of that face, not that card seen again?

        A covering hand hides a card until it lies on the pile; when its face is the
        top card's (the same card twice: a jump-in), only where it lies tells it from
        that card uncovered (a hand leaving it): a card put down lies otherwise than
        the one there before.
        """
        # Not the face of the card just under the top: a take-back uncovers that one,
        # and the recogniser may draw its box otherwise than it did (a false copy,
        # trained recogniser, covering-hand seed 601). The top card's face, or one
        # lying deeper (no take-back uncovers it while the cards on it stay: a copy
        # put on the pile, covering-hand seed 601 at 11.1 s).
        copies = COPIES.get(tr.name)  # (None: a face no deck of the standard kind holds)
        if copies is not None and self.state.copies_on_pile(tr.name) >= copies:
            # Every copy a deck holds lies on the pile: that card seen again
            # (``shaky-covering-messy-26fps`` held-out 696, opened: Ann's yellow 3 seen
            # again as her blue 3 landed by it, its box pushed a few pixels, the fan of
            # Bob's with the other yellow 3 six plays down).
            return False
        pile = self.state.pile
        depth = len(pile) - next(i for i, e in enumerate(pile) if e is again)
        other_hand = self._other_hand(tr)
        if depth != 1 and depth < self.cfg.deep_copy_depth and not other_hand:
            return False
        if depth == 2 and other_hand and self._hid_the_top(tr):
            # The face just under the top, hiding the top card as it showed, put down by
            # another seat's hand than the one that played the top: no take-back (that is
            # the player's own hand), a copy on it, wherever it lies (covering-half-light
            # seed 604: Dee's green 5 put square on Cy's green 8, where Bob's green 5 lay
            # under it, was taken for a take-back).
            return True
        if (
            depth > 2
            and other_hand
            and (
                (self._hid_the_top(tr) and self._over_the_top(tr, card))
                or self._off_its_spots(tr, again, card)
            )
        ):
            # A face deeper still, lying over the top card's place as the top went
            # unseen: no one take-back uncovers it, and on a neat pile its copy lies where
            # the first lay (covering-hand seed 647: Dee's red 3 put square on Eve's red
            # reverse, over a red 5 and the red 3 before). Beside the top, it is a pile
            # card seen again as a hand passes (covering-untidy-25fps seed 713, trained
            # recogniser: a yellow 4 seven deep, as Ann's fan of sixes came). Or put
            # down half on the top card, away from where every card of its face on the
            # pile lay (``fast-messy-24fps`` and four more messy or fast styles, held-out
            # 696, opened: Bob's green 3, 0.6 card lengths from the green 3 of his fan,
            # overlapping Ann's yellow 3 by a quarter).
            return True
        if depth == 1 and other_hand and self._showed_as_the_top_came_back(tr):
            # The top card's face, hiding the top card as it showed, put down by another
            # seat's hand than the top's player's: no one uncovers a card by passing a
            # hand over it and taking nothing away, so a copy (a jump-in), wherever it
            # lies: put square on a neat pile, no picture tells it from the card under
            # it (covering-hand seed 618: Cy's red skip square on Bob's).
            return True
        if depth == 1 and tr.name != again.top and other_hand and self._hid_its_top(tr, again):
            # The face under the top within the top play (several cards put down
            # together), hiding the top card as it showed, put down by another seat's
            # hand: as for the face just under the top, no take-back, a copy
            # (covering-slide-warm-21fps seed 620, trained recogniser: Cy's green 6 on
            # Bob's green 6 and blue 6).
            return True
        if tr.name not in again.boxes:
            return False
        if depth == 1 and self._drew_over_the_top(tr):
            return False
        # Lying as no card of its face on the pile lay (one uncovered lies as it lay).
        near = self.state.pile_cards_near(tr.xy, self.cfg.pile_reach * card)
        box = self.state.tracker.rest_box(tr, card, self.cfg.quiet_play_rest_s)
        return all(
            box_overlap(box, e.boxes[c]) < self.cfg.same_box_overlap
            and not self._partly_hidden(box, e.boxes[c], card)
            # The detector boxed that card so by turns as it lay on top (messy-pile seed
            # 654: the blue 6 atop Bob's fan of sixes, boxed at its place and, half the
            # time, a fifth of a card higher; once Cy's yellow 6 hid its lower part,
            # only so, taken for a copy his hand put down).
            and not (c == e.top and self._lies_as_drawn(tr, box, e))
            for c, e in near
            if c == tr.name and c in e.boxes
        )

    def _partly_hidden(
        self,
        box: tuple[float, float, float, float],
        was: tuple[float, float, float, float],
        card: float,
    ) -> bool:
        """Is ``box`` the box ``was`` of a card lying where it lay, part of it hidden by
        cards put on it since: inside it (``hidden_within``), two of its sides or more
        where they were (within ``hidden_side``)?

        A copy put down lies on top, whole (messy-pile seed 654: the starter red 4
        under five plays, boxed 0.1 card lengths narrower, three sides where they were).
        One put down askew may lie inside the box of a card lying askew too, the sides
        of its box elsewhere (``random-7024`` seed 803, a randomised tuning style: Eve's
        second yellow 9, put across her first).
        """
        if box_within(box, was) < self.cfg.hidden_within:
            return False
        kept = sum(abs(a - b) <= self.cfg.hidden_side * card for a, b in zip(box, was, strict=True))
        return kept >= self.cfg.hidden_sides_kept

    def _over_the_top(self, tr: Track, card: float) -> bool:
        """Does ``tr`` lie over the place of a card of the top play: its box, at rest,
        overlapping that card's as it came to rest by ``copy_over_top`` or more, or
        holding ``copy_across_top`` of it or more (a card put across the top one,
        turned: its upright box is much bigger than the top card's; ``dusk-drop-cool``
        and thirteen more styles held-out 696, opened: Bob's green 3, put across Ann's
        yellow 3, its box 94 by 79 pixels once his hand had gone, holding three quarters
        of the yellow 3's, 56 by 82, was taken for the green 3 of his fan twelve seconds
        before, five plays down, seen again)?

        Or lying where a card of the top play came to rest, within ``same_spot`` card
        lengths of it (its box may not have been kept): a card deeper down is seen
        again only when every card put over it has gone, and the top play lies on the
        pile still (``warm-drop-untidy-28fps`` and four more styles, held-out 700,
        opened: Dee's second wild, put on the blue 3 of Cy's fan of threes, half on its
        yellow 3, where her first wild lay six plays down, was taken for that wild seen
        again; the blue 3's box kept in some styles, not in others, its track read as a
        blue 1 half the time).
        """
        top = self.state.pile[-1]
        box = self.state.tracker.rest_box(tr, card, self.cfg.quiet_play_rest_s)
        if any(
            box_overlap(box, ref) >= self.cfg.copy_over_top
            or box_within(ref, box) >= self.cfg.copy_across_top
            for ref in top.boxes.values()
        ):
            return True
        return self._on_a_spot(tr, top, card)

    def _off_its_spots(self, tr: Track, again: PileEntry, card: float) -> bool:
        """Does ``tr`` lie farther than ``same_spot`` card lengths from every spot where
        a card of its face in ``again`` came to rest? A pile card seen again lies where
        it lay (its box may not have been kept: a card of a fan covered soon after)."""
        return not self._on_a_spot(tr, again, card, face=tr.name)

    def _on_a_spot(self, tr: Track, play: PileEntry, card: float, face: str | None = None) -> bool:
        """Does ``tr`` lie within ``same_spot`` card lengths of where a card of ``play``
        (of ``face``, if given) came to rest?"""
        x, y = tr.xy
        reach = self.cfg.same_spot * card
        return any(
            math.hypot(x - sx, y - sy) <= reach
            for name, (sx, sy) in zip(play.cards, play.spots, strict=True)
            if face is None or name == face
        )

    def _boxes_with_the_top(self, tr: Track, card: float) -> tuple[Box, Box] | None:
        """``tr``'s box at rest and the top card's as it came to rest (None when the top
        card's box was not kept)."""
        top = self.state.pile[-1]
        ref = top.boxes.get(top.top)
        if ref is None:
            return None
        return self.state.tracker.rest_box(tr, card, self.cfg.quiet_play_rest_s), ref

    def _overlap_with_the_top(self, tr: Track, card: float) -> float:
        """How much ``tr``'s box at rest overlaps the top card's as it came to rest
        (intersection over union; 0 when the top card's box was not kept)."""
        boxes = self._boxes_with_the_top(tr, card)
        return 0.0 if boxes is None else box_overlap(*boxes)

    def took_the_top_s_place(self, tr: Track, card: float) -> bool:
        """Did ``tr`` take the top card's place: showing as the top card went unseen
        (seen last at most ``swap_gap_s`` before, and not since), lying where it lay and
        as it lay (its box, at rest, overlapping the top card's by ``same_box_overlap``
        or more)? A card put down hides the top one as a hand brings it, and lies
        otherwise; fingers resting on the top card make it read as another face from
        one look to the next, where it lies."""
        last = self.state.top_seen_t
        return (
            tr.first_t - self.cfg.swap_gap_s <= last <= tr.first_t
            and self._overlap_with_the_top(tr, card) >= self.cfg.same_box_overlap
        )

    def top_misread_under_a_copy(self, tr: Track, card: float) -> tuple[Track, float] | None:
        """Is ``tr``, another face lying where the top card lies and as it lies (its box
        at rest overlapping the top card's by ``same_box_overlap`` or more), first seen
        once the top card was last seen there, the top card misread, a copy of its face
        put half on it? So if a box of the top card's face lies otherwise since: a free
        track's, first seen then, or the top card's own track's, which left its place
        as ``tr`` showed (within ``swap_gap_s``). That track and when the copy's
        sightings of it begin; None if not so.

        A card on the pile does not move as one is put on it; a card half covered by
        another reads as what shows of it (``webcam-15fps`` and three more styles
        held-out 692, opened: Bob's yellow 2 put half on Cy's, which read as a yellow
        Draw Two where it lay, played as Bob's; Cy's track had taken the box of Bob's,
        slid in from a fifth of a card off, in ``covering-lamp-slide-20fps``).
        """
        pile = self.state.pile
        if not pile or tr.name == pile[-1].top:
            return None
        top = pile[-1]
        boxes = self._boxes_with_the_top(tr, card)
        same = self.cfg.same_box_overlap
        if boxes is None or box_overlap(*boxes) < same:
            return None
        ref = boxes[1]
        own = self.state.own_tracks(top)
        there = max(
            (s.t for o in own for s in o.sightings if box_overlap(s.box, ref) >= same),
            default=-math.inf,
        )
        if tr.first_t < there:
            return None  # the top card seen where it lies since this showed
        for o in self.state.tracks:
            if o is tr or o.name != top.top or box_overlap(o.box, ref) >= same:
                continue
            if not o.settled and o.first_t >= there:
                return o, o.first_t
            if o.id in top.ids and any(s.t <= there for s in o.sightings):
                left = min((s.t for s in o.sightings if s.t > there), default=math.inf)
                if abs(left - tr.first_t) <= self.cfg.swap_gap_s:
                    return o, left
        return None

    def _showed_as_the_top_came_back(self, tr: Track) -> bool:
        """Was the top card hidden ``hidden_gap_s`` or longer by a hand that went to the
        discard pile and nowhere else (its arm seen there twice or more while the top
        was hidden, never reaching for the draw pile), and seen again as ``tr`` showed
        (within ``hidden_gap_s``)? Its face seen there again is then ``tr`` itself."""
        piles = self._piles_of_the_hiding_arm(tr.first_t)
        # Going on to the draw pile, it was drawing, passing over the discard pile
        # (covering-untidy-25fps seed 609, trained recogniser: Ann's penalty draws).
        return piles.count(DISCARD) >= SEEN_THERE and all(p == DISCARD for p in piles)

    def _piles_of_the_hiding_arm(self, showed: float) -> list[str]:
        """The piles the arm there as a card showed at ``showed`` was seen at while the
        top card was hidden, when the top came back into view then (within
        ``hidden_gap_s``); none otherwise."""
        span, arms = self.state.top_hidden, self.state.arms
        if arms is None or span is None or abs(span[1] - showed) > self.cfg.hidden_gap_s:
            return []
        seat = arms.seat_for(showed)
        return [s.pile for s in arms.sightings_since(span[0]) if s.t <= span[1] and s.seat == seat]

    def _drew_over_the_top(self, tr: Track) -> bool:
        """Did the hand that hid the top card as ``tr`` showed reach the draw pile while
        it was hidden (seen there ``SEEN_THERE`` times or more)? It passed over the
        discard pile to draw: ``tr`` is the top card uncovered, whatever its box now (the
        arm still over its edge; ``random-7001`` seed 801, a randomised tuning style:
        Ann drawing four, her arm over Cy's Wild Draw Four each time, the card's box
        8 px taller as it showed again, taken for a copy she put down). Seen there no
        more often than at the discard pile, it put a card down, its far end passing
        between the piles as it went back (``covering-messy-dim-23fps`` held-out 692,
        opened: Bob's arm from the left, his yellow 2 half on Cy's, seen at the discard
        pile four times, then twice a little nearer the draw pile's middle)."""
        piles = self._piles_of_the_hiding_arm(tr.showed_t())
        drew = piles.count(DRAW)
        return (
            drew >= SEEN_THERE
            and drew >= piles.count(DISCARD)
            and not self._covered_a_pile_card(tr)
        )

    def _covered_a_pile_card(self, tr: Track) -> bool:
        """Did a pile card seen steadily until the hand hid the top card (in
        ``covered_steady`` of the frames of the ``seen_window_s`` before) go unseen
        since the top showed again (its face boxed nowhere within ``same_spot`` of where
        it lay), ``tr`` seen ``covered_looks`` times or more lying over its spot (inside
        its box)? A hand passing over the pile to draw uncovers what it hid; a card put
        down covers what lay there (``covering-dim-22fps`` and three more covering
        styles held-out 708, opened: Ann's second yellow 6, put on her first from
        beyond the pile, her fingertips nearer the draw pile than the discard pile's
        middle, taken for the first seen again as she drew: the yellow skip beside it,
        seen in every frame before, was never seen again)."""
        span = self.state.top_hidden
        cfg = self.cfg
        if span is None:
            return False
        hid, showed = span
        if sum(1 for s in tr.sightings if s.t >= showed) < cfg.covered_looks:
            return False
        x1, y1, x2, y2 = tr.box
        window = hid - cfg.seen_window_s
        top = self.state.pile[-1] if self.state.pile else None
        # The pile cards' looks (their tracks, kept with the faces seen lately: a track
        # lost for good is no more among the tracks).
        before = [
            [o for _, o in seen if o is not None and o.settled and o is not tr]
            for lt, seen in self.state.looks
            if window <= lt <= hid
        ]
        seen_count: dict[int, int] = {}
        cards: dict[int, Track] = {}
        for look in before:
            for o in look:
                if top is None or o.id not in top.ids:
                    seen_count[o.id] = seen_count.get(o.id, 0) + 1
                    cards[o.id] = o
        near = cfg.same_spot * self.state.layout.card_px
        since = [  # what was boxed since the top showed again (in any track, or none)
            (d.name, box_middle(d.box))
            for lt, seen in self.state.looks
            if lt >= showed
            for d, _ in seen
        ]
        return any(
            n >= cfg.covered_steady * len(before)
            and x1 <= cards[i].xy[0] <= x2
            and y1 <= cards[i].xy[1] <= y2
            and not any(  # unseen since
                name == cards[i].name and math.dist(xy, cards[i].xy) <= near for name, xy in since
            )
            for i, n in seen_count.items()
        )

    def _hid_the_top(self, tr: Track) -> bool:
        """Did the top card go unseen as ``tr`` showed, seen last at most
        ``copy_hides_top_s`` before (the card put on it hid it), and not since?"""
        return self._unseen_as_it_showed(tr.first_t, self.state.top_seen_t)

    def _hid_its_top(self, tr: Track, play: PileEntry) -> bool:
        """Did the top card of ``play`` go unseen as ``tr`` showed, seen last at most
        ``copy_hides_top_s`` before, and not since? Asked of the top card's own tracks
        (:attr:`PileEntry.top_last_seen`): ``tr`` may have a face of ``play`` and pass
        for it (:attr:`WatcherState.top_seen_t`)."""
        return self._unseen_as_it_showed(tr.showed_t(), play.top_last_seen)

    def _unseen_as_it_showed(self, showed: float, last: float | None) -> bool:
        """Was a card last seen at ``last``, at most ``copy_hides_top_s`` before a card
        showed at ``showed`` or ``copy_covers_top_s`` after (a card slid onto it hides
        it a look or two after it shows), and not since?"""
        cfg = self.cfg
        return last is not None and (
            showed - cfg.copy_hides_top_s <= last <= showed + cfg.copy_covers_top_s
        )

    def hid_by_a_jump_in(self, tr: Track) -> bool:
        """Did ``tr``, of the top card's face, carried along the pile, hide the top card
        as it showed, for good, put down by another seat's hand than the top's
        player's, one that never reached for the draw pile meanwhile?

        A hand straightening the top card moves it and leaves it in view; one that
        hides it for good put a card on it. Where the copy first showed tells nothing
        then: on the top card, carried off it (``rushed-dusk-25fps`` held-out 700,
        opened: Dee's wild first seen 0.2 card lengths off Cy's, slid 0.55 to lie 0.4
        off it, was taken for Cy's wild straightened).
        """
        # The top card's own tracks (``tr`` reads as its face and passes for it).
        top = self.state.pile[-1]
        return (
            self._other_hand(tr) and self._hid_its_top(tr, top) and not self._drew_over_the_top(tr)
        )

    def _other_hand(self, tr: Track) -> bool:
        """Did the arm of another seat than the top play's player put ``tr`` down?

        A take-back is made by the hand that played the top card; a card of the face
        under it put down by another seat's hand is a copy (covering-hand seed 604: a
        green 9 on the green 5 on the starter green 9).
        """
        top = self.state.pile[-1]
        if self.state.arms is None or top.player not in self.state.players:
            return False
        seat = self.state.arms.seat_for(tr.showed_t())
        return seat is not None and seat != self.state.players.index(top.player)

    def _lies_as_drawn(
        self, tr: Track, box: tuple[float, float, float, float], entry: PileEntry
    ) -> bool:
        """Was ``entry``'s top card's own track boxed as ``box`` (overlapping it by
        ``same_box_overlap``) by turns with another box, switched to and from
        (``drawn_as_switches``), while it lay on top, and so first before ``tr`` was
        seen? Two copies of a face lying there may be boxed by its track by turns too,
        but only once the second has come (``random-7014`` seed 802, a randomised
        tuning style: Cy's green 8 on Dee's)."""
        return any(
            d.switches >= self.cfg.drawn_as_switches
            and d.first_t < tr.first_t
            and box_overlap(box, d.box) >= self.cfg.same_box_overlap
            for d in entry.drawn_as
        )
