"""Load test of the league: many simulated tables pushing at once, viewers on the board.

On loopback only, bounded in time: a throwaway PostgreSQL (``initdb``/``pg_ctl``, default
durability: fsync on), ``uno-table league`` in its own process, ``--tables`` tables
(the real tablet app: SQLite store, game service, pusher; the tracker's simulator as
the camera) playing one event every ``--pace`` seconds each, and ``--viewers`` league
pages (Server-Sent Events, in another process; each reloads the standings and ratings
when a round ends, as the page does). Printed:

- events per second stored by the league while the tables played, and the offered rate;
- delay from a table's commit of an event to a viewer receiving that table's new tile:
  median and p95 over every viewer;
- the database's size per 1,000 games (rounds), measured after ``--games`` more rounds
  are pushed in bulk.

Run:  .venv/bin/python benchmarks/bench_league.py [--tables 50] [--viewers 20]
      [--seconds 60] [--pace 1.0] [--games 1000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RULES = ("official", "house", "youlerren")
PLAYER_POOL = 120
PLAYERS_PER_TABLE = 4
ROUNDS_PER_MATCH = 6
SUMMARY_THROTTLE_S = 0.5  # as the page: one reload of the standings per half second
DRAIN_S = 30.0  # the most the tables' pushers get to catch up after the play stops


def names(rng: random.Random) -> list[str]:
    return [f"P{n:03d}" for n in rng.sample(range(1, PLAYER_POOL + 1), PLAYERS_PER_TABLE)]


# ---------------------------------------------------------------- viewers (own process)


def viewer(base: str, seconds: float, delays: list[float], counts: list[int]) -> None:
    host, port = base.split("//", 1)[1].split(":")
    summary = threading.Event()
    stop = time.monotonic() + seconds

    def reload_summary() -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        while time.monotonic() < stop:
            if summary.wait(1.0):
                summary.clear()
                conn.request("GET", "/parts/summary")
                conn.getresponse().read()
                counts[1] += 1
                time.sleep(SUMMARY_THROTTLE_S)
        conn.close()

    threading.Thread(target=reload_summary, daemon=True).start()
    page = http.client.HTTPConnection(host, int(port), timeout=30)
    page.request("GET", "/")
    page.getresponse().read()
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("GET", "/api/stream", headers={"Accept": "text/event-stream"})
    response = conn.getresponse()
    while time.monotonic() < stop:
        line = response.fp.readline()
        if not line:
            break
        if not line.startswith(b"data: "):
            continue
        now = time.time()
        message = json.loads(line[6:])
        if message["kind"] == "tile" and message["tile"].get("at"):
            delays.append(now - float(message["tile"]["at"]))
            counts[0] += 1
        elif message["kind"] == "round":
            summary.set()
    conn.close()


def run_viewers(base: str, count: int, seconds: float) -> None:
    delays: list[float] = []
    counts = [0, 0]
    threads = [
        threading.Thread(target=viewer, args=(base, seconds, delays, counts), daemon=True)
        for _ in range(count)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 30)
    json.dump({"delays": delays, "tiles": counts[0], "summaries": counts[1]}, sys.stdout)


# ---------------------------------------------------------------- the league and tables


def start_league(url: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "uno_table", "league", "--db", url, "--port", "0"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("League: "):
            return proc, line.split(": ", 1)[1].strip().rstrip("/")
    raise RuntimeError("the league did not start")


def count_events(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM events").fetchone()
    return int(row[0]) if row else 0


def db_bytes(url: str) -> tuple[int, int]:
    """(bytes of the league's tables and indexes, rounds stored)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        size = conn.execute(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'r'"
        ).fetchone()
        rounds = conn.execute(
            "SELECT count(*) FROM events WHERE type = 'end-round' AND ok"
        ).fetchone()
    return int(size[0] if size else 0), int(rounds[0] if rounds else 0)


def play_table(table: Any, rng: random.Random, pace: float, until: float) -> None:
    from tests.league.helpers import simulated_match

    time.sleep(rng.random() * pace)  # the tables do not start in step
    first = True
    while time.monotonic() < until:
        rules, players = rng.choice(RULES), names(rng)
        if not first:
            table.new_match(players, rules)
        first = False
        log = simulated_match(rules, players, rng.randrange(10**6), ROUNDS_PER_MATCH)
        for event in log:
            if time.monotonic() >= until:
                return
            table.play([event])
            time.sleep(pace)


