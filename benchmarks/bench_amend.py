"""How long an amendment of the timeline takes (``POST /api/amend``), by how many later
events it judges again; and ``GET /api/timeline``.

A legal round of simulated play (``tracker.simulate``, official rules, 4 players) is
posted to the app (Flask test client, a real SQLite file with ``synchronous=FULL``),
then its first play is corrected to itself (every later event judged again, all
legal: the cost of the rewrite alone), a draw inserted before it and deleted again,
and the last event corrected to itself. Median of ``--repeat`` runs per row, healing on and off.

    PYTHONPATH=. python benchmarks/bench_amend.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench"
AUTH = {"X-Referee-Token": TOKEN}


def long_round(min_events: int) -> list[dict[str, Any]]:
    """The first simulated round (over seeds) with at least ``min_events`` events, its
    ``end-round`` left out."""
    from tracker import preset
    from tracker.simulate import simulate

    for seed in range(500):
        log = [
            {k: v for k, v in e.items() if k != "expect"}
            for e in simulate(preset("official"), seed=seed)
        ]
        log = [e for e in log if e["type"] != "end-round"]
        if len(log) >= min_events:
            return log
    raise SystemExit(f"no simulated round of {min_events} events")


def timed(client: Any, body: dict[str, Any]) -> float:
    started = time.perf_counter()
    response = client.post("/api/amend", json=body, headers=AUTH)
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.json
    return elapsed


def measure(log: list[dict[str, Any]], heal: bool, repeat: int, tmp: Path) -> dict[str, float]:
    sys.path.insert(0, str(ROOT))
    from web import create_app

    db = tmp / f"amend-{heal}-{len(log)}.db"
    app = create_app(
        {"DATABASE": str(db), "REFEREE_TOKEN": TOKEN, "TESTING": True, "HEAL": heal}
        | {"PLAYERS": log[0]["players"], "NEW_MATCH": True}
    )
    client = app.test_client()
    for event in log:
        assert client.post("/api/events", json=event, headers=AUTH).status_code == 200
    figures: dict[str, list[float]] = {
        "replace": [],
        "insert": [],
        "delete": [],
        "last": [],
        "get": [],
    }
    for _ in range(repeat):
        entries = client.get("/api/timeline").json["events"]
        first = next(e for e in entries if e["event"]["type"] == "play")
        figures["replace"].append(
            timed(client, {"n": first["n"], "action": "replace", "event": first["event"]})
        )
        entries = client.get("/api/timeline").json["events"]
        first = next(e for e in entries if e["event"]["type"] == "play")
        # A draw the camera missed, by the player who then played: still all legal.
        draw = {"type": "draw", "player": first["event"]["player"]}
        figures["insert"].append(
            timed(client, {"n": first["n"], "action": "insert", "event": draw})
        )
        entries = client.get("/api/timeline").json["events"]
        added = next(e for e in entries if e["event"] == draw)
        figures["delete"].append(timed(client, {"n": added["n"], "action": "delete"}))
        entries = client.get("/api/timeline").json["events"]
        last = entries[-1]
        figures["last"].append(
            timed(client, {"n": last["n"], "action": "replace", "event": last["event"]})
        )
        started = time.perf_counter()
        client.get("/api/timeline")
        figures["get"].append((time.perf_counter() - started) * 1000)
    alerts = sum(len(e["alerts"]) for e in client.get("/api/timeline").json["events"])
    assert alerts == 0, "the round stayed legal"
    return {k: statistics.median(v) for k, v in figures.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 50, 100])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print(
        "| round events | healing | first play corrected (all later judged again) ms "
        "| a missed draw inserted there ms | and deleted ms | last event corrected ms "
        "| GET /api/timeline ms |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            log = long_round(size)
            for heal in (True, False):
                f = measure(log, heal, args.repeat, Path(tmp))
                print(
                    f"| {len(log)} | {'on' if heal else 'off'} | {f['replace']:.1f} | "
                    f"{f['insert']:.1f} | {f['delete']:.1f} | {f['last']:.1f} | {f['get']:.1f} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
