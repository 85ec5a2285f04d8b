"""The tables of the league and their tokens, stored hashed.

A token is a random secret handed to one table; the league keeps only its SHA-256,
so a copy of the database does not let anyone write as a table. Tokens are long and
random, so a plain hash (no salt, no slow hash) is enough to keep them secret.

>>> len(new_token()) >= 32, hash_token("abc") == hash_token("abc")
(True, True)
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any, Final

import psycopg

NAME_RE: Final = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
TOKEN_BYTES: Final = 24


class TableError(ValueError):
    """A bad table name or token."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    if not NAME_RE.match(name):
        raise TableError(f"a table name is 1-64 letters, digits, '_', '.', '-'; got {name!r}")
    return name


def add_table(conn: psycopg.Connection[Any], name: str, token: str | None = None) -> str:
    """Register ``name`` (or give it a new token); returns the token to hand to the table."""
    check_name(name)
    token = token or new_token()
    if len(token) < 16:
        raise TableError("a token needs at least 16 characters")
    conn.execute(
        "INSERT INTO league_tables (name, token_hash) VALUES (%s, %s)"
        " ON CONFLICT (name) DO UPDATE SET token_hash = excluded.token_hash",
        (name, hash_token(token)),
    )
    return token


def token_ok(conn: psycopg.Connection[Any], name: str, token: str | None) -> bool:
    """Whether ``token`` is the token of table ``name`` (and of no other)."""
    if not token:
        return False
    row = conn.execute("SELECT token_hash FROM league_tables WHERE name = %s", (name,)).fetchone()
    if row is None:
        return False
    stored = row["token_hash"] if isinstance(row, dict) else row[0]
    return hmac.compare_digest(str(stored), hash_token(token))


def table_names(conn: psycopg.Connection[Any]) -> list[str]:
    rows = conn.execute("SELECT name FROM league_tables ORDER BY name").fetchall()
    return [str(r["name"] if isinstance(r, dict) else r[0]) for r in rows]
