"""Parse a request body as JSON, refusing what would hurt the server later.

Python's :func:`json.loads` accepts things that are JSON in name only and fail far
from where they came in: a lone UTF-16 surrogate (``"\\ud800"``) decodes to a string
that cannot be written as UTF-8 (the live stream, the exports and the server's own
start-up banner would fail on it); nesting a thousand deep raises ``RecursionError``;
a number of more than 4,300 digits raises ``ValueError`` (and a long one costs time to
convert); ``NaN`` and ``Infinity`` are not JSON at all. :func:`parse_body` turns each
of these into a :class:`BodyError` whose message says what is wrong, before anything
reads the body.

>>> parse_body(b'{"players": ["Ann", "Bob"]}')
{'players': ['Ann', 'Bob']}
>>> parse_body(b'{"players": ["\\\\ud800", "Bob"]}')
Traceback (most recent call last):
...
web.safejson.BodyError: the text at players[0] is not valid Unicode (a lone UTF-16 \
surrogate, \\ud800); send real characters
>>> parse_body(b"[" * 50 + b"]" * 50)
Traceback (most recent call last):
...
web.safejson.BodyError: the JSON is nested more than 16 deep
"""

from __future__ import annotations

import json
import re
from typing import Any, NoReturn

#: Deepest nesting of lists and objects a body may have (an event needs 3).
MAX_DEPTH = 16
#: Most digits a number may have (every count and id fits in 18).
MAX_NUMBER_DIGITS = 18

_SURROGATE = re.compile("[\ud800-\udfff]")


class BodyError(ValueError):
    """The body is not JSON this server takes; the message says why."""


def parse_body(raw: bytes) -> Any:
    """The JSON value in ``raw``, or :class:`BodyError`."""
    if not raw.strip():
        raise BodyError("empty body: send one JSON object")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(f"the body is not valid JSON (not UTF-8 text: {exc})") from exc
    try:
        value = json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_no_constant
        )
    except RecursionError:
        raise BodyError(f"the JSON is nested more than {MAX_DEPTH} deep") from None
    except BodyError:
        raise
    except ValueError as exc:  # json.JSONDecodeError is one
        raise BodyError(f"the body is not valid JSON: {exc}") from exc
    check_value(value)
    return value


def check_value(value: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and strings that are not Unicode.

    Walks without recursion, so any depth is safe to check.
    """
    stack: list[tuple[Any, int, str]] = [(value, 0, "")]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, str):
            _check_text(item, where)
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise BodyError(f"the JSON is nested more than {MAX_DEPTH} deep")
            if isinstance(item, dict):
                for key, sub in item.items():
                    path = f"{where}.{key}" if where else str(key)
                    _check_text(key, f"{where or 'the object'}: a key")
                    stack.append((sub, depth + 1, path))
            else:
                stack.extend((sub, depth + 1, f"{where}[{i}]") for i, sub in enumerate(item))


def _check_text(text: str, where: str) -> None:
    bad = _SURROGATE.search(text)
    if bad:
        code = f"\\u{ord(bad.group()):04x}"
        raise BodyError(
            f"the text at {_printable(where)} is not valid Unicode "
            f"(a lone UTF-16 surrogate, {code}); send real characters"
        )


def _printable(where: str) -> str:
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", where) or "the top"


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        _too_long(digits)
    return int(digits)


def _parse_float(digits: str) -> float:
    if len(digits) > MAX_NUMBER_DIGITS + 8:
        _too_long(digits)
    value = float(digits)
    if value in (float("inf"), float("-inf")):
        raise BodyError(f"the number {digits} is too large")
    return value


def _too_long(digits: str) -> NoReturn:
    raise BodyError(
        f"a number of {len(digits)} characters ({digits[:12]}...); "
        f"numbers here have at most {MAX_NUMBER_DIGITS} digits"
    )


def _no_constant(name: str) -> NoReturn:
    raise BodyError(f"{name} is not a JSON number")
