"""One frame through the table: recogniser, then watcher.

The recogniser is anything with ``.detect(frame_bgr) -> Detections`` (the trained
:class:`vision.detector.CardRecognizer`, or the renderer's oracle in benchmarks). A
recogniser that fails on a frame costs that frame, never the game: the error is
counted and kept in ``last_error``, the watcher sees an empty frame's worth of
nothing (it is not told the cards vanished: the frame is skipped).

Unless ``read_fan_colors`` is off, the pipeline also keeps a
:class:`vision.pile_colors.PileColors` on the frames and lends it to the watcher:
it sees the colours of a fan's half-covered lower cards.

Unless ``watch_arms`` is off (or the watcher's ``arm_every`` setting is 0), the
pipeline keeps a :class:`vision.hands.ArmWatch` on every ``arm_every``-th frame and
lends it to the watcher (``Watcher.arms``): the arm that reached in says who played
a card a hand covered on its way, and who drew one never seen (docs/watcher.md,
"Arms as evidence"). It costs about 2 ms a frame (``benchmarks/bench_arms.py``).

A frame the picture helpers cannot read (``None``, the wrong shape, a corrupt
buffer) costs their look at that frame only: the error is counted
(``helper_errors``) and kept in ``last_helper_error``; the recogniser and the
watcher carry on.

Unless ``zoom_pile`` is off, a recogniser that can (``detect_focused``, as the
trained one) looks at the discard pile a second time, cut out and enlarged: there
the cards lie on each other and the whole frame shows them too small to box one by
one.

``skip_static`` saves the recogniser's time on a still table: when a frame differs
from the last recognised one by less than camera noise everywhere, the previous
detections are reused.

>>> from vision.calibration import TableLayout
>>> from vision.watcher import Watcher
>>> class Fixed:
...     def detect(self, image):
...         return Detections.from_list([("red-7", 0.9, (300, 200, 350, 277))])
>>> pipe = TablePipeline(Fixed(), Watcher(TableLayout.default(640, 480, 2), ["Ann", "Bob"]))
>>> img = np.zeros((480, 640, 3), np.uint8)
>>> [e for i in range(12) for e in pipe.process(img, i / 30).events]
[{'type': 'flip', 'card': 'red-7'}]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration import TableLayout
from vision.detections import Detections
from vision.hands import ArmWatch
from vision.pile_colors import PileColors
from vision.watcher import Watcher

Image = npt.NDArray[np.uint8]


class Recognizer(Protocol):
    def detect(self, frame_bgr: Image) -> Detections: ...


@runtime_checkable
class FocusingRecognizer(Protocol):
    """A recogniser that can look at one region again up close (the discard pile)."""

    def detect(self, frame_bgr: Image) -> Detections: ...

    def detect_focused(
        self, frame_bgr: Image, region: tuple[float, float, float, float], margin: float
    ) -> Detections: ...


#: How far past the discard zone the close-up of the pile reaches, in card lengths:
#: a card centred on the pile's edge lies whole in the cut-out.
PILE_CUT_MARGIN = 0.6


def detect_at_pile(
    recognizer: FocusingRecognizer, frame_bgr: Image, layout: TableLayout
) -> Detections:
    """The frame's cards with the discard pile looked at again up close, as the
    pipeline asks for them (benchmarks record detections through this too)."""
    zone = layout.discard
    return recognizer.detect_focused(
        frame_bgr, (zone.x1, zone.y1, zone.x2, zone.y2), margin=PILE_CUT_MARGIN * layout.card_px
    )


@dataclass
class PipelineResult:
    """What one frame gave: its detections, the new events, timings."""

    t: float
    detections: Detections
    events: list[dict[str, object]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # when each event happened (Watcher.times)
    detect_ms: float = 0.0
    reused: bool = False  # the frame was still: detections of an earlier frame
    error: str | None = None
    arms_ms: float = 0.0  # the arm watch's look at this frame (0: it did not look)


class TablePipeline:
    """``process(image, t)`` per frame; keeps the last result for overlays."""

    def __init__(
        self,
        recognizer: Recognizer,
        watcher: Watcher,
        *,
        skip_static: bool = False,
        static_threshold: float = 10.0,
        max_reuse_s: float = 0.5,
        read_fan_colors: bool = True,
        zoom_pile: bool = True,
        watch_arms: bool = True,
    ) -> None:
        self.recognizer = recognizer
        self.watcher = watcher
        self.pile_colors: PileColors | None = None
        if read_fan_colors:
            self.pile_colors = PileColors(watcher.calibrated_layout)
            watcher.pile_colors = self.pile_colors
        #: Look for arms every this many frames (0: never), the watcher's ``arm_every``.
        self.arm_every = watcher.cfg.arm_every if watch_arms else 0
        self.arms: ArmWatch | None = None
        if self.arm_every > 0:
            self.arms = ArmWatch(watcher.calibrated_layout)
            watcher.arms = self.arms
        self.skip_static = skip_static
        self.zoom_pile = zoom_pile
        self.static_threshold = static_threshold
        self.max_reuse_s = max_reuse_s
        self.frames = 0
        self.errors = 0
        self.reused = 0
        self.last_error: str | None = None
        #: Frames the picture helpers (pile colours, arms) could not look at.
        self.helper_errors = 0
        self.last_helper_error: str | None = None
        self.last: PipelineResult | None = None
        self._ref_small: npt.NDArray[np.float32] | None = None
        self._ref_t = -1e9
        self._ref_dets = Detections.empty()

    def _small(self, image: Image) -> npt.NDArray[np.float32]:
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        small = cv2.resize(gray, (80, 60), interpolation=cv2.INTER_AREA)
        return small.astype(np.float32)

    def _still(self, small: npt.NDArray[np.float32], t: float) -> bool:
        if self._ref_small is None or t - self._ref_t > self.max_reuse_s:
            return False
        ref = self._ref_small
        # A camera that shakes a little moves the whole picture: undo the shift first.
        (dx, dy), _ = cv2.phaseCorrelate(ref, small)
        if abs(dx) > 1.0 or abs(dy) > 1.0:
            return False  # the camera moved by more than a few pixels: look again
        m = np.array([[1, 0, -dx], [0, 1, -dy]], np.float32)
        aligned = cv2.warpAffine(small, m, (small.shape[1], small.shape[0]))
        # Lighting drifts move every block alike: remove the mean change too. The
        # border, where the shift brings in nothing, is left out.
        d = (aligned - ref)[2:-2, 2:-2]
        diff = np.abs(d - float(np.mean(d)))
        return float(diff.max()) < self.static_threshold

    def _detect(self, image: Image) -> Detections:
        if self.zoom_pile and isinstance(self.recognizer, FocusingRecognizer):
            return detect_at_pile(self.recognizer, image, self.watcher.layout)
        return self.recognizer.detect(image)

    def process(self, image: Image, t: float) -> PipelineResult:
        """Recognise the cards of one frame and update the watcher."""
        self.frames += 1
        self._look_at_pile(image, t)
        arms_ms = self._look_for_arms(image, t)
        try:
            small = self._small(image) if self.skip_static else None
        except Exception:  # not a picture: the recogniser says what is wrong with it
            small = None
        if small is not None and self._still(small, t):
            self.reused += 1
            res = PipelineResult(t, self._ref_dets, reused=True)
        else:
            t0 = time.perf_counter()
            try:
                dets = self._detect(image)
            except Exception as exc:  # a bad frame must not stop the game
                self.errors += 1
                self.last_error = f"{type(exc).__name__}: {exc}"
                res = PipelineResult(t, Detections.empty(), error=self.last_error)
                self.last = res
                return res
            res = PipelineResult(t, dets, detect_ms=(time.perf_counter() - t0) * 1000)
            if small is not None:
                self._ref_small, self._ref_t, self._ref_dets = small, t, dets
        res.arms_ms = arms_ms
        res.events = self.watcher.update(res.detections, t)
        res.times = list(self.watcher.times)
        self.last = res
        return res

    def _helper_failed(self, what: str, exc: Exception) -> None:
        self.helper_errors += 1
        self.last_helper_error = f"{what}: {type(exc).__name__}: {exc}"

    def _look_at_pile(self, image: Image, t: float) -> None:
        """The pile's colours see the frame (a frame they cannot read is skipped)."""
        if self.pile_colors is None:
            return
        # The table set anew; not the pile outgrowing its zone, whose picture
        # (ZONE_MARGIN beyond the zone as calibrated) takes in the grown zone.
        if self.pile_colors.layout != self.watcher.calibrated_layout:
            self.pile_colors = PileColors(self.watcher.calibrated_layout)
            self.watcher.pile_colors = self.pile_colors
        try:
            self.pile_colors.update(image, t)
        except Exception as exc:  # a bad frame must not stop the game
            self._helper_failed("pile colours", exc)

    def _look_for_arms(self, image: Image, t: float) -> float:
        """The arm watch sees every ``arm_every``-th frame; returns its milliseconds."""
        if self.arms is None or (self.frames - 1) % self.arm_every:
            return 0.0
        if self.arms.layout != self.watcher.calibrated_layout:  # the table set anew
            self.arms = ArmWatch(self.watcher.calibrated_layout, self.arms.cfg)
            self.watcher.arms = self.arms
        t0 = time.perf_counter()
        # The light the pile's colours measured (a card's white): in dim light an arm
        # changes the picture less.
        light = self.pile_colors.light if self.pile_colors is not None else 1.0
        try:
            self.arms.update(image, t, light=light)
        except Exception as exc:  # a bad frame must not stop the game
            self._helper_failed("arms", exc)
        return (time.perf_counter() - t0) * 1000
