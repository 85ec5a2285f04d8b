"""The simulator's players: whole rounds of turns, legal play and the odd mistake.

:class:`Simulator` plays on a :class:`~tracker.simulate_table.SimTable`: per turn it
maybe makes a deliberate mistake (:mod:`tracker.simulate_mistakes`), then plays,
draws or passes the way players do, answering penalties, challenges and UNO calls.

>>> from tracker.rules import preset
>>> sim = Simulator(preset("house"), players=4, seed=3)
>>> sim.play_round()
>>> sim.events[-1]["type"], sum(e["type"] == "round" for e in sim.events)
('end-round', 1)
"""

from __future__ import annotations

from typing import Any, Final

from tracker import legal
from tracker.cards import COLORS, Card
from tracker.simulate_mistakes import MISTAKES, make_mistake
from tracker.simulate_table import RoundOver, SimTable

MAX_STEPS: Final = 5000  # a round stops here: a stalemate (everyone holds unplayable cards)


class Simulator(SimTable):
    """Plays whole rounds with real cards, writing the events a table would produce."""

    # ------------------------------------------------------------------ a round

    def play_round(self, hand_size: int | None = None) -> None:
        """Deal, play until the round ends, and write the `end-round`."""
        self.deal(hand_size)
        self.flip()
        try:
            steps = 0
            while True:
                steps += 1
                if steps > MAX_STEPS:
                    break
                self.step()
        except RoundOver:
            pass
        self.end_round()

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
            raise RoundOver  # nothing left to draw: the referee ends the round
        self.draw(seat, 1)

    def jump_in(self) -> bool:
        """Someone holding the card identical to the top card plays it out of turn."""
        for other in self.rng.sample(range(self.n), self.n):
            if other == self.turn:
                continue
            hand = self.hands[other]
            for card in hand:
                if self.could_jump_in(card) and (len(hand) > 1 or self.may_go_out_with(card)):
                    self.play(other, [card])
                    return True
        return False

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
            raise RoundOver
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
            raise RoundOver
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
            raise RoundOver

    # ------------------------------------------------------------------ mistakes

    def make_mistake(self, kind: str) -> None:
        """Write one deliberate mistake; the state only changes by its penalty."""
        make_mistake(self, kind)
