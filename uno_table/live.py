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
import queue
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

# (event, source) -> verdict as JSON; the game service's submit, bound to a store.
Submit = Callable[[dict[str, Any], str], dict[str, Any]]

BOX_COLORS = {
    "red": (60, 57, 224),
    "yellow": (46, 193, 242),
    "green": (79, 168, 47),
    "blue": (219, 111, 42),
}
DARK_BOXES = (BOX_COLORS["red"], BOX_COLORS["green"], BOX_COLORS["blue"])  # white text on
HELD_BACK_SHOWN_S = 60.0  # how long the tablet asks about a take-back left to the referee


class ScriptedReferee:
    """The referee's rulings from a timed event log, for a recorded game (the demo).

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

    def __init__(self, log: list[dict[str, Any]]) -> None:
        timed = [e for e in log if isinstance(e.get("t"), int | float)]
        self.rulings = sorted(
            (e for e in timed if e.get("type") in self.RULINGS), key=lambda e: float(e["t"])
        )
        self.named = [e for e in timed if e.get("type") == "play" and e.get("color")]

    def due(self, t: float) -> list[dict[str, Any]]:
        """Rulings whose time has come by video time ``t``, without their ``t``."""
        out = []
        while self.rulings and float(self.rulings[0]["t"]) + self.DELAY_S <= t:
            out.append({k: v for k, v in self.rulings.pop(0).items() if k != "t"})
        return out

    def with_color(self, event: dict[str, Any], t: float) -> dict[str, Any]:
        """The camera's play, with the color the referee named for it, if any."""
        if event.get("type") != "play" or "color" in event:
            return event
        cards = sorted(event.get("cards") or [event.get("card")])
        lo, hi = self.WINDOW_S
        for e in self.named:
            if sorted(e.get("cards") or [e.get("card")]) == cards and lo <= t - e["t"] <= hi:
                self.named.remove(e)
                return {**event, "color": e["color"]}
        return event


