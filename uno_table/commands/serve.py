"""serve: run the assistant live from a camera, a video file or a stream, with the tablet page.

Examples:
  uno-table serve --source 0 --players Ann,Bob,Cy,Dee
  uno-table serve --source rtsp://phone.local:8554/live --rules house --db club.db
  uno-table serve --source none --rules house --set jump_in=false --set hand_size=5
  uno-table serve --source none --players Ann,Bob     # no camera: the referee enters plays

The referee's token is printed at start (set it with --token or UNO_TABLE_TOKEN).
The match in --db is resumed where it stopped (with the rule set stored with it);
--new-match starts another with --rules and --set.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path

from uno_table.commands.referee import add_rule_arguments, rules_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--source",
        default="0",
        help="camera index, video file, RTSP/HTTP URL, or 'none' (default: 0)",
    )
    add_rule_arguments(parser)
    parser.add_argument(
        "--models", default=None, help="folder of the recogniser's weights (default: models/)"
    )
    parser.add_argument(
        "--players",
        default="Ann,Bob,Cy,Dee",
        help="player names, clockwise, comma-separated (default: Ann,Bob,Cy,Dee)",
    )
    parser.add_argument("--db", default="uno-table.db", help="SQLite file (default: uno-table.db)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (0.0.0.0: every interface; the tablet's link and a QR "
        "code of it are printed with this machine's address on the local network)",
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0: any)")
    parser.add_argument(
        "--no-heal",
        action="store_true",
        help="the bare tracker: infer nothing the camera missed (docs/healing.md)",
    )
    parser.add_argument(
        "--token", default=None, help="referee token (default: $UNO_TABLE_TOKEN or random)"
    )
    parser.add_argument(
        "--layout",
        default=None,
        help="table layout JSON (calibrate-table, or the camera check at /camera, which saves "
        "it there; default: DB.layout.json beside the database, read when it exists)",
    )
    parser.add_argument(
        "--new-match", action="store_true", help="start a new match instead of resuming"
    )
    parser.add_argument(
        "--socket-timeout",
        type=float,
        default=20.0,
        help="seconds a connection may send or take nothing before it is closed (default: 20)",
    )
    parser.add_argument(
        "--video-fps",
        type=float,
        default=15.0,
        help="most frames per second sent to each page (default: 15; 0: every frame)",
    )
    league = parser.add_argument_group("league (uno-table league)")
    league.add_argument("--league", metavar="URL", help="league server to push every event to")
    league.add_argument("--table", help="this table's name in the league")
    league.add_argument(
        "--league-token", default=os.environ.get("UNO_LEAGUE_TOKEN"), help="($UNO_LEAGUE_TOKEN)"
    )


def default_layout_file(db: str) -> str:
    """Where the table's layout is kept without ``--layout``: beside the database
    (``club.db`` -> ``club.layout.json``)."""
    path = Path(db)
    return str(path.with_name(path.stem + ".layout.json"))


def parse_players(text: str) -> list[str]:
    players = [p.strip() for p in text.split(",") if p.strip()]
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError(f"--players needs at least 2 distinct names, got {text!r}")
    return players


def run(args: argparse.Namespace) -> int:
    from uno_table.live import build_app
    from web.server import serve

    try:
        players = parse_players(args.players)
        rules = rules_of(args)
    except ValueError as exc:
        print(f"uno-table serve: {exc}", file=sys.stderr)
        return 2
    # The camera check (/camera) saves the layout to --layout, else beside the database,
    # where the next start finds it.
    layout_file = args.layout or default_layout_file(args.db)
    layout_path = args.layout or (layout_file if Path(layout_file).is_file() else None)
    if layout_path:
        from vision.calibration import TableLayout

        try:
            layout = TableLayout.load(layout_path)
        except (OSError, ValueError) as exc:
            print(f"uno-table serve: bad --layout {layout_path}: {exc}", file=sys.stderr)
            return 2
        if len(layout.seats) != len(players):
            print(
                f"uno-table serve: the layout has {len(layout.seats)} seats "
                f"for {len(players)} players",
                file=sys.stderr,
            )
            return 2
    if args.league and not (args.table and args.league_token):
        print("uno-table serve: --league needs --table and --league-token", file=sys.stderr)
        return 2
    source = None if args.source.strip().lower() in ("none", "") else args.source
    try:
        app, runner = build_app(
            source=source,
            players=players,
            rules=rules,
            db=args.db,
            token=args.token or os.environ.get("UNO_TABLE_TOKEN"),
            layout=layout_path,
            layout_file=layout_file,
            new_match=args.new_match,
            models_dir=args.models,
            video_fps=args.video_fps,
            heal=not args.no_heal,
        )
    except (OSError, sqlite3.Error) as exc:
        print(f"uno-table serve: cannot open the database {args.db}: {exc}", file=sys.stderr)
        return 2
    app.config["SOCKET_TIMEOUT_S"] = args.socket_timeout
    if args.league:
        from web.league_push import attach

        try:
            attach(app, args.league, args.table, args.league_token)
        except ValueError as exc:
            print(f"uno-table serve: {exc}", file=sys.stderr)
            return 2
    try:
        return serve(app, args.host, args.port)
    finally:
        if runner is not None:
            runner.stop()
