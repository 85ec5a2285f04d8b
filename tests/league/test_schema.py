"""The schema: created by the project's migrations, migrated in place, never downgraded."""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest

from league.db import connect
from league.schema import LATEST, MIGRATIONS, SchemaError, current_version, migrate
from league.tables import hash_token
from league.throwaway import ThrowawayPostgres

pytestmark = pytest.mark.postgres


def tables_of(url: str) -> set[str]:
    with connect(url) as conn:
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
    return {r["tablename"] for r in rows}


def test_migrate_creates_every_table_once(pg: ThrowawayPostgres) -> None:
    url = pg.new_database()
    with connect(url) as conn:
        assert current_version(conn) == 0
        assert migrate(conn) == [m.version for m in MIGRATIONS]
        assert current_version(conn) == LATEST
        assert migrate(conn) == []  # a second start changes nothing
        versions = [r["version"] for r in conn.execute("SELECT version FROM schema_version")]
    assert versions == [1, 2]
    assert {"league_tables", "rule_sets", "players", "matches", "match_players", "events"} <= (
        tables_of(url)
    )


def test_migration_2_keeps_data_written_at_version_1(pg: ThrowawayPostgres) -> None:
    url = pg.new_database()
    with connect(url) as conn:
        assert migrate(conn, target=1) == [1]
        conn.execute("INSERT INTO league_tables (name, token_hash) VALUES ('t9', 'x')")
        indexes = {r["indexname"] for r in conn.execute("SELECT indexname FROM pg_indexes")}
        assert "events_alerts" not in indexes
        assert migrate(conn) == [2]
        indexes = {r["indexname"] for r in conn.execute("SELECT indexname FROM pg_indexes")}
        assert {"events_alerts", "events_round_ends"} <= indexes
        assert conn.execute("SELECT name FROM league_tables").fetchall() == [{"name": "t9"}]


def test_a_newer_schema_is_refused_and_left_alone(pg: ThrowawayPostgres) -> None:
    url = pg.new_database()
    with connect(url) as conn:
        migrate(conn)
        conn.execute("INSERT INTO schema_version (version, description) VALUES (99, 'future')")
        with pytest.raises(SchemaError, match="newer than this code"):
            migrate(conn)
        assert current_version(conn) == 99


def test_event_log_rejects_a_second_row_with_the_same_key(pg: ThrowawayPostgres) -> None:
    url = pg.new_database()
    with connect(url) as conn:
        migrate(conn)
        conn.execute("INSERT INTO league_tables VALUES ('t1', 'h')")
        conn.execute(
            "INSERT INTO rule_sets VALUES ('official', 'winner-takes', 'face', 500, false, '{}')"
        )
        conn.execute("INSERT INTO matches VALUES ('t1', 1, 'official', 0)")
        row = "('t1', 1, 1, 0, now(), 'vision', 'undo', false, '{}', '{}')"
        conn.execute(f"INSERT INTO events VALUES {row}".encode())
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute(f"INSERT INTO events VALUES {row}".encode())


@pytest.mark.slow
def test_cli_migrates_and_registers_a_table_with_its_token_hashed(pg: ThrowawayPostgres) -> None:
    url = pg.new_database()
    cli = [sys.executable, "-m", "uno_table", "league", "--db", url]
    done = subprocess.run([*cli, "--migrate-only"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Schema migrated: 1, 2" in done.stdout
    done = subprocess.run(
        [*cli, "--add-table", "t7"], capture_output=True, text=True, timeout=60, check=True
    )
    token = done.stdout.strip().splitlines()[-1]
    assert len(token) >= 32
    with connect(url) as conn:
        (row,) = conn.execute("SELECT name, token_hash FROM league_tables").fetchall()
    assert row == {"name": "t7", "token_hash": hash_token(token)}
    assert token not in row["token_hash"]
    bad = subprocess.run([*cli, "--add-table", "no spaces"], capture_output=True, text=True)
    assert bad.returncode == 2 and "table name" in bad.stderr
    nodb = subprocess.run(
        [*cli[:-1], "postgresql://postgres@127.0.0.1:1/none", "--migrate-only"],
        capture_output=True,
        text=True,
    )
    assert nodb.returncode == 2 and "uno-table league:" in nodb.stderr
