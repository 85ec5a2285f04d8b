"""The names the recogniser gives: card faces (from :mod:`tracker.cards`), ``back``, and
the detector's two classes.

The order of :data:`FACES` is the classifier's class order: it is that of
:data:`tracker.cards.ALL_CARDS` (colours red, yellow, green, blue, each 0-9, skip,
reverse, draw2; then wild and wild-draw4).

>>> len(FACES), FACES[0], FACES[12], FACES[-1]
(54, 'red-0', 'red-draw2', 'wild-draw4')
>>> CARDS[-1], DETECTOR_CLASSES
('back', ('card', 'back'))
"""

from __future__ import annotations

from tracker.cards import ALL_CARDS, BACK, COLORS

__all__ = ["CARDS", "COLORS", "DETECTOR_CLASSES", "FACES"]

#: The 54 distinct faces, in a fixed order (also the classifier's class order).
FACES: tuple[str, ...] = tuple(card.name for card in ALL_CARDS)
#: Every name a card image can have: the faces and ``back``.
CARDS: tuple[str, ...] = (*FACES, BACK)
#: The detector's classes: a card face up, and a card face down.
DETECTOR_CLASSES: tuple[str, ...] = ("card", "back")
