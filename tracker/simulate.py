"""A random-game simulator: event logs of legal play with deliberate mistakes.

The simulator deals real shuffled cards and keeps every hand; which plays are legal it
asks :mod:`tracker.legal`, the rules the tracker's :class:`~tracker.game.Game` judges
with (so it cannot read a rule differently); each event it writes carries ``expect``, the
alert codes a correct referee answers it with. A rate of deliberate mistakes (a card
that does not match, a play out of turn, a missed UNO call that gets caught, a bluffed
Wild Draw Four that gets challenged, a malformed event...) exercises the alerts.

>>> events = simulate(preset("official"), players=3, seed=7, rounds=1)
>>> events[0]["type"], events[-1]["type"]
('round', 'end-round')

From the shell (one JSON object per line, ``expect`` included):

    python -m tracker.simulate --rules house --players 5 --mistakes 0.1 --seed 3
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, Final

from tracker import legal
from tracker.cards import COLORS, Card, full_deck
from tracker.rules import PRESETS, RuleSet, preset

ACTIONS: Final = frozenset({"play", "draw", "pass"})
NAMES: Final = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")

#: The deliberate mistakes, each with the alert it should raise.
MISTAKES: Final = (
    "illegal-card",
    "out-of-turn",
    "penalty-pending",
    "missed-uno",
    "late-catch",
    "bluff",
    "wrong-challenge",
    "illegal-last-card",
    "bad-event",
)


class _RoundOver(Exception):
    """The round ended (a hand emptied, or the draw pile ran out under end-round rules)."""


class Simulator:
    """Plays whole rounds with real cards, writing the events a table would produce."""

    def __init__(
        self,
        rules: RuleSet,
        players: int = 4,
        seed: int = 0,
        mistakes: float = 0.0,
        omit_rate: float = 0.2,
    ) -> None:
        if not 2 <= players <= 10:
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
            raise _RoundOver

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

    def play_round(self, hand_size: int | None = None) -> None:
        """Deal, play until the round ends, and write the `end-round`."""
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
        self.flip()
        try:
            steps = 0
            while True:
                steps += 1
                if steps > 5000:  # a stalemate (everyone holds unplayable cards)
                    break
                self.step()
        except _RoundOver:
            pass
        self.end_round()

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

    # ------------------------------------------------------------------ a turn

    def step(self) -> None:
        rng = self.rng
        last = self.hands[self.turn]
        if (
            self.mistakes
            and len(last) == 1
            and not self.may_go_out_with(last[0])
            and rng.random() < min(1.0, self.mistakes * 5)
        ):
            self.make_mistake("illegal-last-card")  # tempting, and a rare chance
        elif self.mistakes and rng.random() < self.mistakes:
            # The first kind of mistake (in random order) that fits the moment.
            for kind in rng.sample(MISTAKES, len(MISTAKES)):
                written = len(self.events)
                self.make_mistake(kind)
                if len(self.events) > written:
                    break
        if self.rules.jump_in and rng.random() < 0.3 and self.jump_in():
            return
        seat = self.turn
        hand = self.hands[seat]
        if self.pending:
            options = [[c] for c in hand if self.answers([c])]
            if self.rules.multi_play:
                for color in COLORS:
                    pair = [c for c in hand if c.value == "draw2" and c.color == color]
                    if len(pair) == 2 and self.answers(pair):
                        options.append(pair)
            options = [o for o in options if len(o) < len(hand) or self.may_go_out_with(o[0])]
            if options and rng.random() < 0.8:
                self.play(seat, rng.choice(options))
                return
            self.draw(seat, self.pending)
            return
        if self.drew:
            # Drew on this turn: play a playable card or pass.
            drawn = hand[-1]
            if self.matches(drawn) and self._allowed_single(seat, drawn):
                self.play(seat, [drawn])
            elif self.rules.draw_until_playable and self.available() and rng.random() < 0.9:
                self.draw(seat, 1)
            else:
                self.pass_turn(seat)
            return
        playable = [c for c in hand if self.matches(c) and self._allowed_single(seat, c)]
        if playable and rng.random() < 0.95:
            card = rng.choice(playable)
            cards = [card]
            if self.rules.multi_play and rng.random() < 0.6:
                same = [c for c in hand if c is not card and c.value == card.value]
                if card.is_wild:
                    same = []
                cards += same[: rng.randint(0, len(same))]
                if len(cards) == len(hand) and not self.may_go_out_with(card):
                    cards = [card]
            self.play(seat, cards)
            return
        if not self.available():
            raise _RoundOver  # nothing left to draw: the referee ends the round
        self.draw(seat, 1)

    def jump_in(self) -> bool:
        """Someone holding the card identical to the top card plays it out of turn."""
        for other in self.rng.sample(range(self.n), self.n):
            if other == self.turn:
                continue
            hand = self.hands[other]
            for card in hand:
                if self._could_jump_in(card) and (len(hand) > 1 or self.may_go_out_with(card)):
                    self.play(other, [card])
                    return True
        return False

    def _allowed_single(self, seat: int, card: Card) -> bool:
        hand = self.hands[seat]
        if len(hand) == 1 and not self.may_go_out_with(card):
            return False
        if card.value == "wild-draw4":
            return self.honest_draw4(seat)
        return True

    def play(
        self,
        seat: int,
        cards: list[Card],
        bluff: bool = False,
    ) -> None:
        """A legal play (or a bluffed Wild Draw Four, challenged at once)."""
        rng = self.rng
        hand = self.hands[seat]
        left = len(hand) - len(cards)
        name = self.names[seat]
        called_before = False
        if left == 1 and len(cards) == 1 and rng.random() < 0.5:
            self.emit({"type": "uno", "player": name})
            self.called[seat] = True
            called_before = True
        event: dict[str, Any] = {"type": "play"}
        event = self._who(event, seat)
        if len(cards) == 1:
            event["card"] = cards[0].name
        else:
            event["cards"] = [c.name for c in cards]
        first = cards[0]
        for card in cards:
            hand.remove(card)
        self.discard.extend(cards)
        if first.is_wild:
            named = self.best_color(seat)
            late_color = rng.random() < 0.3 and left > 0
            if not late_color:
                event["color"] = named
        else:
            named = None
            late_color = False
            top_color = cards[-1].color
            if len(cards) > 1 and rng.random() < 0.5:
                top_color = rng.choice([c.color for c in cards])
                event["color"] = top_color
            self.discard.remove(next(c for c in reversed(cards) if c.color == top_color))
            self.discard.append(next(c for c in reversed(cards) if c.color == top_color))
        self.emit(event)
        self.drew = False
        self.top = self.discard[-1]
        self.color = named if first.is_wild else self.top.color
        if late_color:
            self.emit({"type": "color", "color": named})
        self.served = False
        k = len(cards)
        value = first.value
        amount = first.draw_amount * k
        if left == 0:
            self.winner = seat
            if amount and self.rules.last_card_draw_applies:
                self.pending += amount
                self.pending_cards = k
                victim = self.nxt(seat)
                self.turn = victim
                self.draw(victim, self.pending)
            raise _RoundOver
        if left == 1 and not called_before:
            self._after_next_to_last(seat)
        if value == "skip":
            self.turn = self.nxt(seat, 1 + k)
        elif value == "reverse":
            if k % 2:
                self.direction = -self.direction
            if self.n == 2 and self.rules.reverse_skips_two_players:
                self.turn = self.nxt(seat, 1 + k)
            else:
                self.turn = self.nxt(seat)
        else:
            self.turn = self.nxt(seat)
            if amount:
                open_to_challenge = legal.draw4_open_to_challenge(self.rules, self.pending, k)
                self.pending += amount
                self.pending_kind = value
                self.pending_cards = k
                if value == "wild-draw4" and open_to_challenge:
                    self._maybe_challenge(seat, bluff=bluff)

    def _after_next_to_last(self, seat: int) -> None:
        """Down to one card without calling yet: call now, or forget (and maybe get caught)."""
        rng = self.rng
        name = self.names[seat]
        if self.mistakes and rng.random() < self.mistakes:
            self.catchable = seat  # forgot, and nobody noticed (yet)
            return
        if self.mistakes and rng.random() < self.mistakes * 3:
            others = [s for s in range(self.n) if s != seat]
            by = self.names[rng.choice(others)]
            self.take(seat, self.rules.uno_penalty)
            self.emit({"type": "catch", "player": name, "by": by}, ["missed-uno"])
            self.pile_check()
            return
        self.emit({"type": "uno", "player": name})
        self.called[seat] = True

    def _maybe_challenge(self, offender: int, bluff: bool) -> None:
        rules = self.rules
        if not rules.draw4_challenge:
            return
        victim = self.turn
        if bluff:
            self.emit(
                {"type": "challenge", "player": self.names[victim], "guilty": True},
                ["wild-draw4-bluff"],
            )
            self.take(offender, rules.challenge_guilty_draw)
            self.pending = max(self.pending - 4, 0)
            if self.pending == 0:
                self.pending_kind = ""
                if rules.challenge_guilty_victim_loses_turn:
                    self.turn = self.nxt(victim)
            self.pile_check()
        elif self.mistakes and self.rng.random() < self.mistakes * 3:
            self.emit({"type": "challenge", "player": self.names[victim], "guilty": False})
            self.take(victim, self.pending + rules.challenge_wrong_draw - 4)
            self.pending = 0
            self.pending_kind = ""
            self.served = True
            self.turn = self.nxt(victim)
            self.pile_check()

    def draw(self, seat: int, count: int) -> None:
        rng = self.rng
        event = self._who({"type": "draw"}, seat)
        if count != 1 or rng.random() < 0.5:
            event["count"] = count
        if self.pending:
            count = min(count, self.pending)
        got = self.take(seat, count)
        if got < count:
            # Not enough cards anywhere: the referee ends the round instead.
            for _ in range(got):
                self.draw_pile.append(self.hands[seat].pop())
            raise _RoundOver
        self.emit(event)
        if self.pending:
            self.pending -= count
            if self.pending == 0:
                self.pending_kind = ""
                self.served = True
                self.pile_check()
                if self.winner is not None:
                    return
                self.turn = self.nxt(seat)
            return
        self.pile_check()
        self.drew = True
        if not self.rules.play_drawn_card and not self.rules.draw_until_playable:
            self.drew = False
            self.turn = self.nxt(seat)
            if rng.random() < 0.3:
                self.emit({"type": "pass", "player": self.names[seat]})

    def pass_turn(self, seat: int) -> None:
        self.drew = False
        nxt = self.nxt(seat)
        # Sometimes nobody records the pass: the next player's own play or draw implies it.
        next_acts = not self.pending and self.rng.random() < self.omit_rate
        if not next_acts:
            self.emit(self._who({"type": "pass", "player": self.names[seat]}, seat))
            self.turn = nxt
            return
        self.turn = nxt
        # Make sure the next event is the next player's play or draw, naming them.
        self.step_named(nxt)

    def step_named(self, seat: int) -> None:
        """The next player acts at once (play or draw), naming themselves."""
        hand = self.hands[seat]
        playable = [c for c in hand if self.matches(c) and self._allowed_single(seat, c)]
        if playable:
            card = self.rng.choice(playable)
            before = self.omit_rate
            self.omit_rate = 0.0
            try:
                self.play(seat, [card])
            finally:
                self.omit_rate = before
        elif self.available():
            self.emit({"type": "draw", "player": self.names[seat]})
            self.take(seat, 1)
            self.pile_check()
            self.drew = True
            if not self.rules.play_drawn_card and not self.rules.draw_until_playable:
                self.drew = False
                self.turn = self.nxt(seat)
        else:
            raise _RoundOver

    # ------------------------------------------------------------------ mistakes

    def make_mistake(self, kind: str) -> None:
        """Write one deliberate mistake; the state only changes by its penalty."""
        rng = self.rng
        seat = self.turn
        name = self.names[seat]
        hand = self.hands[seat]
        penalty = self.rules.wrong_card_penalty
        if kind == "illegal-card" and not self.pending and not self.drew:
            wrong = [c for c in hand if not self.matches(c)]
            if wrong and len(hand) > 1:
                self.emit(
                    {"type": "play", "card": rng.choice(wrong).name, "player": name},
                    ["illegal-card"],
                )
                self._penalise(seat, penalty)
        elif kind == "penalty-pending" and self.pending:
            wrong = [c for c in hand if not self.answers([c])]
            if wrong and len(hand) > 1:
                self.emit(
                    {"type": "play", "card": rng.choice(wrong).name, "player": name},
                    ["penalty-pending"],
                )
                self._penalise(seat, penalty)
        elif kind == "illegal-last-card" and len(hand) == 1 and not self.pending:
            card = hand[0]
            if not self.may_go_out_with(card) and self.matches(card) and not self.drew:
                self.emit(
                    {"type": "play", "card": card.name, "player": name}, ["illegal-last-card"]
                )
                self._penalise(seat, penalty)
        elif kind == "out-of-turn":
            others = [s for s in range(self.n) if s != seat]
            if self.drew:
                others = [s for s in others if s != self.nxt(seat)]
            if others:
                other = rng.choice(others)
                cards = [c for c in self.hands[other] if not self._could_jump_in(c)]
                if cards:
                    card = rng.choice(cards)
                    self.emit(
                        {"type": "play", "card": card.name, "player": self.names[other]},
                        ["out-of-turn"],
                    )
        elif kind == "bluff" and not self.pending and not self.drew:
            bluffs = [c for c in hand if c.value == "wild-draw4"]
            if (
                bluffs
                and len(hand) > 2
                and self.rules.draw4_restricted
                and self.rules.draw4_challenge
                and not self.honest_draw4(seat)
            ):
                self.play(seat, [bluffs[0]], bluff=True)
        elif kind == "wrong-challenge":
            pass  # made when an honest Wild Draw Four is played (see _maybe_challenge)
        elif kind == "late-catch":
            forgot = [
                s
                for s in range(self.n)
                if len(self.hands[s]) == 1 and not self.called[s] and s != seat
            ]
            if forgot:
                caught = rng.choice(forgot)
                event = {"type": "catch", "player": self.names[caught], "by": name}
                if caught == self.catchable:
                    self.emit(event, ["missed-uno"])
                    self.catchable = None
                    self.take(caught, self.rules.uno_penalty)
                    self.pile_check()
                else:
                    self.emit(event, ["bad-event"])
        elif kind == "bad-event":
            broken: dict[str, Any] = rng.choice(
                [
                    {"type": "play", "card": "purple-3"},
                    {"type": "play", "card": "red-7", "player": "Nobody"},
                    {"type": "shuffle"},
                    {"type": "draw", "count": 0},
                    {"type": "color", "color": "pink"},
                ]
            )
            self.emit(dict(broken), ["bad-event"])

    def _could_jump_in(self, card: Card) -> bool:
        top = self.top
        return (
            self.rules.jump_in
            and top is not None
            and not top.is_wild
            and card is top
            and (not self.pending or (top.value == "draw2" and self.answers([card])))
        )

    def _penalise(self, seat: int, penalty: int) -> None:
        if penalty:
            self.take(seat, penalty)
            self.pile_check()


def simulate(
    rules: RuleSet,
    players: int = 4,
    seed: int = 0,
    mistakes: float = 0.0,
    rounds: int | None = 1,
    events: int | None = None,
) -> list[dict[str, Any]]:
    """Event dicts (each with ``expect``) for ``rounds`` rounds or at least ``events`` events.

    With ``events``, rounds are played until the log holds that many, then it is cut there.
    """
    sim = Simulator(rules, players=players, seed=seed, mistakes=mistakes)
    played = 0
    while True:
        sim.play_round()
        played += 1
        if events is not None and len(sim.events) >= events:
            return sim.events[:events]
        if events is None and rounds is not None and played >= rounds:
            return sim.events


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tracker.simulate",
        description="Write a simulated UNO event log (JSON Lines) with the expected alerts.",
    )
    parser.add_argument("--rules", default="official", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=4, help="2 to 10 (default 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--mistakes", type=float, default=0.0, help="rate of deliberate mistakes per turn (0-1)"
    )
    parser.add_argument("--rounds", type=int, default=1, help="rounds to play (default 1)")
    parser.add_argument("--events", type=int, help="play until the log holds this many events")
    parser.add_argument("--no-expect", action="store_true", help="leave out the 'expect' lists")
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 10:
        parser.error("--players must be 2 to 10")
    log = simulate(
        preset(args.rules),
        players=args.players,
        seed=args.seed,
        mistakes=args.mistakes,
        rounds=args.rounds,
        events=args.events,
    )
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        for event in log:
            if args.no_expect:
                event.pop("expect", None)
            out.write(json.dumps(event) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
