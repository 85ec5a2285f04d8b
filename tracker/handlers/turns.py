"""The rules of a turn besides the play: ``draw``, ``pass``, ``uno``, ``catch`` (a
missed UNO call reported) and ``challenge`` (of a Wild Draw Four).

>>> from tracker.events import parse_event
>>> from tracker.handlers.common import Context
>>> from tracker.handlers.rounds import on_flip, on_round
>>> from tracker.rules import OFFICIAL
>>> from tracker.state import GameState
>>> c, s = Context(OFFICIAL), GameState()
>>> _ = on_round(c, s, parse_event({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"}))
>>> _ = on_flip(c, s, parse_event({"type": "flip", "card": "red-5"}))
>>> on_pass(c, s, parse_event({"type": "pass"}))
Traceback (most recent call last):
...
tracker.handlers.common.Bad: Ann must draw a card before passing
>>> on_draw(c, s, parse_event({"type": "draw"})), s.hands
((True, [], True), [8, 7])
"""

from __future__ import annotations

from tracker.events import Catch, Challenge, Draw, Pass, Uno
from tracker.handlers.common import Bad, Context, Outcome
from tracker.messages import Alert
from tracker.state import OVER, PLAY, GameState


def on_draw(c: Context, s: GameState, ev: Draw) -> Outcome:
    """Cards taken from the draw pile: a turn's draw, or a penalty taken."""
    rules = c.rules
    if not (s.phase == OVER and s.pending):
        c.need_play(s)
    count = 1 if ev.count is None else ev.count
    seat = c.seat(s, ev.player)
    name = s.players[seat]
    implied_pass = False
    if seat != s.turn:
        if s.phase == PLAY and s.drew and s.pending == 0 and seat == c.next(s, s.turn):
            implied_pass = True
        else:
            alert = Alert("out-of-turn", name, {"turn": c.name(s, s.turn)}, "draw")
            return False, [alert], False
    pending = 0 if implied_pass else s.pending
    if pending:
        if count > pending:
            raise Bad("bad-field", f"{name} takes the {pending} penalty cards, not {count}", name)
    elif not rules.draw_until_playable:
        if s.drew and not implied_pass:
            raise Bad("already-drew", f"{name} already drew a card this turn", name)
        if count > 1:
            raise Bad("bad-field", f"{name} draws one card on a turn under these rules", name)
    if count > c.available(s):
        raise Bad("empty-pile", f"only {c.available(s)} card(s) are left to draw", name)
    if implied_pass:
        s.turn = seat
    if s.catch != seat:
        s.catch = -1
    s.wd4 = None
    s.auto_passed = -1
    c.take(s, seat, count)
    if pending:
        s.pending -= count
        if s.pending == 0:
            s.pending_kind = ""
            s.penalty_served = True
            s.turn = c.next(s, seat) if s.phase == PLAY else -1
    else:
        s.drew = True
        if not rules.play_drawn_card and not rules.draw_until_playable:
            s.drew = False
            s.auto_passed = seat
            s.turn = c.next(s, seat)
    c.pile_check(s)
    if s.provisional_call is not None:
        call, s.provisional_call = s.provisional_call, None
        return True, c.false_call(s, call), True
    return True, [], True


def on_pass(c: Context, s: GameState, ev: Pass) -> Outcome:
    """A turn ends after drawing."""
    c.need_play(s)
    seat = c.seat(s, ev.player)
    name = s.players[seat]
    if seat != s.turn:
        if seat == s.auto_passed:
            return True, [], False  # drawing already ended that turn
        alert = Alert("out-of-turn", name, {"turn": c.name(s, s.turn)}, "pass")
        return False, [alert], False
    if s.pending:
        raise Bad("must-draw-penalty", f"{name} must take the {s.pending} cards", name)
    if not s.drew and c.available(s) > 0:
        # (With nothing left to draw, a player who cannot play just passes.)
        raise Bad("must-draw", f"{name} must draw a card before passing", name)
    if s.catch != seat:
        s.catch = -1
    s.wd4 = None
    s.drew = False
    s.turn = c.next(s, seat)
    if s.provisional_call is not None:
        call, s.provisional_call = s.provisional_call, None
        return True, c.false_call(s, call), True
    return True, [], True


