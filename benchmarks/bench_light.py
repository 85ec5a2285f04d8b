"""What evening out the light costs a frame (vision.exposure.LightBalance), and the
recogniser's close look at the pile with it and without, in the same run.

    python benchmarks/bench_light.py                # about a minute on 2 cores
    python benchmarks/bench_light.py --frames 200

Renders (once, into the git-ignored .cache/bench-light/) a short game in the tuning
style ``dim-slide-22fps`` (half the house light, a warm lamp), then times on its
frames, one after the other: ``LightBalance`` alone, and
``CardRecognizer.detect_focused`` (what the pipeline asks for each frame) with the
light evened out (the default) and as the frames come. Prints a markdown table of
medians in milliseconds; the figures go in docs/watcher.md ("Ninth pass").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("YOLO_OFFLINE", "1")

from synth.video import DEMO_VERSION, render_video, simulated_game  # noqa: E402
from vision.calibration import TableLayout  # noqa: E402
from vision.detector import CardRecognizer  # noqa: E402
from vision.exposure import LightBalance  # noqa: E402
from vision.pipeline import detect_at_pile  # noqa: E402
from vision.source import read_video  # noqa: E402

CACHE = ROOT / ".cache" / "bench-light"
STYLE = "dim-slide-22fps"


def median_ms(frames: list[Any], run: Callable[[Any], object]) -> float:
    times = []
    for image in frames:
        t0 = time.perf_counter()
        run(image)
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=150, help="frames timed (each way)")
    args = ap.parse_args(argv)
    video = CACHE / f"v{DEMO_VERSION}-{STYLE}-s7.mp4"
    if not Path(str(video) + ".layout.json").exists():
        render_video(simulated_game(7, players=4, turns=8), video, seed=7, style=STYLE)
    layout = TableLayout.load(str(video) + ".layout.json")
    frames = [f.image for f, _ in zip(read_video(video), range(args.frames), strict=False)]
    rec = CardRecognizer.load(use_deck=False)
    balance = LightBalance()
    detect_at_pile(rec, frames[0], layout)  # warm up
    alone = median_ms(frames, balance)
    with_light = median_ms(frames, lambda im: detect_at_pile(rec, im, layout))
    rec.light_balance = None
    as_they_come = median_ms(frames, lambda im: detect_at_pile(rec, im, layout))
    print(f"{len(frames)} frames of {STYLE}, {frames[0].shape[1]}x{frames[0].shape[0]}\n")
    print("| what | ms a frame (median) |")
    print("|---|---|")
    print(f"| `LightBalance` alone | {alone:.2f} |")
    print(f"| `detect_focused`, light evened out | {with_light:.1f} |")
    print(f"| `detect_focused`, frames as they come | {as_they_come:.1f} |")
    print(f"\nratio {with_light / as_they_come:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
