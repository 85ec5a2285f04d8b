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
from typing import Any

from tracker.cards import COLORS, NUMBERS, Card, parse_card
from tracker.game import Game
from tracker.heal_fans import SHOWN_FANS, FanReadings, one_fewer
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


@dataclass(frozen=True)
class Catalogue(FanReadings):
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
                options.append(
                    Option("play", after_pass, cost + s.passed, not seen, seen=shown, hidden=hidden)
                )
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


__all__ = ["Catalogue"]
