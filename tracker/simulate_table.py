"""The simulator's table: real cards, the hands, the piles and the bookkeeping.

:class:`SimTable` holds one round's state (hands, draw pile, discard pile, whose turn,
the pending penalty...) and answers the questions a player asks of it, with the rules
of :mod:`tracker.legal` (the ones :class:`~tracker.game.Game` judges with). The turns
are played by :class:`tracker.simulate_turns.Simulator`, its subclass.

>>> from tracker.rules import preset
>>> table = SimTable(preset("official"), players=3, seed=7)
>>> table.deal()
>>> [len(hand) for hand in table.hands], table.events[0]["type"]
([7, 7, 7], 'round')
>>> table.nxt(2)
0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from tracker import legal
from tracker.cards import COLORS, Card, full_deck
from tracker.rules import RuleSet

ACTIONS: Final = frozenset({"play", "draw", "pass"})
NAMES: Final = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10


class RoundOver(Exception):
    """The round ended (a hand emptied, or the draw pile ran out under end-round rules)."""


class SimTable:
    """One table's cards and bookkeeping, writing the events a table would produce."""

    def __init__(
        self,
        rules: RuleSet,
        players: int = 4,
        seed: int = 0,
        mistakes: float = 0.0,
        omit_rate: float = 0.2,
    ) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"UNO takes 2 to 10 players, not {players}")
        if rules.scoring == "partners" and players % 2:
            raise ValueError("partners need an even number of players")
        self.rules = rules
        self.n = players
        self.names = list(NAMES[:players])
        self.rng = random.Random(seed)
        self.mistakes = mistakes
        self.omit_rate = omit_rate  # how often optional fields (player, pass) are left out
        self.events: list[dict[str, Any]] = []
        self.dealer = self.n - 1
        # Round state (set by play_round()).
        self.hands: list[list[Card]] = []
        self.draw_pile: list[Card] = []
        self.discard: list[Card] = []
        self.top: Card | None = None
        self.color: str | None = None
        self.turn = 0
        self.direction = 1
        self.pending = 0
        self.pending_kind = ""
        self.pending_cards = 0  # cards of the last play that added to the penalty
        self.served = False
        self.drew = False  # the player on turn drew and did not pass yet
        self.called: list[bool] = []
        self.winner: int | None = None
        self.catchable: int | None = None  # down to one card, no call, window still open

    # ------------------------------------------------------------------ output

    def emit(self, event: dict[str, Any], expect: Sequence[str] = ()) -> None:
        event["expect"] = list(expect)
        self.events.append(event)
        if self.catchable is not None and not expect and event["type"] in ACTIONS:
            actor = event.get("player")
            if actor is None or actor != self.names[self.catchable]:
                self.catchable = None  # the next player acted: too late to catch

    def _who(self, event: dict[str, Any], seat: int) -> dict[str, Any]:
        """Name the player, or (sometimes, when it is their turn) leave it implied."""
        if seat != self.turn or self.rng.random() >= self.omit_rate or self.drew:
            event["player"] = self.names[seat]
        return event

    # ------------------------------------------------------------------ helpers

    def nxt(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    def take(self, seat: int, count: int) -> int:
        """Move cards from the draw pile to a hand, reshuffling as the tracker does."""
        if count > len(self.draw_pile) and self.rules.empty_draw_pile == "reshuffle":
            rest = self.discard[:-1]
            self.rng.shuffle(rest)
            self.draw_pile = rest + self.draw_pile
            self.discard = self.discard[-1:]
        count = min(count, len(self.draw_pile))
        for _ in range(count):
            self.hands[seat].append(self.draw_pile.pop())
        if count:
            self.called[seat] = False
        return count

    def available(self) -> int:
        if self.rules.empty_draw_pile == "reshuffle":
            return len(self.draw_pile) + max(len(self.discard) - 1, 0)
        return len(self.draw_pile)

    def pile_check(self) -> None:
        if self.rules.empty_draw_pile == "end-round" and not self.draw_pile:
            raise RoundOver

    def answers(self, cards: list[Card]) -> bool:
        """Whether cards answer the pending penalty (the tracker's rule)."""
        return legal.answers_penalty(self.rules, self.pending_kind, self.pending_cards, cards)

    def matches(self, card: Card) -> bool:
        """Whether one card may be played now (no penalty pending; the tracker's rule)."""
        assert self.top is not None
        return legal.matches(self.rules, self.top, self.color, self.served, card)

    def may_go_out_with(self, card: Card) -> bool:
        return legal.may_go_out_with(self.rules, card)

    def honest_draw4(self, seat: int) -> bool:
        """A Wild Draw Four is honest when the hand holds no card of the current color."""
        return not self.rules.draw4_restricted or all(
            c.color != self.color for c in self.hands[seat] if c.color is not None
        )

    def best_color(self, seat: int) -> str:
        counts = {color: 0 for color in COLORS}
        for card in self.hands[seat]:
            if card.color is not None:
                counts[card.color] += 1
        return max(COLORS, key=lambda color: (counts[color], self.rng.random()))

    # ------------------------------------------------------------------ a round

    def deal(self, hand_size: int | None = None) -> None:
        """Write the `round`, shuffle a full deck and deal; the round's state starts afresh."""
        rng = self.rng
        size = hand_size or self.rules.hand_size
        if self.rules.winner_deals and self.winner is not None:
            self.dealer = self.winner
        else:
            self.dealer = (self.dealer + 1) % self.n
        self.emit(
            {
                "type": "round",
                "players": list(self.names),
                "dealer": self.names[self.dealer],
                "hand_size": size,
            }
        )
        deck = full_deck()
        rng.shuffle(deck)
        self.hands = [[deck.pop() for _ in range(size)] for _ in range(self.n)]
        self.draw_pile = deck
        self.discard = []
        self.direction = 1
        self.pending = 0
        self.pending_kind = ""
        self.served = False
        self.drew = False
        self.called = [False] * self.n
        self.winner = None
        self.catchable = None

    def flip(self) -> None:
        first = (self.dealer + 1) % self.n
        while True:
            card = self.draw_pile.pop()
            again = card.value == "wild-draw4" or (
                card.value == "wild" and self.rules.first_wild == "turn-again"
            )
            if not again:
                break
            self.emit({"type": "flip", "card": card.name})
            self.draw_pile.insert(self.rng.randrange(len(self.draw_pile) + 1), card)
        self.discard = [card]
        self.top = card
        self.turn = first
        self.color = card.color
        event: dict[str, Any] = {"type": "flip", "card": card.name}
        if card.is_wild:
            self.color = self.best_color(first)
            if self.rng.random() < 0.5:
                event["color"] = self.color
                self.emit(event)
            else:
                self.emit(event)
                self.emit({"type": "color", "color": self.color})
            return
        self.emit(event)
        if self.rules.first_card_actions:
            if card.value == "skip":
                self.turn = self.nxt(first)
            elif card.value == "reverse":
                self.direction = -1
                if self.rules.first_reverse == "right-of-dealer":
                    self.turn = self.nxt(self.dealer)
                else:
                    self.turn = self.dealer
            elif card.value == "draw2":
                self.pending = 2
                self.pending_kind = "draw2"
                self.pending_cards = 1

    def end_round(self) -> None:
        hands = {
            name: [c.name for c in hand] for name, hand in zip(self.names, self.hands, strict=True)
        }
        self.emit({"type": "end-round", "hands": hands})

    # ------------------------------------------------------------------ may a card go

    def _allowed_single(self, seat: int, card: Card) -> bool:
        hand = self.hands[seat]
        if len(hand) == 1 and not self.may_go_out_with(card):
            return False
        if card.value == "wild-draw4":
            return self.honest_draw4(seat)
        return True

    def could_jump_in(self, card: Card) -> bool:
        """Whether ``card`` (another player's) is the top card's twin, played out of turn."""
        top = self.top
        return (
            self.rules.jump_in
            and top is not None
            and not top.is_wild
            and card is top
            and (not self.pending or (top.value == "draw2" and self.answers([card])))
        )

    def penalise(self, seat: int, penalty: int) -> None:
        """The wrong-card penalty: ``penalty`` cards from the draw pile (none for 0)."""
        if penalty:
            self.take(seat, penalty)
            self.pile_check()
