"""The card recogniser: an oriented-box detector, then a face classifier on each crop.

Stage 1 finds every card (``card`` face up, ``back`` face down) as a rotated
rectangle; stage 2 warps each face-up card upright onto a square (96 x 96, as
``classifier.json`` says) and names it (54 faces). Both stages run with OpenVINO or
ONNX Runtime on the CPU from the files in ``models/`` (PyTorch weights next to them
are the fallback), offline.

>>> rec = CardRecognizer.load()                       # doctest: +SKIP
>>> dets = rec.detect(cv2.imread("table.jpg"))        # doctest: +SKIP
>>> [(d.card, round(d.confidence, 2)) for d in dets]  # doctest: +SKIP
[('red-7', 0.96), ('back', 0.91)]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.box_filter import closeup_boxes_kept, inner_boxes_kept
from vision.deck_head import DeckHead
from vision.detections import Candidates, Detections
from vision.geometry import order_card_corners, warp_crop
from vision.labels import DETECTOR_CLASSES
from vision.model_files import (  # noqa: F401  (re-exported: vision.recognition's names)
    CLASSIFIER_HEAD_FILE,
    CLASSIFIER_META,
    CLASSIFIER_ONNX,
    CLASSIFIER_PT,
    DECK_CLASSIFIER_FILE,
    DECK_FILE,
    DETECTOR_ONNX,
    DETECTOR_PT,
    DIGEST_CHARS,
    DeckCalibration,
    DeckFileError,
    ModelFilesMissing,
    _check_head,
    _classifier_runner,
    _default_onnx_backend,
    _Runner,
    _runtime_runner,
    _torch_runner,
    base_head,
    classifier_digest,
    deck_file,
    is_deck_head,
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


def _normalise(x: F32) -> F32:
    return (x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-8)).astype(np.float32)


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


#: Share of a card's middle that must show green and blue ink for a "back" to be a wild.
WILD_INK = 0.02
WILDS = ("wild", "wild-draw4")


def shows_wild_inks(crop: Image) -> bool:
    """Whether an upright card crop (BGR) shows a wild's face rather than a back.

    Both are black cards with an oval in the middle, and the detector may take a
    wild for a face-down card. A back's oval is red with yellow letters; a wild's
    holds all four colours: green and blue ink in the middle of the card tell them
    apart, whatever the table around it.

    >>> from synth.render.cards import render_card
    >>> [shows_wild_inks(cv2.resize(render_card(c, width=64)[..., :3], (64, 64)))
    ...  for c in ("back", "wild", "wild-draw4")]
    [False, True, True]
    """
    n, m = crop.shape[:2]
    middle = crop[n // 4 : 3 * n // 4, m // 4 : 3 * m // 4]
    hsv = cv2.cvtColor(np.ascontiguousarray(middle), cv2.COLOR_BGR2HSV)
    hue = hsv[..., 0]
    inked = (hsv[..., 1] > 90) & (hsv[..., 2] > 70)
    green = float((inked & (hue >= 40) & (hue <= 85)).mean())
    blue = float((inked & (hue >= 95) & (hue <= 130)).mean())
    return min(green, blue) >= WILD_INK


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


Box = tuple[float, float, float, float]


def _xyxy(corners: F32, shape: tuple[int, ...]) -> F32:
    """Axis-aligned boxes of ``corners`` (n, 4, 2), clipped to a frame of ``shape``."""
    if len(corners) == 0:
        return np.zeros((0, 4), np.float32)
    h, w = shape[:2]
    box = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    return np.clip(box, 0, [w, h, w, h]).astype(np.float32)


def focus_roi(region: Box, margin: float, shape: tuple[int, ...]) -> Box:
    """The whole-pixel cut-out around ``region``, ``margin`` pixels wider, inside the frame."""
    h, w = shape[:2]
    x0, y0, x1, y1 = region
    return (
        float(max(0, int(x0 - margin))),
        float(max(0, int(y0 - margin))),
        float(min(w, int(np.ceil(x1 + margin)))),
        float(min(h, int(np.ceil(y1 + margin)))),
    )


def focus_merge(
    whole: F32, near: F32, region: Box, roi: Box, shape: tuple[int, ...], edge: float = 2.0
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Which boxes (``xyxy``) of the whole frame and of the close look at ``roi`` to keep.

    Inside ``region`` the close look decides; a box it cut at the cut-out's edge
    (not the frame's) is a card only partly in view and is left out. Outside, the
    whole frame decides, less its boxes that a kept close box already covers (a
    card lying across the region's edge).

    >>> whole = np.float32([[10, 10, 30, 40], [100, 100, 160, 160]])
    >>> near = np.float32([[105, 100, 135, 145], [50, 60, 80, 110], [41, 90, 61, 130]])
    >>> keep, take = focus_merge(whole, near, (50, 50, 200, 200), (40, 40, 210, 210), (480, 640))
    >>> keep.tolist(), take.tolist()
    ([True, False], [True, True, False])
    """
    x0, y0, x1, y1 = region

    def centred_in(b: F32) -> npt.NDArray[np.bool_]:
        cx, cy = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
        return (cx >= x0) & (cx <= x1) & (cy >= y0) & (cy <= y1)

    h, w = shape[:2]
    rx0, ry0, rx1, ry1 = roi
    cut = np.zeros(len(near), bool)
    if rx0 > 0:
        cut |= near[:, 0] <= rx0 + edge
    if ry0 > 0:
        cut |= near[:, 1] <= ry0 + edge
    if rx1 < w:
        cut |= near[:, 2] >= rx1 - edge
    if ry1 < h:
        cut |= near[:, 3] >= ry1 - edge
    take = centred_in(near) & ~cut
    keep = ~centred_in(whole)
    if take.any() and keep.any():
        a, b = whole[:, None, :], near[take][None, :, :]
        iw = np.clip(np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]), 0, None)
        ih = np.clip(np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]), 0, None)
        inter = iw * ih
        area_a = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
        area_b = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
        iou = inter / np.maximum(area_a + area_b - inter, 1e-6)
        keep &= iou.max(axis=1) < 0.5
    return keep, take


