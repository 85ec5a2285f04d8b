"""One table session, for the live server and for replays: frames in, verdicts back.

A :class:`TableSession` is where vision meets the rules (the composition root, used by
:mod:`uno_table.live` and :mod:`uno_table.replay` alike). Per frame, :meth:`step`

1. tells a recogniser that reads per-frame truth (the oracle) which frame it is;
2. sends the scripted referee's rulings that are due (a recorded game only);
3. runs the pipeline (recogniser, then watcher) on the frame;
4. sends the watcher's events, in order, less an ``undo`` that would take back a
   ruling sent since the play (:func:`vision.watcher.events_to_apply`); the colour a
   scripted referee named is added to the play of a wild;
5. gives the watcher the tracker's answer (:meth:`feedback`): a refused play or flip
   is no card on the pile (its going back is no ``undo``), and a flip the tracker
   took without a top card (a Wild Draw Four starter goes back into the deck) starts
   the watcher's pile again;
6. applies the rounds it was told of (:meth:`notify`): a new round empties the pile,
   and a round with other players re-seats the table;
7. hands the caller's ``observe`` the card the recogniser sees on top of the discard
   pile (:func:`pile_top`), the evidence :meth:`tracker.heal.Healer.observe_top`
   heals a missed play from (docs/healing.md).

Where the events go is the caller's :data:`Submit`: the game service and its store
(live), or a :class:`tracker.Game` and a list of records (replay). Verdicts come back
as :class:`TableVerdict` values, whichever it is.

The layout: a saved one (fitted to the frame's size), or else the one
:meth:`vision.calibration.TableLayout.propose` sees on the first frame (the piles
where the cards are, seats spread evenly from the bottom edge), see
:func:`choose_layout`.

>>> v = TableVerdict.from_json({"ok": True, "alerts": [], "state": {"top": None, "turn": "Ann"}})
>>> v.ok, v.top, v.turn
(True, None, 'Ann')
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from vision.calibration import TableLayout
    from vision.pipeline import PipelineResult, TablePipeline
    from vision.watcher import Watcher
    from vision.watcher_config import WatcherConfig

Event = dict[str, Any]

#: The source the camera's events are sent with, and the scripted referee's.
VISION = "vision"
REFEREE = "referee"
#: The source of the events the healer inferred (tracker.heal).
INFERRED = "inferred"


@dataclass(frozen=True)
class TableVerdict:
    """The tracker's answer to one event, as the session needs it (DESIGN.md verdict).

    ``json`` is the whole verdict object; ``top`` and ``turn`` come from its state.
    """

    ok: bool
    top: str | None = None
    turn: str | None = None
    json: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, verdict: Mapping[str, Any]) -> TableVerdict:
        """A verdict object as the game service or :meth:`tracker.Verdict.to_json` gives."""
        state = verdict.get("state") or {}
        top, turn = state.get("top"), state.get("turn")
        return cls(
            ok=bool(verdict.get("ok")),
            top=None if top is None else str(top),
            turn=turn if isinstance(turn, str) else None,
            json=verdict,
        )


@dataclass(frozen=True)
class Moment:
    """The frame being processed: its video time, index, and (in real time) the moment
    its events came out on the video clock. An event that happened before its frame
    (a card first seen lying on the pile) gets a moment of its own: when it happened,
    the frame's index, and the frame's time (or that real moment) as when it came out."""

    t: float
    index: int
    t_emit: float | None = None


class NoteKind(Enum):
    """What the session saw but sent nowhere."""

    #: A play the tracker refused was taken back: seen, nothing to undo.
    QUIET_UNDO = "quiet-undo"
    #: A take-back seen after a ruling: an ``undo`` would take back the ruling, so the
    #: referee decides.
    HELD_BACK = "held-back"
    #: The tracker took a round with players the table cannot seat: the seats stay.
    SEATS_KEPT = "seats-kept"


@dataclass(frozen=True)
class Note:
    kind: NoteKind
    event: Event
    moment: Moment
    message: str = ""


#: ``(event, source, moment) -> verdict``; ``None`` when the event could not be sent
#: (the caller says why in its own status).
Submit = Callable[[Event, str, Moment], "TableVerdict | None"]
#: ``(top card or None, moment) -> verdict`` of what the camera's view of the pile
#: healed, or None (nothing done): the healer's ``observe_top``, wherever it lives.
Observe = Callable[["str | None", Moment], "TableVerdict | None"]


def pile_top(
    detections: Any,
    layout: TableLayout,
    record_top: str | None = None,
    under: Collection[str] = (),
) -> str | None:
    """The card the recogniser sees on top of the discard pile: the most confident
    face (not ``back``) whose centre is inside ``layout.discard``; None when none is
    (nothing there, or a hand over the pile).

    ``record_top`` (the record's top card) and ``under`` (the cards the record laid
    before it): where the most confident face is one of ``under`` and a face of
    ``record_top`` is seen too, the answer is ``record_top``. An untidy pile shows the
    cards under the top one, often read surer than it (a Wild Draw Four's black face
    on a heap), and a card under the record's top seen steadily reads as the top
    taken back (``quick-untidy-26fps`` seed 654, plays of three, trained recogniser:
    Bob's Wild Draw Four undone by the healer, then nine alerts). So is one laid deep
    down: the session gives every card the record laid this round (a messy pile shows
    its starter whole, read surer than the top, seven plays on: ``messy-pile``
    held-out 668, opened, Eve's pair inferred from it and her real play then refused,
    two alerts). A face the record never laid is still the answer: a play the camera
    missed.

    >>> from vision.calibration import TableLayout
    >>> from vision.detections import Detections
    >>> layout = TableLayout.default(640, 480, 2)
    >>> cx, cy = layout.discard.center
    >>> dets = Detections.from_list([("red-5", 0.6, (cx - 20, cy - 30, cx + 20, cy + 30)),
    ...                              ("blue-2", 0.9, (cx - 18, cy - 28, cx + 22, cy + 32)),
    ...                              ("green-1", 0.99, (0, 0, 20, 30))])
    >>> pile_top(dets, layout), pile_top(Detections.empty(), layout)
    ('blue-2', None)
    >>> pile_top(dets, layout, "red-5", under=["blue-2"]), pile_top(dets, layout, "red-5")
    ('red-5', 'blue-2')
    """
    best: tuple[float, str] | None = None
    record_seen = False
    for det in detections:
        if det.card == "back":
            continue
        x1, y1, x2, y2 = det.box
        if not layout.discard.contains((x1 + x2) / 2, (y1 + y2) / 2):
            continue
        record_seen = record_seen or det.card == record_top
        if best is None or det.confidence > best[0]:
            best = (float(det.confidence), str(det.card))
    if best is not None and record_seen and best[1] in under:
        return record_top
    return None if best is None else best[1]


class ScriptedReferee:
    """The referee's rulings from a timed event log, for a recorded game (the demo,
    ``replay --referee-from-truth``).

    A camera cannot see a named color, a pass, an UNO call, a catch or a challenge; at
    a real table the referee taps them in. For a video whose true log is known, this
    plays those rulings at their time (plus a referee's reaction time) and adds the
    named color to the camera's play of a wild.

    >>> ref = ScriptedReferee([{"t": 1.0, "type": "pass", "player": "Ann"},
    ...                        {"t": 2.0, "type": "play", "card": "wild", "color": "red"}])
    >>> ref.due(1.0), ref.due(1.5)
    ([], [{'type': 'pass', 'player': 'Ann'}])
    >>> ref.with_color({"type": "play", "card": "wild", "player": "Bob"}, 2.4)["color"]
    'red'
    """

    RULINGS = frozenset({"color", "pass", "uno", "catch", "challenge"})
    DELAY_S = 0.3  # a referee taps a moment after it happens
    WINDOW_S = (-0.3, 1.0)  # where the camera's play may fall around the true one

    def __init__(self, log: list[Event]) -> None:
        timed = [e for e in log if isinstance(e.get("t"), int | float)]
        self.rulings = sorted(
            (e for e in timed if e.get("type") in self.RULINGS), key=lambda e: float(e["t"])
        )
        self.named = [e for e in timed if e.get("type") == "play" and e.get("color")]

    def due(self, t: float) -> list[Event]:
        """Rulings whose time has come by video time ``t``, without their ``t``."""
        out = []
        while self.rulings and float(self.rulings[0]["t"]) + self.DELAY_S <= t:
            out.append({k: v for k, v in self.rulings.pop(0).items() if k != "t"})
        return out

    def with_color(self, event: Event, t: float) -> Event:
        """The camera's play, with the color the referee named for it, if any."""
        if event.get("type") != "play" or "color" in event:
            return event
        cards = sorted(str(c) for c in event.get("cards") or [event.get("card")])
        lo, hi = self.WINDOW_S
        for e in self.named:
            true_cards = sorted(str(c) for c in e.get("cards") or [e.get("card")])
            if true_cards == cards and lo <= t - float(e["t"]) <= hi:
                self.named.remove(e)
                return {**event, "color": e["color"]}
        return event


def choose_layout(
    image: npt.NDArray[np.uint8],
    n_players: int,
    saved: TableLayout | None = None,
    detections: Any = None,
) -> TableLayout:
    """The layout for a table seen in ``image``: ``saved`` fitted to the frame's size,
    or else the one :meth:`TableLayout.propose` sees (with the recogniser's
    ``detections`` of the frame, when there are any, or OpenCV's card-sized blobs).

    The one fallback for live and replay: a proposal starts from
    :meth:`TableLayout.default` and only moves the piles to where it finds cards.
    """
    from vision.calibration import TableLayout

    h, w = image.shape[:2]
    if saved is not None:
        return saved if (saved.width, saved.height) == (w, h) else saved.scaled(w, h)
    return TableLayout.propose(image, n_players, detections)


class TableSession:
    """The pipeline, the watcher and the tracker's feedback for one table.

    ``submit`` sends an event (see :data:`Submit`); whoever applies it calls
    :meth:`notify` with the verdict (the game service's listener, live; the replay's
    game, in a replay), from any thread. ``layout`` is a saved layout, or ``None``:
    the first frame's (:func:`choose_layout`). ``on_note`` hears what was seen and not
    sent (:class:`NoteKind`). ``observe``, when given, hears the pile's top each frame
    (:data:`Observe`: the healer; its verdict is the caller's to publish).
    ``skip_static``, ``read_fan_colors`` and ``watch_arms`` are the
    :class:`vision.pipeline.TablePipeline`'s (arms: an
    :class:`vision.hands.ArmWatch` fed the frames and lent to the watcher, unless
    this is off or the config's ``arm_every`` is 0); ``config`` the watcher's thresholds (the
    table file's ``"watcher"`` settings, :meth:`vision.watcher_config.WatcherConfig.load`).
    """

    def __init__(
        self,
        players: list[str],
        recognizer: Any,
        submit: Submit,
        *,
        layout: TableLayout | None = None,
        referee: ScriptedReferee | None = None,
        skip_static: bool = False,
        read_fan_colors: bool = True,
        watch_arms: bool = True,
        config: WatcherConfig | None = None,
        on_note: Callable[[Note], None] | None = None,
        observe: Observe | None = None,
    ) -> None:
        self.players = list(players)
        self.observe = observe
        self.recognizer = recognizer
        self.submit = submit
        self.referee = referee
        self.skip_static = skip_static
        self.read_fan_colors = read_fan_colors
        self.watch_arms = watch_arms
        self.config = config
        self.on_note = on_note
        self.saved_layout = layout
        self.layout: TableLayout | None = None
        self.pipeline: TablePipeline | None = None
        self.moment = Moment(0.0, -1)
        # Which event the tracker took last, and from whom (set from any thread).
        self.last_applied: tuple[str, str] = ("", "")
        # The record's top card after the tracker's last answer, and the tops before it
        # (set from any thread): the pile's top where a card under it is read surer
        # (:func:`pile_top`).
        self.record_top: str | None = None
        #: The record's earlier tops this round: the cards under its top (:func:`pile_top`).
        self.record_under: list[str] = []
        self._rounds: queue.SimpleQueue[tuple[Event, TableVerdict]] = queue.SimpleQueue()

    @property
    def watcher(self) -> Watcher | None:
        return None if self.pipeline is None else self.pipeline.watcher

    @property
    def errors(self) -> int:
        """Frames the recogniser failed on."""
        return 0 if self.pipeline is None else self.pipeline.errors

    # -- per frame -------------------------------------------------------------------

    def start(self, image: npt.NDArray[np.uint8]) -> TablePipeline:
        """Choose the layout from the first frame and build the pipeline (done by the
        first :meth:`step`)."""
        from vision.pipeline import TablePipeline
        from vision.watcher import Watcher

        detections = None
        if self.saved_layout is None and not hasattr(self.recognizer, "seek"):
            # The oracle reads per-frame truth and has not been told the frame yet.
            try:
                detections = self.recognizer.detect(image)
            except Exception:  # a proposal without the recogniser's help will do
                detections = None
        self.layout = choose_layout(image, len(self.players), self.saved_layout, detections)
        watcher = Watcher(self.layout, self.players, self.config)
        self.pipeline = TablePipeline(
            self.recognizer,
            watcher,
            skip_static=self.skip_static,
            read_fan_colors=self.read_fan_colors,
            watch_arms=self.watch_arms,
        )
        return self.pipeline

    def step(
        self,
        image: npt.NDArray[np.uint8],
        t: float,
        index: int,
        clock: Callable[[], float] | None = None,
    ) -> PipelineResult:
        """One frame: rulings due, recognition, the watcher's events sent, feedback.

        ``clock`` (real time) gives the video time at which the events come out.
        """
        pipeline = self.pipeline or self.start(image)
        watcher = pipeline.watcher
        self.moment = Moment(t, index)
        seek = getattr(self.recognizer, "seek", None)
        if seek is not None:
            seek(index)
        for ruling in self.referee.due(t) if self.referee is not None else []:
            self.submit(ruling, REFEREE, self.moment)
        quiet = len(watcher.quiet_takebacks)
        result = pipeline.process(image, t)
        if clock is not None:
            self.moment = Moment(t, index, clock())
        if len(watcher.quiet_takebacks) > quiet:
            self._note(NoteKind.QUIET_UNDO, {"type": "undo"})
        self.send(result.events, result.times)
        self.apply_rounds()
        if self.observe is not None and self.layout is not None and result.error is None:
            # The pile's zone as the watcher has grown it (a pile outgrows its calibration).
            grown = watcher.layout
            top = pile_top(result.detections, grown, self.record_top, self.record_under)
            self.observe(top, self.moment)
        return result

    def finish(self) -> None:
        """The stream ended after the last :meth:`step` (a video played to its end):
        the watcher's events that waited for frames that will not come are sent."""
        if self.pipeline is None:
            return
        watcher = self.pipeline.watcher
        self.send(watcher.finish(), list(watcher.times))
        self.apply_rounds()

    def send(self, events: list[dict[str, object]], times: list[float] | None = None) -> None:
        """One frame's watcher events to the tracker, in order, with its feedback.

        ``times`` (:attr:`vision.watcher.Watcher.times`): when each happened; one that
        happened before the frame is submitted at that moment, with the frame's time
        (or the real moment it came out) as the moment it came out.
        """
        from vision.watcher import events_to_apply

        def held_back(event: dict[str, object]) -> None:
            self._note(NoteKind.HELD_BACK, dict(event))

        when = {id(e): t for e, t in zip(events, times or [], strict=False)}
        for raw in events_to_apply(events, self.own_play_last, held_back):
            event: Event = dict(raw)
            if self.referee is not None:
                event = self.referee.with_color(event, self.moment.t)
            moment = self.moment
            happened = when.get(id(raw), moment.t)
            if happened < moment.t:
                out = moment.t if moment.t_emit is None else moment.t_emit
                moment = Moment(happened, moment.index, out)
            verdict = self.submit(event, VISION, moment)
            if verdict is not None:
                self.feedback(event, verdict)

    def own_play_last(self) -> bool:
        """Whether the last event the tracker took is the camera's play (or flip)."""
        return self.last_applied in (("play", VISION), ("flip", VISION))

    def feedback(self, event: Event, verdict: TableVerdict) -> None:
        """Tell the watcher what the tracker made of its play or flip."""
        watcher = self.watcher
        kind = event.get("type")
        if watcher is None or kind not in ("play", "flip"):
            return
        if not verdict.ok:
            # No card of the camera's is on the tracker's pile: its going back is no undo.
            watcher.play_refused()
        elif kind == "flip" and verdict.top is None:
            # The starter went back into the deck (a Wild Draw Four): the pile is
            # empty again and the next card turned up is the flip.
            watcher.reset()

    def _note(self, kind: NoteKind, event: Event, message: str = "") -> None:
        if self.on_note is not None:
            self.on_note(Note(kind, event, self.moment, message))

    # -- what the tracker took (any thread) -------------------------------------------

    def notify(self, event: Event, verdict: TableVerdict, source: str) -> None:
        """Called after every event the tracker answered, whoever sent it."""
        if verdict.json.get("state") is not None and verdict.top != self.record_top:
            if self.record_top is not None:
                self.record_under.append(self.record_top)
            self.record_top = verdict.top
        if verdict.ok and event.get("type") == "round":
            self.record_under.clear()  # a new round: a new discard pile
        if verdict.ok:
            self.last_applied = (str(event.get("type")), source)
            if event.get("type") == "round":
                self._rounds.put((event, verdict))

    def use_layout(self, layout: TableLayout) -> None:
        """The referee moved the piles or the seats (the camera check): used from the
        next frame, fitted to the frame's size; the watcher and its card tracker read
        the new zones. Call in the frame's thread."""
        self.saved_layout = layout
        watcher = self.watcher
        if self.layout is None or watcher is None:
            return  # the pipeline starts with it
        size = (self.layout.width, self.layout.height)
        fitted = layout if (layout.width, layout.height) == size else layout.scaled(*size)
        watcher.seat_players(self.players, fitted)  # ValueError: not as many seats
        watcher.tracker.layout = fitted
        self.layout = fitted

    def apply_rounds(self) -> bool:
        """Apply the rounds the tracker took since the last frame (in the frame's
        thread): the pile starts again, and other players are seated. Returns whether
        the players changed. Kept until the pipeline has started."""
        watcher = self.watcher
        if watcher is None or self.layout is None:
            return False
        changed = False
        while True:
            try:
                event, _verdict = self._rounds.get_nowait()
            except queue.Empty:
                return changed
            watcher.reset()
            players = event.get("players")
            if isinstance(players, list) and players and players != self.players:
                names = [str(p) for p in players]
                try:
                    layout = self.layout.for_players(names)
                    watcher.seat_players(names, layout)
                except ValueError as exc:  # the tracker took it; the table cannot seat it
                    self._note(NoteKind.SEATS_KEPT, event, str(exc))
                    continue
                self.layout = layout
                self.players = names
                changed = True
