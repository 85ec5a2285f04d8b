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

from flask import Flask, Request, Response, current_app

from web.broker import Broker
from web.hooks import LiveHooks, NoLive

__all__ = ["SECURITY_HEADERS", "LiveHooks", "NoLive", "create_app", "service_of"]

DEFAULTS: dict[str, Any] = {
    "DATABASE": "uno-table.db",
    "RULES": "official",
    "PLAYERS": ["Ann", "Bob", "Cy", "Dee"],
    "REFEREE_TOKEN": None,
    "NEW_MATCH": False,
    # Heal refusals that a missed event explains (tracker.heal; docs/healing.md).
    "HEAL": True,
    "VIDEO_FPS": 15.0,
    "SSE_KEEPALIVE_S": 15.0,
    "HEALTH_POLL_S": 2.0,
    "MAX_CONTENT_LENGTH": 256 * 1024,
    "JSON_SORT_KEYS": False,
    # A connection that sends nothing (or takes nothing) for this long is closed
    # (read by web.server when it makes the server).
    "SOCKET_TIMEOUT_S": 20.0,
    # Where the camera check (/camera) saves the table's layout (the file `serve
    # --layout` reads); None: no layout file, saving is refused.
    "LAYOUT_FILE": None,
}

#: Sent with every answer: the page may not be framed by another site (the referee's
#: controls could be clicked through an invisible frame), nothing is sniffed into
#: another type, everything comes from this server, and the referee's link (it carries
#: the token) is never sent on as a referrer.
SECURITY_HEADERS: dict[str, str] = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
}


class BodyRequest(Request):
    """Reads one byte past ``MAX_CONTENT_LENGTH``, so a chunked body (no
    ``Content-Length``) over the limit is seen to be too long (413 from
    :func:`web.api_common.json_body`) rather than cut at the limit. A view may raise the
    limit for its own request (the deck setup's photo uploads)."""

    _own_limit: int | None = None

    @property  # type: ignore[misc]
    def max_content_length(self) -> int | None:  # type: ignore[override]
        limit = self._own_limit
        if limit is None:
            limit = current_app.config.get("MAX_CONTENT_LENGTH") if current_app else None
        return None if limit is None else int(limit) + 1

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._own_limit = value


def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. ``config`` keys: see :data:`DEFAULTS`, plus ``LIVE``."""
    from web import api, api_export, api_write, camera, db, deck, pages, timeline_api
    from web.game import GameService

    app = Flask(__name__)
    app.request_class = BodyRequest
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
        heal=bool(app.config["HEAL"]),
    )
    app.extensions["uno_table"] = {"service": service, "broker": broker, "live": live}
    db.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(api_export.bp)
    app.register_blueprint(api_write.bp)
    app.register_blueprint(timeline_api.bp)
    app.register_blueprint(camera.bp)
    app.after_request(_security_headers)
    app.register_blueprint(deck.bp)
    return app


def service_of(app: Flask) -> Any:
    """The app's :class:`web.game.GameService` (for the composition root)."""
    return app.extensions["uno_table"]["service"]
