"""Cards: the canonical names, the 108-card deck and card points.

Cards are immutable values, one object per name, so comparing them is cheap:

>>> parse_card("red-7")
Card('red-7')
>>> parse_card("red-7") is parse_card("red-7")
True
>>> parse_card("wild-draw4").is_wild
True
>>> len(full_deck())
108
>>> parse_card("red-11")
Traceback (most recent call last):
...
tracker.cards.CardError: unknown value '11' in card 'red-11' (values: 0-9, skip, reverse, draw2)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final

COLORS: Final = ("red", "yellow", "green", "blue")
NUMBERS: Final = tuple(str(n) for n in range(10))
ACTIONS: Final = ("skip", "reverse", "draw2")
COLORED_VALUES: Final = NUMBERS + ACTIONS
WILD_VALUES: Final = ("wild", "wild-draw4")
BACK: Final = "back"

#: How many copies of each colored value a deck holds (per color).
_COPIES: Final = {"0": 1} | {v: 2 for v in COLORED_VALUES if v != "0"}


class CardError(ValueError):
    """A card name that is not one of the canonical names."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card face: ``color`` is ``None`` for the two black cards.

    Derived attributes, computed once: ``name`` (the canonical name), ``is_wild`` (a
    black card), ``is_number`` (0-9) and ``draw_amount`` (2 for a Draw Two, 4 for a
    Wild Draw Four, else 0).

    >>> Card("blue", "skip").name
    'blue-skip'
    >>> Card(None, "wild").name
    'wild'
    >>> Card(None, "wild-draw4").draw_amount
    4
    """

    color: str | None
    value: str
    # Computed once in __post_init__: cards are compared and printed a lot.
    name: str = field(init=False, repr=False, compare=False)
    is_wild: bool = field(init=False, repr=False, compare=False)
    is_number: bool = field(init=False, repr=False, compare=False)
    draw_amount: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        color, value = self.color, self.value
        setattr_ = object.__setattr__
        setattr_(self, "name", value if color is None else f"{color}-{value}")
        setattr_(self, "is_wild", color is None)
        setattr_(self, "is_number", value in NUMBERS)
        setattr_(self, "draw_amount", 2 if value == "draw2" else 4 if value == "wild-draw4" else 0)

    def __repr__(self) -> str:
        return f"Card({self.name!r})"

    def __str__(self) -> str:
        return self.name


_BY_NAME: Final[dict[str, Card]] = {}
for _color in COLORS:
    for _value in COLORED_VALUES:
        _card = Card(_color, _value)
        _BY_NAME[_card.name] = _card
for _value in WILD_VALUES:
    _BY_NAME[_value] = Card(None, _value)

#: Every distinct card face, in a stable order (colors, then the black cards).
ALL_CARDS: Final[tuple[Card, ...]] = tuple(_BY_NAME.values())
#: The 54 face names in that order (also the recogniser's class order).
FACES: Final[tuple[str, ...]] = tuple(_BY_NAME)
#: Every name a card image can have: the faces and ``back`` (a face-down card).
CARD_NAMES: Final[tuple[str, ...]] = (*FACES, BACK)


def parse_card(name: object) -> Card:
    """The card with this canonical name; :class:`CardError` says what is wrong otherwise.

    >>> parse_card("yellow-draw2")
    Card('yellow-draw2')
    >>> parse_card("back")
    Traceback (most recent call last):
    ...
    tracker.cards.CardError: 'back' is a face-down card, not a card face
    """
    if isinstance(name, str):
        card = _BY_NAME.get(name)
        if card is not None:
            return card
    raise CardError(_explain(name))


def _explain(name: object) -> str:
    if not isinstance(name, str):
        return f"a card name must be a string, not {type(name).__name__}"
    if name == BACK:
        return "'back' is a face-down card, not a card face"
    if name.lower() in _BY_NAME:
        return f"card names are lower case: {name.lower()!r}, not {name!r}"
    color, sep, value = name.partition("-")
    if not sep:
        return f"unknown card {name!r} (expected <color>-<value>, 'wild' or 'wild-draw4')"
    if color not in COLORS:
        return f"unknown color {color!r} in card {name!r} (colors: {', '.join(COLORS)})"
    return f"unknown value {value!r} in card {name!r} (values: 0-9, {', '.join(ACTIONS)})"


def deck_counts() -> Counter[Card]:
    """How many copies of each face a full deck holds.

    >>> counts = deck_counts()
    >>> counts[parse_card("red-0")], counts[parse_card("red-5")], counts[parse_card("wild")]
    (1, 2, 4)
    """
    counts: Counter[Card] = Counter()
    for color in COLORS:
        for value, copies in _COPIES.items():
            counts[_BY_NAME[f"{color}-{value}"]] = copies
    for value in WILD_VALUES:
        counts[_BY_NAME[value]] = 4
    return counts


DECK_COUNTS: Final[dict[Card, int]] = dict(deck_counts())
DECK_SIZE: Final = sum(DECK_COUNTS.values())

#: Copies of each card in a deck, by name.
COPIES: Final[dict[str, int]] = {card.name: copies for card, copies in DECK_COUNTS.items()}


def full_deck() -> list[Card]:
    """The 108 cards of a deck, unshuffled."""
    return [card for card, copies in DECK_COUNTS.items() for _ in range(copies)]


#: Card points per scoring system. ``face``: the published rules (face value, 20 for
#: Skip/Reverse/Draw Two, 50 for the black cards). ``youlerren``: 1 per number card,
#: 2 per Skip/Reverse/Draw Two, 5 per black card.
POINT_SYSTEMS: Final = ("face", "youlerren")


def card_points(card: Card, system: str = "face") -> int:
    """Points a card left in a hand is worth.

    >>> card_points(parse_card("red-7")), card_points(parse_card("red-skip"))
    (7, 20)
    >>> card_points(parse_card("wild"), "youlerren")
    5
    """
    if system == "face":
        if card.is_number:
            return int(card.value)
        return 50 if card.is_wild else 20
    if system == "youlerren":
        if card.is_number:
            return 1
        return 5 if card.is_wild else 2
    raise ValueError(f"unknown point system {system!r} (known: {', '.join(POINT_SYSTEMS)})")


def hand_points(cards: list[Card], system: str = "face") -> int:
    """The points of a hand.

    >>> hand_points([parse_card("red-7"), parse_card("wild")])
    57
    """
    return sum(card_points(card, system) for card in cards)
