"""The league's JSON API: tables push events; pages read the board, standings, ratings.

Writes need the table's token (``Authorization: Bearer TOKEN``) and a token writes
to its own table only. Reads are open, like a scoreboard on the wall.
"""

from __future__ import annotations

import csv
import io
import json
import queue
import time
from collections.abc import Iterator
from typing import Any

import psycopg
from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from league import queries
from league.db import close_db, get_db
from league.ingest import PushError, accept, acked_of
from league.ratings import Ratings, rate
from league.tables import token_ok

bp = Blueprint("league_api", __name__)


def _error(message: str, status: int, **extra: Any) -> tuple[Response, int]:
    return jsonify({"error": message, **extra}), status


def _authorise(table: str) -> tuple[Response, int] | None:
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header.lower().startswith("bearer ") else ""
    if not token:
        return _error("a table's token is needed (Authorization: Bearer TOKEN)", 401)
    if not token_ok(get_db(), table, token):
        return _error(f"this token does not write to table {table!r}", 403)
    return None


@bp.app_errorhandler(psycopg.OperationalError)
def database_unavailable(exc: psycopg.OperationalError) -> tuple[Response, int]:
    """PostgreSQL cannot be reached: 503, and the tables' pushers try again later."""
    return _error(f"the league's database is unavailable: {exc}", 503)


@bp.post("/api/tables/<table>/events")
def push(table: str) -> Any:
    refused = _authorise(table)
    if refused:
        return refused
    body = request.get_json(silent=True)
    try:
        result = accept(get_db(), table, body)
    except PushError as exc:
        extra = {} if exc.acked is None else {"acked": exc.acked}
        return _error(exc.message, exc.status, **extra)
    if result.inserted:
        _announce(table, result.inserted)
    answer = {"match": result.match, "acked": result.acked, "inserted": len(result.inserted)}
    if result.gap:
        return _error(f"events must follow on from {result.acked} without a gap", 409, **answer)
    return jsonify({**answer, "repeats": result.repeats})


@bp.get("/api/tables/<table>/progress")
def progress(table: str) -> Any:
    refused = _authorise(table)
    if refused:
        return refused
    acked = acked_of(get_db(), table)
    return jsonify({"table": table, "acked": {str(k): v for k, v in acked.items()}})


def _announce(table: str, inserted: list[dict[str, Any]]) -> None:
    broker = current_app.extensions["league"]["broker"]
    if not len(broker):
        return
    tiles = queries.board(get_db(), table)
    if tiles:
        broker.publish({"kind": "tile", "tile": tiles[0]})
    if any(e["event"].get("type") == "end-round" for e in inserted):
        broker.publish({"kind": "round", "table": table})


@bp.get("/api/board")
def board() -> Any:
    return jsonify({"tables": queries.board(get_db()), "t": time.time()})


@bp.get("/api/stream")
def stream() -> Response:
    """Server-Sent Events: the whole board first, then each table's tile as it changes."""
    broker = current_app.extensions["league"]["broker"]
    keepalive = float(current_app.config["SSE_KEEPALIVE_S"])
    first = {"kind": "board", "tables": queries.board(get_db())}
    close_db()  # the stream may stay open for hours: give the connection back now
    q = broker.subscribe()

    def events() -> Iterator[str]:
        try:
            yield f"data: {json.dumps(first)}\n\n"
            while True:
                try:
                    message = q.get(timeout=keepalive)
                except queue.Empty:
                    yield ": keepalive\n\n"
                    continue
                yield f"data: {json.dumps(message)}\n\n"
        finally:
            broker.unsubscribe(q)

    return Response(
        stream_with_context(events()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def since_arg() -> float:
    """``?since=`` as epoch seconds (a number) or an ISO date/time; 0 when absent."""
    text = (request.args.get("since") or "").strip()
    if not text:
        return 0.0
    try:
        return float(text)
    except ValueError:
        pass
    from datetime import datetime

    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError as exc:
        raise ValueError(f"?since= takes epoch seconds or an ISO date, not {text!r}") from exc


def ratings(conn: psycopg.Connection[Any]) -> Ratings:
    """The ratings, recomputed only when a round end was stored since the last time."""
    ext = current_app.extensions["league"]
    signature = queries.rounds_signature(conn)
    cached = ext["ratings"]
    if cached is None or cached[0] != signature:
        cached = (signature, rate(queries.round_results(conn)))
        ext["ratings"] = cached
    result: Ratings = cached[1]
    return result


@bp.get("/api/standings")
def standings() -> Any:
    try:
        since = since_arg()
    except ValueError as exc:
        return _error(str(exc), 400)
    return jsonify({"since": since, "standings": queries.standings(get_db(), since)})


@bp.get("/api/ratings")
def ratings_json() -> Any:
    r = ratings(get_db())
    return jsonify(
        {
            "current": [_point(p) for p in r.current],
            "history": [{**_point(p), "round": p.index} for p in r.history],
        }
    )


def _point(p: Any) -> dict[str, Any]:
    return {
        "player": p.player,
        "rounds": p.game,
        "mu": round(p.mu, 3),
        "sigma": round(p.sigma, 3),
        "rating": round(p.ordinal, 3),
    }


EXPORTS = ("standings", "rounds", "ratings", "events")


@bp.get("/export/<what>.csv")
def export(what: str) -> Any:
    if what not in EXPORTS:
        return _error(f"no export {what!r} (known: {', '.join(EXPORTS)})", 404)
    try:
        since = since_arg()
    except ValueError as exc:
        return _error(str(exc), 400)
    conn = get_db()
    rows: list[dict[str, Any]]
    if what == "standings":
        rows = queries.standings(conn, since)
    elif what == "rounds":
        rows = queries.round_results(conn, since)
    elif what == "ratings":
        r = ratings(conn)
        rows = [{**_point(p), "round": p.index} for p in r.history]
    else:
        rows = list(conn.execute(queries.EVENTS_SQL).fetchall())
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="league-{what}.csv"'},
    )


def _cell(value: Any) -> Any:
    return json.dumps(value) if isinstance(value, dict | list) else value
