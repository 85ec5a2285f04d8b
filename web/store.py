"""The SQLite store: every match, round, event and verdict, written as they happen.

One connection per user (a request, the live loop); the database runs in WAL mode so
that readers never block the single writer, and ``synchronous=FULL`` so that an event
acknowledged to the tablet survives a crash of the server.

>>> store = Store.open(":memory:")
>>> mid = store.create_match(["Ann", "Bob"], "official")
>>> store.append_event(mid, {"type": "undo"}, {"ok": False}, source="referee")
1
>>> [e["type"] for e in store.events(mid)]
['undo']
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tracker import rulespec
from tracker.rules import RuleError, RuleSet

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at  REAL NOT NULL,
    rules       TEXT NOT NULL,          -- the preset's name (as older versions stored)
    rule_set    TEXT,                   -- the rule set, JSON {"preset", "set"}
    players     TEXT NOT NULL,          -- JSON list, clockwise
    status      TEXT NOT NULL DEFAULT 'active',   -- active | finished
    winner      TEXT,
    client_id   TEXT                    -- the poster's id for this request (retries)
);
CREATE TABLE IF NOT EXISTS events (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    n           INTEGER NOT NULL,       -- 1, 2, ... within the match, in order applied
    at          REAL NOT NULL,
    source      TEXT NOT NULL,          -- referee | vision | system | inferred | amend
    event       TEXT NOT NULL,          -- the DESIGN.md event, JSON
    verdict     TEXT NOT NULL,          -- the tracker's verdict, JSON
    ok          INTEGER NOT NULL,
    client_id   TEXT,                   -- the poster's id for this event (retries)
    PRIMARY KEY (match_id, n)
);
CREATE TABLE IF NOT EXISTS rounds (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    number      INTEGER NOT NULL,
    result      TEXT,                   -- JSON of the round's scores, NULL while it runs
    updated_at  REAL NOT NULL,
    PRIMARY KEY (match_id, number)
);
"""
# Columns added after the first release: (table, column, type). ``Store.open`` adds any
# that a database made by an older version lacks, then the indexes below.
MIGRATIONS: tuple[tuple[str, str, str], ...] = (
    ("events", "client_id", "TEXT"),
    ("matches", "client_id", "TEXT"),
    ("matches", "rule_set", "TEXT"),
)
INDEXES = """
CREATE UNIQUE INDEX IF NOT EXISTS events_client_id ON events (client_id)
    WHERE client_id IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS matches_client_id ON matches (client_id)
    WHERE client_id IS NOT NULL;
"""
#: SQLite's largest integer: ids beyond it name nothing (and would overflow a query).
MAX_ID = 2**63 - 1


@dataclass(frozen=True)
class Match:
    """A row of ``matches``."""

    id: int
    created_at: float
    rules: str
    players: list[str]
    status: str
    winner: str | None
    #: The rule set the match started with, JSON ``{"preset", "set"}``
    #: (:mod:`tracker.rulespec`); changes between rounds are ``rules`` events.
    rule_set: str = ""

    def ruleset(self) -> RuleSet:
        """The rule set the match started with (the one place a stored one is resolved)."""
        return rulespec.loads(self.rule_set or self.rules)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created_at": self.created_at,
            "rules": self.rules,
            "rule_set": _spec(self),
            "players": self.players,
            "status": self.status,
            "winner": self.winner,
        }


@dataclass(frozen=True)
class StoredEvent:
    """A row of ``events``."""

    n: int
    at: float
    source: str
    event: dict[str, Any]
    verdict: dict[str, Any]


