"""The timeline's API: ``GET /api/timeline`` and ``POST /api/amend`` (referee only).

``POST /api/amend`` takes ``{"n": <event number>, "action": "delete" | "replace" |
"insert", "event"?: <a DESIGN.md event>, "client_id"?}``: ``replace`` puts ``event`` in
the place of event ``n``, ``insert`` puts it just before, ``delete`` takes ``n`` out;
every later event of the round is judged again (:func:`web.timeline.amend`). Any
other key is refused by name (400), like ``/api/correct``.
"""

from __future__ import annotations

from flask import Response, jsonify

from web.api_common import (
    _service,
    _small_int,
    api_blueprint,
    json_body,
    referee_only,
    verdict_answer,
)
from web.db import get_db
from web.events import EventError, check_keys, client_id_of, validate_event
from web.timeline import amend

# The same answers as the rest of the API: 400/409/... with {"error": ...}.
bp = api_blueprint("timeline", __name__)

#: Keys of ``POST /api/amend``.
AMEND_KEYS = frozenset({"n", "action", "event", "client_id"})


@bp.get("/timeline")
def timeline() -> Response:
    """The current round's events, oldest first: ``n``, ``source``, ``event``, ``ok``,
    ``alerts``, ``applied`` (False: refused, it changed nothing)."""
    service = _service()
    return jsonify({"match": service.match.id, "events": [e.to_json() for e in service.timeline()]})


@bp.post("/amend")
@referee_only
def post_amend() -> tuple[Response, int]:
    """Delete, replace or insert before a past event of the round; answers the marker's
    number and verdict (its ``amend`` says what was judged again and the alerts)."""
    body = json_body()
    if not isinstance(body, dict) or "n" not in body or "action" not in body:
        raise EventError(
            "send {'n': <event number>, 'action': 'delete'|'replace'|'insert', 'event'?: {...}}"
        )
    check_keys(body, AMEND_KEYS, "an amendment")
    client_id = client_id_of(body)
    n = _small_int(body, "n")
    action = body["action"]
    if not isinstance(action, str):
        raise EventError("'action' must be 'delete', 'replace' or 'insert'")
    event = body.get("event")
    if event is not None:
        event = validate_event(event)
        if set(event) != set(body["event"]):
            raise EventError("the amended event takes no 't', 'source' or 'client_id'")
    return verdict_answer(amend(_service(), n, action, event, get_db(), client_id=client_id))
