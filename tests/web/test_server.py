"""The server itself: chunked bodies, stalled connections, headers, ``uno-table serve``."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import (
    PLAYERS,
    TOKEN,
    LiveServer,
    SSEClient,
    post_json,
    start_uno_table,
)
from web import SECURITY_HEADERS, create_app
from web.server import lan_url, make_server
from web.store import Store

ROOT = Path(__file__).resolve().parents[2]


def chunked_post(port: int, path: str, body: bytes, chunk: int = 16_384) -> tuple[int, bytes]:
    """POST ``body`` with ``Transfer-Encoding: chunked`` over a raw socket."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"X-Referee-Token: {TOKEN}\r\nTransfer-Encoding: chunked\r\n"
            "Connection: close\r\n\r\n"
        )
        sock.sendall(head.encode())
        try:
            for i in range(0, len(body), chunk):
                part = body[i : i + chunk]
                sock.sendall(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server may answer 413 and close before the end
        answer = b""
        while chunk_in := sock.recv(65536):
            answer += chunk_in
    status = int(answer.split(b" ", 2)[1])
    return status, answer.split(b"\r\n\r\n", 1)[1]


def events_stored(app: Flask) -> int:
    store = Store.open(app.config["DATABASE"])
    try:
        return store.event_count(app.extensions["uno_table"]["service"].match.id)
    finally:
        store.close()


def test_a_chunked_body_over_the_limit_is_a_413_and_nothing_is_applied(
    app: Flask, live_server: LiveServer
) -> None:
    # Valid JSON within the first 256 KB, more after it: cut at the limit it would pass.
    event = {"type": "round", "players": PLAYERS, "dealer": "Dee"}
    body = json.dumps(event).encode() + b" " * 300_000
    status, answer = chunked_post(live_server.port, "/api/events", body)
    assert status == 413
    assert "nothing was applied" in json.loads(answer)["error"]
    assert events_stored(app) == 0
    # Just over the limit, too; and a chunked body within it is taken.
    status, _ = chunked_post(
        live_server.port, "/api/events", json.dumps(event).encode() + b" " * (256 * 1024)
    )
    assert status == 413 and events_stored(app) == 0
    status, _ = chunked_post(live_server.port, "/api/events", json.dumps(event).encode())
    assert status == 200 and events_stored(app) == 1


@pytest.fixture
def short_timeout_server(db_path: str) -> Iterator[tuple[Flask, int]]:
    app = create_app(
        {"DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "TESTING": True, "SOCKET_TIMEOUT_S": 1.0}
    )
    server = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, server.server_port
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    "half",
    [
        b'POST /api/events HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"type"',
        b"GET /api/sta",
        b"",
    ],
)
def test_a_stalled_connection_is_closed(
    short_timeout_server: tuple[Flask, int], half: bytes
) -> None:
    app, port = short_timeout_server
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        sock.sendall(half)
        started = time.monotonic()
        while sock.recv(65536):
            pass  # a 4xx, if any, then the end of the connection
        assert time.monotonic() - started < 5.0
    assert events_stored(app) == 0


def test_a_timeout_leaves_live_streams_and_posts_working(
    short_timeout_server: tuple[Flask, int],
) -> None:
    _, port = short_timeout_server
    stream = SSEClient("127.0.0.1", port)
    stream.wait_for("snapshot")
    time.sleep(1.5)  # longer than the timeout, with nothing to send but keep-alives
    status, body = post_json(
        f"http://127.0.0.1:{port}/api/events",
        {"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"},
    )
    assert status == 200 and body["n"] == 1
    assert stream.wait_for("verdict")["n"] == 1
    stream.close()


@pytest.mark.parametrize("path", ["/", "/api/state", "/healthz", "/static/app.js", "/api/nothing"])
def test_every_answer_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert set(SECURITY_HEADERS) <= set(response.headers.keys())


def test_healthz_does_not_show_where_the_database_is(app: Flask, client: FlaskClient) -> None:
    text = client.get("/healthz").get_data(as_text=True)
    path = app.config["DATABASE"]
    assert path not in text and os.path.basename(path) not in text
    assert json.loads(text)["store"]["ok"] is True


def test_lan_url_names_this_machine_for_every_interface() -> None:
    assert lan_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    url = lan_url("0.0.0.0", 8000)
    assert url.startswith("http://") and url.endswith(":8000/")
    assert "0.0.0.0" not in url


# -- the real command -------------------------------------------------------------------


class Serve:
    """``uno-table serve --source none`` in a subprocess on a free loopback port."""

    def __init__(self, db: Path, *extra: str) -> None:
        env = {**os.environ, "UNO_TABLE_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
        args = ["serve", "--source", "none", "--port", "0", "--db", str(db)]
        self.proc, url, self.lines = start_uno_table(
            [*args, "--players", "Ann,Bob", *extra], env, "Spectators"
        )
        self.port = int(url.rsplit(":", 1)[1])
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()


@pytest.mark.slow
def test_serve_refuses_a_surrogate_and_starts_again(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    server = Serve(db)
    try:
        status, body = post_json(f"{server.url}/api/matches", {"players": ["\ud800", "Bob"]})
        assert status == 400 and "surrogate" in body["error"]
        status, body = post_json(f"{server.url}/api/events", {"type": "uno", "player": "\udc00"})
        assert status == 400
        stream = SSEClient("127.0.0.1", server.port)
        stream.wait_for("snapshot")
        status, _ = post_json(
            f"{server.url}/api/events",
            {"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"},
        )
        assert status == 200 and stream.wait_for("verdict")["n"] == 1
        stream.close()
    finally:
        server.stop()
    again = Serve(db)
    try:
        assert "Match 1 (official): Ann, Bob\n" in again.lines
        status, body = post_json(f"{again.url}/api/events", {"type": "flip", "card": "red-7"})
        assert status == 200 and body["n"] == 2
    finally:
        again.stop()


@pytest.mark.slow
def test_serve_on_every_interface_prints_the_lan_link_and_a_qr_code(tmp_path: Path) -> None:
    server = Serve(tmp_path / "lan.db", "--host", "0.0.0.0")
    try:
        text = "".join(server.lines)
        spectators = next(line for line in server.lines if line.startswith("Spectators: "))
        assert "0.0.0.0" not in spectators
        assert lan_url("0.0.0.0", server.port) in spectators
        assert "scan this" in text and "█" in text  # the QR code, drawn in blocks
    finally:
        server.stop()
