"""The recogniser's files: where they are, how each is read, and a deck's calibration.

The model folder (``models/``) holds the detector and the classifier as ONNX files
(read with OpenVINO or ONNX Runtime) and PyTorch weights (the fallback), and the
user's deck when one was calibrated: ``deck.onnx`` (a classifier fitted to the deck)
or ``deck.npz`` (a read-out head, or older prototypes). A head names the classifier it
reads (:func:`classifier_digest`); one fitted on another classifier is refused.

>>> DIGEST_CHARS
16
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from vision.deck_head import DeckHead
from vision.yolo_env import MODELS_DIR

F32 = npt.NDArray[np.float32]

DETECTOR_ONNX = "detector.onnx"
DETECTOR_PT = "detector.pt"
CLASSIFIER_ONNX = "classifier.onnx"
CLASSIFIER_PT = "classifier.pt"
CLASSIFIER_META = "classifier.json"


class ModelFilesMissing(FileNotFoundError):
    """The models folder lacks the recogniser's weights."""


class DeckFileError(ValueError):
    """A deck calibration file that cannot be read (the message names it)."""


log = logging.getLogger(__name__)


class _Runner(Protocol):
    def __call__(self, batch: F32) -> list[F32]: ...


def _threads() -> int:
    env = os.environ.get("UNO_TABLE_THREADS")
    return int(env) if env else max(1, min(4, os.cpu_count() or 1))


def _onnx_runner(path: Path) -> _Runner:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = _threads()
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name

    def run(batch: F32) -> list[F32]:
        return [np.asarray(o, np.float32) for o in session.run(None, {name: batch})]

    return run


def _openvino_runner(path: Path) -> _Runner:
    """OpenVINO compiled straight from the ONNX file: about twice ONNX Runtime's speed here.

    In 32-bit floats, as trained and as the other runtimes read: on a CPU with bfloat16
    units (AMX, AVX-512 BF16) OpenVINO would otherwise compute in bfloat16 by default,
    and its answers would drift from ONNX Runtime's by a part in a thousand, more than
    the tests allow, and differ from one laptop to the next.
    """
    import openvino as ov

    core = ov.Core()
    compiled = core.compile_model(
        str(path),
        "CPU",
        {
            "PERFORMANCE_HINT": "LATENCY",
            "INFERENCE_NUM_THREADS": _threads(),
            "INFERENCE_PRECISION_HINT": "f32",
        },
    )
    request = compiled.create_infer_request()
    outputs = list(compiled.outputs)

    def run(batch: F32) -> list[F32]:
        result = request.infer({0: batch})
        return [np.asarray(result[o], np.float32) for o in outputs]

    return run


def _runtime_runner(path: Path, backend: str) -> _Runner:
    return _openvino_runner(path) if backend == "openvino" else _onnx_runner(path)


def _classifier_runner(path: Path, backend: str, n_faces: int, imgsz: int) -> _Runner:
    """A classifier read from an ONNX file in place of the shipped one (a deck's), checked
    to name ``n_faces`` faces; a file that cannot serve raises :class:`DeckFileError`."""
    try:
        runner = _runtime_runner(path, backend if backend in ("onnx", "openvino") else "onnx")
        probs = runner(np.zeros((1, 3, imgsz, imgsz), np.float32))[0]
    except Exception as exc:  # a truncated or foreign file: say which and what to do
        raise DeckFileError(
            f"cannot read the classifier {path} ({exc}); run calibrate-deck again or "
            "delete the file"
        ) from exc
    if probs.shape[-1] != n_faces:
        raise DeckFileError(f"{path} names {probs.shape[-1]} faces, not {n_faces}")
    return runner


def _default_onnx_backend() -> str:
    try:
        import openvino  # noqa: F401
    except ImportError:
        return "onnx"
    return "openvino"


