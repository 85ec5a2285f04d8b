"""The watcher with the trained recogniser, per video style, detections recorded once.

    python benchmarks/bench_styles_model.py --styles tuning --videos 2
    python benchmarks/bench_styles_model.py --styles held-out --videos 1 --out FILE
    python benchmarks/bench_styles_model.py --styles held-out --code-root /tmp/before

Uses the styles benchmark's rendered games (``benchmarks/bench_styles.py --styles S
--videos N`` renders them into ``.cache/bench-styles/``, seeds 601, 602, ...; this
script renders what is missing the same way). The recogniser's detections of every
frame, as the pipeline asks for them (the whole frame and the pile up close), are
recorded once per video and recogniser (``VIDEO.dets-m<digest>.pkl``, the digest of
the model files and the recogniser's code; by this checkout's recogniser only), so that
two checkouts of the watcher (``--code-root``) replay the very same detections: a
watcher change is measured apart from the recogniser's.
Each game then goes through watcher and tracker with the referee's rulings from the
truth, and is scored as ``bench_styles.py`` scores (``uno_table.replay.score``):
plays, draws, take-backs (found / reported / true, precision / recall), seats.

``--styles`` takes names, or ``tuning``, ``held-out``, ``random:A-B`` (randomised
styles ``random-A`` to ``random-B``, :mod:`synth.random_styles`: drawn from the tuning
styles' span, so tuning styles too). Only tuning styles may be tuned on
(docs/watcher.md, "Video styles"); this script prints no event of a game, only its
counts.

``--light-min-gain G`` records with the light balance's ``min_gain`` set to ``G``
(:class:`vision.exposure.LightBalance`; the digest gets ``-gG``): a frame whose picture
the balance treats the same under both settings (left as it is by both, or scaled by
both alike) keeps the default recogniser's recorded detection (the recogniser reads
each frame on its own, so it would be the same); only the others are read again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "bench-styles"
FIRST_SEED = 601
TURNS = 12
KINDS = ("play", "draw", "undo")


#: The recogniser's code (``vision/``): a change there records the detections again.
RECOGNISER_CODE = (
    "recognition.py",
    "card_finder.py",
    "box_filter.py",
    "focus.py",
    "geometry.py",
    "wild_inks.py",
    "exposure.py",
    "detections.py",
    "model_set.py",
    "model_files.py",
)


def model_digest(models: Path) -> str:
    """The first 10 hex digits of the SHA-256 of the detector's and classifier's files
    and of the recogniser's code (:data:`RECOGNISER_CODE`)."""
    h = hashlib.sha256()
    for name in ("detector.onnx", "classifier.onnx"):
        h.update((models / name).read_bytes())
    for name in RECOGNISER_CODE:
        h.update((ROOT / "vision" / name).read_bytes())
    return h.hexdigest()[:10]


def ensure_rendered(style: str, seed: int, other_code: bool) -> Path:
    """The styles benchmark's game ``seed`` in ``style`` (in this checkout's cache),
    rendered if missing (not with another checkout's code)."""
    from synth.video import DEMO_VERSION

    path = CACHE / f"v{DEMO_VERSION}-{style}-s{seed}-t{TURNS}.mp4"
    if not Path(str(path) + ".truth.jsonl").exists():
        if other_code:
            raise SystemExit(f"not rendered: {path.name} (run this without --code-root first)")
        from benchmarks.bench_styles import video_for

        video_for(style, seed, TURNS)
    return path