def bulk_games(league: str, token: str, games: int, seed: int) -> float:
    """Push ``games`` more rounds as one table would after a long outage; seconds taken."""
    from tests.league.helpers import simulated_match
    from tracker import Game, preset
    from web.league_push import BATCH

    rng = random.Random(seed)
    host, port = league.split("//", 1)[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    start = time.monotonic()
    played, mid = 0, 0
    while played < games:
        mid += 1
        rules, players = rng.choice(RULES), names(rng)
        log = simulated_match(rules, players, rng.randrange(10**6), ROUNDS_PER_MATCH)
        game = Game(preset(rules))
        rows = [
            {"seq": i, "at": time.time(), "source": "vision", "event": e,
             "verdict": game.apply(e).to_json()}
            for i, e in enumerate(log, start=1)
        ]  # fmt: skip
        played += sum(1 for r in rows if r["event"]["type"] == "end-round")
        match = {"id": mid, "rules": rules, "players": players, "created_at": time.time()}
        for at in range(0, len(rows), BATCH):
            body = json.dumps({"match": match, "events": rows[at : at + BATCH]})
            conn.request(
                "POST",
                "/api/tables/bulk/events",
                body,
                {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            response = conn.getresponse()
            response.read()
            assert response.status == 200, response.status
    return time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's events")
    parser.add_argument("--games", type=int, default=1000, help="rounds pushed for the size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--viewers-of", help=argparse.SUPPRESS)  # the viewers' own process
    args = parser.parse_args()
    if args.viewers_of:
        run_viewers(args.viewers_of, args.viewers, args.seconds)
        return 0

    from league.db import connect
    from league.schema import migrate
    from league.tables import add_table
    from league.throwaway import ThrowawayPostgres
    from tests.league.helpers import Table, league_events

    rng = random.Random(args.seed)
    with ThrowawayPostgres() as pg, tempfile.TemporaryDirectory() as tmp:
        url = pg.new_database("league_bench")
        tokens = {f"t{i:02d}": f"bench-token-of-table-{i:02d}" for i in range(1, args.tables + 1)}
        with connect(url) as conn:
            migrate(conn)
            for name, token in {**tokens, "bulk": "bench-token-of-the-bulk"}.items():
                add_table(conn, name, token)
        proc, league = start_league(url)
        try:
            tables = [
                Table(Path(tmp), n, names(rng), league=league, token=t) for n, t in tokens.items()
            ]
            viewers = subprocess.Popen(
                [sys.executable, __file__, "--viewers-of", league, "--viewers",
                 str(args.viewers), "--seconds", str(args.seconds + 5)],
                stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            time.sleep(2.0)  # the viewers connect
            before = count_events(url)
            start = time.monotonic()
            until = start + args.seconds
            players = [
                threading.Thread(
                    target=play_table, args=(t, random.Random(rng.random()), args.pace, until)
                )
                for t in tables
            ]
            for t in players:
                t.start()
            for t in players:
                t.join()
            played_s = time.monotonic() - start
            at_stop = count_events(url) - before
            stored = sum(len(t.stored()) for t in tables)
            drained = time.monotonic()
            while count_events(url) - before < stored and time.monotonic() - drained < DRAIN_S:
                time.sleep(0.2)
            drain_s = time.monotonic() - drained
            lost = sum(league_events(url, t.name) != t.stored() for t in tables)
            out, _ = viewers.communicate(timeout=120)
            seen = json.loads(out)
            for t in tables:
                t.close()
            size0, rounds0 = db_bytes(url)
            events0 = count_events(url)
            bulk_s = bulk_games(league, "bench-token-of-the-bulk", args.games, args.seed)
            size1, rounds1 = db_bytes(url)
            bulk_events = count_events(url) - events0
        finally:
            proc.kill()
            proc.wait()
    delays = sorted(seen["delays"])
    p95 = delays[int(0.95 * (len(delays) - 1))] if delays else float("nan")
    per_1000 = (size1 - size0) / max(rounds1 - rounds0, 1) * 1000
    print(f"tables {args.tables}, one event every {args.pace:g} s each, {played_s:.0f} s; "
          f"viewers {args.viewers}")  # fmt: skip
    print(f"events stored at the tables: {stored} ({stored / played_s:.1f}/s offered)")
    print(f"events stored by the league while they played: {at_stop} "
          f"({at_stop / played_s:.1f}/s); all caught up {drain_s:.1f} s after the play stopped; "
          f"tables whose league log differs from their own: {lost}")  # fmt: skip
    print(f"commit -> viewer delay over {len(delays)} tiles: median "
          f"{statistics.median(delays) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms; "
          f"standings reloads {seen['summaries']}")  # fmt: skip
    print(f"bulk: {rounds1 - rounds0} rounds, {bulk_events} events "
          f"({(size1 - size0) / 2**20:.1f} MiB, {(size1 - size0) / max(bulk_events, 1):.0f} "
          f"bytes an event) pushed in {bulk_s:.1f} s ({bulk_events / bulk_s:.0f} events/s); "
          f"database size per 1,000 games: {per_1000 / 2**20:.1f} MiB "
          f"(whole database after the run: {size1 / 2**20:.1f} MiB, {rounds1} rounds)")  # fmt: skip
    return 0 if lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
