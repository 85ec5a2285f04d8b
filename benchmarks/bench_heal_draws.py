"""Benchmark: dropped draws, by what follows the draw, and which the healer can see.

A missed draw changes nothing a later event is judged by when the next events are
legal all the same: the drawer plays the drawn card at once (or calls UNO first), or
someone jumps in with the identical card. This replays the same logs as
``bench_heal.py`` (the tracker's simulator, 4 players, seeds 1-4 cut at 120 events,
and the rendered videos' scripts), drops each draw in turn, heals with the camera's
view of the pile, and counts the dropped draws by what came next and whether the
healed game was back in step (hand counts and draw pile included) by the next play.

    PYTHONPATH=. python benchmarks/bench_heal_draws.py [--games 4]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_heal import faults, run, truth_of, with_players  # noqa: E402
from synth.video import simulated_game  # noqa: E402
from tracker import preset  # noqa: E402
from tracker.simulate import simulate  # noqa: E402

Event = dict[str, Any]
MAX_EVENTS = 120


def what_follows(log: list[Event], i: int) -> str:
    """What came after the draw ``log[i]``, as the healer sees it."""
    draw, after = log[i], (log[i + 1] if i + 1 < len(log) else {"type": "end"})
    before = log[i - 1] if i else {}
    if draw.get("count", 1) != 1 or (
        before.get("type") == "draw" and before.get("player") == draw.get("player")
    ):
        return "a penalty, or one of several draws"
    if after["type"] == "play":
        if after.get("player") == draw.get("player"):
            return "the drawer plays (the drawn card)"
        return "another player plays (next, or a jump-in)"
    if after["type"] == "uno" and after.get("player") == draw.get("player"):
        return "the drawer calls UNO, then plays"
    if after["type"] == "pass":
        return "the drawer passes"
    return f"{after['type']}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    started = time.perf_counter()
    counts: Counter[tuple[str, bool]] = Counter()
    sources: list[tuple[str, list[Event]]] = []
    for rules in ("official", "house", "youlerren"):
        for seed in range(1, args.games + 1):
            raw = simulate(preset(rules), players=4, seed=seed, rounds=1)
            sources.append((rules, with_players(raw, rules)[:MAX_EVENTS]))
    sources += [("house", simulated_game(seed, turns=40)) for seed in range(1, args.games + 1)]
    for rules, log in sources:
        truth, tops = truth_of(log, rules)
        for fault in faults(log):
            if fault.kind == "drop draw":
                outcome = run(log, truth, tops, fault, rules, True, True)
                counts[(what_follows(log, fault.at), outcome.by_next_play)] += 1
    total = sum(counts.values())
    print(f"{'after the dropped draw':45} {'n':>4} {'in step by next play':>21}")
    for kind in sorted(
        {k for k, _ in counts}, key=lambda k: -counts[(k, True)] - counts[(k, False)]
    ):
        n = counts[(kind, True)] + counts[(kind, False)]
        print(
            f"{kind:45} {n:4d} {counts[(kind, True)]:14d} ({100 * counts[(kind, True)] / n:.0f}%)"
        )
    good = sum(v for (_, ok), v in counts.items() if ok)
    print(f"{'all':45} {total:4d} {good:14d} ({100 * good / total:.0f}%)")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
