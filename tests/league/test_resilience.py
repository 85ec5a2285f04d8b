"""A table without its league plays on; a league killed mid-evening loses nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from league.throwaway import ThrowawayPostgres, free_port
from tests.league.conftest import TOKENS
from tests.league.helpers import Table, league_events, simulated_match, wait_for
from tests.web.helpers import start_uno_table

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


class ServerOnPort:
    """The league app served on a given port (to bring a league back where it was)."""

    def __init__(self, app: Flask, port: int) -> None:
        self.server = make_server("127.0.0.1", port, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_a_table_plays_on_while_the_league_is_down_and_catches_up(
    tmp_path: Path, league_app: Flask, league_url: str
) -> None:
    port = free_port()
    table = Table(tmp_path, "t1", PLAYERS, league=f"http://127.0.0.1:{port}", token=TOKENS["t1"])
    try:
        log = simulated_match("official", PLAYERS, seed=11, rounds=2)
        assert table.play(log) == len(log)  # nothing waits for the league
        assert len(table.stored()) == len(log)
        assert table.pusher is not None
        wait_for(lambda: table.pusher is not None and table.pusher.state == "down", what="down")
        assert league_events(league_url, "t1") == {}
        server = ServerOnPort(league_app, port)
        try:
            wait_for(lambda: len(league_events(league_url, "t1")) == len(log), what="the catch-up")
            table.play(simulated_match("official", PLAYERS, seed=12, rounds=1)[:10])
            wait_for(lambda: league_events(league_url, "t1") == table.stored(), what="all")
        finally:
            server.stop()
    finally:
        table.close()


class LeagueProcess:
    """``uno-table league`` in its own process, to be killed like a crashed server."""

    def __init__(self, url: str, port: int) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        args = ["league", "--db", url, "--port", str(port)]
        self.proc, self.url, _ = start_uno_table(args, env, "League")

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def league_port() -> Iterator[int]:
    yield free_port()


@pytest.mark.slow
def test_kill_9_of_the_league_mid_evening_loses_nothing_acknowledged(
    tmp_path: Path, league_url: str, league_port: int
) -> None:
    league = LeagueProcess(league_url, league_port)
    names = ["t1", "t2"]
    tables = [Table(tmp_path, n, PLAYERS, league=league.url, token=TOKENS[n]) for n in names]
    logs = [simulated_match("official", PLAYERS, seed=20 + i, rounds=3) for i in range(2)]
    half = threading.Event()
    acked_at_kill: list[dict[int, int]] = []

    def play(i: int) -> None:
        def step(n: int) -> None:
            if n == len(logs[i]) // 3:
                half.set()

        tables[i].play(logs[i], pace_s=0.01, on_event=step)

    players = [threading.Thread(target=play, args=(i,)) for i in range(2)]
    try:
        for t in players:
            t.start()
        assert half.wait(60)
        wait_for(lambda: all(t.pusher and t.pusher.sent > 0 for t in tables), what="pushes")
        # What the league acknowledged so far (the pusher forgets it when the league goes).
        acked_at_kill = [dict(t.pusher.acked or {}) if t.pusher else {} for t in tables]
        assert any(acked_at_kill)
        league.kill9()  # mid-push, mid-game
        wait_for(lambda: all(t.pusher and t.pusher.state == "down" for t in tables), what="down")
        for t in players:
            t.join(120)  # the tables finish their games without the league
        assert [len(t.stored()) for t in tables] == [len(log) for log in logs]
        league = LeagueProcess(league_url, league_port)
        for t in tables:
            wait_for(
                lambda t=t: league_events(league_url, t.name) == t.stored(),  # type: ignore[misc]
                timeout=60,
                what=f"{t.name} to catch up",
            )
        for t, acked in zip(tables, acked_at_kill, strict=True):
            stored = league_events(league_url, t.name)
            assert all((m, s) in stored for m, last in acked.items() for s in range(1, last + 1))
            assert t.pusher is not None and t.pusher.state == "up"
        with urllib.request.urlopen(league.url + "/api/board", timeout=10) as response:
            board = json.load(response)
        assert {tile["table"]: tile["seq"] for tile in board["tables"]} == {
            n: len(log) for n, log in zip(names, logs, strict=True)
        }
    finally:
        for t in tables:
            t.close()
        if league.proc.poll() is None:
            league.kill9()


def test_serve_pushes_to_the_league(tmp_path: Path, league_server: object, league_url: str) -> None:
    url = league_server.url  # type: ignore[attr-defined]
    args = ["serve", "--source", "none", "--port", "0", "--players", "Ann,Bob"]
    args += ["--db", str(tmp_path / "table.db"), "--league", url, "--table", "t2"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "UNO_TABLE_TOKEN": "referee-123"}
    serve, tablet, _ = start_uno_table([*args, "--league-token", TOKENS["t2"]], env, "Spectators")
    try:
        for event in (
            {"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"},
            {"type": "flip", "card": "red-7"},
            {"type": "play", "card": "blue-3"},
        ):
            request = urllib.request.Request(
                tablet + "/api/events",
                data=json.dumps(event).encode(),
                headers={"Content-Type": "application/json", "X-Referee-Token": "referee-123"},
            )
            urllib.request.urlopen(request, timeout=10).close()
        wait_for(lambda: len(league_events(league_url, "t2")) == 3, what="serve's push")
        stored = league_events(league_url, "t2")
        # Refused, with the miss that might explain it offered (tracker.heal).
        assert stored[(1, 3)][1]["alerts"][0]["code"] == "ask-referee"
    finally:
        serve.terminate()
        serve.wait(10)


def test_serve_refuses_league_without_table_or_token(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "uno_table",
            "serve",
            "--source",
            "none",
            "--db",
            str(tmp_path / "x.db"),
            "--league",
            "http://127.0.0.1:1",
        ],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "UNO_LEAGUE_TOKEN"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--table" in done.stderr


@pytest.mark.slow
def test_the_league_rides_out_a_restart_of_postgresql(
    tmp_path: Path, league_server: object, league_url: str, pg: ThrowawayPostgres
) -> None:
    url = league_server.url  # type: ignore[attr-defined]
    table = Table(tmp_path, "t1", PLAYERS, league=url, token=TOKENS["t1"])
    try:
        log = simulated_match("official", PLAYERS, seed=31, rounds=2)
        table.play(log[:20])
        wait_for(lambda: len(league_events(league_url, "t1")) == 20, what="the first push")
        pg.stop(remove=False)
        try:
            table.play(log[20:])  # the table plays on; the league answers 503
            wait_for(lambda: table.pusher is not None and table.pusher.state == "down", what="503")
            assert table.pusher is not None and "503" in table.pusher.last_error
        finally:
            pg.start()
        wait_for(lambda: league_events(league_url, "t1") == table.stored(), what="the catch-up")
    finally:
        table.close()
