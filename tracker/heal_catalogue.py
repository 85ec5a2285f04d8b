"""What could explain a refusal: the healer's catalogue of missed events.

A :class:`Catalogue` looks at the game as it stands and at what the camera saw, and
lists the explanations (:class:`~tracker.heal_options.Option`: the missed events, a
past event read wrong, each with its cost) that :class:`tracker.heal.Healer` then tries
on the game and weighs. It only reads the game; it applies nothing.

>>> from tracker.game import Game
>>> from tracker.heal_options import HealSettings
>>> game = Game()
>>> _ = game.apply({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"})
>>> _ = game.apply({"type": "flip", "card": "red-5"})
>>> catalogue = Catalogue(game, HealSettings(), {}, False, "red-5")
>>> [o.kind for o in catalogue.candidates({"type": "pass", "player": "Bob"})][:4]
['draw', 'draw', 'pass', 'draw']
>>> [(o.kind, o.events) for o in catalogue.top_options("red-9")][0]
('play', [{'type': 'play', 'card': 'red-9', 'player': 'Ann'}])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from tracker.cards import COLORS, NUMBERS, Card, parse_card
from tracker.game import Game
from tracker.heal_options import (
    WILDS,
    HealSettings,
    Option,
    bridges,
    card_or_none,
    drawn_count,
    event_cards,
    laid_fields,
    plays_card,
)

Event = dict[str, Any]

#: Fans under a card the camera saw that are offered to the referee: the two cards, and
#: three with the first other colour between; the others (the second other colour) are
#: tried only when a later event needs them.
SHOWN_FANS: Final = 2


@dataclass(frozen=True)
class Catalogue:
    """The explanations of ``game`` as it stands, given the camera's view: ``seen``
    (steady tops unlike the record's, oldest first), ``saw_top`` (the record's top was
    seen steadily) and ``top`` (the record's top)."""

    game: Game
    settings: HealSettings
    seen: dict[str, None]
    saw_top: bool
    top: str | None

    def candidates(self, event: Event) -> list[Option]:
        """Missed events that may explain ``event`` in the game's present state."""
        game, s = self.game, self.settings
        state = game.state_json()
        turn, cards = state["turn"], event_cards(event)
        options: list[Option] = []
        if state["phase"] == "play" and turn is not None:
            if state["pending_draw"]:
                draw = {"type": "draw", "player": turn, "count": state["pending_draw"]}
                options.append(Option("penalty", [draw], s.penalty))
            else:
                draw, passed = {"type": "draw", "player": turn}, {"type": "pass", "player": turn}
                options.append(Option("draw", [draw], s.draw))
                options.append(Option("draw", [draw, passed], s.draw + s.passed))
                options.append(Option("pass", [passed], s.passed))
                actor = event.get("player")
                if isinstance(actor, str) and actor != turn and event.get("type") != "draw":
                    # The actor drew first (the pass of the player on turn implied).
                    own = {"type": "draw", "player": actor}
                    options.append(Option("draw", [own], s.draw))
                    options.append(Option("draw", [passed, own], s.draw + s.passed))
            for laid, color, seen, hidden in self.guesses(event, state):
                play: Event = {"type": "play", "player": turn, **laid_fields(laid)}
                if color is not None:
                    play["color"] = color
                cost = s.seen_play if seen else s.guess
                shown = laid[-1] if seen else None
                options.append(Option("play", [play], cost, not seen, seen=shown, hidden=hidden))
                # Or the player on turn drew and passed, and the next one played it.
                later = {k: v for k, v in play.items() if k != "player"}
                after_pass = [{"type": "pass", "player": turn}, later]
                again = Option("play", after_pass, cost + s.passed, not seen, seen=shown)
                again.hidden = hidden
                options.append(again)
            if game.rules.jump_in and state["top"] not in WILDS and state["top"] is not None:
                # Someone jumped in with the identical card (which looks the same on top).
                for other in state["hands"]:
                    if other != turn:
                        jump = {"type": "play", "card": state["top"], "player": other}
                        options.append(Option("play", [jump], s.guess, True))
            if state["top"] in WILDS and cards and cards[0].color is not None:
                options.append(
                    Option("color", [{"type": "color", "color": cards[0].color}], s.color)
                )
            options += self.retract()
            options += self.misreads(cards, list(self.seen), drawn_count(event))
            options += self.fewer()
            options += self.seat(event, turn)
            options += self.under_the_play(event, state)
        elif state["phase"] == "round-over":
            # The player who went out still holds a card: a draw of theirs was missed.
            log = game.events
            plays = [
                i
                for i in range(len(log) - 1, -1, -1)[: s.rewrite_depth]
                if log[i]["type"] == "play"
            ]
            if plays:
                last = log[plays[0]]
                draw = {"type": "draw", "player": last.get("player"), "inferred": True}
                rewrite = (plays[0], [draw, last])
                options.append(Option("late-draw", [], s.draw, rewrite=rewrite))
        elif state["phase"] == "flip" and event.get("type") == "play" and cards:
            for card in [*self.seen, *bridges(cards[0], None, None)]:
                seen = card in self.seen
                flip = {"type": "flip", "card": card}
                cost = s.seen_play if seen else s.guess
                options.append(Option("flip", [flip], cost, not seen, seen=card if seen else None))
            options += self.starter_played(event, cards)
        return options

    def starter_played(self, event: Event, cards: list[Card]) -> list[Option]:
        """A "play" before any starter that is the starter itself: the tracker never
        heard of a flip the watcher reported (a Wild Draw Four turned up first, gone back
        into the deck), so the watcher took the next card turned up for a play. The
        camera's sighting of that returned card makes it the likeliest reading; without
        it the reading is a guess (asked, like a missed starter)."""
        rules = self.game.rules

        def again(name: str) -> bool:  # a starter that goes back into the deck
            return name == "wild-draw4" or (name == "wild" and rules.first_wild == "turn-again")

        if len(cards) != 1 or again(cards[0].name):
            return []
        flip = {"type": "flip", "card": cards[0].name, "inferred": True, "read_as": "play"}
        if cards[0].is_wild and isinstance(event.get("color"), str):
            flip["color"] = event["color"]
        out = [
            Option(
                "flip",
                [{"type": "flip", "card": c}, flip],
                self.settings.seen_play,
                seen=c,
                instead=True,
            )
            for c in self.seen
            if again(c)
        ]
        return out or [Option("flip", [flip], self.settings.guess, True, instead=True)]

    def weigh(self, options: list[Option], played: set[str]) -> list[Option]:
        """The camera's view: a steady top nothing explains, or a guess it contradicts."""
        s = self.settings
        unexplained = [c for c in self.seen if c not in played]
        for option in options:
            # The camera saw the record's top all along: no other card came, none went.
            guess_against_view = (
                self.saw_top
                and (option.kind == "retract" or option.guessed)
                and option.kind in ("play", "misread", "flip", "retract")
                and not plays_card(option, self.top)
            )
            if (unexplained and option.seen is None) or guess_against_view:
                option.cost += s.contradicted
        return options

    def guesses(
        self, event: Event, state: dict[str, Any]
    ) -> list[tuple[list[str], str | None, bool, bool]]:
        """Cards the player on turn may have played unseen: (cards, colour, seen, hidden);
        of the fans under a seen card, those past the first ``SHOWN_FANS`` are hidden
        (:attr:`~tracker.heal_options.Option.hidden`)."""
        cards = event_cards(event)
        names = {c.name for c in cards}
        real = cards[0] if cards else None
        wild_color = (
            None if event.get("type") == "color" else (real and real.color) or state["color"]
        )
        out: list[tuple[list[str], str | None, bool, bool]] = []
        for card in self.seen:
            if card not in names:
                out.append(([card], wild_color if card in WILDS else None, True, False))
                fans = self.fans(card, state["color"])
                out += [(fan, None, True, i >= SHOWN_FANS) for i, fan in enumerate(fans)]
        for name in bridges(real, card_or_none(state["top"]), state["color"]):
            if name not in self.seen:
                out.append(([name], wild_color if name in WILDS else None, False, False))
        return out

    def under_the_play(self, event: Event, state: dict[str, Any]) -> list[Option]:
        """The play was several cards of one value and the camera saw only the upper
        ones: one more of the colour on the pile lay under them, and perhaps one of a
        third colour between (the rules allowing it). The player may have named any of
        the fan's colours to end on top, whatever card lies uppermost: the plays after
        it tell which (a later refusal revises the question, :meth:`Healer._revise`).
        Cards nobody saw, so guesses the referee is asked about; the camera's steady
        view of the old top does not speak against them (they came with the ones seen).
        The likeliest first: the cards seen above one of the pile's colour, the top
        card's colour named; a named colour not the top card's costs ``named`` more.

        >>> from tracker.game import Game
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
                cost = s.guess + s.named * (min(more, 1) + (named != shown))
                hidden = cost > s.guess
                out.append(Option("fan", [laid], cost, True, instead=True, hidden=hidden))
        return out

    def fans(self, seen: list[str] | str, color: str | None) -> list[list[str]]:
        """Several cards at once with ``seen`` uppermost (one card, or the cards of one
        value the camera saw): one of the colour on the pile under them, and perhaps one
        of each colour not among them between (the rules allowing it); the camera sees
        only the upper ones.

        >>> from tracker.game import Game
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

    def misreads(self, cards: list[Card], seen: list[str], drawn: int = 0) -> list[Option]:
        """The last card laid (a flip or a one-card play, a few events back) was another;
        ``drawn``: the cards of a draw that would be a penalty (a +2 or +4 misread)."""
        s, log = self.settings, self.game.events
        found = None
        for index in range(len(log) - 1, max(len(log) - s.rewrite_depth, 0) - 1, -1):
            old = log[index]
            if old.get("type") in ("flip", "play") and isinstance(old.get("card"), str):
                found = index
                break
            if old.get("type") in ("round", "undo", "play"):
                return []
        if found is None:
            return []
        old = log[found]
        was = card_or_none(old["card"])
        guesses = bridges(cards[0], was, None, misread=True) if cards else []
        if was is not None and was.color is not None and drawn in (2, 4):
            guesses.append(f"{was.color}-draw2" if drawn == 2 else "wild-draw4")
        out = []
        for name in dict.fromkeys([*seen, *guesses]):
            if name == old["card"]:
                continue
            is_seen = name in seen
            cost = s.guess
            if is_seen:
                cost = s.misread + (s.contradicted if self.saw_top else 0.0)
            fixed = {**old, "card": name, "inferred": True, "was": old["card"]}
            option = Option("misread", [], cost, not is_seen, (found, [fixed]))
            option.seen = name if is_seen else None
            out.append(option)
        return out

    def twice(self) -> list[Option]:
        """A play the rules took a second time (a jump-in with the twin card) that was
        one play reported twice, a few events back."""
        s, log = self.settings, self.game.events
        out = []
        for index in range(len(log) - 1, max(len(log) - s.rewrite_depth, 1) - 1, -1):
            old, before = log[index], log[index - 1]
            twin = old["type"] == before["type"] == "play" and event_cards(old) == event_cards(
                before
            )
            if twin and old.get("player") == before.get("player"):
                option = Option("duplicate", [], s.duplicate, rewrite=(index, []))
                option.seen = " + ".join(c.name for c in event_cards(old))
                out.append(option)
        return out

    def recounts(self, cards: list[Card]) -> list[Option]:
        """A deck holds no more copies: an earlier copy in this round was another card
        (a misread, or a guess). The latest copies first, each read as a card of its
        colour or of its value."""
        s, log = self.settings, self.game.events
        out: list[Option] = []
        names = {c.name for c in cards}
        for index in range(len(log) - 1, -1, -1):
            old = log[index]
            if old.get("type") == "round":
                break
            several = old.get("cards")
            if old.get("type") == "play" and isinstance(several, list):
                out += [o for o in one_fewer(old, index, s.guess) if o.about in names]
            if old.get("type") not in ("flip", "play") or old.get("card") not in names:
                continue
            before = log[index - 1]
            if before.get("card") == old["card"] and before.get("player") == old.get("player"):
                # Taken as a jump-in with the twin, it was one play reported twice.
                option = Option("duplicate", [], s.duplicate, rewrite=(index, []))
                option.seen = old["card"]
                out.append(option)
            was = parse_card(old["card"])
            if was.color is None:
                continue
            others = [f"{c}-{was.value}" for c in COLORS if c != was.color]
            others += [f"{was.color}-{v}" for v in NUMBERS if was.is_number and v != was.value]
            for name in others[: s.max_recounts]:
                fixed = {**old, "card": name, "inferred": True, "was": old["card"]}
                out.append(Option("misread", [], s.guess, True, (index, [fixed])))
        return out

    def seat(self, event: Event, turn: str) -> list[Option]:
        """The play or draw was the player's on turn, the watcher giving it to another
        seat (arms crossing over the pile: ``warm-drop-untidy-28fps`` seed 625, Cy's
        green Draw Two given to Bob, then Dee's penalty draws refused, five alerts). A
        guess, asked: it may be the other player's own mistake.

        >>> from tracker.rules import preset
        >>> game = Game(preset("house"))
        >>> _ = game.apply({"type": "round", "players": ["Ann", "Bob", "Cy"], "dealer": "Cy"})
        >>> _ = game.apply({"type": "flip", "card": "red-5"})
        >>> catalogue = Catalogue(game, HealSettings(), {}, False, "red-5")
        >>> bob = {"type": "play", "card": "red-2", "player": "Bob"}
        >>> [o.texts()[1] for o in catalogue.seat(bob, "Ann")]
        ['Ann played red-2, not Bob']
        >>> [o.texts()[1] for o in catalogue.seat({"type": "draw", "player": "Bob"}, "Ann")]
        ['Ann drew, not Bob']
        """
        actor = event.get("player")
        if event.get("type") not in ("play", "draw") or not isinstance(actor, str) or actor == turn:
            return []
        moved = {**event, "player": turn, "was": actor}
        return [Option("seat", [moved], self.settings.guess, True, instead=True)]

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

    def top_options(self, card: str) -> list[Option]:
        """Explanations of a steady top ``card`` that the record does not show."""
        s, state = self.settings, self.game.state_json()
        turn, out = state["turn"], []
        if state["phase"] == "flip":
            out.append(Option("flip", [{"type": "flip", "card": card}], s.seen_play, seen=card))
        if state["phase"] != "play" or turn is None:
            return out
        play: Event = {"type": "play", "card": card, "player": turn}
        cost = s.seen_play + (0.0 if self.saw_top else s.contradicted)
        out.append(Option("play", [play], cost, seen=card))
        for i, fan in enumerate(self.fans(card, state["color"])):
            several = {"type": "play", "player": turn, **laid_fields(fan)}
            out.append(Option("play", [several], cost, seen=card, hidden=i >= SHOWN_FANS))
        # The player on turn drew and passed; the next one played it.
        after_pass = [{"type": "pass", "player": turn}, {"type": "play", "card": card}]
        out.append(Option("play", after_pass, cost + s.passed, seen=card))
        if state["pending_draw"]:
            draw = {"type": "draw", "player": turn, "count": state["pending_draw"]}
            after = {"type": "play", "card": card}
            out.append(Option("penalty", [draw, after], cost + s.penalty, seen=card))
        return out + self.retract(seen=card) + self.misreads([], [card])

    def retract(self, seen: str | None = None) -> list[Option]:
        """The last play was taken back (its question names its cards); ``seen``: the
        card the camera sees on top now, which it accounts for."""
        log = self.game.events
        if not log or log[-1].get("type") != "play":
            return []
        taken = " + ".join(c.name for c in event_cards(log[-1]))
        return [
            Option("retract", [{"type": "undo"}], self.settings.retract, seen=seen, about=taken)
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


__all__ = ["Catalogue", "one_fewer"]
