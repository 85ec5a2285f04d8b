"""The classifier's last stages fine-tuned on real photos (:mod:`vision.deck_tail`),
measured with sources held out whole, and the general model built.

Needs the photo cache of ``benchmarks/bench_decks.py`` (run it once) and the layer-6
cache of ``benchmarks/trial_tail_finetune.py`` (8 augmented crops a photo; made on
first use). Anchors: crops the detector cuts from rendered game frames (whole frame
and the pile's close look; games seeded 7100+, never those of the tests), with the
committed classifier's probabilities as soft targets, so the fit keeps reading
rendered games as before.

    python benchmarks/bench_tail.py loso [--folds a,b] [--out models/tail-loso.json]
    python benchmarks/bench_tail.py calib [--start base|loso] [--out models/tail-calib.json]
    python benchmarks/bench_tail.py general --models-out /tmp/models-tuned
    python benchmarks/bench_tail.py general --blur --models-out /tmp/models-blur  # not shipped

``loso``: for each source, the tail fitted on every other source (real-cards: its
training part) plus the anchors; top-1 and colour on the left-out source's photos
(real-cards: its held-out part), each photo's surest box, upright and half-turned
averaged, as the recogniser reads it. ``calib``: from each fold's model, one photo
per face of the left-out source fitted (the calibration of ``uno-table
calibrate-deck``), the source's other photos tested; and a deck never seen (the
white-oval sources only), calibrated on one coloured-oval source, tested on the four
others. ``general``: the tail fitted on all sources and the anchors, written as
``classifier.onnx`` / ``classifier.pt`` into a copy of ``models/``. ``--blur`` (loso,
general) adds motion-blurred rendered crops of every face to the anchors
(:func:`blur_anchors`; measured and not kept: models/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("YOLO_OFFLINE", "1")

import torch  # noqa: E402

from benchmarks.splits import first_per_face  # noqa: E402
from vision.deck_tail import TailFit, TailTuner, export_onnx, save_checkpoint  # noqa: E402

torch.set_num_threads(2)
CACHE = ROOT / ".cache" / "bench_decks"
COLOUR_OVAL = ("alinivan", "criscard", "soloskino", "reiamenezes", "svolsch")
WHITE_OVAL = ("real-cards", "syedhannaan")
SOURCES = ("real-cards", *COLOUR_OVAL, "syedhannaan")
K = 8
ANCHOR_GAMES = 10
ANCHOR_SEED = 7100
#: A rendered card this uncovered gets its true face as the anchor's target.
ANCHOR_VISIBLE = 0.6
ANCHOR_SMOOTH = 0.05
#: Rendered crops a face among the anchors.
FACE_ANCHORS = 20
#: Rendered crops a face smeared as a moving card is (``--blur``; docs/watcher.md,
#: "Recogniser under motion blur"): each smeared once along a random direction, by up
#: to ``BLUR_MAX`` of the crop's side (a card moving 0.6 of its length a frame, a
#: webcam exposing 0.7 of a frame interval), and turned half a turn.
BLUR_ANCHORS = 40
BLUR_MIN = 0.04
BLUR_MAX = 0.6
BLUR_SEED = 79


def photo_cache() -> dict[str, dict[str, Any]]:
    path = CACHE / f"l6-{K}.npz"
    if not path.exists():
        raise SystemExit(f"{path} missing: run benchmarks/trial_tail_finetune.py {K} once")
    return dict(np.load(path, allow_pickle=True)["data"].item())


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1])
    return float(inter / max(area - inter, 1e-9))


def anchors(tuner: TailTuner, blur: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Every anchor: crops of rendered games (:func:`game_anchors`, two sets of seeds)
    and rendered crops of every face (:func:`face_anchors`); with ``blur`` also the
    smeared crops of :func:`blur_anchors`."""
    parts = [
        game_anchors(tuner, ANCHOR_SEED, ANCHOR_GAMES, "-v2"),
        game_anchors(tuner, ANCHOR_SEED + ANCHOR_GAMES, ANCHOR_GAMES, "-b"),
        face_anchors(tuner),
    ]
    if blur:
        parts.append(blur_anchors(tuner))
    return np.concatenate([a for a, _ in parts]), np.concatenate([b for _, b in parts])


def _smoothed(y: np.ndarray, n_faces: int) -> np.ndarray:
    hard = np.full((len(y), n_faces), ANCHOR_SMOOTH / n_faces, np.float32)
    hard[np.arange(len(y)), y] += 1 - ANCHOR_SMOOTH
    return hard


