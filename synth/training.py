"""Training the two stages with ultralytics, offline and on the CPU.

Models are built from ultralytics' architecture yaml files (random weights, nothing
downloaded), trained with AMP off (AMP's check would fetch weights) and few loader
workers, then exported to the files :class:`vision.recognition.CardRecognizer` loads:

- ``detector.pt`` / ``detector.onnx``: oriented-box YOLO, classes ``card`` and ``back``;
- ``classifier.pt`` / ``classifier.onnx``: the 54 faces, on square upright crops; the
  ONNX file has two outputs, probabilities and the embedding used by deck calibration.

The training data cut by the detector and taken from game videos is
:mod:`synth.training_data`'s (its names still import from here).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import vision  # noqa: F401  (fixes the ultralytics environment before its import)
from synth.training_data import (  # noqa: F401  (re-exported: they lived here)
    _box_corners,
    _game_frames,
    _polygon_iou,
    _write_cut_crops,
    heap_label,
    write_detector_cut_crops,
    write_video_cut_crops,
    write_video_frame_dataset,
)
from vision.yolo_env import MODELS_DIR

if TYPE_CHECKING:
    from vision.deck_head import DeckHead

DETECTOR_ARCH = str(MODELS_DIR / "uno-det.yaml")
CLASSIFIER_ARCH = str(MODELS_DIR / "uno-cls.yaml")


@dataclass
class TrainSettings:
    """What a training run used; written next to the weights."""

    arch: str
    data: str
    epochs: int
    imgsz: int
    batch: int
    workers: int
    seconds: float = 0.0
    epochs_run: int = 0  # fewer than ``epochs`` when a time budget stopped the run
    hours_budget: float | None = None
    metrics: dict[str, float] | None = None


def _common(
    epochs: int, imgsz: int, batch: int, workers: int, project: Path, name: str
) -> dict[str, Any]:
    return {
        "epochs": epochs,
        "imgsz": imgsz,
        "batch": batch,
        "workers": workers,
        "device": "cpu",
        "amp": False,
        "project": str(project.resolve()),
        "name": name,
        "exist_ok": True,
        "plots": False,
        "verbose": False,
        "seed": 0,
        "deterministic": False,
    }


def _adamw(n_classes: int) -> dict[str, Any]:
    """AdamW at the rate ultralytics' "auto" picks for short runs, for runs of any length:
    past 10,000 iterations "auto" switches to MuSGD, whose Newton-Schulz steps make a
    CPU epoch several times slower."""
    return {"optimizer": "AdamW", "lr0": round(0.002 * 5 / (4 + n_classes), 6)}


def train_detector(
    data_yaml: Path,
    project: Path,
    *,
    epochs: int = 30,
    imgsz: int = 320,
    batch: int = 32,
    workers: int = 1,
    weights: Path | None = None,
    name: str = "detector",
    **overrides: Any,
) -> Path:
    """Train the card/back oriented-box detector; returns the best ``.pt`` path.

    ``weights`` continues from earlier weights instead of random ones.
    """
    from ultralytics import YOLO

    model = YOLO(str(weights) if weights else DETECTOR_ARCH, task="obb")
    args = _common(epochs, imgsz, batch, workers, project, name)
    # Cards lie at every angle; flips are harmless for a card/back detector.
    args.update(degrees=180.0, fliplr=0.5, flipud=0.5, mosaic=1.0, close_mosaic=2)
    args.update(_adamw(len(("card", "back"))))
    args.update(overrides)
    model.train(data=str(data_yaml), pretrained=bool(weights), **args)
    best = project / name / "weights" / "best.pt"
    return best if best.exists() else project / name / "weights" / "last.pt"


def train_classifier(
    data_dir: Path,
    project: Path,
    *,
    epochs: int = 20,
    imgsz: int = 64,
    batch: int = 64,
    workers: int = 1,
    weights: Path | None = None,
    name: str = "classifier",
    **overrides: Any,
) -> Path:
    """Train the 54-face classifier on ``data_dir/{train,val}/<face>/``; returns best ``.pt``."""
    from ultralytics import YOLO

    model = YOLO(str(weights) if weights else CLASSIFIER_ARCH, task="classify")
    args = _common(epochs, imgsz, batch, workers, project, name)
    # No flips: a mirrored 6 is no card. Crops are already tight, so barely any
    # random crop; the hue stays (it is the colour class), brightness may vary.
    args.update(
        fliplr=0.0,
        flipud=0.0,
        scale=0.1,
        hsv_h=0.01,
        hsv_s=0.4,
        hsv_v=0.4,
        erasing=0.25,
        auto_augment="randaugment",
    )
    args.update(_adamw(54))
    args.update(overrides)
    model.train(data=str(data_dir), pretrained=bool(weights), **args)
    best = project / name / "weights" / "best.pt"
    return best if best.exists() else project / name / "weights" / "last.pt"


def export_detector_onnx(pt_path: Path, out_path: Path, imgsz: int = 320) -> Path:
    """Export the detector to ONNX (fixed 1 x 3 x imgsz x imgsz input, raw head output)."""
    from ultralytics import YOLO

    model = YOLO(str(pt_path), task="obb")
    exported = model.export(
        format="onnx", imgsz=imgsz, simplify=False, dynamic=False, opset=17, device="cpu", nms=False
    )
    out_path.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(exported), out_path)
    return out_path


def export_classifier_onnx(pt_path: Path, out_path: Path, imgsz: int = 64) -> Path:
    """Export the classifier with two outputs: ``probs`` (N, 54) and ``embed`` (N, C),
    as :func:`vision.deck_tail.export_onnx` writes a classifier; its face names beside."""
    from vision.deck_tail import export_onnx, load_network

    net = load_network(pt_path)
    export_onnx(net, out_path, imgsz)
    names = [net.names[i] for i in range(len(net.names))]
    out_path.with_suffix(".json").write_text(json.dumps({"names": names, "imgsz": imgsz}))
    return out_path


def run_summary(run_dir: Path) -> tuple[int, dict[str, float]]:
    """Epochs completed and the last row of metrics of an ultralytics run folder."""
    csv = run_dir / "results.csv"
    if not csv.exists():
        return 0, {}
    lines = [ln for ln in csv.read_text().splitlines() if ln.strip()]
    if len(lines) < 2:
        return 0, {}
    header = [h.strip() for h in lines[0].split(",")]
    last = [v.strip() for v in lines[-1].split(",")]
    metrics = {}
    for k, v in zip(header, last, strict=False):
        if k.startswith("metrics/"):
            try:
                metrics[k.removeprefix("metrics/")] = round(float(v), 4)
            except ValueError:
                continue
    return len(lines) - 1, metrics


def write_settings(path: Path, settings: TrainSettings) -> None:
    path.write_text(json.dumps(asdict(settings), indent=2) + "\n")


#: The classifier as ``uno-table train`` left it, before its last stages were fitted on
#: real photos of several editions (``benchmarks/bench_tail.py general``): kept for the
#: benchmarks and tests that need a deck the classifier never saw.
BASE_CLASSIFIER_ONNX = "classifier-base.onnx"
BASE_CLASSIFIER_PT = "classifier-base.pt"


def base_models_dir(dest: Path, models: Path = MODELS_DIR) -> Path:
    """A model folder at ``dest`` like ``models`` but with the classifier as trained
    (``classifier-base.*`` as ``classifier.*``, its own read-out as the head); the
    other files are links. No deck files."""
    from vision.recognition import (
        CLASSIFIER_HEAD_FILE,
        CLASSIFIER_ONNX,
        CLASSIFIER_PT,
        DECK_CLASSIFIER_FILE,
        DECK_FILE,
    )

    dest.mkdir(parents=True, exist_ok=True)
    swapped = {CLASSIFIER_ONNX: BASE_CLASSIFIER_ONNX, CLASSIFIER_PT: BASE_CLASSIFIER_PT}
    skip = {CLASSIFIER_HEAD_FILE, DECK_CLASSIFIER_FILE, DECK_FILE, *swapped.values()}
    for f in models.iterdir():
        if f.is_file() and f.name not in skip and f.name not in swapped:
            (dest / f.name).symlink_to(f.resolve())
    for name, base in swapped.items():
        (dest / name).symlink_to((models / base).resolve())
    classifier_read_out(dest / CLASSIFIER_ONNX).save(dest / CLASSIFIER_HEAD_FILE)
    return dest


def classifier_read_out(onnx_path: Path) -> DeckHead:
    """The last layer of an exported classifier (its ``Gemm`` on the ``embed`` output)
    as a :class:`vision.deck_head.DeckHead` naming that file, its faces in the order of
    ``classifier.json`` beside it: what a ``--head`` fit starts from
    (``models/classifier-head.npz``)."""
    import onnx
    from onnx import numpy_helper

    from vision.deck_head import DeckHead
    from vision.recognition import CLASSIFIER_META, classifier_digest

    names = tuple(json.loads((onnx_path.parent / CLASSIFIER_META).read_text())["names"])
    graph = onnx.load(str(onnx_path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    gemm = next(n for n in graph.node if n.op_type == "Gemm" and n.input[0] == "embed")
    weight, bias = (weights[name].astype("float32") for name in gemm.input[1:3])
    return DeckHead(names, weight, bias, classifier_digest(onnx_path))
