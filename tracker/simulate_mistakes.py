"""The simulator's deliberate mistakes, each with the alert a referee answers it with.

:func:`make_mistake` writes one mistake of a kind (if it fits the moment) into a
:class:`~tracker.simulate_turns.Simulator`'s log; the state only changes by the penalty
the rules give for it.

>>> "bluff" in MISTAKES, len(MISTAKES)
(True, 9)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from tracker.simulate_turns import Simulator

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


def make_mistake(sim: Simulator, kind: str) -> None:
    """Write one deliberate mistake; the state only changes by its penalty."""
    rng = sim.rng
    seat = sim.turn
    name = sim.names[seat]
    hand = sim.hands[seat]
    penalty = sim.rules.wrong_card_penalty
    if kind == "illegal-card" and not sim.pending and not sim.drew:
        wrong = [c for c in hand if not sim.matches(c)]
        if wrong and len(hand) > 1:
            sim.emit(
                {"type": "play", "card": rng.choice(wrong).name, "player": name},
                ["illegal-card"],
            )
            sim.penalise(seat, penalty)
    elif kind == "penalty-pending" and sim.pending:
        wrong = [c for c in hand if not sim.answers([c])]
        if wrong and len(hand) > 1:
            sim.emit(
                {"type": "play", "card": rng.choice(wrong).name, "player": name},
                ["penalty-pending"],
            )
            sim.penalise(seat, penalty)
    elif kind == "illegal-last-card" and len(hand) == 1 and not sim.pending:
        card = hand[0]
        if not sim.may_go_out_with(card) and sim.matches(card) and not sim.drew:
            sim.emit({"type": "play", "card": card.name, "player": name}, ["illegal-last-card"])
            sim.penalise(seat, penalty)
    elif kind == "out-of-turn":
        others = [s for s in range(sim.n) if s != seat]
        if sim.drew:
            others = [s for s in others if s != sim.nxt(seat)]
        if others:
            other = rng.choice(others)
            cards = [c for c in sim.hands[other] if not sim.could_jump_in(c)]
            if cards:
                card = rng.choice(cards)
                sim.emit(
                    {"type": "play", "card": card.name, "player": sim.names[other]},
                    ["out-of-turn"],
                )
    elif kind == "bluff" and not sim.pending and not sim.drew:
        bluffs = [c for c in hand if c.value == "wild-draw4"]
        if (
            bluffs
            and len(hand) > 2
            and sim.rules.draw4_restricted
            and sim.rules.draw4_challenge
            and not sim.honest_draw4(seat)
        ):
            sim.play(seat, [bluffs[0]], bluff=True)
    elif kind == "wrong-challenge":
        pass  # made when an honest Wild Draw Four is played (see _maybe_challenge)
    elif kind == "late-catch":
        forgot = [
            s for s in range(sim.n) if len(sim.hands[s]) == 1 and not sim.called[s] and s != seat
        ]
        if forgot:
            caught = rng.choice(forgot)
            event = {"type": "catch", "player": sim.names[caught], "by": name}
            if caught == sim.catchable:
                sim.emit(event, ["missed-uno"])
                sim.catchable = None
                sim.take(caught, sim.rules.uno_penalty)
                sim.pile_check()
            else:
                sim.emit(event, ["bad-event"])
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
        sim.emit(dict(broken), ["bad-event"])
