"""The healer's readings of a fan the watcher read wrong: its lower cards unseen (the
third card, the colour named), a card too many in it. A mixin of
:class:`tracker.heal_catalogue.Catalogue`, which lists every explanation; it only
reads the game.
"""

from __future__ import annotations

from typing import Any, Final

from tracker.cards import COLORS, parse_card
from tracker.game import Game
from tracker.heal_options import HealSettings, Option, card_or_none, event_cards, laid_fields

Event = dict[str, Any]

#: Fans under a card the camera saw that are offered to the referee: the two cards, and
#: three with the first other colour between; the others (the second other colour) are
#: tried only when a later event needs them.
SHOWN_FANS: Final = 2


class FanReadings:
    """Fans under the card seen, and fans with a card fewer (needs ``game`` and
    ``settings``, as :class:`~tracker.heal_catalogue.Catalogue` has)."""

    game: Game
    settings: HealSettings

    def under_the_play(self, event: Event, state: dict[str, Any]) -> list[Option]:
        """The play was several cards of one value and the camera saw only the upper
        ones: one more of the colour on the pile lay under them, and perhaps one of a
        third colour between (the rules allowing it). The player may have named any of
        the fan's colours to end on top, whatever card lies uppermost: the plays after
        it tell which (a later refusal revises the question, :func:`tracker.heal_questions.revise`).
        Cards nobody saw, so guesses the referee is asked about; the camera's steady
        view of the old top does not speak against them (they came with the ones seen).
        The likeliest first: the cards seen above one of the pile's colour, the top
        card's colour named; a named colour not the top card's costs ``named`` more.

        >>> from tracker.game import Game
        >>> from tracker.heal_catalogue import Catalogue
        >>> from tracker.rules import preset
        >>> game = Game(preset("house"))
        >>> _ = game.apply({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"})
        >>> _ = game.apply({"type": "flip", "card": "red-8"})
        >>> catalogue = Catalogue(game, HealSettings(), {}, True, "red-8")
        >>> play = {"type": "play", "player": "Ann", "card": "green-4"}
        >>> options = catalogue.under_the_play(play, game.state_json())
        >>> [(o.events, o.cost) for o in options][:2]
        [([{'type': 'play', 'player': 'Ann', 'cards': ['red-4', 'green-4']}], 2.0), \
([{'type': 'play', 'player': 'Ann', 'cards': ['red-4', 'green-4'], 'color': 'red'}], 2.25)]
        >>> sorted({o.events[0]["color"] for o in options if "color" in o.events[0]})
        ['blue', 'red', 'yellow']
        >>> len(options)  # two cards, or three with yellow or blue; each colour named
        8
        """
        cards = event_cards(event)
        if event.get("type") != "play" or not cards or len({c.value for c in cards}) != 1:
            return []
        s = self.settings
        play = {k: v for k, v in event.items() if k not in ("card", "cards", "color")}
        out = []
        for more, fan in enumerate(self.fans([c.name for c in cards], state["color"])):
            shown = parse_card(fan[-1]).color
            for named in dict.fromkeys([shown, *(parse_card(c).color for c in fan)]):
                laid: Event = {**play, **laid_fields(fan)}
                if named != shown:
                    laid["color"] = named
                unlikely = min(more, 1) + (named != shown)  # a card more, another colour
                cost = s.guess + s.named * unlikely
                out.append(Option("fan", [laid], cost, True, instead=True, hidden=unlikely > 0))
        return out

    def fans(self, seen: list[str] | str, color: str | None) -> list[list[str]]:
        """Several cards at once with ``seen`` uppermost (one card, or the cards of one
        value the camera saw): one of the colour on the pile under them, and perhaps one
        of each colour not among them between (the rules allowing it); the camera sees
        only the upper ones.

        >>> from tracker.game import Game
        >>> from tracker.heal_catalogue import Catalogue
        >>> from tracker.rules import preset
        >>> game = Game(preset("house"))
        >>> catalogue = Catalogue(game, HealSettings(), {}, False, None)
        >>> catalogue.fans("green-4", "red")
        [['red-4', 'green-4'], ['red-4', 'yellow-4', 'green-4'], ['red-4', 'blue-4', 'green-4']]
        """
        laid = [seen] if isinstance(seen, str) else list(seen)
        cards = [card_or_none(name) for name in laid]
        if not self.game.rules.multi_play or not laid or color not in COLORS:
            return []
        if any(c is None or c.color in (None, color) for c in cards):
            return []
        value = cards[0].value if cards[0] is not None else ""
        under = f"{color}-{value}"
        shown = {c.color for c in cards if c is not None}
        thirds = [f"{c}-{value}" for c in COLORS if c != color and c not in shown]
        return [[under, *laid], *([under, third, *laid] for third in thirds)]

    def fewer(self) -> list[Option]:
        """The last play of several cards (a few events back) was one card fewer: a
        lower card the watcher read that was not there (``scattered-pile`` seed 609:
        Cy's yellow and green Reverse read with a second green one, the direction
        then wrong and four alerts). The events since are judged again on it."""
        log = self.game.events
        for index in range(len(log) - 1, max(len(log) - self.settings.rewrite_depth, 0) - 1, -1):
            old = log[index]
            if old.get("type") in ("round", "undo", "flip"):
                return []
            if old.get("type") == "play" and isinstance(old.get("cards"), list):
                return one_fewer(old, index, self.settings.guess)
        return []

    def fewer_instead(self, event: Event) -> list[Option]:
        """``event``, a play of several cards, was one card fewer (a copy too many in the
        fan itself: one face read twice)."""
        return [
            Option("fewer", o.rewrite[1], o.cost, True, instead=True, about=o.about)
            for o in one_fewer(event, -1, self.settings.guess)
            if o.rewrite is not None
        ]


def one_fewer(play: Event, index: int, cost: float) -> list[Option]:
    """``play`` (the log's event at ``index``), if of several cards, read with one card
    fewer: one option per card it names, that card left out (``about``); a card named
    twice first (the same face read twice is the likelier mistake, and the options
    leave one state: the healer keeps the first).

    >>> play = {"type": "play", "player": "Cy", "cards": ["red-7", "blue-7", "blue-7"]}
    >>> [o.rewrite[1][0]["cards"] for o in one_fewer(play, 5, 2.0)]
    [['red-7', 'blue-7'], ['blue-7', 'blue-7']]
    >>> [o.texts()[0] for o in one_fewer(play, 5, 2.0)][0]
    'Did Cy play only red-7 + blue-7?'
    """
    cards = play.get("cards")
    if not isinstance(cards, list) or len(cards) < 2:
        return []
    out = []
    for name in sorted(dict.fromkeys(cards), key=lambda n: -cards.count(n)):
        rest = list(cards)
        rest.remove(name)
        fixed = {k: v for k, v in play.items() if k not in ("card", "cards")}
        fixed.update(laid_fields(rest), inferred=True, was=" + ".join(cards))
        laid = [card_or_none(c) for c in rest]
        wild = any(c is not None and c.is_wild for c in laid)
        named = play.get("color")
        if not wild and (len(rest) < 2 or all(c is None or c.color != named for c in laid)):
            fixed.pop("color", None)  # the colour named was a card's left out
        out.append(Option("fewer", [], cost, True, (index, [fixed]), about=name))
    return out


__all__ = ["SHOWN_FANS", "FanReadings", "one_fewer"]
