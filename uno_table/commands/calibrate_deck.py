"""calibrate-deck: adapt the card classifier to your own deck from a few photos.

PHOTOS_DIR holds one folder per face, named with the canonical card names
(red-7/, blue-skip/, wild/, ...), each with one or a few photos of that card, e.g.
taken with the table camera. Each photo's card is cut out many times over with
random changes of framing, size, light, focus and compression, and the classifier's
last stages are fitted again on those crops (a few minutes on two cores), pulled
towards where they started so faces without photos keep what they knew. Writes
models/deck.onnx (a classifier for this deck, used from then on by detect, serve and
demo) or --out. --head fits only the last layer (faster, weaker) into models/deck.npz.

The shipped classifier was fitted on real photos of several editions (models/README.md):
--general goes back to it, setting an older deck file aside (deck.onnx.old, deck.npz.old).

Examples:
  uno-table calibrate-deck my-deck-photos/
  uno-table calibrate-deck --general
  uno-table calibrate-deck shared/data/real-cards --per-face 1 --skip-held-out --out /tmp/deck.onnx
  uno-table calibrate-deck my-deck-photos/ --head            # the last layer only, in seconds
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "photos", type=Path, nargs="?", metavar="PHOTOS_DIR", help="a folder per face"
    )
    parser.add_argument(
        "--general",
        action="store_true",
        help="no photos: forget the deck, use the shipped classifier (fitted on several "
        "editions); older deck files are set aside as *.old",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="output (models/deck.onnx; with --head deck.npz)"
    )
    parser.add_argument(
        "--head",
        action="store_true",
        help="fit only the classifier's last layer (seconds, weaker) into models/deck.npz",
    )
    parser.add_argument("--models", type=Path, default=None, help="model folder (models/)")
    parser.add_argument("--per-face", type=int, default=0, help="photos per face (0: all)")
    parser.add_argument(
        "--skip-held-out",
        action="store_true",
        help="leave out photos whose index ends in 0 or 5 (the evaluation part)",
    )
    parser.add_argument(
        "--crops",
        type=int,
        default=0,
        help="augmented crops cut from each photo (24; with --head 48)",
    )
    parser.add_argument(
        "--as-shot",
        action="store_true",
        help="fit on the crops as they come, their white not made neutral (calibrations "
        "before 3 December 2026)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def unknown_folders(root: Path) -> list[str]:
    """Sub-folders of ``root`` whose name is not a card face (a typo, another layout)."""
    from tracker.cards import ALL_CARDS

    faces = {c.name for c in ALL_CARDS}
    return sorted(d.name for d in root.iterdir() if d.is_dir() and d.name not in faces)


def run(args: argparse.Namespace) -> int:
    from vision.deck_calibration import list_photos
    from vision.deck_fit import (
        FACE_ANCHORS_FILE,
        CalibrationError,
        face_anchors,
        first_layer_for,
        fit_deck,
        fit_deck_tail,
        read_photos,
        share_read_right,
    )
    from vision.deck_tail import TailTuner, export_onnx, load_network
    from vision.detector import CardRecognizer, ModelFilesMissing
    from vision.recognition import (
        CLASSIFIER_PT,
        DECK_CLASSIFIER_FILE,
        DECK_FILE,
        base_head,
    )
    from vision.yolo_env import MODELS_DIR

    def fail(message: str, code: int = 2) -> int:
        print(f"uno-table calibrate-deck: {message}", file=sys.stderr)
        return code

    models = Path(args.models) if args.models else MODELS_DIR
    if args.general:
        if args.photos is not None:
            return fail("--general takes no photos (it uses the general model as it is)")
        return _use_general(args, models, fail)
    if args.photos is None:
        return fail("give a folder of photos (one folder per face), or --general")
    from vision.recognition import CLASSIFIER_ONNX, classifier_digest

    want = ".npz" if args.head else ".onnx"
    if args.out is not None and args.out.suffix != want:
        return fail(f"--out must end in {want} ({'a read-out' if args.head else 'a classifier'})")
    if not args.photos.is_dir():
        return fail(f"no photo folder {args.photos}")
    unknown = unknown_folders(args.photos)
    if unknown:
        return fail(
            f"folders not named like a card: {', '.join(unknown)} (expected names like "
            "red-7, blue-skip, wild-draw4); nothing was changed"
        )
    photos = list_photos(args.photos, "train" if args.skip_held_out else "all")
    if not photos:
        return fail(
            f"no photos in {args.photos}: expected a folder per face named like red-7/ or "
            "wild-draw4/"
        )
    if args.per_face > 0:
        photos = {face: paths[: args.per_face] for face, paths in photos.items()}
    try:
        # Calibrate from the recogniser as shipped, never on top of an older deck.
        rec = CardRecognizer.load(models, use_deck=False)
        start = (
            dataclasses.replace(
                base_head(models), classifier=classifier_digest(models / CLASSIFIER_ONNX)
            )
            if args.head
            else None
        )
        rec.set_head(start)
    except (ModelFilesMissing, OSError, ValueError) as exc:
        return fail(f"cannot load the recogniser: {exc}")
    bar = ProgressBar(sys.stderr) if not args.quiet else None
    try:
        found, problems = read_photos(rec, photos, progress=bar)
        for problem in problems.skipped + problems.several:
            print(f"warning: {problem}", file=sys.stderr)
        if not found:
            raise CalibrationError("no usable photo: no card was found in any of them")
        if args.head:
            assert start is not None
            head = fit_deck(rec, found, start=start, per_photo=args.crops or 48, progress=bar)
        else:
            net = load_network(models / CLASSIFIER_PT)
            neutral = not args.as_shot
            tuner = TailTuner(net, neutral_white=neutral)
            read_right = share_read_right(tuner, found, rec.cls_imgsz)
            first = first_layer_for(read_right)
            if first != tuner.first:  # a deck it reads poorly: fit deeper
                tuner = TailTuner(net, first, neutral_white=neutral)
            if not args.quiet:
                print(
                    f"read right before the fit: {read_right:.0%} of the photos; "
                    f"fitting the classifier from its layer {first}",
                    file=sys.stderr,
                )
            anchors = face_anchors(tuner, models / FACE_ANCHORS_FILE)
            if anchors is None:
                print(
                    f"warning: no {models / FACE_ANCHORS_FILE}: faces without a photo may be "
                    "forgotten (benchmarks/make_face_anchors.py writes it)",
                    file=sys.stderr,
                )
            fit_deck_tail(
                rec, found, tuner, per_photo=args.crops or 24, anchors=anchors, progress=bar
            )
    except CalibrationError as exc:
        return fail(f"{exc}; nothing was changed", 1)
    except (FileNotFoundError, RuntimeError) as exc:
        return fail(f"cannot fit the classifier: {exc}; nothing was changed", 1)
    if args.head:
        out = args.out or models / DECK_FILE
        head.save(out)
        if args.out is None:
            _set_aside(models / DECK_CLASSIFIER_FILE)
    else:
        out = args.out or models / DECK_CLASSIFIER_FILE
        export_onnx(tuner.network(), out, rec.cls_imgsz)
    faces = sorted({p.face for p in found})
    print(f"calibrated {len(faces)} faces from {len(found)} photos -> {out}")
    return 0


def _use_general(args: argparse.Namespace, models: Path, fail: Callable[[str], int]) -> int:
    """Forget the deck: set ``deck.onnx`` and ``deck.npz`` aside, so the recogniser reads
    with the shipped classifier (fitted on several editions) again."""
    from vision.recognition import DECK_CLASSIFIER_FILE, DECK_FILE

    if args.out is not None or args.head:
        return fail("--general takes no --out or --head (it writes nothing)")
    for name in (DECK_CLASSIFIER_FILE, DECK_FILE):
        _set_aside(models / name)
    print("the shipped classifier (fitted on several editions) is used from now on")
    return 0


def _set_aside(path: Path) -> None:
    """Rename an older deck file (a deck classifier would be used before a head) to
    ``*.old``."""
    if path.exists():
        path.replace(path.with_name(path.name + ".old"))
        print(f"the older deck file is kept as {path.name}.old", file=sys.stderr)


class ProgressBar:
    """A one-line progress bar per stage on a terminal stream."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width

    def __call__(self, stage: str, done: int, total: int) -> None:
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        end = "\n" if done >= total else ""
        print(f"\r{stage:>15} [{bar}] {done}/{total}", end=end, file=self.stream, flush=True)