def face_anchors(tuner: TailTuner) -> tuple[np.ndarray, np.ndarray]:
    """Rendered crops of every face (three editions, cut along the true corners with
    the detector's jitter; ``FACE_ANCHORS`` a face), upright and turned, true faces."""
    path = CACHE / f"anchors-faces-{FACE_ANCHORS}.npz"
    if path.exists():
        d = np.load(path)
        return d["x"], d["p"]
    import tempfile

    import cv2

    from synth.render.dataset import write_classifier_dataset

    index = {n: i for i, n in enumerate(tuner.names)}
    with tempfile.TemporaryDirectory() as tmp:
        root = write_classifier_dataset(Path(tmp), FACE_ANCHORS, 0, seed=78, crop=96)
        files = sorted((root / "train").glob("*/*.jpg"))
        crops = np.stack([cv2.imread(str(f)) for f in files])
        y = np.array([index[f.parent.name] for f in files])
    x = tuner.features(np.concatenate([crops, crops[:, ::-1, ::-1]]))
    p = _smoothed(np.concatenate([y, y]), len(tuner.names))
    np.savez_compressed(path, x=x.astype(np.float16), p=p)
    return x, p


def blur_anchors(tuner: TailTuner) -> tuple[np.ndarray, np.ndarray]:
    """Rendered crops of every face (``BLUR_ANCHORS`` a face, cut along the true corners
    with the detector's jitter) smeared along a random direction by ``BLUR_MIN`` to
    ``BLUR_MAX`` of the crop's side (:func:`vision.deck_augment.smear`), upright and
    turned, with their true faces (cached)."""
    path = CACHE / f"anchors-blur-{BLUR_ANCHORS}.npz"
    if path.exists():
        d = np.load(path)
        return d["x"], d["p"]
    import tempfile

    import cv2

    from synth.render.dataset import write_classifier_dataset
    from vision.deck_augment import smear

    rng = np.random.default_rng(BLUR_SEED)
    index = {n: i for i, n in enumerate(tuner.names)}
    with tempfile.TemporaryDirectory() as tmp:
        root = write_classifier_dataset(Path(tmp), BLUR_ANCHORS, 0, seed=BLUR_SEED, crop=96)
        files = sorted((root / "train").glob("*/*.jpg"))
        crops = []
        for f in files:
            img = cv2.imread(str(f))
            side = img.shape[0]
            length = rng.uniform(BLUR_MIN, BLUR_MAX) * side
            crops.append(smear(img, length, rng.uniform(0.0, 180.0)))
        y = np.array([index[f.parent.name] for f in files])
    allc = np.stack(crops)
    x = tuner.features(np.concatenate([allc, allc[:, ::-1, ::-1]]))
    p = _smoothed(np.concatenate([y, y]), len(tuner.names))
    np.savez_compressed(path, x=x.astype(np.float16), p=p)
    print(f"blurred anchors: {len(x)} crops", flush=True)
    return x, p


def game_anchors(
    tuner: TailTuner, first_seed: int, games: int, tag: str
) -> tuple[np.ndarray, np.ndarray]:
    """Layer-6 maps of detector crops of rendered game frames and their soft targets
    (cached): the true face (smoothed) where the crop is a card the renderer says is at
    least ``ANCHOR_VISIBLE`` uncovered, else the committed classifier's probabilities."""
    path = CACHE / f"anchors-{games}{tag}.npz"
    if path.exists():
        d = np.load(path)
        return d["x"], d["p"]
    import tempfile

    from synth.video import render_video, simulated_game
    from vision.recognition import CardRecognizer, _xyxy, focus_roi
    from vision.source import read_video

    rec = CardRecognizer.load(ROOT / "models", use_deck=False)
    index = {n: i for i, n in enumerate(tuner.names)}
    crops, labels = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for g in range(games):
            seed = first_seed + g
            video = Path(tmp) / f"g{seed}.mp4"
            render_video(simulated_game(seed, players=3 + g % 2, turns=8), video, seed=seed)
            layout = json.loads(video.with_name(video.name + ".layout.json").read_text())
            truth = [
                json.loads(line)["cards"]
                for line in video.with_name(video.name + ".boxes.jsonl").open()
            ]
            for i, frame in enumerate(read_video(video)):
                if i % 6:
                    continue
                img = frame.image
                corners, _, cls_id = rec._find(img)
                parts = [corners[cls_id == 0]]
                x0, y0, x1, y1 = (
                    int(v)
                    for v in focus_roi(tuple(layout["discard"]), 0.6 * layout["card_px"], img.shape)
                )
                near, _, near_cls = rec._find(np.ascontiguousarray(img[y0:y1, x0:x1]))
                parts.append(near[near_cls == 0] + np.array([x0, y0], np.float32))
                for c in parts:
                    if not len(c):
                        continue
                    c = c.astype(np.float32)
                    cut = rec.crops(img, c)
                    crops += [cut, cut[:, ::-1, ::-1]]
                    lab = []
                    for box in _xyxy(c, img.shape):
                        best = [
                            index[card]
                            for card, vis, tb in truth[i]
                            if card in index
                            and vis >= ANCHOR_VISIBLE
                            and _iou(box, np.array(tb)) > 0.5
                        ]
                        lab.append(best[0] if best else -1)
                    labels += lab + lab
            print(f"anchors: game {seed}, {sum(len(c) for c in crops)} crops", flush=True)
    allc = np.concatenate(crops)
    y = np.array(labels)
    x = tuner.features(allc)
    p = tuner.probs(x)
    n_faces = p.shape[1]
    hard = np.full((int((y >= 0).sum()), n_faces), ANCHOR_SMOOTH / n_faces, np.float32)
    hard[np.arange(len(hard)), y[y >= 0]] += 1 - ANCHOR_SMOOTH
    p[y >= 0] = hard
    print(f"anchors: {len(y)} crops, {(y >= 0).mean():.0%} with a true face", flush=True)
    np.savez_compressed(path, x=x.astype(np.float16), p=p)
    return x, p


