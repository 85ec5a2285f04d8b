"""Figures of the card recogniser, printed (and written as JSON with --json-out).

1. Held-out real photos (index ending in 0 or 5 of shared/data/real-cards): top-1
   card accuracy (the most confident card against the folder label) and colour
   accuracy, before and after deck calibration with one photo per face taken from
   the training part.
2. mAP50 on rendered table scenes that no training run used (own seed): the whole
   recogniser over 55 classes (54 faces + back), and the card/back detector alone.
3. Frames per second on 640x480 frames with 1 to 8 cards, side by side in one run
   with stock ultralytics YOLOv8n (built from yolov8n.yaml, random weights: the
   speed does not depend on them) PyTorch predict at imgsz 640 on the same frames.

Run: .venv/bin/python benchmarks/bench_recognizer.py [--scenes 200] [--frames 40]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision  # noqa: E402, F401  (ultralytics environment first)
from benchmarks.bench_boxes import FILTERS  # noqa: E402
from synth.render.cards import FACES  # noqa: E402
from synth.render.scene import SceneStyle, compose_scene, random_cards  # noqa: E402
from vision.deck_calibration import evaluate_photos, list_photos  # noqa: E402
from vision.deck_fit import fit_deck, read_photos  # noqa: E402
from vision.detector import CardRecognizer  # noqa: E402
from vision.recognition import base_head  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real-cards"
CLASSES = (*FACES, "back")


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of one box ``a`` (4,) against boxes ``b`` (n, 4)."""
    ix = np.clip(np.minimum(a[2], b[:, 2]) - np.maximum(a[0], b[:, 0]), 0, None)
    iy = np.clip(np.minimum(a[3], b[:, 3]) - np.maximum(a[1], b[:, 1]), 0, None)
    inter = ix * iy
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area - inter, 1e-9)


def average_precision(
    preds: list[tuple[int, str, float, np.ndarray]],
    truths: dict[int, list[tuple[str, np.ndarray]]],
    classes: tuple[str, ...],
) -> float:
    """mAP at IoU 0.5 (all-point interpolation) over the classes that have ground truth."""
    aps: list[float] = []
    for cls in classes:
        gt = {i: [b for c, b in items if c == cls] for i, items in truths.items()}
        n_gt = sum(len(v) for v in gt.values())
        if n_gt == 0:
            continue
        used = {i: np.zeros(len(v), bool) for i, v in gt.items()}
        cand = sorted((p for p in preds if p[1] == cls), key=lambda p: -p[2])
        tp = np.zeros(len(cand))
        for k, (img, _, _, box) in enumerate(cand):
            boxes = gt.get(img, [])
            if not boxes:
                continue
            ious = _iou(box, np.array(boxes))
            j = int(np.argmax(ious))
            if ious[j] >= 0.5 and not used[img][j]:
                used[img][j] = True
                tp[k] = 1
        if len(cand) == 0:
            aps.append(0.0)
            continue
        ctp = np.cumsum(tp)
        recall = ctp / n_gt
        precision = ctp / np.arange(1, len(cand) + 1)
        mrec = np.concatenate([[0.0], recall, [1.0]])
        mpre = np.concatenate([[1.0], precision, [0.0]])
        mpre = np.maximum.accumulate(mpre[::-1])[::-1]
        idx = np.nonzero(mrec[1:] != mrec[:-1])[0]
        aps.append(float(np.sum((mrec[idx + 1] - mrec[idx]) * mpre[idx + 1])))
    return float(np.mean(aps)) if aps else 0.0


