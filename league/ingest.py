"""Taking a table's events into the league: in order, exactly once.

A push carries one match of one table and a run of its stored events, each with the
number (``seq``) the table's store gave it. Under a lock on (table, match):

- an event already stored under its key is a repeat: it is answered as acknowledged
  when its content is the same, and refused (``409``) when it differs;
- the next number (one past the last stored) is inserted;
- a number further on (a gap) is refused: nothing after a gap is stored, so what the
  league acknowledges for a match is always the whole log up to ``acked``.

Nothing is acknowledged before the transaction has committed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import psycopg

from tracker import preset

#: The most events one push may carry.
MAX_BATCH: Final = 1000


class PushError(Exception):
    """A push the league refuses; ``status`` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400, acked: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.acked = acked


@dataclass
class Accepted:
    table: str
    match: int
    acked: int  # every event 1..acked of the match is stored
    inserted: list[dict[str, Any]] = field(default_factory=list)
    repeats: int = 0
    gap: bool = False  # the push skipped a number: what follows the gap was not stored


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise PushError(message, 400)


def parse_push(body: object) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Check the shape of a push; returns (match, events sorted by seq)."""
    _require(isinstance(body, dict), "the body must be a JSON object")
    assert isinstance(body, dict)
    match, events = body.get("match"), body.get("events")
    _require(isinstance(match, dict), "'match' must be an object")
    assert isinstance(match, dict)
    _require(
        isinstance(match.get("id"), int) and match["id"] > 0, "'match.id' must be an integer > 0"
    )
    _require(isinstance(match.get("rules"), str), "'match.rules' must be a preset name")
    players = match.get("players")
    _require(
        isinstance(players, list)
        and len(players) >= 2
        and all(isinstance(p, str) and p for p in players)
        and len(set(players)) == len(players),
        "'match.players' must be a list of 2 or more distinct names",
    )
    _require(isinstance(match.get("created_at"), int | float), "'match.created_at': a number")
    _require(isinstance(events, list), "'events' must be a list")
    assert isinstance(events, list)
    _require(len(events) <= MAX_BATCH, f"at most {MAX_BATCH} events a push")
    for e in events:
        _require(isinstance(e, dict), "each event must be an object")
        _require(isinstance(e.get("seq"), int) and e["seq"] > 0, "'seq' must be an integer > 0")
        _require(isinstance(e.get("at"), int | float), "'at' must be a number")
        _require(isinstance(e.get("source"), str), "'source' must be a string")
        _require(isinstance(e.get("event"), dict), "'event' must be an object")
        _require(isinstance(e.get("verdict"), dict), "'verdict' must be an object")
    seqs = [e["seq"] for e in events]
    _require(len(set(seqs)) == len(seqs), "an event number appears twice in the push")
    return match, sorted(events, key=lambda e: int(e["seq"]))


def _ensure_rule_set(conn: psycopg.Connection[Any], name: str) -> None:
    try:
        rules = preset(name)
    except ValueError as exc:
        raise PushError(f"unknown rule set {name!r}: {exc}", 400) from exc
    conn.execute(
        "INSERT INTO rule_sets (name, scoring, points, target_score, lower_wins, toggles)"
        " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (name) DO NOTHING",
        (
            name,
            rules.scoring,
            rules.points,
            rules.target_score,
            rules.scoring == "own-points",
            json.dumps(rules.toggles()),
        ),
    )


def _ensure_match(conn: psycopg.Connection[Any], table: str, match: Mapping[str, Any]) -> None:
    mid, players = int(match["id"]), list(match["players"])
    row = conn.execute(
        "SELECT rule_set, array(SELECT player FROM match_players mp"
        " WHERE mp.table_name = m.table_name AND mp.match_id = m.match_id ORDER BY seat)"
        " AS players"
        " FROM matches m WHERE table_name = %s AND match_id = %s",
        (table, mid),
    ).fetchone()
    if row is not None:
        if row["rule_set"] != match["rules"] or list(row["players"]) != players:
            raise PushError(
                f"match {mid} of table {table} is already stored with other players or rules",
                409,
            )
        return
    _ensure_rule_set(conn, str(match["rules"]))
    conn.execute(
        "INSERT INTO matches (table_name, match_id, rule_set, created_at) VALUES (%s, %s, %s, %s)",
        (table, mid, match["rules"], float(match["created_at"])),
    )
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO players (name) VALUES (%s) ON CONFLICT DO NOTHING", [(p,) for p in players]
        )
        cur.executemany(
            "INSERT INTO match_players (table_name, match_id, seat, player)"
            " VALUES (%s, %s, %s, %s)",
            [(table, mid, seat, p) for seat, p in enumerate(players)],
        )


def _same(stored: Mapping[str, Any], sent: Mapping[str, Any]) -> bool:
    # Through JSONB and back, as stored; compared as JSON values.
    return bool(
        stored["event"] == json.loads(json.dumps(sent["event"]))
        and stored["verdict"] == json.loads(json.dumps(sent["verdict"]))
        and stored["source"] == sent["source"]
    )


def acked_of(conn: psycopg.Connection[Any], table: str) -> dict[int, int]:
    """The last event number stored of each of a table's matches."""
    rows = conn.execute(
        "SELECT match_id, MAX(seq) AS seq FROM events WHERE table_name = %s GROUP BY match_id",
        (table,),
    ).fetchall()
    return {int(r["match_id"]): int(r["seq"]) for r in rows}


def accept(conn: psycopg.Connection[Any], table: str, body: object) -> Accepted:
    """Store a push of ``table`` (already authorised); see the module's docstring."""
    match, events = parse_push(body)
    mid = int(match["id"])
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s), %s)", (table, mid))
        _ensure_match(conn, table, match)
        row = conn.execute(
            "SELECT COALESCE(MAX(seq), 0) AS seq FROM events"
            " WHERE table_name = %s AND match_id = %s",
            (table, mid),
        ).fetchone()
        acked = int(row["seq"]) if row else 0
        repeats = [e for e in events if e["seq"] <= acked]
        if repeats:
            stored = {
                int(r["seq"]): r
                for r in conn.execute(
                    "SELECT seq, source, event, verdict FROM events"
                    " WHERE table_name = %s AND match_id = %s AND seq = ANY(%s)",
                    (table, mid, [e["seq"] for e in repeats]),
                )
            }
            for e in repeats:
                if not _same(stored[int(e["seq"])], e):
                    raise PushError(
                        f"event {e['seq']} of match {mid} is already stored with another content",
                        409,
                        acked,
                    )
        fresh: list[dict[str, Any]] = []
        for e in events:
            if e["seq"] <= acked:
                continue
            if e["seq"] != acked + 1:
                break  # a gap: keep what came before it
            fresh.append(e)
            acked += 1
        if fresh:
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO events (table_name, match_id, seq, committed_at, source, type,"
                    " ok, event, verdict) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [_row(table, mid, e) for e in fresh],
                )
    gap = len(fresh) + len(repeats) < len(events)
    return Accepted(table, mid, acked, fresh, len(repeats), gap)


def _row(table: str, mid: int, e: Mapping[str, Any]) -> Sequence[Any]:
    event, verdict = e["event"], e["verdict"]
    etype = event.get("type")
    return (
        table,
        mid,
        int(e["seq"]),
        float(e["at"]),
        str(e["source"]),
        etype if isinstance(etype, str) else "",
        bool(verdict.get("ok")),
        json.dumps(event),
        json.dumps(verdict),
    )
