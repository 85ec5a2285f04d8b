"""Frame sources: a webcam, a video file or a network stream, behind one small API.

All camera I/O of the project lives here and in :mod:`vision.capture` (frames,
opening a capture, reading a video file straight through). A reader thread pulls
frames and keeps only the latest one, so a slow consumer never falls behind the
camera: it sees the newest frame and the ones in between are dropped. A stalled or
lost source is detected, released and reopened with exponential backoff;
:meth:`FrameSource.status` says what is going on at any time, and nothing here raises
into the caller once started.

>>> src = open_source("game.mp4", realtime=False)      # doctest: +SKIP
>>> src.start()                                         # doctest: +SKIP
>>> frame = src.next_frame(timeout=1.0)                 # doctest: +SKIP
>>> frame.index, frame.image.shape                      # doctest: +SKIP
(0, (480, 640, 3))
>>> src.status()["connected"]                           # doctest: +SKIP
True
>>> src.stop()                                          # doctest: +SKIP

Spec strings: ``"0"`` (a webcam index), ``"rtsp://..."``/``"http://..."`` (a phone
camera app or IP camera), anything else is a video file path.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.capture import (  # noqa: F401  (re-exported: they lived here)
    Capture,
    Frame,
    Image,
    _default_opener,
    read_video,
    source_kind,
    video_fps,
)


class FrameSource:
    """A reader thread over one capture, keeping only the latest frame.

    ``realtime`` matters for files: ``True`` paces frames by the file's frame rate
    (a stand-in camera, used by the demo), ``False`` reads as fast as the consumer
    takes them and drops none (replays, benchmarks). ``loop`` restarts a file at its
    end instead of ending. Cameras and URLs are always real time; when they fail or
    stall for ``stall_timeout_s`` they are reopened after a backoff that doubles from
    ``backoff_initial_s`` up to ``backoff_max_s``.
    """

    def __init__(
        self,
        spec: str,
        *,
        realtime: bool = True,
        loop: bool = False,
        stall_timeout_s: float = 2.0,
        backoff_initial_s: float = 0.5,
        backoff_max_s: float = 8.0,
        opener: Callable[[], Capture] | None = None,
    ) -> None:
        self.spec = spec
        self.kind = source_kind(spec)
        self.realtime = realtime or self.kind != "file"
        self.loop = loop
        self.stall_timeout_s = stall_timeout_s
        self.backoff_initial_s = backoff_initial_s
        self.backoff_max_s = backoff_max_s
        self._opener = opener or (lambda: _default_opener(spec, self.kind, stall_timeout_s))
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._taken = True  # the consumer has seen _latest (paces non-realtime files)
        self._connected = False
        self._ended = False
        self._error: str | None = None
        self._reconnects = 0
        self._last_frame_wall: float | None = None
        self._opened_at: float | None = None  # when the current capture opened
        self._arrivals: deque[float] = deque(maxlen=120)
        self._nominal_fps = 0.0
        self._stop = threading.Event()
        self._generation = 0  # bumped by the watchdog to abandon a reader stuck in read()
        self._threads: list[threading.Thread] = []
        self._t0 = 0.0
        self._index = 0
        self._started = False

    # ----------------------------------------------------------------- lifecycle
    def start(self) -> FrameSource:
        """Start reading in the background (returns at once; idempotent)."""
        with self._cond:
            if self._started:
                return self
            self._started = True
            self._t0 = time.monotonic()
        self._spawn_reader()
        if self.realtime:
            dog = threading.Thread(target=self._watchdog, name="source-watchdog", daemon=True)
            dog.start()
            self._threads.append(dog)
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the threads and release the capture (a reader stuck in I/O is abandoned)."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        for th in self._threads:
            th.join(timeout)

    def __enter__(self) -> FrameSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----------------------------------------------------------------- consumer side
    def latest(self) -> Frame | None:
        """The newest frame, or ``None`` before the first one (never blocks)."""
        with self._cond:
            self._taken = True
            self._cond.notify_all()
            return self._latest

    def next_frame(self, after: int = -1, timeout: float = 1.0) -> Frame | None:
        """Block until a frame newer than index ``after`` exists; ``None`` on timeout/end."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                f = self._latest
                if f is not None and f.index > after:
                    self._taken = True
                    self._cond.notify_all()
                    return f
                left = deadline - time.monotonic()
                if left <= 0 or self._ended or self._stop.is_set():
                    return None
                self._cond.wait(left)

    def frames(self, timeout: float = 5.0) -> Iterator[Frame]:
        """Every frame the consumer can keep up with, until the source ends or stops."""
        last = -1
        while not self._stop.is_set():
            f = self.next_frame(last, timeout)
            if f is None:
                if self.ended:
                    return
                continue
            last = f.index
            yield f

    @property
    def ended(self) -> bool:
        with self._cond:
            return self._ended

    def status(self) -> dict[str, object]:
        """Health at a glance: ``source, connected, fps, last_frame_age_s, reconnects,
        ended, error`` (what ``/healthz`` shows).

        ``connected`` turns false as soon as the newest frame of a real-time source is
        ``stall_timeout_s`` old, a moment before the stall is acted on (the reader's
        read timeout or the watchdog gives the capture up, counts a reconnect in
        ``reconnects`` and names it in ``error``); frames that come back in between
        arrive over the same connection, with no reconnect counted.
        """
        now = time.monotonic()
        with self._cond:
            age = None if self._last_frame_wall is None else now - self._last_frame_wall
            recent = [a for a in self._arrivals if now - a <= 2.0]
            fps = 0.0
            if len(recent) >= 2 and recent[-1] > recent[0]:
                fps = (len(recent) - 1) / (recent[-1] - recent[0])
            connected = self._connected and (
                age is not None and (age < self.stall_timeout_s or not self.realtime)
            )
            return {
                "source": self.spec,
                "kind": self.kind,
                "connected": bool(connected),
                "fps": round(fps, 2),
                "nominal_fps": round(self._nominal_fps, 2),
                "last_frame_age_s": None if age is None else round(age, 3),
                "reconnects": self._reconnects,
                "ended": self._ended,
                "error": self._error,
            }

    # ----------------------------------------------------------------- reader side
    def _spawn_reader(self) -> None:
        with self._cond:
            self._generation += 1
            gen = self._generation
        th = threading.Thread(target=self._reader, args=(gen,), name="source-reader", daemon=True)
        th.start()
        self._threads.append(th)

    def _current(self, gen: int) -> bool:
        return not self._stop.is_set() and gen == self._generation

    def _open(self, gen: int) -> Capture | None:
        """Open the capture, retrying with backoff until it works or we stop."""
        delay = self.backoff_initial_s
        first = True
        while self._current(gen):
            if not first:
                with self._cond:
                    self._reconnects += 1
            first = False
            try:
                cap = self._opener()
                if cap.isOpened():
                    fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
                    with self._cond:
                        self._nominal_fps = fps if 1.0 <= fps <= 240.0 else 30.0
                        self._error = None
                        self._opened_at = time.monotonic()
                    return cap
                cap.release()
                err = f"could not open {self.kind} {self.spec!r}"
            except Exception as exc:  # a broken driver must not kill the reader
                err = f"opening {self.spec!r} failed: {exc}"
            with self._cond:
                self._error = err
                self._connected = False
            if self.kind == "file":
                # A file does not come back by waiting: report it and end.
                with self._cond:
                    if not Path(self.spec).exists():
                        self._error = f"no such video file: {self.spec}"
                    self._ended = True
                    self._cond.notify_all()
                return None
            self._stop.wait(delay)
            delay = min(delay * 2, self.backoff_max_s)
        return None

    def _reader(self, gen: int) -> None:
        cap: Capture | None = None
        delay = self.backoff_initial_s
        loop_offset = 0.0
        file_start = time.monotonic()
        file_index = 0
        try:
            while self._current(gen):
                if cap is None:
                    cap = self._open(gen)
                    if cap is None:
                        return
                    file_start = time.monotonic()
                    file_index = 0
                try:
                    ok, img = cap.read()
                except Exception as exc:
                    ok, img = False, None
                    with self._cond:
                        self._error = f"read failed: {exc}"
                if not self._current(gen):
                    return  # the watchdog gave up on us while we were blocked
                if not ok or img is None:
                    cap.release()
                    cap = None
                    if self.kind == "file":
                        if self.loop and file_index > 0:
                            loop_offset += file_index / self._nominal_fps
                            continue
                        with self._cond:
                            self._ended = True
                            self._connected = False
                            if file_index == 0 and self._error is None:
                                self._error = f"no frames could be read from {self.spec}"
                            self._cond.notify_all()
                        return
                    with self._cond:
                        self._connected = False
                        self._error = self._error or f"lost {self.kind} {self.spec!r}"
                        self._reconnects += 1
                    self._stop.wait(delay)
                    delay = min(delay * 2, self.backoff_max_s)
                    continue
                delay = self.backoff_initial_s
                if self.kind == "file":
                    t = loop_offset + file_index / self._nominal_fps
                    if self.realtime:
                        wait = file_start + file_index / self._nominal_fps - time.monotonic()
                        if wait > 0:
                            self._stop.wait(wait)
                    file_index += 1
                else:
                    t = time.monotonic() - self._t0
                self._publish(np.ascontiguousarray(img, dtype=np.uint8), t, gen)
        finally:
            if cap is not None:
                cap.release()

    def _publish(self, img: Image, t: float, gen: int) -> None:
        with self._cond:
            if not self.realtime:
                # Hand every frame over: wait until the consumer has taken the last one.
                while not self._taken and self._current(gen):
                    self._cond.wait(0.5)
            if not self._current(gen):
                return
            now = time.monotonic()
            self._latest = Frame(img, float(t), self._index)
            self._index += 1
            self._taken = False
            self._connected = True
            self._error = None
            self._last_frame_wall = now
            self._arrivals.append(now)
            self._cond.notify_all()

    def _watchdog(self) -> None:
        """Abandon a reader whose source stopped delivering, and start a fresh one."""
        while not self._stop.wait(min(0.25, self.stall_timeout_s / 4)):
            with self._cond:
                if self._ended:
                    return
                last = self._last_frame_wall
                now = time.monotonic()
                opened = self._opened_at
                stalled = (
                    self._connected and last is not None and now - last > self.stall_timeout_s
                ) or (
                    # Opened, but not a single frame since: a driver stuck in read().
                    opened is not None
                    and (last is None or last < opened)
                    and now - opened > 2 * self.stall_timeout_s
                )
                if stalled:
                    self._connected = False
                    self._opened_at = None
                    self._error = (
                        f"no frame for {self.stall_timeout_s:.1f} s from {self.spec!r}; reopening"
                    )
                    self._reconnects += 1
            if stalled:
                self._spawn_reader()


def open_source(
    spec: str | int,
    realtime: bool = True,
    *,
    loop: bool = False,
    stall_timeout_s: float = 2.0,
    backoff_initial_s: float = 0.5,
    backoff_max_s: float = 8.0,
) -> FrameSource:
    """A :class:`FrameSource` for a webcam index, a video file or an RTSP/HTTP URL.

    A file that does not exist is refused here, with a clear message; a camera or
    URL that is not there yet is retried in the background (see ``status()``).

    >>> open_source("no/such/file.mp4")
    Traceback (most recent call last):
    ...
    FileNotFoundError: no such video file: no/such/file.mp4
    """
    s = str(spec).strip()
    if not s:
        raise ValueError("empty source: give a camera index, a video file or a URL")
    if source_kind(s) == "file" and not Path(s).is_file():
        raise FileNotFoundError(f"no such video file: {s}")
    return FrameSource(
        s,
        realtime=realtime,
        loop=loop,
        stall_timeout_s=stall_timeout_s,
        backoff_initial_s=backoff_initial_s,
        backoff_max_s=backoff_max_s,
    )
