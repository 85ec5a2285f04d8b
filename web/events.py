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

COLORS = ("red", "yellow", "green", "blue")
VALUES = (*(str(i) for i in range(10)), "skip", "reverse", "draw2")
CARDS = frozenset({f"{c}-{v}" for c in COLORS for v in VALUES} | {"wild", "wild-draw4"})

# type -> (required fields, optional fields)
FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "round": (frozenset({"players", "dealer"}), frozenset({"hand_size"})),
    "flip": (frozenset({"card"}), frozenset({"color"})),
    "play": (frozenset(), frozenset({"card", "cards", "player", "color"})),
    "color": (frozenset({"color"}), frozenset()),
    "draw": (frozenset(), frozenset({"player", "count"})),
    "pass": (frozenset(), frozenset({"player"})),
    "uno": (frozenset({"player"}), frozenset()),
    "catch": (frozenset({"player", "by"}), frozenset()),
    "challenge": (frozenset({"guilty"}), frozenset({"player"})),
    "undo": (frozenset(), frozenset()),
    "end-round": (frozenset({"hands"}), frozenset()),
}
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
    if not isinstance(body, dict):
        raise EventError("the body must be a JSON object with a 'type'")
    kind = body.get("type")
    if not isinstance(kind, str):
        raise EventError("missing 'type' (a string such as 'play' or 'draw')")
    if kind not in FIELDS:
        raise EventError(
            f"unknown event type {kind!r}; expected one of: {', '.join(sorted(FIELDS))}"
        )
    required, optional = FIELDS[kind]
    missing = sorted(required - body.keys())
    if missing:
        raise EventError(f"'{kind}' needs {', '.join(repr(m) for m in missing)}")
    unknown = sorted(body.keys() - required - optional - ENVELOPE - {"type"})
    if unknown:
        raise EventError(f"'{kind}' has no field {', '.join(repr(u) for u in unknown)}")
    event = {k: v for k, v in body.items() if k not in ENVELOPE}
    for name, value in event.items():
        _check_field(kind, name, value)
    if kind == "play" and ("card" in event) == ("cards" in event):
        raise EventError("'play' needs exactly one of 'card' or 'cards'")
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


def _check_field(kind: str, name: str, value: Any) -> None:
    if name == "type":
        return
    if name in ("player", "by", "dealer"):
        _check_name(name, value)
    elif name == "card":
        _check_card(value, allow_back=False)
    elif name == "cards":
        if not isinstance(value, list) or not value:
            raise EventError("'cards' must be a non-empty list of card names")
        for card in value:
            _check_card(card, allow_back=False)
    elif name == "color":
        if value not in COLORS:
            raise EventError(f"'color' must be one of {', '.join(COLORS)}, not {value!r}")
    elif name in ("count", "hand_size"):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= 108:
            raise EventError(f"'{name}' must be a whole number from 1 to 108")
    elif name == "guilty":
        if not isinstance(value, bool):
            raise EventError("'guilty' must be true or false")
    elif name == "players":
        if (
            not isinstance(value, list)
            or len(value) < 2
            or not all(isinstance(p, str) and p.strip() for p in value)
            or len(set(value)) != len(value)
        ):
            raise EventError("'players' must be a list of at least 2 distinct names")
        for player in value:
            _check_name("players", player)
    elif name == "hands":
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise EventError("'hands' must map each player to a list of card names")
        for cards in value.values():
            if not isinstance(cards, list):
                raise EventError("'hands' must map each player to a list of card names")
            for card in cards:
                _check_card(card, allow_back=False)


def _check_card(value: Any, *, allow_back: bool) -> None:
    if isinstance(value, str) and (value in CARDS or (allow_back and value == "back")):
        return
    raise EventError(
        f"{value!r} is not a card name (use e.g. 'red-7', 'blue-skip', 'green-draw2', "
        "'wild', 'wild-draw4')"
    )
