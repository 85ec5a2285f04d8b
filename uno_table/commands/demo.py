"""demo: the whole assistant on the bundled demo video, with the tablet page; prints the URL.

Example:
  uno-table demo              # then open the printed referee link
  uno-table demo --port 8080 --host 0.0.0.0   # reachable from a tablet on the LAN

Each run starts a fresh match in --db (default: runs/demo.db). Without the trained
model the video still plays and the page says that recognition is unavailable.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0: any)")
    parser.add_argument("--db", default="runs/demo.db", help="SQLite file (default: runs/demo.db)")
    parser.add_argument(
        "--token", default=None, help="referee token (default: $UNO_TABLE_TOKEN or random)"
    )
    parser.add_argument("--rules", default="official", help="rules preset (default: official)")
    parser.add_argument("--loop", action="store_true", help="play the video again at its end")


def first_round_event(truth_path: str | Path | None) -> dict[str, Any] | None:
    """The ``round`` event that opens the demo's true event log, if it has one."""
    if not truth_path or not Path(truth_path).is_file():
        return None
    with open(truth_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                event = json.loads(line)
                return event if isinstance(event, dict) and event.get("type") == "round" else None
    return None


def run(args: argparse.Namespace) -> int:
    from vision.synth_video import ensure_demo_video

    from uno_table.live import build_app, serve

    try:
        demo = ensure_demo_video()
    except Exception as exc:
        print(f"uno-table demo: cannot prepare the demo video: {exc}", file=sys.stderr)
        return 1
    players = list(demo.players)
    # The deal is not something a camera sees: the demo's log says who deals.
    opening = first_round_event(getattr(demo, "truth_path", None)) or {
        "type": "round",
        "players": players,
        "dealer": players[-1],
    }
    app, runner = build_app(
        source=str(demo.path),
        players=players,
        rules=args.rules,
        db=args.db,
        token=args.token or os.environ.get("UNO_TABLE_TOKEN"),
        new_match=True,
        loop=args.loop,
        opening=[opening],
    )
    try:
        return serve(app, args.host, args.port, banner=f"Demo video: {demo.path}")
    finally:
        if runner is not None:
            runner.stop()
