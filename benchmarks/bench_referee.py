"""Benchmark: `uno-table referee` on a 100,000-event simulated log vs a plain JSON round trip.

Both run in a fresh subprocess with the same Python start-up (the interpreter of this
venv, `python -m ...`), read the same file and write to /dev/null. They run in turns,
a few times each; the figure is the best run of each, in CPU time of the subprocess
(user + system, which other jobs on a shared machine disturb far less than wall time),
with the wall time printed beside it. Target: the referee takes at most 3 times the
round trip.

    python benchmarks/bench_referee.py [--events 100000] [--rules official] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import resource
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


def timed(command: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--rules", default="official")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--mistakes", type=float, default=0.02)
    parser.add_argument("--repeat", type=int, default=5)
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
        runs: dict[str, list[tuple[float, float]]] = {"start": [], "base": [], "ref": []}
        for _ in range(args.repeat):
            runs["start"].append(timed(startup))
            runs["base"].append(timed(baseline))
            runs["ref"].append(timed(referee))
    start, base, ref = (min(runs[k]) for k in ("start", "base", "ref"))
    wall_base, wall_ref = min(w for _, w in runs["base"]), min(w for _, w in runs["ref"])
    n = len(log)
    print(f"events:            {n:,} ({args.rules}, {args.players} players, best of {args.repeat})")
    print(f"python start-up:   {start[0] * 1000:8.1f} ms CPU")
    print(
        f"json round trip:   {base[0] * 1000:8.1f} ms CPU ({base[0] / n * 1e6:.2f} us/event), "
        f"{wall_base * 1000:.1f} ms wall"
    )
    print(
        f"uno-table referee: {ref[0] * 1000:8.1f} ms CPU ({ref[0] / n * 1e6:.2f} us/event), "
        f"{wall_ref * 1000:.1f} ms wall"
    )
    print(
        f"ratio:             {ref[0] / base[0]:8.2f}x CPU, {wall_ref / wall_base:.2f}x wall "
        "(target <= 3)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
