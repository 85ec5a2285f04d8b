"""Events as typed, immutable values: the DESIGN.md vocabulary, parsed once.

:func:`parse_event` turns a JSON object (a dict) into one of the frozen event classes,
or raises :class:`EventError` saying what is wrong. :class:`~tracker.game.Game` parses
with it (a dict it is given, or takes an event already parsed); the web layer calls it
with ``strict=True`` to refuse, before it reaches the log, anything that is not a
DESIGN.md event.

>>> parse_event({"type": "play", "card": "red-7", "player": "Ann"})
Play(cards=(Card('red-7'),), player='Ann', color=None, listed=False)
>>> parse_event({"type": "draw", "count": 0})
Traceback (most recent call last):
...
tracker.vocabulary.EventError: 'count' must be a whole number >= 1, not 0
>>> parse_event({"type": "round", "players": ["Ann", "Bob"]}, strict=True)
Traceback (most recent call last):
...
tracker.vocabulary.EventError: 'round' needs 'dealer'
>>> parse_event({"type": "flip", "card": "blue-0", "color": "blue"}).to_json()
{'type': 'flip', 'card': 'blue-0', 'color': 'blue'}

Lenient parsing (the default) is what a log replayed by the tracker gets: a later
``round`` may leave out ``players`` and ``dealer``, and keys outside the vocabulary
(such as the simulator's ``expect``) are ignored. Strict parsing is DESIGN.md's table
as it stands: every required field present, no unknown field (``ignore`` names keys
that travel with an event without being part of it).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from tracker.cards import COLORS, Card, CardError, parse_card
from tracker.vocabulary import FIELDS, EventError, check_strict

_COLOR_SET: Final = frozenset(COLORS)


@dataclass(frozen=True, slots=True)
class Round:
    """A round is dealt; the first of a match fixes the seating (clockwise)."""

    type: ClassVar[str] = "round"
    players: tuple[str, ...] | None = None
    dealer: str | None = None
    hand_size: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.players is not None:
            out["players"] = list(self.players)
        return _add(out, dealer=self.dealer, hand_size=self.hand_size)


@dataclass(frozen=True, slots=True)
class Flip:
    """The starter card is turned up; ``color`` names the color of a wild."""

    type: ClassVar[str] = "flip"
    card: Card
    color: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _add({"type": self.type, "card": self.card.name}, color=self.color)


@dataclass(frozen=True, slots=True)
class Play:
    """Card(s) put on the discard pile; ``listed``: given as ``cards`` (a list)."""

    type: ClassVar[str] = "play"
    cards: tuple[Card, ...]
    player: str | None = None
    color: str | None = None
    listed: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.listed:
            out["cards"] = [card.name for card in self.cards]
        else:
            out["card"] = self.cards[0].name
        return _add(out, player=self.player, color=self.color)


@dataclass(frozen=True, slots=True)
class Color:
    """The color named for the wild on top (or for several cards of several colors)."""

    type: ClassVar[str] = "color"
    color: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "color": self.color}


@dataclass(frozen=True, slots=True)
class Draw:
    """Cards taken from the draw pile (``count`` absent: one)."""

    type: ClassVar[str] = "draw"
    player: str | None = None
    count: int | None = None

    def to_json(self) -> dict[str, Any]:
        return _add({"type": self.type}, player=self.player, count=self.count)


@dataclass(frozen=True, slots=True)
class Pass:
    """A turn ends after drawing."""

    type: ClassVar[str] = "pass"
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _add({"type": self.type}, player=self.player)


@dataclass(frozen=True, slots=True)
class Uno:
    """``player`` called UNO."""

    type: ClassVar[str] = "uno"
    player: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player}


@dataclass(frozen=True, slots=True)
class Catch:
    """``by`` reports that ``player`` did not call UNO."""

    type: ClassVar[str] = "catch"
    player: str
    by: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player, "by": self.by}


@dataclass(frozen=True, slots=True)
class Challenge:
    """The victim of a Wild Draw Four challenges it; the referee says ``guilty``."""

    type: ClassVar[str] = "challenge"
    guilty: bool
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _add({"type": self.type}, player=self.player, guilty=self.guilty)


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last event that changed the state."""

    type: ClassVar[str] = "undo"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class EndRound:
    """The cards left in each hand, by player (absent: none), for scoring."""

    type: ClassVar[str] = "end-round"
    hands: tuple[tuple[str, tuple[Card, ...]], ...]

    def to_json(self) -> dict[str, Any]:
        hands = {player: [card.name for card in cards] for player, cards in self.hands}
        return {"type": self.type, "hands": hands}


Event = Round | Flip | Play | Color | Draw | Pass | Uno | Catch | Challenge | Undo | EndRound
#: The event classes, by ``type``.
EVENT_TYPES: Final[dict[str, type[Event]]] = {
    cls.type: cls
    for cls in (Round, Flip, Play, Color, Draw, Pass, Uno, Catch, Challenge, Undo, EndRound)
}


def parse_event(data: object, *, strict: bool = False, ignore: Collection[str] = ()) -> Event:
    """The typed event of a JSON object; :class:`EventError` says what is wrong.

    ``strict``: DESIGN.md's table as it stands (see the module docstring).

    >>> parse_event({"type": "catch", "player": "Ann", "by": "Bob"})
    Catch(player='Ann', by='Bob')
    >>> parse_event({"type": "shuffle"}).type
    Traceback (most recent call last):
    ...
    tracker.vocabulary.EventError: unknown event type 'shuffle' (known: round, flip, play, \
color, draw, pass, uno, catch, challenge, end-round, undo)
    """
    if not isinstance(data, dict):
        raise EventError(f"expected a JSON object, got {_kind(data)}", "not-an-object")
    if strict:
        check_strict(data, frozenset(ignore))
    kind = data.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        known = ", ".join([t for t in EVENT_TYPES if t != "undo"] + ["undo"])
        raise EventError(f"unknown event type {kind!r} (known: {known})", "unknown-type")
    return parser(data)


