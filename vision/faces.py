"""Card faces by name: colour, value, and which two faces no misreading confuses.

The watcher's rules read faces as the recogniser names them (``"red-7"``,
``"wild-draw4"``, ``"back"``); these helpers split a name without parsing it into a
:class:`tracker.cards.Card` (a back or a misreading is a name too).
"""

from __future__ import annotations

from tracker.cards import BACK, COLORS

__all__ = ["BACK", "card_color", "card_value", "other_colors", "unlike_faces"]


def other_colors(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` faces of two different card colours (wilds have none)?"""
    ca, cb = card_color(a), card_color(b)
    return ca in COLORS and cb in COLORS and ca != cb


def card_value(name: str) -> str:
    """A card's value or symbol, its colour left out.

    >>> card_value("red-7"), card_value("blue-draw2"), card_value("wild-draw4")
    ('7', 'draw2', 'wild-draw4')
    """
    color, _, value = name.partition("-")
    return value if color in COLORS else name


def unlike_faces(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` faces no misreading of a card lying still confuses: another
    value, and another colour or one of them a wild (a black card)?

    >>> unlike_faces("green-9", "red-3"), unlike_faces("wild", "blue-skip")
    (True, True)
    >>> unlike_faces("green-9", "yellow-9"), unlike_faces("red-7", "red-1")
    (False, False)
    >>> unlike_faces("wild", "wild-draw4")
    False
    """
    if card_value(a) == card_value(b):
        return False
    ca, cb = card_color(a), card_color(b)
    if ca not in COLORS and cb not in COLORS:
        return False
    return ca != cb


def card_color(name: str) -> str:
    """A card's colour, or its whole name for a card without one (a wild, a back).

    >>> card_color("red-7"), card_color("wild-draw4")
    ('red', 'wild-draw4')
    """
    color = name.partition("-")[0]
    return color if color in COLORS else name
