"""Face-up boxes per photo on real one-card photos, with and without the inner-box
filter (``vision.box_filter``): every photo of ``shared/data/real-cards`` and
``shared/data/more-cards`` shows one card, so a second box is a duplicate (the oval,
the corner index, the card with its surroundings) or a box on nothing. Face boxes
of the whole recogniser (``detect``), at its own threshold. Also each source's top-1
with the default filter: the surest face box named as the photo's folder (the shipped
classifier was fitted on these photos: a check of the boxes, not a held-out figure).

    python benchmarks/bench_boxes.py [--out models/boxes.json] [--models DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.deck_calibration import list_photos  # noqa: E402
from vision.detector import CardRecognizer  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
#: (name, drop_closeup_twins, drop_inner_boxes): no filter, the default, both rules.
FILTERS = (("off", False, False), ("default", True, False), ("both", True, True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--models", type=Path, default=None, help="another models folder")
    args = parser.parse_args()
    rec = CardRecognizer.load(args.models, calibration=None)
    roots = {"real-cards": SHARED / "real-cards"}
    roots |= {p.name: p for p in sorted((SHARED / "more-cards").iterdir()) if p.is_dir()}
    result: dict[str, dict[str, dict[int, int]]] = {}
    for name, root in roots.items():
        counts = {key: Counter[int]() for key, _, _ in FILTERS}
        right = Counter[int]()
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
        result[name] = {k: dict(sorted(v.items())) for k, v in counts.items()}
        result[name]["top1"] = {1: right[1], 0: right[0]}
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