def train_set(data: dict[str, dict[str, Any]], sources: list[str]) -> tuple[np.ndarray, np.ndarray]:
    xs = [data[s]["tr_x"][np.repeat(~data[s]["held"], K)] for s in sources]
    ys = [data[s]["tr_y"][np.repeat(~data[s]["held"], K)] for s in sources]
    return np.concatenate(xs), np.concatenate(ys)


def score(tuner: TailTuner, te_x: np.ndarray, te_y: np.ndarray) -> dict[str, float]:
    p = tuner.probs(te_x.reshape(-1, *te_x.shape[2:])).reshape(len(te_x), 2, -1).mean(1)
    pred = p.argmax(1)
    names = tuner.names
    colour = [
        names[a].split("-")[0] == names[b].split("-")[0] for a, b in zip(pred, te_y, strict=True)
    ]
    return {
        "n": len(te_y),
        "top1": round(float((pred == te_y).mean()) * 100, 1),
        "colour": round(float(np.mean(colour)) * 100, 1),
    }


def test_part(data: dict[str, dict[str, Any]], s: str) -> np.ndarray:
    return data[s]["held"] if s == "real-cards" else np.ones(len(data[s]["te_y"]), bool)


#: The classifier as ``uno-table train`` left it (before any fit on real photos of
#: other editions): every fit here starts from it.
BASE_PT = ROOT / "models" / "classifier-base.pt"


def fresh() -> TailTuner:
    return TailTuner.from_file(BASE_PT)


def fold_model(s: str) -> TailTuner:
    """The tail fitted with source ``s`` held out (``loso`` writes it)."""
    path = CACHE / f"tail-loso-{s}.pt"
    if not path.exists():
        raise SystemExit(f"{path} missing: run benchmarks/bench_tail.py loso --folds {s} first")
    tuner = fresh()
    tuner.tail.load_state_dict(torch.load(path))
    return tuner


def anchor_agreement(tuner: TailTuner, ax: np.ndarray, ap: np.ndarray) -> float:
    """Share of anchor crops read as the committed classifier read them."""
    return round(float((tuner.probs(ax).argmax(1) == ap.argmax(1)).mean()) * 100, 1)


def run_loso(folds: list[str], fit: TailFit, blur: bool = False) -> dict[str, Any]:
    data = photo_cache()
    base = fresh()
    ax, ap = anchors(base, blur)
    ax = ax.astype(np.float32)
    out: dict[str, Any] = {}
    for s in folds:
        t0 = time.time()
        x, y = train_set(data, [o for o in SOURCES if o != s])
        tuner = fresh()
        tuner.fit(x, y, fit, anchors=(ax, ap))
        te = test_part(data, s)
        out[s] = {
            "base": score(base, data[s]["te_x"][te], data[s]["te_y"][te]),
            "tuned": score(tuner, data[s]["te_x"][te], data[s]["te_y"][te]),
            "anchors_kept": anchor_agreement(tuner, ax, ap),
            "seconds": round(time.time() - t0),
        }
        print(s, out[s], flush=True)
        torch.save(tuner.tail.state_dict(), CACHE / f"tail-loso{'-blur' if blur else ''}-{s}.pt")
    return out


def photos_of(s: str, idx: np.ndarray) -> list[Any]:
    """The cached photos ``idx`` of source ``s`` as :class:`vision.deck_fit.Photo`."""
    import cv2

    from vision.deck_fit import Photo

    meta = json.loads((CACHE / f"{s}.json").read_text())["photos"]
    out = []
    for i in idx:
        m = meta[int(i)]
        out.append(
            Photo(m["face"], Path(m["path"]), cv2.imread(m["path"]), np.float32(m["quad"]), 1)
        )
    return out


