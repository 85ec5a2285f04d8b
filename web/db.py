"""The database, opened per request on ``g`` (as in the Flask tutorial)."""

from __future__ import annotations

from flask import Flask, current_app, g

from web.store import Store


def get_db() -> Store:
    """This request's connection to the store, opened on first use."""
    if "db" not in g:
        g.db = Store.open(current_app.config["DATABASE"])
    store: Store = g.db
    return store


def close_db(_exc: BaseException | None = None) -> None:
    store = g.pop("db", None)
    if store is not None:
        store.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
