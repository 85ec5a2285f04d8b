"""Where a card lies: on the pile or its edge, or still in the air (the third pass on
the tuning styles, docs/watcher.md).

Small questions the play rules ask (:class:`vision.watch.plays.PlayRules`); what
they keep is the top play's size and boxes as it lies still (``PileEntry.scale``,
``PileEntry.boxes``, ``PileEntry.drawn_as``, :meth:`LandingRules.settle`), which the
copy rules read (:mod:`vision.watch.copies`: a copy of a pile card put down under a
covering hand, split from this module in the forty-seventh session).
"""

from __future__ import annotations

from vision.boxes import apparent_scale, box_overlap
from vision.tracks import Track
from vision.watch.state import DrawnAs, PileEntry, WatcherState


class LandingRules:
    """:meth:`settle` per frame (before the plays); :meth:`on_pile` and
    :meth:`airborne` when a card comes to rest."""

    def __init__(self, state: WatcherState) -> None:
        self.state = state
        self.cfg = state.cfg

    def on_pile(self, tr: Track, card: float) -> bool:
        """Does ``tr`` lie on the discard pile: in its zone, or carried there and resting
        just beyond it (an untidy pile outgrows the zone a calibration drew)?

        Carried there: seen travelling, or first seen as an arm was at the pile (a
        covering hand hides the card until it lies there: ``covering-untidy-25fps``
        seed 606, trained recogniser, Cy's green 4 put beside Bob's, 0.1 card lengths
        beyond the zone, was never judged). Or, farther (``far_rest_margin`` beyond the
        zone as calibrated), carried from a seat (:meth:`WatcherState.came_in`, and
        ``arrived_travel``): put down short of the pile (held-out 693, opened, seven
        styles: Ann's yellow 3, 0.4 card lengths below the zone, never played). The
        zone grows with such cards (:meth:`WatcherState.grow_pile_zone`).
        """
        zone = self.state.layout.discard
        if zone.contains(*tr.xy):
            return True
        if not zone.contains(*tr.xy, margin=self.cfg.rest_margin * card):
            # Farther: put down short of the pile by a hand that carried it from a seat
            # (not a card first seen out there, lying still: the draw pile's top card
            # misread, say).
            far = self.cfg.far_rest_margin * card
            return (
                self.state.calibrated_discard.contains(*tr.xy, margin=far)
                and self.state.came_in(tr, card)
                and tr.max_travel >= self.cfg.arrived_travel * card
            )
        if tr.max_travel >= self.cfg.arrived_travel * card:
            return True
        arms = self.state.arms
        return arms is not None and arms.seat_for(tr.first_t) is not None

    def airborne(self, tr: Track, t: float, card: float) -> bool:
        """Is ``tr``, still over the pile, a card held or falling above it?

        A card let go above the pile stops moving sideways before it lands, and is
        then still, but bigger than the cards lying there (nearer the camera): it is
        not at rest until it looks their size. No card hovers for long, though: still
        for ``airborne_max_s``, it lies there (a pile card's size misjudged). Still, or
        within ``lying_still`` of its median place then: a shaking camera moves its box
        by more than ``still`` from frame to frame (``shaky-scattered-24fps`` seed 656:
        Ann's red 7, boxed bigger than Eve's wild under it, never played). A card seen
        coming: from outside the pile, or along it (``arrived_travel``: carried high, a
        card is first seen over the pile, ``dusk-drop-cool`` held-out 660, opened: Cy's
        blue 9 played a frame after it was first seen there, a third bigger than the red
        9 under it, with a red 9 under it read from its blurred edges). And while it
        shrinks (:meth:`_shrinking`) it is falling, whatever its size.
        """
        seen_coming = tr.was_outside_discard or tr.max_travel >= self.cfg.arrived_travel * card
        if not seen_coming or not self.state.pile:
            return False
        if self._shrinking(tr, card):
            return True
        ref = self.state.pile[-1].scale
        if ref is None or apparent_scale(tr.box, card) <= self.cfg.airborne_scale * ref:
            return False
        motion, wait = self.state.tracker, self.cfg.airborne_max_s
        return not (
            motion.at_rest(tr, t, card, wait)
            or motion.lying_still(tr, t, card, wait, self.cfg.lying_still)
        )

    def _shrinking(self, tr: Track, card: float) -> bool:
        """Does ``tr`` look ``airborne_shrink`` or more smaller than a look before (its
        last two sightings, ``airborne_shrink_s`` apart at most)? A card falling onto
        the pile shrinks to its size on the table from frame to frame; a card lying
        there keeps its size (its box jitters by a percent or two). A card dropped
        square on the old top card was judged at rest a frame before it landed, 4%
        bigger than the top card then (under ``airborne_scale``), and the picture of it
        still falling, blurred over the old card, showed that card's colour as new: a
        lower card of that colour (``drop`` and ``dusk-drop-cool`` held-out 659,
        opened: Ann's red 1 on a yellow 1 played as a fan with a yellow 1, in both)."""
        shrink = self.cfg.airborne_shrink
        if not shrink or len(tr.sightings) < 2:
            return False
        last, prev = tr.sightings[-1], tr.sightings[-2]
        if last.t - prev.t > self.cfg.airborne_shrink_s:
            return False
        was = apparent_scale(prev.box, card)
        return was > 0 and apparent_scale(last.box, card) < (1.0 - shrink) * was

    def _drawn_as(self, top: PileEntry, box: tuple[float, float, float, float], t: float) -> None:
        """Note that the top card's own track was boxed as ``box`` at ``t``
        (:attr:`PileEntry.drawn_as`): a switch, when its last box was drawn otherwise.

        A copy put on the top card by a quick hand may carry on its track, boxed where
        the copy lies from then on: one switch. A card boxed in two ways by turns
        switches to each and back.
        """
        i = next(
            (
                k
                for k, d in enumerate(top.drawn_as)
                if box_overlap(box, d.box) >= self.cfg.same_box_overlap
            ),
            None,
        )
        if i is None:
            if len(top.drawn_as) >= self.cfg.drawn_as_kept:
                return
            top.drawn_as.append(DrawnAs(box, t))
            i = len(top.drawn_as) - 1
        last = top.drawn_last
        if last is not None and last != i:
            top.drawn_as[last].switches += 1
            top.drawn_as[i].switches += 1
        top.drawn_last = i

    def settle(self, t: float, card: float) -> None:
        """The top card's size as it lies still: a card played as it landed (still
        sideways, a little above the pile) looked bigger than it lies; and when its
        own track was last seen (:attr:`PileEntry.top_last_seen`)."""
        if not self.state.pile:
            return
        top = self.state.pile[-1]
        for tr in self.state.own_tracks(top):
            if tr.last_t == t:
                top.top_last_seen = t
                if tr.last_name == top.top:
                    self._drawn_as(top, tr.box, t)
            if (
                self.state.tracker.at_rest(tr, t, card, self.cfg.quiet_play_rest_s)
                # Not just seen again after a gap (a hand over it): it may be another card
                # put where it lay (LyingCardRules.copy_on_top asks where it lay before).
                and self.state.tracker.gap_end(
                    tr, self.cfg.copy_gap_s, after=t - self.cfg.quiet_play_rest_s
                )
                is None
            ):
                top.scale = apparent_scale(tr.box, card)
                top.boxes[tr.name] = self.state.tracker.rest_box(
                    tr, card, self.cfg.quiet_play_rest_s
                )
