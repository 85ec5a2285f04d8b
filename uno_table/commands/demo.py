"""demo: the whole assistant on the bundled demo video, with the tablet page; prints the URL.

Example:
  uno-table demo              # then open the printed referee link
  uno-table demo --port 8080 --host 0.0.0.0   # reachable from a tablet on the LAN
  uno-table demo --rules house --set jump_in=false   # a preset with a toggle changed

Each run starts a fresh match in --db (default: runs/demo.db). The server is up at
once; the first run renders the demo video in the background (about a minute). The
camera's plays come from the recogniser; the rulings a camera cannot see (a wild's
color, a pass, an UNO call) are tapped in from the game's script, as a referee would.
Without the trained model the video still plays and the page says that recognition
is unavailable.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from uno_table.commands.referee import add_rule_arguments, rules_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0: any)")
    parser.add_argument(
        "--no-heal",
        action="store_true",
        help="the bare tracker: infer nothing the camera missed (docs/healing.md)",
    )
    parser.add_argument("--db", default="runs/demo.db", help="SQLite file (default: runs/demo.db)")
    parser.add_argument(
        "--token", default=None, help="referee token (default: $UNO_TABLE_TOKEN or random)"
    )
    add_rule_arguments(parser)
    parser.add_argument(
        "--models", default=None, help="folder of the recogniser's weights (default: models/)"
    )
    parser.add_argument("--loop", action="store_true", help="play the video again at its end")


def run(args: argparse.Namespace) -> int:
    from synth.video import DEFAULT_PLAYERS
    from uno_table.live import LiveRunner, build_app
    from web.server import serve

    players = list(DEFAULT_PLAYERS)
    try:
        rules = rules_of(args)
    except ValueError as exc:
        print(f"uno-table demo: {exc}", file=sys.stderr)
        return 2

    def prepare(runner: LiveRunner) -> None:
        # Rendering the video takes a while the first time: done here, in the live
        # thread, while the page is already served.
        from synth.video import ensure_demo_video

        demo = ensure_demo_video()
        runner.source_spec = str(demo.path)
        if demo.layout_path is not None:
            runner.layout_path = str(demo.layout_path)
        truth = [json.loads(line) for line in Path(demo.truth_path).read_text().splitlines()]
        # The deal and the rulings a camera cannot see (named colors, passes, UNO
        # calls) come from the game's script, as the referee would tap them in.
        opening = {k: v for k, v in truth[0].items() if k != "t"}
        if opening.get("type") == "round" and runner.submit is not None:
            runner.players = list(opening.get("players") or runner.players)
            runner.submit(opening, "referee")
        runner.referee_script = truth[1:]

    app, runner = build_app(
        source="demo",
        players=players,
        rules=rules,
        db=args.db,
        token=args.token or os.environ.get("UNO_TABLE_TOKEN"),
        new_match=True,
        loop=args.loop,
        prepare=prepare,
        models_dir=args.models,
        heal=not args.no_heal,
    )
    try:
        return serve(app, args.host, args.port, banner="Demo: a rendered game of UNO")
    finally:
        if runner is not None:
            runner.stop()
