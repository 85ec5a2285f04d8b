"""The camera check before a game: ``/camera`` shows the live picture with the discard
pile, the draw pile and the seats drawn over it, each movable; saved as the table's
layout (:mod:`web.layout`), the file ``serve --layout`` reads.

Where the layout file is comes from the composition root as ``config["LAYOUT_FILE"]``
(None: the server keeps no layout, and saving is a 409). A live side that uses a
layout offers the optional hooks ``table_layout()`` (the layout in use, as JSON) and
``use_layout(layout)`` (take a saved one at once); :class:`web.hooks.NoLive` has
neither, and the file is then the only place the layout lives.
"""

from __future__ import annotations

from flask import Response, current_app, jsonify, render_template, request

from web.api_common import _ext, api_blueprint, error, json_body, referee_only
from web.events import EventError
from web.game import GameService
from web.layout import LayoutError, check_layout, default_layout, load_layout, save_layout

# Its JSON answers errors like the rest of the API (400/413/... with {"error": ...}).
bp = api_blueprint("camera", __name__, url_prefix=None)

#: The picture's size assumed when nothing says otherwise (the placeholder's).
DEFAULT_SIZE = (640, 480)


def _players() -> list[str]:
    service: GameService = _ext()["service"]
    players = service.game.state_json().get("players") or service.match.players
    return [str(p) for p in players]


def _size(name: str, fallback: int) -> int:
    value = request.args.get(name, fallback, type=int)
    return value if value is not None and 16 <= value <= 10_000 else fallback


@bp.get("/camera")
def page() -> str:
    return render_template("camera.html")


@bp.get("/api/layout")
def get_layout() -> Response:
    """The layout in use: the live side's, else the file's, else a default for a
    picture of ``?width=&height=`` (what the page loaded); ``source`` says which."""
    players = _players()
    path = current_app.config.get("LAYOUT_FILE")
    saved = load_layout(path) if path else None
    live = getattr(_ext()["live"], "table_layout", None)
    layout, source = (live() if callable(live) else None), "live"
    if layout is None and saved is not None:
        layout, source = saved, "file"
    if layout is None or len(layout.get("seats") or []) != len(players):
        width = _size("width", DEFAULT_SIZE[0])
        height = _size("height", DEFAULT_SIZE[1])
        layout, source = default_layout(width, height, players), "default"
    return jsonify(
        {
            "layout": layout,
            "source": source,
            "saved": saved is not None,
            "writable": bool(path),
            "players": players,
        }
    )


@bp.post("/api/layout")
@referee_only
def post_layout() -> tuple[Response, int]:
    """Save the layout (referee): checked first (400 naming what is wrong, nothing
    written), written atomically, then handed to the live side."""
    body = json_body()
    try:
        layout = check_layout(body, _players())
    except LayoutError as exc:
        raise EventError(str(exc)) from exc
    path = current_app.config.get("LAYOUT_FILE")
    if not path:
        return error("this server keeps no table layout file: start it with --layout FILE", 409)
    try:
        save_layout(path, layout)
    except OSError as exc:
        return error(f"could not write the layout: {exc.strerror or exc}", 503)
    use = getattr(_ext()["live"], "use_layout", None)
    applied = False
    if callable(use):
        use(layout)
        applied = True
    return jsonify({"layout": layout, "saved": True, "applied": applied}), 200
