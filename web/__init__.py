"""The referee's tablet: Flask app, SQLite store, live updates.

The app factory follows the Flask tutorial: configuration in, blueprints registered,
the database opened per request on ``g``. The live side (camera, recogniser) comes
in through ``config["LIVE"]``, an object with the :class:`web.hooks.LiveHooks`
methods, so this package never imports ``vision``.

>>> app = create_app({"DATABASE": ":memory:", "REFEREE_TOKEN": "s3cret", "TESTING": True})
>>> app.test_client().get("/api/state").status_code
200
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Mapping
from typing import Any

from flask import Flask

from web.broker import Broker
from web.hooks import LiveHooks, NoLive

__all__ = ["LiveHooks", "NoLive", "create_app", "service_of"]

DEFAULTS: dict[str, Any] = {
    "DATABASE": "uno-table.db",
    "RULES": "official",
    "PLAYERS": ["Ann", "Bob", "Cy", "Dee"],
    "REFEREE_TOKEN": None,
    "NEW_MATCH": False,
    "VIDEO_FPS": 15.0,
    "SSE_KEEPALIVE_S": 15.0,
    "HEALTH_POLL_S": 2.0,
    "MAX_CONTENT_LENGTH": 256 * 1024,
    "JSON_SORT_KEYS": False,
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. ``config`` keys: see :data:`DEFAULTS`, plus ``LIVE``."""
    from web import api, db, deck, pages
    from web.game import GameService

    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    if config:
        app.config.from_mapping(dict(config))
    if not app.config["REFEREE_TOKEN"]:
        app.config["REFEREE_TOKEN"] = os.environ.get("UNO_TABLE_TOKEN") or secrets.token_urlsafe(12)
    if app.config["DATABASE"] == ":memory:":
        # Every connection to ":memory:" is a new database; use a private file instead.
        fd, path = tempfile.mkstemp(prefix="uno-table-", suffix=".db")
        os.close(fd)
        app.config["DATABASE"] = path
    live = app.config.get("LIVE") or NoLive()
    broker = Broker()
    service = GameService(
        app.config["DATABASE"],
        app.config["RULES"],
        app.config["PLAYERS"],
        broker,
        new_match=bool(app.config["NEW_MATCH"]),
    )
    app.extensions["uno_table"] = {"service": service, "broker": broker, "live": live}
    db.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(deck.bp)
    return app


def service_of(app: Flask) -> Any:
    """The app's :class:`web.game.GameService` (for the composition root)."""
    return app.extensions["uno_table"]["service"]
