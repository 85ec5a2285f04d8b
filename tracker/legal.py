"""Which cards may be played: the rules shared by :class:`~tracker.game.Game` and the simulator.

These are pure functions of the rule set and of what lies on the table, so the game
(which knows only card counts) and the simulator (which knows every hand) ask the
same questions and cannot read a rule two ways.

>>> from tracker.cards import parse_card
>>> from tracker.rules import preset
>>> house, official = preset("house"), preset("official")
>>> red2, blue2 = parse_card("red-draw2"), parse_card("blue-draw2")
>>> answers_penalty(house, "draw2", 1, [blue2]), answers_penalty(official, "draw2", 1, [blue2])
(True, False)
>>> answers_penalty(house, "draw2", 2, [blue2])  # no single Draw Two on a pair (000)
False
>>> answers_penalty(house, "wild-draw4", 1, [red2, red2])  # a same-colour pair on a +4
True
>>> answers_penalty(house, "wild-draw4", 1, [red2, blue2])
False
>>> matches(official, parse_card("red-5"), "red", False, parse_card("blue-5"))
True
>>> matches(preset("youlerren"), red2, "red", True, blue2)  # the penalty was taken
False
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.cards import Card
from tracker.rules import RuleSet


def answers_penalty(
    rules: RuleSet, pending_kind: str, pending_cards: int, cards: Sequence[Card]
) -> bool:
    """Whether ``cards`` (played at once, all of one value) may answer a pending penalty.

    ``pending_kind`` is the value of the cards that made it (``draw2`` or
    ``wild-draw4``), ``pending_cards`` how many cards the last of those plays put down.
    """
    value = cards[0].value
    if value == "draw2":
        if pending_kind == "draw2":
            return rules.stack_draw2_on_draw2 and not (
                rules.draw2_pair_needs_pair and pending_cards >= 2 and len(cards) < 2
            )
        return (
            pending_kind == "wild-draw4"
            and rules.stack_two_draw2_on_draw4
            and len(cards) >= 2
            and len({card.color for card in cards}) == 1
        )
    if value == "wild-draw4":
        return rules.stack_draw4_on_draw2 if pending_kind == "draw2" else rules.stack_draw4_on_draw4
    return value == "wild" and rules.wild_answers_penalty


def may_answer_penalty(rules: RuleSet, pending_kind: str) -> bool:
    """Whether any card at all may answer a penalty of this kind under these rules."""
    if rules.wild_answers_penalty:
        return True
    if pending_kind == "draw2":
        return rules.stack_draw2_on_draw2 or rules.stack_draw4_on_draw2
    return rules.stack_draw4_on_draw4 or rules.stack_two_draw2_on_draw4


def matches(rules: RuleSet, top: Card, color: str | None, served: bool, card: Card) -> bool:
    """Whether one card may go on ``top`` (named ``color``) with no penalty pending.

    ``served`` says a draw penalty was just taken (``follow_color_after_penalty``).
    """
    if card.is_wild or color is None or card.color == color:
        return True
    return card.value == top.value and not (rules.follow_color_after_penalty and served)


def draw4_open_to_challenge(rules: RuleSet, pending_before: int, count: int) -> bool:
    """Whether a Wild Draw Four just played (``count`` at once) may be challenged."""
    if count != 1 or not (rules.draw4_restricted and rules.draw4_challenge):
        return False
    return not (pending_before and rules.draw4_free_on_penalty)


def may_go_out_with(rules: RuleSet, card: Card) -> bool:
    """Whether the rules allow going out with this card (``last_card_values``)."""
    allowed = rules.last_card_values
    return allowed is None or card.value in allowed


__all__ = [
    "answers_penalty",
    "draw4_open_to_challenge",
    "matches",
    "may_answer_penalty",
    "may_go_out_with",
]
