"""Benchmark: `uno-table referee` on a 100,000-event simulated log vs a plain JSON round trip.

Both run in a fresh subprocess with the same Python start-up (the interpreter of this
venv, `python -m ...`), read the same file and write to /dev/null; the figure is the
best of a few runs each. Target: the referee takes at most 3 times the round trip.

    python benchmarks/bench_referee.py [--events 100000] [--rules official] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROUND_TRIP = """
import json, sys
loads, dumps, write = json.loads, json.dumps, sys.stdout.write
with open(sys.argv[1], "rb") as f:
    for line in f:
        write(dumps(loads(line)))
        write("\\n")
"""


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--rules", default="official")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--mistakes", type=float, default=0.02)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from tracker import preset
    from tracker.simulate import simulate

    log = simulate(
        preset(args.rules),
        players=args.players,
        seed=2024,
        mistakes=args.mistakes,
        events=args.events,
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        with path.open("w", encoding="utf-8") as out:
            for event in log:
                event.pop("expect", None)
                out.write(json.dumps(event) + "\n")
        python = sys.executable
        referee = [python, "-m", "uno_table", "referee", "--rules", args.rules, str(path)]
        baseline = [python, "-c", ROUND_TRIP, str(path)]
        startup = [python, "-c", "pass"]
        base_times, ref_times, start_times = [], [], []
        for _ in range(args.repeat):
            start_times.append(timed(startup))
            base_times.append(timed(baseline))
            ref_times.append(timed(referee))
    base, ref, start = min(base_times), min(ref_times), min(start_times)
    print(f"events:            {len(log):,} ({args.rules}, {args.players} players)")
    print(f"python start-up:   {start * 1000:8.1f} ms")
    print(f"json round trip:   {base * 1000:8.1f} ms  ({base / len(log) * 1e6:.2f} us/event)")
    print(f"uno-table referee: {ref * 1000:8.1f} ms  ({ref / len(log) * 1e6:.2f} us/event)")
    print(f"ratio:             {ref / base:8.2f}x  (target <= 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
