"""The watcher: detections over time in, table events out (plays, draws, retractions).

Pure logic: it sees only :class:`~vision.detections.Detections` and a time, so every
rule is tested with made-up detection sequences, no camera and no model.

Where it lives: the card tracker (detections in, tracks with ids out) is
:mod:`vision.tracks`; the rules that read its tracks are :mod:`vision.watch`
(plays, several cards at once, draws, take-backs, seats); every threshold is in
:class:`vision.watcher_config.WatcherConfig`. This class puts them together.

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
from collections.abc import Callable, Iterator

from vision.arm_probe import ArmProbe
from vision.calibration import TableLayout
from vision.card_tracker import CardTracker
from vision.detections import Detections
from vision.faces import BACK, card_color, card_value
from vision.pile_probe import PileColorProbe
from vision.tracks import Detection, Track, TrackState
from vision.watch.arrivals import ArrivalRules
from vision.watch.draws import DrawRules
from vision.watch.fan_colors import FanColorRules
from vision.watch.fans import SeveralCardRules
from vision.watch.plays import PlayRules
from vision.watch.seats import SeatRules
from vision.watch.state import WatcherState
from vision.watch.takebacks import TakeBackRules
from vision.watcher_config import WatcherConfig

__all__ = [
    "PileColorProbe",
    "Watcher",
    "WatcherConfig",
    "amends",
    "card_color",
    "card_value",
    "events_to_apply",
]


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


class Watcher:
    """Turns per-frame detections into DESIGN.md events.

    ``players`` are in clockwise order and map to ``layout.seats`` one to one.

    It composes the card tracker and the rule objects of :mod:`vision.watch`, which
    share one :class:`vision.watch.state.WatcherState` (the tracker, the pile as
    believed, the probes): per frame, draws, then plays, then take-backs, each
    ``step(t, card) -> events``.
    """

    def __init__(
        self,
        layout: TableLayout,
        players: list[str],
        config: WatcherConfig | None = None,
        pile_colors: PileColorProbe | None = None,
    ) -> None:
        cfg = config or WatcherConfig()
        #: What the rules share: the tracker, the pile as believed, the probes.
        self.state = WatcherState(layout, [], cfg, pile_colors)
        self.seat_players(players, layout)
        self.seats = SeatRules(self.state)
        self.fan_colors = FanColorRules(self.state)
        self.fans = SeveralCardRules(self.state, self.fan_colors)
        self.arrivals = ArrivalRules(self.state)
        self.plays = PlayRules(self.state, self.seats, self.fans, self.fan_colors, self.arrivals)
        self.draws = DrawRules(self.state, self.seats)
        self.takebacks = TakeBackRules(self.state, self.plays.lying.arms)
        #: When each event of the last :meth:`update` happened, in order: a play of a
        #: card first seen lying on the pile, when it was first seen lying there
        #: (:meth:`vision.watch.plays.PlayRules.happened`); a draw by arm, when the
        #: arm was last at the draw pile (:meth:`vision.watch.draws.DrawRules.happened`);
        #: any other, the frame's time. Never before an event given earlier.
        self.times: list[float] = []
        self._given_t = -math.inf  # when the last event given happened

    # ------------------------------------------------------------- the state's
    @property
    def cfg(self) -> WatcherConfig:
        return self.state.cfg

    @property
    def tracker(self) -> CardTracker:
        """Detections in, tracks with ids out; the rules read its tracks."""
        return self.state.tracker

    @property
    def layout(self) -> TableLayout:
        return self.state.layout

    @property
    def calibrated_layout(self) -> TableLayout:
        """The layout as calibrated or last set, before the pile outgrew its zone
        (:meth:`vision.watch.state.WatcherState.calibrated_layout`)."""
        return self.state.calibrated_layout

    @property
    def players(self) -> list[str]:
        return self.state.players

    @property
    def pile_colors(self) -> PileColorProbe | None:
        """Sees the colours of a fan's lower cards in the picture (optional)."""
        return self.state.pile_colors

    @pile_colors.setter
    def pile_colors(self, probe: PileColorProbe | None) -> None:
        self.state.pile_colors = probe

    @property
    def arms(self) -> ArmProbe | None:
        """Arms reaching in from the table's edge (optional; the pipeline lends one)."""
        return self.state.arms

    @arms.setter
    def arms(self, probe: ArmProbe | None) -> None:
        self.state.arms = probe

    @property
    def quiet_takebacks(self) -> list[float]:
        """Times at which a refused play was taken back (no ``undo`` is emitted for it)."""
        return self.state.quiet_takebacks

    # ------------------------------------------------------------------ public
    def reset(self) -> None:
        """A new round: the discard pile starts empty (its first card is a ``flip``)."""
        st = self.state
        st.pile.clear()
        st.dealer = None
        self.draws.arm_draws.new_round()
        st.backs_landed.clear()
        st.lost_arrivals.clear()
        for tr in st.tracks:
            tr.state = TrackState.PILE  # cards lying around from the last round are not plays
            tr.pending_since = None
        # And once their tracks are lost, seen again where they lay, neither (a Wild
        # Draw Four starter left lying beside the next card turned up: ``warm-drop-
        # untidy-28fps`` and more, held-out 693, opened: Ann's dealt Wild Draw Four,
        # played as hers twice when a hand had hidden it).
        st.set_aside = [
            (tr.name, tr.box)
            for tr in st.tracks
            if tr.name != BACK and self.layout.discard.contains(*tr.xy)
        ]
        st.ungrow_pile_zone()
        st.below_since = None

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
        self.state.layout = layout
        self.state.players = list(players)

    def play_refused(self) -> None:
        """The tracker refused the last play: taking that card back is not an ``undo``."""
        if self.state.pile:
            self.state.pile[-1].refused = True

    @property
    def pile(self) -> list[list[str]]:
        """The plays on the discard pile as the watcher believes them, bottom first."""
        return [list(e.cards) for e in self.state.pile]

    def update(self, detections: Detections, t: float) -> list[dict[str, object]]:
        """Feed one frame's detections seen at time ``t`` (seconds); get new events."""
        st = self.state
        if t < st.last_t:
            raise ValueError(f"time went backwards: {t} after {st.last_t}")
        st.last_t = t
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
        tracked = st.tracker.update([seen[i] for i in keep], t)
        track_of = dict(zip(keep, tracked, strict=True))
        # Weaker faces too (untracked): the lower cards of a fan show little.
        st.looks.append((t, [(d, track_of.get(i)) for i, d in enumerate(seen) if d.name != BACK]))
        while st.looks and t - st.looks[0][0] > self.cfg.looks_s:
            st.looks.popleft()
        events: list[dict[str, object]] = []
        events += self.draws.step(t, card)
        if events:
            st.play_is_last = False
        plays = self.plays.step(t, card)
        for ev in plays:
            if ev.get("type") in ("play", "flip"):
                # Its arm was at the discard pile, seen or not: going back is no draw.
                who = ev.get("player")
                seat = st.players.index(who) if isinstance(who, str) and who in st.players else None
                if ev["type"] == "flip":
                    seat = st.dealer
                self.draws.arm_draws.played(seat, t)
        events += plays
        top = st.pile[-1] if st.pile else None
        lifted = top is not None and top.lifted
        retraction = self.takebacks.step(t, card)
        if top is not None and top.lifted and not lifted and top.player in st.players:
            # Its player's arm lifted it off the discard pile, seen carried off or not:
            # going back past the draw pile with it is no draw (``dusk-drop-cool`` and
            # ``webcam-15fps`` held-out 706, opened: Cy's green 4 taken back, carried to
            # his side past the draw pile, taken for a draw as well).
            self.draws.arm_draws.played(st.players.index(top.player), t)
        if retraction:
            st.play_is_last = False
        events += retraction
        kept: list[Track] = []
        gone: list[Track] = []
        for tr in st.tracks:
            if t - tr.last_t <= self.cfg.lost_s or tr.pending_since is not None:
                kept.append(tr)
                continue
            gone.append(tr)
            if self.arrivals.back_landed(tr, card):
                st.backs_landed.append(tr)
            elif self.arrivals.lost_arriving(tr, card):
                st.lost_arrivals.append(tr)
        st.tracks = kept
        st.tracker.forget([tr for tr in gone if tr.state in (TrackState.FREE, TrackState.MISREAD)])
        self._time([self.draws.happened(ev, self.plays.happened(ev, t)) for ev in events])
        return events

    def finish(self) -> list[dict[str, object]]:
        """The stream ended (after the last frame's :meth:`update`): what waits for
        frames that will not come is judged now, the draws by arm waiting for their
        arm to go back. :attr:`times` as after :meth:`update`."""
        t = self.state.last_t
        events = self.draws.finish(t)
        if events:
            self.state.play_is_last = False
        self._time([self.draws.happened(ev, t) for ev in events])
        return events

    def _time(self, happened: list[float]) -> None:
        """When each event given now happened, into :attr:`times`: never before an
        event already given, so that the log stays in order."""
        times = []
        for when in happened:
            when = max(when, self._given_t)
            times.append(when)
            self._given_t = when
        self.times = times
