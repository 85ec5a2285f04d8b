"""The league's schema, created and migrated by numbered migrations.

``schema_version`` holds one row per migration applied. :func:`migrate` applies the
missing ones in order, all in one transaction, under an advisory lock so that two
league servers starting together never apply one twice. A database written by a newer
version of the code (a version this code does not know) is refused, never touched.

The event log is append-only: rows of ``events`` are inserted, never updated or
deleted; standings, round results and ratings are queries over it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import psycopg
from psycopg.rows import tuple_row

#: Any constant fits: it only has to be the same for every league server.
MIGRATION_LOCK: Final = 0x554E4F4C  # "UNOL"


class SchemaError(Exception):
    """The database's schema cannot be used by this code."""


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    sql: str


MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(
        1,
        "tables, rule sets, players, matches, the event log",
        """
        CREATE TABLE league_tables (
            name        TEXT PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9_.-]{1,64}$'),
            token_hash  TEXT NOT NULL,              -- sha256 of the table's token, hex
            created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE TABLE rule_sets (
            name         TEXT PRIMARY KEY,
            scoring      TEXT NOT NULL,             -- winner-takes | own-points | pairwise | ...
            points       TEXT NOT NULL,             -- face | youlerren
            target_score INTEGER,                   -- NULL: the match never ends
            lower_wins   BOOLEAN NOT NULL,          -- own-points: the lowest total wins
            toggles      JSONB NOT NULL
        );
        CREATE TABLE players (
            name        TEXT PRIMARY KEY
        );
        CREATE TABLE matches (
            table_name  TEXT NOT NULL REFERENCES league_tables(name),
            match_id    INTEGER NOT NULL,           -- the table's own match id
            rule_set    TEXT NOT NULL REFERENCES rule_sets(name),
            created_at  DOUBLE PRECISION NOT NULL,  -- the table's clock, epoch seconds
            PRIMARY KEY (table_name, match_id)
        );
        CREATE TABLE match_players (
            table_name  TEXT NOT NULL,
            match_id    INTEGER NOT NULL,
            seat        INTEGER NOT NULL,           -- 0, 1, ... clockwise
            player      TEXT NOT NULL REFERENCES players(name),
            PRIMARY KEY (table_name, match_id, seat),
            FOREIGN KEY (table_name, match_id) REFERENCES matches
        );
        CREATE TABLE events (
            table_name   TEXT NOT NULL,
            match_id     INTEGER NOT NULL,
            seq          INTEGER NOT NULL CHECK (seq > 0),   -- 1, 2, ... within the match
            committed_at DOUBLE PRECISION NOT NULL,  -- when the table stored it (its clock)
            received_at  TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
            source       TEXT NOT NULL,
            type         TEXT NOT NULL,
            ok           BOOLEAN NOT NULL,
            event        JSONB NOT NULL,
            verdict      JSONB NOT NULL,
            PRIMARY KEY (table_name, match_id, seq),
            FOREIGN KEY (table_name, match_id) REFERENCES matches
        );
        """,
    ),
    Migration(
        2,
        "indexes for the board's alerts and the round results",
        """
        CREATE INDEX events_alerts ON events (table_name, match_id, seq)
            WHERE verdict -> 'alerts' <> '[]'::jsonb;
        CREATE INDEX events_round_ends ON events (table_name, match_id, seq)
            WHERE type = 'end-round' AND ok;
        """,
    ),
)

LATEST: Final = MIGRATIONS[-1].version


def current_version(conn: psycopg.Connection[Any]) -> int:
    """The highest migration applied (0 on an empty database)."""
    cur = conn.cursor(row_factory=tuple_row)
    exists = cur.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return 0
    row = cur.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: psycopg.Connection[Any], target: int = LATEST) -> list[int]:
    """Bring the schema up to ``target``; returns the versions applied now.

    ``conn`` must be in autocommit mode; every migration applied now commits together.
    """
    known = {m.version for m in MIGRATIONS}
    if target not in known:
        raise SchemaError(f"no migration {target} (known: 1 to {LATEST})")
    applied: list[int] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, description TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        have = current_version(conn)
        if have > LATEST or (have and have not in known):
            raise SchemaError(
                f"the database is at schema version {have}, newer than this code knows "
                f"({LATEST}): upgrade uno-table"
            )
        for migration in MIGRATIONS:
            if have < migration.version <= target:
                with conn.transaction():
                    conn.execute(migration.sql.encode())
                    conn.execute(
                        "INSERT INTO schema_version (version, description) VALUES (%s, %s)",
                        (migration.version, migration.description),
                    )
                applied.append(migration.version)
    return applied
