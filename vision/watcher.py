"""The watcher: detections over time in, table events out (plays, draws, retractions).

Pure logic: it sees only :class:`~vision.detections.Detections` and a time, so every
rule is tested with made-up detection sequences, no camera and no model.

How it decides, in short:

* Detections are linked frame to frame into *tracks* (one per physical card), by
  position first and name second, so a label that flickers for a frame does not
  split a card in two. A track's name is the confidence-weighted vote of its recent
  sightings.
* A track that comes to rest inside the discard zone and is new there (it was seen
  arriving, or it shows a face the pile does not) is a ``play``, once, when it has
  been still for ``rest_s``. Tracks that come to rest together form one play with
  ``cards``. The first play on an empty pile is the ``flip``.
* ``player`` is the seat the card came from: where it was first seen, or the
  direction it moved in from.
* A face-down card (``back``) leaving the draw pile towards a seat is a ``draw``
  for that seat.
* When the top card has vanished and the card below it is visible again, at rest,
  the play is retracted: ``undo`` (also when the top card was seen carried off and
  nothing at all shows on the pile: the recogniser may miss the card below).
* A recogniser misreads pile cards (a top card boxed with the heap under it), so a
  face that alternates with a pile card's at its place, replaces it with no hand
  between, or belongs to a track once read as that pile card is no new card. Cards
  of one play share a value, so a half-covered card of a fan is read as the face of
  that value among its candidates (``Detections.candidates``). A card of the same
  value showing from under the last play within ``amend_s`` amends it: ``undo``,
  then the play with it. A card seen clearly all the way in and lost from sight as
  it reaches the pile has landed there.
* With a :class:`PileColorProbe` (the pipeline lends it
  :class:`vision.pile_colors.PileColors`), the picture has its say: a card colour
  that came onto the pile beside a play's top card is a lower card of the fan, of
  the play's value; a lower card read from boxes whose colour came nowhere there is
  the heap misread; and a card seen where no ink of its colour came is no play
  (one put on its own colour needs only a changed middle).

>>> from vision.calibration import TableLayout
>>> from vision.detections import Detections
>>> layout = TableLayout.default(640, 480, 4)
>>> w = Watcher(layout, ["Ann", "Bob", "Cy", "Dee"])
>>> events = []
>>> path = [470, 445, 420, 395, 370, 345, 320, 295, 270, 250, 250, 250, 250]  # from Ann's side
>>> for i, y in enumerate(path):
...     box = (295, y - 38, 345, y + 38)
...     events += w.update(Detections.from_list([("red-7", 0.9, box)]), i / 30)
>>> events
[{'type': 'flip', 'card': 'red-7'}]
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from tracker.cards import COLORS
from vision.calibration import TableLayout, bearing_of
from vision.detections import Detections
from vision.pile_probe import ColorPatch, PileColorProbe
from vision.tracks import (
    BACK,
    CardTracker,
    Detection,
    Track,
    TrackState,
    card_color,
    card_value,
    same_moments,
)
from vision.watcher_config import WatcherConfig


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


def amends(events: list[dict[str, object]], i: int) -> bool:
    """Is ``events[i]`` the ``undo`` of an amendment (an ``undo`` the watcher sends
    with the corrected ``play`` right after it)?

    >>> amends([{"type": "undo"}, {"type": "play", "cards": ["red-5", "blue-5"]}], 0)
    True
    >>> amends([{"type": "undo"}], 0)
    False
    """
    return (
        events[i].get("type") == "undo"
        and i + 1 < len(events)
        and events[i + 1].get("type") == "play"
    )


def events_to_apply(
    events: list[dict[str, object]],
    own_play_last: Callable[[], bool],
    held_back: Callable[[dict[str, object]], None] | None = None,
) -> Iterator[dict[str, object]]:
    """A frame's events in order, less those whose ``undo`` would take back the wrong
    event: ``undo`` takes back the last event applied, and when that is no longer
    the watcher's own play (a referee's ruling came in since), an amendment is left
    out (the play stays as first read) and so is a retraction's ``undo``, which is
    handed to ``held_back`` for the referee to confirm. ``own_play_last`` is asked
    as the events go.

    >>> amendment = [{"type": "undo"}, {"type": "play", "cards": ["red-5", "blue-5"]}]
    >>> len(list(events_to_apply(amendment, lambda: True)))
    2
    >>> list(events_to_apply(amendment, lambda: False))
    []
    >>> list(events_to_apply([{"type": "undo"}], lambda: False, print))
    {'type': 'undo'}
    []
    """
    skip = False
    for i, event in enumerate(events):
        if skip:
            skip = False
        elif amends(events, i) and not own_play_last():
            skip = True
        elif event.get("type") == "undo" and not own_play_last():
            if held_back is not None:
                held_back(event)
        else:
            yield event


@dataclass
class _PileEntry:
    """One play on the discard pile: its cards (bottom first) and where they rest."""

    cards: list[str]
    spots: list[tuple[float, float]]
    t: float
    ids: list[int] = field(default_factory=list)  # the tracks of its cards
    refused: bool = False  # the tracker refused it: its retraction is no undo
    left: bool = False  # one of its cards was seen carried off the pile
    player: str | None = None  # who played it, as reported
    # New ink beside it when it was played, by colour (None: the picture could not tell).
    inks: dict[str, float] | None = None

    @property
    def top(self) -> str:
        return self.cards[-1]


class Watcher:
    """Turns per-frame detections into DESIGN.md events.

    ``players`` are in clockwise order and map to ``layout.seats`` one to one.
    """

    def __init__(
        self,
        layout: TableLayout,
        players: list[str],
        config: WatcherConfig | None = None,
        pile_colors: PileColorProbe | None = None,
    ) -> None:
        self.cfg = config or WatcherConfig()
        #: Detections in, tracks with ids out; the rules below read its tracks.
        self.tracker = CardTracker(layout, self.cfg)
        self.layout = layout
        #: Sees the colours of a fan's lower cards in the picture (optional).
        self.pile_colors = pile_colors
        self.players: list[str] = []
        self.seat_players(players, layout)
        self._pile: list[_PileEntry] = []
        # The faces seen lately (with their track; weak ones, untracked, too): the lower
        # cards of a fan show little.
        self._looks: deque[tuple[float, list[tuple[Detection, Track | None]]]] = deque()
        self._last_t = -math.inf
        self._top_seen_t = -math.inf
        self._below_since: float | None = None
        self._below_seen_t = -math.inf
        self._play_is_last = False  # the watcher's last event is a play it may amend
        self._pile_changed_t = -math.inf  # when a play or a retraction last changed the pile
        # Backs carried from a seat onto the discard pile, kept a while after they are
        # lost: to the detector a wild's black face may look like a card's back.
        self._backs_landed: deque[Track] = deque(maxlen=self.cfg.remembered)
        self._lost_arrivals: deque[Track] = deque(maxlen=self.cfg.remembered)
        #: Times at which a refused play was taken back (no ``undo`` is emitted for it).
        self.quiet_takebacks: list[float] = []

    @property
    def layout(self) -> TableLayout:
        return self.tracker.layout

    @layout.setter
    def layout(self, layout: TableLayout) -> None:
        self.tracker.layout = layout

    @property
    def _tracks(self) -> list[Track]:
        return self.tracker.tracks

    @_tracks.setter
    def _tracks(self, tracks: list[Track]) -> None:
        self.tracker.tracks = tracks

    # ------------------------------------------------------------------ public
    def reset(self) -> None:
        """A new round: the discard pile starts empty (its first card is a ``flip``)."""
        self._pile.clear()
        self._backs_landed.clear()
        self._lost_arrivals.clear()
        for tr in self._tracks:
            tr.state = TrackState.PILE  # cards lying around from the last round are not plays
            tr.pending_since = None
        self._below_since = None

    def seat_players(self, players: list[str], layout: TableLayout | None = None) -> None:
        """A round with other players (or another seating): new names, and a layout
        with as many seats when their number changed. Call with :meth:`reset`."""
        layout = layout or self.layout
        if len(players) != len(layout.seats):
            raise ValueError(
                f"{len(players)} players but the table layout has {len(layout.seats)} seats"
            )
        if len(set(players)) != len(players):
            raise ValueError(f"player names must be distinct: {players}")
        self.layout = layout
        self.players = list(players)

    def play_refused(self) -> None:
        """The tracker refused the last play: taking that card back is not an ``undo``."""
        if self._pile:
            self._pile[-1].refused = True

    @property
    def pile(self) -> list[list[str]]:
        """The plays on the discard pile as the watcher believes them, bottom first."""
        return [list(e.cards) for e in self._pile]

    def update(self, detections: Detections, t: float) -> list[dict[str, object]]:
        """Feed one frame's detections seen at time ``t`` (seconds); get new events."""
        if t < self._last_t:
            raise ValueError(f"time went backwards: {t} after {self._last_t}")
        self._last_t = t
        card = self.layout.card_px
        seen = [
            Detection(
                detections.card[i],
                float(detections.confidence[i]),
                tuple(float(v) for v in detections.xyxy[i]),
                detections.candidates_of(i),
            )
            for i in range(len(detections))
        ]
        keep = [i for i, d in enumerate(seen) if d.conf >= self.cfg.min_confidence]
        tracked = self.tracker.update([seen[i] for i in keep], t)
        track_of = dict(zip(keep, tracked, strict=True))
        # Weaker faces too (untracked): the lower cards of a fan show little.
        self._looks.append(
            (t, [(d, track_of.get(i)) for i, d in enumerate(seen) if d.name != BACK])
        )
        while self._looks and t - self._looks[0][0] > self.cfg.looks_s:
            self._looks.popleft()
        events: list[dict[str, object]] = []
        events += self._draws(t, card)
        if events:
            self._play_is_last = False
        events += self._plays(t, card)
        retraction = self._retraction(t, card)
        if retraction:
            self._play_is_last = False
        events += retraction
        kept: list[Track] = []
        for tr in self._tracks:
            if t - tr.last_t <= self.cfg.lost_s or tr.pending_since is not None:
                kept.append(tr)
            elif self._back_landed(tr, card):
                self._backs_landed.append(tr)
            elif self._lost_arriving(tr, card):
                self._lost_arrivals.append(tr)
        self._tracks = kept
        return events

    # ------------------------------------------------------------------ plays
    def _near_pile_card(
        self, tr: Track, card: float, reach: float | None = None
    ) -> _PileEntry | None:
        """The pile entry whose card with this face rests where ``tr`` is, if any.

        ``reach`` (in card lengths) is how far from its resting place the card may be
        seen: a card mostly buried under others shows only a corner, whose box
        centre lies well off the card's own.
        """
        name = tr.name
        lim = (self.cfg.same_spot if reach is None else reach) * card
        return next((e for c, e in self._pile_cards_near(tr.xy, lim) if c == name), None)

    def _pile_cards_near(
        self, xy: tuple[float, float], lim: float
    ) -> Iterator[tuple[str, _PileEntry]]:
        """The faces (and their plays) of the pile cards resting within ``lim`` of
        ``xy``, among the last ``pile_depth`` plays, newest first."""
        x, y = xy
        for entry in reversed(self._pile[-self.cfg.pile_depth :]):
            for c, (sx, sy) in zip(entry.cards, entry.spots, strict=True):
                if math.hypot(x - sx, y - sy) <= lim:
                    yield c, entry

    def _seen_surely(self, tr: Track, clear: float) -> bool:
        """Was ``tr``'s face seen once with confidence ``clear``, or read a good many
        times at middling confidence (some faces, a wild's black one above all, are
        never read surely in flight)?"""
        sure = max(c for _, c in tr.votes)
        return sure >= clear or (
            len(tr.sightings) >= self.cfg.sure_looks and sure >= self.cfg.clear_look
        )

    def _landed_unseen(self, tr: Track, t: float, card: float) -> bool:
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
        if tr.name_share() < cfg.landed_vote or not self._seen_surely(tr, cfg.landed_look):
            return False  # not seen clearly: a guess is no play
        x, y = tr.xy
        cx, cy = self.layout.discard.center
        # Lost on the pile, not on its way (its box jumps about as it lands on the
        # heap, so how it slowed down tells nothing).
        return math.hypot(x - cx, y - cy) <= cfg.landed_reach * card

    def _back_landed(self, tr: Track, card: float) -> bool:
        """A back carried in from a seat (not from the draw pile) that came down on the
        discard pile: cards are played face up, so it is a card the detector took
        for a back."""
        return (
            tr.name == BACK
            and not tr.settled
            and tr.was_outside_discard
            and not tr.first_in_draw
            and len(tr.sightings) >= self.cfg.back_landed_sightings
            and self.layout.discard.contains(*tr.xy)
            and math.dist(tr.first_xy, tr.xy) >= self.cfg.back_landed_travel * card
        )

    def _lost_arriving(self, tr: Track, card: float) -> bool:
        """A face carried in from a seat, seen clearly, lost on its way to the
        discard pile (near it, nearer than where it was first seen)."""
        if tr.name == BACK or tr.settled or not tr.was_outside_discard:
            return False
        cfg = self.cfg
        if (
            len(tr.sightings) < 2
            or tr.name_share() < cfg.lost_arriving_vote
            or not self._seen_surely(tr, cfg.lost_arriving_look)
        ):
            return False
        centre = self.layout.discard.center
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

    def _take_over_arrival(self, tr: Track, t: float, card: float) -> None:
        """A card lost just short of the pile, and a box on the heap that now reads as
        its face: the card landed there, and that box took it up.

        The detector may lose a card in its last moments of flight and box it, once
        down, together with the heap, whose track (born on the pile) then takes its
        face. That track takes over where the card came from. The card may have been
        dropped from the tracks by then (``_lost_arrivals`` remembers it a while).
        """
        since_play = self._pile[-1].t if self._pile else -math.inf
        for o in [*self._tracks, *self._lost_arrivals]:
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
                and self._lost_arriving(o, card)
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
        for o in [*self._tracks, *self._backs_landed]:
            if (
                o is not tr
                and t - o.last_t <= self.cfg.wild_as_back_s
                and self._back_landed(o, card)
                # Brought after the last play (not a second box of that play's card).
                and o.first_t > (self._pile[-1].t if self._pile else -math.inf)
                and math.dist(o.xy, tr.xy) <= self.cfg.same_spot * card
            ):
                tr.came_as(o)
                o.state = TrackState.TWIN
                return

    def _is_new_card(self, tr: Track, t: float, card: float) -> bool:
        """Would this resting track on the discard pile be a card just played?"""
        name = tr.name
        if name == BACK or tr.name_share() < self.cfg.new_card_vote:
            return False  # a back, or no clear face yet (a string of misreadings)
        arrived = tr.was_outside_discard or tr.max_travel >= self.cfg.arrived_travel * card
        if not tr.was_outside_discard and max(c for n, c in tr.votes if n == name) < (
            self.cfg.clear_look
        ):
            # A card just put down lies on top, uncovered: it is seen clearly at least
            # once. A face that came up only in unsure looks at the heap is a guess.
            return False
        since = t - self.cfg.beside_gap_s
        if not tr.was_outside_discard and self._read_beside_pile_card(tr, card, since):
            # Moved about on the pile only, and a pile card is seen where it lies: two
            # whole cards cannot lie in one place, it is that card misread (its own box
            # blinks now and then while the other reads it).
            return False
        if self._pile:
            top = self._pile[-1]
            if arrived and name == top.top:
                # The same face as the top: a second copy only if it came from outside
                # (an adjusted top card moves too, but never leaves the pile).
                fx, fy = tr.first_xy
                sx, sy = top.spots[-1]
                return (
                    tr.was_outside_discard
                    or math.hypot(fx - sx, fy - sy) > self.cfg.second_copy_from * card
                )
            if not tr.was_outside_discard and self._near_pile_card(
                tr, card, reach=self.cfg.pile_reach
            ):
                # A pile card seen again (uncovered, re-detected, or pushed about by
                # the card put on it): it never came from outside the pile.
                return False
            if not arrived and name in top.cards:
                return False
        if arrived:
            return True
        if self._read_beside_pile_card(tr, card) or self._once_read_as_pile_card(tr, card):
            return False
        # Never seen moving: the detector may miss a card in a hand; ask for a longer rest
        # and a clear vote, so a one-off misreading of the top card is not a play.
        return (
            self.tracker.at_rest(tr, t, card, self.cfg.quiet_play_rest_s)
            and tr.name_share() >= self.cfg.quiet_play_vote
        )

    def _read_beside_pile_card(self, tr: Track, card: float, since: float | None = None) -> bool:
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
            and (o.settled or self._near_pile_card(o, card, reach=self.cfg.pile_reach) is not None)
            for o in self._tracks
        )

    def _once_read_as_pile_card(self, tr: Track, card: float) -> bool:
        """Did this track ever read as the face of a pile card lying where it is?

        Its reading drifted (a pile card boxed with the heap), it was not replaced: a
        card put there would have come with a hand, and been seen arriving.
        """
        faces = tr.faces - {tr.name, BACK}
        return any(c in faces for c, _ in self._pile_cards_near(tr.xy, self.cfg.pile_reach * card))

    def _plays(self, t: float, card: float) -> list[dict[str, object]]:
        zone = self.layout.discard
        cfg = self.cfg
        for tr in self._tracks:
            if tr.settled or tr.pending_since is not None:
                continue
            if tr.last_t != t:
                if self._landed_unseen(tr, t, card):
                    tr.pending_since = t
                continue
            x, y = tr.xy
            if not zone.contains(x, y) or not self.tracker.at_rest(tr, t, card, self.cfg.rest_s):
                continue
            if not tr.was_outside_discard:
                self._take_over_arrival(tr, t, card)
            if self._is_new_card(tr, t, card):
                tr.pending_since = t
        pending = [tr for tr in self._tracks if tr.pending_since is not None]
        if not pending:
            return self._amendment(t, card)
        first = min(tr.pending_since or t for tr in pending)
        # Cards put down together: the others of the group may still be moving, or be
        # seen only now and then under the top one. They came with the first card.
        companions = [
            tr
            for tr in self._tracks
            if tr.pending_since is None
            and not tr.settled
            and tr.name != BACK
            and t - tr.last_t <= cfg.companion_gap_s
            and tr.first_t >= first - cfg.companion_before_s
            and zone.contains(*tr.xy, margin=cfg.companion_margin * card)
            and tr.name_share() >= cfg.steady_vote  # not a string of misreadings of a pile card
            and (
                tr.was_outside_discard
                or (
                    self._near_pile_card(tr, card, reach=self.cfg.pile_reach)
                    is None  # not a pile card
                    and (
                        tr.max_travel >= cfg.companion_travel * card  # it came in with them
                        or (tr.first_t >= first - cfg.companion_first_s and len(tr.sightings) >= 2)
                    )
                )
            )
        ]
        for tr in companions:
            if (
                tr.last_t == t
                and zone.contains(*tr.xy)
                and self.tracker.at_rest(tr, t, card, self.cfg.rest_s)
            ):
                tr.pending_since = t
        waiting = [tr for tr in companions if tr.pending_since is None]
        if waiting and t - first < self.cfg.group_s:
            return []
        group = [tr for tr in self._tracks if tr.pending_since is not None]
        group += [
            tr
            for tr in waiting
            if len(tr.sightings) >= cfg.group_sightings and zone.contains(*tr.xy)
        ]
        group = self._riders(group, t, card) + group  # lower cards: first on a tie
        group = self._one_value(group, t)
        if self._no_new_ink(group, t, card):
            for tr in group:
                tr.pending_since = None
                tr.state = TrackState.MISREAD  # a card seen where nothing was put: a misreading
            return []
        return [self._commit(group, t, card)]

    def _riders(self, group: list[Track], t: float, card: float) -> list[Track]:
        """Lower cards of a fan lost from sight on the way in: cards of the play's value
        carried in beside one of its cards (seen at the same moments, a fan's width
        apart, going the same way) until the top card or the hand hid them.
        """
        if not group:
            return []
        value = card_value(max(group, key=lambda tr: self._seen(tr, t)).name)
        faces = {tr.name for tr in group}
        riders = [
            tr
            for tr in self._tracks
            if tr not in group
            and tr.name not in faces  # the same face: most likely one card boxed twice
            and not tr.settled
            and tr.pending_since is None
            and tr.was_outside_discard
            and tr.name != BACK
            and card_value(tr.name) == value
            and tr.name_share() >= self.cfg.steady_vote
            and t - tr.last_t <= self.cfg.fan_s
            and any(self._carried_beside(tr, g, card) for g in group)
        ]
        # One card lost and found again on the way is two tracks: keep its latest.
        latest = {tr.name: tr for tr in sorted(riders, key=lambda tr: tr.last_t)}
        return list(latest.values())

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

    def _one_value(self, group: list[Track], t: float) -> list[Track]:
        """The cards of ``group`` that share the value of its best-seen card, once each.

        Several cards go down together only when they share a value (a rule set
        allows that or not; either way it is the only such play players make), so a
        card of another value in the group is a misreading of a card under them.
        """
        if len(group) < 2:
            return group
        # A card seen coming in is a card; one first seen on the heap may be the heap.
        by_sight = sorted(group, key=lambda tr: (not tr.was_outside_discard, -self._seen(tr, t)))
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
                    if self.tracker.same_card(
                        k,
                        face,
                        tr.xy,
                        self.cfg.lost_twin_reach if min(k.last_t, tr.last_t) < t else None,
                    )
                ),
                None,
            )
            if twin is None:
                tr.read_as = face
                keep.append(tr)
            elif tr.was_outside_discard and not twin.was_outside_discard:
                # One card, boxed twice: it came from where either box came from.
                twin.came_as(tr)
        for tr in group:
            if tr not in keep:
                tr.pending_since = None
                tr.state = TrackState.MISREAD  # a pile card misread: never a play of its own
        return keep

    def _seen(self, tr: Track, t: float) -> float:
        """How well a card was seen lately: its mean confidence over the last second.

        A card covered by another gets a lower confidence.
        """
        recent = [s for s in tr.sightings if t - s.t <= self.cfg.seen_window_s]
        conf = [c for _, c in list(tr.votes)[-len(recent) :]] if recent else [0.0]
        return sum(conf) / len(conf)

    def _commit(self, group: list[Track], t: float, card: float) -> dict[str, object]:
        # Bottom first. The top card of a fan is the one seen best.
        group.sort(key=lambda tr: self._seen(tr, t))
        names = [tr.name for tr in group]
        spots = [tr.xy for tr in group]
        for face, xy in self._fan_cards(names, spots, t, t, card):
            names.insert(0, face)
            spots.insert(0, xy)
        strips, inks = self._strip_cards(names, spots, t, card, top_seen=group[-1].last_t == t)
        if inks is not None:
            # A lower card read from the boxes whose colour came nowhere beside the
            # top card is a misreading (of the heap under it).
            keep = [i for i, n in enumerate(names[:-1]) if self._inked(n, names[-1], inks)]
            names[:-1] = [names[i] for i in keep]
            spots[:-1] = [spots[i] for i in keep]
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
        for tr in group:
            tr.state = TrackState.PLAYED
            tr.pending_since = None
        value, top_xy = card_value(names[-1]), spots[-1]
        for tr in self._tracks:
            if tr.settled:
                continue
            if any(
                self.tracker.same_card(tr, n, xy) for n, xy in zip(names, spots, strict=True)
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
        seat = self._seat_of(group, card)
        self._pile_changed_t = t
        if not self._pile:
            self._pile.append(_PileEntry(names, spots, t, [tr.id for tr in group]))
            self._top_seen_t = t
            ev: dict[str, object] = {"type": "flip", "card": names[-1]}
            return ev
        player = self.players[seat] if seat is not None else None
        self._pile.append(
            _PileEntry(names, spots, t, [tr.id for tr in group], player=player, inks=inks)
        )
        self._top_seen_t = t
        self._below_since = None
        self._play_is_last = True
        return self._play_event(self._pile[-1])

    def _fan_cards(
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
        frames = [dets for ft, dets in self._looks if t - ft <= self.cfg.fan_s]
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
                cx, cy = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
                if min(math.hypot(cx - x, cy - y) for x, y in spots) > self.cfg.fan_reach * card:
                    continue
                for face, p in d.candidates:
                    if card_value(face) != value or face in names:
                        continue
                    if self._pile_face_at(face, (cx, cy), card):
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

    def _before_it_came(self, t: float) -> float:
        """The latest time a still picture can be from without showing a play made
        now: a card resting here lies still for ``rest_s`` before it is played, or
        ``quiet_play_rest_s`` when it was not seen coming."""
        return t - self.cfg.quiet_play_rest_s - self.cfg.rest_s

    def _no_new_ink(self, group: list[Track], t: float, card: float) -> bool:
        """Was nothing of the play's colour put down where it lies?

        A card put on the pile brings its ink with it: where the recogniser sees a
        new card but the picture shows no new ink of its colour in the middle of it
        since the pile last lay still before the card came, it misread the heap (or
        the table). Wilds bring ink of any colour. Without a probe, or a picture
        from before the card, nothing is ruled out.
        """
        if self.pile_colors is None or not group:
            return False
        top = max(group, key=lambda tr: self._seen(tr, t))
        # For the first card, before it was first seen (it may lie there from the start).
        before = self._before_it_came(t)
        if not self._pile:
            before = min(before, min(tr.first_t for tr in group))
        patches = self.pile_colors.new_colors(
            top.xy,
            self.cfg.ink_middle * card,  # its middle, where the hand holding it is not
            since=self._pile_changed_t,
            before=before,
            else_at_since=bool(self._pile),  # the picture when the last play came
            hands=False,
        )
        if patches is None:
            return False
        color = card_color(top.name)
        ink = sum(p.area for p in patches if p.color == color or color not in COLORS)
        if ink >= self.cfg.ink_area:
            return False
        if top.was_outside_discard and self._pile and card_color(self._pile[-1].top) == color:
            # Seen coming onto a card of its own colour: its oval and figure fall where
            # the old card's did, and bring little new ink. The picture changed, though.
            changed = self.pile_colors.changed_area(
                top.xy,
                self.cfg.ink_middle * card,
                since=self._pile_changed_t,
                before=before,
                else_at_since=True,
                hands=False,  # as above: what touches its middle is the card
            )
            return changed is not None and changed < self.cfg.own_color_change
        return True

    def _strip_cards(
        self,
        names: list[str],
        spots: list[tuple[float, float]],
        t: float,
        card: float,
        *,
        top_seen: bool = True,
    ) -> tuple[list[tuple[str, tuple[float, float]]], dict[str, float] | None]:
        """Lower cards of a fan seen by their colour: a card colour that came onto the
        pile beside the top card since the pile last lay still, in a strip no card of
        the play accounts for, is a card of the play's value in that colour.

        Also gives the area of each new colour there (``None`` when the picture
        cannot tell). Only with a :class:`PileColorProbe`, and not under a wild
        (wilds have no colour of their own to tell them by). A top card lost from
        sight as it landed (``top_seen`` false) lies where its colour came, not
        where it was last seen.
        """
        top = names[-1]
        color = card_color(top)
        if self.pile_colors is None or not self._pile or color not in COLORS:
            return [], None
        top_xy = spots[-1]
        patches = self.pile_colors.new_colors(
            top_xy,
            self.cfg.strip_reach * card,
            since=self._pile_changed_t,
            before=self._before_it_came(t),
        )
        if patches is None:
            return [], None
        own = [p for p in patches if p.color == color]
        if not top_seen and own:
            top_xy = max(own, key=lambda p: p.area).xy
        have = {card_color(n) for n in names}
        value = card_value(top)
        # A card put down on one of its colour changes the picture only where its
        # oval and figure fall: less of its ink shows as new.
        under = card_color(self._pile[-1].top)
        strips = [
            (f"{p.color}-{value}", p.xy)
            for p in patches
            if p.color not in have
            and p.area >= (self.cfg.strip_area_on_own if p.color == under else self.cfg.strip_area)
            # Colour over the top card itself is that card, misread: no strip.
            and math.hypot(p.xy[0] - top_xy[0], p.xy[1] - top_xy[1])
            >= self.cfg.strip_off_top * card
        ]
        strips += self._fan_tail(patches, spots, strips, have, top_xy, value, card)
        return strips, {p.color: p.area for p in patches}

    def _fan_tail(
        self,
        patches: list[ColorPatch],
        spots: list[tuple[float, float]],
        strips: list[tuple[str, tuple[float, float]]],
        have: set[str],
        top_xy: tuple[float, float],
        value: str,
        card: float,
    ) -> list[tuple[str, tuple[float, float]]]:
        """The fan goes on: a smaller patch of a new colour beyond a fan's lowest card
        and in line with it is one more card of it, mostly covered (the third card of
        a fan shows only a sliver)."""
        lower = [*spots[:-1], *(xy for _, xy in strips)]
        if not lower:
            return []
        far = max(lower, key=lambda xy: math.dist(xy, top_xy))
        reach = math.dist(far, top_xy)
        if reach <= 0.0:
            return []
        taken = have | {card_color(f) for f, _ in strips}
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

    def _pile_face_at(self, face: str, xy: tuple[float, float], card: float) -> bool:
        """Is ``face`` a card near the top of the pile, or one lying near ``xy``?

        The last few plays lie in a heap whose boxes wander: their faces are no new
        card anywhere on it.
        """
        if any(face in entry.cards for entry in self._pile[-self.cfg.recent_plays :]):
            return True
        return any(c == face for c, _ in self._pile_cards_near(xy, self.cfg.pile_reach * card))

    @staticmethod
    def _play_event(entry: _PileEntry) -> dict[str, object]:
        ev: dict[str, object] = {"type": "play"}
        if len(entry.cards) == 1:
            ev["card"] = entry.cards[0]
        else:
            ev["cards"] = list(entry.cards)
        if entry.player is not None:
            ev["player"] = entry.player
        return ev

    def _amendment(self, t: float, card: float) -> list[dict[str, object]]:
        """A card put down with the last play, seen only once the hand left: amend it.

        Cards put down together may lie squarely on top of each other in the hand,
        the lower one showing only once they lie on the pile. A face of the same
        value that appears from under the play shortly after it, rests, and is no
        pile card was part of it: the play is taken back and reported again with it
        (``undo`` then ``play``; only the ``play`` when the tracker refused the first).
        """
        if len(self._pile) < 2 or not self._play_is_last:
            return []
        top = self._pile[-1]
        if t - top.t > self.cfg.amend_s:
            return []
        value = card_value(top.top)
        found = [
            tr
            for tr in self._tracks
            if not tr.settled
            and tr.pending_since is None
            and tr.name != BACK
            and tr.name not in top.cards
            and card_value(tr.name) == value
            and tr.first_t >= top.t - self.cfg.amend_before_s
            and len(tr.sightings) >= 2
            and tr.name_share() >= self.cfg.steady_vote
            and self.layout.discard.contains(*tr.xy)
            and self.tracker.at_rest(tr, t, card, self.cfg.rest_s)
            and self._near_pile_card(tr, card, reach=self.cfg.pile_reach) is None
            and not self._once_read_as_pile_card(tr, card)
        ]
        fan = [] if found else self._fan_cards(top.cards, top.spots, top.t, t, card)
        if top.inks is not None:
            # As at the play: a lower card of another colour brought its ink beside it.
            found = [tr for tr in found if self._inked(tr.name, top.top, top.inks)]
            fan = [(f, xy) for f, xy in fan if self._inked(f, top.top, top.inks)]
        if not found and not fan:
            return []
        for tr in found:
            tr.state = TrackState.PLAYED
        # They lay under the cards seen first.
        top.cards[:0] = [tr.name for tr in found] + [f for f, _ in fan]
        top.spots[:0] = [tr.xy for tr in found] + [xy for _, xy in fan]
        top.ids[:0] = [tr.id for tr in found]
        self._pile_changed_t = t
        out: list[dict[str, object]] = [] if top.refused else [{"type": "undo"}]
        top.refused = False
        self._play_is_last = False  # amended once
        return [*out, self._play_event(top)]

    def _inked(self, face: str, top: str, inks: dict[str, float]) -> bool:
        """Could ``face`` lie under the card ``top``, by the new ink (by colour) that
        came beside it? One of its colour, or a wild, could; another colour needs
        ``lower_ink_area`` of its own."""
        color = card_color(face)
        if color not in COLORS or color == card_color(top):
            return True
        return inks.get(color, 0.0) >= self.cfg.lower_ink_area

    def _seat_of(self, group: list[Track], card: float) -> int | None:
        """The seat the card(s) came in from."""
        votes: dict[int, float] = {}
        for tr in group:
            fx, fy = tr.first_xy
            x, y = tr.xy
            if tr.was_outside_discard and not tr.first_in_discard:
                b = self.layout.bearing(fx, fy)
            elif math.hypot(fx - x, fy - y) >= self.cfg.seat_travel * card:
                b = bearing_of(fx - x, fy - y)  # it moved in from that side
            else:
                continue
            s = self.layout.seat_for_bearing(b)
            votes[s] = votes.get(s, 0.0) + 1.0
        if not votes:
            return None
        return max(votes, key=lambda s: votes[s])

    # ------------------------------------------------------------------ draws
    def _draws(self, t: float, card: float) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        draw = self.layout.draw
        dcx, dcy = draw.center
        for tr in self._tracks:
            if tr.drawn or tr.handed_on or tr.name != BACK:
                continue
            if len(tr.sightings) + tr.seen_before < 2:
                # One look cannot tell a card on its way from a dark thing read once
                # as a back.
                continue
            if not (tr.first_in_draw or self._leaving(tr, card)):
                continue
            x, y = tr.xy
            away = math.hypot(x - dcx, y - dcy)
            gone = t - tr.last_t > self.cfg.lost_s * self.cfg.draw_gone_share
            far = away >= self.cfg.draw_leave * card
            # A back that ends on the discard pile is a card being turned up, not drawn.
            if self.layout.discard.contains(x, y):
                continue
            near_gone = gone and away >= self.cfg.draw_gone_leave * card
            if (far or near_gone) and not self._second_box(tr, card):
                tr.drawn = True
                seat = self._seat_of_draw(x, y, dcx, dcy)
                ev: dict[str, object] = {"type": "draw"}
                if seat is not None:
                    ev["player"] = self.players[seat]
                out.append(ev)
        return out

    def _second_box(self, tr: Track, card: float) -> bool:
        """Was this back only ever seen beside a back tracked longer, at the same moments?

        A card in a hand may be boxed twice for a frame (whole, and with the fingers
        over it); the second box, lost at once (or taken for the drawn card seen again
        farther out), is that card, not a draw of its own.
        """
        lim = self.cfg.second_box_reach * card
        beside = {
            s.t
            for o in self._tracks
            if o is not tr and o.name == BACK and len(o.sightings) > len(tr.sightings)
            for s, os in same_moments(tr, o)
            if math.hypot(os.x - s.x, os.y - s.y) <= lim
        }
        return all(s.t in beside for s in tr.sightings)

    def _leaving(self, tr: Track, card: float) -> bool:
        """A back first seen beside the draw pile, moving straight away from it.

        At a low frame rate the card may be first seen only once it has left the
        pile: its way back points at the pile all the same.
        """
        dcx, dcy = self.layout.draw.center
        fx, fy = tr.first_xy
        x, y = tr.xy
        ox, oy = fx - dcx, fy - dcy  # from the pile to where it was first seen
        mx, my = x - fx, y - fy  # how it moved since
        d0, m = math.hypot(ox, oy), math.hypot(mx, my)
        if d0 > self.cfg.leaving_from * card or m < self.cfg.leaving_travel * card or d0 < 1e-6:
            return False
        return (ox * mx + oy * my) / (d0 * m) >= math.cos(math.radians(self.cfg.leaving_angle_deg))

    def _seat_of_draw(self, x: float, y: float, dcx: float, dcy: float) -> int | None:
        """Follow the card's way out of the draw pile to the frame's edge: that seat."""
        dx, dy = x - dcx, y - dcy
        n = math.hypot(dx, dy)
        if n < 1e-6:
            return None
        dx, dy = dx / n, dy / n
        w, h = self.layout.width, self.layout.height
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
        return self.layout.seat_for_bearing(self.layout.bearing(ex, ey))

    # ------------------------------------------------------------------ retraction
    def _top_visible(self, top: _PileEntry, below: _PileEntry, t: float, card: float) -> bool:
        """Is a card of the top play still where it was put?"""
        zone = self.layout.discard
        near = self.cfg.same_spot * card
        for tr in self._tracks:
            if tr.last_t != t:
                continue
            if not zone.contains(*tr.xy, margin=self.cfg.off_pile_margin * card) and (
                tr.id in top.ids
                or (
                    tr.name in top.cards
                    and (
                        tr.settled
                        or (
                            tr.first_t >= top.t
                            and (tr.first_in_discard or self._carried_off(tr, top, card))
                        )
                    )
                )
            ):
                top.left = True  # one of its cards was seen carried away
        for tr in self._tracks:
            if tr.last_t != t:
                continue
            for c, (sx, sy) in zip(top.cards, top.spots, strict=True):
                if tr.name != c or math.hypot(tr.xy[0] - sx, tr.xy[1] - sy) > near:
                    continue
                # Once a card of the top play was seen carried off, a card with its
                # face at that spot is another copy under it (or its track mixed up
                # with one): the top play is gone.
                if not top.left:
                    return True
        return False

    def _carried_off(self, tr: Track, top: _PileEntry, card: float) -> bool:
        """Was ``tr`` first seen just off the pile, going away from where ``top`` lies?

        A card lifted off the pile is hidden by the hand until it is clear of it, and
        a copy of its face lying under it may take over its track meanwhile.
        """
        if len(tr.sightings) < 2:
            return False
        first, last = tr.sightings[0], tr.sightings[-1]
        d0 = min(math.hypot(first.x - x, first.y - y) for x, y in top.spots)
        d1 = min(math.hypot(last.x - x, last.y - y) for x, y in top.spots)
        return (
            d0 <= self.cfg.carried_off_from * card and d1 >= d0 + self.cfg.carried_off_travel * card
        )

    def _retraction(self, t: float, card: float) -> list[dict[str, object]]:
        if len(self._pile) < 2:
            return []
        top, below = self._pile[-1], self._pile[-2]
        if self._top_visible(top, below, t, card):
            self._top_seen_t = t
            self._below_since = None
            return []
        if any(tr.pending_since is not None for tr in self._tracks):
            return []  # a new card is landing: not a retraction
        below_tracks = [
            tr
            for tr in self._tracks
            if tr.last_t == t
            and tr.name == below.top
            and tr.last_name == below.top  # seen as that face now, not only on the vote
            and math.hypot(tr.xy[0] - below.spots[-1][0], tr.xy[1] - below.spots[-1][1])
            <= self.cfg.same_spot * card
            and self.tracker.at_rest(tr, t, card, self.cfg.rest_s)
            and (tr.id not in top.ids or top.left)
        ]
        if not below_tracks:
            # The card below may blink (a pile card half lit, or read now and then as
            # the heap): a missed frame or two does not start its wait again.
            if self._below_since is not None and t - self._below_seen_t > self.cfg.below_gap_s:
                self._below_since = None
            if top.left and t - self._top_seen_t >= self.cfg.blind_undo_s:
                zone = self.layout.discard
                if not any(tr.last_t == t and zone.contains(*tr.xy) for tr in self._tracks):
                    # Seen carried off, and the recogniser sees nothing on the pile
                    # (it may miss the card below, a wild on a dark heap): taken back.
                    return self._take_back(top, [], t)
            return []
        if self._below_since is None:
            self._below_since = t
        self._below_seen_t = t
        # Seen carried off: half a second. Only gone (a recogniser may lose a card for a
        # while, or read it as the one below): three times as long.
        wait = self.cfg.undo_s if top.left else self.cfg.unseen_undo_factor * self.cfg.undo_s
        if t - self._top_seen_t < wait or t - self._below_since < self.cfg.rest_s:
            return []
        return self._take_back(top, below_tracks, t)

    def _take_back(
        self, top: _PileEntry, below_tracks: list[Track], t: float
    ) -> list[dict[str, object]]:
        """The top play was taken back: an ``undo``, unless the tracker refused it."""
        self._pile.pop()
        self._top_seen_t = t
        self._pile_changed_t = t
        self._below_since = None
        for tr in below_tracks:
            tr.state = TrackState.PILE
        if top.refused:
            # The tracker never applied it; the card simply went back. Noted, not sent.
            self.quiet_takebacks.append(t)
            return []
        return [{"type": "undo"}]