class LiveRunner:
    """Reads frames, recognises cards, turns them into events and submits them.

    ``source`` is a camera index, a video file or a URL (see :mod:`vision.source`).
    ``layout`` is a saved :class:`vision.calibration.TableLayout` (JSON); without one
    a default layout for the first frame's size is used. ``prepare``, if given, runs
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
        self._notes: queue.SimpleQueue[tuple[dict[str, Any], dict[str, Any], str]] = (
            queue.SimpleQueue()
        )
        self.frames_processed = 0
        self.events_submitted = 0
        self.takebacks_held = 0  # take-backs seen after a ruling, left to the referee
        self._held_at: float | None = None
        self._turn: str | None = None  # whose turn, from the last verdict (for the overlay)
        self._last_applied: tuple[str, str] = ("", "")  # type and source of the last event
        self._processed_at: deque[float] = deque(maxlen=60)

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
        turn = (verdict.get("state") or {}).get("turn")
        self._turn = turn if isinstance(turn, str) else None
        if verdict.get("ok"):
            self._last_applied = (str(event.get("type")), source)
        self._notes.put((event, verdict, source))

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
        pipeline = None
        layout = None
        last_index = -1
        # Scripted rulings only make sense alongside the camera's plays.
        script = (
            ScriptedReferee(self.referee_script)
            if recognizer is not None and self.referee_script
            else None
        )
        while not self._stop.is_set():
            frame = source.next_frame(last_index, timeout=0.5)
            if frame is None:
                if source.ended:
                    return  # a video file played to its end; its last frame stays shown
                continue
            last_index = frame.index
            image = frame.image
            result = None
            if recognizer is not None:
                if pipeline is None:
                    layout, pipeline = self._make_pipeline(recognizer, image)
                if hasattr(recognizer, "seek"):  # a recogniser that reads per-frame truth
                    recognizer.seek(frame.index)
                for ruling in script.due(frame.t) if script else []:
                    self._submit_ruling(ruling)
                result = self._recognise(pipeline, image, frame.t)
                if result is not None:
                    self._submit_events(result.events, pipeline.watcher, script, frame.t)
                    self._update_seat_cards(result.detections, layout)
                layout = self._drain_notes(pipeline.watcher, layout)
            self._show(image, None if result is None else result.detections, layout, frame.index)
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

    def _make_pipeline(self, recognizer: Any, image: Any) -> tuple[Any, Any]:
        from vision.calibration import TableLayout
        from vision.pipeline import TablePipeline
        from vision.watcher import Watcher

        h, w = image.shape[:2]
        if self.layout_path:
            layout = TableLayout.load(self.layout_path)
            if (layout.width, layout.height) != (w, h):
                layout = layout.scaled(w, h)
        else:
            layout = TableLayout.default(w, h, len(self.players))
        # A still table is not recognised again: the CPU goes to frames that changed.
        return layout, TablePipeline(recognizer, Watcher(layout, self.players), skip_static=True)

    def _recognise(self, pipeline: Any, image: Any, t: float) -> Any:
        try:
            result = pipeline.process(image, t)
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
            )
        return result

    def _submit_vision(self, event: dict[str, Any], watcher: Any) -> None:
        if self.submit is None:
            return
        try:
            verdict = self.submit(dict(event), "vision")
        except Exception as exc:
            self._set(available=True, message=f"could not submit an event: {exc}")
            return
        self.events_submitted += 1
        if watcher is None:
            return
        if event.get("type") == "play" and not verdict.get("ok"):
            watcher.play_refused()
        elif (
            event.get("type") == "flip"
            and verdict.get("ok")
            and (verdict.get("state") or {}).get("top") is None
        ):
            # The starter went back into the deck (a Wild Draw Four): the pile is
            # empty again and the next card turned up is the flip.
            watcher.reset()

    def _submit_events(
        self, events: list[dict[str, Any]], watcher: Any, script: Any, t: float
    ) -> None:
        """Send one frame's watcher events to the game, in order."""
        from vision.watcher import events_to_apply

        def own_play_last() -> bool:
            return self._last_applied in (("play", "vision"), ("flip", "vision"))

        def held_back(_event: dict[str, Any]) -> None:
            # An undo now would take back the ruling: the referee decides.
            self.takebacks_held += 1
            self._held_at = time.monotonic()

        for event in events_to_apply(events, own_play_last, held_back):
            if script is not None:
                event = script.with_color(event, t)
            self._submit_vision(event, watcher)

    def _submit_ruling(self, event: dict[str, Any]) -> None:
        if self.submit is None:
            return
        try:
            self.submit(dict(event), "referee")
        except Exception as exc:
            self._set(available=True, message=f"could not submit a ruling: {exc}")

    def _drain_notes(self, watcher: Any, layout: Any) -> Any:
        """Tell the watcher about the referee's rulings: a new round empties the pile,
        and a round with other players re-seats the table. Returns the layout in use."""
        while True:
            try:
                event, verdict, _source = self._notes.get_nowait()
            except queue.Empty:
                return layout
            if watcher is None or event.get("type") != "round" or not verdict.get("ok"):
                continue
            watcher.reset()
            players = event.get("players")
            if isinstance(players, list) and players and players != self.players:
                try:
                    layout = layout.for_players([str(p) for p in players])
                    watcher.seat_players([str(p) for p in players], layout)
                except ValueError as exc:  # the tracker took it; the table cannot seat it
                    self._set(available=True, message=f"seats kept: {exc}")
                    continue
                self.players = [str(p) for p in players]
                with self._lock:
                    self._seat_cards = {}

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
        import cv2

        h, w = image.shape[:2]
        scale = min(1.0, self.max_width / w)
        out = cv2.resize(image, (round(w * scale), round(h * scale))) if scale < 1 else image.copy()
        if layout is not None:
            z = layout.discard
            cv2.rectangle(
                out,
                (round(z.x1 * scale), round(z.y1 * scale)),
                (round(z.x2 * scale), round(z.y2 * scale)),
                (200, 200, 200),
                1,
            )
            draw_seats(out, layout, self.players, self._turn, scale)
        if detections is not None:
            draw_boxes(out, detections, scale)
        with self._lock:
            self._frame = out
            self._raw = image
            self._frame_index = index


