"""What the tracker knows of a match at one moment (:class:`GameState`, copied for
undo checkpoints), and the phases a match goes through.

>>> s = GameState()
>>> s.phase == WAITING and PHASE_NAMES[s.phase]
'waiting-round'
>>> t = s.copy(); t.hands.append(7); s.hands
[]
"""

from __future__ import annotations

from typing import Any, Final

from tracker.cards import Card

# Phases of a match.
WAITING: Final = 0  # no round in progress: waiting for a `round` event
FLIP: Final = 1  # dealt: waiting for the starter card
PLAY: Final = 2
OVER: Final = 3  # someone went out (or the pile ran out): waiting for `end-round`
MATCH_OVER: Final = 4
PHASE_NAMES: Final = ("waiting-round", "flip", "play", "round-over", "match-over")


class GameState:
    """Everything the tracker knows; copied for undo checkpoints."""

    __slots__ = (
        "auto_passed",
        "called",
        "catch",
        "color",
        "dealer",
        "direction",
        "discard",
        "discard_counts",
        "draw_pile",
        "drew",
        "hands",
        "index",
        "match_winner",
        "multi",
        "n",
        "next_dealer",
        "penalty_served",
        "pending",
        "pending_cards",
        "pending_kind",
        "phase",
        "players",
        "provisional_call",
        "round_no",
        "round_scores",
        "top",
        "totals",
        "turn",
        "wd4",
        "winner",
    )

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        self.index: dict[str, int] = {}
        self.n = 0
        self.phase = WAITING
        self.round_no = 0
        self.dealer = -1
        self.next_dealer = 0
        self.turn = -1
        self.direction = 1
        self.top: Card | None = None
        self.color: str | None = None
        self.pending = 0
        self.pending_kind = ""
        self.pending_cards = 0  # how many cards the last play adding to `pending` put down
        self.penalty_served = False
        self.drew = False
        self.auto_passed = -1
        # The seat whose UNO call, made on turn holding more than two cards (multi_play),
        # is judged by their next move.
        self.provisional_call: tuple[int, int] | None = None  # (seat, cards held then)
        self.hands: list[int] = []
        self.called: list[bool] = []
        self.catch = -1  # the seat that may be caught for not calling UNO
        self.wd4: tuple[int, int] | None = None  # (who played it, who may challenge)
        self.draw_pile = 0
        self.discard = 0
        # Copies of each card (by name) on the discard pile since the last reshuffle.
        self.discard_counts: dict[str, int] = {}
        self.winner = -1
        self.totals: list[int] = []
        self.round_scores: list[dict[str, Any]] = []
        self.match_winner: str | None = None
        # The cards of the last event when it was several cards of more than one
        # color with none named: a ``color`` event may still say which ends on top.
        self.multi: tuple[Card, ...] = ()

    def stop_turns(self) -> None:
        """The round is over: no one's turn, no penalty pending, no one to catch or
        challenge, no UNO call waiting to be judged."""
        self.turn = -1
        self.pending = 0
        self.pending_kind = ""
        self.catch = -1
        self.wd4 = None
        self.provisional_call = None

    def copy(self) -> GameState:
        new = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = list(self.hands)
        new.called = list(self.called)
        new.discard_counts = dict(self.discard_counts)
        new.totals = list(self.totals)
        new.round_scores = list(self.round_scores)
        return new