# ---------------------------------------------------------------------- per type


def _round(data: Mapping[str, Any]) -> Round:
    names = data.get("players")
    players = None
    if names is not None:
        if (
            not isinstance(names, list)
            or not all(isinstance(p, str) and p.strip() for p in names)
            or len(set(names)) != len(names)
        ):
            raise EventError("'players' must be a list of distinct names")
        players = tuple(names)
    hand_size = data.get("hand_size")
    if hand_size is not None and not _is_int(hand_size):
        raise EventError(f"'hand_size' must be a whole number 1..15, not {hand_size!r}")
    dealer = data.get("dealer")
    if dealer is not None and not isinstance(dealer, str):
        raise EventError(f"unknown dealer {dealer!r}", "unknown-player")
    return Round(players, dealer, hand_size)


def _flip(data: Mapping[str, Any]) -> Flip:
    card = _card(data.get("card"))
    color = _color(data.get("color"))
    if color is not None and card.color is not None and color != card.color:
        raise EventError(f"{card.name} is {card.color}, not {color}")
    return Flip(card, color)


def _play(data: Mapping[str, Any]) -> Play:
    single, several = data.get("card"), data.get("cards")
    player = _player(data.get("player"))
    color = data.get("color")
    if color is not None:
        color = _color(color)
    if several is None and isinstance(single, str):
        cards: tuple[Card, ...] = (_card(single),)
        listed = False
    else:
        if single is not None and several is not None:
            raise EventError("give 'card' or 'cards', not both")
        if several is not None:
            if not isinstance(several, list) or not several:
                raise EventError("'cards' must be a non-empty list of card names")
            cards = tuple(_card(name) for name in several)
            listed = True
        elif single is None:
            raise EventError("a 'play' needs a 'card' (or 'cards')")
        else:
            cards, listed = (_card(single),), False
    if color is not None and not cards[0].is_wild and all(c.color != color for c in cards):
        raise EventError(f"'color' {color} is not the color of the card(s) played")
    return Play(cards, player, color, listed)


def _color_event(data: Mapping[str, Any]) -> Color:
    color = _color(data.get("color"))
    if color is None:
        raise EventError("a 'color' event needs a 'color'")
    return Color(color)


def _draw(data: Mapping[str, Any]) -> Draw:
    count = data.get("count")
    if count is not None and (not _is_int(count) or count < 1):
        raise EventError(f"'count' must be a whole number >= 1, not {count!r}")
    return Draw(_player(data.get("player")), count)


def _pass(data: Mapping[str, Any]) -> Pass:
    return Pass(_player(data.get("player")))


def _uno(data: Mapping[str, Any]) -> Uno:
    player = _player(data.get("player"))
    if player is None:
        raise EventError("an 'uno' event needs the 'player' who called")
    return Uno(player)


def _catch(data: Mapping[str, Any]) -> Catch:
    player = _player(data.get("player"))
    if player is None:
        raise EventError("a 'catch' event needs the 'player' caught")
    by = _player(data.get("by"), "by")
    if by is None:
        raise EventError("the event needs a 'by'")
    return Catch(player, by)


def _challenge(data: Mapping[str, Any]) -> Challenge:
    guilty = data.get("guilty")
    if not isinstance(guilty, bool):
        raise EventError("'guilty' must be true or false")
    return Challenge(guilty, _player(data.get("player")))


def _undo(data: Mapping[str, Any]) -> Undo:
    return Undo()


def _end_round(data: Mapping[str, Any]) -> EndRound:
    shown = data.get("hands")
    if not isinstance(shown, dict):
        raise EventError("'hands' must map each player to the cards in their hand")
    hands = []
    for player, names in shown.items():
        if not isinstance(names, list):
            raise EventError(f"the hand of {player} must be a list of card names")
        hands.append((player, tuple(_card(name) for name in names)))
    return EndRound(tuple(hands))


_PARSERS: Final[dict[str, Callable[[Mapping[str, Any]], Event]]] = {
    "round": _round,
    "flip": _flip,
    "play": _play,
    "color": _color_event,
    "draw": _draw,
    "pass": _pass,
    "uno": _uno,
    "catch": _catch,
    "challenge": _challenge,
    "undo": _undo,
    "end-round": _end_round,
}


# ---------------------------------------------------------------------- fields


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _card(name: object) -> Card:
    try:
        return parse_card(name)
    except CardError as error:
        raise EventError(str(error), "unknown-card") from None


def _color(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and value in _COLOR_SET:
        return value
    raise EventError(f"unknown color {value!r} (colors: {', '.join(COLORS)})")


def _player(value: object, key: str = "player") -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise EventError(f"unknown player {value!r} (a {key!r} is a player's name)", "unknown-player")


def _add(out: dict[str, Any], **optional: object) -> dict[str, Any]:
    for key, value in optional.items():
        if value is not None:
            out[key] = value
    return out


__all__ = [
    "EVENT_TYPES",
    "FIELDS",
    "Catch",
    "Challenge",
    "Color",
    "Draw",
    "EndRound",
    "Event",
    "EventError",
    "Flip",
    "Pass",
    "Play",
    "Round",
    "Undo",
    "Uno",
    "parse_event",
]
