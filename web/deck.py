"""Deck setup: teach the recogniser the user's own deck from the tablet.

``/deck/`` is the page; ``/deck/api/...`` its JSON API. Reading is open, like the
rest of the app; every change needs the referee's token (see :mod:`web.api_common`).

=====================================  ==============================================
``GET  /deck/api/state``               photos, cards (proposed name, label, held back),
                                       the fit's progress and result, the deck in use
``POST /deck/api/photos``              multipart ``photo`` files (one or several)
``POST /deck/api/camera``              the camera's latest frame as a photo
``GET  /deck/photos/<id>.jpg``         a photo as kept (upright JPEG)
``DELETE /deck/api/photos/<id>``       remove a photo (``/deck/api/photos``: all)
``POST /deck/api/label``               ``{"photo": 1, "card": 0, "face": "red-7"}``
                                       (``"face": null``: not a card to learn)
``POST /deck/api/calibrate``           start the fit (``{"per_photo": 24}`` optional)
``GET  /deck/api/job``                 the fit's progress
``POST /deck/api/use``                 save ``deck.onnx`` and use it now
``POST /deck/api/forget``              delete it: back to the general read-out
=====================================  ==============================================

Bad input answers 4xx ``{"error": ...}`` and changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from flask.blueprints import BlueprintSetupState
from werkzeug.exceptions import HTTPException

from web.api_common import referee_only
from web.deck_session import DeckError, DeckSession

bp = Blueprint("deck", __name__, url_prefix="/deck")

#: Largest upload of photos in one request (the rest of the app keeps MAX_CONTENT_LENGTH).
MAX_UPLOAD_BYTES = 40 * 1024 * 1024
#: Augmented crops cut from each labelled card (``uno-table calibrate-deck --crops``).
PER_PHOTO = 24
#: Most crops a request may ask for per card.
MAX_PER_PHOTO = 256
EXTENSION = "uno_deck"


@bp.record_once
def _setup(state: BlueprintSetupState) -> None:
    app = state.app
    app.extensions[EXTENSION] = DeckSession(
        app.config.get("DECK"), int(app.config.get("DECK_PER_PHOTO", PER_PHOTO))
    )


def session_of(app: Flask) -> DeckSession:
    """The app's deck setup (for tests and the composition root)."""
    session: DeckSession = app.extensions[EXTENSION]
    return session


def _session() -> DeckSession:
    return session_of(current_app)


@bp.errorhandler(DeckError)
def _deck_error(exc: DeckError) -> tuple[Response, int]:
    return jsonify({"error": exc.message}), exc.status


@bp.errorhandler(HTTPException)
def _http_error(exc: HTTPException) -> tuple[Response, int]:
    return jsonify({"error": exc.description or exc.name}), exc.code or 500


def _state(status: int = 200) -> tuple[Response, int]:
    return jsonify(_session().state()), status


@bp.get("/")
def page() -> str:
    return render_template("deck.html")


@bp.get("/api/state")
def state() -> tuple[Response, int]:
    return _state()


@bp.get("/api/job")
def job() -> Response:
    session = _session()
    return jsonify({"job": session.job.to_json(), "result": session.result})


@bp.get("/photos/<int:photo_id>.jpg")
def photo(photo_id: int) -> Response:
    jpeg = _session().photo_jpeg(photo_id)
    if jpeg is None:
        raise DeckError(f"no photo {photo_id}", 404)
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "private, max-age=3600"})


@bp.post("/api/photos")
@referee_only
def upload() -> tuple[Response, int]:
    request.max_content_length = int(current_app.config.get("DECK_MAX_UPLOAD", MAX_UPLOAD_BYTES))
    files = request.files.getlist("photo")
    if not files:
        raise DeckError("send the photos as multipart form files named 'photo'")
    images = [(f.filename or f"photo {i + 1}", f.read()) for i, f in enumerate(files)]
    _session().add_images(images, "upload")
    return _state(201)


@bp.post("/api/camera")
@referee_only
def camera() -> tuple[Response, int]:
    _session().add_camera_frame()
    return _state(201)


@bp.delete("/api/photos/<int:photo_id>")
@referee_only
def remove(photo_id: int) -> tuple[Response, int]:
    _session().remove(photo_id)
    return _state()


@bp.delete("/api/photos")
@referee_only
def remove_all() -> tuple[Response, int]:
    _session().remove(None)
    return _state()


def _json_object() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if body is None and request.get_data(cache=True).strip():
        raise DeckError("the body is not valid JSON")
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise DeckError("send one JSON object")
    return body


@bp.post("/api/label")
@referee_only
def label() -> tuple[Response, int]:
    body = _json_object()
    if "face" not in body:
        raise DeckError("send {'photo': <photo id>, 'card': <card id>, 'face': <name|null>}")
    _session().set_label(body.get("photo"), body.get("card"), body["face"])
    return _state()


@bp.post("/api/calibrate")
@referee_only
def calibrate() -> tuple[Response, int]:
    body = _json_object()
    per_photo = body.get("per_photo")
    if per_photo is not None and (
        not isinstance(per_photo, int)
        or isinstance(per_photo, bool)
        or not 1 <= per_photo <= MAX_PER_PHOTO
    ):
        raise DeckError(f"per_photo must be a whole number from 1 to {MAX_PER_PHOTO}")
    _session().calibrate(per_photo)
    return _state(202)


@bp.post("/api/use")
@referee_only
def use() -> tuple[Response, int]:
    _session().use()
    return _state()


@bp.post("/api/forget")
@referee_only
def forget() -> tuple[Response, int]:
    _session().forget()
    return _state()
