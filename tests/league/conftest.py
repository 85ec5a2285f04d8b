"""A throwaway PostgreSQL server for the league tests, and a league on a fresh database.

In CI (``$CI`` set) a missing PostgreSQL fails the tests loudly: ``.ci/run`` installs
Debian's ``postgresql``. Elsewhere the league tests are skipped without it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from league import create_app
from league.db import connect
from league.tables import add_table
from league.throwaway import ThrowawayPostgres, find_bin
from tests.web.helpers import LiveServer

TOKENS = {"t1": "token-of-table-one-0001", "t2": "token-of-table-two-0002"}


@pytest.fixture(scope="session")
def pg() -> Iterator[ThrowawayPostgres]:
    if find_bin() is None:
        message = "PostgreSQL's initdb/pg_ctl not found: apt-get install postgresql"
        if os.environ.get("CI"):
            pytest.fail(message + " (.ci/run installs it)", pytrace=False)
        pytest.skip(message)
    server = ThrowawayPostgres(fsync=False).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def league_url(pg: ThrowawayPostgres) -> str:
    """A fresh database, migrated, with tables t1 and t2 registered."""
    url = pg.new_database()
    from league.schema import migrate

    with connect(url) as conn:
        migrate(conn)
        for name, token in TOKENS.items():
            add_table(conn, name, token)
    return url


@pytest.fixture
def league_app(league_url: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": league_url, "SSE_KEEPALIVE_S": 1.0})


@pytest.fixture
def league_server(league_app: Flask) -> Iterator[LiveServer]:
    with LiveServer(league_app) as server:
        yield server


def auth(table: str) -> dict[str, Any]:
    return {"Authorization": f"Bearer {TOKENS[table]}"}
