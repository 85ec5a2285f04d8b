"""Throw bad input at a real ``uno-table serve`` and count how it answers, by class.

Loopback only (127.0.0.1), bounded in cases and time. The server runs in a subprocess
(``--source none``); the fuzzer posts, by class: lone UTF-16 surrogates, deep nesting,
long numbers, huge ids on read endpoints, oversized chunked bodies, unknown keys, broken
JSON (valid bodies cut or with bytes flipped), writes without the token, stalled
connections, and legal events with a ``client_id`` sent twice. Between rounds of cases
it kills the server with SIGKILL and starts it again on the same database; after each
restart every event it was answered for must be in the store (by its ``client_id``),
the exports and the live stream must answer, and nothing may have been answered 5xx.

Run:  .venv/bin/python benchmarks/fuzz_web.py [--cases 60] [--kills 5] [--seconds 240]
      [--root CHECKOUT --no-socket-timeout]   # another version's serve (e.g. before this)
Prints a Markdown table (docs/web.md keeps the last one) and exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"  # loopback only, whatever else is asked
TOKEN = "fuzz-token"
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
LIMIT = 256 * 1024
SOCKET_TIMEOUT_S = 2.0
WRITES = ["/api/events", "/api/correct", "/api/matches", "/api/round-preview"]
CARDS = [f"{c}-{v}" for c in ("red", "yellow", "green", "blue") for v in range(10)]

Answer = int | str  # an HTTP status, or what happened instead ("closed", "timeout")


class Server:
    """``uno-table serve --source none`` on a free loopback port."""

    root = ROOT  # the checkout whose serve runs (--root)
    timeout_flag = True  # False for a version without --socket-timeout

    def __init__(self, db: Path) -> None:
        env = {**os.environ, "UNO_TABLE_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1",
               "PYTHONPATH": str(self.root)}  # fmt: skip
        timeout = ["--socket-timeout", str(SOCKET_TIMEOUT_S)] if self.timeout_flag else []
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "uno_table", "serve", "--source", "none",
                "--host", HOST, "--port", "0", "--db", str(db),
                "--players", ",".join(PLAYERS), *timeout,
            ],
            cwd=self.root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        self.banner: list[str] = []
        for line in self.proc.stdout:
            self.banner.append(line)
            if line.startswith("Spectators: "):
                self.port = int(line.rsplit(":", 1)[1].strip().rstrip("/"))
                return
        self.proc.wait(10)
        raise RuntimeError("serve did not start: " + (self.banner or ["?"])[-1].strip())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()

    def request(
        self, method: str, path: str, body: bytes | None = None, *, token: bool = True
    ) -> tuple[Answer, bytes]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=20)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["X-Referee-Token"] = TOKEN
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        except (ConnectionError, http.client.HTTPException) as exc:
            return f"closed ({type(exc).__name__})", b""
        except TimeoutError:
            return "timeout", b""
        finally:
            conn.close()

    def post(self, path: str, body: Any, *, token: bool = True) -> tuple[Answer, bytes]:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        return self.request("POST", path, raw, token=token)


# -- the classes of bad input --------------------------------------------------------


def legal_bodies(rng: random.Random) -> list[tuple[str, Any]]:
    return [
        ("/api/events", {"type": "play", "card": rng.choice(CARDS), "player": "Bob"}),
        ("/api/events", {"type": "uno", "player": "Ann"}),
        ("/api/events", {"type": "round", "players": list(PLAYERS), "dealer": "Dee"}),
        ("/api/correct", {"card": rng.choice(CARDS)}),
        ("/api/matches", {"players": ["Ann", "Bob"]}),
        ("/api/round-preview", {"hands": {"Ann": [], "Bob": [rng.choice(CARDS)]}}),
    ]


def surrogate(rng: random.Random, server: Server) -> Answer:
    path, body = rng.choice(legal_bodies(rng))
    lone = chr(rng.choice([0xD800, 0xDBFF, 0xDC00, 0xDFFF]))
    key = rng.choice([k for k in body if isinstance(body[k], str | list | dict)] or list(body))
    value = body[key]
    if isinstance(value, str):
        body[key] = value + lone
    elif isinstance(value, list) and value:
        value[0] = lone
    else:
        body[lone] = 1
    # json.dumps writes the surrogate as its \\u escape, as a client's JSON would.
    return server.post(path, json.dumps(body).encode())[0]


def nesting(rng: random.Random, server: Server) -> Answer:
    depth = rng.choice([17, 100, 999, 1_000, 5_000, 100_000])
    inner = "[" * depth + "]" * depth
    body = rng.choice(
        [inner, '{"type": "play", "card": ' + inner + "}", '{"hands": ' + inner + "}"]
    )
    return server.post(rng.choice(WRITES), body.encode())[0]


def long_number(rng: random.Random, server: Server) -> Answer:
    digits = rng.choice([19, 40, 4_300, 4_301, 50_000])
    number = "1" + "0" * (digits - 1)
    body = rng.choice(
        [
            f'{{"type": "draw", "count": {number}}}',
            f'{{"type": "round", "players": ["A", "B"], "dealer": "A", "hand_size": -{number}}}',
            f'{{"type": "draw", "count": 1e{number}}}',
            '{"type": "draw", "count": NaN}',
        ]
    )
    return server.post(rng.choice(WRITES), body.encode())[0]


def huge_id(rng: random.Random, server: Server) -> Answer:
    big = rng.choice(["9" * 19, "9223372036854775808", "1" + "0" * 400, "-1", "1e9", "0x10"])
    path = rng.choice(
        [
            f"/api/matches/{big}/events.jsonl",
            f"/api/matches/{big}/scores.csv",
            f"/api/events?after={big}",
            f"/api/events?limit={big}",
        ]
    )
    return server.request("GET", path)[0]


def chunked(rng: random.Random, server: Server) -> Answer:
    size = rng.choice([LIMIT + 1, LIMIT + 10, 2 * LIMIT, 4 * 1024 * 1024])
    head = json.dumps({"type": "round", "players": PLAYERS, "dealer": "Dee"}).encode()
    body = head + b" " * (size - len(head))
    with socket.create_connection((HOST, server.port), timeout=20) as sock:
        sock.sendall(
            (
                f"POST /api/events HTTP/1.1\r\nHost: {HOST}\r\n"
                f"Content-Type: application/json\r\nX-Referee-Token: {TOKEN}\r\n"
                "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            ).encode()
        )
        try:
            for i in range(0, len(body), 65_536):
                part = body[i : i + 65_536]
                sock.sendall(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        answer = b""
        try:  # to the end of the answer (its Content-Length), not of the connection
            while data := sock.recv(65_536):
                answer += data
                head, _, body = answer.partition(b"\r\n\r\n")
                length = re.search(rb"(?i)content-length: *(\d+)", head)
                if length and len(body) >= int(length.group(1)):
                    break
        except OSError:
            pass
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else "closed"


def unknown_key(rng: random.Random, server: Server) -> Answer:
    path, body = rng.choice(legal_bodies(rng))
    typos = ["player", "rule", "colour", "cardz", "hand", "x", "Players", ""]
    typo = rng.choice([t for t in typos if t not in body])  # a field it has is no typo
    body[typo] = rng.choice([1, "house", ["X", "Y"], None])
    return server.post(path, body)[0]


def broken_json(rng: random.Random, server: Server) -> Answer:
    path, body = rng.choice(legal_bodies(rng))
    raw = bytearray(json.dumps(body).encode())
    if rng.random() < 0.5:
        raw = raw[: rng.randrange(len(raw))]
    else:
        for _ in range(rng.randint(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
    return server.post(path, bytes(raw))[0]


def no_token(rng: random.Random, server: Server) -> Answer:
    path, body = rng.choice(legal_bodies(rng))
    return server.post(path, body, token=False)[0]


HALVES = [
    b"POST /api/events HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{",
    b"GET /api/sta",
    b"",
    b"POST /api/events HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{",
]


def stalled(rng: random.Random, server: Server, count: int) -> list[Answer]:
    """``count`` connections at once, each sending half a request and then nothing."""
    socks = []
    for _ in range(count):
        sock = socket.create_connection((HOST, server.port), timeout=SOCKET_TIMEOUT_S * 5)
        sock.sendall(rng.choice(HALVES))
        socks.append(sock)
    started = time.monotonic()
    answers: list[Answer] = []
    for sock in socks:
        if time.monotonic() - started > SOCKET_TIMEOUT_S * 5:
            sock.settimeout(0.05)  # the wait is over for all of them
        try:
            while sock.recv(65_536):
                pass
            waited = time.monotonic() - started
            ok = waited < SOCKET_TIMEOUT_S + 2
            answers.append(f"closed within {SOCKET_TIMEOUT_S + 2:.0f} s" if ok else "closed late")
        except TimeoutError:
            answers.append("never closed")
        finally:
            sock.close()
    return answers


CLASSES: dict[str, Callable[[random.Random, Server], Answer]] = {
    "lone surrogate": surrogate,
    "nesting 17-100,000 deep": nesting,
    "number of 19-50,000 digits": long_number,
    "huge id on a read endpoint": huge_id,
    "chunked body over 256 KB": chunked,
    "unknown key": unknown_key,
    "broken JSON": broken_json,
    "write without the token": no_token,
}


STALLED = "stalled connection (half a request)"


# -- legal writes, retried: nothing acknowledged is lost, nothing stored twice --------


class Ledger:
    """Legal events posted with a client_id (each sent twice) and what was answered."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.acked: dict[str, int] = {}  # client_id -> n answered
        self.doubled = 0  # retries answered with a new number: stored twice
        self.sent = 0
        self.answers: Counter[Answer] = Counter()

    def post(self, server: Server) -> None:
        self.sent += 1
        client_id = f"fuzz-{self.sent}"
        event = self.rng.choice(
            [{"type": "draw"}, {"type": "pass"}, {"type": "play", "card": self.rng.choice(CARDS)}]
        )
        first: tuple[Answer, bytes] | None = None
        for _ in range(2):  # a retry, as after a lost answer
            status, raw = server.post("/api/events", {**event, "client_id": client_id})
            self.answers[status] += 1
            if status == 200:
                n = int(json.loads(raw)["n"])
                if first is not None and json.loads(first[1])["n"] != n:
                    self.doubled += 1
                self.acked[client_id] = n
                first = (status, raw)

    def check(self, db: Path) -> int:
        """Every acknowledged event is stored, once; returns how many."""
        import sqlite3

        conn = sqlite3.connect(db)
        try:
            columns = {r[1] for r in conn.execute("PRAGMA table_info(events)")}
            if "client_id" not in columns:  # a version that dropped it: count them
                return len(self.acked)
            rows = conn.execute("SELECT client_id, n FROM events WHERE client_id IS NOT NULL")
            stored = dict(rows.fetchall())
        finally:
            conn.close()
        lost = [c for c in self.acked if c not in stored]
        if lost:
            raise AssertionError(f"acknowledged and lost: {lost[:5]}")
        return len(self.acked)


