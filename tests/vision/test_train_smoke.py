"""A 1-epoch smoke run of ``uno-table train`` on a tiny rendered set (the only training in CI)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from uno_table.cli import main


def test_train_entry_point_end_to_end(tmp_path: Path) -> None:
    out, data, runs = tmp_path / "models", tmp_path / "data", tmp_path / "runs"
    code = main(
        [
            "train",
            "--out",
            str(out),
            "--data",
            str(data),
            "--runs",
            str(runs),
            "--det-train",
            "4",
            "--det-val",
            "2",
            "--cls-train",
            "1",
            "--cls-val",
            "1",
            "--det-epochs",
            "1",
            "--cls-epochs",
            "1",
            "--det-imgsz",
            "64",
            "--cls-imgsz",
            "32",
            "--batch",
            "4",
            "--workers",
            "0",
            "--det-cut",
            "2",
            "1",
            "--photos",
            "2",
            "1",
            "--dense-piles",
            "1",
            "1",
            "--det-subset",
            "3",
        ]
    )
    assert code == 0
    # The detector learnt from 3 of the 4 table scenes, the 2 photos and the pile.
    assert len((data / "detector-train.txt").read_text().split()) == 6
    assert len((data / "detector-val.txt").read_text().split()) == 4
    for name in (
        "detector.pt",
        "detector.onnx",
        "classifier.pt",
        "classifier.onnx",
        "classifier.json",
        "detector-training.json",
        "classifier-training.json",
    ):
        assert (out / name).is_file(), name
    from vision.detector import CardRecognizer

    for backend in ("onnx", "torch"):
        rec = CardRecognizer.load(out, backend=backend, conf=0.0)
        assert len(rec.face_names) == 54 and rec.det_imgsz == 64 and rec.cls_imgsz == 32
        dets = rec.detect(np.full((120, 160, 3), 128, np.uint8))
        assert all(c in (*rec.face_names, "back") for c in dets.card)
