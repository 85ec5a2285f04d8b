"""Cards the tracker lost as they arrived: a card seen clearly all the way in and lost
as it landed, one taken up by a box on the heap, a wild taken for a back all the
way in. Split from :mod:`vision.watch.plays` in the forty-seventh session (no change
of behaviour): the play rules ask :meth:`ArrivalRules.landed_unseen` and
:meth:`ArrivalRules.take_over_arrival`; the watcher asks :meth:`ArrivalRules.back_landed`
and :meth:`ArrivalRules.lost_arriving` of a track it drops.
"""

from __future__ import annotations

import math
from collections import deque

from tracker.cards import COLORS
from vision.faces import BACK, card_color
from vision.tracks import Track, TrackState
from vision.watch.state import WatcherState


class ArrivalRules:
    """What became of a card the tracker lost on its way to the pile."""

    def __init__(self, state: WatcherState) -> None:
        self.state = state
        self.cfg = state.cfg

    def landed_unseen(self, tr: Track, t: float, card: float) -> bool:
        """A card seen clearly all the way in, lost from sight as it reached the pile.

        On a tight pile of its colour the detector may box the heap around a card
        that just landed instead of the card: its track ends where it came down.
        """
        cfg = self.cfg
        if not cfg.landed_unseen_s or t - tr.last_t < cfg.landed_unseen_s:
            return False
        if (
            not tr.was_outside_discard
            or tr.name == BACK
            or len(tr.sightings) < cfg.landed_sightings
        ):
            return False
        if tr.name_share() < cfg.landed_vote or not self.state.seen_surely(tr, cfg.landed_look):
            return False  # not seen clearly: a guess is no play
        way_in = [read for read, _conf in list(tr.votes)[-cfg.landed_sightings :]]
        if 2 * way_in.count(tr.name) < len(way_in):
            # Not read as its face on its way in, at least half the time: a pile card's
            # track that went off with a card carried over it (``shaky-covering-messy-
            # 26fps`` held-out 693, opened: Ann's yellow 3, its track taken by her
            # yellow 2 over the pile, lost there and played as a second yellow 3).
            return False
        x, y = tr.xy
        cx, cy = self.state.layout.discard.center
        # Lost on the pile, not on its way (its box jumps about as it lands on the
        # heap, so how it slowed down tells nothing).
        return math.hypot(x - cx, y - cy) <= cfg.landed_reach * card

    def back_landed(self, tr: Track, card: float) -> bool:
        """A back carried in from a seat (not from the draw pile) that came down on the
        discard pile: cards are played face up, so it is a card the detector took
        for a back."""
        return (
            tr.name == BACK
            and not tr.settled
            and tr.was_outside_discard
            and not tr.first_in_draw
            and len(tr.sightings) >= self.cfg.back_landed_sightings
            and self.state.layout.discard.contains(*tr.xy)
            and math.dist(tr.first_xy, tr.xy) >= self.cfg.back_landed_travel * card
        )

    def lost_arriving(self, tr: Track, card: float) -> bool:
        """A face carried in from a seat, seen clearly, lost on its way to the
        discard pile (near it, nearer than where it was first seen)."""
        if tr.name == BACK or tr.settled or not tr.was_outside_discard:
            return False
        cfg = self.cfg
        if (
            len(tr.sightings) < 2
            or tr.name_share() < cfg.lost_arriving_vote
            or not self.state.seen_surely(tr, cfg.lost_arriving_look)
        ):
            return False
        centre = self.state.layout.discard.center
        near = math.dist(tr.xy, centre)
        return near <= cfg.lost_arriving_reach * card and near < math.dist(tr.first_xy, centre)

    def _now_reads(self, tr: Track, name: str) -> bool:
        """Is ``tr`` read as ``name`` in its last ``now_reads_looks`` sightings (or by
        its vote)?"""
        looks = self.cfg.now_reads_looks
        if tr.name == name:
            return True
        recent = list(tr.votes)[-looks:]
        return len(recent) == looks and all(n == name for n, _ in recent)

    def take_over_arrival(self, tr: Track, t: float, card: float) -> None:
        """A card lost just short of the pile, and a box on the heap that now reads as
        its face: the card landed there, and that box took it up.

        The detector may lose a card in its last moments of flight and box it, once
        down, together with the heap, whose track (born on the pile) then takes its
        face. That track takes over where the card came from. The card may have been
        dropped from the tracks by then (``_lost_arrivals`` remembers it a while).
        """
        since_play = self.state.pile[-1].t if self.state.pile else -math.inf
        for o in [*self.state.tracks, *self.state.lost_arrivals]:
            if (
                o is not tr
                and not o.settled
                and o.pending_since is None
                # Lost a while (not just missed for a frame in flight), not long ago:
                # a box that was there as it was lost may take a while to read it; a
                # box born since is the card found again soon, or another card.
                and self.cfg.lost_arrival_min_s
                <= t - o.last_t
                <= (self.cfg.lost_arrival_s if tr.first_t <= o.last_t else self.cfg.lost_s)
                and o.first_t > since_play
                and self.lost_arriving(o, card)
                and self._now_reads(tr, o.name)
                and math.dist(o.xy, tr.xy) <= self.cfg.take_over_reach * card
            ):
                tr.came_as(o)
                # The box showed the heap before the card came down on it: from now
                # on it shows the card.
                tr.votes = deque([v for v in tr.votes if v[0] == o.name], maxlen=tr.votes.maxlen)
                o.state = TrackState.TWIN  # one card: its play is the heap box's
                return
        if card_color(tr.name) in COLORS:
            return
        # A wild's black face may look like a back to the detector all the way in,
        # and be read as a wild only once down, in a box of its own: it is that card.
        for o in [*self.state.tracks, *self.state.backs_landed]:
            if (
                o is not tr
                and t - o.last_t <= self.cfg.wild_as_back_s
                and self.back_landed(o, card)
                # Brought after the last play (not a second box of that play's card).
                and o.first_t > (self.state.pile[-1].t if self.state.pile else -math.inf)
                and math.dist(o.xy, tr.xy) <= self.cfg.same_spot * card
            ):
                tr.came_as(o)
                o.state = TrackState.TWIN
                return
