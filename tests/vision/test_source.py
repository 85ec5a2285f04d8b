"""Frame sources: files paced or not, a camera that is not there, a stream that fails.

The network stream is a real MJPEG server over HTTP on loopback (what phone camera
apps serve), read through OpenCV's FFmpeg backend like any other URL.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.source import FrameSource, open_source, read_video, source_kind


def write_video(path: Path, n: int = 45, fps: float = 30.0) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, (160, 120))
    for i in range(n):
        img = np.full((120, 160, 3), 0, np.uint8)
        cv2.putText(img, str(i), (10, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
        writer.write(img)
    writer.release()
    return path


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_video(tmp_path_factory.mktemp("src") / "clip.mp4")


def wait_for(cond: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return False


def test_kinds_of_specs() -> None:
    assert source_kind("0") == "camera"
    assert source_kind("rtsp://192.168.1.5:8554/live") == "url"
    assert source_kind("http://phone.local:8080/video") == "url"
    assert source_kind("game.mp4") == "file"


def test_file_as_fast_as_consumed_gives_every_frame_then_ends(video: Path) -> None:
    src = open_source(str(video), realtime=False)
    with src:
        frames = list(src.frames(timeout=5))
        status = src.status()
    assert [f.index for f in frames] == list(range(45))
    assert frames[10].t == pytest.approx(10 / 30)
    assert frames[0].image.shape == (120, 160, 3)
    assert status["ended"] is True and status["connected"] is False
    assert set(status) >= {
        "source",
        "connected",
        "fps",
        "last_frame_age_s",
        "reconnects",
        "ended",
        "error",
    }


def test_file_in_real_time_drops_frames_for_a_slow_consumer(video: Path) -> None:
    src = open_source(str(video), realtime=True)
    with src:
        seen = []
        start = time.monotonic()
        for f in src.frames(timeout=5):
            seen.append(f)
            time.sleep(0.1)  # a consumer three times slower than the camera
        wall = time.monotonic() - start
    indexes = [f.index for f in seen]
    assert indexes == sorted(indexes)
    assert len(seen) < 30, "a slow consumer sees only the newest frames"
    assert wall < 45 / 30 + 1.0, "the source kept the file's pace, not the consumer's"
    assert src.status()["ended"] is True


def test_file_loops_with_time_running_on(video: Path) -> None:
    src = open_source(str(video), realtime=False, loop=True)
    with src:
        frames = [f for _, f in zip(range(100), src.frames(timeout=5), strict=False)]
    assert [f.index for f in frames] == list(range(100))
    ts = [f.t for f in frames]
    assert all(b > a for a, b in itertools.pairwise(ts))
    assert src.status()["ended"] is False


def test_missing_file_is_a_clear_error() -> None:
    with pytest.raises(FileNotFoundError, match="no such video file"):
        open_source("no/such/game.mp4")
    with pytest.raises(FileNotFoundError):
        list(read_video("no/such/game.mp4"))


def test_corrupt_file_ends_with_an_error_instead_of_crashing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"this is not a video" * 100)
    src = open_source(str(bad), realtime=False)
    with src:
        assert wait_for(lambda: src.status()["ended"])
        assert src.latest() is None
    assert src.status()["error"]
    with pytest.raises(ValueError):
        list(read_video(bad))


def test_absent_camera_is_retried_and_reported_never_raised() -> None:
    src = FrameSource("97", backoff_initial_s=0.05, backoff_max_s=0.1)
    src.start()
    try:
        assert wait_for(lambda: src.status()["reconnects"] >= 2)
        st = src.status()
        assert st["connected"] is False and st["error"]
        assert src.latest() is None
    finally:
        t0 = time.monotonic()
        src.stop()
        assert time.monotonic() - t0 < 3


class FlakyCapture:
    """A capture whose driver throws mid-stream (a USB camera pulled out)."""

    opened = 0

    def __init__(self) -> None:
        FlakyCapture.opened += 1
        self.n = 0

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, Any]:
        self.n += 1
        time.sleep(0.005)
        if self.n == 10 and FlakyCapture.opened == 1:
            raise OSError("device unplugged")
        return True, np.zeros((8, 8, 3), np.uint8)

    def get(self, prop: int) -> float:
        return 30.0

    def release(self) -> None:
        pass


def test_driver_error_mid_stream_reconnects() -> None:
    FlakyCapture.opened = 0
    src = FrameSource("0", opener=FlakyCapture, backoff_initial_s=0.05)
    with src:
        assert wait_for(lambda: FlakyCapture.opened >= 2 and src.status()["connected"])
        f1 = src.next_frame(timeout=2)
        assert f1 is not None
        assert src.next_frame(after=f1.index, timeout=2) is not None
        assert src.status()["reconnects"] >= 1


# ------------------------------------------------------------------ a real MJPEG stream


class _Camera(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
        self.end_headers()
        i = 0
        server: Any = self.server
        server.connections += 1
        try:
            while server.mode != "closed":
                if server.mode == "stall":
                    time.sleep(0.02)  # connection open, nothing sent
                    continue
                img = np.full((120, 160, 3), (i * 7) % 255, np.uint8)
                jpg = cv2.imencode(".jpg", img)[1].tobytes()
                head = b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n"
                self.wfile.write(head % len(jpg) + jpg + b"\r\n")
                i += 1
                time.sleep(1 / 30)
        except (BrokenPipeError, ConnectionResetError):
            pass


class PhoneCamera:
    def __init__(self, port: int = 0) -> None:
        self.srv = ThreadingHTTPServer(("127.0.0.1", port), _Camera)
        self.srv.daemon_threads = True
        self.srv.mode = "stream"  # type: ignore[attr-defined]
        self.srv.connections = 0  # type: ignore[attr-defined]
        self.port = self.srv.server_address[1]
        self.thread = threading.Thread(target=self.srv.serve_forever, daemon=True)
        self.thread.start()

    def set(self, mode: str) -> None:
        self.srv.mode = mode  # type: ignore[attr-defined]

    @property
    def connections(self) -> int:
        """How many times a reader has opened the stream (one GET each)."""
        return int(self.srv.connections)  # type: ignore[attr-defined]

    def close(self) -> None:
        self.set("closed")
        self.srv.shutdown()
        self.srv.server_close()


@pytest.fixture
def camera() -> Iterator[PhoneCamera]:
    cam = PhoneCamera()
    yield cam
    cam.close()


def test_stream_that_dies_and_comes_back_is_reconnected(camera: PhoneCamera) -> None:
    url = f"http://127.0.0.1:{camera.port}/video.mjpg"
    src = open_source(url, stall_timeout_s=1.0, backoff_initial_s=0.1, backoff_max_s=0.4)
    with src:
        first = src.next_frame(timeout=10)
        assert first is not None and src.status()["connected"]
        camera.close()  # the phone app quits
        assert wait_for(lambda: not src.status()["connected"], 10)
        assert src.status()["error"]
        back = PhoneCamera(camera.port)  # and is started again
        try:
            assert wait_for(lambda: src.status()["connected"], 15)
            latest = src.latest()
            assert latest is not None and latest.index > first.index
            assert src.status()["reconnects"] >= 1
        finally:
            back.close()


def test_stalled_stream_is_detected_and_reopened(camera: PhoneCamera) -> None:
    url = f"http://127.0.0.1:{camera.port}/video.mjpg"
    src = open_source(url, stall_timeout_s=0.8, backoff_initial_s=0.1, backoff_max_s=0.4)
    with src:
        assert src.next_frame(timeout=10) is not None
        camera.set("stall")  # connection open, no frames: a frozen phone app
        # Wait for the stall to be acted on (the reader's read timeout or the
        # watchdog: either counts a reconnect and gives up the connection), not just
        # for status() to say "not connected": that it says as soon as the newest
        # frame is stall_timeout_s old, before anything has acted, and a stream
        # resumed in between goes on over the same connection with no reconnect.
        assert wait_for(lambda: src.status()["reconnects"] >= 1, 10)
        st = src.status()
        assert st["connected"] is False and st["error"]
        assert st["last_frame_age_s"] is not None and st["last_frame_age_s"] >= 0.8
        before = src.latest()
        assert before is not None
        camera.set("stream")
        assert wait_for(lambda: src.status()["connected"], 15)
        after = src.next_frame(after=before.index, timeout=5)
        assert after is not None
        assert camera.connections >= 2, "the frames after the stall come over a new connection"


class StuckCapture:
    """A capture that opens, then blocks in read() (a wedged driver), the first time."""

    opened = 0

    def __init__(self) -> None:
        StuckCapture.opened += 1
        self.stuck = StuckCapture.opened == 1

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, Any]:
        if self.stuck:
            time.sleep(3.0)
            return False, None
        time.sleep(0.01)
        return True, np.zeros((8, 8, 3), np.uint8)

    def get(self, prop: int) -> float:
        return 30.0

    def release(self) -> None:
        pass


def test_capture_stuck_before_its_first_frame_is_abandoned() -> None:
    StuckCapture.opened = 0
    src = FrameSource("0", opener=StuckCapture, stall_timeout_s=0.3, backoff_initial_s=0.05)
    with src:
        assert src.next_frame(timeout=5) is not None
        assert StuckCapture.opened >= 2
        assert src.status()["connected"] is True
