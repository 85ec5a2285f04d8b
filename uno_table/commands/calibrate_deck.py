"""calibrate-deck: adapt the card classifier to your own deck from a few photos.

PHOTOS_DIR holds one folder per face, named with the canonical card names
(red-7/, blue-skip/, wild/, ...), each with one or a few photos of that card, e.g.
taken with the table camera. The classifier's embedding of each photo's card is
averaged per face into a prototype; recognition then mixes the classifier with the
nearest prototype. Writes models/deck.npz (used from then on by detect, serve and
demo) or --out. Faces without photos keep the classifier alone.

Examples:
  uno-table calibrate-deck my-deck-photos/
  uno-table calibrate-deck shared/data/real-cards --per-face 1 --skip-held-out --out /tmp/deck.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", type=Path, metavar="PHOTOS_DIR", help="a folder per face")
    parser.add_argument("--out", type=Path, default=None, help="output (models/deck.npz)")
    parser.add_argument("--models", type=Path, default=None, help="model folder (models/)")
    parser.add_argument("--per-face", type=int, default=0, help="photos per face (0: all)")
    parser.add_argument(
        "--skip-held-out",
        action="store_true",
        help="leave out photos whose index ends in 0 or 5 (the evaluation part)",
    )
    parser.add_argument(
        "--weight", type=float, default=0.5, help="share of the prototypes in the answer (0.5)"
    )


def run(args: argparse.Namespace) -> int:
    from vision.deck_calibration import calibrate, list_photos
    from vision.detector import CardRecognizer, ModelFilesMissing
    from vision.yolo_env import MODELS_DIR

    if not 0.0 <= args.weight <= 1.0:
        print("uno-table calibrate-deck: --weight must be between 0 and 1", file=sys.stderr)
        return 2
    try:
        photos = list_photos(args.photos, "train" if args.skip_held_out else "all")
    except FileNotFoundError as exc:
        print(f"uno-table calibrate-deck: {exc}", file=sys.stderr)
        return 2
    if not photos:
        print(
            f"uno-table calibrate-deck: no photos in {args.photos}: expected a folder per "
            "face named like red-7/ or wild-draw4/",
            file=sys.stderr,
        )
        return 2
    if args.per_face > 0:
        photos = {face: paths[: args.per_face] for face, paths in photos.items()}
    try:
        # Calibrate from the plain classifier, never on top of an older calibration.
        rec = CardRecognizer.load(args.models)
        rec.set_calibration(None)
    except (ModelFilesMissing, OSError, ValueError) as exc:
        print(f"uno-table calibrate-deck: cannot load the recogniser: {exc}", file=sys.stderr)
        return 2
    try:
        calib, problems = calibrate(rec, photos, weight=args.weight)
    except ValueError as exc:
        print(f"uno-table calibrate-deck: {exc}", file=sys.stderr)
        return 1
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    out = args.out or (Path(args.models) if args.models else MODELS_DIR) / "deck.npz"
    calib.save(out)
    used = sum(len(v) for v in photos.values()) - len(problems)
    print(f"calibrated {len(calib.names)} faces from {used} photos -> {out}")
    return 0
