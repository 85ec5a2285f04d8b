"""detect: recognise the cards in images and print them, one line per image.

PATH may be an image or a folder (every image below it, recursively). With --json
each line is {"image": PATH, "cards": [{"card", "confidence", "box": [x1, y1, x2, y2]}]},
cards sorted by confidence, highest first. An image that cannot be read (missing,
empty, corrupt) gets {"image": PATH, "error": "..."} and the run goes on; the exit
status is then 1. Progress goes to standard error.

Examples:
  uno-table detect table.jpg --json
  uno-table detect photos/ --json > cards.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="image files or folders")
    parser.add_argument("--json", action="store_true", help="JSON Lines output")
    parser.add_argument("--conf", type=float, default=0.35, help="detector threshold (0.35)")
    parser.add_argument("--models", type=Path, default=None, help="model folder (models/)")
    parser.add_argument(
        "--calibration", type=Path, default=None, help="deck calibration from calibrate-deck"
    )
    parser.add_argument("--backend", choices=("auto", "openvino", "onnx", "torch"), default="auto")


def iter_images(paths: list[str]) -> Iterator[Path]:
    """Files as given; folders expanded to every image below them, sorted."""
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            yield from sorted(
                f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in IMAGE_SUFFIXES
            )
        else:
            yield p


def read_image(path: Path) -> tuple[object | None, str | None]:
    """The BGR image, or None and the reason it cannot be used."""
    import cv2
    import numpy as np

    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, "no such file"
    except IsADirectoryError:
        return None, "is a directory"
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc}"
    if not data:
        return None, "empty file"
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        return None, "not a readable image (corrupt or unknown format)"
    return img, None


def _progress(done: int, total: int) -> None:
    if total < 2 or (not sys.stderr.isatty() and done not in (total,) and done % 50):
        return
    width = 30
    filled = int(width * done / total)
    end = "\n" if done == total else ""
    bar = "#" * filled + "." * (width - filled)
    print(f"\rdetect [{bar}] {done}/{total}", end=end, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from vision.detector import CardRecognizer, ModelFilesMissing

    try:
        rec = CardRecognizer.load(
            args.models, backend=args.backend, calibration=args.calibration, conf=args.conf
        )
    except (ModelFilesMissing, OSError, ValueError) as exc:
        print(f"uno-table detect: cannot load the recogniser: {exc}", file=sys.stderr)
        return 2
    images = list(iter_images(args.paths))
    failures = 0
    for i, path in enumerate(images):
        img, error = read_image(path)
        if img is None:
            failures += 1
            record: dict[str, object] = {"image": str(path), "error": error}
        else:
            try:
                dets = rec.detect(img)  # type: ignore[arg-type]
                record = {"image": str(path), "cards": dets.to_json()}
            except Exception as exc:  # a bad frame must not end the run
                failures += 1
                record = {"image": str(path), "error": f"recognition failed: {exc}"}
        try:
            _emit(record, args.json, path)
        except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
            # Point stdout at /dev/null so the flush at exit does not fail again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1 if failures else 0
        _progress(i + 1, len(images))
    if not images:
        print("uno-table detect: no images found", file=sys.stderr)
        return 1
    return 1 if failures else 0


def _emit(record: dict[str, object], as_json: bool, path: Path) -> None:
    if as_json:
        print(json.dumps(record), flush=True)
    elif "error" in record:
        print(f"{path}: error: {record['error']}", flush=True)
    else:
        cards = record["cards"]
        assert isinstance(cards, list)
        text = ", ".join(f"{c['card']} ({c['confidence']:.2f})" for c in cards)
        print(f"{path}: {text or 'no cards'}", flush=True)
