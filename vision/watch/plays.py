"""Plays: a card that comes to rest on the discard pile and is new there (and the
first card on an empty pile, the flip); no ink, no card. (A card lost as it lands,
taken up by a heap box, or a wild taken for a back all the way in:
:mod:`vision.watch.arrivals`.)

The rules read the card tracker's tracks (:mod:`vision.tracks`) and the pile as the
watcher believes it (:class:`vision.watch.state.PileEntry`), through the
:class:`WatcherState` the watcher hands them, and ask the seat rules and the
several-card rules they are made with.
"""

from __future__ import annotations

import math
from collections import deque

from tracker.cards import COLORS
from vision.boxes import apparent_scale
from vision.faces import BACK, card_color, card_value
from vision.motion import SPAN_ROUNDING_S
from vision.tracks import Track, TrackState
from vision.watch.arrivals import ArrivalRules
from vision.watch.copies import CopyRules
from vision.watch.fan_colors import FanColorRules, PlayAsRead
from vision.watch.fans import SeveralCardRules
from vision.watch.landing import LandingRules
from vision.watch.lying import LyingCardRules
from vision.watch.seats import SeatRules
from vision.watch.state import PileEntry, WatcherState

#: How many recent plays :class:`PlayRules` remembers the seat and value of.
PLAYS_KEPT = 8


