"""Live-update figures of the referee's tablet, on loopback, against a real server.

1. Event accepted -> received by all of N Server-Sent Events clients (median, p95), for
   N = 1 (the baseline) and N = 50. "Accepted" is the moment the server stored the
   event (its ``at`` in the log); the POST round trip is shown beside it.
2. Frames per second of ``/video.mjpg`` with the demo video as the camera, for 1 and
   5 viewers, with the default cap (15) and uncapped, against the video's own frame
   rate (the baseline).
3. ``--only preview``: ``/api/round-preview`` at about 2,800 stored events, the old way
   (a replay of the whole match per call) against the cached judgement, and
   ``/api/state`` while 4 clients loop on the preview.

Run:  .venv/bin/python benchmarks/bench_web.py [--events 100] [--clients 50] [--seconds 10]
      [--screenshot docs/screenshot.png]
      .venv/bin/python benchmarks/bench_web.py --only preview [--preview-events 2800]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "bench-token"


class Server:
    """``uno-table serve`` (or ``demo``) in a subprocess on a free loopback port."""

    def __init__(
        self,
        db: Path,
        source: str,
        extra: list[str] | None = None,
        *,
        demo: bool = False,
        new_match: bool = True,
    ) -> None:
        env = {**os.environ, "UNO_TABLE_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
        cmd = [sys.executable, "-m", "uno_table", "demo", "--port", "0"]
        if not demo:
            cmd = [*cmd[:3], "serve", "--source", source, "--port", "0"]
            cmd += ["--new-match"] if new_match else []
        self.proc = subprocess.Popen(
            [*cmd, "--db", str(db), *(extra or [])],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("Spectators: "):
                self.url = line.split(": ", 1)[1].strip().rstrip("/")
                self.port = int(self.url.rsplit(":", 1)[1])
                break
        else:
            raise RuntimeError("the server did not start")
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for _ in self.proc.stdout:
            pass

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=30) as response:
            return json.loads(response.read())

    def post(self, event: dict[str, Any], path: str = "/api/events") -> dict[str, Any]:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(event).encode(),
            headers={"Content-Type": "application/json", "X-Referee-Token": TOKEN},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body: dict[str, Any] = json.loads(response.read())
            return body

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Tally:
    """How many clients got each event number; the poster waits on it."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.counts: dict[int, int] = {}

    def got(self, n: int) -> None:
        with self.cond:
            self.counts[n] = self.counts.get(n, 0) + 1
            self.cond.notify_all()

    def wait(self, n: int, clients: int, timeout: float) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.counts.get(n, 0) >= clients, timeout)