class Store:
    """A connection to the database with the few queries the app needs."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    @classmethod
    def open(cls, path: str | Path) -> Store:
        """Open (and create if needed) the database at ``path``."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # Autocommit mode: each write below opens its own explicit transaction.
        conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.executescript(SCHEMA)
        store = cls(conn)
        store._migrate()
        conn.executescript(INDEXES)
        return store

    def _migrate(self) -> None:
        """Add the columns an older database lacks (once; safe with other openers)."""
        if all(self._has_column(t, c) for t, c, _ in MIGRATIONS):
            return
        with self._tx():
            for table, column, kind in MIGRATIONS:
                if not self._has_column(table, column):
                    self.conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            # Rows from before rule sets were stored whole hold just a preset name.
            old = self.conn.execute("SELECT id, rules FROM matches WHERE rule_set IS NULL")
            for row in old.fetchall():
                spec = json.dumps({"preset": row["rules"], "set": {}})
                self.conn.execute("UPDATE matches SET rule_set = ? WHERE id = ?", (spec, row["id"]))

    def _has_column(self, table: str, column: str) -> bool:
        rows = self.conn.execute(f"PRAGMA table_info({table})").fetchall()
        return any(r["name"] == column for r in rows)

    def close(self) -> None:
        self.conn.close()

    def journal_mode(self) -> str:
        return str(self.conn.execute("PRAGMA journal_mode").fetchone()[0])

    # -- matches -------------------------------------------------------------------

    def create_match(
        self, players: Sequence[str], rules: RuleSet | str, *, client_id: str | None = None
    ) -> int:
        """Store a new match (and finish the active one); ``rules`` is a rule set or a
        preset name."""
        ruleset = rulespec.from_spec(rules) if isinstance(rules, str) else rules
        with self._tx():
            self.conn.execute("UPDATE matches SET status = 'finished' WHERE status = 'active'")
            cur = self.conn.execute(
                "INSERT INTO matches (created_at, rules, rule_set, players, client_id)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    time.time(),
                    ruleset.name,
                    rulespec.dumps(ruleset),
                    json.dumps(list(players)),
                    client_id,
                ),
            )
        return int(cur.lastrowid or 0)

    def match(self, match_id: int) -> Match | None:
        if not 0 <= match_id <= MAX_ID:
            return None
        row = self.conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
        return _match(row) if row else None

    def match_by_client_id(self, client_id: str) -> Match | None:
        row = self.conn.execute(
            "SELECT * FROM matches WHERE client_id = ?", (client_id,)
        ).fetchone()
        return _match(row) if row else None

    def latest_match(self) -> Match | None:
        row = self.conn.execute("SELECT * FROM matches ORDER BY id DESC LIMIT 1").fetchone()
        return _match(row) if row else None

    def matches(self) -> list[Match]:
        return [_match(r) for r in self.conn.execute("SELECT * FROM matches ORDER BY id")]

    def set_match_winner(self, match_id: int, winner: str | None) -> None:
        with self._tx():
            self.conn.execute(
                "UPDATE matches SET winner = ?, status = ? WHERE id = ?",
                (winner, "finished" if winner else "active", match_id),
            )

    # -- events --------------------------------------------------------------------

    def append_event(
        self,
        match_id: int,
        event: Mapping[str, Any],
        verdict: Mapping[str, Any],
        *,
        source: str,
        rounds: Sequence[Mapping[str, Any] | None] | None = None,
        client_id: str | None = None,
    ) -> int:
        """Append one event and its verdict; returns its number in the match.

        ``rounds``, when given, is the match's rounds so far (``None`` for a round still
        being played) and replaces the ``rounds`` rows in the same transaction.
        ``client_id`` is the poster's own id for the event: a second event with the same
        one is refused by the database (see :meth:`event_by_client_id`).
        """
        return self.append_events(match_id, [(event, verdict, source, client_id)], rounds=rounds)[0]

    def append_events(
        self,
        match_id: int,
        steps: Sequence[tuple[Mapping[str, Any], Mapping[str, Any], str, str | None]],
        *,
        rounds: Sequence[Mapping[str, Any] | None] | None = None,
    ) -> list[int]:
        """Append several ``(event, verdict, source, client_id)`` in ONE transaction
        (all or none: a server killed half-way through an amendment or a healing keeps
        none of its steps, never half of them); their numbers, in order."""
        numbers: list[int] = []
        with self._tx():
            row = self.conn.execute(
                "SELECT COALESCE(MAX(n), 0) + 1 FROM events WHERE match_id = ?", (match_id,)
            ).fetchone()
            first = int(row[0])
            for n, (event, verdict, source, client_id) in enumerate(steps, start=first):
                self.conn.execute(
                    "INSERT INTO events (match_id, n, at, source, event, verdict, ok, client_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        match_id,
                        n,
                        time.time(),
                        source,
                        json.dumps(dict(event)),
                        json.dumps(dict(verdict)),
                        1 if verdict.get("ok") else 0,
                        client_id,
                    ),
                )
                numbers.append(n)
            if rounds is not None:
                self._replace_rounds(match_id, rounds)
        return numbers

    def events(self, match_id: int) -> list[dict[str, Any]]:
        """The match's events, in the order they were applied."""
        return [e.event for e in self.stored_events(match_id)]

    def stored_events(self, match_id: int, after: int = 0) -> list[StoredEvent]:
        rows = self.conn.execute(
            "SELECT n, at, source, event, verdict FROM events"
            " WHERE match_id = ? AND n > ? ORDER BY n",
            (_clamp(match_id), _clamp(after)),
        )
        return [_stored(r) for r in rows]

    def event_by_client_id(self, client_id: str) -> StoredEvent | None:
        """The event stored with the poster's ``client_id``, if any (any match)."""
        row = self.conn.execute(
            "SELECT n, at, source, event, verdict FROM events WHERE client_id = ?", (client_id,)
        ).fetchone()
        return _stored(row) if row else None

    def event_count(self, match_id: int) -> int:
        row = self.conn.execute(
            "SELECT COUNT(*) FROM events WHERE match_id = ?", (match_id,)
        ).fetchone()
        return int(row[0])

    # -- rounds --------------------------------------------------------------------

    def rounds(self, match_id: int) -> list[dict[str, Any] | None]:
        rows = self.conn.execute(
            "SELECT number, result FROM rounds WHERE match_id = ? ORDER BY number", (match_id,)
        )
        return [json.loads(r["result"]) if r["result"] else None for r in rows]

    def _replace_rounds(self, match_id: int, rounds: Sequence[Mapping[str, Any] | None]) -> None:
        now = time.time()
        self.conn.execute(
            "DELETE FROM rounds WHERE number > ? AND match_id = ?", (len(rounds), match_id)
        )
        for number, result in enumerate(rounds, start=1):
            self.conn.execute(
                "INSERT INTO rounds (match_id, number, result, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (match_id, number) DO UPDATE SET"
                " result = excluded.result, updated_at = excluded.updated_at",
                (match_id, number, json.dumps(dict(result)) if result else None, now),
            )

    # -- helpers -------------------------------------------------------------------

    def _tx(self) -> _Transaction:
        return _Transaction(self.conn)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on error)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


