"""The live loop: camera -> recogniser -> watcher -> game service -> store -> pages.

:class:`LiveRunner` is what ``uno-table serve`` and ``uno-table demo`` hand the web app
as its :class:`web.hooks.LiveHooks`. It starts in the background so that the server
answers at once; the heavy parts (OpenCV, torch, the model) load in its thread. Every
failure (no camera, camera lost, no model, a bad frame) shows in :meth:`status`, which
``/healthz`` and the page display, and none of them stops the server or the game.

What is not the thread, the health or the picture lives beside it:
:mod:`uno_table.live_link` (the game service: events out, verdicts back),
:mod:`uno_table.live_frames` (the latest frame as JPEG and as it came, the cards by
seat), :mod:`uno_table.live_layout` (the layout saved on the camera check) and
:mod:`uno_table.live_app` (:func:`build_app`, the web app wired to a runner). Their
names still import from here.

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

from uno_table.live_app import build_app
from uno_table.live_frames import LatestFrame, cards_by_seat
from uno_table.live_layout import LayoutInbox
from uno_table.live_link import ObserveTop, ServiceLink, Submit
from uno_table.session import Note, NoteKind, TableSession, TableVerdict

__all__ = ["HELD_BACK_SHOWN_S", "LiveRunner", "Submit", "build_app"]

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
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._source: Any = None
        self._camera: dict[str, Any] = {"state": "starting", "message": "starting up"}
        self._recognition: dict[str, Any] = {"available": False, "message": "loading the model"}
        self._link = ServiceLink(report=self._report)
        self._picture = LatestFrame()
        self._layouts = LayoutInbox()  # saved on the camera check, not yet in use
        self.active_recognizer: Any = None  # the loop's recogniser once loaded (deck setup)
        self._seat_cards: dict[str, list[str]] = {}
        self.frames_processed = 0
        self.takebacks_held = 0  # take-backs seen after a ruling, left to the referee
        self._held_at: float | None = None
        self._turn: str | None = None  # whose turn, from the last verdict (for the overlay)
        self._processed_at: deque[float] = deque(maxlen=60)

    # -- the game service (uno_table.live_link) --------------------------------------

    @property
    def submit(self) -> Submit | None:
        """The game service's submit (bound by :func:`build_app` or a test)."""
        return self._link.submit

    @submit.setter
    def submit(self, submit: Submit | None) -> None:
        self._link.submit = submit

    @property
    def observe_top(self) -> ObserveTop | None:
        """The game service's healer, given the pile's top (docs/healing.md)."""
        return self._link.observe_top

    @observe_top.setter
    def observe_top(self, observe_top: ObserveTop | None) -> None:
        self._link.observe_top = observe_top

    @property
    def events_submitted(self) -> int:
        """The camera's events the game service answered."""
        return self._link.events_submitted

    # -- the hooks the web app calls -------------------------------------------------

    def frame_jpeg(self) -> tuple[int, bytes] | None:
        """The latest annotated frame as JPEG, encoded once per frame for all viewers."""
        return self._picture.jpeg(self.jpeg_quality)

    def table_layout(self) -> dict[str, Any] | None:
        """The table layout the camera side uses now, as JSON (None before its first
        frame); the camera check shows it."""
        session = self._link.session
        layout = None if session is None else session.layout
        return None if layout is None else dict(layout.to_dict())

    def use_layout(self, layout: dict[str, Any]) -> None:
        """A layout the referee saved on the camera check: the live loop takes it at
        its next frame (``ValueError`` for one that is not a layout)."""
        self._layouts.put(layout)

    def camera_frame(self) -> Any:
        """The latest frame as it came from the camera (BGR, not annotated), or None."""
        return self._picture.raw()

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
        self._link.notify(event, answer, source)

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

    def _report(self, message: str) -> None:
        """A message for the health, the recognition going on."""
        self._set(available=True, message=message)

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
                    if session is not None:
                        self._finish(session)
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
        # One the camera check saved while the model was loading wins.
        layout = self._layouts.take() or layout
        return self._link.open_session(
            self.players,
            recognizer,
            layout=layout,
            config=config,
            referee_script=self.referee_script,
            on_note=self._on_note,
        )

    def _take_layout(self, session: TableSession) -> None:
        """Use the layout the camera check saved, if one came since the last frame."""
        layout = self._layouts.take()
        if layout is None:
            return
        try:
            session.use_layout(layout)
        except ValueError as exc:  # e.g. the players changed in between
            self._report(f"the saved layout was not used: {exc}")

    def _finish(self, session: TableSession) -> None:
        """The video ended: what the watcher still waited for is judged and sent."""
        try:
            session.finish()
        except Exception as exc:  # the end of a video must not lose the game either
            self._set(available=True, message=f"the video's end failed: {exc}")

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

    def _on_note(self, note: Note) -> None:
        if note.kind is NoteKind.HELD_BACK:
            # An undo now would take back the ruling: the referee decides.
            self.takebacks_held += 1
            self._held_at = time.monotonic()
        elif note.kind is NoteKind.SEATS_KEPT:
            self._report(f"seats kept: {note.message}")

    def _update_seat_cards(self, detections: Any, layout: Any) -> None:
        seats = cards_by_seat(detections, layout, self.players)
        with self._lock:
            self._seat_cards = seats

    def _show(self, image: Any, detections: Any, layout: Any, index: int) -> None:
        from vision.annotate import annotate_table

        out = annotate_table(
            image, detections, layout, self.players, self._turn, max_width=self.max_width
        )
        self._picture.put(out, image, index)
