"""A video through the whole assistant, without a server: vision, then the tracker.

This is where vision meets the rules (the composition root): each event the watcher
derives goes to :class:`tracker.Game`, and a refused play tells the watcher that the
card's coming back is no ``undo``. :func:`score` compares derived events with a
ground-truth log (the renderer's): precision and recall per kind, seat attribution
and the latency from a card coming to rest to its event.

>>> truth = [{"t": 1.0, "type": "play", "card": "red-7", "player": "Ann"}]
>>> derived = [{"t": 1.07, "event": {"type": "play", "card": "red-7", "player": "Ann"}}]
>>> m = score(derived, truth)
>>> m["play"]["precision"], m["play"]["recall"], m["seat_accuracy"], m["latency_ms"]["median"]
(1.0, 1.0, 1.0, 70.0)
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tracker.rules import RuleSet

Event = dict[str, Any]

# Where a derived event may fall around the true one: (earliest, latest) in seconds.
WINDOWS: dict[str, tuple[float, float]] = {
    "play": (-0.3, 1.0),
    "draw": (-0.3, 1.5),
    "undo": (-0.2, 2.0),
}


def _kind(ev: Event) -> str | None:
    typ = ev.get("type")
    if typ in ("play", "flip"):
        return "play"
    if typ in ("draw", "undo"):
        return str(typ)
    return None


def _units(ev: Event) -> int:
    """A draw of ``count`` cards is ``count`` draws of one (the camera sees each card)."""
    if ev.get("type") == "draw":
        try:
            return max(1, int(ev.get("count", 1)))
        except (TypeError, ValueError):
            return 1
    return 1


def _key(ev: Event) -> tuple[str, ...]:
    if _kind(ev) == "play":
        cards = ev.get("cards") or [ev.get("card")]
        return tuple(sorted(str(c) for c in cards))
    return ()


def load_log(path: str | Path) -> list[Event]:
    """A JSON Lines event log (blank lines skipped; a bad line is a clear error)."""
    out: list[Event] = []
    for n, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: not JSON ({exc.msg})") from exc
        if not isinstance(ev, dict):
            raise ValueError(f"{path}:{n}: an event is a JSON object")
        out.append(ev)
    return out


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[k]


def score(derived: list[dict[str, Any]], truth: list[Event]) -> dict[str, Any]:
    """Precision/recall of play (incl. flip), draw and undo; seat accuracy; latency.

    ``derived`` are replay records ``{"t", "event"}`` (``t_emit``, when present, is
    the moment the event came out, in a real-time run or after what it reports, and
    is used for latency);
    ``truth`` are events with ``t``. A derived event matches an unmatched true one
    of the same kind (and same cards, for plays) inside :data:`WINDOWS`.
    """
    d_units: list[tuple[float, float, str, tuple[str, ...], Event]] = []
    for rec in derived:
        if rec.get("source") == "inferred":
            continue  # the tracker's inference, not the watcher's
        ev = rec["event"]
        k = _kind(ev)
        if k is None:
            continue
        t = float(rec["t"])
        te = float(rec.get("t_emit", t))
        for _ in range(_units(ev)):
            d_units.append((t, te, k, _key(ev), ev))
    g_units: list[tuple[float, str, tuple[str, ...], Event]] = []
    for ev in truth:
        k = _kind(ev)
        if k is None:
            continue
        for _ in range(_units(ev)):
            g_units.append((float(ev["t"]), k, _key(ev), ev))
    g_units.sort(key=lambda u: u[0])
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for gi, (gt, gk, gkey, _gev) in enumerate(g_units):
        lo, hi = WINDOWS[gk]
        best = None
        for di, (dt, _te, dk, dkey, _dev) in enumerate(d_units):
            if di in used or dk != gk or dkey != gkey:
                continue
            if lo <= dt - gt <= hi and (best is None or abs(dt - gt) < abs(d_units[best][0] - gt)):
                best = di
        if best is not None:
            used.add(best)
            pairs.append((gi, best))
    out: dict[str, Any] = {}
    for k in WINDOWS:
        n_d = sum(1 for u in d_units if u[2] == k)
        n_g = sum(1 for u in g_units if u[1] == k)
        hit = sum(1 for gi, _ in pairs if g_units[gi][1] == k)
        out[k] = {
            "truth": n_g,
            "derived": n_d,
            "matched": hit,
            "precision": round(hit / n_d, 4) if n_d else 1.0,
            "recall": round(hit / n_g, 4) if n_g else 1.0,
        }
    seats: dict[str, list[bool]] = {"play": [], "draw": []}
    lat: list[float] = []
    for gi, di in pairs:
        gt, gk, _gkey, gev = g_units[gi]
        _dt, te, _dk, _dkey, dev = d_units[di]
        if gk in seats and gev.get("player"):
            seats[gk].append(dev.get("player") == gev.get("player"))
        if gk == "play":
            lat.append((te - gt) * 1000.0)
    all_seats = seats["play"] + seats["draw"]
    out["seats"] = {"n": len(all_seats), "correct": sum(all_seats)}
    out["seat_accuracy"] = round(sum(all_seats) / len(all_seats), 4) if all_seats else 1.0
    out["seat_accuracy_play"] = (
        round(sum(seats["play"]) / len(seats["play"]), 4) if seats["play"] else 1.0
    )
    out["seat_accuracy_draw"] = (
        round(sum(seats["draw"]) / len(seats["draw"]), 4) if seats["draw"] else 1.0
    )
    out["latency_ms"] = {
        "n": len(lat),
        "median": round(statistics.median(lat), 1) if lat else None,
        "p90": round(_pct(lat, 0.9), 1) if lat else None,
        "max": round(max(lat), 1) if lat else None,
    }
    return out


@dataclass
class ReplayResult:
    records: list[dict[str, Any]] = field(default_factory=list)
    frames: int = 0
    processed: int = 0
    wall_s: float = 0.0
    detect_ms: list[float] = field(default_factory=list)
    lag_s: list[float] = field(default_factory=list)  # real time: frame age when processed
    errors: int = 0

    def summary(self) -> dict[str, Any]:
        dm = self.detect_ms
        return {
            "frames": self.frames,
            "processed": self.processed,
            "dropped": self.frames - self.processed,
            "recognised": len(self.detect_ms),  # the others reused a still frame's result
            "wall_s": round(self.wall_s, 2),
            "processed_fps": round(self.processed / self.wall_s, 1) if self.wall_s else None,
            "detect_ms_median": round(statistics.median(dm), 1) if dm else None,
            "lag_ms_median": round(statistics.median(self.lag_s) * 1000, 1) if self.lag_s else None,
            "lag_ms_max": round(max(self.lag_s) * 1000, 1) if self.lag_s else None,
            "errors": self.errors,
        }


def replay_video(
    video: str | Path,
    *,
    players: list[str],
    layout: Any,
    recognizer: Any,
    rules: RuleSet | str = "official",
    round_event: Event | None = None,
    realtime: bool = False,
    skip_static: bool = False,
    arms: bool = True,
    referee: list[Event] | None = None,
    watcher_config: Any = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
    heal: bool = True,
    drop: Collection[int] = (),
) -> ReplayResult:
    """Run source -> recogniser -> watcher -> tracker over a video file.

    ``realtime`` plays the file at its frame rate through a live
    :class:`vision.source.FrameSource`, processing whatever frame is newest (frames
    the pipeline cannot keep up with are dropped, as with a camera); otherwise every
    frame is processed in order, as fast as possible. A recogniser with a ``seek``
    method (the oracle) is told each frame's index.

    ``referee`` is a timed event log (a ground truth) standing in for the referee's
    tablet: the rulings a camera cannot see (``color``, ``pass``, ``uno``, ``catch``,
    ``challenge``) are applied a moment after their time, and the colour named with
    a wild or a several-card play is added to the play the watcher reports.
    ``watcher_config`` is a :class:`vision.watcher_config.WatcherConfig` (the
    defaults without). ``arms`` (default) feeds the frames to an arm watch lent to
    the watcher (:class:`vision.hands.ArmWatch`, docs/watcher.md); False: no arms.

    ``heal`` (default) wraps the game in a :class:`tracker.heal.Healer`: a refusal a
    missed event explains is healed, the inferred events recorded before the real
    one with ``"source": "inferred"``; the pile's top the recogniser sees each frame
    goes to its ``observe_top`` (docs/healing.md). ``heal=False`` is the bare game.
    ``drop`` are numbers (from 0) of the camera's events not sent to the tracker, to
    measure what a missed event costs: each is recorded with ``"dropped": true``.
    """
    from tracker import Game
    from tracker.heal import Healed, Healer
    from tracker.rulespec import from_spec
    from uno_table.session import (
        INFERRED,
        VISION,
        Moment,
        Note,
        NoteKind,
        ScriptedReferee,
        TableSession,
        TableVerdict,
    )
    from vision.source import open_source, read_video

    game = Game(from_spec(rules) if isinstance(rules, str) else rules)
    healer = Healer(game) if heal else None
    result = ReplayResult()
    round_ev: Event = dict(round_event or {"type": "round", "players": players})
    round_ev.pop("t", None)
    round_ev.setdefault("dealer", players[0])
    v0 = game.apply(round_ev)
    first = {"t": 0.0, "frame": 0, "event": round_ev, "verdict": v0.to_json()}
    result.records.append(first)
    if on_record:
        on_record(first)

    def record(rec: dict[str, Any]) -> None:
        result.records.append(rec)
        if on_record:
            on_record(rec)

    def store(
        healed: Healed, ev: Event | None, source: str, moment: Moment
    ) -> tuple[Event, TableVerdict]:
        """Record each step of ``healed`` (the last with its whole verdict)."""
        steps: list[tuple[Event, dict[str, Any]]] = [(e, v.to_json()) for e, v in healed.steps]
        if not steps:  # a play reported twice: recorded, not applied
            steps = [(ev or {}, healed.to_json())]
        steps[-1] = (steps[-1][0], healed.to_json())
        for i, (step, verdict) in enumerate(steps):
            rec: dict[str, Any] = {"t": round(moment.t, 3), "frame": moment.index, "event": step}
            last = i == len(steps) - 1  # the steps before the input's are the healer's
            by = source if last and ev is not None and not step.get("inferred") else INFERRED
            if by != VISION:
                rec["source"] = by
            if moment.t_emit is not None:
                rec["t_emit"] = round(moment.t_emit, 3)
            rec["verdict"] = verdict
            if not healed.steps:
                rec["applied"] = False
            record(rec)
            if i < len(steps) - 1:
                session.notify(step, TableVerdict.from_json(verdict), by)
        answer = TableVerdict.from_json(steps[-1][1])
        return steps[-1][0], answer

    sent = [0]  # the camera's events so far

    def submit(ev: Event, source: str, moment: Moment) -> TableVerdict | None:
        if source == VISION:
            sent[0] += 1
            if sent[0] - 1 in drop:  # an injected miss: the tracker never hears of it
                rec = {"t": round(moment.t, 3), "frame": moment.index, "event": ev}
                record({**rec, "verdict": None, "applied": False, "dropped": True})
                return None
        if healer is not None:
            shown, answer = store(healer.apply(ev), ev, source, moment)
        else:
            verdict = game.apply(ev)
            shown, answer = store(Healed([(ev, verdict)], verdict, verdict.ok), ev, source, moment)
        session.notify(shown, answer, source)
        return answer

    def observe(top: str | None, moment: Moment) -> TableVerdict | None:
        healed = None if healer is None else healer.observe_top(top, moment.t)
        if healed is None:
            return None
        shown, answer = store(healed, None, INFERRED, moment)
        session.notify(shown, answer, INFERRED)
        return answer

    def note(n: Note) -> None:
        rec: dict[str, Any] = {"t": round(n.moment.t, 3), "frame": n.moment.index}
        rec.update(event=n.event, source="camera", applied=False)
        if n.kind is NoteKind.HELD_BACK:
            # A take-back seen after a ruling: an undo now would take the ruling back.
            rec.update(held_back=True, verdict=None)
        else:
            # A refused play taken back: seen, but nothing to undo in the tracker.
            rec["verdict"] = None
            if n.moment.t_emit is not None:
                rec["t_emit"] = round(n.moment.t_emit, 3)
        record(rec)

    session = TableSession(
        players,
        recognizer,
        submit,
        layout=layout,
        referee=ScriptedReferee(referee) if referee else None,
        skip_static=skip_static,
        watch_arms=arms,
        config=watcher_config,
        on_note=note,
        observe=observe if healer is not None else None,
    )

    def handle(image: Any, t: float, index: int, clock: Callable[[], float] | None) -> None:
        res = session.step(image, t, index, clock)
        result.processed += 1
        if not res.reused and res.error is None:
            result.detect_ms.append(res.detect_ms)

    start = time.perf_counter()
    if not realtime:
        for frame in read_video(video):
            result.frames = frame.index + 1
            handle(frame.image, frame.t, frame.index, None)
    else:
        src = open_source(str(video), realtime=True)
        src.start()
        offset: float | None = None  # wall clock minus video clock, at its smallest
        last = -1
        try:
            while True:
                f = src.next_frame(last, timeout=2.0)
                if f is None:
                    if src.ended or src.status()["error"]:
                        break
                    continue
                now = time.perf_counter()
                offset = now - f.t if offset is None else min(offset, now - f.t)
                last = f.index
                result.frames = f.index + 1
                result.lag_s.append(now - offset - f.t)
                base = offset

                def clock(off: float = base) -> float:
                    return time.perf_counter() - off

                handle(f.image, f.t, f.index, clock)
        finally:
            src.stop()
    session.finish()
    result.errors = session.errors
    result.wall_s = time.perf_counter() - start
    return result
