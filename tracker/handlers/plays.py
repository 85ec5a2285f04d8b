"""The rules of a play: ``play`` (who may play, which cards, their effect) and
``color`` (the color named for a wild, or which of several cards played ends on top).

>>> from tracker.cards import parse_card
>>> from tracker.events import parse_event
>>> from tracker.handlers.common import Context
>>> from tracker.handlers.rounds import on_flip, on_round
>>> from tracker.rules import OFFICIAL
>>> from tracker.state import GameState
>>> c, s = Context(OFFICIAL), GameState()
>>> _ = on_round(c, s, parse_event({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"}))
>>> _ = on_flip(c, s, parse_event({"type": "flip", "card": "red-5"}))
>>> judge_play(c, s, "Ann", [parse_card("blue-3")]).code
'illegal-card'
>>> on_play(c, s, parse_event({"type": "play", "card": "red-3"})), s.top.name
((True, [], True), 'red-3')
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.cards import COPIES, Card
from tracker.events import Color, Play
from tracker.handlers.common import Bad, Context, Outcome, describe_values
from tracker.legal import answers_penalty, draw4_open_to_challenge, may_answer_penalty
from tracker.messages import Alert
from tracker.state import OVER, PLAY, GameState


def on_play(c: Context, s: GameState, ev: Play) -> Outcome:
    """Cards put on the discard pile: who may play, which cards, then their effect."""
    # The hot path of a replay: checks are inlined where it pays.
    if s.phase != PLAY:
        c.need_play(s)
    rules = c.rules
    cards = ev.cards
    k = len(cards)
    color = ev.color
    seat = c.seat(s, ev.player)
    name = s.players[seat]
    if k == 1:
        card_name = cards[0].name
        if s.discard_counts.get(card_name, 0) >= COPIES[card_name]:
            c.check_copies(s, cards)  # raises, saying why
    else:
        c.check_copies(s, cards)
    if s.hands[seat] < k:
        raise Bad(
            "not-enough-cards",
            f"{name} holds {s.hands[seat]} card(s) by the record, cannot play {k}",
            name,
        )
    top = s.top
    assert top is not None  # PLAY phase always has a top card
    first = cards[0]
    # Who may play now?
    implied_pass = jump_in = False
    if seat != s.turn:
        if rules.jump_in and can_jump_in(c, s, cards):
            jump_in = True
        elif s.drew and s.pending == 0 and seat == c.next(s, s.turn):
            implied_pass = True  # the player who drew passed
        else:
            turn = c.name(s, s.turn)
            return (
                False,
                [Alert("out-of-turn", name, {"card": first.name, "turn": turn})],
                False,
            )
    penalty = rules.wrong_card_penalty
    if k > 1:
        if not rules.multi_play:
            alert = Alert("illegal-card", name, {"count": k}, "single")
            return c.refuse(s, alert, seat, penalty)
        if any(c.value != first.value for c in cards):
            names = ", ".join(c.name for c in cards)
            return c.refuse(
                s, Alert("illegal-card", name, {"cards": names}, "mixed"), seat, penalty
            )
    if not jump_in:
        judged = judge_play(c, s, name, cards)
        if judged is not None:
            return c.refuse(s, judged, seat, penalty)
    allowed = rules.last_card_values
    if s.hands[seat] == k and allowed is not None and first.value not in allowed:
        params = {"card": first.name, "allowed": describe_values(allowed)}
        return c.refuse(s, Alert("illegal-last-card", name, params), seat, penalty)

    # Legal: apply it.
    call = s.provisional_call
    if call is not None:
        s.provisional_call = None
        if call[0] == seat and s.hands[seat] - k <= 1:
            s.called[seat] = True  # the call made before several cards counts
            call = None
    if implied_pass:
        s.turn = seat
    if s.catch != seat:
        s.catch = -1
    s.wd4 = None
    s.drew = False
    s.auto_passed = -1
    s.hands[seat] -= k
    counts = s.discard_counts
    for card in cards:
        counts[card.name] = counts.get(card.name, 0) + 1
    s.discard += k
    if k > 1 and color is not None and not first.is_wild:
        top = next(c for c in reversed(cards) if c.color == color)
    else:
        top = cards[-1]
    s.top = top
    s.color = color if top.is_wild else top.color
    s.multi = tuple(cards) if k > 1 and color is None and len({c.color for c in cards}) > 1 else ()
    s.penalty_served = False
    left = s.hands[seat]
    if left == 1 and not s.called[seat]:
        s.catch = seat
    value = first.value
    amount = first.draw_amount * k
    if left == 0:
        # Going out ends the round; a last Draw Two / Wild Draw Four still counts.
        s.phase = OVER
        s.winner = seat
        s.catch = -1
        if amount and rules.last_card_draw_applies:
            s.pending += amount
            s.pending_kind = value
            s.pending_cards = k
            s.turn = c.next(s, seat)
        elif s.pending and value == "wild" and rules.last_card_draw_applies:
            s.turn = c.next(s, seat)
        else:
            s.pending = 0
            s.pending_kind = ""
            s.turn = -1
        return True, c.false_call(s, call), True
    if value == "skip":
        s.turn = c.next(s, seat, 1 + k)
    elif value == "reverse":
        if k % 2:
            s.direction = -s.direction
        if s.n == 2 and rules.reverse_skips_two_players:
            s.turn = c.next(s, seat, 1 + k)
        else:
            s.turn = c.next(s, seat)
    else:
        s.turn = (seat + s.direction) % s.n
        if amount:
            if value == "wild-draw4" and draw4_open_to_challenge(rules, s.pending, k):
                s.wd4 = (seat, s.turn)
            s.pending += amount
            s.pending_kind = value
            s.pending_cards = k
    if call is not None:
        return True, c.false_call(s, call), True
    return True, [], True


def can_jump_in(c: Context, s: GameState, cards: Sequence[Card]) -> bool:
    """May ``cards`` be played out of turn: the identical card to the top one (answering
    a Draw Two where the rules stack them)?"""
    top = s.top
    if top is None or top.is_wild or any(c is not top for c in cards):
        return False
    if s.pending:
        return top.value == "draw2" and answers_penalty(
            c.rules, s.pending_kind, s.pending_cards, cards
        )
    return True


def judge_play(c: Context, s: GameState, name: str, cards: Sequence[Card]) -> Alert | None:
    """The alert a play by the player on turn deserves, or None when it is legal."""
    rules = c.rules
    first = cards[0]
    value = first.value
    top = s.top
    assert top is not None
    if s.pending:
        kind = s.pending_kind
        if answers_penalty(rules, kind, s.pending_cards, cards):
            return None
        params = {"card": first.name, "pending": s.pending, "top": top.name}
        can_answer = may_answer_penalty(rules, kind)
        return Alert("penalty-pending", name, params, None if can_answer else "take")
    color = s.color
    if first.is_wild or color is None or first.color == color:
        # A black card goes on anything; while the color of a wild on top is not
        # named yet, the card played names it.
        return None
    if len(cards) > 1 and any(c.color == color for c in cards):
        return None
    params = {"card": first.name, "top": top.name, "color": color}
    if top.value == value:
        if not (rules.follow_color_after_penalty and s.penalty_served):
            return None
        return Alert("illegal-card", name, params, "follow-color")
    return Alert("illegal-card", name, params)


def on_color(c: Context, s: GameState, ev: Color) -> Outcome:
    """The color named for the wild on top, or the color that ends on top after several
    cards at once."""
    c.need_play(s)
    color = ev.color
    if s.multi and s.top is not None and not s.top.is_wild:
        # After several cards at once the player says which color ends on top.
        chosen = [c for c in s.multi if c.color == color]
        if not chosen:
            played = ", ".join(c.name for c in s.multi)
            raise Bad("bad-field", f"'color' {color} is not among the cards played: {played}")
        s.top = chosen[-1]
        s.color = color
        s.multi = ()
        return True, [], True
    if s.top is None or not s.top.is_wild:
        top = s.top.name if s.top else "nothing"
        raise Bad("no-wild", f"a color is named for a wild, but {top} is on top")
    s.color = color
    return True, [], True


__all__ = ["can_jump_in", "judge_play", "on_color", "on_play"]
