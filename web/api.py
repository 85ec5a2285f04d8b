"""The JSON API: state, live stream, events (referee only), exports.

Reading is open to anyone on the network; every write needs the referee's token, as
``Authorization: Bearer <token>`` or ``X-Referee-Token: <token>``.
"""

from __future__ import annotations

import csv
import hmac
import io
import json
import time
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from werkzeug.exceptions import HTTPException

from web.db import get_db
from web.events import COLORS, EventError, validate_event
from web.game import GameService, ServiceError
from web.store import Store, iter_jsonl

bp = Blueprint("api", __name__, url_prefix="/api")

F = TypeVar("F", bound=Callable[..., Any])


def _ext() -> dict[str, Any]:
    ext: dict[str, Any] = current_app.extensions["uno_table"]
    return ext


def _service() -> GameService:
    service: GameService = _ext()["service"]
    return service


def error(message: str, status: int, **extra: Any) -> tuple[Response, int]:
    return jsonify({"error": message, **extra}), status


def presented_token() -> str | None:
    auth = request.headers.get("Authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.headers.get("X-Referee-Token")


def referee_only(view: F) -> F:
    """Answer 401 unless the request carries the referee's token."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        token = presented_token()
        expected = str(current_app.config["REFEREE_TOKEN"])
        if not token:
            return error(
                "referee token required: send 'Authorization: Bearer <token>' or 'X-Referee-Token'",
                401,
            )
        if not hmac.compare_digest(token.encode(), expected.encode()):
            return error("wrong referee token", 401)
        return view(*args, **kwargs)

    return cast(F, wrapped)


def json_body() -> Any:
    """The request's JSON body, or a 400 error explaining why it is not JSON."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise EventError("empty body: send one JSON object")
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EventError(f"the body is not valid JSON: {exc}") from exc


@bp.errorhandler(EventError)
def _bad_event(exc: EventError) -> tuple[Response, int]:
    return error(str(exc), 400)


@bp.errorhandler(ServiceError)
def _service_error(exc: ServiceError) -> tuple[Response, int]:
    return error(exc.message, exc.status)


@bp.errorhandler(HTTPException)
def _http_error(exc: HTTPException) -> tuple[Response, int]:
    return error(exc.description or exc.name, exc.code or 500)


# -- reading -----------------------------------------------------------------------


@bp.get("/state")
def state() -> Response:
    """The whole live state: match, game (DESIGN state + players, scores), alerts."""
    return jsonify(_service().snapshot())


@bp.get("/events")
def events() -> Response:
    """Stored events with their verdicts: ``?after=N`` those after number N, ``?limit=K``
    only the last K of them."""
    after = request.args.get("after", 0, type=int)
    limit = request.args.get("limit", 0, type=int)
    service = _service()
    rows = get_db().stored_events(service.match.id, after=after)
    if limit > 0:
        rows = rows[-limit:]
    return jsonify(
        {
            "match": service.match.id,
            "events": [
                {"n": r.n, "at": r.at, "source": r.source, "event": r.event, "verdict": r.verdict}
                for r in rows
            ],
        }
    )


@bp.get("/stream")
def stream() -> Response:
    """Server-Sent Events: ``snapshot`` first, then ``verdict`` per event, ``health``."""
    ext = _ext()
    broker = ext["broker"]
    service: GameService = ext["service"]
    live = ext["live"]
    keepalive = float(current_app.config["SSE_KEEPALIVE_S"])
    health_poll = float(current_app.config["HEALTH_POLL_S"])
    sub = broker.subscribe()

    def generate() -> Iterator[bytes]:
        try:
            yield b"retry: 2000\n\n"
            yield _sse("snapshot", service.snapshot())
            health = live.status()
            yield _sse("health", health)
            last_sent = last_health = time.monotonic()
            while True:
                message = sub.get(timeout=min(keepalive, health_poll))
                now = time.monotonic()
                if message is not None:
                    yield message.encode()
                    last_sent = now
                if now - last_health >= health_poll:
                    last_health = now
                    fresh = live.status()
                    if fresh != health:
                        health = fresh
                        yield _sse("health", health)
                        last_sent = now
                if now - last_sent >= keepalive:
                    yield b": keepalive\n\n"
                    last_sent = now
        finally:
            broker.unsubscribe(sub)

    return Response(
        stream_with_context(generate()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _sse(event: str, data: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


@bp.get("/seat-cards")
def seat_cards() -> Response:
    """Cards the camera sees in front of each seat, and the round they would score."""
    service = _service()
    seen = _ext()["live"].seat_cards()
    players = service.game.state_json().get("players") or service.match.players
    hands = {p: list(seen.get(p, [])) for p in players}
    return jsonify({"hands": hands, "recognition": _ext()["live"].status().get("recognition")})


@bp.post("/round-preview")
def round_preview() -> Response:
    """The ``end-round`` verdict these hands would get (nothing is applied)."""
    body = json_body()
    if isinstance(body, dict) and "type" not in body:
        body = {"type": "end-round", **body}
    event = validate_event(body)
    if event["type"] != "end-round":
        raise EventError("a round preview takes an 'end-round' event")
    return jsonify(_service().preview(event, get_db()))


@bp.get("/matches")
def matches() -> Response:
    return jsonify({"matches": [m.to_json() for m in get_db().matches()]})


def _match_id(match: str) -> int:
    if match == "current":
        return int(_service().match.id)
    try:
        return int(match)
    except ValueError:
        raise EventError(f"no match {match!r}: use a number or 'current'") from None


@bp.get("/matches/<match>/events.jsonl")
def export_events(match: str) -> Response | tuple[Response, int]:
    """The match's event log as JSON Lines (replayable with ``uno-table referee``)."""
    store = get_db()
    match_id = _match_id(match)
    if store.match(match_id) is None:
        return error(f"no match {match_id}", 404)
    body = "".join(iter_jsonl(store.events(match_id)))
    return Response(
        body,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f"attachment; filename=match-{match_id}.jsonl"},
    )


@bp.get("/matches/<match>/scores.csv")
def export_scores(match: str) -> Response | tuple[Response, int]:
    """Round points and running totals per player, one row per finished round."""
    store = get_db()
    match_id = _match_id(match)
    row = store.match(match_id)
    if row is None:
        return error(f"no match {match_id}", 404)
    return Response(
        scores_csv(row.players, store, match_id),
        mimetype="text/csv",
        headers={"Content-Disposition": f"attachment; filename=match-{match_id}-scores.csv"},
    )


def scores_csv(players: list[str], store: Store, match_id: int) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "winner", *players, *(f"total {p}" for p in players)])
    totals = dict.fromkeys(players, 0)
    for number, result in enumerate(store.rounds(match_id), start=1):
        if result is None:
            continue
        points = result.get("points") or {}
        for p in players:
            totals[p] += int(points.get(p, 0) or 0)
        given = result.get("totals")
        shown = given if isinstance(given, dict) else totals
        writer.writerow(
            [
                number,
                result.get("winner") or "",
                *(points.get(p, 0) for p in players),
                *(shown.get(p, 0) for p in players),
            ]
        )
    return out.getvalue()


# -- writing (referee only) --------------------------------------------------------


@bp.post("/events")
@referee_only
def post_event() -> tuple[Response, int]:
    """Apply one DESIGN.md event; answers the verdict once the event is stored."""
    event = validate_event(json_body())
    done = _service().submit(event, get_db(), source="referee")
    return jsonify({"n": done.n, "verdict": done.verdict}), 200


@bp.post("/correct")
@referee_only
def correct() -> tuple[Response, int]:
    """Correct a misread card: the last play is undone and ``card`` played instead."""
    body = json_body()
    if not isinstance(body, dict) or "card" not in body:
        raise EventError("send {'card': <the right card>, 'color'?: <for a wild>}")
    color = body.get("color")
    if color is not None and color not in COLORS:
        raise EventError(f"'color' must be one of {', '.join(COLORS)}")
    validate_event({"type": "play", "card": body["card"]})
    done = _service().correct(body["card"], color, get_db())
    return jsonify({"results": [{"n": d.n, "verdict": d.verdict} for d in done]}), 200


@bp.post("/matches")
@referee_only
def new_match() -> tuple[Response, int]:
    """Start a new match: ``{"players": [...], "rules": "official"}``."""
    body = json_body()
    if not isinstance(body, dict):
        raise EventError("send {'players': [...], 'rules': <preset>}")
    service = _service()
    players = body.get("players", service.match.players)
    validate_event({"type": "round", "players": players, "dealer": "x"})
    rules = body.get("rules", service.match.rules)
    if not isinstance(rules, str):
        raise EventError("'rules' must be a preset name")
    match = service.new_match(players, rules, get_db())
    return jsonify(match.to_json()), 201