def detections(
    video: Path,
    models: Path,
    recognizer: list[Any],
    other_code: bool,
    digest: str | None = None,
    min_gain: float | None = None,
) -> list[Any]:
    """The recorded detections of ``video`` (recorded now if missing, with this
    checkout's recogniser only); ``digest``: those an earlier recogniser recorded;
    ``min_gain``: the light balance's ``min_gain`` changed (see the module)."""
    tag = digest or model_digest(models)
    if min_gain is not None:
        tag += f"-g{min_gain:g}"
    out = video.with_name(f"{video.name}.dets-m{tag}.pkl")
    if out.exists():
        return list(pickle.loads(out.read_bytes()))
    if other_code or digest:
        how = "--digest replays only" if digest else "run this without --code-root first"
        raise SystemExit(f"not recorded: {out.name} ({how})")
    from benchmarks.same_events import record_detections

    if not recognizer:
        from vision.detector import CardRecognizer

        recognizer.append(CardRecognizer.load(str(models), use_deck=False))
    if min_gain is None:
        dets = record_detections(recognizer[0], video, out)
    else:
        default = detections(video, models, recognizer, other_code)
        dets = _record_min_gain(recognizer[0], video, out, default, min_gain)
    print(f"  recorded {out.name}: {len(dets)} frames", flush=True)
    return dets


def _record_min_gain(
    rec: Any, video: Path, out: Path, default: list[Any], min_gain: float
) -> list[Any]:
    """Detections with the balance's ``min_gain`` changed; a frame the change does not
    touch keeps its ``default`` detection."""
    from dataclasses import replace

    from vision.calibration import TableLayout
    from vision.exposure import LightBalance
    from vision.pipeline import detect_at_pile
    from vision.source import read_video

    shipped = LightBalance()
    layout = TableLayout.load(str(video) + ".layout.json")
    rec.light_balance = replace(shipped, min_gain=min_gain)
    dets, read = [], 0
    try:
        for i, frame in enumerate(read_video(video)):
            gain = float(shipped.gains(frame.image).max())
            if (gain < shipped.min_gain) == (gain < min_gain):
                dets.append(default[i])
            else:
                dets.append(detect_at_pile(rec, frame.image, layout))
                read += 1
    finally:
        rec.light_balance = shipped
    if len(dets) != len(default):
        raise SystemExit(f"{video.name}: {len(dets)} frames read, {len(default)} recorded")
    out.write_bytes(pickle.dumps(dets))
    print(f"  {video.name}: {read} of {len(dets)} frames read again", flush=True)
    return dets


def replay(video: Path, dets: list[Any], settings: dict[str, Any] | None = None) -> dict[str, Any]:
    from benchmarks.bench_watcher import alerts_raised, run
    from benchmarks.same_events import Recorded
    from uno_table.replay import score

    res, truth = run(video, Recorded(dets), settings=settings)
    return {**score(res.records, truth), "alerts": alerts_raised(res.records)}


def counts(metrics: list[dict[str, Any]]) -> dict[str, Any]:
    """Pooled found / reported / true per kind, precision and recall, seats."""
    out: dict[str, Any] = {}
    for k in KINDS:
        found = sum(m[k]["matched"] for m in metrics)
        said = sum(m[k]["derived"] for m in metrics)
        true = sum(m[k]["truth"] for m in metrics)
        out[k] = {
            "found": found,
            "reported": said,
            "true": true,
            "precision": round(100 * found / said, 1) if said else 100.0,
            "recall": round(100 * found / true, 1) if true else 100.0,
        }
    right = sum(m["seats"]["correct"] for m in metrics)
    n = sum(m["seats"]["n"] for m in metrics)
    out["seats"] = {"right": right, "n": n, "percent": round(100 * right / n, 1) if n else 100.0}
    out["alerts"] = sum(m.get("alerts", 0) for m in metrics)
    return out


