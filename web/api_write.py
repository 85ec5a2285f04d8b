"""The referee's writes: ``POST /api/events``, ``/api/correct``, ``/api/resolve``,
``/api/matches`` and ``/api/rules``; each needs the referee's token
(:func:`web.api_common.referee_only`) and a retry with the same ``client_id`` applies
nothing again (:data:`web.api_common.REPEATED_HEADER`)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from web.api_common import (
    _service,
    _small_int,
    api_blueprint,
    json_body,
    referee_only,
    repeated,
    verdict_answer,
)
from web.db import get_db
from web.events import COLORS, EventError, check_keys, client_id_of, validate_event

bp = api_blueprint("writes", __name__)

#: Keys of ``POST /api/matches`` and ``POST /api/correct``.
MATCH_KEYS = frozenset({"players", "rules", "client_id"})
CORRECT_KEYS = frozenset({"card", "color", "client_id"})
RESOLVE_KEYS = frozenset({"question", "option", "card", "color", "client_id"})
#: Keys of ``POST /api/rules``.
RULES_KEYS = frozenset({"rules", "client_id"})


def _check_color(color: Any) -> None:
    if color is not None and color not in COLORS:
        raise EventError(f"'color' must be one of {', '.join(COLORS)}")


@bp.post("/events")
@referee_only
def post_event() -> tuple[Response, int]:
    """Apply one DESIGN.md event; answers the verdict once the event is stored."""
    body = json_body()
    client_id = client_id_of(body)
    event = validate_event(body)
    return verdict_answer(_service().submit(event, get_db(), source="referee", client_id=client_id))


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
    _check_color(color)
    validate_event({"type": "play", "card": body["card"]})
    done = _service().correct(body["card"], color, get_db(), client_id=client_id)
    response = jsonify({"results": [{"n": d.n, "verdict": d.verdict} for d in done]})
    return repeated(response, bool(done) and done[0].repeated), 200


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
    _check_color(color)
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
    match, was_repeated = service.new_match(players, rules, get_db(), client_id=client_id)
    return repeated(jsonify(match.to_json()), was_repeated), 201


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
    return verdict_answer(_service().change_rules(body["rules"], get_db(), client_id=client_id))
