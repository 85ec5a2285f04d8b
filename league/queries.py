"""What the organiser sees, as SQL over the event log: the board, round results, standings.

A round's result is the verdict of its ``end-round`` event (the points of each player
under the match's rule set, as the table's tracker scored them). When a round's end was
undone and the round ended again, the latest ``end-round`` of that round number counts;
a match's winner is the ``match_winner`` of its latest round end.
"""

from __future__ import annotations

from typing import Any, Final

import psycopg

#: Alerts shown per table on the board.
BOARD_ALERTS: Final = 3

BOARD_SQL: Final = """
SELECT t.name AS table_name, e.match_id, e.seq, e.type, e.committed_at,
       extract(epoch FROM e.received_at) AS received_at,
       e.verdict -> 'state' AS state, m.rule_set,
       (SELECT array_agg(player ORDER BY seat) FROM match_players mp
         WHERE mp.table_name = t.name AND mp.match_id = e.match_id) AS players,
       COALESCE((SELECT jsonb_agg(a.alert ORDER BY a.seq DESC) FROM (
            SELECT x.seq, jsonb_build_object('seq', x.seq, 'alerts', x.verdict -> 'alerts') AS alert
              FROM events x
             WHERE x.table_name = t.name AND x.match_id = e.match_id
               AND x.verdict -> 'alerts' <> '[]'::jsonb
             ORDER BY x.seq DESC LIMIT %(alerts)s) a), '[]'::jsonb) AS alerts
  FROM league_tables t
  LEFT JOIN LATERAL (
        SELECT * FROM events ev WHERE ev.table_name = t.name
         ORDER BY ev.match_id DESC, ev.seq DESC LIMIT 1) e ON true
  LEFT JOIN matches m ON m.table_name = t.name AND m.match_id = e.match_id
 WHERE %(table)s::text IS NULL OR t.name = %(table)s
 ORDER BY t.name
"""

ROUND_ENDS: Final = """
round_ends AS (
    SELECT DISTINCT ON (e.table_name, e.match_id, (e.verdict -> 'round' ->> 'number')::int)
           e.table_name, e.match_id, (e.verdict -> 'round' ->> 'number')::int AS round_no,
           e.seq, e.committed_at, e.verdict
      FROM events e JOIN matches m USING (table_name, match_id)
     WHERE e.type = 'end-round' AND e.ok AND e.verdict ? 'round'
       AND m.created_at >= %(since)s
     ORDER BY e.table_name, e.match_id, (e.verdict -> 'round' ->> 'number')::int, e.seq DESC
)"""

ROUNDS_SQL: Final = f"""
WITH {ROUND_ENDS}
SELECT r.table_name, r.match_id, r.round_no, r.seq, r.committed_at, m.rule_set, rs.lower_wins,
       r.verdict -> 'round' ->> 'winner' AS winner,
       r.verdict -> 'round' -> 'points' AS points,
       r.verdict -> 'round' -> 'hand_points' AS hand_points
  FROM round_ends r JOIN matches m USING (table_name, match_id)
  JOIN rule_sets rs ON rs.name = m.rule_set
 ORDER BY r.committed_at, r.table_name, r.match_id, r.round_no
"""

STANDINGS_SQL: Final = f"""
WITH {ROUND_ENDS},
last_end AS (
    SELECT DISTINCT ON (table_name, match_id) table_name, match_id,
           verdict ->> 'match_winner' AS match_winner
      FROM round_ends ORDER BY table_name, match_id, seq DESC
),
per_match AS (
    SELECT m.rule_set, mp.player, count(*) AS matches,
           count(*) FILTER (WHERE le.match_winner = mp.player) AS matches_won
      FROM match_players mp JOIN matches m USING (table_name, match_id)
      LEFT JOIN last_end le USING (table_name, match_id)
     WHERE m.created_at >= %(since)s
     GROUP BY m.rule_set, mp.player
),
per_round AS (
    SELECT m.rule_set, p.key AS player, count(*) AS rounds,
           count(*) FILTER (WHERE r.verdict -> 'round' ->> 'winner' = p.key) AS rounds_won,
           sum(p.value::numeric) AS points
      FROM round_ends r JOIN matches m USING (table_name, match_id),
           jsonb_each_text(r.verdict -> 'round' -> 'points') p
     GROUP BY m.rule_set, p.key
)
SELECT pm.rule_set, rs.scoring, rs.lower_wins, pm.player, pm.matches, pm.matches_won,
       COALESCE(pr.rounds, 0) AS rounds, COALESCE(pr.rounds_won, 0) AS rounds_won,
       COALESCE(pr.points, 0)::float8 AS points
  FROM per_match pm
  LEFT JOIN per_round pr USING (rule_set, player)
  JOIN rule_sets rs ON rs.name = pm.rule_set
 ORDER BY pm.rule_set, pm.matches_won DESC,
          CASE WHEN rs.lower_wins THEN COALESCE(pr.points, 0) ELSE -COALESCE(pr.points, 0) END,
          pm.player
"""

EVENTS_SQL: Final = """
SELECT table_name, match_id, seq, committed_at, extract(epoch FROM received_at) AS received_at,
       source, type, ok, event, verdict
  FROM events ORDER BY table_name, match_id, seq
"""


def board(conn: psycopg.Connection[Any], table: str | None = None) -> list[dict[str, Any]]:
    """Every table's latest state (or ``table``'s): match, turn, top card, hands, alerts."""
    rows = conn.execute(BOARD_SQL, {"alerts": BOARD_ALERTS, "table": table}).fetchall()
    return [tile(r) for r in rows]


def tile(row: dict[str, Any]) -> dict[str, Any]:
    """One table's entry of the board, JSON-ready."""
    alerts = [
        {**alert, "seq": entry["seq"]}
        for entry in row.get("alerts") or []
        for alert in entry.get("alerts") or []
    ]
    return {
        "table": row["table_name"],
        "match": row.get("match_id"),
        "seq": row.get("seq"),
        "type": row.get("type"),
        "at": row.get("committed_at"),
        "received_at": float(row["received_at"]) if row.get("received_at") else None,
        "rules": row.get("rule_set"),
        "players": list(row.get("players") or []),
        "state": row.get("state") or {},
        "alerts": [
            {
                "code": a.get("code"),
                "player": a.get("player"),
                "message": a.get("message"),
                "seq": a["seq"],
            }
            for a in alerts[:BOARD_ALERTS]
        ],
    }


def round_results(conn: psycopg.Connection[Any], since: float = 0.0) -> list[dict[str, Any]]:
    """Every round that ended, in the order the tables stored them."""
    return list(conn.execute(ROUNDS_SQL, {"since": since}).fetchall())


def standings(conn: psycopg.Connection[Any], since: float = 0.0) -> list[dict[str, Any]]:
    """Per rule set and player: matches, matches won, rounds, rounds won, round points."""
    return list(conn.execute(STANDINGS_SQL, {"since": since}).fetchall())


def rounds_signature(conn: psycopg.Connection[Any]) -> tuple[int, int]:
    """Changes whenever a round end is stored (cheap: the partial index of round ends)."""
    row = conn.execute(
        "SELECT count(*) AS n, COALESCE(sum(seq), 0) AS s FROM events"
        " WHERE type = 'end-round' AND ok"
    ).fetchone()
    return (int(row["n"]), int(row["s"])) if row else (0, 0)
