"""Shared helpers of the web tests."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import BaseWSGIServer, make_server

TOKEN = "test-token-123"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
AUTH = {"X-Referee-Token": TOKEN}
ROOT = Path(__file__).resolve().parents[2]


def start_uno_table(
    args: list[str], env: dict[str, str], banner: str
) -> tuple[subprocess.Popen[str], str, list[str]]:
    """``python -m uno_table *args`` run from the repository root, read until it prints
    ``<banner>: <url>``: the process, that URL (no trailing slash) and the lines read."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "uno_table", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith(f"{banner}: "):
            return proc, line.split(": ", 1)[1].strip().rstrip("/"), lines
    proc.kill()
    proc.wait(10)
    raise AssertionError(f"uno-table {args[0]} did not start:\n" + "".join(lines))


class LiveServer:
    """The app served by werkzeug's threaded server on a free loopback port."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


def post_event(client: FlaskClient, event: dict[str, Any]) -> dict[str, Any]:
    """Post one event as the referee; it must be taken (200): its verdict."""
    response = client.post("/api/events", json=event, headers=AUTH)
    assert response.status_code == 200, response.json
    verdict: dict[str, Any] = response.json["verdict"]
    return verdict


def deal(client: FlaskClient, players: list[str] | None = None, dealer: str = "Dee") -> None:
    """Start a round and flip red-7: Ann to play, red to follow."""
    events: list[dict[str, Any]] = [
        {"type": "round", "players": players or PLAYERS, "dealer": dealer},
        {"type": "flip", "card": "red-7"},
    ]
    for event in events:
        verdict = post_event(client, event)
        assert verdict["ok"], verdict


class SSEClient:
    """A minimal Server-Sent Events reader over a raw HTTP connection."""

    def __init__(self, host: str, port: int, timeout: float = 20.0) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=timeout)
        self.conn.request("GET", "/api/stream", headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        assert self.response.status == 200

    def next_event(self) -> tuple[str, dict[str, Any]]:
        """The next ``(event, data)``; comments and ``retry`` lines are skipped."""
        name, data = "message", []
        while True:
            raw = self.response.readline()
            if not raw:
                raise EOFError("stream closed")
            line = raw.decode().rstrip("\n")
            if line == "":
                if data:
                    return name, json.loads("\n".join(data))
                name = "message"
                continue
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])

    def wait_for(self, event: str) -> dict[str, Any]:
        while True:
            name, data = self.next_event()
            if name == event:
                return data

    def close(self) -> None:
        self.conn.close()


def post_json(url: str, body: Any, token: str | None = TOKEN) -> tuple[int, dict[str, Any]]:
    """POST JSON with urllib; ``(status, body)`` also for 4xx answers."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            **({"X-Referee-Token": token} if token else {}),
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())
