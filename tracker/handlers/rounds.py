"""The rules of a round's start and end: ``round`` (the deal), ``flip`` (the starter
card) and ``end-round`` (the hands shown, the round scored).

>>> from tracker.events import parse_event
>>> from tracker.handlers.common import Context
>>> from tracker.rules import OFFICIAL
>>> from tracker.state import GameState
>>> c, s = Context(OFFICIAL), GameState()
>>> on_round(c, s, parse_event({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"}))
(True, [], True)
>>> on_flip(c, s, parse_event({"type": "flip", "card": "red-skip"}))[0], s.players[s.turn]
(True, 'Bob')
"""

from __future__ import annotations

from tracker.cards import DECK_SIZE, Card, hand_points
from tracker.events import EndRound, Flip, Round
from tracker.handlers.common import Bad, Context, Outcome
from tracker.messages import Alert
from tracker.scoring import match_winner, round_deltas
from tracker.state import FLIP, MATCH_OVER, OVER, PLAY, WAITING, GameState


def on_round(c: Context, s: GameState, ev: Round) -> Outcome:
    """A round is dealt; the first one of a match fixes the seating."""
    if s.phase in (FLIP, PLAY, OVER):
        raise Bad("round-in-progress", f"round {s.round_no} is still in progress: end it first")
    new_match = s.phase == MATCH_OVER or not s.players
    names = ev.players
    if names is None:
        if new_match:
            raise Bad("bad-field", "the first round needs 'players' (clockwise order)")
        players = s.players
    else:
        players = names
        if not 2 <= len(players) <= 10:
            raise Bad("bad-field", f"UNO takes 2 to 10 players, not {len(players)}")
        if not new_match and players != s.players:
            raise Bad(
                "bad-field",
                f"the first round fixed the seating: {', '.join(s.players)}",
            )
    n = len(players)
    hand_size = c.rules.hand_size if ev.hand_size is None else ev.hand_size
    if not 1 <= hand_size <= 15 or n * hand_size >= DECK_SIZE:
        raise Bad("bad-field", f"'hand_size' must be a whole number 1..15, not {hand_size!r}")
    dealer_name = ev.dealer
    if dealer_name is None:
        # No dealer named: the first player listed plays first.
        dealer = len(players) - 1 if new_match else s.next_dealer
    elif dealer_name in players:
        dealer = players.index(dealer_name)
    else:
        raise Bad("unknown-player", f"unknown dealer {dealer_name!r}")
    if c.rules.scoring == "partners" and n % 2:
        raise Bad("bad-field", f"partners need an even number of players, not {n}")
    if new_match:
        s.players = players
        s.index = {name: seat for seat, name in enumerate(players)}
        s.n = n
        s.totals = [0] * n
        s.round_scores = []
        s.round_no = 0
        s.match_winner = None
    s.round_no += 1
    s.phase = FLIP
    s.dealer = dealer
    s.next_dealer = (dealer + 1) % n
    s.direction = 1
    s.turn = (dealer + 1) % n
    s.top = None
    s.color = None
    s.pending = 0
    s.pending_kind = ""
    s.penalty_served = False
    s.drew = False
    s.auto_passed = -1
    s.hands = [hand_size] * n
    s.called = [False] * n
    s.catch = -1
    s.wd4 = None
    s.provisional_call = None
    s.draw_pile = DECK_SIZE - n * hand_size
    s.discard = 0
    s.discard_counts = {}
    s.winner = -1
    return True, [], True


def on_flip(c: Context, s: GameState, ev: Flip) -> Outcome:
    """The starter card is turned up (a Wild Draw Four, or a wild under some rules, goes
    back into the deck); its action, where the rules apply one."""
    if s.phase != FLIP:
        if s.phase == PLAY:
            raise Bad("already-flipped", "the starter card is already turned up")
        c.need_play(s)
    card, color = ev.card, ev.color
    c.check_copies(s, [card])
    first = (s.dealer + 1) % s.n
    turn_again = card.value == "wild-draw4" or (
        card.value == "wild" and c.rules.first_wild == "turn-again"
    )
    if turn_again:
        # Returned to the pile (shuffled in) and another card is turned up.
        return True, [], False
    s.draw_pile -= 1
    s.discard = 1
    s.discard_counts = {card.name: 1}
    s.top = card
    s.phase = PLAY
    s.turn = first
    s.color = color if card.is_wild else card.color
    if c.rules.first_card_actions:
        if card.value == "skip":
            s.turn = c.next(s, first)
        elif card.value == "reverse":
            # Play goes to the right, from the dealer (or the dealer's right).
            s.direction = -1
            right = c.rules.first_reverse == "right-of-dealer"
            s.turn = c.next(s, s.dealer) if right else s.dealer
        elif card.value == "draw2":
            s.pending = 2
            s.pending_kind = "draw2"
            s.pending_cards = 1
    return True, [], True


def on_end_round(c: Context, s: GameState, ev: EndRound) -> Outcome:
    """The hands are shown: the round is scored, the match may be won; the scores go in
    the verdict (``c.extra``)."""
    rules = c.rules
    if s.phase not in (FLIP, PLAY, OVER):
        if s.phase == MATCH_OVER:
            raise Bad("no-round", f"the match is over: {s.match_winner} won")
        c.need_play(s)
    hands: list[list[Card]] = [[] for _ in s.players]
    for player, shown in ev.hands:
        seat = s.index.get(player)
        if seat is None:
            raise Bad("unknown-player", f"unknown player {player!r} in 'hands'")
        hands[seat] = list(shown)
    alerts: list[Alert] = []
    for seat, cards in enumerate(hands):
        expected = s.hands[seat]
        owed = s.pending if seat == s.turn and s.phase == OVER else 0
        if len(cards) not in (expected, expected + owed):
            params = {"shown": len(cards), "expected": expected + owed}
            alerts.append(Alert("bad-event", s.players[seat], params, "hand-mismatch"))
    points = [hand_points(cards, rules.points) for cards in hands]
    winner: int | None = s.winner if s.winner >= 0 else None
    if winner is None:
        empty = [seat for seat, cards in enumerate(hands) if not cards]
        lowest = min(points)
        if len(empty) == 1:
            winner = empty[0]
        elif not empty and points.count(lowest) == 1:
            winner = points.index(lowest)
    deltas = round_deltas(rules.scoring, points, winner, rules.stake)
    s.totals = [t + d for t, d in zip(s.totals, deltas, strict=True)]
    players = s.players
    result = {
        "number": s.round_no,
        "winner": players[winner] if winner is not None else None,
        "points": dict(zip(players, deltas, strict=True)),
        "hand_points": dict(zip(players, points, strict=True)),
    }
    s.round_scores = [*s.round_scores, result]
    s.match_winner = match_winner(rules.scoring, s.totals, players, rules.target_score)
    if rules.winner_deals and winner is not None:
        s.next_dealer = winner
    else:
        s.next_dealer = (s.dealer + 1) % s.n
    s.phase = MATCH_OVER if s.match_winner is not None else WAITING
    s.hands = [len(cards) for cards in hands]
    s.stop_turns()
    s.drew = False
    c.extra = {
        "round": result,
        "totals": dict(zip(players, s.totals, strict=True)),
        "match_winner": s.match_winner,
    }
    return True, alerts, True


__all__ = ["on_end_round", "on_flip", "on_round"]
