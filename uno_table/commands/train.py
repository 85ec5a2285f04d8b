"""train: render the synthetic datasets and train the card recogniser (CPU, offline).

Renders a detection dataset (table scenes, oriented boxes, classes card/back) and a
classification dataset (upright crops of the 54 faces) under --data, optionally
adds crops of real photos (--real-cards, a folder per face; the held-out photos,
index ending in 0 or 5, are never used), trains both stages from the architecture
files in models/ (random weights, nothing downloaded) and writes the weights and
their ONNX exports to --out.

Example, a smoke run in a minute:

  uno-table train --out /tmp/m --data /tmp/d --det-train 8 --det-val 2 \\
      --cls-train 2 --cls-val 1 --det-epochs 1 --cls-epochs 1 --det-imgsz 64
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=None, help="where the weights go (models/)")
    parser.add_argument("--data", type=Path, default=Path("datasets"), help="dataset folder")
    parser.add_argument("--runs", type=Path, default=Path("runs"), help="training run folder")
    parser.add_argument(
        "--stage", choices=("all", "render", "detector", "classifier"), default="all"
    )
    parser.add_argument("--det-train", type=int, default=4000, help="detector train scenes")
    parser.add_argument("--det-val", type=int, default=400, help="detector val scenes")
    parser.add_argument("--cls-train", type=int, default=120, help="classifier crops per face")
    parser.add_argument("--cls-val", type=int, default=12, help="classifier val crops per face")
    parser.add_argument("--det-epochs", type=int, default=30)
    parser.add_argument("--cls-epochs", type=int, default=20)
    parser.add_argument("--det-imgsz", type=int, default=320)
    parser.add_argument("--cls-imgsz", type=int, default=64)
    parser.add_argument("--det-hours", type=float, default=None, help="detector time budget")
    parser.add_argument("--cls-hours", type=float, default=None, help="classifier time budget")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--det-weights", type=Path, default=None, help="continue from weights")
    parser.add_argument("--cls-weights", type=Path, default=None, help="continue from weights")
    parser.add_argument(
        "--real-cards",
        type=Path,
        default=None,
        help="real photos, a folder per face: their training part is cropped into the "
        "classifier set and pseudo-labelled into the detector set (with the detector in --out)",
    )
    parser.add_argument("--real-repeat", type=int, default=3, help="copies of each real crop")
    parser.add_argument(
        "--det-cut",
        type=int,
        nargs=2,
        default=None,
        metavar=("TRAIN", "VAL"),
        help="render TRAIN + VAL more scenes and add their cards as the detector in --out "
        "cuts them to the classifier set (the crops it gets at run time)",
    )
    parser.add_argument(
        "--video-cut",
        type=int,
        nargs=2,
        default=None,
        metavar=("TRAIN", "VAL"),
        help="render TRAIN + VAL short game videos and add their cards as the detector in "
        "--out cuts them from the frames (small, blurred, on a growing pile)",
    )
    parser.add_argument(
        "--photos",
        type=int,
        nargs=2,
        default=None,
        metavar=("TRAIN", "VAL"),
        help="render TRAIN + VAL phone-photo-like scenes (one or two large cards) "
        "and add them to the detector's data",
    )
    parser.add_argument(
        "--dense-piles",
        type=int,
        nargs=2,
        default=None,
        metavar=("TRAIN", "VAL"),
        help="render TRAIN + VAL scenes of tight discard piles (5-10 cards, only the top "
        "one whole) and add them to the detector's data",
    )
    parser.add_argument(
        "--video-frames",
        type=int,
        nargs=2,
        default=None,
        metavar=("TRAIN", "VAL"),
        help="render TRAIN + VAL short game videos and add every 8th frame to the "
        "detector's data (cards in flight, fans of several cards, a growing pile)",
    )
    parser.add_argument(
        "--det-subset",
        type=int,
        default=None,
        help="use this many of the rendered table scenes (at random) beside the extra data",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr0", type=float, default=None, help="initial learning rate")


def _log(msg: str) -> None:
    print(f"[train] {msg}", file=sys.stderr, flush=True)


def _detector_data(args: argparse.Namespace, det_dir: Path, det_yaml: Path, out: Path) -> Path:
    """The detector's data: the table scenes (all, or --det-subset of them), plus
    rendered phone photos (--photos), tight piles (--dense-piles), game video frames
    (--video-frames) and the pseudo-labelled training part of real photos
    (--real-cards) when asked for.
    Several sources are listed in image-list files beside a combined yaml."""
    import random

    from synth.render.dataset import (
        stderr_progress,
        write_detection_dataset,
        write_photo_dataset,
    )

    train_dirs = [det_dir / "images" / "train"]
    val_dirs = [det_dir / "images" / "val"]
    if args.photos is not None:
        photo_dir = args.data / "detector-photos"
        _log(f"rendering {args.photos[0]}+{args.photos[1]} photo scenes into {photo_dir}")
        write_photo_dataset(
            photo_dir, args.photos[0], args.photos[1], seed=args.seed + 5, progress=stderr_progress
        )
        train_dirs.append(photo_dir / "images" / "train")
        val_dirs.append(photo_dir / "images" / "val")
    if args.dense_piles is not None:
        dense_dir = args.data / "detector-dense"
        _log(f"rendering {args.dense_piles[0]}+{args.dense_piles[1]} pile scenes into {dense_dir}")
        write_detection_dataset(
            dense_dir,
            args.dense_piles[0],
            args.dense_piles[1],
            seed=args.seed + 1,
            size=(240, 320) if args.det_imgsz <= 320 else (480, 640),
            closeup_frac=0.0,
            dense_frac=1.0,
            progress=stderr_progress,
        )
        train_dirs.append(dense_dir / "images" / "train")
        val_dirs.append(dense_dir / "images" / "val")
    if args.video_frames is not None:
        from synth.training import write_video_frame_dataset

        video_dir = args.data / "detector-video"
        _log(
            f"rendering {args.video_frames[0]}+{args.video_frames[1]} game videos into {video_dir}"
        )
        # Seeds apart from the watcher benchmark's (101 on), its tuning ones and --video-cut's.
        write_video_frame_dataset(
            video_dir,
            args.video_frames[0],
            args.video_frames[1],
            seed=7000 + args.seed,
            progress=stderr_progress,
        )
        train_dirs.append(video_dir / "images" / "train")
        val_dirs.append(video_dir / "images" / "val")
    if args.real_cards is not None and (out / "detector.onnx").exists():
        from vision.deck_calibration import add_real_detection_images

        real_dir = args.data / "detector-real"
        n = add_real_detection_images(args.real_cards, real_dir, out)
        _log(f"pseudo-labelled {n} real photos (training part only) into {real_dir}")
        train_dirs.append(real_dir / "images" / "train")
    if len(train_dirs) == 1 and args.det_subset is None:
        return det_yaml
    train = sorted(str(p.resolve()) for p in train_dirs[0].glob("*.jpg"))
    if args.det_subset is not None and args.det_subset < len(train):
        train = sorted(random.Random(args.seed).sample(train, args.det_subset))
    for d in train_dirs[1:]:
        train += sorted(str(p.resolve()) for p in d.glob("*.jpg"))
    val = [str(p.resolve()) for d in val_dirs for p in sorted(d.glob("*.jpg"))]
    (args.data / "detector-train.txt").write_text("\n".join(train) + "\n")
    (args.data / "detector-val.txt").write_text("\n".join(val) + "\n")
    combined = args.data / "detector-combined.yaml"
    names = "\n".join(line for line in det_yaml.read_text().splitlines() if line.startswith("  "))
    combined.write_text(
        f"train: {(args.data / 'detector-train.txt').resolve()}\n"
        f"val: {(args.data / 'detector-val.txt').resolve()}\nnames:\n{names}\n"
    )
    _log(f"detector data: {len(train)} train, {len(val)} val images -> {combined}")
    return combined


def run(args: argparse.Namespace) -> int:
    from synth.render.dataset import (
        stderr_progress,
        write_classifier_dataset,
        write_detection_dataset,
    )
    from synth.training import (
        TrainSettings,
        export_classifier_onnx,
        export_detector_onnx,
        run_summary,
        train_classifier,
        train_detector,
        write_settings,
    )
    from vision.yolo_env import MODELS_DIR

    out: Path = args.out or MODELS_DIR
    out.mkdir(parents=True, exist_ok=True)
    det_dir = args.data / "detector"
    cls_dir = args.data / "classifier"
    det_yaml = det_dir / "data.yaml"
    stages = {args.stage} if args.stage != "all" else {"render", "detector", "classifier"}

    if "render" in stages or ("detector" in stages and not det_yaml.exists()):
        _log(f"rendering {args.det_train}+{args.det_val} detection scenes into {det_dir}")
        write_detection_dataset(
            det_dir,
            args.det_train,
            args.det_val,
            seed=args.seed,
            size=(240, 320) if args.det_imgsz <= 320 else (480, 640),
            progress=stderr_progress,
        )
    if "render" in stages or ("classifier" in stages and not (cls_dir / "train").exists()):
        _log(f"rendering {args.cls_train}+{args.cls_val} crops per face into {cls_dir}")
        write_classifier_dataset(
            cls_dir,
            args.cls_train,
            args.cls_val,
            seed=args.seed + 1,
            crop=args.cls_imgsz,
            # Scenes scale with the crop, so a card is seen at about the crop's size.
            size=(max(144, 144 * args.cls_imgsz // 64), max(192, 192 * args.cls_imgsz // 64)),
            progress=stderr_progress,
        )

    if "detector" in stages:
        det_yaml = _detector_data(args, det_dir, det_yaml, out)
        t0 = time.time()
        extra: dict[str, float] = {"time": args.det_hours} if args.det_hours else {}
        if args.lr0 is not None:
            extra.update(lr0=args.lr0, warmup_epochs=0.0)
        best = train_detector(
            det_yaml,
            args.runs,
            epochs=args.det_epochs,
            imgsz=args.det_imgsz,
            batch=args.batch,
            workers=args.workers,
            weights=args.det_weights,
            **extra,
        )
        seconds = time.time() - t0
        det_epochs, det_metrics = run_summary(best.parent.parent)
        shutil.copy(best, out / "detector.pt")
        export_detector_onnx(out / "detector.pt", out / "detector.onnx", imgsz=args.det_imgsz)
        write_settings(
            out / "detector-training.json",
            TrainSettings(
                "uno-det.yaml",
                str(det_yaml),
                args.det_epochs,
                args.det_imgsz,
                args.batch,
                args.workers,
                round(seconds, 1),
                det_epochs,
                args.det_hours,
                det_metrics,
            ),
        )
        _log(f"detector trained in {seconds / 60:.1f} min -> {out / 'detector.onnx'}")

    if "classifier" in stages:
        if args.real_cards is not None:
            from vision.deck_calibration import add_real_crops

            n = add_real_crops(
                args.real_cards,
                cls_dir,
                out,
                repeat=args.real_repeat,
                imgsz=args.cls_imgsz,
                seed=args.seed,
            )
            _log(f"added {n} real-photo crops (training part only) to {cls_dir}")
        if args.det_cut is not None:
            from synth.training import write_detector_cut_crops

            for split, n_scenes, seed in (
                ("train", args.det_cut[0], args.seed + 11),
                ("val", args.det_cut[1], args.seed + 12),
            ):
                n = write_detector_cut_crops(
                    cls_dir,
                    out,
                    n_scenes,
                    seed=seed,
                    imgsz=args.cls_imgsz,
                    det_imgsz=args.det_imgsz,
                    dense_frac=0.3,  # tight piles, whose heap boxes read as the top card
                    split=split,
                    progress=stderr_progress,
                )
                _log(f"added {n} detector-cut crops from {n_scenes} scenes to {cls_dir / split}")
        if args.video_cut is not None:
            from synth.training import write_video_cut_crops

            # Seeds far from the watcher benchmark's videos (101 on) and the tuning ones.
            for split, n_videos, seed in (
                ("train", args.video_cut[0], 5000 + args.seed),
                ("val", args.video_cut[1], 6000 + args.seed),
            ):
                n = write_video_cut_crops(
                    cls_dir,
                    out,
                    n_videos,
                    seed=seed,
                    imgsz=args.cls_imgsz,
                    det_imgsz=args.det_imgsz,
                    split=split,
                    progress=stderr_progress,
                )
                _log(f"added {n} video-cut crops from {n_videos} videos to {cls_dir / split}")
        t0 = time.time()
        extra = {"time": args.cls_hours} if args.cls_hours else {}
        if args.lr0 is not None:
            extra.update(lr0=args.lr0, warmup_epochs=0.0)
        best = train_classifier(
            cls_dir,
            args.runs,
            epochs=args.cls_epochs,
            imgsz=args.cls_imgsz,
            batch=max(args.batch, 64),
            workers=args.workers,
            weights=args.cls_weights,
            **extra,
        )
        seconds = time.time() - t0
        cls_epochs, cls_metrics = run_summary(best.parent.parent)
        shutil.copy(best, out / "classifier.pt")
        export_classifier_onnx(out / "classifier.pt", out / "classifier.onnx", imgsz=args.cls_imgsz)
        meta = json.loads((out / "classifier.json").read_text())
        meta["det_imgsz"] = args.det_imgsz
        (out / "classifier.json").write_text(json.dumps(meta) + "\n")
        write_settings(
            out / "classifier-training.json",
            TrainSettings(
                "uno-cls.yaml",
                str(cls_dir),
                args.cls_epochs,
                args.cls_imgsz,
                max(args.batch, 64),
                args.workers,
                round(seconds, 1),
                cls_epochs,
                args.cls_hours,
                cls_metrics,
            ),
        )
        _log(f"classifier trained in {seconds / 60:.1f} min -> {out / 'classifier.onnx'}")
    return 0
