"""The match list and the exports: ``GET /api/matches``, a match's event log as JSON
Lines and its scores as CSV (open to anyone, like the rest of the reading)."""

from __future__ import annotations

import csv
import io

from flask import Response, jsonify
from werkzeug.exceptions import NotFound

from web.api_common import _service, api_blueprint, error
from web.db import get_db
from web.events import EventError
from web.store import MAX_ID, Store, iter_jsonl, utf8

bp = api_blueprint("exports", __name__)

#: Digits of the largest match number (SQLite's integers).
MAX_ID_DIGITS = len(str(MAX_ID))
#: How much of a too-long match number an error repeats.
SHOWN_ID_DIGITS = 24


@bp.get("/matches")
def matches() -> Response:
    return jsonify({"matches": [m.to_json() for m in get_db().matches()]})


def _match_id(match: str) -> int:
    if match == "current":
        return int(_service().match.id)
    if not (match.isascii() and match.isdigit()):
        raise EventError(f"no match {match!r}: use a number or 'current'")
    if len(match) > MAX_ID_DIGITS:  # no such match (and no such SQLite integer)
        raise NotFound(f"no match {match[:SHOWN_ID_DIGITS]}...: match numbers are below {MAX_ID}")
    return int(match)


def _attachment(body: str, mimetype: str, filename: str) -> Response:
    return Response(
        utf8(body),
        mimetype=mimetype,
        headers={"Content-Disposition": f"attachment; filename={filename}"},
    )


@bp.get("/matches/<match>/events.jsonl")
def export_events(match: str) -> Response | tuple[Response, int]:
    """The match's event log as JSON Lines (replayable with ``uno-table referee``)."""
    store = get_db()
    match_id = _match_id(match)
    if store.match(match_id) is None:
        return error(f"no match {match_id}", 404)
    body = "".join(iter_jsonl(store.events(match_id)))
    return _attachment(body, "application/x-ndjson", f"match-{match_id}.jsonl")


@bp.get("/matches/<match>/scores.csv")
def export_scores(match: str) -> Response | tuple[Response, int]:
    """Round points and running totals per player, one row per finished round."""
    store = get_db()
    match_id = _match_id(match)
    row = store.match(match_id)
    if row is None:
        return error(f"no match {match_id}", 404)
    body = scores_csv(row.players, store, match_id)
    return _attachment(body, "text/csv", f"match-{match_id}-scores.csv")


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
