"""The tablet page, the MJPEG video and the health check."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from importlib import resources
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from web.db import get_db

bp = Blueprint("pages", __name__)

BOUNDARY = "unotableframe"


def _ext() -> dict[str, Any]:
    ext: dict[str, Any] = current_app.extensions["uno_table"]
    return ext


@bp.get("/")
def index() -> str:
    service = _ext()["service"]
    return render_template(
        "index.html", match=service.match, public_host=_public_url().split("//", 1)[-1]
    )


def _public_url() -> str:
    """Where other devices open this page: the LAN link ``serve`` printed, else this
    request's own address."""
    return str(current_app.config.get("PUBLIC_URL") or request.host_url)


@bp.get("/qr.svg")
def qr() -> Response:
    """A QR code of the spectators' link (never the referee's token)."""
    from web.server import qr_svg

    return Response(
        qr_svg(_public_url()), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"}
    )


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    """The camera's and the recogniser's status, and the store's.

    200 while the game can be kept (``status`` is ``degraded`` without camera or model:
    the referee can still enter everything); 503 when the store cannot be read.
    """
    ext = _ext()
    status = ext["live"].status()
    service = ext["service"]
    camera = status.get("camera") or {}
    recognition = status.get("recognition") or {}
    # Not the database's path: that is the server's business, printed in its terminal.
    store: dict[str, Any] = {"events": service.n}
    try:
        get_db().event_count(service.match.id)
        store["ok"] = True
    except sqlite3.Error as exc:
        store.update(ok=False, error=str(exc))
    healthy = camera.get("state") == "ok" and recognition.get("available")
    body = {
        "status": "ok" if healthy else ("degraded" if store["ok"] else "down"),
        "camera": camera,
        "recognition": recognition,
        "store": store,
        "match": service.match.id,
        "sse_clients": ext["broker"].subscribers,
    }
    return jsonify(body), 200 if store["ok"] else 503


def placeholder_jpeg() -> bytes:
    """The still shown while there is no video (shipped with the app)."""
    return resources.files("web").joinpath("static/no-video.jpg").read_bytes()


@bp.get("/video.mjpg")
def video() -> Response:
    """The camera with each recognised card boxed and named, as multipart JPEG."""
    live = _ext()["live"]
    fps = float(current_app.config["VIDEO_FPS"])
    period = 1.0 / fps if fps > 0 else 0.0
    placeholder = placeholder_jpeg()

    def part(jpeg: bytes) -> bytes:
        head = f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n"
        return head.encode() + jpeg + b"\r\n"

    def generate() -> Iterator[bytes]:
        last_index: int | None = None
        last_sent = 0.0
        while True:
            frame = live.frame_jpeg()
            now = time.monotonic()
            if frame is None:
                # No video: repeat the placeholder now and then so that the page shows it.
                if last_index != -1 or now - last_sent > 2.0:
                    yield part(placeholder)
                    last_index, last_sent = -1, now
                time.sleep(0.25)
                continue
            index, jpeg = frame
            if index != last_index:
                yield part(jpeg)
                last_index, last_sent = index, now
            time.sleep(max(period - (time.monotonic() - now), 0.005))

    return Response(
        generate(),
        mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
        headers={"Cache-Control": "no-cache, private", "Pragma": "no-cache"},
    )


@bp.app_errorhandler(HTTPException)
def _http_error(exc: HTTPException) -> Any:
    """JSON errors under /api and for JSON clients; the plain page otherwise."""
    if request.path.startswith("/api") or request.accept_mimetypes.best == "application/json":
        return jsonify({"error": exc.description or exc.name}), exc.code or 500
    return exc
