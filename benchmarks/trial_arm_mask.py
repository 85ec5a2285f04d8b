"""Skin or motion: what marks an arm best for the seat of a play (issue 20, item 2).

    python benchmarks/trial_arm_mask.py                 # the videos bench_styles rendered
    python benchmarks/trial_arm_mask.py --styles covering-hand,dim-warm

For every rendered style video in ``.cache/bench-styles/`` (``bench_styles.py`` renders
them; 2 games a style), one :class:`vision.hands.ArmWatch` per mask (``motion``, the
runtime's; ``skin``, a textbook YCrCb box; ``both``) looks at every frame; for each
true play, at the moment its card came to rest, the watch is asked the seat of the arm
that put it down (``seat_for``, as the watcher asks). Counted per style: the seat
right, wrong, or none given. Nothing is tuned here: the skin box is the textbook one,
the other settings the runtime's.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.calibration import TableLayout  # noqa: E402
from vision.hands import MASKS, ArmConfig, ArmWatch  # noqa: E402
from vision.source import read_video  # noqa: E402

CACHE = ROOT / ".cache" / "bench-styles"
#: bench_styles' file names: v{version}-{style}-s{seed}-t{turns}.mp4
VIDEO_NAME = re.compile(r"^v\d+-(.+)-s\d+-t\d+\.mp4$")


def plays_of(truth: Path) -> list[tuple[float, int]]:
    """(time at rest, seat) of every play of a truth log."""
    players: list[str] = []
    out = []
    for line in truth.read_text().splitlines():
        ev = json.loads(line)
        if ev["type"] == "round":
            players = list(ev["players"])
        elif ev["type"] == "play" and ev.get("player") in players:
            out.append((float(ev["t"]), players.index(ev["player"])))
    return out


def measure(video: Path) -> dict[str, Counter[str]]:
    layout = TableLayout.load(video.with_name(video.name + ".layout.json"))
    truth = plays_of(video.with_name(video.name + ".truth.jsonl"))
    watches = {m: ArmWatch(layout, ArmConfig(mask=m)) for m in MASKS}
    counts = {m: Counter[str]() for m in MASKS}
    pending = list(truth)
    after = ArmConfig().seats.after_s
    for frame in read_video(video):
        for watch in watches.values():
            watch.update(frame.image, frame.t)
        while pending and pending[0][0] + after <= frame.t:
            t, seat = pending.pop(0)
            for m, watch in watches.items():
                got = watch.seat_for(t)
                counts[m]["none" if got is None else "right" if got == seat else "wrong"] += 1
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--styles", default="", help="comma-separated (default: every cached one)")
    ap.add_argument("--cache", type=Path, default=CACHE, help="where bench_styles rendered")
    args = ap.parse_args()
    wanted = set(filter(None, args.styles.split(",")))
    videos = sorted(args.cache.glob("v*-s*-t*.mp4"))
    by_style: dict[str, dict[str, Counter[str]]] = {}
    for video in videos:
        named = VIDEO_NAME.match(video.name)
        if named is None:
            continue
        style = named.group(1)
        if wanted and style not in wanted:
            continue
        counts = measure(video)
        total = by_style.setdefault(style, {m: Counter[str]() for m in MASKS})
        for m in MASKS:
            total[m].update(counts[m])
        print(video.name, {m: dict(c) for m, c in counts.items()}, flush=True)
    print("\n| style | plays | " + " | ".join(f"{m}: right / wrong / none" for m in MASKS) + " |")
    print("|---|---|" + "---|" * len(MASKS))
    for style, total in by_style.items():
        n = sum(total[MASKS[0]].values())
        cells = [f"{c['right']} / {c['wrong']} / {c['none']}" for c in (total[m] for m in MASKS)]
        print(f"| {style} | {n} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
