"""The rules of UNO: cards, rule sets, the game, scoring. Pure Python, no I/O.

>>> from tracker import Game, preset
>>> game = Game(preset("house"))
>>> game.apply({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"}).state["turn"]
'Ann'
"""

from tracker.cards import (
    ALL_CARDS,
    COLORS,
    DECK_COUNTS,
    DECK_SIZE,
    Card,
    CardError,
    card_points,
    full_deck,
    hand_points,
    parse_card,
)
from tracker.events import Event, EventError, parse_event
from tracker.game import Game, Verdict
from tracker.messages import CODES, TEMPLATES, Alert
from tracker.rules import PRESETS, RuleError, RuleSet, UnknownPresetError, preset, toggle_table
from tracker.scoring import match_winner, round_deltas

__all__ = [
    "ALL_CARDS",
    "CODES",
    "COLORS",
    "DECK_COUNTS",
    "DECK_SIZE",
    "PRESETS",
    "TEMPLATES",
    "Alert",
    "Card",
    "CardError",
    "Event",
    "EventError",
    "Game",
    "RuleError",
    "RuleSet",
    "UnknownPresetError",
    "Verdict",
    "card_points",
    "full_deck",
    "hand_points",
    "match_winner",
    "parse_card",
    "parse_event",
    "preset",
    "round_deltas",
    "toggle_table",
]