def row(name: str, c: dict[str, Any]) -> str:
    cells = [
        f"{c[k]['precision']} / {c[k]['recall']} "
        f"({c[k]['found']}/{c[k]['reported']}/{c[k]['true']})"
        for k in KINDS
    ]
    seats = f"{c['seats']['percent']} ({c['seats']['right']}/{c['seats']['n']})"
    return f"| {name} | {cells[0]} | {seats} | {cells[1]} | {cells[2]} | {c.get('alerts', '')} |"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--styles", default="tuning", help="names, or 'tuning' / 'held-out' / 'random:A-B'"
    )
    ap.add_argument("--videos", type=int, default=1, help="games per style (seeds from 601)")
    ap.add_argument(
        "--seeds",
        default="",
        help="comma-separated game seeds, in place of --videos (games with plays of three "
        "cards: benchmarks/bench_styles.py --find-seeds)",
    )
    ap.add_argument("--models", default=str(ROOT / "models"), help="models folder")
    ap.add_argument("--code-root", default=None, help="replay with the watcher of this checkout")
    ap.add_argument("--out", default=None, help="write the figures here (JSON)")
    ap.add_argument(
        "--digest",
        default=None,
        help="replay the detections an earlier recogniser recorded (its digest, as in "
        "VIDEO.dets-m<digest>.pkl); nothing is recorded",
    )
    ap.add_argument(
        "--light-min-gain",
        type=float,
        default=None,
        help="record with the light balance's min_gain changed (see the module)",
    )
    ap.add_argument("--set", default="{}", help="watcher settings changed, as JSON (sweeps)")
    ap.add_argument(
        "--record-only",
        action="store_true",
        help="render and record the detections, replay nothing (held-out styles made "
        "ready without measuring them)",
    )
    args = ap.parse_args(argv)
    if args.code_root:
        sys.path.insert(0, str(Path(args.code_root).resolve()))
    sys.path.insert(1 if args.code_root else 0, str(ROOT))
    os.environ.setdefault("YOLO_OFFLINE", "1")
    from benchmarks.bench_styles import style_names
    from synth.styles import HELD_OUT_STYLES, RANDOM_PREFIX, TUNING_STYLES

    names = style_names(args.styles, TUNING_STYLES, HELD_OUT_STYLES)
    models = Path(args.models)
    recognizer: list[Any] = []
    per_style: dict[str, Any] = {}
    if not args.record_only:
        print(
            "| style | plays P / R % (found/reported/true) | seats % | draws | take-backs "
            "| alerts (all false) |"
        )
        print("|---|---|---|---|---|---|")
    seeds = [int(x) for x in args.seeds.split(",") if x.strip()] or list(
        range(FIRST_SEED, FIRST_SEED + args.videos)
    )
    for style in names:
        metrics = []
        for seed in seeds:
            video = ensure_rendered(style, seed, bool(args.code_root))
            dets = detections(
                video,
                models,
                recognizer,
                bool(args.code_root),
                args.digest,
                args.light_min_gain,
            )
            if not args.record_only:
                metrics.append(replay(video, dets, json.loads(args.set)))
        if args.record_only:
            continue
        per_style[style] = counts(metrics)
        print(row(style, per_style[style]), flush=True)
    if args.record_only:
        return 0
    groups = {
        "tuning": [s for s in names if s in TUNING_STYLES],
        "held out": [s for s in names if s in HELD_OUT_STYLES],
        "randomised (tuning span)": [s for s in names if s.startswith(RANDOM_PREFIX)],
    }
    pooled: dict[str, Any] = {}
    for group, styles in groups.items():
        if styles:
            pooled[group] = _pool([per_style[s] for s in styles])
            print(row(f"**{group} ({len(styles)})**", pooled[group]), flush=True)
    if args.out:
        Path(args.out).write_text(
            json.dumps(
                {
                    "videos": len(seeds),
                    "seeds": seeds,
                    "models": args.digest or model_digest(models),
                    "light_min_gain": args.light_min_gain,
                    "settings": json.loads(args.set),
                    "code_root": args.code_root,
                    "styles": per_style,
                    "pooled": pooled,
                },
                indent=1,
            )
        )
    return 0


def _pool(cs: list[dict[str, Any]]) -> dict[str, Any]:
    """Pool per-style counts (as :func:`counts` makes them)."""
    fake = [
        {
            **{
                k: {"matched": c[k]["found"], "derived": c[k]["reported"], "truth": c[k]["true"]}
                for k in KINDS
            },
            "seats": {"correct": c["seats"]["right"], "n": c["seats"]["n"]},
            "alerts": c.get("alerts", 0),
        }
        for c in cs
    ]
    return counts(fake)


if __name__ == "__main__":
    raise SystemExit(main())
