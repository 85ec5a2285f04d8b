"""What the watcher's rule modules share: the configuration, the table, the card
tracker and its tracks, the discard pile as the watcher believes it (one
:class:`PileEntry` per play), and the faces seen lately."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from vision.calibration import TableLayout
from vision.pile_probe import PileColorProbe
from vision.tracks import BACK, CardTracker, Detection, Track
from vision.watch.arm_draws import ArmDrawRules, CardDraw
from vision.watcher_config import WatcherConfig


@dataclass
class PileEntry:
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


class WatcherState:
    """The state the rules read and change (set up by :class:`vision.watcher.Watcher`)."""

    cfg: WatcherConfig
    #: Detections in, tracks with ids out.
    tracker: CardTracker
    players: list[str]
    #: Sees the colours of a fan's lower cards in the picture (optional).
    pile_colors: PileColorProbe | None
    #: The plays on the discard pile, bottom first.
    _pile: list[PileEntry]
    #: The faces seen lately (with their track; weak ones, untracked, too).
    _looks: deque[tuple[float, list[tuple[Detection, Track | None]]]]
    _last_t: float
    _top_seen_t: float
    _below_since: float | None
    _below_seen_t: float
    _play_is_last: bool
    _pile_changed_t: float
    _backs_landed: deque[Track]
    _lost_arrivals: deque[Track]
    quiet_takebacks: list[float]
    #: Draws from arms (a hand hid the card), and the card rules' draws lately.
    _arm_draws: ArmDrawRules
    _card_draws: deque[CardDraw]

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

    def _near_pile_card(
        self, tr: Track, card: float, reach: float | None = None
    ) -> PileEntry | None:
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
    ) -> Iterator[tuple[str, PileEntry]]:
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

    def _seen(self, tr: Track, t: float) -> float:
        """How well a card was seen lately: its mean confidence over the last second.

        A card covered by another gets a lower confidence.
        """
        recent = [s for s in tr.sightings if t - s.t <= self.cfg.seen_window_s]
        conf = [c for _, c in list(tr.votes)[-len(recent) :]] if recent else [0.0]
        return sum(conf) / len(conf)

    def _pile_face_at(self, face: str, xy: tuple[float, float], card: float) -> bool:
        """Is ``face`` a card near the top of the pile, or one lying near ``xy``?

        The last few plays lie in a heap whose boxes wander: their faces are no new
        card anywhere on it.
        """
        if any(face in entry.cards for entry in self._pile[-self.cfg.recent_plays :]):
            return True
        return any(c == face for c, _ in self._pile_cards_near(xy, self.cfg.pile_reach * card))

    def _once_read_as_pile_card(self, tr: Track, card: float) -> bool:
        """Did this track ever read as the face of a pile card lying where it is?

        Its reading drifted (a pile card boxed with the heap), it was not replaced: a
        card put there would have come with a hand, and been seen arriving.
        """
        faces = tr.faces - {tr.name, BACK}
        return any(c in faces for c, _ in self._pile_cards_near(tr.xy, self.cfg.pile_reach * card))

    def _before_it_came(self, t: float) -> float:
        """The latest time a still picture can be from without showing a play made
        now: a card resting here lies still for ``rest_s`` before it is played, or
        ``quiet_play_rest_s`` when it was not seen coming."""
        return t - self.cfg.quiet_play_rest_s - self.cfg.rest_s

    @staticmethod
    def _play_event(entry: PileEntry) -> dict[str, object]:
        ev: dict[str, object] = {"type": "play"}
        if len(entry.cards) == 1:
            ev["card"] = entry.cards[0]
        else:
            ev["cards"] = list(entry.cards)
        if entry.player is not None:
            ev["player"] = entry.player
        return ev