def draw_seats(
    image: Any, layout: Any, players: list[str], turn: str | None, scale: float = 1.0
) -> None:
    """Each player's name at their side of the table; whose turn it is in yellow."""
    import cv2

    h, w = image.shape[:2]
    for seat, name in enumerate(players[: len(layout.seats)]):
        x, y = layout.seat_anchor(seat, 0.88)
        (tw, th), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, 0.6, 2)
        x1 = int(min(max(x * scale - tw / 2, 4), w - tw - 8))
        y1 = int(min(max(y * scale - th / 2, th + 6), h - 6))
        on_turn = name == turn
        cv2.rectangle(image, (x1 - 4, y1 - th - 6), (x1 + tw + 4, y1 + 6), (30, 30, 30), -1)
        cv2.putText(
            image,
            name,
            (x1, y1),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.6,
            (0, 220, 255) if on_turn else (235, 235, 235),
            2,
            cv2.LINE_AA,
        )


def draw_boxes(image: Any, detections: Any, scale: float = 1.0) -> None:
    """Box and name each recognised card, in the card's color."""
    import cv2

    for det in detections:
        x1, y1, x2, y2 = (round(v * scale) for v in det.box)
        color = BOX_COLORS.get(det.card.split("-")[0], (240, 240, 240))
        cv2.rectangle(image, (x1, y1), (x2, y2), color, 2)
        label = f"{det.card} {det.confidence:.2f}"
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)
        cv2.rectangle(image, (x1, max(y1 - th - 6, 0)), (x1 + tw + 4, max(y1, th + 6)), color, -1)
        cv2.putText(
            image,
            label,
            (x1 + 2, max(y1 - 4, th + 2)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.5,
            (255, 255, 255) if color in DARK_BOXES else (0, 0, 0),
            1,
            cv2.LINE_AA,
        )


def build_app(
    *,
    source: str | None,
    players: list[str],
    rules: str,
    db: str,
    token: str | None,
    layout: str | None = None,
    new_match: bool = False,
    loop: bool = False,
    realtime: bool = True,
    recognizer: Any = None,
    prepare: Callable[[LiveRunner], None] | None = None,
    models_dir: str | None = None,
    referee_script: list[dict[str, Any]] | None = None,
    video_fps: float = 15.0,
    opening: list[dict[str, Any]] | None = None,
) -> tuple[Any, LiveRunner | None]:
    """The web app wired to a live runner (or to none when ``source`` is None).

    ``opening`` events (e.g. the demo's deal) are submitted before the camera starts.
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

        service.listeners.append(runner.notify)
        runner.start(submit)
    return app, runner


def serve(app: Any, host: str, port: int, *, banner: str = "") -> int:
    """Serve ``app`` with a threaded server until interrupted; prints where and the token."""
    import logging

    from werkzeug.serving import make_server

    # One log line per request is noise here: the video and the live stream never end.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        server = make_server(host, port, app, threaded=True)
    except OSError as exc:
        print(f"uno-table: cannot listen on {host}:{port}: {exc}", flush=True)
        return 2
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    url = f"http://{shown}:{server.server_port}/"
    token = app.config["REFEREE_TOKEN"]
    match = app.extensions["uno_table"]["service"].match
    if banner:
        print(banner, flush=True)
    print(f"Match {match.id} ({match.rules}): {', '.join(match.players)}", flush=True)
    print(f"Database: {app.config['DATABASE']}", flush=True)
    print(f"Spectators: {url}", flush=True)
    print(f"Referee:    {url}?token={token}", flush=True)
    print(f"Referee token: {token}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
