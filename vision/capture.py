"""The OpenCV side of the frame sources: frames, captures, spec strings, video files.

What a :class:`Frame` is, the part of ``cv2.VideoCapture`` a source uses
(:class:`Capture`), what a spec string names (:func:`source_kind`) and how it is
opened (a stream with open and read timeouts), and reading a video file straight
through, synchronously (:func:`read_video`, :func:`video_fps`: replays, tests, training
data). The live source, a reader thread that keeps the latest frame and reopens a
lost camera, is :mod:`vision.source`'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]


class Capture(Protocol):
    """The part of ``cv2.VideoCapture`` a source uses (tests may hand in their own)."""

    def isOpened(self) -> bool: ...

    def read(self) -> tuple[bool, Any]: ...

    def get(self, prop_id: int) -> float: ...

    def release(self) -> None: ...


@dataclass(frozen=True)
class Frame:
    """One frame: BGR pixels, its time in seconds and its index in the source.

    For a video file ``t`` is the video's own clock (``index / fps``, continuing across
    loops); for a camera or stream it is seconds since :meth:`FrameSource.start`.
    """

    image: Image
    t: float
    index: int


def source_kind(spec: str) -> str:
    """``"camera"``, ``"url"`` or ``"file"`` for a spec string.

    >>> source_kind("0"), source_kind("rtsp://10.0.0.2/live"), source_kind("a.mp4")
    ('camera', 'url', 'file')
    """
    s = spec.strip()
    if s.isdigit():
        return "camera"
    if "://" in s:
        return "url"
    return "file"


def _default_opener(spec: str, kind: str, timeout_s: float) -> Capture:
    if kind == "camera":
        return cv2.VideoCapture(int(spec))
    if kind == "url":
        ms = int(timeout_s * 1000)
        # FFmpeg honours these; without them a dead RTSP server can block read() for 30 s.
        params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, ms, cv2.CAP_PROP_READ_TIMEOUT_MSEC, ms]
        return cv2.VideoCapture(spec, cv2.CAP_FFMPEG, params)
    return cv2.VideoCapture(spec)


def read_video(path: str | Path) -> Iterator[Frame]:
    """Every frame of a video file in order, synchronously (replays, tests).

    Raises ``FileNotFoundError``/``ValueError`` for a missing or unreadable file.
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no such video file: {p}")
    cap = cv2.VideoCapture(str(p))
    try:
        if not cap.isOpened():
            raise ValueError(f"not a video OpenCV can read: {p}")
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        fps = fps if 1.0 <= fps <= 240.0 else 30.0
        i = 0
        while True:
            ok, img = cap.read()
            if not ok or img is None:
                break
            yield Frame(np.asarray(img, dtype=np.uint8), i / fps, i)
            i += 1
        if i == 0:
            raise ValueError(f"no frames could be read from {p}")
    finally:
        cap.release()


def video_fps(path: str | Path) -> float:
    """The frame rate a video file declares (30 when it declares none)."""
    cap = cv2.VideoCapture(str(path))
    try:
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
    finally:
        cap.release()
    return fps if 1.0 <= fps <= 240.0 else 30.0
