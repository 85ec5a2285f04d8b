"""Trial: a card's colour from the hue of its ink (issue 19, item 5).

Each photo's card is cut at the detector's surest box, as ``benchmarks/bench_decks.py``
cuts it (its cache, ``.cache/bench_decks/SOURCE.json``, is read when present and
written when not), 96x96 upright as the classifier reads it, its white made neutral
as a calibrated deck reads it (:mod:`vision.white_balance`). Its ink pixels (HSV
saturation and value at least :data:`INK_S` and :data:`INK_V`) vote for a colour:

- ``fixed``: the watcher's hue bands (:func:`vision.ink_colors.color_map`), on every
  source; a card with under :data:`MIN_SHARE` of its pixels inked in one colour
  counts as a wild.
- ``deck``: hue bands learnt from one deck's calibration photos (the first photo of
  each face, as ``uno-table calibrate-deck`` takes them): each colour's histogram of
  ink hues (:data:`BINS` bins, smoothed around the circle), each hue given to the
  colour whose histogram is highest there. Scored as ``benchmarks/bench_calib.py``
  scores a calibration: on the tuning pair (alinivan's bands on svolsch's photos and
  the other way round) and on the decks already read (syedhannaan, real-cards' held-out
  part: their own other photos). The held-out photographers (criscard, soloskino,
  reiamenezes) are left unmeasured on purpose: the bands were not chosen to be used,
  and those photos stay unseen for a later trial that would be.

Wild cards are left out of every figure (their ink is every colour).

    python benchmarks/trial_ink_hue.py [--out models/trial-ink-hue.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("YOLO_OFFLINE", "1")

from benchmarks.bench_decks import SOURCES, cut_source, write_boxes  # noqa: E402
from benchmarks.splits import first_per_face  # noqa: E402
from tracker.cards import COLORS  # noqa: E402
from vision.geometry import warp_crop  # noqa: E402
from vision.ink_colors import color_map  # noqa: E402
from vision.white_balance import MAX_GAIN, WHITE_PERCENTILE  # noqa: E402

CACHE = ROOT / ".cache" / "bench_decks"
SIZE = 96
#: An ink pixel: HSV saturation and value at least these (OpenCV's 0-255).
INK_S, INK_V = 80, 50
#: Hue bins of a deck's colour histograms (OpenCV's hue, 0-180), and the smoothing
#: around the circle (a Gaussian of this many bins).
BINS, SMOOTH = 36, 1.0
#: Under this share of a crop's pixels inked in its surest colour: no colour (a wild).
MIN_SHARE = 0.05
TUNING = (("alinivan", "svolsch"), ("svolsch", "alinivan"))
WHITE = ("syedhannaan", "real-cards")

U8 = npt.NDArray[np.uint8]


def neutral(crop: U8) -> U8:
    """The crop with its whitest pixels made grey, as :class:`NeutralWhite` does."""
    f = crop.astype(np.float32)
    white = np.percentile(f.reshape(-1, 3), WHITE_PERCENTILE, axis=0)
    gains = np.clip(white.max() / np.maximum(white, 1.0), 1 / MAX_GAIN, MAX_GAIN)
    return np.clip(f * gains, 0, 255).astype(np.uint8)


def crops_of(source: str) -> tuple[U8, list[str], list[bool]]:
    """Every photo's card of ``source``: crops, faces, real-cards' held-out part."""
    meta_file = CACHE / f"{source}.json"
    if not meta_file.exists():
        cut(source, meta_file)
    photos = json.loads(meta_file.read_text())["photos"]
    crops = [warp_crop(cv2.imread(m["path"]), np.float32(m["quad"]), SIZE) for m in photos]
    return (
        np.stack(crops),
        [m["face"] for m in photos],
        [bool(m["held_out"]) for m in photos],
    )


def cut(source: str, meta_file: Path) -> None:
    """Cut ``source``'s photos and cache the boxes as ``bench_decks.py`` does."""
    from synth.training import base_models_dir
    from vision.recognition import CardRecognizer

    base = base_models_dir(Path(tempfile.mkdtemp(prefix="trial-hue-")) / "models")
    rec = CardRecognizer.load(base, backend="onnx", use_deck=False)
    rec.set_head(None)
    write_boxes(meta_file, *cut_source(rec, source))


