"""Check an event posted to ``/api/events`` against the DESIGN.md vocabulary.

The tracker judges whether an event is *legal*; this module only refuses what is not
an event at all (wrong shape, unknown type, a field of the wrong kind, a card name that
does not exist), so that such input gets a 400 and never reaches the game or the log.

>>> validate_event({"type": "play", "card": "red-7"})
{'type': 'play', 'card': 'red-7'}
>>> validate_event({"type": "jump"})
Traceback (most recent call last):
...
web.events.EventError: unknown event type 'jump'; expected one of: catch, challenge, \
color, draw, end-round, flip, pass, play, round, undo, uno
"""

from __future__ import annotations

from typing import Any

from tracker.cards import COLORS as COLORS  # re-exported: the card names live in tracker
from tracker.cards import FACES
from tracker.events import EventError as TrackerEventError
from tracker.events import parse_event

CARDS = frozenset(FACES)
# Keys a client may attach that are not part of the event (kept out of the log).
ENVELOPE = frozenset({"t", "source", "client_id"})
#: Longest ``client_id`` a poster may choose (a UUID is 36 characters).
MAX_CLIENT_ID = 100
#: Longest player name (a seat's label on a phone).
MAX_NAME = 40


class EventError(ValueError):
    """The posted body is not a DESIGN.md event; the message says why."""


def validate_event(body: Any) -> dict[str, Any]:
    """Return the event (a clean copy) or raise :class:`EventError`."""
    try:
        parse_event(body, strict=True, ignore=ENVELOPE)  # the tracker's parser
    except TrackerEventError as error:
        raise EventError(str(error)) from None
    event = {k: v for k, v in body.items() if k not in ENVELOPE}
    for name in ("player", "by", "dealer"):
        if name in event:
            _check_name(name, event[name])
    for player in event.get("players", []):
        _check_name("players", player)
    for player in event.get("hands", {}):
        _check_name("hands", player)
    return event


def client_id_of(body: Any) -> str | None:
    """The poster's ``client_id`` (its own id for this request, so that a retry of it is
    answered from the store instead of being applied twice), or None.

    >>> client_id_of({"type": "undo", "client_id": "tab-1:17"})
    'tab-1:17'
    >>> client_id_of({"type": "undo", "client_id": 17})
    Traceback (most recent call last):
    ...
    web.events.EventError: 'client_id' must be a string of 1 to 100 printable characters
    """
    if not isinstance(body, dict) or body.get("client_id") is None:
        return None
    value = body["client_id"]
    if not isinstance(value, str) or not 0 < len(value) <= MAX_CLIENT_ID or not value.isprintable():
        raise EventError(
            f"'client_id' must be a string of 1 to {MAX_CLIENT_ID} printable characters"
        )
    return value


def check_keys(body: dict[str, Any], allowed: frozenset[str], what: str) -> None:
    """Refuse a key ``what`` does not take, naming it (a typo must not go unnoticed).

    >>> check_keys({"player": ["Ann", "Bob"]}, frozenset({"players"}), "a new match")
    Traceback (most recent call last):
    ...
    web.events.EventError: a new match takes no 'player' (it takes: 'players')
    """
    unknown = sorted(set(body) - allowed)
    if unknown:
        takes = ", ".join(repr(k) for k in sorted(allowed))
        raise EventError(
            f"{what} takes no {', '.join(repr(u) for u in unknown)} (it takes: {takes})"
        )


def _check_name(name: str, value: Any) -> None:
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        raise EventError(f"'{name}' must be a player's name (printable text)")
    if len(value) > MAX_NAME:
        raise EventError(f"'{name}' is longer than {MAX_NAME} characters")
