"""Benchmark: injected misses and the alerts they cost, end to end on rendered videos.

Each rendered game (``uno-table render-video``) is replayed through the whole
assistant (``uno_table.replay.replay_video``: the renderer's true boxes, the watcher,
the :class:`uno_table.session.TableSession` and the tracker, the referee's rulings
from the truth log, house rules as the renderer plays them), once clean and then once
per camera event with that event dropped from the vision stream (``--drop-event``),
with the healer (the default) and with the bare tracker (``--no-heal``). With the
healer, the pile's top the recogniser sees goes to ``Healer.observe_top`` each frame.

It counts the alerts after the dropped event, the faults costing more than one alert,
and whether the game ends in step with the clean replay (turn, top, colour, pending
penalty, hand counts).

    PYTHONPATH=. python benchmarks/bench_heal_replay.py [--seeds 21 22] [--turns 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from synth.video import OracleDetector  # noqa: E402
from uno_table.cli import main as cli  # noqa: E402
from uno_table.replay import load_log, replay_video  # noqa: E402
from vision.calibration import TableLayout  # noqa: E402

RULES = "house"
KEYS = ("turn", "top", "color", "pending_draw", "hands")


def render(folder: Path, seed: int, turns: int, players: int) -> Path:
    video = folder / f"game-{seed}.mp4"
    args = ["render-video", str(video), "--seed", str(seed), "--turns", str(turns)]
    if cli([*args, "--players", str(players)]) != 0:
        raise SystemExit(f"render-video failed for seed {seed}")
    return video


def replay(video: Path, truth: list[dict[str, Any]], heal: bool, drop: int | None) -> Any:
    layout = TableLayout.load(video.with_name(video.name + ".layout.json"))
    round_event = next(e for e in truth if e.get("type") == "round")
    return replay_video(
        video,
        players=[str(p) for p in round_event["players"]],
        layout=layout,
        recognizer=OracleDetector(video.with_name(video.name + ".boxes.jsonl")),
        rules=RULES,
        round_event=round_event,
        referee=truth,
        heal=heal,
        drop=() if drop is None else {drop},
    )


def final_state(records: list[dict[str, Any]]) -> dict[str, Any]:
    for rec in reversed(records):
        verdict = rec.get("verdict") or {}
        if "state" in verdict:
            return {k: verdict["state"].get(k) for k in KEYS}
    return {}


def alerts_after(records: list[dict[str, Any]], start: int) -> int:
    return sum(len((r.get("verdict") or {}).get("alerts") or []) for r in records[start:])


def camera_events(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r["event"] for r in records if "source" not in r and r is not records[0]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[21, 22])
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    started = time.perf_counter()
    rows: dict[str, list[dict[str, Any]]] = {"heal": [], "bare": []}
    clean_alerts = {"heal": 0, "bare": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            video = render(Path(tmp), seed, args.turns, args.players)
            truth = load_log(video.with_name(video.name + ".truth.jsonl"))
            clean = {m: replay(video, truth, m == "heal", None) for m in rows}
            for mode, result in clean.items():
                clean_alerts[mode] += alerts_after(result.records, 0)
            target = final_state(clean["heal"].records)
            events = camera_events(clean["heal"].records)
            for i, event in enumerate(events):
                for mode in rows:
                    result = replay(video, truth, mode == "heal", i)
                    at = next(j for j, r in enumerate(result.records) if r.get("dropped"))
                    rows[mode].append(
                        {
                            "seed": seed,
                            "kind": str(event.get("type")),
                            "alerts": alerts_after(result.records, at + 1),
                            "in_step": final_state(result.records) == target,
                            "inferred": sum(
                                1 for r in result.records if r.get("source") == "inferred"
                            ),
                        }
                    )
                healed, bare = rows["heal"][-1]["alerts"], rows["bare"][-1]["alerts"]
                what = f"{event.get('type')} {event.get('card', '')}".strip()
                step = "ends in step" if rows["heal"][-1]["in_step"] else "ends out of step"
                print(
                    f"seed {seed} drop #{i} {what}: alerts {healed} healed / {bare} bare; "
                    f"healed {step}"
                )
    print()
    print(f"clean replays: alerts healed {clean_alerts['heal']}, bare {clean_alerts['bare']}")
    print(
        f"{'mode':6} {'kind':6} {'misses':>6} {'alerts/miss':>11} {'>1 alert':>8} "
        f"{'max':>4} {'ends in step':>12}"
    )
    summary: dict[str, Any] = {}
    for mode, items in rows.items():
        for kind in [*sorted({r["kind"] for r in items}), "all"]:
            sel = [r for r in items if kind in ("all", r["kind"])]
            alerts = [r["alerts"] for r in sel]
            line = {
                "misses": len(sel),
                "alerts_per_miss": round(statistics.mean(alerts), 2) if alerts else 0.0,
                "over_one": sum(1 for a in alerts if a > 1),
                "max": max(alerts, default=0),
                "in_step": round(100 * sum(r["in_step"] for r in sel) / len(sel), 1) if sel else 0,
            }
            summary[f"{mode}/{kind}"] = line
            print(
                f"{mode:6} {kind:6} {line['misses']:6d} {line['alerts_per_miss']:11.2f} "
                f"{line['over_one']:8d} {line['max']:4d} {line['in_step']:11.1f}%"
            )
    print(json.dumps({"clean_alerts": clean_alerts, "summary": summary}))
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
