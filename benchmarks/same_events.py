"""Does a refactor of the watcher or the session change what a replay derives?

Renders the games once (``.cache/same-events/``), records the trained recogniser's
detections of each frame once (as the pipeline asks for them), then replays every
video through the code of ``--code-root`` (a checkout of any commit; the default is
this one) with the oracle or with the recorded detections, and writes every record
(event and verdict) to ``--out``. ``--compare A.json B.json`` says whether two such
files hold the same records, and where they first differ.

    python benchmarks/same_events.py --mode oracle --out after.json
    git worktree add /tmp/before 57e21be
    python benchmarks/same_events.py --mode oracle --code-root /tmp/before --out before.json
    python benchmarks/same_events.py --compare before.json after.json

``--mode model`` needs the detections recorded first (``--record``, with this
checkout's recogniser; about 30 ms a frame).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "same-events"
TURNS = 30


def video(seed: int) -> Path:
    return CACHE / f"s{seed}.mp4"


def render(seeds: list[int]) -> None:
    from synth.video import render_video, simulated_game

    CACHE.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        path = video(seed)
        if not path.with_name(path.name + ".layout.json").exists():
            log = simulated_game(seed, players=3 + seed % 3, turns=TURNS, retract_prob=0.08)
            render_video(log, path, seed=seed)
            print(f"rendered seed {seed}", flush=True)


def record_detections(recognizer: Any, path: Path, out: Path) -> list[Any]:
    """The recogniser's detections of every frame of the video at ``path`` (its layout
    beside it), as the pipeline asks for them; pickled to ``out``."""
    from vision.calibration import TableLayout
    from vision.pipeline import detect_at_pile
    from vision.source import read_video

    layout = TableLayout.load(str(path) + ".layout.json")
    dets = [detect_at_pile(recognizer, f.image, layout) for f in read_video(path)]
    out.write_bytes(pickle.dumps(dets))
    return dets


def record(seeds: list[int]) -> None:
    """The trained recogniser's detections of every frame, as the pipeline asks."""
    from vision.detector import CardRecognizer

    recognizer = CardRecognizer.load(None)
    for seed in seeds:
        out = video(seed).with_suffix(".dets.pkl")
        if out.exists():
            continue
        dets = record_detections(recognizer, video(seed), out)
        print(f"recorded seed {seed}: {len(dets)} frames", flush=True)


class Recorded:
    """A recogniser that hands over the recorded detections of the frame it is told."""

    def __init__(self, detections: list[Any]) -> None:
        self.detections = detections
        self.index = 0

    def seek(self, index: int) -> None:
        self.index = index

    def detect(self, _image: Any) -> Any:
        return self.detections[self.index]

    def detect_focused(self, _image: Any, _region: Any, margin: float = 0.0) -> Any:
        return self.detections[self.index]


def replay(seeds: list[int], mode: str) -> dict[str, Any]:
    """Run in a process of its own whose ``sys.path`` starts with the code root."""
    from uno_table.replay import load_log, replay_video, score
    from vision.calibration import TableLayout

    try:
        from synth.video import OracleDetector
    except ImportError:  # a checkout from before the synth package
        from vision.synth_video import OracleDetector  # type: ignore[no-redef]

    out: dict[str, Any] = {}
    for seed in seeds:
        path = video(seed)
        truth = load_log(str(path) + ".truth.jsonl")
        recognizer: Any
        if mode == "oracle":
            recognizer = OracleDetector(str(path) + ".boxes.jsonl")
        else:
            recognizer = Recorded(pickle.loads(path.with_suffix(".dets.pkl").read_bytes()))
        started = time.perf_counter()
        result = replay_video(
            path,
            players=list(truth[0]["players"]),
            layout=TableLayout.load(str(path) + ".layout.json"),
            recognizer=recognizer,
            rules="house",
            round_event=truth[0],
            referee=truth,
        )
        m = score(result.records, truth)
        print(
            f"seed {seed} ({mode}, {time.perf_counter() - started:.0f} s): plays "
            f"{m['play']['precision']:.3f}/{m['play']['recall']:.3f}, draws "
            f"{m['draw']['precision']:.3f}/{m['draw']['recall']:.3f}, seats {m['seat_accuracy']}",
            flush=True,
        )
        out[str(seed)] = result.records
    return out


def compare(a_path: Path, b_path: Path) -> int:
    a, b = json.loads(a_path.read_text()), json.loads(b_path.read_text())
    same = True
    for seed in sorted(set(a) | set(b)):
        ra, rb = a.get(seed), b.get(seed)
        if ra == rb:
            print(f"seed {seed}: the same {len(ra or [])} records")
            continue
        same = False
        ra, rb = ra or [], rb or []
        pairs = enumerate(zip(ra, rb, strict=False))
        i = next((i for i, (x, y) in pairs if x != y), min(len(ra), len(rb)))
        print(f"seed {seed}: differs at record {i}:")
        print("  ", ra[i] if i < len(ra) else None)
        print("  ", rb[i] if i < len(rb) else None)
    return 0 if same else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--seeds", default="101,102,103,104,105,106")
    ap.add_argument("--mode", choices=("oracle", "model"), default="oracle")
    ap.add_argument("--record", action="store_true", help="record the model's detections")
    ap.add_argument("--code-root", type=Path, default=ROOT)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    ap.add_argument("--replay-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.compare:
        return compare(*args.compare)
    seeds = [int(s) for s in args.seeds.split(",")]
    if args.replay_only:  # in the code root's own process
        sys.path.insert(0, str(args.code_root))
        records = replay(seeds, args.mode)
        if args.out:
            args.out.write_text(json.dumps(records))
        return 0
    sys.path.insert(0, str(ROOT))
    render(seeds)
    if args.record or args.mode == "model":
        record(seeds)
    cmd = [sys.executable, __file__, "--replay-only", "--seeds", args.seeds, "--mode", args.mode]
    cmd += ["--code-root", str(args.code_root.resolve())]
    if args.out:
        cmd += ["--out", str(args.out.resolve())]
    env = {**os.environ, "PYTHONPATH": str(args.code_root.resolve())}
    return subprocess.run(cmd, env=env, cwd=args.code_root, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
