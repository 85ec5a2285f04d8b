"""The JSON API: state, live stream, events (referee only), exports.

Reading is open to anyone on the network; every write needs the referee's token, as
``Authorization: Bearer <token>`` or ``X-Referee-Token: <token>``.
"""

from __future__ import annotations

import contextlib
import csv
import hmac
import io
import json
import time
from collections.abc import Callable, Iterator
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from werkzeug.exceptions import HTTPException, NotFound, RequestEntityTooLarge

from web.db import get_db
from web.events import COLORS, EventError, check_keys, client_id_of, validate_event
from web.game import GameService, ServiceError
from web.safejson import BodyError, parse_body
from web.store import MAX_ID, Store, iter_jsonl, utf8

bp = Blueprint("api", __name__, url_prefix="/api")

#: Set on the answer to a retried write (same ``client_id``): nothing was applied again.
REPEATED_HEADER = "X-Repeated-Request"
#: Keys of ``POST /api/matches`` and ``POST /api/correct``.
MATCH_KEYS = frozenset({"players", "rules", "client_id"})
CORRECT_KEYS = frozenset({"card", "color", "client_id"})
RESOLVE_KEYS = frozenset({"question", "option", "card", "color", "client_id"})
#: Keys of ``POST /api/rules``.
RULES_KEYS = frozenset({"rules", "client_id"})
#: Most bytes of an oversized chunked body read (and dropped) before answering 413.
DISCARD_LIMIT = 16 * 1024 * 1024
#: Digits of the largest match number (SQLite's integers).
MAX_ID_DIGITS = len(str(MAX_ID))

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
    """The request's JSON body, or a 400 error explaining why it is not JSON we take.

    A body over ``MAX_CONTENT_LENGTH`` is a 413, also when it comes chunked (no
    ``Content-Length``): :class:`web.BodyRequest` lets one byte more through so that
    such a body is seen to be too long instead of being cut at the limit.
    """
    raw = request.get_data(cache=True)
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is not None and len(raw) > int(limit):
        _discard_the_rest()
        raise RequestEntityTooLarge(
            f"the body is over {int(limit) // 1024} KB; nothing was applied"
        )
    try:
        return parse_body(raw)
    except BodyError as exc:
        raise EventError(str(exc)) from exc


def _discard_the_rest() -> None:
    """Read what is left of a chunked body (up to :data:`DISCARD_LIMIT`), so that the
    413 is read by a client still sending rather than met with a connection reset."""
    if "wsgi.input_terminated" not in request.environ:
        return  # a Content-Length body over the limit was never read
    stream = request.environ["wsgi.input"]
    left = DISCARD_LIMIT
    with contextlib.suppress(Exception):
        while left > 0 and (chunk := stream.read(min(left, 65_536))):
            left -= len(chunk)


@bp.errorhandler(EventError)
def _bad_event(exc: EventError) -> tuple[Response, int]:
    return error(str(exc), 400)


@bp.errorhandler(ServiceError)
def _service_error(exc: ServiceError) -> tuple[Response, int]:
    return error(exc.message, exc.status)


@bp.errorhandler(HTTPException)
def _http_error(exc: HTTPException) -> tuple[Response, int]:
    response, status = error(exc.description or exc.name, exc.code or 500)
    if status == RequestEntityTooLarge.code:
        response.headers["Connection"] = "close"  # the rest of the body is not read
    return response, status


# -- reading -----------------------------------------------------------------------


@bp.get("/state")
def state() -> Response:
    """The whole live state: match, game (DESIGN state + players, scores), alerts."""
    return jsonify(_service().snapshot())


