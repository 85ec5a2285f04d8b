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
from vision.tracks import CardTracker, Detection, Track
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