def health(server: Server) -> list[str]:
    """What no longer works: the page, the state, the exports, the live stream."""
    broken = []
    for path in ["/", "/api/state", "/healthz", "/api/matches/current/events.jsonl",
                 "/api/matches/current/scores.csv", "/api/events?limit=5"]:  # fmt: skip
        status, _ = server.request("GET", path)
        if status != 200:
            broken.append(f"{path}: {status}")
    conn = http.client.HTTPConnection(HOST, server.port, timeout=10)
    try:
        conn.request("GET", "/api/stream")
        response = conn.getresponse()
        line = b""
        while b"event: snapshot" not in line:
            line = response.readline()
            if not line:
                broken.append("/api/stream: closed before the snapshot")
                break
    except (OSError, http.client.HTTPException) as exc:
        broken.append(f"/api/stream: {exc}")
    finally:
        conn.close()
    return broken


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=60, help="cases per class (default 60)")
    parser.add_argument("--kills", type=int, default=5, help="SIGKILL + restart cycles")
    parser.add_argument("--seconds", type=float, default=240.0, help="time budget")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose serve runs")
    parser.add_argument(
        "--no-socket-timeout", action="store_true", help="for a serve without --socket-timeout"
    )
    args = parser.parse_args()
    Server.root = args.root.resolve()
    Server.timeout_flag = not args.no_socket_timeout
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.seconds
    answers: dict[str, Counter[Answer]] = defaultdict(Counter)
    problems: list[str] = []
    ledger = Ledger(rng)
    cycles = max(1, args.kills)
    per_cycle = -(-args.cases // cycles)
    with tempfile.TemporaryDirectory(prefix="fuzz-web-") as tmp:
        db = Path(tmp) / "fuzz.db"
        server = Server(db)
        server.post("/api/events", {"type": "round", "players": PLAYERS, "dealer": "Dee"})
        server.post("/api/events", {"type": "flip", "card": "red-7"})
        started = time.monotonic()
        for cycle in range(cycles):
            count = min(per_cycle, args.cases - cycle * per_cycle)
            for name, case in CLASSES.items():
                for _ in range(count):
                    if time.monotonic() > deadline:
                        break
                    answers[name][case(rng, server)] += 1
                    if rng.random() < 0.5:
                        ledger.post(server)
            answers[STALLED].update(stalled(rng, server, count))
            problems += [f"cycle {cycle}: {b}" for b in health(server)]
            server.kill()  # mid-game, as a power cut would
            try:
                server = Server(db)
            except RuntimeError as exc:
                problems.append(f"after SIGKILL {cycle + 1}: {exc}")
                break
            ledger.check(db)
        else:
            problems += [f"after restart: {b}" for b in health(server)]
            server.kill()
        kept = ledger.check(db)
        elapsed = time.monotonic() - started
    print(f"# fuzz_web: seed {args.seed}, {cycles} SIGKILL restarts, {elapsed:.0f} s, loopback")
    print("\n| class | cases | answers |")
    print("|---|---:|---|")
    for name in [*CLASSES, STALLED]:
        counts = answers[name]
        shown = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=str))
        print(f"| {name} | {sum(counts.values())} | {shown} |")
        problems += [
            f"{name}: {v} x {k}" for k, v in counts.items() if isinstance(k, int) and k >= 500
        ]
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(ledger.answers.items(), key=str))
    print(f"| legal event, posted twice with one client_id | {ledger.sent} | {shown} |")
    print(f"\nacknowledged events: {kept}; retries stored twice: {ledger.doubled}")
    print("problems: " + ("; ".join(problems) if problems else "none"))
    return 1 if problems or ledger.doubled else 0


if __name__ == "__main__":
    raise SystemExit(main())