def sse_client(
    port: int, ready: threading.Barrier, arrivals: dict[int, float], want: int, tally: Tally
) -> None:
    """Read the stream; record when each verdict number arrives."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", "/api/stream")
    response = conn.getresponse()
    event = ""
    subscribed = False
    try:
        while True:
            line = response.readline()
            if not line:
                return
            text = line.decode().rstrip("\n")
            if text.startswith("event: "):
                event = text[7:]
            elif text.startswith("data: "):
                if event == "snapshot" and not subscribed:
                    subscribed = True
                    ready.wait()
                elif event == "verdict":
                    n = json.loads(text[6:])["n"]
                    arrivals[n] = time.time()
                    tally.got(n)
                    if len(arrivals) >= want:
                        return
    finally:
        conn.close()


def fanout(server: Server, clients: int, events: int) -> dict[str, float]:
    """Post ``events`` events one at a time with ``clients`` listening."""
    ready = threading.Barrier(clients + 1, timeout=120)
    arrivals: list[dict[int, float]] = [{} for _ in range(clients)]
    tally = Tally()
    threads = [
        threading.Thread(
            target=sse_client, args=(server.port, ready, arrivals[i], events, tally), daemon=True
        )
        for i in range(clients)
    ]
    for th in threads:
        th.start()
    ready.wait()
    published: dict[int, float] = {}
    round_trips: list[float] = []
    start_n = int(server.get("/api/state")["n"])
    for i in range(events):
        # Judged, stored and published like any other; repeating it never ends the game.
        event = {"type": "uno", "player": ["Ann", "Bob", "Cy", "Dee"][i % 4]}
        sent = time.time()
        body = server.post(event)
        round_trips.append(time.time() - sent)
        published[body["n"]] = sent
        # Let every client get it before the next one (one event at a time, as at a table).
        tally.wait(body["n"], clients, 10)
    for th in threads:
        th.join(30)
    # Time from acceptance (the SSE message's own t) to the last client.
    stream = server.get(f"/api/events?after={start_n}")["events"]
    accepted = {e["n"]: e["at"] for e in stream}
    to_all = []
    missing = 0
    for n, at in accepted.items():
        times = [a.get(n) for a in arrivals]
        if any(t is None for t in times):
            missing += 1
            continue
        to_all.append(max(t for t in times if t is not None) - at)
    to_all.sort()
    return {
        "clients": clients,
        "events": len(accepted),
        "missing": missing,
        "median_ms": 1000 * statistics.median(to_all),
        "p95_ms": 1000 * to_all[int(0.95 * (len(to_all) - 1))],
        "post_median_ms": 1000 * statistics.median(round_trips),
    }


def mjpeg_fps(url: str, seconds: float, viewers: int) -> float:
    """Frames per second each viewer of ``/video.mjpg`` receives (mean over viewers)."""
    counts = [0] * viewers
    stop = time.time() + seconds

    def view(i: int) -> None:
        with urllib.request.urlopen(url + "/video.mjpg", timeout=30) as response:
            while time.time() < stop:
                line = response.readline()
                if not line:
                    return
                if line.startswith(b"Content-Length: "):
                    length = int(line.split(b": ")[1])
                    response.readline()
                    response.read(length)
                    counts[i] += 1

    threads = [threading.Thread(target=view, args=(i,), daemon=True) for i in range(viewers)]
    started = time.time()
    for th in threads:
        th.start()
    for th in threads:
        th.join(seconds + 30)
    return sum(counts) / viewers / (time.time() - started)


def wait_for_video(server: Server, timeout: float = 120.0) -> dict[str, Any]:
    """Wait until frames flow and the model has loaded (or failed to)."""
    deadline = time.time() + timeout
    health: dict[str, Any] = server.get("/healthz")
    while time.time() < deadline and (
        health["camera"].get("state") != "ok"
        or health["recognition"].get("message") == "loading the model"
    ):
        time.sleep(0.5)
        health = server.get("/healthz")
    return health


def screenshot(path: Path, after_s: float = 25.0) -> None:
    """The page of ``uno-table demo`` in Chromium, tablet landscape, ``after_s`` into the
    video, just after the referee's tablet got a card that matches nothing."""
    from playwright.sync_api import sync_playwright

    server = Server(ROOT / "runs" / "bench-web" / "screenshot.db", "", demo=True)
    try:
        wait_for_video(server)
        time.sleep(after_s)
        state = server.get("/api/state")["game"]
        top = str(state.get("top") or "")
        bad = next(
            f"{c}-{v}"
            for c in ("red", "yellow", "green", "blue")
            for v in ("9", "8", "7", "6")
            if c != state.get("color") and not top.endswith("-" + v)
        )
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            page = browser.new_page(viewport={"width": 1366, "height": 1024})
            page.goto(f"{server.url}/?token={TOKEN}")
            page.wait_for_selector("#conn.on")
            server.post({"type": "play", "card": bad})
            page.wait_for_selector("#alert:not([hidden])")
            page.wait_for_timeout(2500)  # a few video frames, the flash over
            path.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path))
            browser.close()
    finally:
        server.stop()
    print(f"\nscreenshot: {path}")


