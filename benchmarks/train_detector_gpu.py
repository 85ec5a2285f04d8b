"""Fine-tune the card/back detector on a lent GPU machine, in one prepared run.

Some sessions are lent a machine with a GPU and 16 cores for a few minutes; a 2-core
laptop needs an hour for what it does in five. This script is that run, whole:
render the data in parallel, fine-tune the committed detector, hand back the
weights (ONNX export and every figure are made afterwards, on the CPU).

The data (all rendered here except the real photos):

* still table scenes, phone-photo scenes and tight piles, as ``uno-table train``
  renders them (models/README.md, "Data"), new seeds;
* **game frames** in the watcher's tuning styles (``--styles tuning``:
  ``synth.styles.TUNING_STYLES``, never a held-out one) or in randomised styles
  (``--styles random``: ``synth.random_styles.random_style``, every setting drawn
  within the tuning styles' span): short simulated games rendered in each style, every
  ``--every``-th frame, with the light evened out as the recogniser does
  (``vision.exposure.LightBalance``), written twice: the whole frame, and the cut-out
  around the discard pile that the pipeline's close look reads
  (``vision.pipeline.PILE_CUT_MARGIN``). Cards are labelled from the renderer's
  corners when at least ``MIN_VISIBLE`` of them shows: cards under a hand, blurred
  in flight, in fans, on an untidy pile;
* optionally the pseudo-labelled training part of ``real-cards`` (``--real``), made
  on the CPU beforehand by ``--make-real``.

Run on the device machine (``$OUT`` comes back)::

    python benchmarks/train_detector_gpu.py train --out $OUT --device 0 --procs 16 \\
        --real .cache/gpu-real

A smoke test on the CPU (minutes)::

    python benchmarks/train_detector_gpu.py train --out /tmp/gpu-smoke --device cpu \\
        --procs 2 --small
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.yolo_env  # noqa: E402,F401  (offline ultralytics before it is imported)

#: A card is labelled when at least this share of it shows (as the still scenes); in
#: the pile's cut-out, only the cards whose centre lies inside it.
MIN_VISIBLE = 0.3
#: The training games' seeds, far from the benchmarks' (101-, 601-) and earlier
#: training's (5000-7999); a style's games are ``SEED_GAMES + 10 * k + g``.
SEED_GAMES = 9100
#: The validation games' seeds (one game every third tuning style).
SEED_VAL_GAMES = 9900
#: The randomised styles' seeds (``random-<seed>``); the k-th style's game is
#: ``SEED_GAMES + 10 * k``, its validation game (every ``RANDOM_VAL_EVERY``-th style)
#: ``SEED_VAL_GAMES + k``.
SEED_STYLES = 9500
RANDOM_VAL_EVERY = 6
#: Plays and draws of a training game.
GAME_TURNS = 20
JPEG_QUALITY = 90


def _scenes(task: tuple[str, Path, int, int, int]) -> str:
    from synth.render.dataset import write_detection_dataset, write_photo_dataset

    kind, root, seed, n_train, n_val = task
    if kind == "scenes":
        write_detection_dataset(root, n_train, n_val, seed=seed, size=(240, 320))
    elif kind == "piles":
        write_detection_dataset(
            root, n_train, n_val, seed=seed, size=(240, 320), closeup_frac=0.0, dense_frac=1.0
        )
    else:
        write_photo_dataset(root, n_train, n_val, seed=seed)
    return f"{kind} {seed}: {n_train}+{n_val}"


def _label_lines(cards: list[Any], w: int, h: int) -> str:
    from synth.render.dataset import obb_label_lines

    return "".join(line + "\n" for line in obb_label_lines(cards, w, h, MIN_VISIBLE))


def _game(task: tuple[Path, Any, int, str, int]) -> str:
    """One short game in one style: its every ``every``-th frame, whole and the pile's cut-out."""
    import cv2
    import numpy as np

    from synth.render.scene import PlacedCard
    from synth.training_data import _game_frames, frame_cards
    from vision.calibration import TableLayout
    from vision.exposure import LightBalance
    from vision.focus import focus_roi
    from vision.pipeline import PILE_CUT_MARGIN

    root, style, seed, split, every = task
    name = getattr(style, "name", style)  # a tuning style's name, or a random VideoStyle
    img_dir, lbl_dir = root / "images" / split, root / "labels" / split
    img_dir.mkdir(parents=True, exist_ok=True)
    lbl_dir.mkdir(parents=True, exist_ok=True)
    balance = LightBalance()
    quality = [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]
    written = 0
    for _seed, frames, layout_path in _game_frames(
        [seed], GAME_TURNS, every, phased=True, style=style
    ):
        layout = TableLayout.load(layout_path)
        zone = layout.discard
        margin = PILE_CUT_MARGIN * layout.card_px
        for frame, index, truth in frames:
            cards = frame_cards(truth)
            image = balance(frame)
            h, w = image.shape[:2]
            stem = f"{name}_{seed}_{index:05d}"
            cv2.imwrite(str(img_dir / f"{stem}.jpg"), image, quality)
            (lbl_dir / f"{stem}.txt").write_text(_label_lines(cards, w, h))
            roi = focus_roi((zone.x1, zone.y1, zone.x2, zone.y2), margin, image.shape)
            x0, y0, x1, y1 = (int(v) for v in roi)
            shift = np.float32([x0, y0])
            inside = [
                PlacedCard(c.card, c.corners - shift, c.visible)
                for c in cards
                if x0 <= c.corners[:, 0].mean() < x1 and y0 <= c.corners[:, 1].mean() < y1
            ]
            crop = np.ascontiguousarray(image[y0:y1, x0:x1])
            cv2.imwrite(str(img_dir / f"{stem}_pile.jpg"), crop, quality)
            (lbl_dir / f"{stem}_pile.txt").write_text(_label_lines(inside, x1 - x0, y1 - y0))
            written += 2
    return f"game {name} {seed} ({split}): {written} images"


