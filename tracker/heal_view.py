"""The camera's view of the discard pile, against the record's top (for the healer).

A :class:`PileView` is told each card the camera sees on top (:meth:`PileView.sight`)
and, after every change to the log, the game (:meth:`PileView.note`). It answers one
question: is this a card, seen on top steadily and long enough, that the record does
not explain, so that the healer should look for the play it missed? It also remembers
what the healer's explanations read: the steady tops unlike the record's (``seen``),
whether the record's own top was seen (``saw_top``), the refused cards still lying on
the pile (``ignored``), and the cards laid with the top and just under it.

>>> from tracker.game import Game
>>> from tracker.heal_options import HealSettings
>>> from tracker.rules import preset
>>> game = Game(preset("official"))
>>> _ = game.apply({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"})
>>> _ = game.apply({"type": "flip", "card": "red-5"})
>>> view = PileView(HealSettings(), game)
>>> [view.sight("red-5", t / 8) for t in range(40)].count(True), view.saw_top
(0, True)
>>> [view.sight("red-9", 5 + t / 8) for t in range(40)].count(True)   # once, when patient
1
>>> list(view.seen)
['red-9']
"""

from __future__ import annotations

import math

from tracker.events import Flip, Play
from tracker.game import Game
from tracker.heal_options import HealSettings


class PileView:
    """What the camera has seen of the pile since the record's top was laid."""

    def __init__(self, settings: HealSettings, game: Game) -> None:
        self.settings = settings
        self.top: str | None = game.state_json()["top"]
        self.top_at = -1  # the discard pile's size when the record's top was laid
        self.top_since = -math.inf  # the camera's time then (its last view before)
        self.last_t = -math.inf  # the time of the camera's last view
        self.laid: frozenset[str] = frozenset()  # the cards played with the record's top
        self.under: frozenset[str] = frozenset()  # the cards laid just before those
        self.returned: frozenset[str] = frozenset()  # starters that went back in the deck
        self.saw_top = False  # the camera has seen the record's top steadily
        self.seen: dict[str, None] = {}  # steady tops unlike the record's, oldest first
        self.ignored: set[str] = set()  # refused cards still lying on the pile
        self._run: tuple[str | None, float, int] = (None, 0.0, 0)  # card, since, sightings
        self._handled: tuple[str | None, float] = (None, 0.0)

    def sight(self, card: str | None, t: float) -> bool:
        """The camera sees ``card`` on top at time ``t`` (None: none, or a hand over
        the pile). True once per steady run of a card the record does not explain, when
        it has lain there ``top_patience_s``: the healer should look for a missed play."""
        self.last_t = t
        if card is None:
            return False
        name, since, count = self._run
        self._run = (name, since, count + 1) if card == name else (card, t, 1)
        name, since, count = self._run
        s = self.settings
        steady = count >= s.top_sightings and t - since >= s.top_steady_s
        if not steady or card in self.ignored:
            return False
        if card == self.top or card in self.laid:
            self.saw_top = True
            return False
        if card in self.under and since <= self.top_since:
            # The card the record laid just under its top, seen since before the top
            # was laid: the new card never came into the camera's sight (an untidy or
            # covered pile), not a twin played since (``covering-untidy-25fps`` seed
            # 652, plays of three: the green 9 of Ann's fan seen all through Dee's red 3).
            return False
        self.seen.pop(card, None)
        self.seen[card] = None
        if t - since < s.top_patience_s or self._handled == (card, since):
            return False
        self._handled = (card, since)
        return True

    def note(self, game: Game) -> None:
        """After a change to the log: a new top on the record (laid since, even a card
        of the same name) and what the camera saw of the old one no longer counts.
        (Keyed by the name alone, a fan with the starter's face named on top kept the
        starter's cards as the ones laid: its other card, seen uppermost, was taken for
        a missed play; ``quick-untidy-26fps`` seed 713, plays of three: Bob's red 4 and
        yellow 4 on the starter red 4.)"""
        state = game.state_json()
        top, size = state["top"], state["discard_pile"]
        if (top, size) != (self.top, self.top_at):
            self.top, self.top_at, self.saw_top = top, size, False
            self.top_since = self.last_t
            self.seen, self.ignored = {}, set()
            self.laid, self.under = self._laid_with(game, top)

    def new_round(self) -> None:
        """A round began or ended: the starters sent back belong to the old one."""
        self.returned = frozenset()

    def _laid_with(self, game: Game, top: str | None) -> tuple[frozenset[str], frozenset[str]]:
        """The cards of the play that put ``top`` on the pile (several of one value),
        and the cards laid just before them (by a play or the starter).

        The player names the colour that counts, and the record's top is that card;
        which of them lies uppermost is the player's hand's doing. Seen on top, another
        of them is the record's play, not a play the camera missed (``house`` seed 612,
        trained recogniser: Bob's yellow 7 and blue 7, yellow named, the blue one on
        top, read as Cy's missed blue 7, then Cy's play refused as out of turn). (A play
        refused with a penalty is in the history too, and does not lay its cards: the
        top's play is the last that holds the top card.)
        """
        laid: list[frozenset[str]] = []
        for past in reversed(game.history):
            if isinstance(past, (Play, Flip)):
                cards = past.cards if isinstance(past, Play) else (past.card,)
                names = frozenset(c.name for c in cards)
                if laid or top in names:
                    laid.append(names)
                if len(laid) == 2:
                    break
        if len(laid) == 1:  # the starter: under it, a starter returned to the deck
            return laid[0], self.returned  # (which the dealer may leave in view a while)
        return (laid or [frozenset()])[0], laid[1] if len(laid) > 1 else frozenset()


__all__ = ["PileView"]
