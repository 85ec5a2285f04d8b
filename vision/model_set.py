"""What one recogniser reads from the model folder: its backend, runners and deck.

:func:`load_model_set` picks the backend (OpenVINO, ONNX Runtime or PyTorch), opens
the detector and the classifier (a deck's ``deck.onnx`` in place of the classifier
when there is one) and reads the deck's read-out head or prototypes;
:meth:`vision.recognition.CardRecognizer.load` builds the recogniser from them. The
files themselves are :mod:`vision.model_files`'s.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from vision.deck_head import DeckHead
from vision.model_files import (
    CLASSIFIER_META,
    CLASSIFIER_ONNX,
    CLASSIFIER_PT,
    DETECTOR_ONNX,
    DETECTOR_PT,
    DeckCalibration,
    ModelFilesMissing,
    _check_head,
    _classifier_runner,
    _default_onnx_backend,
    _Runner,
    _runtime_runner,
    _torch_runner,
    deck_file,
    is_deck_head,
)
from vision.yolo_env import MODELS_DIR


@dataclass(frozen=True)
class ModelSet:
    """The runners and settings a :class:`~vision.recognition.CardRecognizer` is built from."""

    detector: _Runner
    classifier: _Runner
    face_names: tuple[str, ...]
    det_imgsz: int
    cls_imgsz: int
    backend: str
    calibration: DeckCalibration | None
    head: DeckHead | None
    #: The classifier file read (``classifier.onnx``, or a deck's ``deck.onnx``).
    classifier_file: Path


def load_model_set(
    models_dir: Path | str | None = None,
    *,
    backend: str = "auto",
    calibration: Path | str | None = None,
    use_deck: bool = True,
) -> ModelSet:
    """The files of ``models_dir`` (default: the repo's ``models/``) opened for
    ``backend``, with the deck's calibration: see
    :meth:`vision.recognition.CardRecognizer.load` for the arguments and what is
    raised."""
    root = Path(models_dir) if models_dir is not None else MODELS_DIR
    meta_path = root / CLASSIFIER_META
    if not meta_path.exists():
        raise ModelFilesMissing(f"no {CLASSIFIER_META} in {root}: the recogniser is not trained")
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
    return ModelSet(
        det,
        clf,
        names,
        det_imgsz=int(meta.get("det_imgsz", 320)),
        cls_imgsz=int(meta.get("imgsz", 64)),
        backend=backend,
        calibration=calib,
        head=head,
        classifier_file=clf_file,
    )