def on_uno(c: Context, s: GameState, ev: Uno) -> Outcome:
    """A UNO call: true with two cards or one, false (a penalty, where the rules
    give one) with more, or settled by the play that follows several cards at once."""
    c.need_play(s)
    seat = c.seat(s, ev.player)
    held = s.hands[seat]
    if held > 2 and c.rules.multi_play and seat == s.turn:
        # Before several cards at once: the play that follows says whether it was true.
        changed = s.provisional_call != (seat, held)
        s.provisional_call = (seat, held)
        return True, [], changed
    # The call counts just before (2 cards) or just after (1 card) the next-to-last card.
    if held in (1, 2):
        changed = not s.called[seat] or s.catch == seat
        s.called[seat] = True
        if s.catch == seat:
            s.catch = -1
        return True, [], changed
    penalty = c.rules.false_uno_penalty
    if penalty:
        taken = c.take(s, seat, penalty)
        c.pile_check(s)
        alert = Alert("false-uno", s.players[seat], {"hand": held, "count": taken})
        return False, [alert], True
    return True, [], False


def on_catch(c: Context, s: GameState, ev: Catch) -> Outcome:
    """A player caught not calling UNO, before the next player acted: the penalty."""
    if s.phase not in (PLAY, OVER):
        c.need_play(s)
    seat = c.seat(s, ev.player)
    by = c.seat(s, ev.by, "by")
    name = s.players[seat]
    if by == seat:
        raise Bad("bad-field", f"{name} cannot catch themselves", name)
    if s.catch != seat:
        if s.hands[seat] != 1:
            why = f"{name} holds {s.hands[seat]} cards"
        elif s.called[seat]:
            why = f"{name} called UNO"
        else:
            why = "too late: the next player has already acted"
        raise Bad("catch-rejected", f"the catch does not stand: {why}", name)
    taken = c.take(s, seat, c.rules.uno_penalty)
    s.catch = -1
    c.pile_check(s)
    params = {"by": s.players[by], "count": taken}
    return True, [Alert("missed-uno", name, params)], True


def on_challenge(c: Context, s: GameState, ev: Challenge) -> Outcome:
    """The victim of a Wild Draw Four challenges it; the referee's ``guilty``
    says who draws."""
    rules = c.rules
    c.need_play(s)
    if not (rules.draw4_restricted and rules.draw4_challenge):
        raise Bad("no-challenge", "these rules have no Wild Draw Four challenge")
    guilty = ev.guilty
    seat = c.seat(s, ev.player)
    name = s.players[seat]
    if s.wd4 is None or s.wd4[1] != seat:
        raise Bad(
            "no-challenge",
            f"{name} cannot challenge now: only the victim of the Wild Draw Four just "
            "played, before acting",
            name,
        )
    offender, victim = s.wd4
    s.wd4 = None
    if guilty:
        taken = c.take(s, offender, rules.challenge_guilty_draw)
        s.pending = max(s.pending - 4, 0)
        if s.pending == 0:
            s.pending_kind = ""
            if rules.challenge_guilty_victim_loses_turn:
                s.turn = c.next(s, victim)
        c.pile_check(s)
        alert = Alert("wild-draw4-bluff", s.players[offender], {"count": taken, "by": name})
        return True, [alert], True
    c.take(s, victim, s.pending + rules.challenge_wrong_draw - 4)
    s.pending = 0
    s.pending_kind = ""
    s.penalty_served = True
    s.turn = c.next(s, victim)
    c.pile_check(s)
    return True, [], True


__all__ = ["on_catch", "on_challenge", "on_draw", "on_pass", "on_uno"]
