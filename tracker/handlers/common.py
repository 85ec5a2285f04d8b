"""What every event handler shares: the :class:`Context` (the rules in force, what the
last event adds to its verdict, and the steps the rules repeat: whose seat, next seat,
drawing cards, a refused play), and :class:`Bad`, the input the tracker cannot apply.

A handler takes the context, the state and a typed event; it changes the state in
place and says ``(ok, alerts, changed)``:

>>> from tracker.rules import OFFICIAL
>>> from tracker.state import GameState
>>> c, s = Context(OFFICIAL), GameState()
>>> c.need_play(s)
Traceback (most recent call last):
...
tracker.handlers.common.Bad: no round in progress: start one with a 'round' event
>>> describe_values(frozenset({"1", "2", "3", "skip"}))
'1-3, skip'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tracker.cards import COPIES, Card
from tracker.messages import Alert
from tracker.rules import RuleSet
from tracker.state import FLIP, OVER, PLAY, GameState

#: What a handler says: the event was legal, its alerts, and whether the state changed.
Outcome = tuple[bool, list[Alert], bool]


class Bad(Exception):
    """Input the tracker cannot apply; becomes a ``bad-event`` alert."""

    def __init__(self, reason: str, detail: str, player: str | None = None) -> None:
        super().__init__(detail)
        self.alert = Alert("bad-event", player, {"reason": reason, "detail": detail})


class Context:
    """What a handler knows besides the state: ``rules``, and ``extra`` (what the
    verdict of the event adds, e.g. an end-round's scores; None for most events)."""

    __slots__ = ("extra", "rules")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.extra: dict[str, Any] | None = None

    def name(self, s: GameState, seat: int) -> str | None:
        return s.players[seat] if seat >= 0 else None

    def seat(self, s: GameState, name: str | None, key: str = "player") -> int:
        """The seat of the player ``name``; absent means whoever's turn it is."""
        if name is None:
            if key != "player" or s.turn < 0:
                raise Bad("bad-field", f"the event needs a {key!r}")
            return s.turn
        seat = s.index.get(name)
        if seat is None:
            raise Bad(
                "unknown-player",
                f"unknown player {name!r} (players: {', '.join(s.players) or 'none yet'})",
            )
        return seat

    def need_play(self, s: GameState) -> None:
        if s.phase == PLAY:
            return
        if s.phase == FLIP:
            raise Bad("need-flip", "turn up the starter card first (a 'flip' event)")
        if s.phase == OVER:
            raise Bad("round-over", "the round is over: send 'end-round' with the hands")
        raise Bad("no-round", "no round in progress: start one with a 'round' event")

    def next(self, s: GameState, seat: int, steps: int = 1) -> int:
        return (seat + s.direction * steps) % s.n

    def available(self, s: GameState) -> int:
        """Cards that can still be drawn (after a reshuffle, where the rules do one)."""
        if self.rules.empty_draw_pile == "reshuffle":
            return s.draw_pile + max(s.discard - 1, 0)
        return s.draw_pile

    def take(self, s: GameState, seat: int, count: int) -> int:
        """``seat`` draws ``count`` cards (fewer if the piles run out); returns how many."""
        if count > s.draw_pile and self.rules.empty_draw_pile == "reshuffle" and s.discard > 1:
            # The discard pile, all but its top card, becomes the new draw pile.
            s.draw_pile += s.discard - 1
            s.discard = 1
            s.discard_counts = {s.top.name: 1} if s.top is not None else {}
        count = min(count, s.draw_pile)
        if count:
            s.draw_pile -= count
            s.hands[seat] += count
            s.called[seat] = False
            if s.catch == seat:
                s.catch = -1
        return count

    def pile_check(self, s: GameState) -> None:
        """With ``empty_draw_pile = end-round`` the round ends once the pile is empty."""
        if self.rules.empty_draw_pile == "end-round" and s.draw_pile == 0 and s.phase == PLAY:
            s.phase = OVER
            s.winner = -1
            s.stop_turns()

    def refuse(self, s: GameState, alert: Alert, seat: int, penalty: int = 0) -> Outcome:
        """A refused play: the card goes back to the hand, plus a penalty draw if any."""
        if penalty > 0:
            taken = self.take(s, seat, penalty)
            alert.params["penalty"] = taken
            self.pile_check(s)
            return False, [alert], taken > 0
        return False, [alert], False

    def false_call(self, s: GameState, call: tuple[int, int] | None) -> list[Alert]:
        """Settle a UNO call made on turn holding more than two cards: it was false."""
        if call is None:
            return []
        seat, held = call
        s.called[seat] = False
        penalty = self.rules.false_uno_penalty
        if not penalty:
            return []
        taken = self.take(s, seat, penalty)
        self.pile_check(s)
        return [Alert("false-uno", s.players[seat], {"hand": held, "count": taken})]

    def check_copies(self, s: GameState, cards: Sequence[Card]) -> None:
        """Raise ``too-many-copies`` when ``cards`` would put more copies of a card on
        the discard pile than a deck has."""
        counts = s.discard_counts
        for card in cards:
            name = card.name
            if counts.get(name, 0) + (1 if len(cards) == 1 else cards.count(card)) > COPIES[name]:
                raise Bad(
                    "too-many-copies",
                    f"a deck has {COPIES[name]} {name}; "
                    f"{counts.get(name, 0)} already lie on the discard pile",
                )


def describe_values(values: frozenset[str]) -> str:
    """Card values for a message: a run of numbers as ``lo-hi``, then the others."""
    numbers = sorted(v for v in values if v.isdigit())
    others = sorted(v for v in values if not v.isdigit())
    parts = []
    if numbers:
        parts.append(f"{numbers[0]}-{numbers[-1]}" if len(numbers) > 2 else ", ".join(numbers))
    return ", ".join(parts + others)


__all__ = ["COPIES", "Bad", "Context", "Outcome", "describe_values"]
