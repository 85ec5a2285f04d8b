"""What the watcher's rule modules share: the configuration, the table, the card
tracker and its tracks, the discard pile as the watcher believes it (one
:class:`PileEntry` per play), and the faces seen lately."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from vision.arm_probe import ArmProbe
from vision.boxes import box_overlap
from vision.calibration import TableLayout, Zone
from vision.card_tracker import CardTracker
from vision.faces import BACK
from vision.pile_probe import PileColorProbe
from vision.tracks import Detection, Track
from vision.watcher_config import WatcherConfig


@dataclass
class DrawnAs:
    """One way a pile card's own track was boxed while it lay on top: the box, when it
    was first so boxed, and how often the track switched to or from it."""

    box: tuple[float, float, float, float]
    first_t: float
    switches: int = 0


@dataclass
class PileEntry:
    """One play on the discard pile: its cards (bottom first) and where they rest."""

    cards: list[str]
    spots: list[tuple[float, float]]
    t: float
    ids: list[int] = field(default_factory=list)  # the tracks of its cards
    refused: bool = False  # the tracker refused it: its retraction is no undo
    left: bool = False  # one of its cards was seen carried off the pile
    lifted: bool = False  # its lift was seen (WatcherState.lifts holds it)
    player: str | None = None  # who played it, as reported
    # New ink beside it when it was played, by colour (None: the picture could not tell).
    inks: dict[str, float] | None = None
    # How big its top card looked as it came to rest (``tracks.apparent_scale``): a card
    # held above the pile looks bigger than this.
    scale: float | None = None
    # Where its cards' boxes lay (by face), as they came to rest.
    boxes: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    # The ways its top card's own track was boxed while it lay on top, read as its face
    # (LandingRules.settle): the detector may box a pile card in two ways by turns (part
    # of the card under it, say), at rest in neither; and which was last (an index into
    # it; None: none yet).
    drawn_as: list[DrawnAs] = field(default_factory=list)
    drawn_last: int | None = None
    # When its top card's own track was last seen (LandingRules.settle; None: not yet).
    top_last_seen: float | None = None
    # When it was seen taken back (None: it was not).
    taken_back_t: float | None = None
    # When the pile last changed before it came: its new ink is looked for since then.
    since: float = -math.inf

    @property
    def top(self) -> str:
        return self.cards[-1]


class WatcherState:
    """What the rules share and read: the configuration, the players, the card tracker
    (and so the layout and the tracks), the picture probes, and the discard pile as
    the watcher believes it. Made by :class:`vision.watcher.Watcher`, handed to each
    rule object (:mod:`vision.watch`); its helpers answer questions about the pile.
    """

    def __init__(
        self,
        layout: TableLayout,
        players: list[str],
        config: WatcherConfig,
        pile_colors: PileColorProbe | None = None,
    ) -> None:
        self.cfg = config
        #: Detections in, tracks with ids out; the rules read its tracks.
        self.tracker = CardTracker(layout, config)
        #: The discard zone as calibrated; the tracker's layout holds it grown with the
        #: pile (:meth:`grow_pile_zone`).
        self.calibrated_discard = layout.discard
        self.players = list(players)
        #: Sees the colours of a fan's lower cards in the picture (optional).
        self.pile_colors = pile_colors
        #: Arms reaching in from the table's edge (optional): when a card's own way in
        #: says nothing (a hand covered it until it lay on the pile), the arm that
        #: brought it does. Whoever has the frames feeds it
        #: (:class:`vision.pipeline.TablePipeline` lends its :class:`vision.hands.ArmWatch`).
        self.arms: ArmProbe | None = None
        #: The plays on the discard pile, bottom first.
        self.pile: list[PileEntry] = []
        #: The cards lying on the discard pile when it was last emptied (a new round,
        #: or a starter the rules send back into the deck that the dealer left lying
        #: there): each face and its box. Seen again where it lay, none is a play.
        self.set_aside: list[tuple[str, tuple[float, float, float, float]]] = []
        #: The seat whose arm (or card's way in) turned up the round's first card, if
        #: known: the dealer, whose arm alone may come from the draw pile before then.
        self.dealer: int | None = None
        #: The faces seen lately (with their track; weak ones, untracked, too): the
        #: lower cards of a fan show little.
        self.looks: deque[tuple[float, list[tuple[Detection, Track | None]]]] = deque()
        self.last_t = -math.inf
        self.top_seen_t = -math.inf
        #: When the top card was last hidden a while and seen again: (last seen before,
        #: seen again), since it was played (a hand over it; :meth:`top_seen`).
        self.top_hidden: tuple[float, float] | None = None
        self.below_since: float | None = None
        self.below_seen_t = -math.inf
        self.play_is_last = False  # the watcher's last event is a play it may amend
        self.pile_changed_t = -math.inf  # when a play or a retraction last changed the pile
        # Backs carried from a seat onto the discard pile, kept a while after they are
        # lost: to the detector a wild's black face may look like a card's back.
        self.backs_landed: deque[Track] = deque(maxlen=config.remembered)
        self.lost_arrivals: deque[Track] = deque(maxlen=config.remembered)
        #: Top cards seen lifted off the pile: (last seen lying there, first seen carried
        #: off), as :class:`vision.watch.takebacks.TakeBackRules` saw them.
        self.lifts: deque[tuple[float, float]] = deque(maxlen=config.remembered)
        #: Times at which a refused play was taken back (no ``undo`` is emitted for it).
        self.quiet_takebacks: list[float] = []
        #: The plays lately taken back, last last (their tracks may still be seen carried
        #: off the pile after the take-back).
        self.taken_back: deque[PileEntry] = deque(maxlen=config.remembered)

    def top_seen(self, t: float, *, played: bool = False) -> None:
        """The top card seen at ``t`` (``played``: a new top, played or uncovered by a
        take-back, seen as it came). Seen again after ``hidden_gap_s`` unseen, that
        span is kept (:attr:`top_hidden`)."""
        if played:
            self.top_hidden = None
        elif t - self.top_seen_t >= self.cfg.hidden_gap_s:
            self.top_hidden = (self.top_seen_t, t)
        self.top_seen_t = t

    @property
    def layout(self) -> TableLayout:
        return self.tracker.layout

    @layout.setter
    def layout(self, layout: TableLayout) -> None:
        self.tracker.layout = layout
        self.calibrated_discard = layout.discard

    @property
    def calibrated_layout(self) -> TableLayout:
        """The layout as calibrated: the discard zone before the pile outgrew it
        (:meth:`grow_pile_zone`). The picture helpers keep to it: a grown zone is the
        same table, and their pictures of it still hold."""
        if self.layout.discard == self.calibrated_discard:
            return self.layout
        return replace(self.layout, discard=self.calibrated_discard)

    def grow_pile_zone(self, spots: list[tuple[float, float]], card: float) -> None:
        """Cards played resting at ``spots`` lie on the pile: where a spot lies beyond the
        discard zone, the zone grows to take it in, and as far again as a box lying
        still wanders (``lying_still``), no farther than ``far_rest_margin`` beyond the
        zone as calibrated, so that a card first seen there later is first
        seen on the pile, and one of that play is carried off only beyond it.

        An untidy pile outgrows the zone a calibration drew: a card put down short of
        the pile, beside it, is a play all the same (``fast-messy-24fps`` and six more
        styles, held-out 693, opened: Ann's yellow 3, 0.4 card lengths below the zone).

        >>> from vision.watcher_config import WatcherConfig
        >>> st = WatcherState(TableLayout.default(640, 480, 3), [], WatcherConfig())
        >>> z = st.layout.discard
        >>> st.grow_pile_zone([(z.center[0], z.y2 + 10.0)], st.layout.card_px)
        >>> round(st.layout.discard.y2 - z.y2, 1), st.layout.discard.y1 == z.y1
        (15.0, True)
        >>> st.grow_pile_zone([z.center], st.layout.card_px)  # within: no change
        >>> round(st.layout.discard.y2 - z.y2, 1)
        15.0
        >>> st.grow_pile_zone([(z.center[0], z.y2 + 500.0)], st.layout.card_px)
        >>> round((st.layout.discard.y2 - z.y2) / st.layout.card_px, 2)
        0.5
        >>> st.layout = st.layout  # set from outside: calibrated anew
        >>> st.calibrated_discard == st.layout.discard
        True
        """
        cal, zone = self.calibrated_discard, self.layout.discard
        reach = self.cfg.far_rest_margin * card
        wander = self.cfg.lying_still * card
        x1, y1, x2, y2 = zone.x1, zone.y1, zone.x2, zone.y2
        for x, y in spots:
            x1 = max(min(x1, x - wander), cal.x1 - reach)
            y1 = max(min(y1, y - wander), cal.y1 - reach)
            x2 = min(max(x2, x + wander), cal.x2 + reach)
            y2 = min(max(y2, y + wander), cal.y2 + reach)
        grown = Zone(x1, y1, x2, y2)
        if grown != zone:
            self.tracker.layout = replace(self.layout, discard=grown)

    def ungrow_pile_zone(self) -> None:
        """The pile emptied (a new round): the discard zone as calibrated again."""
        if self.layout.discard != self.calibrated_discard:
            self.tracker.layout = self.calibrated_layout

    @property
    def tracks(self) -> list[Track]:
        return self.tracker.tracks

    @tracks.setter
    def tracks(self, tracks: list[Track]) -> None:
        self.tracker.tracks = tracks

    def came_in(self, tr: Track, card: float) -> bool:
        """Was ``tr`` seen coming from outside the pile: first seen farther out than
        ``came_in_margin`` beyond the pile's zone, or seen outside it and travelling
        (``arrived_travel``)?

        An untidy pile outgrows its zone: a pile card at its edge, boxed in part as a
        hand uncovers it, may be first seen just outside it, a card it never left
        (``covering-untidy-25fps`` seed 601, trained recogniser: a blue 5 lying at the
        pile's edge, boxed as its lower half as Dee's hand went, was played again).
        """
        if not tr.was_outside_discard:
            return False
        margin = self.cfg.came_in_margin * card
        return (
            not self.layout.discard.contains(*tr.first_xy, margin=margin)
            or tr.max_travel >= self.cfg.arrived_travel * card
        )

    def copies_on_pile(self, name: str) -> int:
        """How many cards with face ``name`` the last ``pile_depth`` plays on the pile
        hold (those the tracker refused aside). The watcher does not see a reshuffle
        (the pile's cards turned into a new draw pile in a long round): it counts the
        plays the pile is looked into for, as :meth:`near_pile_card` does."""
        return sum(e.cards.count(name) for e in self.pile[-self.cfg.pile_depth :] if not e.refused)

    def near_pile_card(
        self, tr: Track, card: float, reach: float | None = None
    ) -> PileEntry | None:
        """The pile entry whose card with this face rests where ``tr`` is, if any.

        ``reach`` (in card lengths) is how far from its resting place the card may be
        seen: a card mostly buried under others shows only a corner, whose box
        centre lies well off the card's own.
        """
        name = tr.name
        lim = (self.cfg.same_spot if reach is None else reach) * card
        return next((e for c, e in self.pile_cards_near(tr.xy, lim) if c == name), None)

    def pile_cards_near(
        self, xy: tuple[float, float], lim: float
    ) -> Iterator[tuple[str, PileEntry]]:
        """The faces (and their plays) of the pile cards resting within ``lim`` of
        ``xy``, among the last ``pile_depth`` plays, newest first."""
        for c, _spot, entry in self.pile_spots_near(xy, lim):
            yield c, entry

    def pile_spots_near(
        self, xy: tuple[float, float], lim: float
    ) -> Iterator[tuple[str, tuple[float, float], PileEntry]]:
        """:meth:`pile_cards_near` with where each card rests."""
        x, y = xy
        for entry in reversed(self.pile[-self.cfg.pile_depth :]):
            for c, (sx, sy) in zip(entry.cards, entry.spots, strict=True):
                if math.hypot(x - sx, y - sy) <= lim:
                    yield c, (sx, sy), entry

    def was_set_aside(self, box: tuple[float, float, float, float]) -> bool:
        """Does a card lying with box ``box`` lie where a card set aside as the pile was
        emptied (:attr:`set_aside`) lay and as it lay (the boxes overlapping by
        ``same_box_overlap`` or more)?

        Whatever it reads as: a card put down is not put square on one lying there
        since before the round's first card, and the set-aside card, uncovered by a
        hand, may read as another face (``covering-high-scattered-27fps`` held-out
        713, opened: the Wild Draw Four starter, under Bob's fan, read as a red Draw
        Two as Cy's hand left it, played as his red 3 and hiding Dee's two red Draw
        Twos)."""
        return any(
            box_overlap(box, was) >= self.cfg.same_box_overlap for _name, was in self.set_aside
        )

    def own_tracks(self, play: PileEntry) -> list[Track]:
        """The tracks of ``play``'s top card read as its face: its own track, and those
        the tracker gave its boxes since (in the tracker's order)."""
        return [tr for tr in self.tracks if tr.id in play.ids and tr.name == play.top]

    def seen_surely(self, tr: Track, clear: float) -> bool:
        """Was ``tr``'s face seen once with confidence ``clear``, or read a good many
        times at middling confidence (some faces, a wild's black one above all, are
        never read surely in flight)?"""
        sure = max(c for _, c in tr.votes)
        return sure >= clear or (
            len(tr.sightings) >= self.cfg.sure_looks and sure >= self.cfg.clear_look
        )

    def seen(self, tr: Track, t: float) -> float:
        """How well a card was seen lately: its mean confidence over the last second.

        A card covered by another gets a lower confidence.
        """
        recent = [s for s in tr.sightings if t - s.t <= self.cfg.seen_window_s]
        conf = [c for _, c in list(tr.votes)[-len(recent) :]] if recent else [0.0]
        return sum(conf) / len(conf)

    def pile_face_at(self, face: str, xy: tuple[float, float], card: float) -> bool:
        """Is ``face`` a card near the top of the pile, or one lying near ``xy``?

        The last few plays lie in a heap whose boxes wander: their faces are no new
        card anywhere on it.
        """
        if any(face in entry.cards for entry in self.pile[-self.cfg.recent_plays :]):
            return True
        return self.pile_card_at(face, xy, card)

    def pile_card_at(
        self, face: str, xy: tuple[float, float], card: float, besides: PileEntry | None = None
    ) -> bool:
        """Does a pile card of ``face`` lie within ``pile_reach`` of ``xy`` (one of a
        play other than ``besides``)?"""
        near = self.pile_cards_near(xy, self.cfg.pile_reach * card)
        return any(c == face and entry is not besides for c, entry in near)

    def once_read_as_pile_card(self, tr: Track, card: float) -> bool:
        """Did this track ever read as the face of a pile card lying where it is?

        Its reading drifted (a pile card boxed with the heap), it was not replaced: a
        card put there would have come with a hand, and been seen arriving.
        """
        faces = tr.faces - {tr.name, BACK}
        return any(c in faces for c, _ in self.pile_cards_near(tr.xy, self.cfg.pile_reach * card))

    def before_it_came(self, t: float) -> float:
        """The latest time a still picture can be from without showing a play made
        now: a card resting here lies still for ``rest_s`` before it is played, or
        ``quiet_play_rest_s`` when it was not seen coming."""
        return t - self.cfg.quiet_play_rest_s - self.cfg.rest_s

    def middle_changed(self, xy: tuple[float, float], card: float, before: float) -> float | None:
        """How much of the picture changed within ``ink_middle`` of a card lying at
        ``xy`` (card faces) since the pile last lay still before ``before`` (or when the
        last play came); None without a pile-colour probe or a picture to tell from.

        A card put on one of its own colour brings little new ink (its colour falls
        where the old card's was), but its oval and figure change the picture. Only
        the card can touch its middle: hands are not left out.
        """
        if self.pile_colors is None:
            return None
        return self.pile_colors.changed_area(
            xy,
            self.cfg.ink_middle * card,
            since=self.pile_changed_t,
            before=before,
            else_at_since=True,
            hands=False,
        )

    @staticmethod
    def play_event(entry: PileEntry) -> dict[str, object]:
        ev: dict[str, object] = {"type": "play"}
        if len(entry.cards) == 1:
            ev["card"] = entry.cards[0]
        else:
            ev["cards"] = list(entry.cards)
        if entry.player is not None:
            ev["player"] = entry.player
        return ev