def _checked_frame(frame_bgr: Image) -> Image:
    if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise ValueError("detect() needs a BGR image of shape (h, w, 3)")
    if frame_bgr.dtype != np.uint8:
        return np.clip(frame_bgr, 0, 255).astype(np.uint8)
    return frame_bgr


class CardRecognizer:
    """Frames in, :class:`~vision.detections.Detections` out (canonical card names).

    ``conf`` is the detector's minimum confidence; the reported confidence of a face
    is the detector's times the classifier's.
    """

    def __init__(
        self,
        detector: _Runner,
        classifier: _Runner,
        face_names: tuple[str, ...],
        *,
        det_imgsz: int = 320,
        cls_imgsz: int = 64,
        conf: float = 0.35,
        iou: float = 0.5,
        calibration: DeckCalibration | None = None,
        backend: str = "onnx",
        head: DeckHead | None = None,
    ) -> None:
        self.finder = CardFinder(detector, det_imgsz, conf, iou)
        self._classifier = classifier
        self.face_names = face_names
        self.det_imgsz = det_imgsz
        self.cls_imgsz = cls_imgsz
        self.conf = conf
        self.iou = iou
        self.backend = backend
        self.pad_retry = True  # look again with a margin when nothing is found
        # One box per card (vision.box_filter, models/README.md). A close-up card boxed
        # again and read as the same face is dropped (on by default: on one-card photos
        # it takes most second boxes away; a table seen from above never has a card
        # that large). A box inside a much larger one is dropped only when asked: in
        # the pile's close look a heap boxed whole would take its top card's box away.
        self.drop_closeup_twins = True
        self.drop_inner_boxes = False
        self.n_candidates = 3  # faces reported per detection (Detections.candidates)
        self.close_conf = 0.7  # least confidence of a card found up close (detect_focused)
        self.calibration: DeckCalibration | None = None
        self._calib_index: npt.NDArray[np.intp] | None = None
        if calibration is not None:
            self.set_calibration(calibration)
        self.head: DeckHead | None = None
        #: The classifier file read (``classifier.onnx``, or a deck's ``deck.onnx``).
        self.classifier_file: Path | None = None
        if head is not None:
            self.set_head(head)

    @classmethod
    def load(
        cls,
        models_dir: Path | str | None = None,
        *,
        backend: str = "auto",
        calibration: Path | str | None = None,
        conf: float = 0.35,
        use_deck: bool = True,
    ) -> CardRecognizer:
        """Load the committed recogniser from ``models_dir`` (default: the repo's ``models/``).

        ``backend`` is ``openvino`` or ``onnx`` (ONNX Runtime), both reading the ONNX files,
        ``torch`` (the ``.pt`` weights) or ``auto``: OpenVINO when installed and the ONNX
        files are there (the fastest on this CPU), else ONNX Runtime, else PyTorch.
        ``calibration`` is a file written by ``uno-table calibrate-deck``: a ``.onnx``
        classifier fitted to the deck, used in place of ``classifier.onnx``, or a
        ``.npz`` read-out; by default ``models/deck.onnx``, else ``models/deck.npz``, is
        used when it exists (``use_deck=False``: none, the recogniser as shipped). The
        read-out of the classifier is the deck's head when the calibration is one
        (:class:`~vision.deck_head.DeckHead`, ``calibrate-deck --head``; one fitted on
        another classifier raises :class:`DeckFileError`), else the classifier's own
        last layer.
        """
        root = Path(models_dir) if models_dir is not None else MODELS_DIR
        meta_path = root / CLASSIFIER_META
        if not meta_path.exists():
            raise ModelFilesMissing(
                f"no {CLASSIFIER_META} in {root}: the recogniser is not trained"
            )
        meta = json.loads(meta_path.read_text())
        names = tuple(str(n) for n in meta["names"])
        if backend == "auto":
            has_onnx = (root / DETECTOR_ONNX).exists() and (root / CLASSIFIER_ONNX).exists()
            backend = _default_onnx_backend() if has_onnx else "torch"
        if backend in ("onnx", "openvino"):
            files = (root / DETECTOR_ONNX, root / CLASSIFIER_ONNX)
        elif backend == "torch":
            files = (root / DETECTOR_PT, root / CLASSIFIER_PT)
        else:
            raise ValueError(f"unknown backend {backend!r}: openvino, onnx, torch or auto")
        for f in files:
            if not f.exists():
                raise ModelFilesMissing(f"missing model file {f}")
        if backend in ("onnx", "openvino"):
            det, clf = _runtime_runner(files[0], backend), _runtime_runner(files[1], backend)
        else:
            det, clf = _torch_runner(files[0], "obb"), _torch_runner(files[1], "classify")
        clf_file = files[1]
        calib_path = deck_file(root) if calibration is None else Path(calibration)
        if not use_deck:
            calib_path = None
        calib = None
        head = None
        if calib_path is not None and calib_path.suffix == ".onnx":
            if not calib_path.exists():
                raise ModelFilesMissing(f"missing deck classifier {calib_path}")
            imgsz = int(meta.get("imgsz", 64))
            clf = _classifier_runner(calib_path, backend, len(names), imgsz)
            clf_file = calib_path
        elif calib_path is not None:
            if is_deck_head(calib_path):
                head = DeckHead.load(calib_path)
                _check_head(head, calib_path, root / CLASSIFIER_ONNX)
            else:
                calib = DeckCalibration.load(calib_path)
        rec = cls(
            det,
            clf,
            names,
            det_imgsz=int(meta.get("det_imgsz", 320)),
            cls_imgsz=int(meta.get("imgsz", 64)),
            conf=conf,
            calibration=calib,
            backend=backend,
            head=head,
        )
        rec.classifier_file = clf_file
        return rec

    # ------------------------------------------------------------------ calibration
    def set_calibration(self, calibration: DeckCalibration | None) -> None:
        """Use (or, with None, stop using) a deck calibration."""
        self.calibration = calibration
        if calibration is None:
            self._calib_index = None
            return
        index = {n: i for i, n in enumerate(self.face_names)}
        unknown = [n for n in calibration.names if n not in index]
        if unknown:
            raise ValueError(f"calibration names unknown to the classifier: {unknown}")
        self._calib_index = np.array([index[n] for n in calibration.names], np.intp)

    def set_head(self, head: DeckHead | None) -> None:
        """Read the classifier's embedding with ``head`` (None: its own last layer)."""
        if head is not None and tuple(head.names) != tuple(self.face_names):
            raise ValueError("the head's faces are not the classifier's (another model?)")
        self.head = head

    def use_classifier(self, path: Path) -> None:
        """Classify with the ONNX classifier at ``path`` from now on (a deck's
        ``deck.onnx``, or ``classifier.onnx`` again); its faces must be this one's."""
        runner = _classifier_runner(Path(path), self.backend, len(self.face_names), self.cls_imgsz)
        self._classifier = runner
        self.classifier_file = Path(path)

    # ------------------------------------------------------------------ stages
    def find_cards(self, frame: Image) -> tuple[F32, F32, npt.NDArray[np.intp]]:
        """Stage 1: corners ``(n, 4, 2)`` (TL TR BR BL), confidences, classes (0 card, 1 back)."""
        self.finder.conf, self.finder.iou = self.conf, self.iou
        return self.finder.find_cards(frame)

    def crops(self, frame: Image, corners: F32) -> Image:
        """Upright ``cls_imgsz`` squares of the cards at ``corners`` (n, 4, 2)."""
        if len(corners) == 0:
            return np.zeros((0, self.cls_imgsz, self.cls_imgsz, 3), np.uint8)
        return np.stack([warp_crop(frame, c, self.cls_imgsz) for c in corners])

    def classify_crops(self, crops: Image) -> tuple[F32, F32]:
        """Stage 2 on BGR crops: face probabilities (n, 54) and embeddings (n, C).

        Each crop is classified upright and turned half a turn (the detector cannot
        tell a card's top from its bottom) and the two answers averaged.
        """
        n = len(crops)
        if n == 0:
            return np.zeros((0, len(self.face_names)), np.float32), np.zeros((0, 1), np.float32)
        both = np.concatenate([crops, crops[:, ::-1, ::-1]], axis=0)
        x = both[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
        probs, emb = self._classifier(np.ascontiguousarray(x))
        if self.head is not None:
            probs = self.head.predict(emb)
        probs = (probs[:n] + probs[n:]) / 2
        emb = _normalise(_normalise(emb[:n]) + _normalise(emb[n:]))
        if self.calibration is not None and self._calib_index is not None:
            cal = self.calibration
            sims = emb @ cal.prototypes.T * cal.temperature
            sims = np.exp(sims - sims.max(axis=1, keepdims=True))
            sims /= sims.sum(axis=1, keepdims=True)
            calib_probs = np.zeros_like(probs)
            calib_probs[:, self._calib_index] = sims
            probs = (1 - cal.weight) * probs + cal.weight * calib_probs
        return probs.astype(np.float32), emb

    def embed_crops(self, crops: Image) -> F32:
        """Raw classifier embeddings ``(n, C)`` of BGR crops, as they are (no half turn)."""
        if len(crops) == 0:
            return np.zeros((0, 1), np.float32)
        x = crops[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
        return np.asarray(self._classifier(np.ascontiguousarray(x))[1], np.float32)

    def _read_wilds_taken_for_backs(
        self,
        frame_bgr: Image,
        corners: F32,
        backs: npt.NDArray[np.intp],
        conf: F32,
        names: list[str],
        scores: F32,
        candidates: list[Candidates],
    ) -> None:
        """Name the boxes found as backs that show a wild's inks (see
        :func:`shows_wild_inks`) as the likelier of the two wilds, in place."""
        crops = self.crops(frame_bgr, corners[backs])
        wild = [j for j in range(len(backs)) if shows_wild_inks(crops[j])]
        if not wild:
            return
        probs, _ = self.classify_crops(crops[wild])
        cols = [self.face_names.index(w) for w in WILDS]
        for j, p in zip(wild, probs[:, cols], strict=True):
            share = p / max(float(p.sum()), 1e-6)
            i = int(backs[j])
            best = int(share.argmax())
            names[i] = WILDS[best]
            scores[i] = conf[i] * float(share[best])
            candidates[i] = tuple((WILDS[k], round(float(share[k]), 4)) for k in np.argsort(-share))

    def detect_focused(self, frame_bgr: Image, region: Box, margin: float = 40.0) -> Detections:
        """:meth:`detect`, with ``region`` (x0, y0, x1, y1) looked at again up close.

        The detector sees the whole frame at ``det_imgsz`` (320) pixels, where a card
        of a 640x480 table view is some 38 pixels long; on a heap of such cards it
        often boxes the heap, or the top card and the one under it as one, and the
        crop then shows the top card sideways. Cut out with ``margin`` pixels around
        it, the discard pile fills the detector's input and its cards come out more
        than twice as large, boxed one by one. The two looks are joined by
        :func:`focus_merge`.
        """
        frame_bgr = _checked_frame(frame_bgr)
        corners, conf, cls_id = self._find(frame_bgr)
        roi = focus_roi(region, margin, frame_bgr.shape)
        cx0, cy0, cx1, cy1 = (int(v) for v in roi)
        if cx1 - cx0 >= 8 and cy1 - cy0 >= 8:
            near, near_conf, near_cls = self._find(
                np.ascontiguousarray(frame_bgr[cy0:cy1, cx0:cx1])
            )
            near = (near + np.array([cx0, cy0], np.float32)).astype(np.float32)
            shape = frame_bgr.shape
            keep, take = focus_merge(_xyxy(corners, shape), _xyxy(near, shape), region, roi, shape)
            n_whole = int(keep.sum())
            both = self._read(
                frame_bgr,
                np.concatenate([corners[keep], near[take]]).astype(np.float32),
                np.concatenate([conf[keep], near_conf[take]]).astype(np.float32),
                np.concatenate([cls_id[keep], near_cls[take]]),
            )
            # Up close the detector also boxes cards half under the top one; their
            # crops, mostly the card over them, read as that card or anything.
            sure = both.confidence >= self.close_conf
            sure[:n_whole] = True
            return both[sure].sorted_by_confidence()
        return self._read(frame_bgr, corners, conf, cls_id).sorted_by_confidence()

    def _find(self, frame_bgr: Image) -> tuple[F32, F32, npt.NDArray[np.intp]]:
        """Stage 1 with its retry and, with ``drop_inner_boxes``, no box for a part of
        a card (:func:`vision.box_filter.inner_boxes_kept`): the cards' corners,
        confidences and classes."""
        corners, conf, cls_id = self.find_cards(frame_bgr)
        if self.pad_retry and _needs_margin(corners, cls_id, frame_bgr.shape):
            # A card filling the picture (a scan, a close-up) has little table around
            # it, unlike the training scenes, and comes out unfound or boxed out of
            # shape: look again with a grey margin added.
            h0, w0 = frame_bgr.shape[:2]
            pad = max(8, int(0.15 * max(h0, w0)))
            padded = cv2.copyMakeBorder(
                frame_bgr, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(114, 114, 114)
            )
            again = self.find_cards(padded)
            if len(conf) == 0 or _has_card_shape(again[0], again[2]):
                corners = (again[0] - np.float32(pad)).astype(np.float32)
                conf, cls_id = again[1], again[2]
        if self.drop_inner_boxes:
            keep = inner_boxes_kept(corners, cls_id)
            corners, conf, cls_id = corners[keep], conf[keep], cls_id[keep]
        return corners, conf, cls_id

    def detect(self, frame_bgr: Image) -> Detections:
        """Every card in a BGR frame: canonical names (``back`` when face down); one
        box per card (:mod:`vision.box_filter`): a close-up card boxed again as the same
        face is dropped (``drop_closeup_twins``), and with ``drop_inner_boxes`` the
        parts of a card boxed as cards."""
        frame_bgr = _checked_frame(frame_bgr)
        dets = self._read(frame_bgr, *self._find(frame_bgr))
        if self.drop_closeup_twins and dets.corners is not None and len(dets):
            dets = dets[
                closeup_boxes_kept(dets.corners, dets.confidence, dets.card, frame_bgr.shape)
            ]
        return dets.sorted_by_confidence()

    def _read(
        self, frame_bgr: Image, corners: F32, conf: F32, cls_id: npt.NDArray[np.intp]
    ) -> Detections:
        """Stage 2: the found cards named, as :class:`Detections`."""
        n = len(conf)
        if n == 0:
            return Detections.empty()
        names = ["back"] * n
        scores = conf.copy()
        candidates: list[Candidates] = [()] * n
        faces = np.nonzero(cls_id == 0)[0]
        backs = np.nonzero(cls_id == 1)[0]
        if len(backs):
            self._read_wilds_taken_for_backs(
                frame_bgr, corners, backs, conf, names, scores, candidates
            )
        if len(faces):
            probs, _ = self.classify_crops(self.crops(frame_bgr, corners[faces]))
            ranked = np.argsort(-probs, axis=1)[:, : self.n_candidates]
            for j, i in enumerate(faces):
                best = int(ranked[j, 0])
                names[i] = self.face_names[best]
                scores[i] = conf[i] * probs[j, best]
                candidates[i] = tuple(
                    (self.face_names[int(k)], round(float(probs[j, k]), 4)) for k in ranked[j]
                )
        xyxy = _xyxy(corners, frame_bgr.shape)
        return Detections(xyxy, scores.astype(np.float32), tuple(names), corners, tuple(candidates))
