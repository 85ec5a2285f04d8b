"""Pushing a table's stored events to the league server, exactly once.

A background thread reads the table's SQLite store from the last number the league
acknowledged, per match, and sends the events in order (``POST
/api/tables/NAME/events``). The league stores each (table, match, seq) once and
answers how far it holds the log, so a repeated send stores nothing twice. When the
league cannot be reached the table plays on (the store is the table's own); the
pusher retries with a growing pause, asks the league how far it got, and sends what
is missing. The game service wakes it after every stored event.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
import sys
import threading
from typing import Any, Final
from urllib.parse import urlsplit

BATCH: Final = 200  # events per push
POLL_S: Final = 2.0  # a look at the store even without a wake-up
TIMEOUT_S: Final = 10.0
BACKOFF_S: Final = (0.2, 5.0)  # first and longest pause after a failure


class Refused(Exception):
    """The league answered with an error; ``status`` is its HTTP status."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status}: {body.get('error', body)}")
        self.status = status
        self.body = body


class LeaguePusher:
    """Sends the events of the SQLite store at ``db_path`` to the league at ``url``."""

    def __init__(self, db_path: str, url: str, table: str, token: str) -> None:
        parts = urlsplit(url if "://" in url else f"http://{url}")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"--league needs an http(s)://HOST:PORT address, got {url!r}")
        self.parts = parts
        self.db_path = db_path
        self.table = table
        self.token = token
        self.acked: dict[int, int] | None = None  # None: ask the league first
        self.state = "starting"  # up | down | refused
        self.last_error = ""
        self.sent = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._conn: http.client.HTTPConnection | None = None
        self._thread = threading.Thread(target=self._run, name="league-push", daemon=True)

    # -- control ---------------------------------------------------------------------

    def start(self) -> LeaguePusher:
        self._thread.start()
        return self

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout)

    def status(self) -> dict[str, Any]:
        return {"state": self.state, "error": self.last_error, "sent": self.sent}

    # -- the loop --------------------------------------------------------------------

    def _run(self) -> None:
        pause = BACKOFF_S[0]
        store = sqlite3.connect(self.db_path, timeout=30.0)
        try:
            while not self._stop.is_set():
                try:
                    if self.acked is None:
                        self.acked = self._progress()
                    busy = self._push_some(store)
                    self._set_state("up", "")
                    pause = BACKOFF_S[0]
                    if not busy:
                        self._wake.wait(POLL_S)
                        self._wake.clear()
                except (OSError, http.client.HTTPException, Refused, ValueError) as exc:
                    self._close()
                    self.acked = None
                    refused = isinstance(exc, Refused) and exc.status in (400, 401, 403, 409, 413)
                    self._set_state("refused" if refused else "down", str(exc))
                    self._stop.wait(pause)
                    pause = min(pause * 2, BACKOFF_S[1])
        finally:
            store.close()
            self._close()

    def _set_state(self, state: str, error: str) -> None:
        if state != self.state:
            shown = f": {error}" if error else ""
            print(f"league {self.table}: {state}{shown}", file=sys.stderr, flush=True)
        self.state, self.last_error = state, error

    def _push_some(self, store: sqlite3.Connection) -> bool:
        """Send one batch of the first match with events the league lacks; False: none."""
        assert self.acked is not None
        matches = store.execute(
            "SELECT id, created_at, rules, players FROM matches ORDER BY id"
        ).fetchall()
        for mid, created_at, rules, players in matches:
            done = self.acked.get(int(mid), 0)
            # One probe of the primary key (match_id, n): the log is never scanned.
            if not store.execute(
                "SELECT 1 FROM events WHERE match_id = ? AND n > ? LIMIT 1", (mid, done)
            ).fetchone():
                continue
            events = [
                {
                    "seq": n,
                    "at": at,
                    "source": source,
                    "event": json.loads(event),
                    "verdict": json.loads(verdict),
                }
                for n, at, source, event, verdict in store.execute(
                    "SELECT n, at, source, event, verdict FROM events"
                    " WHERE match_id = ? AND n > ? ORDER BY n LIMIT ?",
                    (mid, done, BATCH),
                )
            ]
            match = {
                "id": int(mid),
                "rules": rules,
                "players": json.loads(players),
                "created_at": created_at,
            }
            try:
                answer = self._request(
                    "POST",
                    f"/api/tables/{self.table}/events",
                    {"match": match, "events": events},
                )
            except Refused as exc:
                theirs = exc.body.get("acked")
                if exc.status == 409 and isinstance(theirs, int) and theirs != done:
                    self.acked[int(mid)] = theirs  # out of step: take the league's word
                    return True
                raise
            self.acked[int(mid)] = int(answer["acked"])
            self.sent += int(answer.get("inserted", 0))
            return True
        return False

    def _progress(self) -> dict[int, int]:
        answer = self._request("GET", f"/api/tables/{self.table}/progress", None)
        return {int(k): int(v) for k, v in (answer.get("acked") or {}).items()}

    # -- HTTP ------------------------------------------------------------------------

    def _request(self, method: str, path: str, body: object) -> dict[str, Any]:
        if self._conn is None:
            kind = (
                http.client.HTTPSConnection
                if self.parts.scheme == "https"
                else http.client.HTTPConnection
            )
            self._conn = kind(self.parts.hostname or "", self.parts.port, timeout=TIMEOUT_S)
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        self._conn.request(method, self.parts.path.rstrip("/") + path, data, headers)
        response = self._conn.getresponse()
        raw = response.read()
        try:
            answer = json.loads(raw) if raw else {}
        except ValueError:
            answer = {"error": raw[:200].decode(errors="replace")}
        if response.status != 200:
            raise Refused(response.status, answer if isinstance(answer, dict) else {})
        return answer if isinstance(answer, dict) else {}

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def attach(app: Any, url: str, table: str, token: str) -> LeaguePusher:
    """Start a pusher for ``app``'s store, woken after every event the game stores."""
    pusher = LeaguePusher(app.config["DATABASE"], url, table, token)
    service = app.extensions["uno_table"]["service"]
    service.listeners.append(lambda _event, _verdict, _source: pusher.wake())
    app.extensions["league_push"] = pusher
    return pusher.start()