def _clamp(number: int) -> int:
    """``number`` within SQLite's integers (a larger one matches nothing anyway)."""
    return max(-MAX_ID, min(number, MAX_ID))


def _stored(r: sqlite3.Row) -> StoredEvent:
    return StoredEvent(
        int(r["n"]),
        float(r["at"]),
        str(r["source"]),
        json.loads(r["event"]),
        json.loads(r["verdict"]),
    )


def _match(row: sqlite3.Row) -> Match:
    return Match(
        id=int(row["id"]),
        created_at=float(row["created_at"]),
        rules=str(row["rules"]),
        players=list(json.loads(row["players"])),
        status=str(row["status"]),
        winner=row["winner"],
        rule_set=str(row["rule_set"] or ""),
    )


def _spec(match: Match) -> dict[str, Any]:
    """The stored rule set as JSON; a stored one that no longer resolves is shown as is."""
    try:
        return rulespec.spec_of(match.ruleset())
    except RuleError:
        return {"preset": match.rules, "set": {}}


def iter_jsonl(events: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    """Lines of a JSON Lines event log (what ``uno-table referee`` reads)."""
    for event in events:
        yield json.dumps(dict(event), ensure_ascii=False) + "\n"


def utf8(text: str) -> bytes:
    """``text`` as UTF-8; a lone surrogate (only ever inside a JSON string here, from a
    database written before such input was refused) is written as its JSON escape."""
    return text.encode("utf-8", "backslashreplace")
