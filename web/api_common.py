"""What every part of the JSON API shares: the referee's token, the request body, the
error answers (``{"error": ...}`` with its status) and the blueprint that carries them.

Reading is open to anyone on the network; every write needs the referee's token, as
``Authorization: Bearer <token>`` or ``X-Referee-Token: <token>``.
"""

from __future__ import annotations

import contextlib
import hmac
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from web.events import EventError
from web.game import GameService, ServiceError
from web.game_values import Submitted
from web.safejson import BodyError, parse_body

#: Set on the answer to a retried write (same ``client_id``): nothing was applied again.
REPEATED_HEADER = "X-Repeated-Request"
#: Most bytes of an oversized chunked body read (and dropped) before answering 413.
DISCARD_LIMIT = 16 * 1024 * 1024
#: Bytes read at a time when dropping the rest of a chunked body.
DISCARD_CHUNK = 65_536
#: The prefix of every API URL.
API_PREFIX = "/api"
#: A number in a write (``question``, ``option``, ``n``) is below this.
SMALL_INT_LIMIT = 2**31

F = TypeVar("F", bound=Callable[..., Any])


def _ext() -> dict[str, Any]:
    ext: dict[str, Any] = current_app.extensions["uno_table"]
    return ext


def _service() -> GameService:
    service: GameService = _ext()["service"]
    return service


def error(message: str, status: int, **extra: Any) -> tuple[Response, int]:
    return jsonify({"error": message, **extra}), status


def presented_token() -> str | None:
    auth = request.headers.get("Authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.headers.get("X-Referee-Token")


def referee_only(view: F) -> F:
    """Answer 401 unless the request carries the referee's token."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        token = presented_token()
        expected = str(current_app.config["REFEREE_TOKEN"])
        if not token:
            return error(
                "referee token required: send 'Authorization: Bearer <token>' or 'X-Referee-Token'",
                401,
            )
        if not hmac.compare_digest(token.encode(), expected.encode()):
            return error("wrong referee token", 401)
        return view(*args, **kwargs)

    return cast(F, wrapped)


def json_body() -> Any:
    """The request's JSON body, or a 400 error explaining why it is not JSON we take.

    A body over ``MAX_CONTENT_LENGTH`` is a 413, also when it comes chunked (no
    ``Content-Length``): :class:`web.BodyRequest` lets one byte more through so that
    such a body is seen to be too long instead of being cut at the limit.
    """
    raw = request.get_data(cache=True)
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is not None and len(raw) > int(limit):
        _discard_the_rest()
        raise RequestEntityTooLarge(
            f"the body is over {int(limit) // 1024} KB; nothing was applied"
        )
    try:
        return parse_body(raw)
    except BodyError as exc:
        raise EventError(str(exc)) from exc


def _discard_the_rest() -> None:
    """Read what is left of a chunked body (up to :data:`DISCARD_LIMIT`), so that the
    413 is read by a client still sending rather than met with a connection reset."""
    if "wsgi.input_terminated" not in request.environ:
        return  # a Content-Length body over the limit was never read
    stream = request.environ["wsgi.input"]
    left = DISCARD_LIMIT
    with contextlib.suppress(Exception):
        while left > 0 and (chunk := stream.read(min(left, DISCARD_CHUNK))):
            left -= len(chunk)


def _small_int(body: dict[str, Any], name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < SMALL_INT_LIMIT:
        raise EventError(f"'{name}' must be a small whole number")
    return value


def verdict_answer(done: Submitted, status: int = 200) -> tuple[Response, int]:
    """``{"n", "verdict"}`` of one stored write, marked with :data:`REPEATED_HEADER`
    when it was a retry (nothing applied again)."""
    response = jsonify({"n": done.n, "verdict": done.verdict})
    return repeated(response, done.repeated), status


def repeated(response: Response, was_repeated: bool) -> Response:
    """Mark ``response`` as the answer to a retried write when it was one."""
    if was_repeated:
        response.headers[REPEATED_HEADER] = "true"
    return response


def _bad_event(exc: EventError) -> tuple[Response, int]:
    return error(str(exc), 400)


def _service_error(exc: ServiceError) -> tuple[Response, int]:
    return error(exc.message, exc.status)


def _http_error(exc: HTTPException) -> tuple[Response, int]:
    response, status = error(exc.description or exc.name, exc.code or 500)
    if status == RequestEntityTooLarge.code:
        response.headers["Connection"] = "close"  # the rest of the body is not read
    return response, status


def api_blueprint(name: str, import_name: str, url_prefix: str | None = API_PREFIX) -> Blueprint:
    """A blueprint whose errors answer like the rest of the API: 400/409/413/...
    with ``{"error": ...}``."""
    bp = Blueprint(name, import_name, url_prefix=url_prefix)
    bp.register_error_handler(EventError, _bad_event)
    bp.register_error_handler(ServiceError, _service_error)
    bp.register_error_handler(HTTPException, _http_error)
    return bp
