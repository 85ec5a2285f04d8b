"""The live loop: camera -> recogniser -> watcher -> game service -> store -> pages.

:class:`LiveRunner` is what ``uno-table serve`` and ``uno-table demo`` hand the web app
as its :class:`web.hooks.LiveHooks`. It starts in the background so that the server
answers at once; the heavy parts (OpenCV, torch, the model) load in its thread. Every
failure (no camera, camera lost, no model, a bad frame) shows in :meth:`status`, which
``/healthz`` and the page display, and none of them stops the server or the game.

>>> runner = LiveRunner("no/such/video.mp4", ["Ann", "Bob"])
>>> runner.status()["camera"]["state"]
'starting'
"""

from __future__ import annotations

import contextlib
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tracker.rules import RuleSet
from uno_table.session import (
    VISION,
    Moment,
    Note,
    NoteKind,
    ScriptedReferee,
    TableSession,
    TableVerdict,
)

# (event, source) -> verdict as JSON; the game service's submit, bound to a store.
Submit = Callable[[dict[str, Any], str], dict[str, Any]]

HELD_BACK_SHOWN_S = 60.0  # how long the tablet asks about a take-back left to the referee


class LiveRunner:
    """Reads frames, recognises cards, turns them into events and submits them.

    ``source`` is a camera index, a video file or a URL (see :mod:`vision.source`).
    ``layout`` is a saved :class:`vision.calibration.TableLayout` (JSON); without one
    the layout is proposed from the first frame (:func:`uno_table.session.choose_layout`).
    The pipeline, the watcher and the tracker's feedback are a
    :class:`uno_table.session.TableSession`; this runner keeps the thread, the health
    and the picture. ``prepare``, if given, runs
    first in the live thread and may set ``source_spec`` and ``layout_path`` (the demo
    renders its video there, so that the server is up at once).
    """

    def __init__(
        self,
        source: str,
        players: list[str],
        *,
        layout: str | Path | None = None,
        loop: bool = False,
        realtime: bool = True,
        recognizer: Any = None,
        prepare: Callable[[LiveRunner], None] | None = None,
        models_dir: str | Path | None = None,
        referee_script: list[dict[str, Any]] | None = None,
        jpeg_quality: int = 75,
        max_width: int = 960,
    ) -> None:
        self.source_spec = source
        self.prepare = prepare
        self.models_dir = models_dir
        self.referee_script = referee_script
        self.realtime = realtime
        self.recognizer = recognizer
        self.players = list(players)
        self.layout_path = layout
        self.loop = loop
        self.jpeg_quality = jpeg_quality
        self.max_width = max_width
        self.submit: Submit | None = None
        # (pile top, video time) -> the verdict of what it healed, or None (docs/healing.md).
        self.observe_top: Callable[[str | None, float], dict[str, Any] | None] | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._source: Any = None
        self._camera: dict[str, Any] = {"state": "starting", "message": "starting up"}
        self._recognition: dict[str, Any] = {"available": False, "message": "loading the model"}
        self._frame: Any = None  # annotated BGR image
        self._raw: Any = None  # the same frame as it came (deck setup)
        self.active_recognizer: Any = None  # the loop's recogniser once loaded (deck setup)
        self._frame_index = -1
        self._jpeg: tuple[int, bytes] | None = None
        self._seat_cards: dict[str, list[str]] = {}
        self._session: TableSession | None = None
        self._early: list[tuple[dict[str, Any], TableVerdict, str]] = []
        self.frames_processed = 0
        self.events_submitted = 0
        self.takebacks_held = 0  # take-backs seen after a ruling, left to the referee
        self._held_at: float | None = None
        self._turn: str | None = None  # whose turn, from the last verdict (for the overlay)
        self._processed_at: deque[float] = deque(maxlen=60)
        self._new_layout: Any = None  # saved on the camera check, not yet in use

    # -- the hooks the web app calls -------------------------------------------------

    def frame_jpeg(self) -> tuple[int, bytes] | None:
        """The latest annotated frame as JPEG, encoded once per frame for all viewers."""
        with self._lock:
            if self._frame is None:
                return None
            if self._jpeg is None or self._jpeg[0] != self._frame_index:
                import cv2

                ok, buf = cv2.imencode(
                    ".jpg", self._frame, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality]
                )
                if not ok:
                    return self._jpeg
                self._jpeg = (self._frame_index, buf.tobytes())
            return self._jpeg

    def table_layout(self) -> dict[str, Any] | None:
        """The table layout the camera side uses now, as JSON (None before its first
        frame); the camera check shows it."""
        with self._lock:
            session = self._session
        layout = None if session is None else session.layout
        return None if layout is None else dict(layout.to_dict())

    def use_layout(self, layout: dict[str, Any]) -> None:
        """A layout the referee saved on the camera check: the live loop takes it at
        its next frame (``ValueError`` for one that is not a layout)."""
        from vision.calibration import TableLayout

        table = TableLayout.from_dict(layout)
        with self._lock:
            self._new_layout = table

    def camera_frame(self) -> Any:
        """The latest frame as it came from the camera (BGR, not annotated), or None."""
        with self._lock:
            return self._raw

    def status(self) -> dict[str, Any]:
        with self._lock:
            camera = dict(self._camera)
            recognition = dict(self._recognition)
        stamps = list(self._processed_at)
        if len(stamps) >= 2 and time.monotonic() - stamps[-1] < 2.0 and stamps[-1] > stamps[0]:
            recognition["frames_per_s"] = round((len(stamps) - 1) / (stamps[-1] - stamps[0]), 1)
        if self._held_at is not None and time.monotonic() - self._held_at < HELD_BACK_SHOWN_S:
            # The tablet asks the referee whether to undo the last play.
            recognition["takeback_held_s_ago"] = round(time.monotonic() - self._held_at, 1)
        source = self._source
        if source is not None:
            try:
                s = source.status()
            except Exception as exc:  # a status call must never break /healthz
                s = {"connected": False, "error": str(exc)}
            camera.update(s)
            if s.get("connected"):
                camera["state"], camera["message"] = "ok", "receiving frames"
            elif s.get("ended"):
                camera["state"], camera["message"] = "ended", "the video has ended"
            else:
                camera["state"] = "lost"
                camera["message"] = str(s.get("error") or "no frames: reconnecting")
        return {"camera": camera, "recognition": recognition}

    def seat_cards(self) -> dict[str, list[str]]:
        with self._lock:
            return {p: list(c) for p, c in self._seat_cards.items()}

    def notify(self, event: dict[str, Any], verdict: dict[str, Any], source: str) -> None:
        """Called by the game service after every event (from any thread)."""
        answer = TableVerdict.from_json(verdict)
        self._turn = answer.turn
        with self._lock:
            session = self._session
            if session is None:  # the camera has not started: kept for its session
                self._early.append((event, answer, source))
        if session is not None:
            session.notify(event, answer, source)

    # -- lifecycle -------------------------------------------------------------------

    def start(self, submit: Submit) -> LiveRunner:
        self.submit = submit
        self._thread = threading.Thread(target=self._run, name="live-loop", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 3.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self._source is not None:
            self._source.stop()

    # -- the loop --------------------------------------------------------------------

    def _set(self, camera: dict[str, Any] | None = None, **recognition: Any) -> None:
        with self._lock:
            if camera is not None:
                self._camera = camera
            if recognition:
                self._recognition = {**self._recognition, **recognition}

    def _run(self) -> None:
        try:
            self._run_inner()
        except Exception as exc:  # the live side may fail; the server and game go on
            traceback.print_exc()
            self._set({"state": "error", "message": f"live loop stopped: {exc}"})

    def _run_inner(self) -> None:
        import cv2

        import vision  # noqa: F401  (offline ultralytics environment first)
        from vision.source import open_source

        # A missing camera is retried for ever: its status says so, not a log line a try.
        with contextlib.suppress(AttributeError):
            cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)

        if self.prepare is not None:
            self._set({"state": "starting", "message": "preparing the video"})
            self.prepare(self)
        try:
            source = open_source(self.source_spec, realtime=self.realtime, loop=self.loop)
        except (OSError, ValueError) as exc:
            self._set({"state": "error", "message": str(exc)})
            self._set(available=False, message="no video")
            return
        self._source = source.start()
        recognizer = self.recognizer or self._load_recognizer()
        self.active_recognizer = recognizer
        if self.recognizer is not None:
            self._set(available=True, message="recognising cards")
        session = None if recognizer is None else self._make_session(recognizer)
        last_index = -1
        while not self._stop.is_set():
            frame = source.next_frame(last_index, timeout=0.5)
            if frame is None:
                if source.ended:
                    return  # a video file played to its end; its last frame stays shown
                continue
            last_index = frame.index
            result = None
            if session is not None:
                self._take_layout(session)
                result = self._step(session, frame.image, frame.t, frame.index)
                if session.players != self.players:  # a round re-seated the table
                    self.players = list(session.players)
                    with self._lock:
                        self._seat_cards = {}
                if result is not None and session.layout is not None:
                    self._update_seat_cards(result.detections, session.layout)
            layout = None if session is None else session.layout
            detections = None if result is None else result.detections
            self._show(frame.image, detections, layout, frame.index)
            self.frames_processed += 1
            self._processed_at.append(time.monotonic())

    def _load_recognizer(self) -> Any:
        started = time.monotonic()
        try:
            from vision.detector import CardRecognizer

            recognizer = CardRecognizer.load(self.models_dir)
        except Exception as exc:  # missing or broken weights: the video plays on, unboxed
            self._set(available=False, message=f"no card model: {exc}")
            return None
        self._set(
            available=True,
            message="recognising cards",
            backend=str(getattr(recognizer, "backend", "")),
            load_s=round(time.monotonic() - started, 2),
        )
        return recognizer

    def _make_session(self, recognizer: Any) -> TableSession:
        from vision.calibration import TableLayout
        from vision.watcher_config import WatcherConfig

        layout = TableLayout.load(self.layout_path) if self.layout_path else None
        config = WatcherConfig.load(self.layout_path) if self.layout_path else None
        with self._lock:  # one the camera check saved while the model was loading
            layout, self._new_layout = self._new_layout or layout, None
        session = TableSession(
            self.players,
            recognizer,
            self._submit,
            layout=layout,
            # Scripted rulings only make sense alongside the camera's plays.
            referee=ScriptedReferee(self.referee_script) if self.referee_script else None,
            # A still table is not recognised again: the CPU goes to frames that changed.
            skip_static=True,
            config=config,
            on_note=self._on_note,
            observe=self._observe,
        )
        with self._lock:
            self._session = session
            early, self._early = self._early, []
        for event, verdict, source in early:
            session.notify(event, verdict, source)
        return session

    def _take_layout(self, session: TableSession) -> None:
        """Use the layout the camera check saved, if one came since the last frame."""
        with self._lock:
            layout, self._new_layout = self._new_layout, None
        if layout is None:
            return
        try:
            session.use_layout(layout)
        except ValueError as exc:  # e.g. the players changed in between
            self._set(available=True, message=f"the saved layout was not used: {exc}")

    def _step(self, session: TableSession, image: Any, t: float, index: int) -> Any:
        try:
            result = session.step(image, t, index)
        except Exception as exc:  # one bad frame must not stop the loop
            self._set(available=True, message=f"a frame failed: {exc}")
            return None
        if result.error:
            self._set(available=True, message=f"a frame failed: {result.error}")
        elif not result.reused:
            self._set(
                available=True,
                message="recognising cards",
                ms_per_frame=round(result.detect_ms, 1),
                arms_ms_per_frame=round(result.arms_ms, 1),
            )
        return result

    def _submit(self, event: dict[str, Any], source: str, _moment: Moment) -> TableVerdict | None:
        """The session's :data:`uno_table.session.Submit`: the game service's answer."""
        if self.submit is None:
            return None
        try:
            verdict = self.submit(dict(event), source)
        except Exception as exc:
            what = "an event" if source == VISION else "a ruling"
            self._set(available=True, message=f"could not submit {what}: {exc}")
            return None
        if source == VISION:
            self.events_submitted += 1
        return TableVerdict.from_json(verdict)

    def _observe(self, top: str | None, moment: Moment) -> TableVerdict | None:
        """The session's :data:`uno_table.session.Observe`: the game service's healer."""
        if self.observe_top is None:
            return None
        try:
            verdict = self.observe_top(top, moment.t)
        except Exception as exc:  # the camera's view is evidence; never a stop
            self._set(available=True, message=f"could not check the pile's top: {exc}")
            return None
        return None if verdict is None else TableVerdict.from_json(verdict)

    def _on_note(self, note: Note) -> None:
        if note.kind is NoteKind.HELD_BACK:
            # An undo now would take back the ruling: the referee decides.
            self.takebacks_held += 1
            self._held_at = time.monotonic()
        elif note.kind is NoteKind.SEATS_KEPT:
            self._set(available=True, message=f"seats kept: {note.message}")

    def _update_seat_cards(self, detections: Any, layout: Any) -> None:
        seats: dict[str, list[str]] = {p: [] for p in self.players}
        for det in detections:
            if det.card == "back":
                continue
            x, y = det.center
            if layout.draw.contains(x, y):
                continue
            seat = layout.seat_at(x, y)
            if seat is not None and seat < len(self.players):
                seats[self.players[seat]].append(det.card)
        with self._lock:
            self._seat_cards = seats

    def _show(self, image: Any, detections: Any, layout: Any, index: int) -> None:
        from vision.annotate import annotate_table

        out = annotate_table(
            image, detections, layout, self.players, self._turn, max_width=self.max_width
        )
        with self._lock:
            self._frame = out
            self._raw = image
            self._frame_index = index


