"""The DESIGN.md event table as data, and the strict check of an event against it.

:func:`tracker.events.parse_event` (``strict=True``) runs :func:`check_strict` first:
input from outside (the web) must be DESIGN.md's table as it stands, every required
field present, no unknown field, each field of its kind.

>>> check_strict({"type": "uno"}, frozenset())
Traceback (most recent call last):
...
tracker.vocabulary.EventError: 'uno' needs 'player'
"""

from __future__ import annotations

from typing import Any, Final

from tracker.cards import COLORS, DECK_SIZE, FACES

_COLOR_SET: Final = frozenset(COLORS)
_FACES: Final = frozenset(FACES)


class EventError(ValueError):
    """Input that is not an event; ``reason`` is the ``bad-event`` reason code."""

    def __init__(self, message: str, reason: str = "bad-field") -> None:
        super().__init__(message)
        self.reason = reason


#: DESIGN.md's table: type -> (required fields, optional fields).
FIELDS: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
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


def check_strict(body: dict[str, Any], ignore: frozenset[str]) -> None:
    """DESIGN.md's table as it stands: fields required, no unknown field, each of its kind."""
    kind = body.get("type")
    if not isinstance(kind, str):
        raise EventError("missing 'type' (a string such as 'play' or 'draw')", "unknown-type")
    if kind not in FIELDS:
        known = ", ".join(sorted(FIELDS))
        raise EventError(f"unknown event type {kind!r}; expected one of: {known}", "unknown-type")
    required, optional = FIELDS[kind]
    missing = sorted(required - body.keys())
    if missing:
        raise EventError(f"'{kind}' needs {', '.join(repr(m) for m in missing)}")
    unknown = sorted(body.keys() - required - optional - ignore - {"type"})
    if unknown:
        raise EventError(f"'{kind}' has no field {', '.join(repr(u) for u in unknown)}")
    for name, value in body.items():
        if name not in ignore:
            _check_field(name, value)
    if kind == "play" and ("card" in body) == ("cards" in body):
        raise EventError("'play' needs exactly one of 'card' or 'cards'")


def _check_field(name: str, value: object) -> None:
    if name in ("player", "by", "dealer"):
        if not isinstance(value, str) or not value.strip():
            raise EventError(f"'{name}' must be a player's name")
    elif name == "card":
        _strict_card(value)
    elif name == "cards":
        if not isinstance(value, list) or not value:
            raise EventError("'cards' must be a non-empty list of card names")
        for card in value:
            _strict_card(card)
    elif name == "color":
        if value not in _COLOR_SET:
            raise EventError(f"'color' must be one of {', '.join(COLORS)}, not {value!r}")
    elif name in ("count", "hand_size"):
        if not (isinstance(value, int) and not isinstance(value, bool) and 0 < value <= DECK_SIZE):
            raise EventError(f"'{name}' must be a whole number from 1 to {DECK_SIZE}")
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
    elif name == "hands":
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise EventError("'hands' must map each player to a list of card names")
        for cards in value.values():
            if not isinstance(cards, list):
                raise EventError("'hands' must map each player to a list of card names")
            for card in cards:
                _strict_card(card)


def _strict_card(value: object) -> None:
    if isinstance(value, str) and value in _FACES:
        return
    raise EventError(
        f"{value!r} is not a card name (use e.g. 'red-7', 'blue-skip', 'green-draw2', "
        "'wild', 'wild-draw4')",
        "unknown-card",
    )


__all__ = ["FIELDS", "EventError", "check_strict"]