@bp.get("/events")
def events() -> Response:
    """Stored events with their verdicts: ``?after=N`` those after number N, ``?limit=K``
    only the last K of them."""
    after = request.args.get("after", 0, type=int)  # a huge one: nothing is after it
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
    return utf8(f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n")


@bp.get("/seat-cards")
def seat_cards() -> Response:
    """Cards the camera sees in front of each seat, and the round they would score."""
    service = _service()
    seen = _ext()["live"].seat_cards()
    players = service.game.state_json().get("players") or service.match.players
    hands = {p: list(seen.get(p, [])) for p in players}
    return jsonify({"hands": hands, "recognition": _ext()["live"].status().get("recognition")})


@bp.post("/round-preview")
@referee_only
def round_preview() -> Response:
    """The ``end-round`` verdict these hands would get (nothing is applied; referee only:
    it is work done for the one who scores the round)."""
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
    if not (match.isascii() and match.isdigit()):
        raise EventError(f"no match {match!r}: use a number or 'current'")
    if len(match) > MAX_ID_DIGITS:  # no such match (and no such SQLite integer)
        raise NotFound(f"no match {match[:24]}...: match numbers are below {MAX_ID}")
    return int(match)


@bp.get("/matches/<match>/events.jsonl")
def export_events(match: str) -> Response | tuple[Response, int]:
    """The match's event log as JSON Lines (replayable with ``uno-table referee``)."""
    store = get_db()
    match_id = _match_id(match)
    if store.match(match_id) is None:
        return error(f"no match {match_id}", 404)
    body = utf8("".join(iter_jsonl(store.events(match_id))))
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
        utf8(scores_csv(row.players, store, match_id)),
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
    body = json_body()
    client_id = client_id_of(body)
    event = validate_event(body)
    done = _service().submit(event, get_db(), source="referee", client_id=client_id)
    response = jsonify({"n": done.n, "verdict": done.verdict})
    if done.repeated:
        response.headers[REPEATED_HEADER] = "true"
    return response, 200


@bp.post("/correct")
@referee_only
def correct() -> tuple[Response, int]:
    """Correct a misread card: the last play is undone and ``card`` played instead."""
    body = json_body()
    if not isinstance(body, dict) or "card" not in body:
        raise EventError("send {'card': <the right card>, 'color'?: <for a wild>}")
    check_keys(body, CORRECT_KEYS, "a correction")
    client_id = client_id_of(body)
    color = body.get("color")
    if color is not None and color not in COLORS:
        raise EventError(f"'color' must be one of {', '.join(COLORS)}")
    validate_event({"type": "play", "card": body["card"]})
    done = _service().correct(body["card"], color, get_db(), client_id=client_id)
    response = jsonify({"results": [{"n": d.n, "verdict": d.verdict} for d in done]})
    if done and done[0].repeated:
        response.headers[REPEATED_HEADER] = "true"
    return response, 200


def _small_int(body: dict[str, Any], name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
        raise EventError(f"'{name}' must be a small whole number")
    return value


@bp.post("/resolve")
@referee_only
def resolve() -> tuple[Response, int]:
    """The referee's one tap on an ``ask-referee`` alert:
    ``{"question": <its id>, "option": <index>, "card"?: <the right card>, "color"?}``.

    Option 0 with no card is "Yes" (as recorded); another option, or a card, corrects
    the record (:meth:`tracker.heal.Healer.resolve`). Answers the results like
    ``/api/events``; 409 when the question is no longer open.
    """
    body = json_body()
    if not isinstance(body, dict):
        raise EventError("send {'question': <id>, 'option': <index>, 'card'?: <card>}")
    check_keys(body, RESOLVE_KEYS, "an answer to a question")
    # A retry of an answer finds the question answered: 409, nothing applied twice.
    client_id_of(body)
    question, option = (_small_int(body, name) for name in ("question", "option"))
    card, color = body.get("card"), body.get("color")
    if card is not None:
        validate_event({"type": "play", "card": card})
    if color is not None and color not in COLORS:
        raise EventError(f"'color' must be one of {', '.join(COLORS)}")
    done = _service().resolve(question, option, get_db(), card=card, color=color)
    return jsonify({"n": done.n, "verdict": done.verdict}), 200


@bp.post("/matches")
@referee_only
def new_match() -> tuple[Response, int]:
    """Start a new match: ``{"players": [...], "rules": "official"}``.

    ``rules`` is a preset name or ``{"preset": "house", "set": {"jump_in": false}}``
    (default: the rule set in force now). Any other key is refused by name: a typo must
    not end the match being played; so are unknown toggles and bad values (400).
    """
    body = json_body()
    if not isinstance(body, dict):
        raise EventError("send {'players': [...], 'rules': <preset or {preset, set}>}")
    check_keys(body, MATCH_KEYS, "a new match")
    client_id = client_id_of(body)
    service = _service()
    players = body.get("players", service.match.players)
    validate_event({"type": "round", "players": players, "dealer": "x"})
    rules = body.get("rules", service.game.rules)
    match, repeated = service.new_match(players, rules, get_db(), client_id=client_id)
    response = jsonify(match.to_json())
    if repeated:
        response.headers[REPEATED_HEADER] = "true"
    return response, 201


@bp.post("/rules")
@referee_only
def change_rules() -> tuple[Response, int]:
    """Change the rule set between rounds: ``{"rules": "house"}`` or
    ``{"rules": {"preset": "house", "set": {"jump_in": false}}}``.

    400 names unknown toggles and bad values; 409 while a round is in progress. The
    change is stored as a ``rules`` event and shows in the log.
    """
    body = json_body()
    if not isinstance(body, dict) or "rules" not in body:
        raise EventError("send {'rules': <preset or {preset, set}>}")
    check_keys(body, RULES_KEYS, "a change of rules")
    client_id = client_id_of(body)
    done = _service().change_rules(body["rules"], get_db(), client_id=client_id)
    response = jsonify({"n": done.n, "verdict": done.verdict})
    if done.repeated:
        response.headers[REPEATED_HEADER] = "true"
    return response, 200
