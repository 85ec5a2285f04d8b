"""The league server: every table's event log in PostgreSQL, the organiser's page.

Tables push their stored events (:mod:`web.league_push`); the league keeps them,
append-only, keyed by (table, match, seq), and answers the organiser's page: the live
board of every table, standings, ratings, CSV exports. The app factory follows the
Flask tutorial: configuration in, blueprints registered, a connection per request on
``g`` (lent by a small pool). The schema is migrated when the app is created.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

__all__ = ["DEFAULTS", "create_app"]

DEFAULTS: dict[str, Any] = {
    "DATABASE": "postgresql:///uno_league",
    "POOL_SIZE": 16,
    "SSE_KEEPALIVE_S": 15.0,
    "MAX_CONTENT_LENGTH": 4 * 1024 * 1024,
    "JSON_SORT_KEYS": False,
    "MIGRATE": True,
    "RATING_PLOT_PLAYERS": 10,
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the league app. ``config["DATABASE"]`` is a PostgreSQL URL."""
    from league import api, db, pages
    from league.broker import Broker
    from league.schema import migrate

    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    if config:
        app.config.from_mapping(dict(config))
    if app.config["MIGRATE"]:
        with db.connect(app.config["DATABASE"]) as conn:
            migrate(conn)
    app.extensions["league"] = {
        "pool": db.Pool(app.config["DATABASE"], app.config["POOL_SIZE"]),
        "broker": Broker(),
        "ratings": None,  # (signature, Ratings): recomputed when a round end arrives
    }
    db.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    return app
