"""Run every benchmark of the project, one after the other, printing their figures.

Usage: ``make bench`` or ``python benchmarks/run_all.py [NAME ...]`` where NAME is one
of ``ORDER`` (the default, each within minutes to tens of minutes), or one of the longer
or special ones run by name only: ``decks`` (sources held out in turn, ~50 min),
``boxes``, ``deck_setup``, ``same_events`` (needs its own arguments).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = (
    "referee",
    "recognizer",
    "watcher",
    "styles",
    "arms",
    "light",
    "heal",
    "heal_replay",
    "web",
    "amend",
    "league",
)


def main(argv: list[str]) -> int:
    names = argv or list(ORDER)
    status = 0
    for name in names:
        script = HERE / f"bench_{name}.py"
        if not script.exists():
            print(f"== {name}: no benchmark script {script.name}", flush=True)
            status = 1
            continue
        print(f"== {name}: {sys.executable} {script.relative_to(HERE.parent)}", flush=True)
        status |= subprocess.call([sys.executable, str(script)])
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
