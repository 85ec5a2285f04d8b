"""The oracle: a stand-in recogniser that reads a rendered video's true boxes, to
measure the watcher apart from the model (docs/watcher.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from synth.render.cards import FACES
from vision.detections import Detections

Image = npt.NDArray[np.uint8]


class OracleDetector:
    """A stand-in recogniser that reads the renderer's ground-truth boxes.

    It measures the watcher apart from the model: cards at least ``min_visible``
    uncovered are reported with their true name, with small box jitter, a few
    dropped detections (``drop``) and a few wrong labels (``mislabel``), as a good
    detector would. Call :meth:`seek` with the frame index before :meth:`detect`.
    """

    def __init__(
        self,
        boxes_path: str | Path,
        *,
        seed: int = 0,
        min_visible: float = 0.4,
        drop: float = 0.02,
        mislabel: float = 0.01,
        jitter_px: float = 1.0,
    ) -> None:
        self.frames: list[list[tuple[str, float, list[float]]]] = []
        with Path(boxes_path).open() as f:
            for line in f:
                row = json.loads(line)
                self.frames.append([(c[0], float(c[1]), c[2]) for c in row["cards"]])
        self.rng = np.random.default_rng(seed)
        self.min_visible = min_visible
        self.drop = drop
        self.mislabel = mislabel
        self.jitter_px = jitter_px
        self.index = 0

    def seek(self, index: int) -> None:
        self.index = index

    def detect(self, frame_bgr: Image) -> Detections:
        rows = self.frames[self.index] if 0 <= self.index < len(self.frames) else []
        self.index += 1
        out: list[tuple[str, float, list[float]]] = []
        for name, vis, box in rows:
            if vis < self.min_visible or self.rng.random() < self.drop:
                continue
            label = name
            if name != "back" and self.rng.random() < self.mislabel:
                label = str(self.rng.choice(FACES))
            jit = self.rng.normal(0, self.jitter_px, 4)
            # A partly covered card gets a lower confidence, as from a real detector.
            conf = float(self.rng.uniform(0.75, 0.98)) * (0.5 + 0.5 * vis)
            out.append((label, conf, [float(b + j) for b, j in zip(box, jit, strict=True)]))
        return Detections.from_list(out)
