"""Live updates over a real threaded server: 50 Server-Sent Events clients at once."""

from __future__ import annotations

import threading
from typing import Any

from tests.web.helpers import LiveServer, SSEClient, post_json

CLIENTS = 50


def test_fifty_clients_all_receive_an_event(live_server: LiveServer) -> None:
    ready = threading.Barrier(CLIENTS + 1, timeout=60)
    received: dict[int, dict[str, Any]] = {}
    errors: list[BaseException] = []

    def client(i: int) -> None:
        sse = None
        try:
            sse = SSEClient("127.0.0.1", live_server.port)
            sse.wait_for("snapshot")  # subscribed from here on
            ready.wait()
            received[i] = sse.wait_for("verdict")
        except BaseException as exc:
            errors.append(exc)
            ready.abort()
        finally:
            if sse is not None:
                sse.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(CLIENTS)]
    for th in threads:
        th.start()
    ready.wait()
    status, body = post_json(
        f"{live_server.url}/api/events",
        {"type": "round", "players": ["Ann", "Bob", "Cy"], "dealer": "Cy"},
    )
    assert status == 200 and body["verdict"]["ok"]
    for th in threads:
        th.join(30)
    assert errors == []
    assert len(received) == CLIENTS
    for message in received.values():
        assert message["n"] == 1
        assert message["event"]["type"] == "round"
        assert message["snapshot"]["game"]["turn"] == "Ann"


def test_a_refused_write_reaches_no_client(live_server: LiveServer) -> None:
    sse = SSEClient("127.0.0.1", live_server.port)
    try:
        sse.wait_for("snapshot")
        status, body = post_json(f"{live_server.url}/api/events", {"type": "undo"}, token="nope")
        assert status == 401 and body["error"] == "wrong referee token"
        status, _ = post_json(f"{live_server.url}/api/events", {"type": "undo"})
        assert status == 200
        message = sse.wait_for("verdict")
        assert message["n"] == 1  # the refused write never got a number
        assert message["verdict"]["ok"] is False  # nothing to undo yet
    finally:
        sse.close()


def test_health_changes_are_pushed(db_path: str) -> None:
    from web import create_app

    class Camera:
        state = "ok"

        def frame_jpeg(self) -> None:
            return None

        def status(self) -> dict[str, Any]:
            return {"camera": {"state": self.state}, "recognition": {"available": True}}

        def seat_cards(self) -> dict[str, list[str]]:
            return {}

    camera = Camera()
    app = create_app({"DATABASE": db_path, "LIVE": camera, "HEALTH_POLL_S": 0.1})
    with LiveServer(app) as server:
        sse = SSEClient("127.0.0.1", server.port)
        try:
            assert sse.wait_for("health")["camera"]["state"] == "ok"
            camera.state = "lost"
            assert sse.wait_for("health")["camera"]["state"] == "lost"
        finally:
            sse.close()
