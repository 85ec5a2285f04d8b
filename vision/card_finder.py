"""Stage 1 of the recogniser: the oriented-box detector of cards (face up) and backs.

:class:`CardFinder` letterboxes a frame into the detector's square input
(:class:`Letterbox`), runs the detector and a rotated NMS (OpenCV) and gives each card
as four corners in the frame. A card filling the picture (a scan, a close-up) comes
out unfound or boxed out of a card's shape; :func:`_needs_margin` says when the
recogniser should look again with a margin around the frame.

>>> finder = CardFinder.load()                      # doctest: +SKIP
>>> corners, conf, cls_id = finder.find_cards(frame)  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import order_card_corners
from vision.labels import DETECTOR_CLASSES
from vision.model_files import (
    DETECTOR_ONNX,
    DETECTOR_PT,
    ModelFilesMissing,
    _default_onnx_backend,
    _Runner,
    _runtime_runner,
    _torch_runner,
)
from vision.yolo_env import MODELS_DIR

Image = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]


@dataclass
class Letterbox:
    """How a frame was scaled and padded into the detector's square input."""

    scale: float
    left: int
    top: int

    @classmethod
    def apply(cls, frame: Image, size: int) -> tuple[Image, Letterbox]:
        h, w = frame.shape[:2]
        r = min(size / h, size / w)
        nw, nh = round(w * r), round(h * r)
        resized = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_LINEAR)
        left, top = (size - nw) // 2, (size - nh) // 2
        out = np.full((size, size, 3), 114, np.uint8)
        out[top : top + nh, left : left + nw] = resized
        return out, cls(r, left, top)

    def to_frame(self, pts: F32) -> F32:
        return ((pts - np.float32([self.left, self.top])) / self.scale).astype(np.float32)


class CardFinder:
    """Stage 1 alone: the oriented-box detector of cards (face up) and backs.

    >>> finder = CardFinder.load()                      # doctest: +SKIP
    >>> corners, conf, cls_id = finder.find_cards(frame)  # doctest: +SKIP
    """

    def __init__(
        self, detector: _Runner, imgsz: int = 320, conf: float = 0.35, iou: float = 0.5
    ) -> None:
        self._detector = detector
        self.det_imgsz = imgsz
        self.conf = conf
        self.iou = iou

    @classmethod
    def load(
        cls, models_dir: Path | str | None = None, *, imgsz: int = 320, conf: float = 0.35
    ) -> CardFinder:
        root = Path(models_dir) if models_dir is not None else MODELS_DIR
        if (root / DETECTOR_ONNX).exists():
            runner = _runtime_runner(root / DETECTOR_ONNX, _default_onnx_backend())
            return cls(runner, imgsz, conf)
        if (root / DETECTOR_PT).exists():
            return cls(_torch_runner(root / DETECTOR_PT, "obb"), imgsz, conf)
        raise ModelFilesMissing(f"no {DETECTOR_ONNX} or {DETECTOR_PT} in {root}")

    def find_cards(self, frame: Image) -> tuple[F32, F32, npt.NDArray[np.intp]]:
        """Stage 1: corners ``(n, 4, 2)`` (TL TR BR BL), confidences, classes (0 card, 1 back)."""
        boxed, lb = Letterbox.apply(frame, self.det_imgsz)
        x = boxed[..., ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
        out = self._detector(np.ascontiguousarray(x))[0][0]  # (4 + nc + 1, anchors)
        nc = len(DETECTOR_CLASSES)
        scores = out[4 : 4 + nc]
        cls_id = scores.argmax(0)
        conf = scores.max(0)
        keep = conf >= self.conf
        if not keep.any():
            return np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, np.intp)
        boxes = out[:4, keep].T
        angles = np.degrees(out[4 + nc, keep])
        conf, cls_id = conf[keep], cls_id[keep]
        rects = [
            ((float(b[0]), float(b[1])), (float(b[2]), float(b[3])), float(a))
            for b, a in zip(boxes, angles, strict=True)
        ]
        idx = cv2.dnn.NMSBoxesRotated(rects, conf.tolist(), self.conf, self.iou)
        idx = np.array(idx, np.intp).reshape(-1)
        corners = (
            np.stack(
                [
                    order_card_corners(lb.to_frame(cv2.boxPoints(rects[i]).astype(np.float32)))
                    for i in idx
                ]
            )
            if len(idx)
            else np.zeros((0, 4, 2), np.float32)
        )
        return corners.astype(np.float32), conf[idx].astype(np.float32), cls_id[idx]


def _card_shaped(quad: F32) -> bool:
    """Whether a box has a card's proportions (2:3, with room for a tilted camera)."""
    w = float(np.linalg.norm(quad[1] - quad[0]))
    h = float(np.linalg.norm(quad[2] - quad[1]))
    return 1.25 <= max(w, h) / max(min(w, h), 1e-6) <= 1.85


def _has_card_shape(corners: F32, cls_id: npt.NDArray[np.intp]) -> bool:
    return any(_card_shaped(q) for q, k in zip(corners, cls_id, strict=True) if k == 0)


def _needs_margin(corners: F32, cls_id: npt.NDArray[np.intp], shape: tuple[int, ...]) -> bool:
    """Nothing found, or only large face boxes out of a card's shape (a close-up)."""
    if len(corners) == 0:
        return True
    if _has_card_shape(corners, cls_id):
        return False
    largest = max(float(cv2.contourArea(q)) for q in corners)
    return largest >= 0.1 * shape[0] * shape[1]
