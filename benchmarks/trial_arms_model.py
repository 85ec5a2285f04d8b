"""Arms as evidence with the trained recogniser: arms, arms without the put-down rule,
no arms, on the same recorded detections.

    python benchmarks/trial_arms_model.py                 # 4 tuning-style games, ~7 min
    python benchmarks/trial_arms_model.py .cache/bench-styles/v3-house-s602-t12.mp4

Uses the styles benchmark's rendered games (``benchmarks/bench_styles.py`` renders
them into ``.cache/bench-styles/``). The trained recogniser's detections of every
frame are recorded once (``VIDEO.dets.pkl``, as the pipeline asks for them, like
``benchmarks/same_events.py``), then each game is replayed three ways: with arms
(the runtime's default), with arms but without the rule that takes a card first
seen on the pile for one put down when an arm was there
(``ArmPutRules.put_down_by_arm``), and without arms. Prints plays found / reported /
true, draws likewise, seats right / matched, and the tracker's refusals.
Only tuning styles by default (docs/watcher.md, "Video styles").
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.same_events import Recorded, record_detections  # noqa: E402
from uno_table.replay import load_log, replay_video, score  # noqa: E402
from vision.calibration import TableLayout  # noqa: E402
from vision.watch import arm_puts  # noqa: E402

CACHE = ROOT / ".cache" / "bench-styles"
GAMES = (
    "v3-covering-hand-s602-t12.mp4",
    "v3-dim-warm-s601-t12.mp4",
    "v3-player-speeds-s602-t12.mp4",
    "v3-slide-s601-t12.mp4",
)
VARIANTS = ("arms", "arms, no put-down rule", "no arms")


def record(video: Path) -> list[Any]:
    """The recogniser's detections of every frame (recorded once)."""
    out = video.with_name(video.name + ".dets.pkl")
    if not out.exists():
        from vision.detector import CardRecognizer

        dets = record_detections(CardRecognizer.load(None), video, out)
        print(f"recorded {video.name}: {len(dets)} frames", flush=True)
    detections: list[Any] = pickle.loads(out.read_bytes())
    return detections


def replay(video: Path, detections: list[Any], variant: str) -> str:
    truth = load_log(str(video) + ".truth.jsonl")
    original = arm_puts.ArmPutRules.put_down_by_arm
    if variant == "arms, no put-down rule":
        arm_puts.ArmPutRules.put_down_by_arm = lambda self, tr: False  # type: ignore[method-assign]
    try:
        res = replay_video(
            video,
            players=list(truth[0]["players"]),
            layout=TableLayout.load(str(video) + ".layout.json"),
            recognizer=Recorded(detections),
            rules="house",
            round_event=truth[0],
            referee=truth,
            arms=variant != "no arms",
        )
    finally:
        arm_puts.ArmPutRules.put_down_by_arm = original  # type: ignore[method-assign]
    m = score(res.records, truth)
    refused = sum(
        1
        for r in res.records
        if r.get("verdict") and not r["verdict"].get("ok") and r.get("source") is None
    )

    def f(kind: str) -> str:
        return f"{m[kind]['matched']}/{m[kind]['derived']}/{m[kind]['truth']}"

    return (
        f"plays {f('play')}, draws {f('draw')}, "
        f"seats {m['seats']['correct']}/{m['seats']['n']}, refused {refused}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("videos", nargs="*", help="rendered games (default: 4 tuning-style games)")
    args = ap.parse_args(argv)
    videos = [Path(v) for v in args.videos] or [CACHE / g for g in GAMES]
    missing = [str(v) for v in videos if not Path(str(v) + ".truth.jsonl").exists()]
    if missing:
        ap.error(f"not rendered: {', '.join(missing)} (run benchmarks/bench_styles.py first)")
    print("| game | " + " | ".join(VARIANTS) + " |")
    print("|---" * (len(VARIANTS) + 1) + "|")
    for video in videos:
        detections = record(video)
        cells = [replay(video, detections, v) for v in VARIANTS]
        print(f"| {video.name} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
