"""Kill the server with SIGKILL mid-game, start it again: same state, no event lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import post_json

TOKEN = "restart-token"
ROOT = Path(__file__).resolve().parents[1]


class Server:
    """``uno-table serve --source none`` in a subprocess on a free port."""

    def __init__(self, db: Path) -> None:
        env = {**os.environ, "UNO_TABLE_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "uno_table", "serve", "--source", "none"),
                *("--port", "0", "--db", str(db), "--players", "Ann,Bob,Cy,Dee"),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.output: list[str] = []
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("server exited:\n" + "".join(self.output))
            self.output.append(line)
            if line.startswith("Spectators: "):
                self.url = line.split(": ", 1)[1].strip().rstrip("/")
            if line.startswith("Referee token: "):  # printed last, after the links
                break
        else:
            raise RuntimeError("server did not start:\n" + "".join(self.output))
        # Keep draining its output so that it never blocks on a full pipe.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=20) as response:
            return json.loads(response.read())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.mark.slow
def test_sigkill_mid_game_then_restart_resumes_exactly(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    first = Server(db)
    try:
        assert any(TOKEN in line for line in first.output)  # the token is printed
        opening = [
            {"type": "round", "players": ["Ann", "Bob", "Cy", "Dee"], "dealer": "Dee"},
            {"type": "flip", "card": "green-5"},
            {"type": "play", "card": "green-skip"},
            {"type": "play", "card": "red-4"},  # illegal: flagged, kept in the log
            {"type": "play", "card": "green-reverse", "player": "Cy"},
            {"type": "draw"},
        ]
        for event in opening:
            status, _ = post_json(first.url + "/api/events", event, token=TOKEN)
            assert status == 200
        # Keep posting while the server is killed: whatever was acknowledged must survive.
        acknowledged: list[int] = []
        stop = threading.Event()

        def hammer() -> None:
            # Out of turn, so flagged and never applied: the game state stays put.
            move = {"type": "play", "card": "blue-9", "player": "Ann"}
            while not stop.is_set():
                try:
                    status, body = post_json(first.url + "/api/events", move, token=TOKEN)
                except OSError:
                    return
                if status == 200:
                    acknowledged.append(body["n"])

        worker = threading.Thread(target=hammer, daemon=True)
        worker.start()
        time.sleep(0.5)
        first.kill()
        stop.set()
        worker.join(10)
    finally:
        if first.proc.poll() is None:
            first.kill()
    assert first.proc.returncode == -signal.SIGKILL
    assert acknowledged, "no event was acknowledged before the kill"

    second = Server(db)
    try:
        state = second.get("/api/state")
        log = second.get("/api/events")["events"]
        numbers = [e["n"] for e in log]
        assert numbers == list(range(1, len(log) + 1))
        assert set(acknowledged) <= set(numbers)  # no acknowledged event lost
        assert state["n"] == len(log) >= len(opening) + len(acknowledged)
        assert [e["event"] for e in log[: len(opening)]] == opening
        # The resumed state is the replay of the stored log.
        from tracker import Game, preset

        game, _ = Game.replay([e["event"] for e in log], preset("official"))
        assert state["game"] == game.state_json()
        assert state["game"]["top"] == "green-reverse"
        assert state["game"]["direction"] == "counterclockwise"
        # Refused, with the miss that might explain it offered (tracker.heal): the
        # question as it was asked, restored from the store.
        assert any(a["code"] == "ask-referee" for a in state["alerts"])
        # And the game goes on.
        status, body = post_json(second.url + "/api/events", {"type": "pass"}, token=TOKEN)
        assert status == 200 and body["n"] == len(log) + 1
    finally:
        second.kill()