def _torch_runner(path: Path, task: str) -> _Runner:
    import torch
    from ultralytics import YOLO

    import vision  # noqa: F401  (ultralytics environment)

    net = YOLO(str(path), task=task).model.float().eval()
    if task == "classify":
        layers = list(net.model)
        body, head = torch.nn.Sequential(*layers[:-1]), layers[-1]

        def forward(x: torch.Tensor) -> list[torch.Tensor]:
            feats = head.pool(head.conv(body(x))).flatten(1)
            return [head.linear(feats).softmax(1), feats]

    else:

        def forward(x: torch.Tensor) -> list[torch.Tensor]:
            y = net(x)
            return [y[0] if isinstance(y, (tuple, list)) else y]

    def run(batch: F32) -> list[F32]:
        with torch.inference_mode():
            return [o.numpy().astype(np.float32) for o in forward(torch.from_numpy(batch))]

    return run


@dataclass
class DeckCalibration:
    """Per-face prototypes (mean classifier embeddings) of one physical deck.

    At recognition time the classifier's probabilities are mixed with a softmax over
    the cosine similarity to these prototypes, so a deck the renderer never drew is
    recognised from a photo or two per face.
    """

    names: tuple[str, ...]
    prototypes: F32  # (n, C), L2-normalised
    weight: float = 0.5
    temperature: float = 20.0

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(
            path,
            names=np.array(self.names),
            prototypes=self.prototypes,
            weight=np.float32(self.weight),
            temperature=np.float32(self.temperature),
        )

    @classmethod
    def load(cls, path: Path) -> DeckCalibration:
        with np.load(path, allow_pickle=False) as data:
            return cls(
                tuple(str(n) for n in data["names"]),
                data["prototypes"].astype(np.float32),
                float(data["weight"]),
                float(data["temperature"]),
            )


#: In the model folder: the user's deck, written by ``uno-table calibrate-deck``: a
#: classifier whose last stages were fitted to the deck (``deck.onnx``, preferred), or
#: a read-out head (``deck.npz``, ``calibrate-deck --head``).
DECK_FILE = "deck.npz"
DECK_CLASSIFIER_FILE = "deck.onnx"
#: In the model folder: the classifier's own last layer, as a head (a ``--head`` fit
#: starts there).
CLASSIFIER_HEAD_FILE = "classifier-head.npz"
#: Hex digits of a classifier file's SHA-256 that a head keeps to name its classifier.
DIGEST_CHARS = 16


def classifier_digest(path: Path) -> str:
    """A short digest of a classifier file: a head fitted on its embedding keeps it
    (:attr:`vision.deck_head.DeckHead.classifier`), so that a head is never read
    through another classifier's embedding."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:DIGEST_CHARS]


def base_head(models_dir: Path | str | None = None) -> DeckHead:
    """The read-out a ``--head`` fit starts from: the shipped classifier's own last
    layer (``classifier-head.npz``), naming that classifier."""
    root = Path(models_dir) if models_dir is not None else MODELS_DIR
    path = root / CLASSIFIER_HEAD_FILE
    if not path.exists():
        raise ModelFilesMissing(f"no {CLASSIFIER_HEAD_FILE} in {root}")
    return DeckHead.load(path)


def _check_head(head: DeckHead, path: Path, classifier: Path) -> None:
    """Refuse a head fitted on another classifier's embedding (it would read nonsense)."""
    if not classifier.exists():
        return
    if not head.classifier:
        log.warning(
            "%s does not name the classifier it was fitted on (written before 2 December "
            "2026, on the classifier as trained then); if it reads badly, run "
            "uno-table calibrate-deck PHOTOS again",
            path,
        )
        return
    if head.classifier != classifier_digest(classifier):
        raise DeckFileError(
            f"{path} was fitted on another classifier than {classifier} (the model was "
            "updated); run uno-table calibrate-deck PHOTOS again, or delete the file"
        )


def deck_file(models_dir: Path) -> Path | None:
    """The deck calibration ``models_dir`` holds (``deck.onnx`` first), if any."""
    for name in (DECK_CLASSIFIER_FILE, DECK_FILE):
        if (models_dir / name).exists():
            return models_dir / name
    return None


def is_deck_head(path: Path) -> bool:
    """Whether a calibration file holds a :class:`DeckHead` (not older prototypes)."""
    with np.load(path, allow_pickle=False) as data:
        return "weight" in data