def ink_hues(crop: U8) -> npt.NDArray[np.float64]:
    """The histogram of the neutral crop's ink hues (:data:`BINS` bins)."""
    hsv = cv2.cvtColor(neutral(crop), cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.int32)
    ink = (hsv[:, 1] >= INK_S) & (hsv[:, 2] >= INK_V)
    return np.bincount(hsv[ink, 0] * BINS // 180, minlength=BINS).astype(np.float64)


def fixed_color(crop: U8) -> str:
    """The colour of most of the crop's ink by the watcher's fixed hue bands."""
    cat = color_map(neutral(crop))
    shares = [float((cat == k + 1).mean()) for k in range(len(COLORS))]
    best = int(np.argmax(shares))
    return COLORS[best] if shares[best] >= MIN_SHARE else "wild"


def deck_bands(crops: U8, faces: list[str]) -> npt.NDArray[np.intp]:
    """For each hue bin, the colour (index into ``COLORS``) a deck's calibration crops
    show most there: each colour's ink hue histogram, normalised per crop and smoothed."""
    hist = np.full((len(COLORS), BINS), 1e-3)
    for crop, face in zip(crops, faces, strict=True):
        color = face.split("-")[0]
        if color in COLORS:
            h = ink_hues(crop)
            hist[COLORS.index(color)] += h / max(h.sum(), 1.0)
    half = 3
    kernel = np.exp(-0.5 * (np.arange(-half, half + 1) / SMOOTH) ** 2)
    kernel /= kernel.sum()
    smooth = [np.convolve(np.r_[h[-half:], h, h[:half]], kernel, "valid") for h in hist]
    return np.asarray(np.argmax(np.stack(smooth), axis=0), np.intp)


def deck_color(bands: npt.NDArray[np.intp], crop: U8) -> str:
    h = ink_hues(crop)
    votes = [float(h[bands == k].sum()) for k in range(len(COLORS))]
    return COLORS[int(np.argmax(votes))]


def tally(pred: list[str], faces: list[str]) -> dict[str, Any]:
    pairs = [(f.split("-")[0], p) for p, f in zip(pred, faces, strict=True)]
    pairs = [(c, p) for c, p in pairs if c in COLORS]
    wrong = Counter(f"{c}->{p}" for c, p in pairs if c != p)
    right = len(pairs) - sum(wrong.values())
    return {
        "n": len(pairs),
        "right": right,
        "colour": round(100.0 * right / max(len(pairs), 1), 1),
        "wrong": dict(wrong.most_common()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    data = {s: crops_of(s) for s in SOURCES}
    out: dict[str, Any] = {"fixed": {}, "deck": {}}
    for s, (crops, faces, _) in data.items():
        out["fixed"][s] = tally([fixed_color(c) for c in crops], faces)
        print(f"fixed bands  {s:>12}: {json.dumps(out['fixed'][s])}", flush=True)
    for cal, scored in (*TUNING, *((s, s) for s in WHITE)):
        crops, faces, held = data[cal]
        first, rest = first_per_face(faces)
        bands = deck_bands(crops[first], [faces[i] for i in first])
        if scored == cal:  # its own other photos (real-cards: its held-out part)
            idx = [i for i in rest if held[i] or cal != "real-cards"]
            t_crops, t_faces = crops[idx], [faces[i] for i in idx]
        else:
            t_crops, t_faces, _ = data[scored]
        row = tally([deck_color(bands, c) for c in t_crops], t_faces)
        row["bands"] = "".join(COLORS[k][0] for k in bands)
        out["deck"][f"{cal}->{scored}"] = row
        print(f"deck bands   {cal:>12} -> {scored}: {json.dumps(row)}", flush=True)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
