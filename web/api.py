"""The JSON API's reading side: state, stored events, the live stream, seat cards and
the round preview.

The API is split along its seams, one blueprint each, all under ``/api`` and all
answering errors alike (:func:`web.api_common.api_blueprint`): this module (reading),
:mod:`web.api_export` (match list and exports), :mod:`web.api_write` (the referee's
writes), :mod:`web.timeline_api`; what they share (the token, the body, the error
answers) is in :mod:`web.api_common`. Every name that used to live here still imports
from here.

Reading is open to anyone on the network; every write needs the referee's token, as
``Authorization: Bearer <token>`` or ``X-Referee-Token: <token>``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, jsonify, request, stream_with_context

from web.api_common import (
    DISCARD_LIMIT,
    REPEATED_HEADER,
    _bad_event,
    _discard_the_rest,
    _ext,
    _http_error,
    _service,
    _service_error,
    _small_int,
    api_blueprint,
    error,
    json_body,
    presented_token,
    referee_only,
)
from web.api_export import (
    MAX_ID_DIGITS,
    _match_id,
    export_events,
    export_scores,
    matches,
    scores_csv,
)
from web.api_write import (
    CORRECT_KEYS,
    MATCH_KEYS,
    RESOLVE_KEYS,
    RULES_KEYS,
    change_rules,
    correct,
    new_match,
    post_event,
    resolve,
)
from web.db import get_db
from web.events import EventError, validate_event
from web.game import GameService
from web.store import utf8

__all__ = [
    "CORRECT_KEYS",
    "DISCARD_LIMIT",
    "MATCH_KEYS",
    "MAX_ID_DIGITS",
    "REPEATED_HEADER",
    "RESOLVE_KEYS",
    "RULES_KEYS",
    "_bad_event",
    "_discard_the_rest",
    "_ext",
    "_http_error",
    "_match_id",
    "_service",
    "_service_error",
    "_small_int",
    "bp",
    "change_rules",
    "correct",
    "error",
    "events",
    "export_events",
    "export_scores",
    "json_body",
    "matches",
    "new_match",
    "post_event",
    "presented_token",
    "referee_only",
    "resolve",
    "round_preview",
    "scores_csv",
    "seat_cards",
    "state",
    "stream",
]

bp = api_blueprint("api", __name__)

#: Milliseconds a browser waits before reconnecting a dropped stream (``retry:``).
SSE_RETRY_MS = 2000


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
            yield f"retry: {SSE_RETRY_MS}\n\n".encode()
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