def game_tasks(
    data: Path, kind: str, n_random: int, small: bool, every: int
) -> list[tuple[Path, Any, int, str, int]]:
    """The games to render: two a tuning style, or one a randomised style."""
    from synth.random_styles import random_style
    from synth.styles import TUNING_STYLES

    tasks: list[tuple[Path, Any, int, str, int]] = []
    if kind == "random":
        for k in range(2 if small else n_random):
            style = random_style(SEED_STYLES + k)
            tasks.append((data / "games", style, SEED_GAMES + k * 10, "train", every))
            if k % RANDOM_VAL_EVERY == 0:
                tasks.append((data / "games", style, SEED_VAL_GAMES + k, "val", every * 3))
        return tasks
    styles = TUNING_STYLES[:2] if small else TUNING_STYLES
    games_per_style = 1 if small else 2
    for k, name in enumerate(styles):
        for g in range(games_per_style):
            tasks.append((data / "games", name, SEED_GAMES + k * 10 + g, "train", every))
        if k % 3 == 0:
            tasks.append((data / "games", name, SEED_VAL_GAMES + k, "val", every * 3))
    return tasks


def render_all(
    data: Path, procs: int, small: bool, every: int, styles: str = "tuning", n_random: int = 0
) -> None:
    """Every part of the data, rendered in ``procs`` processes."""

    scale = 0.02 if small else 1.0
    chunks = 2 if small else procs
    scene_tasks: list[tuple[str, Path, int, int, int]] = []
    for kind, seed0, n_train, n_val in (
        ("scenes", 1100, 6000, 300),
        ("photos", 1200, 1200, 60),
        ("piles", 1300, 1200, 60),
    ):
        per_train = max(1, round(n_train * scale / chunks))
        per_val = max(1, round(n_val * scale / chunks))
        for c in range(chunks):
            seed = seed0 + c
            scene_tasks.append((kind, data / f"{kind}{seed}", seed, per_train, per_val))
    games = game_tasks(data, styles, n_random, small, every)
    start = time.time()
    with get_context("fork").Pool(procs) as pool:
        # The games take longest: start them first.
        for msg in pool.imap_unordered(
            _run_task, [("game", t) for t in games] + [("scene", t) for t in scene_tasks]
        ):
            print(f"[{time.time() - start:6.1f}s] {msg}", flush=True)


def _run_task(item: tuple[str, Any]) -> str:
    import cv2

    cv2.setNumThreads(1)  # one process a core
    kind, task = item
    return _game(task) if kind == "game" else _scenes(task)


