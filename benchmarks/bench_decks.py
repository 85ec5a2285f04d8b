"""Recognition on decks and photographers held out whole, before and after calibration.

Sources: ``shared/data/real-cards`` (one photographer, the white-oval edition; its
training part, and its held-out part: index ending in 0 or 5) and the six sources of
``shared/data/more-cards`` (five of the coloured-oval edition, one of the white-oval
edition by another photographer).

1. **Out of the box, each source left out in turn.** A read-out head (the
   classifier's last layer, :mod:`vision.deck_head`) is fitted on augmented crops of
   every other source's photos (real-cards: its training part only), plus rendered
   crops of every face (so rendered games read as well as before), and the whole
   recogniser (detector, crop, classifier, that head) is run on the left-out source:
   top-1 and colour of the most confident card. ``real-cards`` left out means its
   training part is left out too and its held-out part is tested.
2. **After calibration with one photo per face**, each source in turn: from the
   head that never saw it, fitted to the first photo of each face of the source, then
   tested on the source's other photos (where it has more than one per face).
3. **A deck never seen, calibrated by one photographer, used by others:** heads fitted
   on the white-oval sources only; calibrated on one coloured-oval source (one photo
   per face) and tested on the four other coloured-oval sources.
4. **Boxes per card**: every photo shows one card; face-up boxes found per photo.

The head fit's settings are the defaults of ``HeadFit`` and ``Augment``; they were
set before any of these figures was looked at and not changed after.

    python benchmarks/bench_decks.py [--out models/decks.json] [--per-photo 16]

The classifier is the one ``uno-table train`` made (``models/classifier-base.*``),
before its last stages were fitted on these photos (the shipped classifier:
``benchmarks/bench_tail.py``). Photos' boxes and embeddings are cached in
``.cache/bench_decks/`` (delete it after changing the models).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.splits import first_per_face  # noqa: E402
from vision.deck_calibration import color_of, is_held_out, list_photos  # noqa: E402
from vision.deck_fit import Photo, augmented_embeddings, embed, read_photo  # noqa: E402
from vision.deck_head import DeckHead, HeadFit, fit_head  # noqa: E402
from vision.recognition import CardRecognizer, base_head  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
COLOUR_OVAL = ("alinivan", "criscard", "soloskino", "reiamenezes", "svolsch")
WHITE_OVAL = ("real-cards", "syedhannaan")
SOURCES = ("real-cards", *COLOUR_OVAL, "syedhannaan")

F32 = npt.NDArray[np.float32]


@dataclass
class Item:
    source: str
    face: str
    path: Path
    held_out: bool  # real-cards' evaluation part


def items_of(source: str) -> list[Item]:
    root = SHARED / "real-cards" if source == "real-cards" else SHARED / "more-cards" / source
    out = []
    for face, paths in list_photos(root, "all").items():
        for p in paths:
            out.append(Item(source, face, p, source == "real-cards" and is_held_out(p)))
    return out


def progress(stage: str, done: int, total: int) -> None:
    if done == total or done % 50 == 0:
        print(f"\r  {stage}: {done}/{total}", end="\n" if done == total else "", file=sys.stderr)


def score(rec: CardRecognizer, photos: list[Photo], head: DeckHead | None) -> dict[str, float]:
    """The whole recogniser with ``head`` on ``photos``: top-1 and colour of the
    most confident face-up card (a photo with none counts as wrong)."""
    rec.set_head(head)
    right = colour = 0
    confusions: Counter[str] = Counter()
    for ph in photos:
        dets = rec.detect(ph.image)
        faces = [d for d in dets if d.card != "back"]
        guess = faces[0].card if faces else "none"
        right += guess == ph.face
        colour += guess != "none" and color_of(guess) == color_of(ph.face)
        if guess != ph.face:
            confusions[f"{ph.face}->{guess}"] += 1
    n = max(len(photos), 1)
    return {
        "photos": len(photos),
        "top1": round(right / n, 4),
        "colour": round(colour / n, 4),
        "worst": ", ".join(f"{k} x{v}" for k, v in confusions.most_common(5)),
    }


def first_photos(photos: list[Photo]) -> tuple[list[Photo], list[Photo]]:
    """The first photo (by name) of each face, and the others."""
    ordered = sorted(photos, key=lambda p: p.path.name)
    first, rest = first_per_face(p.face for p in ordered)
    return [ordered[i] for i in first], [ordered[i] for i in rest]


def cut_source(rec: CardRecognizer, source: str) -> tuple[list[Photo], Counter[int], int]:
    """Every photo of ``source`` cut by ``rec``: the photos with a card (real-cards'
    held-out part marked), face-up boxes per photo, photos with no card."""
    photos: list[Photo] = []
    boxes: Counter[int] = Counter()
    skipped = 0
    for it in items_of(source):
        got = read_photo(rec, it.face, it.path)
        if isinstance(got, str):
            skipped += 1
            boxes[0] += 1
            continue
        got.held_out = it.held_out
        photos.append(got)
        boxes[got.n_faces] += 1
    return photos, boxes, skipped


def write_boxes(meta_file: Path, photos: list[Photo], boxes: Counter[int], skipped: int) -> None:
    """Cache a source's cut photos (``.cache/bench_decks/SOURCE.json``)."""
    meta_file.parent.mkdir(parents=True, exist_ok=True)
    meta = [
        {
            "face": p.face,
            "path": str(p.path),
            "quad": p.quad.tolist(),
            "n_faces": p.n_faces,
            "held_out": p.held_out,
        }
        for p in photos
    ]
    meta_file.write_text(json.dumps({"photos": meta, "boxes": boxes, "skipped": skipped}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "models" / "decks.json")
    parser.add_argument("--per-photo", type=int, default=8, help="augmented crops per photo")
    parser.add_argument("--calib-per-photo", type=int, default=48)
    parser.add_argument(
        "--rendered", type=int, default=30, help="rendered crops per face in every fit (0: none)"
    )
    parser.add_argument("--save-head", type=Path, default=None, help="write the all-source head")
    parser.add_argument("--markdown", type=Path, default=None, help="print a JSON's tables")
    args = parser.parse_args()
    if args.markdown is not None:
        print(markdown(json.loads(args.markdown.read_text())))
        return 0
    t0 = time.perf_counter()
    import tempfile

    from synth.training import base_models_dir

    # The read-out heads are fitted on the classifier as trained (never on the shipped
    # one, whose last stages were fitted on these photos).
    base = base_models_dir(Path(tempfile.mkdtemp(prefix="bench-decks-")) / "models")
    rec = CardRecognizer.load(base, backend="onnx", use_deck=False)
    rec.set_head(None)
    start = base_head(base)
    photos: dict[str, list[Photo]] = {}
    boxes: dict[str, Counter[int]] = {}
    skipped: dict[str, int] = {}
    feats: dict[str, tuple[F32, npt.NDArray[np.intp]]] = {}
    cache = ROOT / ".cache" / "bench_decks"
    cache.mkdir(parents=True, exist_ok=True)
    for source in SOURCES:
        print(f"{source}: reading", file=sys.stderr)
        meta_file, feat_file = cache / f"{source}.json", cache / f"{source}-{args.per_photo}.npz"
        if meta_file.exists() and feat_file.exists():
            meta = json.loads(meta_file.read_text())
            photos[source] = [
                Photo(
                    m["face"],
                    Path(m["path"]),
                    cv2.imread(m["path"]),
                    np.float32(m["quad"]),
                    m["n_faces"],
                    m["held_out"],
                )
                for m in meta["photos"]
            ]
            boxes[source] = Counter({int(k): v for k, v in meta["boxes"].items()})
            skipped[source] = meta["skipped"]
            with np.load(feat_file) as data:
                feats[source] = (data["x"], data["y"])
            continue
        photos[source], boxes[source], skipped[source] = cut_source(rec, source)
        train = [p for p in photos[source] if not p.held_out]
        feats[source] = augmented_embeddings(rec, train, args.per_photo, seed=1, progress=progress)
        np.savez(feat_file, x=feats[source][0], y=feats[source][1])
        write_boxes(meta_file, photos[source], boxes[source], skipped[source])

    def test_set(source: str) -> list[Photo]:
        if source == "real-cards":
            return [p for p in photos[source] if p.held_out]
        return photos[source]

    rendered = rendered_embeddings(rec, args.rendered, cache) if args.rendered else None

    def fit_without(left_out: set[str]) -> DeckHead:
        xs = [feats[s][0] for s in SOURCES if s not in left_out]
        ys = [feats[s][1] for s in SOURCES if s not in left_out]
        if rendered is not None:  # the renderer's cards, so rendered games read as before
            xs.append(rendered[0])
            ys.append(rendered[1])
        return fit_head(start, np.concatenate(xs), np.concatenate(ys), HeadFit())

    result: dict[str, object] = {
        "sources": {},
        "settings": {"per_photo": args.per_photo, "rendered_per_face": args.rendered},
    }
    table: dict[str, dict[str, object]] = {}
    for source in SOURCES:
        print(f"{source}: left out", file=sys.stderr)
        row: dict[str, object] = {"no_card_found": skipped[source]}
        row["classifier_head"] = score(rec, test_set(source), None)
        loso = fit_without({source})
        row["left_out"] = score(rec, test_set(source), loso)
        first, rest = first_photos(test_set(source) if source != "real-cards" else photos[source])
        if source == "real-cards":  # calibrate on the training part, test on the held-out
            first = first_photos([p for p in photos[source] if not p.held_out])[0]
            rest = test_set(source)
        if rest:
            x, y = augmented_embeddings(rec, first, args.calib_per_photo, seed=2)
            calibrated = fit_head(loso, x, y, HeadFit())
            row["calibrated_1_per_face"] = score(rec, rest, calibrated) | {
                "calibration_photos": len(first)
            }
            row["left_out_on_same_photos"] = score(rec, rest, loso)
        row["boxes_per_photo"] = dict(sorted(boxes[source].items()))
        table[source] = row
        print(json.dumps({source: row}), file=sys.stderr)
    result["sources"] = table

    print("coloured-oval never seen: calibrate on one source, test on the others", file=sys.stderr)
    white_only = fit_without(set(COLOUR_OVAL))
    cross: dict[str, object] = {}
    for source in COLOUR_OVAL:
        first, _ = first_photos(photos[source])
        others = [p for s in COLOUR_OVAL if s != source for p in photos[s]]
        x, y = augmented_embeddings(rec, first, args.calib_per_photo, seed=2)
        calibrated = fit_head(white_only, x, y, HeadFit())
        cross[source] = {
            "before": score(rec, others, white_only),
            "after": score(rec, others, calibrated),
            "calibration_photos": len(first),
        }
        print(json.dumps({source: cross[source]}), file=sys.stderr)
    result["cross_photographer"] = cross
    if args.save_head is not None:
        fit_without(set()).save(args.save_head)
    result["seconds"] = round(time.perf_counter() - t0, 1)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(markdown(result))
    return 0


def rendered_embeddings(
    rec: CardRecognizer, per_face: int, cache: Path
) -> tuple[F32, npt.NDArray[np.intp]]:
    """Embeddings of ``per_face`` rendered crops of every face (three editions, cut
    along the true corners with the detector's jitter), cached."""
    path = cache / f"rendered-{per_face}.npz"
    if path.exists():
        with np.load(path) as data:
            return data["x"], data["y"]
    import tempfile

    from synth.render.dataset import write_classifier_dataset

    index = {n: i for i, n in enumerate(rec.face_names)}
    with tempfile.TemporaryDirectory() as tmp:
        root = write_classifier_dataset(Path(tmp), per_face, 0, seed=77, crop=rec.cls_imgsz)
        files = sorted((root / "train").glob("*/*.jpg"))
        crops = np.stack([cv2.imread(str(f)) for f in files])
        y = np.array([index[f.parent.name] for f in files], np.intp)
    x = embed(rec, crops)
    np.savez(path, x=x, y=y)
    return x, y


def markdown(result: dict[str, Any]) -> str:
    """The figures as the model card's tables."""

    def pct(row: dict[str, Any] | None, key: str = "top1") -> str:
        return "-" if not row else f"{100 * row[key]:.1f}%"

    lines = [
        "| source left out | edition | photos | top-1 / colour, classifier's own read-out "
        "| top-1 / colour, head fitted without it |",
        "|---|---|---|---|---|",
    ]
    for source, row in result["sources"].items():
        edition = "coloured oval" if source in COLOUR_OVAL else "white oval"
        lines.append(
            f"| {source} | {edition} | {row['left_out']['photos']} "
            f"| {pct(row['classifier_head'])} / {pct(row['classifier_head'], 'colour')} "
            f"| {pct(row['left_out'])} / {pct(row['left_out'], 'colour')} |"
        )
    lines += [
        "",
        "| source | calibration photos | tested on (its other photos) | top-1 before "
        "| top-1 after | colour after |",
        "|---|---|---|---|---|---|",
    ]
    for source, row in result["sources"].items():
        cal = row.get("calibrated_1_per_face")
        if cal:
            lines.append(
                f"| {source} | {cal['calibration_photos']} | {cal['photos']} "
                f"| {pct(row['left_out_on_same_photos'])} | {pct(cal)} | {pct(cal, 'colour')} |"
            )
    lines += [
        "",
        "| calibrated on (1 photo per face) | tested on the other coloured-oval sources "
        "| top-1 / colour before | top-1 / colour after |",
        "|---|---|---|---|",
    ]
    for source, row in result["cross_photographer"].items():
        lines.append(
            f"| {source} ({row['calibration_photos']}) | {row['after']['photos']} "
            f"| {pct(row['before'])} / {pct(row['before'], 'colour')} "
            f"| {pct(row['after'])} / {pct(row['after'], 'colour')} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
