"""Training the two stages with ultralytics, offline and on the CPU.

Models are built from ultralytics' architecture yaml files (random weights, nothing
downloaded), trained with AMP off (AMP's check would fetch weights) and few loader
workers, then exported to the files :class:`vision.recognition.CardRecognizer` loads:

- ``detector.pt`` / ``detector.onnx``: oriented-box YOLO, classes ``card`` and ``back``;
- ``classifier.pt`` / ``classifier.onnx``: the 54 faces, on 64 x 64 upright crops; the
  ONNX file has two outputs, probabilities and the embedding used by deck calibration.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import vision  # noqa: F401  (fixes the ultralytics environment before its import)
from vision.yolo_env import MODELS_DIR

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
    """Export the classifier with two outputs: ``probs`` (N, 54) and ``embed`` (N, C)."""
    import torch
    from torch import nn
    from ultralytics import YOLO

    yolo = YOLO(str(pt_path), task="classify")
    net = yolo.model
    net.eval()
    layers = list(net.model)
    body, head = nn.Sequential(*layers[:-1]), layers[-1]

    class WithEmbedding(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = body
            self.head = head

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            feats = self.head.pool(self.head.conv(self.body(x))).flatten(1)
            logits = self.head.linear(feats)
            return logits.softmax(1), feats

    wrapper = WithEmbedding().eval()
    dummy = torch.zeros(1, 3, imgsz, imgsz)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        wrapper,
        (dummy,),
        str(out_path),
        input_names=["images"],
        output_names=["probs", "embed"],
        dynamic_axes={"images": {0: "n"}, "probs": {0: "n"}, "embed": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
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