def rendered_map(rec: CardRecognizer, n: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    preds: list[tuple[int, str, float, np.ndarray]] = []
    det_preds: list[tuple[int, str, float, np.ndarray]] = []
    truths: dict[int, list[tuple[str, np.ndarray]]] = {}
    det_truths: dict[int, list[tuple[str, np.ndarray]]] = {}
    low = rec.conf
    rec.conf = 0.05  # low threshold: AP integrates over the whole ranking
    try:
        for i in range(n):
            scene = compose_scene(rng, size=(480, 640), style=SceneStyle())
            truths[i] = []
            det_truths[i] = []
            for c in scene.cards:
                if c.visible < 0.3:
                    continue
                box = np.clip(np.array(c.xyxy), 0, [640, 480, 640, 480])
                truths[i].append((c.card, box))
                det_truths[i].append(("back" if c.card == "back" else "card", box))
            for d in rec.detect(scene.image):
                box = np.array(d.box)
                preds.append((i, d.card, d.confidence, box))
            corners, conf, cls_id = rec.find_cards(scene.image)
            for q, s, k in zip(corners, conf, cls_id, strict=True):
                box = np.array([q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()])
                box = np.clip(box, 0, [640, 480, 640, 480])
                det_preds.append((i, "back" if k == 1 else "card", float(s), box))
    finally:
        rec.conf = low
    return {
        "map50_55_classes": average_precision(preds, truths, CLASSES),
        "map50_detector_card_back": average_precision(det_preds, det_truths, ("card", "back")),
        "scenes": float(n),
        "cards": float(sum(len(v) for v in truths.values())),
    }


def boxes_per_card(rec: CardRecognizer, n: int, seed: int) -> dict[str, dict[str, float]]:
    """Boxes (face or back, at the recogniser's own threshold) per card at least 30%
    visible, on rendered table scenes and close-ups, with the box filter
    (``vision.box_filter``) off, as by default (close-up twins) and with both rules. A
    box counts for the card it overlaps most (IoU >= 0.3); a box overlapping no card
    that much is a box on nothing."""
    out: dict[str, dict[str, float]] = {}
    styles = {
        "table": SceneStyle(),
        "close-up": SceneStyle(card_width=(0.2, 0.5), hand_prob=0.5, perspective=0.15),
    }
    for name, style in styles.items():
        rng = np.random.default_rng(seed)
        scenes = [compose_scene(rng, size=(480, 640), style=style) for _ in range(n)]
        for label, twins, inner in FILTERS:
            rec.drop_closeup_twins, rec.drop_inner_boxes = twins, inner
            cards = extra = nothing = missed = 0
            for scene in scenes:
                truth = [
                    np.clip(np.array(c.xyxy), 0, [640, 480, 640, 480])
                    for c in scene.cards
                    if c.visible >= 0.3
                ]
                hits = np.zeros(len(truth), int)
                for d in rec.detect(scene.image):
                    ious = _iou(np.array(d.box), np.array(truth)) if truth else np.zeros(0)
                    if len(ious) and ious.max() >= 0.3:
                        hits[int(ious.argmax())] += 1
                    else:
                        nothing += 1
                cards += len(truth)
                extra += int(np.clip(hits - 1, 0, None).sum())
                missed += int((hits == 0).sum())
            key = f"{name}, box filter {label}"
            out[key] = {
                "scenes": float(n),
                "cards": float(cards),
                "second_boxes_per_card": extra / max(cards, 1),
                "boxes_on_nothing_per_scene": nothing / max(n, 1),
                "cards_unboxed": missed / max(cards, 1),
            }
    rec.drop_closeup_twins, rec.drop_inner_boxes = True, False  # the defaults
    return out


def fps(rec: CardRecognizer, n_frames: int, rounds: int, seed: int) -> dict[str, float]:
    from ultralytics import YOLO

    rng = np.random.default_rng(seed)
    frames = [
        compose_scene(rng, cards=random_cards(rng, 1 + i % 8), size=(480, 640)).image
        for i in range(n_frames)
    ]
    stock = YOLO("yolov8n.yaml")  # built from the architecture: no download
    stock.predict(frames[0], imgsz=640, device="cpu", verbose=False)
    for f in frames[:3]:
        rec.detect(f)
    ours: list[float] = []
    theirs: list[float] = []
    # Alternate rounds so both see the same machine load.
    for _ in range(rounds):
        t = time.perf_counter()
        for f in frames:
            rec.detect(f)
        ours.append(time.perf_counter() - t)
        t = time.perf_counter()
        for f in frames:
            stock.predict(f, imgsz=640, device="cpu", verbose=False)
        theirs.append(time.perf_counter() - t)
    ours_fps = n_frames / min(ours)
    theirs_fps = n_frames / min(theirs)
    return {
        "frames": float(n_frames),
        "recogniser_fps": ours_fps,
        "yolov8n_640_torch_fps": theirs_fps,
        "ratio": ours_fps / theirs_fps,
        "recogniser_ms": 1000 / ours_fps,
        "yolov8n_ms": 1000 / theirs_fps,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--real", type=Path, default=REAL)
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--skip", nargs="*", default=[], choices=["real", "map", "boxes", "fps"])
    parser.add_argument("--json-out", type=Path, default=None)
    args = parser.parse_args()

    rec = CardRecognizer.load(args.models, backend=args.backend)
    rec.set_calibration(None)
    results: dict[str, object] = {"backend": rec.backend}
    print(f"recogniser backend: {rec.backend}")

    if "real" not in args.skip and args.real.is_dir():
        held = list_photos(args.real, "held-out")
        t = time.perf_counter()
        before = evaluate_photos(rec, held)
        print(f"held-out real photos, no calibration: {before.summary()}")
        train = list_photos(args.real, "train")
        one_each = {face: paths[:1] for face, paths in train.items()}
        found, problems = read_photos(rec, one_each)
        start = rec.head if rec.head is not None else base_head(args.models)
        head = fit_deck(rec, found, start=start)
        rec.set_head(head)
        after = evaluate_photos(rec, held)
        rec.set_head(start)
        print(
            f"held-out real photos, calibrated with 1 training photo per face "
            f"({len(found)} photos, {len(problems.skipped)} unusable): {after.summary()}"
        )
        print(f"  ({time.perf_counter() - t:.0f} s)")
        results["real"] = {
            "photos": before.total,
            "top1": before.top1,
            "color": before.color,
            "missed": before.missed,
            "top1_calibrated": after.top1,
            "color_calibrated": after.color,
            "confusions": [f"{a}->{b} x{n}" for (a, b), n in before.confusions.most_common(10)],
            "confusions_calibrated": [
                f"{a}->{b} x{n}" for (a, b), n in after.confusions.most_common(10)
            ],
        }
    elif "real" not in args.skip:
        print(f"no real photos at {args.real}: skipped")

    if "map" not in args.skip:
        t = time.perf_counter()
        m = rendered_map(rec, args.scenes, seed=424242)
        print(
            f"rendered test scenes ({int(m['scenes'])} scenes, {int(m['cards'])} cards): "
            f"mAP50 55 classes {m['map50_55_classes']:.3f}, "
            f"card/back detector {m['map50_detector_card_back']:.3f} "
            f"({time.perf_counter() - t:.0f} s)"
        )
        results["rendered"] = m

    if "boxes" not in args.skip:
        b = boxes_per_card(rec, args.scenes // 2, seed=515151)
        for key, row in b.items():
            print(
                f"boxes per card, {key}: {row['cards']:.0f} cards, second boxes per card "
                f"{row['second_boxes_per_card']:.3f}, boxes on nothing per scene "
                f"{row['boxes_on_nothing_per_scene']:.3f}, cards unboxed "
                f"{row['cards_unboxed']:.3f}"
            )
        results["boxes_per_card"] = b

    if "fps" not in args.skip:
        f = fps(rec, args.frames, args.rounds, seed=777)
        print(
            f"640x480, 1-8 cards: recogniser {f['recogniser_fps']:.1f} fps "
            f"({f['recogniser_ms']:.1f} ms), stock yolov8n imgsz 640 PyTorch "
            f"{f['yolov8n_640_torch_fps']:.1f} fps ({f['yolov8n_ms']:.1f} ms): "
            f"ratio {f['ratio']:.2f}x"
        )
        results["fps"] = f

    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
