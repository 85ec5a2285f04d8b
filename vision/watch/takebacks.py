"""Take-backs: the top play gone and the card below it visible again (``undo``), or
seen carried off with nothing left to see on the pile."""

from __future__ import annotations

import math

from vision.boxes import box_overlap
from vision.faces import BACK
from vision.tracks import Track, TrackState
from vision.watch.arm_puts import ArmPutRules
from vision.watch.lifts import LiftRules
from vision.watch.state import PileEntry, WatcherState


class TakeBackRules:
    """Take-backs: :meth:`step` per frame."""

    def __init__(self, state: WatcherState, arm_puts: ArmPutRules) -> None:
        self.state = state
        self.cfg = state.cfg
        self.lifts = LiftRules(state, arm_puts)  # was the top card lifted, by whose arm

    def _top_visible(self, top: PileEntry, below: PileEntry, t: float, card: float) -> bool:
        """Is a card of the top play still where it was put?"""
        zone = self.state.layout.discard
        near = self.cfg.same_spot * card
        for tr in self.state.tracks:
            if tr.last_t != t:
                continue
            if not zone.contains(*tr.xy, margin=self.cfg.off_pile_margin * card) and (
                tr.id in top.ids
                or (
                    tr.name in top.cards
                    and not self._taken_back_card(tr)
                    and (
                        tr.settled
                        or (
                            tr.first_t >= top.t
                            and (tr.first_in_discard or self.lifts.carried_off(tr, top, card))
                        )
                    )
                )
            ):
                self.lifts.seen_lifted(top, t)
                top.left = True  # one of its cards was seen carried away
        for tr in self.state.tracks:
            if tr.last_t != t:
                continue
            for c, (sx, sy) in zip(top.cards, top.spots, strict=True):
                if tr.name != c or math.hypot(tr.xy[0] - sx, tr.xy[1] - sy) > near:
                    continue
                if self._below_copy(tr, top, below, card) or self._lies_as_below(
                    tr, top, below, card
                ):
                    continue
                # Once a card of the top play was seen carried off, a card with its
                # face at that spot is another copy under it (or its track mixed up
                # with one): the top play is gone.
                if not top.left:
                    return True
        return False

    def _taken_back_card(self, tr: Track) -> bool:
        """Is ``tr`` the card of a play already taken back, still being carried off?

        A copy of the top card's face played on it and taken back is carried away after
        the take-back was seen: the top card it leaves lies where it was, not carried
        off too (``fast-messy-24fps`` and two more styles, held-out 710, opened: Bob's
        green 4 on his green 4, taken back; the first green 4 was then thought gone, and
        the red 4 the second had covered, uncovered, a second take-back).
        """
        return any(tr.id in gone.ids for gone in self.state.taken_back)

    def _below_copy(self, tr: Track, top: PileEntry, below: PileEntry, card: float) -> bool:
        """Is ``tr``, the face of a top card seen near where it lies, rather the same face
        on the card below, lying nearer to that one's spot than to the top card's?

        A copy of the card below played on it and taken back unread (the hand hides it,
        then it is blurred) leaves the same face showing a little beside where it lay
        (``drop`` seed 643, trained recogniser: Bob's blue 8 on the starter blue 8, a
        third of a card length apart). A track of the top play is its card wherever it
        lies; two copies put on the same spot cannot be told apart this way.
        """
        if tr.id in top.ids or tr.name != below.top:
            return False
        bx, by = below.spots[-1]
        to_below = math.hypot(tr.xy[0] - bx, tr.xy[1] - by)
        to_top = min(
            math.hypot(tr.xy[0] - sx, tr.xy[1] - sy)
            for c, (sx, sy) in zip(top.cards, top.spots, strict=True)
            if c == tr.name
        )
        return to_below + self.cfg.below_copy_margin * card < to_top

    def _lies_as_below(self, tr: Track, top: PileEntry, below: PileEntry, card: float) -> bool:
        """Is ``tr``, the top card's face where it lies, rather the card below of that
        face, boxed as that one was while it lay on top (``same_box_overlap``) and as
        the top card never was?

        A copy of a face played square on it and taken back leaves the same face in the
        same place, its track maybe the top card's (the tracker follows the nearest
        box); but two cards put down lie at angles of their own, and the detector's box
        shows it (``drop`` and ten more styles held-out 682, opened: Dee's blue 2, boxed
        83 by 58 pixels on Cy's blue 2, boxed 74 by 89, taken back unread; the blue 2
        seen after was boxed 74 by 89). The ways each was boxed while it lay on top
        (:attr:`PileEntry.drawn_as`): the card below's track may have taken the top
        card's box before the top was played, and the top's may take the card below's
        once it is lifted (only the ways it was boxed before count). Two copies lying
        alike cannot be told this way.
        """
        if tr.name != below.top or tr.name != top.top:
            return False
        same = self.cfg.same_box_overlap
        box = self.state.tracker.rest_box(tr, card, self.cfg.quiet_play_rest_s)
        # The top card as it lay until it was boxed so (a track of it may follow the
        # card below once it is lifted, and be boxed as that one from then on).
        way = next((d for d in top.drawn_as if box_overlap(box, d.box) >= same), None)
        since = way.first_t if way is not None else math.inf
        before = [d for d in top.drawn_as if d.first_t < since]
        return bool(before) and any(
            box_overlap(box, d.box) >= same
            and all(box_overlap(d.box, o.box) < same for o in before)
            for d in below.drawn_as
        )

    def _seen_beside_top(self, below_tracks: list[Track], top: PileEntry) -> bool:
        """Was the card below seen lying there while the top play was still seen?

        On an untidy pile a play may leave the card below it uncovered: seen now, it
        is no sign that the top play went, and an arm at the pile may be the next
        player's, whose hand covers the top card while putting a card down
        (``covering-untidy-25fps`` seed 601, true boxes: Cy's second blue 5, put beside
        the first, hidden by Dee's hand bringing a green 5, was taken back).
        """
        return any(
            top.t <= s.t <= self.state.top_seen_t for tr in below_tracks for s in tr.sightings
        )

    def _drawn_over_since(self, since: float) -> float:
        """When a card drawn from the draw pile (a back first seen there) was last seen
        over the discard pile, if it was since ``since``; ``since`` otherwise.

        A hand reaching across the discard pile for the draw pile hides the top card,
        and carries the drawn card back over it: the top card unseen meanwhile is no
        sign that it was taken back, and its wait counts from when the drawn card left
        the pile (``fast-messy-24fps`` held-out 705, opened: Ann's arm over Cy's red 6
        for 1.3 s as she drew, the arm itself unseen over both piles; the red 6 was
        taken back, then played again as hers).
        """
        zone = self.state.layout.discard
        return max(
            (
                s.t
                for tr in self.state.tracks
                if tr.name == BACK and tr.first_in_draw
                for s in tr.sightings
                if s.t > since and zone.contains(s.x, s.y)
            ),
            default=since,
        )

    def _landing(self, tr: Track, t: float, card: float) -> bool:
        """Is ``tr`` a new card landing on the pile: about to be played, or brought in
        and creeping to rest on it, or slid on by a hand still holding it (a slow card
        hides the top one before it stops), or a copy waiting for the hand over it to
        go (:meth:`vision.watch.lying.LyingCardRules.is_new_card`)?"""
        if tr.pending_since is not None:
            return True
        if tr.waited_since is not None and tr.state is TrackState.FREE and tr.last_t == t:
            return True
        return (
            tr.state is TrackState.FREE
            and tr.last_t == t
            and tr.was_outside_discard
            and self.state.layout.discard.contains(*tr.xy)
            and self.state.tracker.on_its_way(tr, card)
        )

    def _put_on_it(self, tr: Track, t: float, card: float) -> bool:
        """Is ``tr`` a face no pile card has, first seen on the pile within
        ``copy_hides_top_s`` after the top card was last seen, and not judged yet: a
        card put down over the top card (a covering hand), not the top card lifted
        (``covering-untidy-25fps`` seed 720, plays of three, trained recogniser: Ann's
        red skip, put over Bob's red 2, hid it while a pile card uncovered beside it
        showed; Bob's red 2 was taken back). A card first seen a while later is the next
        play, after a take-back seen late (seed 647, true boxes: Dee's red 1). Not asked
        once the top card was seen lifted (carried off, or the card below uncovered by its
        own arm: :meth:`vision.watch.lifts.LiftRules.uncovered_by_own_arm`): what showed
        as it went, it uncovered.
        """
        return (
            tr.state is TrackState.FREE
            and tr.name != BACK
            and tr.last_t == t
            # First seen as the top card went unseen (it hid it), not a while after.
            and 0.0 <= tr.first_t - self.state.top_seen_t <= self.cfg.copy_hides_top_s
            and self.state.layout.discard.contains(*tr.xy)
            and self.state.near_pile_card(tr, card, reach=self.cfg.pile_reach) is None
        )

    def step(self, t: float, card: float) -> list[dict[str, object]]:
        if len(self.state.pile) < 2:
            return []
        top, below = self.state.pile[-1], self.state.pile[-2]
        if self._top_visible(top, below, t, card):
            self.state.top_seen(t)
            self.state.below_since = None
            return []
        if not top.lifted and self.lifts.uncovered_by_own_arm(top, below, t, card):
            self.lifts.seen_lifted(top, t)
        if any(
            self._landing(tr, t, card) or (not top.lifted and self._put_on_it(tr, t, card))
            for tr in self.state.tracks
        ):
            return []  # a new card is landing, or lies on it: not a retraction
        below_tracks = [
            tr
            for tr in self.state.tracks
            if tr.last_t == t
            and tr.name == below.top
            and tr.last_name == below.top  # seen as that face now, not only on the vote
            and math.hypot(tr.xy[0] - below.spots[-1][0], tr.xy[1] - below.spots[-1][1])
            <= self.cfg.same_spot * card
            and self.state.tracker.at_rest(tr, t, card, self.cfg.rest_s)
            and (tr.id not in top.ids or top.left or self._lies_as_below(tr, top, below, card))
        ]
        if not below_tracks:
            # The card below may blink (a pile card half lit, or read now and then as
            # the heap): a missed frame or two does not start its wait again.
            if (
                self.state.below_since is not None
                and t - self.state.below_seen_t > self.cfg.below_gap_s
            ):
                self.state.below_since = None
            if top.left and t - self.state.top_seen_t >= self.cfg.blind_undo_s:
                zone = self.state.layout.discard
                if not any(tr.last_t == t and zone.contains(*tr.xy) for tr in self.state.tracks):
                    # Seen carried off, and the recogniser sees nothing on the pile
                    # (it may miss the card below, a wild on a dark heap): taken back.
                    return self._take_back(top, [], t)
            return []
        if self.state.below_since is None:
            self.state.below_since = t
        self.state.below_seen_t = t
        # Seen carried off, or lifted by an arm at the pile: half a second. Only gone (a
        # recogniser may lose a card for a while, or read it as the one below): three
        # times as long.
        lifted = top.left or (
            self.lifts.lifted_by_arm()
            and (not self._seen_beside_top(below_tracks, top) or self.lifts.own_arm(top))
        )
        wait = self.cfg.undo_s if lifted else self.cfg.unseen_undo_factor * self.cfg.undo_s
        # Unless the top card was seen carried off, the card below must lie there as
        # long as a card first seen lying on the pile must before it is played: a hand
        # covering the pile may have put down a copy of it (a play), not lifted the top.
        below_s = self.cfg.rest_s if top.left else self.cfg.quiet_play_rest_s
        hidden_since = self.state.top_seen_t
        if not top.left:
            hidden_since = max(hidden_since, self._drawn_over_since(hidden_since))
        if t - hidden_since < wait or t - self.state.below_since < below_s:
            return []
        return self._take_back(top, below_tracks, t)

    def _take_back(
        self, top: PileEntry, below_tracks: list[Track], t: float
    ) -> list[dict[str, object]]:
        """The top play was taken back: an ``undo``, unless the tracker refused it."""
        self.state.pile.pop()
        top.taken_back_t = t
        self.state.taken_back.append(top)
        self.state.top_seen(t, played=True)
        self.state.pile_changed_t = t
        self.state.below_since = None
        below = self.state.pile[-1]
        for tr in below_tracks:
            tr.state = TrackState.PILE
            if tr.id not in below.ids:
                # Its track now: what is put on it next may take this track over
                # (LyingCardRules.copy_on_top looks at the top card's own tracks).
                below.ids.append(tr.id)
        if top.refused:
            # The tracker never applied it; the card simply went back. Noted, not sent.
            self.state.quiet_takebacks.append(t)
            return []
        return [{"type": "undo"}]
