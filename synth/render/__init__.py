"""The synthetic renderer: card faces, table tops, hands, scenes and YOLO datasets.

>>> from synth.render import render_card, render_table, draw_hand
"""

from synth.render.cards import CARDS, EDITIONS, FACES, render_card
from synth.render.hands import draw_hand
from synth.render.table import render_table

__all__ = ["CARDS", "EDITIONS", "FACES", "draw_hand", "render_card", "render_table"]