def build_app(
    *,
    source: str | None,
    players: list[str],
    rules: RuleSet | str,
    db: str,
    token: str | None,
    layout: str | None = None,
    layout_file: str | None = None,
    new_match: bool = False,
    loop: bool = False,
    realtime: bool = True,
    recognizer: Any = None,
    prepare: Callable[[LiveRunner], None] | None = None,
    models_dir: str | None = None,
    referee_script: list[dict[str, Any]] | None = None,
    video_fps: float = 15.0,
    opening: list[dict[str, Any]] | None = None,
    heal: bool = True,
) -> tuple[Any, LiveRunner | None]:
    """The web app wired to a live runner (or to none when ``source`` is None).

    ``opening`` events (e.g. the demo's deal) are submitted before the camera starts.
    ``layout_file`` is where the camera check (``/camera``) saves the table's layout.
    ``heal`` (default): the game service infers what the camera missed, with the
    camera's view of the pile as evidence (docs/healing.md); False: the bare tracker.
    """
    from uno_table.deck_setup import DeckSetup
    from web import NoLive, create_app, service_of
    from web.store import Store

    runner = (
        None
        if source is None
        else LiveRunner(
            source,
            players,
            layout=layout,
            loop=loop,
            realtime=realtime,
            recognizer=recognizer,
            prepare=prepare,
            models_dir=models_dir,
            referee_script=referee_script,
        )
    )
    app = create_app(
        {
            "DATABASE": db,
            "RULES": rules,
            "PLAYERS": players,
            "REFEREE_TOKEN": token,
            "NEW_MATCH": new_match,
            "LIVE": runner or NoLive("no video source (--source none)"),
            "VIDEO_FPS": video_fps,
            "DECK": DeckSetup(models_dir, live=runner),
            "HEAL": heal,
            # Where the camera check saves the table's layout.
            "LAYOUT_FILE": layout_file,
        }
    )
    service = service_of(app)
    if opening:
        store = Store.open(app.config["DATABASE"])
        try:
            for event in opening:
                service.submit(event, store, source="system")
        finally:
            store.close()
    if runner is not None:
        store_box: dict[str, Store] = {}

        def submit(event: dict[str, Any], source: str) -> dict[str, Any]:
            # The live thread keeps one connection of its own.
            if "store" not in store_box:
                store_box["store"] = Store.open(app.config["DATABASE"])
            verdict: dict[str, Any] = service.submit(
                event, store_box["store"], source=source
            ).verdict
            return verdict

        def observe_top(top: str | None, t: float) -> dict[str, Any] | None:
            if "store" not in store_box:
                store_box["store"] = Store.open(app.config["DATABASE"])
            done = service.observe_top(top, t, store_box["store"])
            return None if done is None else dict(done.verdict)

        runner.observe_top = observe_top
        service.listeners.append(runner.notify)
        runner.start(submit)
    return app, runner
