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

from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.box_filter import closeup_boxes_kept, inner_boxes_kept
from vision.card_finder import (  # noqa: F401  (re-exported: vision.recognition's names)
    F32,
    CardFinder,
    Image,
    Letterbox,
    _card_shaped,
    _has_card_shape,
    _needs_margin,
)
from vision.deck_head import DeckHead
from vision.detections import Candidates, Detections
from vision.exposure import LightBalance
from vision.focus import Box, _xyxy, covered_by_surer, focus_merge, focus_roi
from vision.geometry import order_card_corners, warp_crop  # noqa: F401  (re-exported)
from vision.labels import DETECTOR_CLASSES  # noqa: F401  (re-exported)
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
from vision.model_set import load_model_set
from vision.wild_inks import (  # noqa: F401  (re-exported)
    WILD_INK,
    WILDS,
    back_shows,
    shows_wild_inks,
)
from vision.yolo_env import MODELS_DIR  # noqa: F401  (re-exported)


def _normalise(x: F32) -> F32:
    return (x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-8)).astype(np.float32)


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
        # ... or this much, for a close box no surer close box covers close_cover_share
        # of (a top card read unsurely in dim light, not a card half under another)
        self.close_alone_conf = 0.5
        self.close_cover_share = 0.3
        # The table's frames (detect_focused) are read with their light evened out
        # (vision.exposure); None: as they come. Photos (detect) are read as they are.
        self.light_balance: LightBalance | None = LightBalance()
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
        models = load_model_set(
            models_dir, backend=backend, calibration=calibration, use_deck=use_deck
        )
        rec = cls(
            models.detector,
            models.classifier,
            models.face_names,
            det_imgsz=models.det_imgsz,
            cls_imgsz=models.cls_imgsz,
            conf=conf,
            calibration=models.calibration,
            backend=models.backend,
            head=models.head,
        )
        rec.classifier_file = models.classifier_file
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

    def _faces_taken_for_backs(
        self,
        frame_bgr: Image,
        corners: F32,
        backs: npt.NDArray[np.intp],
        conf: F32,
        names: list[str],
        scores: F32,
        candidates: list[Candidates],
    ) -> npt.NDArray[np.intp]:
        """The boxes found as backs that show a face's inks (:mod:`vision.wild_inks`).

        Those with a wild's inks are named, in place, as the likelier of the two wilds;
        those with a green or blue face's inks (a card darkened by dim or warm light)
        are returned, for the classifier to name as any face.
        """
        crops = self.crops(frame_bgr, corners[backs])
        shows = [back_shows(crop) for crop in crops]
        wild = [j for j, what in enumerate(shows) if what == "wild"]
        inked = [j for j, what in enumerate(shows) if what == "face"]
        if wild:
            probs, _ = self.classify_crops(crops[wild])
            cols = [self.face_names.index(w) for w in WILDS]
            for j, p in zip(wild, probs[:, cols], strict=True):
                share = p / max(float(p.sum()), 1e-6)
                i = int(backs[j])
                best = int(share.argmax())
                names[i] = WILDS[best]
                scores[i] = conf[i] * float(share[best])
                candidates[i] = tuple(
                    (WILDS[k], round(float(share[k]), 4)) for k in np.argsort(-share)
                )
        return backs[inked]

    def detect_focused(self, frame_bgr: Image, region: Box, margin: float = 40.0) -> Detections:
        """:meth:`detect`, with ``region`` (x0, y0, x1, y1) looked at again up close.

        The detector sees the whole frame at ``det_imgsz`` (320) pixels, where a card
        of a 640x480 table view is some 38 pixels long; on a heap of such cards it
        often boxes the heap, or the top card and the one under it as one, and the
        crop then shows the top card sideways. Cut out with ``margin`` pixels around
        it, the discard pile fills the detector's input and its cards come out more
        than twice as large, boxed one by one. The two looks are joined by
        :func:`focus_merge`. The frame is read with its light evened out
        (``light_balance``, :mod:`vision.exposure`): a dim or lamp-lit table's cards
        come to the detector as in the house light.
        """
        frame_bgr = _checked_frame(frame_bgr)
        if self.light_balance is not None:
            frame_bgr = self.light_balance(frame_bgr)
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
            # crops, mostly the card over them, read as that card or anything: an
            # unsure close box is kept only if read at even odds or better and no
            # surer close box covers it (the top card in dim light, a wild).
            close_scores = both.confidence[n_whole:]
            alone = (close_scores >= self.close_alone_conf) & ~covered_by_surer(
                both.xyxy[n_whole:], close_scores, self.close_cover_share
            )
            sure = np.concatenate(
                [np.ones(n_whole, bool), (close_scores >= self.close_conf) | alone]
            )
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
            inked = self._faces_taken_for_backs(
                frame_bgr, corners, backs, conf, names, scores, candidates
            )
            faces = np.sort(np.concatenate([faces, inked]))
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
