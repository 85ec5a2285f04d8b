"""Face-up boxes per photo on real one-card photos, with and without the inner-box
filter (``vision.box_filter``): every photo of ``shared/data/real-cards`` and
``shared/data/more-cards`` shows one card, so a second box is a duplicate (the oval,
the corner index, the card with its surroundings) or a box on nothing. Face boxes
of the whole recogniser (``detect``), at its own threshold. Also each source's top-1
with the default filter: the surest face box named as the photo's folder (the shipped
classifier was fitted on these photos: a check of the boxes, not a held-out figure),
and where the default filter's extra boxes lie: ``overlapping`` the surest box (the
card boxed again) or ``apart`` from it (another card in the photo, or a box on
something else), and how many are ``unsure`` (confidence under :data:`UNSURE`).

    python benchmarks/bench_boxes.py [--out models/boxes.json] [--models DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The box filter's own quad area and overlap (private there; renaming them would
# change the recogniser's code digest and void every recorded detection).
from vision.box_filter import _area as quad_area  # noqa: E402
from vision.box_filter import _overlap as quad_overlap  # noqa: E402
from vision.deck_calibration import list_photos  # noqa: E402
from vision.detections import Detections  # noqa: E402
from vision.detector import CardRecognizer  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
#: (name, drop_closeup_twins, drop_inner_boxes): no filter, the default, both rules.
FILTERS = (("off", False, False), ("default", True, False), ("both", True, True))
#: An extra box covering more than this share of its own area of the surest box
#: overlaps it (the card boxed again); less, it lies apart.
OVERLAPPING = 0.05
#: An extra box's confidence (the detector's times the classifier's) under this is unsure.
UNSURE = 0.3


def extra_boxes(found: Detections) -> Counter[str]:
    """Where a photo's face boxes other than the surest lie, and how sure they are."""
    faces = [i for i, card in enumerate(found.card) if card != "back"]
    out = Counter[str]()
    if len(faces) < 2 or found.corners is None:
        return out
    best = max(faces, key=lambda i: float(found.confidence[i]))
    for i in faces:
        if i == best:
            continue
        area = quad_area(found.corners[i])
        shared = quad_overlap(found.corners[i], found.corners[best])
        out["overlapping" if shared > OVERLAPPING * max(area, 1.0) else "apart"] += 1
        out["unsure"] += int(float(found.confidence[i]) < UNSURE)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--models", type=Path, default=None, help="another models folder")
    args = parser.parse_args()
    rec = CardRecognizer.load(args.models, calibration=None)
    roots = {"real-cards": SHARED / "real-cards"}
    roots |= {p.name: p for p in sorted((SHARED / "more-cards").iterdir()) if p.is_dir()}
    result: dict[str, dict[str, dict[Any, int]]] = {}
    for name, root in roots.items():
        counts = {key: Counter[int]() for key, _, _ in FILTERS}
        right = Counter[int]()
        where = Counter[str]()
        for face, paths in list_photos(root).items():
            for p in paths:
                img = cv2.imread(str(p))
                if img is None:
                    continue
                for key, twins, inner in FILTERS:
                    rec.drop_closeup_twins, rec.drop_inner_boxes = twins, inner
                    found = rec.detect(img)
                    named = [
                        (c, card)
                        for c, card in zip(found.confidence, found.card, strict=True)
                        if card != "back"
                    ]
                    counts[key][len(named)] += 1
                    if key == "default":
                        right[int(bool(named) and max(named)[1] == face)] += 1
                        where += extra_boxes(found)
        result[name] = {k: dict(sorted(v.items())) for k, v in counts.items()}
        result[name]["top1"] = {1: right[1], 0: right[0]}
        result[name]["extra_default"] = {k: where[k] for k in ("overlapping", "apart", "unsure")}
        extra = {k: sum(n * max(b - 1, 0) for b, n in v.items()) for k, v in counts.items()}
        total = sum(counts["off"].values())
        seconds = ", ".join(f"{k} {extra[k]}" for k, _, _ in FILTERS)
        top1 = 100.0 * right[1] / max(1, total)
        print(
            f"{name}: {total} photos; top-1 {top1:.1f}%; second boxes: {seconds}; {result[name]}",
            flush=True,
        )
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
