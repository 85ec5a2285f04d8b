"""The database: a small pool of PostgreSQL connections, one lent to each request on ``g``.

A request takes a connection on first use and gives it back when the app context ends
(as the Flask tutorial's ``get_db``). A connection that broke (the database restarted)
is closed rather than lent again.
"""

from __future__ import annotations

import queue
from typing import Any

import psycopg
from flask import Flask, current_app, g
from psycopg.rows import dict_row

Conn = psycopg.Connection[dict[str, Any]]


def connect(url: str) -> Conn:
    """A new autocommit connection returning rows as dicts."""
    return psycopg.connect(url, autocommit=True, row_factory=dict_row, connect_timeout=10)


class Pool:
    """Up to ``size`` idle connections kept for reuse; more are opened when all are lent."""

    def __init__(self, url: str, size: int = 8) -> None:
        self.url = url
        self.idle: queue.LifoQueue[Conn] = queue.LifoQueue()
        self.size = size

    def get(self) -> Conn:
        while True:
            try:
                conn = self.idle.get_nowait()
            except queue.Empty:
                return connect(self.url)
            if not conn.closed:
                return conn

    def put(self, conn: Conn) -> None:
        broken = (
            conn.closed
            or conn.broken
            or conn.info.transaction_status not in (psycopg.pq.TransactionStatus.IDLE,)
        )
        if broken or self.idle.qsize() >= self.size:
            conn.close()
        else:
            self.idle.put(conn)

    def close(self) -> None:
        while True:
            try:
                self.idle.get_nowait().close()
            except queue.Empty:
                return


def get_db() -> Conn:
    """This request's connection, taken from the app's pool on first use."""
    if "db" not in g:
        g.db = current_app.extensions["league"]["pool"].get()
    conn: Conn = g.db
    return conn


def close_db(_exc: BaseException | None = None) -> None:
    conn = g.pop("db", None)
    if conn is not None:
        current_app.extensions["league"]["pool"].put(conn)


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