def calibrate(tuner: TailTuner, photos: list[Any]) -> float:
    """``uno-table calibrate-deck``'s fit (its settings, 24 crops a photo, the rendered
    face anchors of ``models/face-anchors.jpg``)."""
    from vision.deck_fit import FACE_ANCHORS_FILE, face_anchors, fit_deck_tail
    from vision.recognition import CardRecognizer

    rec = CardRecognizer.load(ROOT / "models", use_deck=False)
    t0 = time.time()
    anchors = face_anchors(tuner, ROOT / "models" / FACE_ANCHORS_FILE)
    fit_deck_tail(rec, photos, tuner, anchors=anchors)
    return time.time() - t0


def run_calib(sources: list[str], start: str = "base") -> dict[str, Any]:
    """One photo per face of a source fitted as ``calibrate-deck`` does; tested on that
    source's other photos. ``start="base"``: from the classifier as trained, which never
    saw the coloured-oval edition, and (coloured-oval sources) tested on the four other
    photographers' photos of the edition too. ``start="loso"``: from the model as
    shipped but fitted without that source (``loso``'s fold): a deck of an edition the
    model knows, by a photographer it never saw; the other photographers' photos were
    in that fit, so they are not tested."""
    data = photo_cache()
    out: dict[str, Any] = {"start": start, "one_photographer": {}, "other_photographers": {}}
    for s in sources:
        first, rest = (np.array(i, int) for i in first_per_face(list(data[s]["te_y"])))
        if s == "real-cards":  # the classifier trained on the rest: test its held-out part
            rest = rest[data[s]["held"][rest]]
        others = [o for o in COLOUR_OVAL if o != s] if s in COLOUR_OVAL and start == "base" else []
        if not len(rest) and not others:
            out["one_photographer"][s] = {"photos": len(first), "note": "one photo a face only"}
            continue  # nothing left to test this source's fit on
        tuner = fresh() if start == "base" else fold_model(s)
        cross = (
            (
                np.concatenate([data[o]["te_x"] for o in others]),
                np.concatenate([data[o]["te_y"] for o in others]),
            )
            if others
            else None
        )
        before = score(tuner, data[s]["te_x"][rest], data[s]["te_y"][rest]) if len(rest) else None
        cross_before = score(tuner, *cross) if cross else None
        seconds = calibrate(tuner, photos_of(s, first))
        row: dict[str, Any] = {"photos": len(first), "seconds": round(seconds)}
        if len(rest):
            row |= {
                "before": before,
                "after": score(tuner, data[s]["te_x"][rest], data[s]["te_y"][rest]),
            }
        out["one_photographer"][s] = row
        print("calib", s, row, flush=True)
        if cross:
            out["other_photographers"][s] = {"before": cross_before, "after": score(tuner, *cross)}
            print("  others", out["other_photographers"][s], flush=True)
    return out


def run_general(models_out: Path, fit: TailFit, blur: bool = False) -> None:
    data = photo_cache()
    tuner = fresh()
    ax, ap = anchors(tuner, blur)
    ax = ax.astype(np.float32)
    x, y = train_set(data, list(SOURCES))
    tuner.fit(
        x, y, fit, anchors=(ax, ap), progress=lambda d, n: print(f"epoch {d}/{n}", flush=True)
    )
    print("anchors kept", anchor_agreement(tuner, ax, ap))
    if models_out.exists():
        shutil.rmtree(models_out)
    shutil.copytree(ROOT / "models", models_out)
    net = tuner.network()
    meta = json.loads((ROOT / "models" / "classifier.json").read_text())
    export_onnx(net, models_out / "classifier.onnx", int(meta["imgsz"]))
    save_checkpoint(net, BASE_PT, models_out / "classifier.pt")
    print("written", models_out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["loso", "calib", "general"])
    ap.add_argument("--folds", default=",".join(SOURCES))
    ap.add_argument("--out", type=Path)
    ap.add_argument(
        "--start",
        choices=["base", "loso"],
        default="base",
        help="calib: from the classifier as trained, or from the fold without the source",
    )
    ap.add_argument("--models-out", type=Path, default=Path("/tmp/models-tuned"))
    ap.add_argument(
        "--blur", action="store_true", help="loso, general: smeared face crops among the anchors"
    )
    args = ap.parse_args()
    if args.mode == "general":
        run_general(args.models_out, TailFit(), args.blur)
        return
    result = (
        run_loso(args.folds.split(","), TailFit(), args.blur)
        if args.mode == "loso"
        else run_calib(args.folds.split(","), args.start)
    )
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
