"""The lower cards of a fan read by the colours that came onto the pile: strips of a
new colour beside the top card, a sliver beyond the fan's lowest card, the fan's far
end; and whether a lower card's colour came beside the top card at all.

Apart from :mod:`vision.watch.fans` (which cards were put down together, by their
tracks and boxes); both answer the play rules (:mod:`vision.watch.plays`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from tracker.cards import COLORS
from vision.faces import card_color, card_value
from vision.pile_probe import ColorPatch
from vision.watch.state import PileEntry, WatcherState


@dataclass(frozen=True)
class FanLine:
    """The fan as its strips leave it: the top card, the lower cards' spots (seen and
    found by a strip) and the farthest of them, and the colours it holds already."""

    top_xy: tuple[float, float]
    lower: tuple[tuple[float, float], ...]
    taken: frozenset[str]

    @classmethod
    def of(
        cls,
        spots: list[tuple[float, float]],
        strips: list[tuple[str, tuple[float, float]]],
        have: set[str],
        top_xy: tuple[float, float],
    ) -> FanLine:
        """``spots``: the play's cards, its top card last; ``have``: their colours.

        >>> strips = [("red-5", (0.0, 2.0))]
        >>> line = FanLine.of([(0.0, 1.0), (0.0, 0.0)], strips, {"blue"}, (0.0, 0.0))
        >>> line.far, sorted(line.taken)
        ((0.0, 2.0), ['blue', 'red'])
        """
        taken = frozenset(have | {card_color(f) for f, _ in strips})
        return cls(top_xy, (*spots[:-1], *(xy for _, xy in strips)), taken)

    @property
    def far(self) -> tuple[float, float]:
        """The lower card farthest from the top card (the fan's last seen)."""
        return max(self.lower, key=lambda xy: math.dist(xy, self.top_xy))


@dataclass(frozen=True)
class PlayAsRead:
    """A play as its boxes read it, for the questions asked of its top card's box: its
    cards' faces and spots, bottom first and its top card last, the top card's box as
    it lies now, the time ``t`` and the card's length in pixels (``card``).

    >>> play = PlayAsRead(("red-5",), ((10.0, 10.0),), (0.0, 0.0, 20.0, 30.0), 1.0, 76.8)
    >>> play.with_lower("blue-5", (30.0, 10.0)).names
    ('blue-5', 'red-5')
    """

    names: tuple[str, ...]
    spots: tuple[tuple[float, float], ...]
    top_box: tuple[float, float, float, float]
    t: float
    card: float

    @property
    def top(self) -> str:
        """The top card's face (the card seen best)."""
        return self.names[-1]

    def with_lower(self, name: str, xy: tuple[float, float]) -> PlayAsRead:
        """The play with one more card, ``name`` at ``xy``, under its lowest."""
        return replace(self, names=(name, *self.names), spots=(xy, *self.spots))


class FanColorRules:
    """Lower cards of a fan by their colour (:meth:`strip_cards`), and a lower card
    read from the boxes checked against the new ink (:meth:`inked`,
    :meth:`inked_or_changed`)."""

    def __init__(self, state: WatcherState) -> None:
        self.state = state
        self.cfg = state.cfg

    def strip_cards(
        self,
        names: list[str],
        spots: list[tuple[float, float]],
        t: float,
        card: float,
        *,
        top_seen: bool = True,
        top_box: tuple[float, float, float, float] | None = None,
    ) -> tuple[list[tuple[str, tuple[float, float]]], dict[str, float] | None]:
        """Lower cards of a fan seen by their colour: a card colour that came onto the
        pile beside the top card since the pile last lay still, in a strip no card of
        the play accounts for, is a card of the play's value in that colour.

        Also gives the area of each new colour there (``None`` when the picture
        cannot tell). Only with a :class:`PileColorProbe`, and not under a wild
        (wilds have no colour of their own to tell them by). A top card lost from
        sight as it landed (``top_seen`` false) lies where its colour came, not
        where it was last seen. With the top card's box as it lies now (``top_box``),
        a copy of its own face under it is looked for too (:meth:`_twin`).
        """
        top = names[-1]
        color = card_color(top)
        if self.state.pile_colors is None or not self.state.pile or color not in COLORS:
            return [], None
        top_xy = spots[-1]
        came = self.state.before_it_came(t)
        patches = None
        # From before a hand held still over the pile, if the pile lay still then; else
        # the last still picture before the card came, as ever.
        for before in dict.fromkeys((self._before_the_hand(came, t), came)):
            patches = self.state.pile_colors.new_colors(
                top_xy,
                self.cfg.strip_reach * card,
                since=self.state.pile_changed_t,
                before=before,
                table_slivers=False,
            )
            if patches is not None:
                break
        if patches is None:
            return [], None
        own = [p for p in patches if p.color == color]
        if not top_seen and own:
            top_xy = max(own, key=lambda p: p.area).xy
        have = {card_color(n) for n in names}
        value = card_value(top)
        # A card put down on one of its colour changes the picture only where its
        # oval and figure fall: less of its ink shows as new. But not in slivers only:
        # the new card's edge lying over the old top leaves a line of its colour that
        # blurs as changed (``dusk-drop-cool`` held-out 710, opened: Cy's red 9 dropped
        # on Bob's yellow 9 taken for a fan with a yellow 9).
        under = card_color(self.state.pile[-1].top)
        strips = [
            (f"{p.color}-{value}", p.xy)
            for p in patches
            if p.color not in have
            and (
                p.area >= self.cfg.strip_area
                if p.color != under
                else p.area >= self.cfg.strip_area_on_own and not p.sliver
            )
            # Colour over the top card itself is that card, misread: no strip.
            and math.hypot(p.xy[0] - top_xy[0], p.xy[1] - top_xy[1])
            >= self.cfg.strip_off_top * card
        ]
        line = FanLine.of(spots, strips, have, top_xy)
        if line.lower:
            tail = self._fan_tail(patches, line, value, card)
            strips += tail or self._fan_end(line, value, before, card)
        if top_box is not None and top_seen and color != under:
            strips += self._twin(names, [f for f, _ in strips], top_xy, top_box, t, card)
        # The colour of a face the pile holds already there is that card: on an untidy
        # pile a card of the value played often lies in view, and a covering hand that
        # hid it as it put the new card down shows its colour again as it leaves
        # (``covering-untidy-25fps`` seeds 601-603, true boxes: a green 7 two plays down
        # taken for the lower card of Dee's blue 7). Not the card the play went onto:
        # a fan of its value with its colour (a red 4 and a yellow 4 on a red 4) lays a
        # card of its face beside it (``house`` seed 713, plays of three: the red 4 of
        # Bob's fan taken for the starter, the yellow 4 reported alone).
        # But new ink lying on the card the play went onto is no older card seen again:
        # that card covers them (``drop`` held-out 646, opened: Ann's green 9 under her
        # blue 9 on a green 3, the strip left out for a green 9 four plays down).
        # Nor is ink on the far side of that card's middle from a card of the face it
        # covers (``drop`` held-out 664, opened: Ann's blue 8 under her green 8 on a blue
        # 6 over her blue 8 of two plays before): :meth:`_older_card_shows`.
        onto = self.state.pile[-1]
        strips = [
            (f, xy)
            for f, xy in strips
            if self._on_card(xy, onto, card) or not self._older_card_shows(f, xy, onto, card)
        ]
        return strips, {p.color: p.area for p in patches}

    def _before_the_hand(self, before: float, t: float) -> float:
        """``before``, or earlier: before an arm at the discard pile then came, when it
        was seen there before and after ``before`` with no gap longer than
        ``strip_hand_gap_s`` (only arms seen since the pile last changed count).

        A hand held still over the pile is lost by the arm probe, which sees arms move,
        and the picture of the pile lying still with it there may be taken for a clear
        one when the hand matches the table (a brown hand on wood): what it covered
        shows as new ink beside the card it brought (``shaky-covering-messy-26fps``
        held-out 710, opened: the wild under Ann's blue 6 gave a green 6).
        """
        arms = self.state.arms
        if arms is None:
            return before
        seen = [
            s.t
            for s in arms.sightings_since(self.state.pile_changed_t)
            if s.at_discard and s.t <= t
        ]
        after = next((k for k, st in enumerate(seen) if st > before), None)
        if after is None or after == 0:
            return before
        first = after - 1
        if seen[after] - seen[first] > self.cfg.strip_hand_gap_s:
            return before
        while first > 0 and seen[first] - seen[first - 1] <= self.cfg.strip_hand_gap_s:
            first -= 1
        return min(before, math.nextafter(seen[first], -math.inf))  # the arm not yet in it

    def _older_card_shows(
        self, face: str, xy: tuple[float, float], onto: PileEntry, card: float
    ) -> bool:
        """May ink at ``xy`` be a pile card of ``face`` under ``onto`` (the play the new
        one went onto), seen again? One lies within ``pile_reach`` of it, and is not
        covered there: a card whose middle ``onto``'s top card covers (within
        ``on_card_reach`` of its middle) shows only beyond that card's edge on its own
        side, so not where ``xy`` lies nearer the covering card's middle than its own
        (:meth:`_covered_there`).
        """
        top = onto.spots[-1] if onto.spots else None
        return any(
            c == face
            and entry is not onto
            and (top is None or not self._covered_there(xy, spot, top, card))
            and self._seen_lately(face, spot, card)
            and (face not in entry.boxes or _inside(xy, entry.boxes[face]))
            for c, spot, entry in self.state.pile_spots_near(xy, self.cfg.pile_reach * card)
        )

    def _seen_lately(self, face: str, spot: tuple[float, float], card: float) -> bool:
        """Was a card of ``face`` seen at ``spot`` (``same_spot``) since the pile last
        changed: in view before the hand that brought the play hid it?

        One buried under later plays since, unseen, shows no colour again as a hand
        leaves (``drop`` and every other style, held-out 718: the blue 5 under Bob's
        green 5, the strip below it taken for Cy's blue 5 three plays down). Nor does
        one in view show colour off the box it lay in (:func:`_inside`; ``messy-pile``
        held-out 718: that strip, 0.1 card lengths left of Cy's blue 5 in view)."""
        reach = self.cfg.same_spot * card
        since = self.state.pile_changed_t
        return any(
            tr.name == face and tr.last_t >= since and math.dist(tr.xy, spot) <= reach
            for tr in self.state.tracks
        )

    def _covered_there(
        self,
        xy: tuple[float, float],
        spot: tuple[float, float],
        top: tuple[float, float],
        card: float,
    ) -> bool:
        """Is a card lying at ``spot`` hidden at ``xy`` by one lying at ``top``: its
        middle covered (within ``on_card_reach``), ``xy`` nearer the covering card's
        middle than its own?

        >>> from vision.watcher_config import WatcherConfig
        >>> rules = FanColorRules.__new__(FanColorRules)
        >>> rules.cfg = WatcherConfig()
        >>> old, onto = (317.0, 232.0), (329.0, 229.0)  # a blue 8, a blue 6 on it
        >>> rules._covered_there((351.0, 236.0), old, onto, 76.8)  # the blue 6's far side
        True
        >>> rules._covered_there((290.0, 232.0), old, onto, 76.8)  # the blue 8's own side
        False
        """
        if math.dist(spot, top) > self.cfg.on_card_reach * card:
            return False
        return math.dist(xy, top) < math.dist(xy, spot)

    def _on_card(self, xy: tuple[float, float], entry: PileEntry, card: float) -> bool:
        """Does ``xy`` lie on the top card of ``entry`` (within ``on_card_reach`` of
        its middle: inside it at any angle)?"""
        if not entry.spots:
            return False
        return math.dist(xy, entry.spots[-1]) <= self.cfg.on_card_reach * card

    def _twin(
        self,
        names: list[str],
        found: list[str],
        top_xy: tuple[float, float],
        top_box: tuple[float, float, float, float],
        t: float,
        card: float,
    ) -> list[tuple[str, tuple[float, float]]]:
        """The other copy of the top card's face, under it: new ink of the top card's
        colour beside it is left out of the strips (it is the top card's), but a card's
        ink lies inside its own box, and ``twin_outside_area`` of it outside the box,
        the top card seen there now, is another card of that colour, which can only be
        of the play's value. (``house``, ``slide``, ``scattered-pile`` and three more
        tuning styles, seed 720, plays of three: Ann's red 5 and two green 5s, the
        second green 5 found by no box and no strip; of 1,108 plays of the tuning sets
        with no twin, the top card seen, not put on its own colour, none had more than
        0.02 card faces of its colour outside its box, the six twins 0.08 to 0.26.)

        Not on a card of the top's colour (a covering hand that hid the old top shows
        its ink again as it leaves), not for a face the play holds twice already or a
        face printed once (a 0).
        """
        top = names[-1]
        if card_value(top) == "0" or [*names, *found].count(top) >= 2:
            return []
        patch = self._top_ink_outside(top, top_xy, top_box, t, card)
        if patch is None or patch.area < self.cfg.twin_outside_area:
            return []
        return [(top, patch.xy)]

    def _top_ink_outside(
        self,
        top: str,
        top_xy: tuple[float, float],
        top_box: tuple[float, float, float, float],
        t: float,
        card: float,
    ) -> ColorPatch | None:
        """New ink of the top card's colour outside its box (``top_box``, as it lies
        now) within ``strip_reach`` of it, since the pile last lay still; ``None``
        when the picture cannot tell."""
        if self.state.pile_colors is None:
            return None
        return self.state.pile_colors.new_ink_outside(
            card_color(top),
            top_box,
            top_xy,
            self.cfg.strip_reach * card,
            since=self.state.pile_changed_t,
            before=self.state.before_it_came(t),
            table_slivers=False,
        )

    def twin_misread(self, play: PlayAsRead, strips: list[tuple[str, tuple[float, float]]]) -> bool:
        """Is the lower card of a play read as its top card's face (a twin) that
        card's misreading, the strip found beside it (``strips``: a card of the play's
        value in another colour) the card it is? A twin shows its colour outside the
        top card's box (:meth:`_twin`: ``twin_outside_area``); a card mostly covered
        by the top card and read from the little that shows may be read as the card
        over it (``steep-messy-speeds`` held-out 698, opened: Cy's blue 4 under his
        yellow 4, boxed as a second yellow 4, its blue found by a strip: a play of
        three). Not on a card of the top's colour, where a twin brings little new ink.
        """
        color = card_color(play.top)
        return any(card_color(f) != color for f, _ in strips) and self._twin_without_ink(play)

    def _twin_without_ink(self, play: PlayAsRead) -> bool:
        """Is a lower card of the play read as its top card's face, with less than
        ``twin_outside_area`` of that colour outside the top card's box (a twin shows
        more, :meth:`_twin`)? Not asked on a card of the top's colour, where a twin
        brings little new ink."""
        top = play.top
        if top not in play.names[:-1] or not self.state.pile:
            return False
        if card_color(top) == card_color(self.state.pile[-1].top):
            return False
        patch = self._top_ink_outside(top, play.spots[-1], play.top_box, play.t, play.card)
        return patch is not None and patch.area < self.cfg.twin_outside_area

    def twin_of_the_old_top_s_colour(self, play: PlayAsRead) -> str | None:
        """The face of the lower card of a play read as its top card's face (a twin),
        when it is that card's misreading and no strip was found beside it: a card of
        the play's value in the colour of the card it was put on, or None.

        A twin shows its colour outside the top card's box (:meth:`_twin`:
        ``twin_outside_area``); a card mostly covered by the top card, read from the
        little that shows, may be read as the card over it. Its own ink, where it shows,
        is new ink beside the top card (a strip, :meth:`twin_misread`) unless it fell
        where the old top's colour lay: with no strip, no new ink of the top's colour
        outside its box, it is of the old top's colour (``high-tilted`` and eleven more
        styles held-out 708, opened: Bob's blue 1 under his yellow 1, put on a blue 4,
        boxed as a second yellow 1 throughout). Not for a top card of the old top's
        colour (a twin brings little new ink then), nor on a wild.
        """
        if play.names.count(play.top) != 2 or not self.state.pile:
            return None
        old = card_color(self.state.pile[-1].top)
        if old not in COLORS or not self._twin_without_ink(play):
            return None
        return f"{old}-{card_value(play.top)}"

    def _fan_tail(
        self,
        patches: list[ColorPatch],
        line: FanLine,
        value: str,
        card: float,
    ) -> list[tuple[str, tuple[float, float]]]:
        """The fan goes on: a smaller patch of a new colour beyond a fan's lowest card
        and in line with it is one more card of it, mostly covered (the third card of
        a fan shows only a sliver)."""
        top_xy, far = line.top_xy, line.far
        reach = math.dist(far, top_xy)
        if reach <= 0.0:
            return []
        taken = set(line.taken)
        tail: list[tuple[str, tuple[float, float]]] = []
        for p in sorted(patches, key=lambda p: -p.area):
            d = math.dist(p.xy, top_xy)
            if (
                p.color in taken
                or p.area < self.cfg.fan_tail_area
                or d < reach + self.cfg.fan_tail_beyond * card
            ):
                continue
            along = (p.xy[0] - top_xy[0]) * (far[0] - top_xy[0]) + (p.xy[1] - top_xy[1]) * (
                far[1] - top_xy[1]
            )
            if along < d * reach * math.cos(math.radians(self.cfg.fan_tail_angle_deg)):
                continue  # not in line with the fan
            tail.append((f"{p.color}-{value}", p.xy))
            taken.add(p.color)
        return tail

    def _fan_end(
        self,
        line: FanLine,
        value: str,
        before: float,
        card: float,
    ) -> list[tuple[str, tuple[float, float]]]:
        """The fan goes on past where its strips are looked for: a new colour one fan
        step beyond its lowest card seen (the step between the cards seen), within
        ``fan_end_reach``, no card of the fan has, is one more card of it. New since
        ``before``, the picture the strips were found against: from before a hand held
        still over the pile, if there was one (``covering-dim-22fps`` held-out 713,
        opened: Ann's fan of three 6s, an old red card's edge the hand had covered in
        the picture as her card came taken for a red 6 at the fan's end).

        A fan's lowest card is the one played on the pile (its colour is the pile's
        more often than not), and of a card put on its own colour only the part lying
        beyond the old top card shows new ink: at the far end of the fan, farther from
        the top card than ``strip_reach`` when the fan is spread (``house`` seed 654,
        plays of three: Bob's red 6, green 6 and blue 6 on a red 9, the red 6 found by
        no box and by no colour near the top).
        """
        if self.state.pile_colors is None:
            return []
        top_xy, far, n = line.top_xy, line.far, len(line.lower)
        end = (far[0] + (far[0] - top_xy[0]) / n, far[1] + (far[1] - top_xy[1]) / n)
        reach = self.cfg.fan_end_reach * card
        patches = self.state.pile_colors.new_colors(
            end,
            reach,
            since=self.state.pile_changed_t,
            before=before,
            table_slivers=False,
        )
        for p in patches or []:
            if (
                p.color not in line.taken
                and p.area >= self.cfg.fan_tail_area
                and math.dist(p.xy, end) <= reach  # its ink's middle: at the fan's end
            ):
                return [(f"{p.color}-{value}", p.xy)]
        return []

    def _past_the_fan(
        self,
        at: tuple[float, float],
        top_xy: tuple[float, float],
        lowest_xy: tuple[float, float],
        card: float,
    ) -> bool:
        """Does ``at`` lie past a fan's lowest card (at ``lowest_xy``, its top card at
        ``top_xy``), within ``unmatched_fan_line`` of the fan's line?"""
        dx, dy = lowest_xy[0] - top_xy[0], lowest_xy[1] - top_xy[1]
        step = math.hypot(dx, dy)
        if step == 0:
            return False
        ux, uy = dx / step, dy / step
        px, py = at[0] - lowest_xy[0], at[1] - lowest_xy[1]
        along, across = px * ux + py * uy, abs(px * uy - py * ux)
        return along >= 0 and across <= self.cfg.unmatched_fan_line * card

    def under_unmatched(
        self,
        face: str,
        onto: PileEntry,
        xy: tuple[float, float],
        box: tuple[float, float, float, float],
        since: float,
        before: float,
        card: float,
        *,
        fan_top: tuple[float, float] | None = None,
    ) -> list[tuple[str, tuple[float, float]]]:
        """The lower card of a play of one card, ``face``, that matches the card it
        went onto (``onto``'s top) by neither colour nor value, and would with a card
        of its value in the old top's colour under it. That card shows little new ink
        (its colour falls where the old card's was) and the recogniser may not box
        it, but its oval and figure change the picture of that colour outside the top
        card's box (``box``, the card at ``xy``), where a card put down alone changes
        nothing: ``unmatched_lower_change`` of it is that lower card
        (``evening-lamp-slide-24fps`` held-out 643, opened: Cy's green Draw Two under
        his red one on a green skip, never boxed in the lamp's dim light). Not a 0
        (printed once in a colour), not on a wild (the colour named is not known
        here), not of a colour of any card of ``onto`` when it was several cards put
        down together (their player named one of their colours, not known here:
        ``messy-pile`` and four more held-out 659, opened: Bob's yellow Draw Two on Ann's
        yellow 6 and green 6, yellow named, played over a green Draw Two never there),
        not where a pile card of that face lies off the old top card (that card, shown
        again). The pile as it lay still between ``since`` and ``before``.

        ``fan_top``: ``face``, at ``xy``, is the lowest of several cards put down
        together, whose top card lies at ``fan_top`` (``box`` its box). They cover the
        old top's colour beside the top card's box: only a change that shows that
        colour now counts, and only past ``face`` on the fan's line (within
        ``unmatched_fan_line`` of it; ``warm-drop-untidy-28fps`` held-out 654, opened: Bob's
        red 6 under his green and blue sixes on a red 9).
        """
        if self.state.pile_colors is None:
            return []
        below = onto.top
        color, value = card_color(face), card_value(face)
        old = card_color(below)
        if (
            color not in COLORS
            or old not in COLORS
            or color in {card_color(c) for c in onto.cards}
            or value == card_value(below)
            or value == "0"
        ):
            return []
        patch = self.state.pile_colors.changed_outside(
            old,
            box,
            xy,
            self.cfg.strip_reach * card,
            since=since,
            before=before,
            shown_now=fan_top is not None,
        )
        if patch is None or patch.area < self.cfg.unmatched_lower_change:
            return []
        if fan_top is not None and not self._past_the_fan(patch.xy, fan_top, xy, card):
            return []
        lower = f"{old}-{value}"
        if not self._on_card(patch.xy, onto, card) and self.state.pile_card_at(
            lower, patch.xy, card, onto
        ):
            return []
        return [(lower, patch.xy)]

    def inked_or_changed(
        self,
        face: str,
        xy: tuple[float, float],
        top: str,
        inks: dict[str, float],
        t: float,
        card: float,
        *,
        seen_coming: bool = False,
    ) -> bool:
        """:meth:`inked`, or ``face`` is of the old top card's colour and the picture
        changed where it lies (``own_color_change``,
        :meth:`vision.watch.state.WatcherState.middle_changed`), as a top card put on
        its own colour is judged. ``seen_coming``: a card seen carried in beside the
        play's (:meth:`vision.watch.fans.SeveralCardRules.riders`), no misreading of the
        heap, needs the ink a play needs (``ink_area``): squared under the top card it
        may show little (``messy-pile`` held-out 713, opened: Ann's yellow 6 between
        her blue and green 6, 0.011 of a card's face of new yellow)."""
        if self.inked(face, top, inks, seen_coming=seen_coming):
            return True
        if not self.state.pile or card_color(face) != card_color(self.state.pile[-1].top):
            return False
        changed = self.state.middle_changed(xy, card, self.state.before_it_came(t))
        return changed is not None and changed >= self.cfg.own_color_change

    def inked(
        self, face: str, top: str, inks: dict[str, float], *, seen_coming: bool = False
    ) -> bool:
        """Could ``face`` lie under the card ``top``, by the new ink (by colour) that
        came beside it? One of its colour, or a wild, could; another colour needs
        ``lower_ink_area`` of its own (``ink_area``, ``seen_coming``: a card seen
        carried in, not read from the heap's boxes)."""
        color = card_color(face)
        if color not in COLORS or color == card_color(top):
            return True
        least = self.cfg.ink_area if seen_coming else self.cfg.lower_ink_area
        return inks.get(color, 0.0) >= least


def _inside(xy: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    """Does ``xy`` lie within the upright box ``box``?

    >>> _inside((5.0, 5.0), (0.0, 0.0, 10.0, 10.0)), _inside((11.0, 5.0), (0.0, 0.0, 10.0, 10.0))
    (True, False)
    """
    return box[0] <= xy[0] <= box[2] and box[1] <= xy[1] <= box[3]
