"""What looking for arms costs per frame (vision.hands.ArmWatch, as the pipeline feeds it).

    python benchmarks/bench_arms.py                 # about a minute on 2 cores
    python benchmarks/bench_arms.py --frames 200

Renders (once, into the git-ignored .cache/bench-arms/) a short ``covering-hand``
game, then times, on its frames:

* ``ArmWatch.update`` alone, at the video's 640x480 (and without measuring the
  camera's shake, ``StillTableConfig.align_max_px`` 0, the thirtieth pass's baseline)
  and on the same frames enlarged to 1280x720 (a webcam's HD picture; the watch works
  on a 4x smaller copy);
* the whole pipeline (the oracle's boxes, the pile's colours, the watcher) per
  frame, with arms every frame, every other frame, and without: what is left of a
  30 frames/s budget (33.3 ms) for the recogniser.

Prints a markdown table; the figures go in docs/watcher.md ("Arms as evidence").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from synth.video import DEMO_VERSION, OracleDetector, render_video, simulated_game  # noqa: E402
from vision.calibration import TableLayout  # noqa: E402
from vision.hands import ArmConfig, ArmWatch  # noqa: E402
from vision.pipeline import TablePipeline  # noqa: E402
from vision.source import read_video  # noqa: E402
from vision.still_table import StillTableConfig  # noqa: E402
from vision.watcher import Watcher  # noqa: E402
from vision.watcher_config import WatcherConfig  # noqa: E402

CACHE = ROOT / ".cache" / "bench-arms"
SEED = 31
FRAME_BUDGET_MS = 1000.0 / 30.0


def video() -> Path:
    path = CACHE / f"v{DEMO_VERSION}-covering-hand-s{SEED}.mp4"
    if not path.with_name(path.name + ".layout.json").exists():
        log = simulated_game(SEED, players=4, turns=6, retract_prob=0.0)
        render_video(log, path, seed=SEED, style="covering-hand")
    return path


def ms(values: list[float]) -> str:
    s = sorted(values)
    return f"{statistics.median(s):.2f} | {s[int(0.9 * (len(s) - 1))]:.2f}"


def time_arms(
    frames: list[np.ndarray], layout: TableLayout, config: ArmConfig | None = None
) -> list[float]:
    arms = ArmWatch(layout, config)
    out = []
    for i, f in enumerate(frames):
        t0 = time.perf_counter()
        arms.update(f, i / 30)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def time_pipeline(path: Path, frames: list[np.ndarray], arm_every: int) -> list[float]:
    layout = TableLayout.load(str(path) + ".layout.json")
    watcher = Watcher(layout, list(layout.names), WatcherConfig(arm_every=arm_every))
    oracle = OracleDetector(str(path) + ".boxes.jsonl", seed=7)
    pipe = TablePipeline(oracle, watcher, watch_arms=arm_every > 0)
    out = []
    for i, f in enumerate(frames):
        oracle.seek(i)
        t0 = time.perf_counter()
        pipe.process(f, i / 30)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300, help="frames timed (from the start)")
    args = ap.parse_args(argv)
    path = video()
    frames = [f.image for f in read_video(path)][: args.frames]
    layout = TableLayout.load(str(path) + ".layout.json")
    hd = [cv2.resize(f, (1280, 720)) for f in frames]
    print(f"{len(frames)} frames of {path.name}; ms per frame, median | p90\n")
    print("| what | median ms | p90 ms |")
    print("|---|---|---|")
    print(f"| ArmWatch.update, 640x480 | {ms(time_arms(frames, layout))} |")
    unaligned = ArmConfig(still=StillTableConfig(align_max_px=0.0))
    print(f"| the same, the shake not measured | {ms(time_arms(frames, layout, unaligned))} |")
    print(f"| ArmWatch.update, 1280x720 | {ms(time_arms(hd, layout.scaled(1280, 720)))} |")
    for every, what in ((0, "no arms"), (1, "arms every frame"), (2, "arms every other frame")):
        print(f"| pipeline (oracle), {what} | {ms(time_pipeline(path, frames, every))} |")
    print(f"\n30 frames/s leaves {FRAME_BUDGET_MS:.1f} ms a frame for all of it.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
