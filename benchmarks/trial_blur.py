"""The trained recogniser under motion blur, on the tuning style ``webcam-20fps`` only.

    python benchmarks/trial_blur.py record                       # shipped models, ~1 min a game
    python benchmarks/trial_blur.py record --models DIR --tag blur
    python benchmarks/trial_blur.py reads [--tag blur]           # cards read, by speed
    python benchmarks/trial_blur.py stages [--models DIR]        # fast cards, stage by stage
    python benchmarks/trial_blur.py replay [--tag blur]          # the watcher on those detections
    python benchmarks/trial_blur.py replay --no-lift             # ... without the lifted-card rule
    python benchmarks/trial_blur.py replay --style covering-hand --videos 2 --tag shipped

Uses the styles benchmark's rendered games (``benchmarks/bench_styles.py --styles
webcam-20fps --videos 6`` renders them into ``.cache/bench-styles/``, seeds 601-606).
``record`` stores the recogniser's detections of every frame, as the pipeline asks
for them (``detect_focused``: the whole frame and the pile up close), in
``VIDEO.dets.pkl`` (the shipped models) or ``VIDEO.dets-TAG.pkl``; the other commands
read them back:

* ``reads``: every face-up card the renderer shows at least ``VISIBLE`` uncovered, by
  how far it moved since the frame before (card lengths a frame): the share the
  recogniser reports with its face (a box of IoU 0.3 or more, the surest such box),
  with another face, or not at all;
* ``stages``: the cards moving ``FAST`` or more a frame, each stage apart (the
  detector at confidence 0.05, both looks; then the classifier on the surest box):
  where they are lost;
* ``replay``: each game through the watcher and the tracker (the referee's rulings
  from the truth, arms as the runtime looks for them): plays, draws and take-backs
  found / reported / true, and seats right / matched. ``--no-lift`` turns off the
  rule of a top card lifted by an arm at the pile
  (``vision.watch.takebacks.TakeBackRules._lifted_by_arm``); ``--set`` changes
  watcher settings (``vision.watcher_config.WatcherConfig``).

Only tuning styles may be looked at this way (docs/watcher.md, "Video styles"):
``--style`` refuses a held-out one.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.same_events import Recorded, record_detections  # noqa: E402
from synth.styles import TUNING_STYLES  # noqa: E402
from synth.video import DEMO_VERSION  # noqa: E402

CACHE = ROOT / ".cache" / "bench-styles"
SEEDS = tuple(range(601, 607))
#: Least share of a card uncovered for it to count as shown.
VISIBLE = 0.6
#: Least IoU of a box with a card's true box to be that card's box.
BOX_IOU = 0.3
#: Speeds (card lengths a frame) the cards are counted by.
SPEED_BINS = (0.0, 0.02, 0.1, 0.2, 0.35, 10.0)
#: A card moving this far a frame (card lengths) is a fast one for ``stages``.
FAST = 0.2


def videos(style: str, n: int = len(SEEDS)) -> list[Path]:
    if style not in TUNING_STYLES:
        raise SystemExit(f"{style!r} is no tuning style: held-out styles are for measuring only")
    paths = [CACHE / f"v{DEMO_VERSION}-{style}-s{seed}-t12.mp4" for seed in SEEDS[:n]]
    missing = [p.name for p in paths if not Path(str(p) + ".truth.jsonl").exists()]
    if missing:
        raise SystemExit(
            f"not rendered: {', '.join(missing)} "
            f"(python benchmarks/bench_styles.py --styles {style} --videos {len(SEEDS)})"
        )
    return paths


def dets_path(video: Path, tag: str) -> Path:
    return video.with_name(video.name + (f".dets-{tag}.pkl" if tag else ".dets.pkl"))


def iou(a: Any, b: Any) -> float:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return float(inter / max(union, 1e-9))


def moving_cards(video: Path) -> dict[int, list[tuple[str, list[float], float]]]:
    """Per frame, the face-up cards shown at least ``VISIBLE``, once each, with how far
    (card lengths) each moved since the frame before."""
    with open(str(video) + ".boxes.jsonl") as lines:
        boxes = [json.loads(line) for line in lines]
    card = float(json.loads(Path(str(video) + ".layout.json").read_text())["card_px"])
    out: dict[int, list[tuple[str, list[float], float]]] = {}
    for i in range(1, len(boxes)):
        before = [c for c in boxes[i - 1]["cards"] if c[0] != "back"]
        names = [c[0] for c in boxes[i]["cards"]]
        for name, vis, box in boxes[i]["cards"]:
            prev = [b for n, _, b in before if n == name]
            if name == "back" or vis < VISIBLE or names.count(name) != 1 or len(prev) != 1:
                continue
            p = prev[0]
            dx = (box[0] + box[2] - p[0] - p[2]) / 2
            dy = (box[1] + box[3] - p[1] - p[3]) / 2
            out.setdefault(i, []).append((name, box, math.hypot(dx, dy) / card))
    return out


def record(paths: list[Path], models: str | None, tag: str) -> None:
    from vision.detector import CardRecognizer

    recognizer = CardRecognizer.load(models, use_deck=False)
    for video in paths:
        out = dets_path(video, tag)
        if out.exists():
            continue
        dets = record_detections(recognizer, video, out)
        print(f"recorded {out.name}: {len(dets)} frames", flush=True)


def reads(paths: list[Path], tag: str) -> dict[str, Any]:
    counts = [{"right": 0, "wrong": 0, "none": 0} for _ in SPEED_BINS[:-1]]
    for video in paths:
        dets = pickle.loads(dets_path(video, tag).read_bytes())
        for i, cards in moving_cards(video).items():
            d = dets[i]
            for name, box, speed in cards:
                k = next(j for j in range(len(SPEED_BINS) - 1) if speed < SPEED_BINS[j + 1])
                best = max(
                    (
                        (float(s), n)
                        for n, s, x in zip(d.card, d.confidence, d.xyxy, strict=True)
                        if iou(x, box) >= BOX_IOU
                    ),
                    default=None,
                )
                what = "none" if best is None else "right" if best[1] == name else "wrong"
                counts[k][what] += 1
    out = {}
    for k, c in enumerate(counts):
        n = sum(c.values())
        label = f"{SPEED_BINS[k]:.2f}-{SPEED_BINS[k + 1]:.2f}"
        out[label] = {"n": n, **{w: round(100 * v / max(n, 1), 1) for w, v in c.items()}}
        print(
            f"| {label} | {n} | {out[label]['right']} | {out[label]['wrong']} "
            f"| {out[label]['none']} |",
            flush=True,
        )
    return out


def stages(paths: list[Path], models: str | None) -> dict[str, Any]:
    from vision.detector import CardRecognizer
    from vision.recognition import _xyxy, focus_roi
    from vision.source import read_video

    rec = CardRecognizer.load(models, use_deck=False)
    rec.conf = 0.05
    rows: list[tuple[float, float, float, bool]] = []  # speed, det conf, p(true), top-1 right
    for video in paths:
        layout = json.loads(Path(str(video) + ".layout.json").read_text())
        want = {i: [c for c in cards if c[2] >= FAST] for i, cards in moving_cards(video).items()}
        for f in read_video(video):
            if not want.get(f.index):
                continue
            img = f.image
            c1, s1, _ = rec.find_cards(img)
            roi = focus_roi(tuple(layout["discard"]), 0.6 * layout["card_px"], img.shape)
            x0, y0, x1, y1 = (int(v) for v in roi)
            c2, s2, _ = rec.find_cards(np.ascontiguousarray(img[y0:y1, x0:x1]))
            corners = np.concatenate([c1, c2 + np.array([x0, y0], np.float32)])
            conf = np.concatenate([s1, s2])
            boxes = _xyxy(corners, img.shape)
            for name, box, speed in want[f.index]:
                hits = [j for j in range(len(conf)) if iou(boxes[j], box) >= BOX_IOU]
                if not hits:
                    rows.append((speed, 0.0, 0.0, False))
                    continue
                j = max(hits, key=lambda j: conf[j])
                probs, _ = rec.classify_crops(rec.crops(img, corners[j : j + 1]))
                k = rec.face_names.index(name)
                rows.append(
                    (speed, float(conf[j]), float(probs[0, k]), int(probs[0].argmax()) == k)
                )
    r = np.array(rows, float).reshape(-1, 4)
    boxed = r[r[:, 1] >= 0.35]
    out = {
        "cards": len(r),
        "boxed_at_0.35": round(100 * float((r[:, 1] >= 0.35).mean()), 1),
        "det_conf_median": round(float(np.median(r[:, 1])), 2),
        "boxed_read_right": round(100 * float(boxed[:, 3].mean()), 1),
        "boxed_p_true_median": round(float(np.median(boxed[:, 2])), 2),
        "score_0.7": round(100 * float((boxed[:, 1] * boxed[:, 2] >= 0.7).sum() / len(r)), 1),
        "score_0.25": round(100 * float((boxed[:, 1] * boxed[:, 2] >= 0.25).sum() / len(r)), 1),
    }
    print(json.dumps(out), flush=True)
    return out


def replay(
    paths: list[Path], tag: str, settings: dict[str, float], lift: bool = True
) -> dict[str, Any]:
    from vision.watch.takebacks import TakeBackRules

    original = TakeBackRules._lifted_by_arm
    if not lift:  # the rule of a card lifted by an arm at the pile turned off
        TakeBackRules._lifted_by_arm = lambda self: False  # type: ignore[method-assign]
    try:
        return _replay(paths, tag, settings)
    finally:
        TakeBackRules._lifted_by_arm = original  # type: ignore[method-assign]


def _replay(paths: list[Path], tag: str, settings: dict[str, float]) -> dict[str, Any]:
    from uno_table.replay import load_log, replay_video, score
    from vision.calibration import TableLayout
    from vision.watcher_config import WatcherConfig

    total: dict[str, list[int]] = {k: [0, 0, 0] for k in ("play", "draw", "undo")}
    seats = [0, 0]
    for video in paths:
        truth = load_log(str(video) + ".truth.jsonl")
        res = replay_video(
            video,
            players=list(truth[0]["players"]),
            layout=TableLayout.load(str(video) + ".layout.json"),
            recognizer=Recorded(pickle.loads(dets_path(video, tag).read_bytes())),
            rules="house",
            round_event=truth[0],
            referee=truth,
            watcher_config=WatcherConfig.from_dict(settings),
        )
        m = score(res.records, truth)
        cells = []
        for k, t in total.items():
            row = (m[k]["matched"], m[k]["derived"], m[k]["truth"])
            total[k] = [a + b for a, b in zip(t, row, strict=True)]
            cells.append(f"{k}s {row[0]}/{row[1]}/{row[2]}")
        seats[0] += m["seats"]["correct"]
        seats[1] += m["seats"]["n"]
        right, n = m["seats"]["correct"], m["seats"]["n"]
        print(f"| {video.name} | {', '.join(cells)} | seats {right}/{n} |")
    cells = [f"{k}s {v[0]}/{v[1]}/{v[2]}" for k, v in total.items()]
    print(f"| all | {', '.join(cells)} | seats {seats[0]}/{seats[1]} |", flush=True)
    return {"found_reported_true": total, "seats_right_matched": seats}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["record", "reads", "stages", "replay"])
    ap.add_argument("--style", default="webcam-20fps", help="a tuning style")
    ap.add_argument("--models", default=None, help="models folder (default: the shipped one)")
    ap.add_argument("--tag", default="", help="detections VIDEO.dets-TAG.pkl (default: .dets.pkl)")
    ap.add_argument("--videos", type=int, default=len(SEEDS), help="games (seeds from 601)")
    ap.add_argument(
        "--no-lift", action="store_true", help="replay: without the lifted-by-an-arm rule"
    )
    ap.add_argument(
        "--set", default="{}", help="replay: watcher settings as JSON, e.g. '{\"undo_s\": 0.4}'"
    )
    args = ap.parse_args(argv)
    paths = videos(args.style, args.videos)
    if args.command == "record":
        record(paths, args.models, args.tag)
    elif args.command == "reads":
        print("| card lengths a frame | cards | read right % | another face % | no box % |")
        print("|---|---|---|---|---|")
        reads(paths, args.tag)
    elif args.command == "stages":
        stages(paths, args.models)
    else:
        replay(paths, args.tag, json.loads(args.set), lift=not args.no_lift)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