class PlayRules:
    """Plays, flips and what is no play: :meth:`step` per frame. A card lost as it
    landed, or taken up by another box, is the arrival rules' to tell
    (:class:`vision.watch.arrivals.ArrivalRules`, which the watcher asks too)."""

    def __init__(
        self,
        state: WatcherState,
        seats: SeatRules,
        fans: SeveralCardRules,
        colors: FanColorRules,
        arrivals: ArrivalRules,
    ) -> None:
        self.state = state
        self.cfg = state.cfg
        self.seats = seats
        self.fans = fans
        self.colors = colors
        self.arrivals = arrivals
        self.landing = LandingRules(state)
        # When each event of the last step happened (by the event's identity), where
        # that was before the step's frame: see :meth:`happened`.
        self._happened: dict[int, float] = {}
        # The plays committed lately, with the seat that made each, taken back since or
        # not: which arm brought which play (:meth:`ArmPutRules.put_down_by_arm`).
        self._plays_by_seat: deque[tuple[PileEntry, int]] = deque(maxlen=PLAYS_KEPT)
        self.lying = LyingCardRules(state, CopyRules(state), self._plays_by_seat)

    def happened(self, event: dict[str, object], t: float) -> float:
        """When ``event``, one of the last step's (at ``t``), happened.

        A card first seen lying on the pile (a hand covered it on the way) is played
        only once it has lain there ``quiet_play_rest_s``, to tell it from a misreading
        of the top card; it lay there from when it was first seen still, as a card seen
        coming is played ``rest_s`` after it stops. Any other event happened at ``t``.
        """
        return self._happened.get(id(event), t)

    def step(self, t: float, card: float) -> list[dict[str, object]]:
        zone = self.state.layout.discard
        cfg = self.cfg
        self._happened.clear()
        self.lying.copy_on_top(t, card)
        self.landing.settle(t, card)
        self._moved_on(card)
        for tr in self.state.tracks:
            if tr.settled or tr.pending_since is not None:
                continue
            if tr.last_t != t:
                if self.arrivals.landed_unseen(tr, t, card):
                    tr.pending_since = t
                continue
            if (
                not self.landing.on_pile(tr, card)
                or not self.state.tracker.came_to_rest(
                    tr, t, card, self.cfg.rest_s, self.lying.still_within(tr, card)
                )
                or self.landing.airborne(tr, t, card)
            ):
                continue
            if not tr.was_outside_discard:
                self.arrivals.take_over_arrival(tr, t, card)
            if self.lying.is_new_card(tr, t, card):
                tr.pending_since = t
        pending = [tr for tr in self.state.tracks if tr.pending_since is not None]
        if not pending:
            return self.fans.amendment(t, card)
        first = min(tr.pending_since or t for tr in pending)
        # Cards put down together: the others of the group may still be moving, or be
        # seen only now and then under the top one. They came with the first card.
        companions = [
            tr
            for tr in self.state.tracks
            if tr.pending_since is None
            and not tr.settled
            and tr.name != BACK
            and t - tr.last_t <= cfg.companion_gap_s
            and tr.first_t >= first - cfg.companion_before_s
            and zone.contains(*tr.xy, margin=cfg.companion_margin * card)
            and tr.name_share() >= cfg.steady_vote  # not a string of misreadings of a pile card
            and (
                # Seen coming from outside the pile (not a pile card first boxed just
                # past its edge: fast-blur-untidy-22fps seed 602, trained recogniser, a
                # red 9 read there waited for as a companion, and Bob's red 7 dropped
                # with it).
                self.state.came_in(tr, card)
                or (
                    self.state.near_pile_card(tr, card, reach=self.cfg.pile_reach)
                    is None  # not a pile card
                    and (
                        tr.max_travel >= cfg.companion_travel * card  # it came in with them
                        or (tr.first_t >= first - cfg.companion_first_s and len(tr.sightings) >= 2)
                    )
                )
            )
        ]
        for tr in companions:
            # At rest as a card played alone is: not still creeping or slid on (a card
            # still carried, its face boxed a second time where the pile lies, is no
            # card at rest: ``fast-messy-24fps`` and ``rushed-dusk-25fps`` held-out 705,
            # opened: Ann's green 3, slid on over the pile while a second box of it lay
            # still on Bob's wild, played 0.3-0.5 s before she let go).
            if (
                tr.last_t == t
                and zone.contains(*tr.xy)
                and self.state.tracker.came_to_rest(tr, t, card, self.cfg.rest_s)
            ):
                tr.pending_since = t
        waiting = [tr for tr in companions if tr.pending_since is None]
        if waiting and t - first < self.cfg.group_s:
            return []
        group = [tr for tr in self.state.tracks if tr.pending_since is not None]
        group += [
            tr
            for tr in waiting
            if len(tr.sightings) >= cfg.group_sightings and zone.contains(*tr.xy)
        ]
        group = self.fans.riders(group, t, card) + group  # lower cards: first on a tie
        offered = [tr for tr in group if tr.state is TrackState.FREE]
        group = self.fans.one_value(group, t)
        if len(group) > 1 and self._no_new_ink(group, t, card):
            # Its best-seen card brought no ink. Another may have: the old top card,
            # lost under the hand and tracked anew, is no card of the play that came
            # with it (``covering-messy-dim-23fps`` held-out 709, opened: Cy's yellow
            # reverse on Dee's blue reverse, both free as the hand left, the blue seen
            # better; both were dropped).
            inked = [tr for tr in group if not self._no_new_ink([tr], t, card)]
            if inked:
                for tr in group:
                    if tr not in inked:
                        tr.pending_since = None
                        tr.misread_here()
                group = inked
        if self._no_new_ink(group, t, card):
            for tr in group:
                tr.pending_since = None
                tr.misread_here()  # a card seen where nothing was put: a misreading
            for tr in offered:
                if tr not in group and tr.state is TrackState.MISREAD:
                    # Left out for another value than a play that was none: a card of
                    # its own still (fast-blur-untidy-22fps seed 602: Bob's red 7, left
                    # out for a red 9 read in flight that brought no ink, was lost).
                    tr.state = TrackState.FREE
            return []
        event = self._commit(group, t, card)
        top = group[-1]  # the best seen (_commit sorted the group)
        if not top.was_outside_discard:  # never seen coming: it lay there since it was seen
            began = self.state.tracker.rest_began(top, card, top.last_name)
            self._happened[id(event)] = min(t, began + cfg.rest_s)
        if (
            top.waited_since is not None
            and top.travel_since(top.waited_since) <= cfg.waited_travel * card
        ):
            # Judged once a hand had gone: it lay there then. Not if it moved on since
            # (``covering-lamp-slide-20fps`` held-out 682, opened: Ann's green 0, read
            # as a pile card's blue 2 where her hand first showed it, slid 22 px before
            # it lay, reported 0.32 s early): it lay there from when it came to rest.
            self._happened[id(event)] = min(self._happened.get(id(event), t), top.waited_since)
        return [event]

    def _twin_of_the_old_top_s_colour(self, play: PlayAsRead) -> tuple[str | None, PlayAsRead]:
        """:meth:`FanColorRules.twin_of_the_old_top_s_colour`, asked of the play's twin
        too when the group lost it as the top card boxed twice though the two boxes
        showed at once, apart (:attr:`SeveralCardRules.boxed_beside`): with the lower
        card of the two put under the play when its face is found."""
        if play.names.count(play.top) == 1:
            twin = next((tr for tr in self.fans.boxed_beside if tr.name == play.top), None)
            if twin is None:
                return None, play
            with_twin = play.with_lower(twin.name, twin.xy)
            face = self.colors.twin_of_the_old_top_s_colour(with_twin)
            return face, (with_twin if face is not None else play)
        return self.colors.twin_of_the_old_top_s_colour(play), play

    def _commit(self, group: list[Track], t: float, card: float) -> dict[str, object]:
        # Bottom first. The top card of a fan is the one seen best.
        group.sort(key=lambda tr: self.state.seen(tr, t))
        names = [tr.name for tr in group]
        spots = [tr.xy for tr in group]
        for face, xy in self.fans.fan_cards(names, spots, t, t, card):
            names.insert(0, face)
            spots.insert(0, xy)
        seen_now = group[-1].last_t == t

        def read() -> PlayAsRead:
            return PlayAsRead(tuple(names), tuple(spots), group[-1].box, t, card)

        strips, inks = self.colors.strip_cards(
            names, spots, t, card, top_seen=seen_now, top_box=group[-1].box if seen_now else None
        )
        if strips and seen_now and self.colors.twin_misread(read(), strips):
            twin = names.index(names[-1])
            del names[twin], spots[twin]
        elif not strips and seen_now:
            twin_face, play = self._twin_of_the_old_top_s_colour(read())
            if twin_face is not None:
                names[:], spots[:] = play.names, play.spots
                names[names.index(names[-1])] = twin_face
        if inks is not None:
            # A lower card read from the boxes whose colour came nowhere beside the
            # top card is a misreading (of the heap under it).
            rode_in = {tr.name for tr in group if tr in self.fans.rode_in}
            keep = [
                i
                for i, n in enumerate(names[:-1])
                if self.colors.inked_or_changed(
                    n, spots[i], names[-1], inks, t, card, seen_coming=n in rode_in
                )
            ]
            names[:-1] = [names[i] for i in keep]
            spots[:-1] = [spots[i] for i in keep]
        if len(names) == 1 and not strips and seen_now and self.state.pile:
            strips = self._under_lowest(read())
        for face, xy in strips:
            names.insert(0, face)
            spots.insert(0, xy)
        if len(names) > 2:
            # A fan's lower cards lie the farther from its top card the lower they are.
            top_xy = spots[-1]
            lower = sorted(
                zip(names[:-1], spots[:-1], strict=True),
                key=lambda c: -math.hypot(c[1][0] - top_xy[0], c[1][1] - top_xy[1]),
            )
            names[:-1] = [n for n, _ in lower]
            spots[:-1] = [xy for _, xy in lower]
        if len(names) > 1 and seen_now and self.state.pile:
            # Its lowest card matches the old top by neither colour nor value: one of the
            # old top's colour may lie under it, as under a card played alone.
            # Looked for about that lowest card: a fan's lower cards may lie farther from
            # its top card than the reach of a card played alone.
            for face, xy in self._under_lowest(read(), fan_top=spots[-1]):
                names.insert(0, face)
                spots.insert(0, xy)
        for tr in group:
            tr.state = TrackState.PLAYED
            tr.pending_since = None
        value, top_xy = card_value(names[-1]), spots[-1]
        for tr in self.state.tracks:
            if tr.settled:
                continue
            if any(
                self.state.tracker.same_card(tr, n, xy) for n, xy in zip(names, spots, strict=True)
            ) or (
                # Another value boxed where the top card lies, seen with it: two cards
                # cannot both show there, and cards put down together share a value.
                tr.name != BACK
                and tr.last_t >= t - self.cfg.twin_box_gap_s
                and card_value(tr.name) != value
                and math.dist(tr.xy, top_xy) <= self.cfg.twin_box * card
            ):
                tr.state = TrackState.TWIN  # the same card boxed twice
                tr.pending_since = None
        seat = self.seats.seat_of(group, card)
        since = self.state.pile_changed_t
        self.state.pile_changed_t = t
        boxes = {tr.name: tr.box for tr in group}
        top_tr = group[-1]  # the best seen
        sizes = sorted(
            apparent_scale(s.box, card)
            for s in top_tr.sightings
            if t - s.t <= self.cfg.rest_s + SPAN_ROUNDING_S
        )
        scale = sizes[len(sizes) // 2] if sizes and top_tr.name == names[-1] else None
        self.state.grow_pile_zone([tr.xy for tr in group], card)
        if not self.state.pile:
            self.state.pile.append(
                PileEntry(names, spots, t, [tr.id for tr in group], scale=scale, boxes=boxes)
            )
            self.state.dealer = seat
            self.state.top_seen(t, played=True)
            ev: dict[str, object] = {"type": "flip", "card": names[-1]}
            return ev
        player = self.state.players[seat] if seat is not None else None
        self.state.pile.append(
            PileEntry(
                names,
                spots,
                t,
                [tr.id for tr in group],
                player=player,
                inks=inks,
                scale=scale,
                boxes=boxes,
                since=since,
            )
        )
        self.state.top_seen(t, played=True)
        self.state.below_since = None
        self.state.play_is_last = True
        if seat is not None:
            self._plays_by_seat.append((self.state.pile[-1], seat))
        return self.state.play_event(self.state.pile[-1])

    def _under_lowest(
        self, play: PlayAsRead, *, fan_top: tuple[float, float] | None = None
    ) -> list[tuple[str, tuple[float, float]]]:
        """:meth:`FanColorRules.under_unmatched` of the play's lowest card on the old
        top card, the pile as it lay still before the play came."""
        return self.colors.under_unmatched(
            play.names[0],
            self.state.pile[-1],
            play.spots[0],
            play.top_box,
            self.state.pile_changed_t,
            self.state.before_it_came(play.t),
            play.card,
            fan_top=fan_top,
        )

    def _moved_on(self, card: float) -> None:
        """A card judged a misreading for want of new ink that then moves on
        ``misread_moved`` card lengths or more from where it lay, having come from
        outside the pile or off the draw pile, is a card on its way, not a misreading:
        a slow hand's card stood still a moment over the pile's edge, where the picture
        from before it was seen had its ink already (``steep-messy-speeds`` seed 655:
        the dealer's red 4, 2 s from the draw pile to the pile at 15 frames/s, judged a
        misreading at the draw pile's edge, its flip never seen: nine alerts)."""
        reach = self.cfg.misread_moved * card
        if reach <= 0:
            return
        for tr in self.state.tracks:
            at = tr.misread_xy
            if tr.state is not TrackState.MISREAD or at is None:
                continue
            if not (tr.first_in_draw or tr.was_outside_discard):
                continue
            if math.hypot(tr.xy[0] - at[0], tr.xy[1] - at[1]) >= reach:
                tr.state, tr.misread_xy = TrackState.FREE, None

    def _no_new_ink(self, group: list[Track], t: float, card: float) -> bool:
        """Was nothing of the play's colour put down where it lies?

        A card put on the pile brings its ink with it: where the recogniser sees a
        new card but the picture shows no new ink of its colour in the middle of it
        since the pile last lay still before the card came, it misread the heap (or
        the table). Wilds bring ink of any colour. Without a probe, or a picture
        from before the card, nothing is ruled out.
        """
        if self.state.pile_colors is None or not group:
            return False
        top = max(group, key=lambda tr: self.state.seen(tr, t))
        # Before it came to lie there as what it is read as now: a card covered onto
        # the pile whose track was the old top card's reads as itself only after its
        # votes outweigh the old ones (random-7038 seed 803: 0.8 s), and the pile lay
        # still with it in that time. For the first card, before it was first seen (it
        # may lie there from the start).
        began = self.state.tracker.rest_began(top, card, top.name)
        if not top.was_outside_discard:
            # Never seen coming: it lay there as its face since it showed so
            # (ArmPutRules.lay), though its box may wander off where its rest began
            # (a shaking camera: ``shaky-covering-messy-26fps`` held-out 713, opened,
            # Cy's red 3 under his hand, its rest begun anew 0.5 s after it lay, the
            # pile lying still with it by then).
            began = min(began, self.lying.arms.lay(top))
        before = min(self.state.before_it_came(t), began)
        if top.waited_since is not None:
            # Judged late, once a hand over it had gone: the picture from before it came
            # is the one before the wait (random-7024 seed 804, a randomised tuning style:
            # Cy's wild on a wild, his hand lingering, judged 0.4 s late with no new ink).
            before = min(before, self.state.before_it_came(top.waited_since))
        if not self.state.pile:
            before = min(before, min(tr.first_t for tr in group))
        patches = self.state.pile_colors.new_colors(
            top.xy,
            self.cfg.ink_middle * card,  # its middle, where the hand holding it is not
            since=self.state.pile_changed_t,
            before=before,
            else_at_since=bool(self.state.pile),  # the picture when the last play came
            hands=False,
        )
        if patches is None:
            return False
        color = card_color(top.name)
        ink = sum(p.area for p in patches if p.color == color or color not in COLORS)
        if ink >= self.cfg.ink_area:
            return False
        if (
            top.was_outside_discard
            and self.state.pile
            and card_color(self.state.pile[-1].top) == color
        ):
            # Seen coming onto a card of its own colour: its oval and figure fall where
            # the old card's did, and bring little new ink. The picture changed, though.
            changed = self.state.middle_changed(top.xy, card, before)
            return changed is not None and changed < self.cfg.own_color_change
        return True