def preview_figures(tmp: Path, events: int, calls: int) -> None:
    """``/api/round-preview`` at ``events`` stored events: the old way (a replay of the
    whole match per call, timed in process) against the server's cached judgement, and
    ``/api/state`` alone and while 4 clients loop on the preview."""
    sys.path.insert(0, str(ROOT))
    from tracker import Game, preset
    from tracker.simulate import simulate
    from web.store import Store

    rules = preset("official")
    log = [
        {k: v for k, v in e.items() if k != "expect"}
        for e in simulate(rules, players=4, seed=5, events=events)
    ]
    game, verdicts = Game.replay(log, rules)
    players = game.state_json()["players"]
    db = tmp / "preview.db"
    db.unlink(missing_ok=True)
    store = Store.open(db)
    store.conn.execute("PRAGMA synchronous=OFF")  # filling only; the server uses FULL
    match = store.create_match(players, "official")
    for event, verdict in zip(log, verdicts, strict=True):
        store.append_event(match, event, verdict.to_json(), source="referee")
    store.close()

    def hands(i: int) -> dict[str, Any]:
        cards = ["red-1", "wild", "blue-skip", "green-7", "yellow-draw2"]
        return {
            p: ([] if k == 0 else cards[: 1 + (i + k) % len(cards)]) for k, p in enumerate(players)
        }

    end = {"type": "end-round", "hands": hands(0)}
    old_ms = []
    for _ in range(5):
        started = time.perf_counter()
        Game.replay([*log, end], rules)
        old_ms.append((time.perf_counter() - started) * 1000)

    server = Server(db, "none", new_match=False)
    try:

        def timed(path: str, body: Any = None) -> float:
            started = time.perf_counter()
            if body is None:
                server.get(path)
            else:
                server.post(body, path)
            return (time.perf_counter() - started) * 1000

        timed("/api/round-preview", {"hands": hands(1)})  # the server's first request
        server.post({"type": "pass"})  # a new event (refused or not, it is stored)
        first = timed("/api/round-preview", {"hands": hands(1)})
        new_ms = [timed("/api/round-preview", {"hands": hands(i)}) for i in range(calls)]
        state_ms = [timed("/api/state") for _ in range(calls)]
        stop = threading.Event()

        def loop() -> None:
            i = 0
            while not stop.is_set():
                timed("/api/round-preview", {"hands": hands(i)})
                i += 1

        loopers = [threading.Thread(target=loop, daemon=True) for _ in range(4)]
        for th in loopers:
            th.start()
        loaded_ms = [timed("/api/state") for _ in range(calls)]
        stop.set()
        for th in loopers:
            th.join(30)
    finally:
        server.stop()
    med = statistics.median
    print(f"\n## /api/round-preview at {len(log)} stored events ({calls} calls each)")
    print("| what | median ms |")
    print("|---|---:|")
    print(f"| before: a replay of the whole match per call (in process) | {med(old_ms):.1f} |")
    print(f"| now: first preview after an event (replays once, over HTTP) | {first:.1f} |")
    print(f"| now: each further preview (over HTTP) | {med(new_ms):.1f} |")
    print(f"| /api/state, alone | {med(state_ms):.1f} |")
    print(f"| /api/state, while 4 clients loop on the preview | {med(loaded_ms):.1f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--video", default=None, help="video for the MJPEG figure (default: demo)")
    parser.add_argument("--screenshot", default=None, help="also save a screenshot of the page")
    parser.add_argument(
        "--only", choices=["preview"], default=None, help="only the round-preview figures"
    )
    parser.add_argument("--preview-events", type=int, default=2800)
    args = parser.parse_args()
    tmp = ROOT / "runs" / "bench-web"
    tmp.mkdir(parents=True, exist_ok=True)
    if args.only == "preview":
        preview_figures(tmp, args.preview_events, 30)
        return 0

    print(f"# bench_web: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    server = Server(tmp / "sse.db", "none")
    try:
        server.post({"type": "round", "players": ["Ann", "Bob", "Cy", "Dee"], "dealer": "Dee"})
        base = fanout(server, 1, args.events)
        many = fanout(server, args.clients, args.events)
    finally:
        server.stop()
    print("\n## Event accepted -> received by every SSE client")
    print("| clients | events | median ms | p95 ms | POST round trip median ms | lost |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in (base, many):
        print(
            f"| {r['clients']} | {r['events']} | {r['median_ms']:.1f} | {r['p95_ms']:.1f} "
            f"| {r['post_median_ms']:.1f} | {r['missing']} |"
        )
    print(
        f"\n{args.clients} clients vs 1: median x{many['median_ms'] / base['median_ms']:.1f}, "
        f"p95 x{many['p95_ms'] / base['p95_ms']:.1f}"
    )

    video = args.video
    if video is None:
        sys.path.insert(0, str(ROOT))
        from synth.video import ensure_demo_video

        video = str(ensure_demo_video().path)
    import cv2

    cap = cv2.VideoCapture(video)
    nominal = float(cap.get(cv2.CAP_PROP_FPS)) or 30.0
    cap.release()
    rows = []
    recognition: dict[str, Any] = {}
    for cap_fps in (15.0, 0.0):
        server = Server(tmp / "video.db", video, ["--video-fps", str(cap_fps)])
        try:
            health = wait_for_video(server)
            one = mjpeg_fps(server.url, args.seconds, 1)
            five = mjpeg_fps(server.url, args.seconds, 5)
            recognition = server.get("/healthz")["recognition"]
        finally:
            server.stop()
        rows.append((cap_fps, one, five, health))
    print("\n## /video.mjpg frames per second (demo video as the camera)")
    print(
        f"recognition: {'on' if recognition.get('available') else 'off'} "
        f"({recognition.get('message')}; {recognition.get('ms_per_frame', '-')} ms/frame; "
        f"{recognition.get('frames_per_s', '-')} frames/s through the pipeline)"
    )
    print("| --video-fps | viewers | frames/s per viewer | vs the video's own fps |")
    print("|---:|---:|---:|---:|")
    print(f"| (the video) | | {nominal:.1f} | 1.00 |")
    for cap_fps, one, five, _ in rows:
        label = f"{cap_fps:g}" if cap_fps else "0 (every frame)"
        for viewers, fps in ((1, one), (5, five)):
            print(f"| {label} | {viewers} | {fps:.1f} | {fps / nominal:.2f} |")
    if args.screenshot:
        screenshot(Path(args.screenshot))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
