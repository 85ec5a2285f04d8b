"""league: the league server on PostgreSQL: every table's events, standings, ratings, live board.

Examples:
  uno-table league --db postgresql://uno@localhost/uno_league --add-table t1   # prints t1's token
  uno-table league --db postgresql://uno@localhost/uno_league --port 8100
  uno-table serve --source 0 --league http://league.local:8100 --table t1 --league-token TOKEN

The schema is created and migrated on start (--migrate-only: only that). The
organiser's page is at the printed address; CSV exports are linked from it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=os.environ.get("UNO_LEAGUE_DB"),
        help="PostgreSQL URL, e.g. postgresql://user@localhost/uno_league ($UNO_LEAGUE_DB)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8100, help="port (default: 8100; 0: any)")
    parser.add_argument(
        "--add-table",
        metavar="NAME",
        help="register a table (or give it a new token), print its token and exit",
    )
    parser.add_argument("--token", help="with --add-table: the token to use (default: random)")
    parser.add_argument(
        "--migrate-only", action="store_true", help="create or migrate the schema, then exit"
    )


def run(args: argparse.Namespace) -> int:
    import psycopg

    from league import create_app, db
    from league.schema import SchemaError, migrate
    from league.tables import TableError, add_table

    if not args.db:
        print("uno-table league: --db postgresql://... is needed", file=sys.stderr)
        return 2
    try:
        with db.connect(args.db) as conn:
            applied = migrate(conn)
            if applied:
                print(f"Schema migrated: {', '.join(map(str, applied))}", flush=True)
            if args.add_table:
                token = add_table(conn, args.add_table, args.token)
                print(token, flush=True)
                return 0
    except (psycopg.Error, SchemaError, TableError) as exc:
        print(f"uno-table league: {exc}", file=sys.stderr)
        return 2
    if args.migrate_only:
        return 0
    app = create_app({"DATABASE": args.db, "MIGRATE": False})
    return serve(app, args.host, args.port)


def serve(app: Flask, host: str, port: int) -> int:
    import logging

    from werkzeug.serving import make_server

    from web.server import serve_until_interrupted

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        server = make_server(host, port, app, threaded=True)
    except OSError as exc:
        print(f"uno-table league: cannot listen on {host}:{port}: {exc}", file=sys.stderr)
        return 2
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    print(f"League: http://{shown}:{server.server_port}/", flush=True)
    return serve_until_interrupted(server)