def write_lists(data: Path, real: Path | None) -> Path:
    """train.txt, val.txt and the yaml that names them."""
    train = sorted(str(p.resolve()) for p in data.glob("*/images/train/*.jpg"))
    if real is not None:
        train += sorted(str(p.resolve()) for p in real.glob("images/train/*.jpg"))
    val = sorted(str(p.resolve()) for p in data.glob("*/images/val/*.jpg"))
    (data / "train.txt").write_text("\n".join(train) + "\n")
    (data / "val.txt").write_text("\n".join(val) + "\n")
    yaml = data / "data.yaml"
    yaml.write_text(
        f"train: {data.resolve() / 'train.txt'}\nval: {data.resolve() / 'val.txt'}\n"
        "names:\n  0: card\n  1: back\n"
    )
    print(f"data: {len(train)} train, {len(val)} val images", flush=True)
    return yaml


def make_real(real_cards: Path, out: Path, long_side: int) -> None:
    """The pseudo-labelled training part of ``real_cards``, shrunk (CPU, before the run)."""
    import cv2

    from vision.deck_calibration import add_real_detection_images
    from vision.yolo_env import MODELS_DIR

    n = add_real_detection_images(real_cards, out, MODELS_DIR)
    for p in (out / "images" / "train").glob("*.jpg"):
        img = cv2.imread(str(p))
        scale = long_side / max(img.shape[:2])
        if scale < 1:
            img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(p), img, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    print(f"{n} real photos pseudo-labelled into {out}")


def train(args: argparse.Namespace) -> None:
    from ultralytics import YOLO

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    data = Path(args.data)
    t0 = time.time()
    render_all(data, args.procs, args.small, args.every, args.styles, args.random_styles)
    yaml = write_lists(data, args.real)
    t_render = time.time() - t0
    model = YOLO(str(args.weights), task="obb")
    model.train(
        data=str(yaml),
        epochs=args.epochs,
        time=args.hours,
        imgsz=320,
        batch=args.batch,
        workers=args.workers,
        device=args.device,
        amp=False,  # its check fetches a model to compare: offline, not worth the risk
        project=str(data.resolve() / "runs"),
        name="det",
        exist_ok=True,
        plots=False,
        verbose=False,
        seed=0,
        deterministic=False,
        pretrained=True,
        optimizer="AdamW",
        lr0=args.lr0,
        warmup_epochs=0,
        cos_lr=True,
        degrees=180.0,
        fliplr=0.5,
        flipud=0.5,
        mosaic=1.0,
        close_mosaic=args.close_mosaic,
        cache="ram" if not args.small else False,
    )
    weights = data / "runs" / "det" / "weights"
    for name in ("best.pt", "last.pt"):
        if (weights / name).exists():
            shutil.copy(weights / name, out / f"detector-gpu-{name}")
    results = data / "runs" / "det" / "results.csv"
    if results.exists():
        shutil.copy(results, out / "results.csv")
    summary = {
        "render_s": round(t_render, 1),
        "total_s": round(time.time() - t0, 1),
        "args": {k: str(v) for k, v in vars(args).items()},
        "train_images": len((data / "train.txt").read_text().split()),
        "val_images": len((data / "val.txt").read_text().split()),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("make-real", help="pseudo-label real-cards' training part (CPU)")
    r.add_argument("real_cards", type=Path)
    r.add_argument("--out", type=Path, default=ROOT / ".cache" / "gpu-real")
    r.add_argument("--long-side", type=int, default=480)
    t = sub.add_parser("train", help="render and fine-tune")
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--data", type=Path, default=Path("/tmp/gpu-det-data"))
    t.add_argument("--real", type=Path, default=None)
    t.add_argument("--weights", type=Path, default=ROOT / "models" / "detector.pt")
    t.add_argument("--device", default="0")
    t.add_argument("--procs", type=int, default=16)
    t.add_argument("--workers", type=int, default=12)
    t.add_argument("--batch", type=int, default=128)
    t.add_argument("--epochs", type=int, default=60)
    t.add_argument("--hours", type=float, default=0.08, help="ultralytics' time budget")
    t.add_argument("--lr0", type=float, default=0.0005)
    t.add_argument("--close-mosaic", type=int, default=5)
    t.add_argument("--every", type=int, default=10, help="every n-th frame of a game")
    t.add_argument("--styles", choices=("tuning", "random"), default="tuning")
    t.add_argument("--random-styles", type=int, default=52, help="with --styles random")
    t.add_argument("--small", action="store_true", help="a smoke test: a few of everything")
    args = p.parse_args()
    if args.cmd == "make-real":
        make_real(args.real_cards, args.out, args.long_side)
    else:
        train(args)


if __name__ == "__main__":
    main()
