"""Game scripts for rendered videos: the event logs (DESIGN.md) a video acts out.

:func:`script_game` writes a quick legal-looking game of plays, draws and take-backs;
:func:`simulated_game` plays a whole legal round with :mod:`tracker.simulate` (house
rules: several cards at once, stacking, jump-ins), as the benchmarks' videos do.

>>> log = script_game(np.random.default_rng(1), ["A", "B", "C"], turns=5)
>>> log[0]["type"], log[1]["type"]
('round', 'flip')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from synth.render.cards import COLORS, FACES

Event = dict[str, Any]

DEFAULT_PLAYERS: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee")


def _matches(card: str, top: str, color: str) -> bool:
    if card.startswith("wild"):
        return True
    c, v = card.split("-", 1)
    tc = top.split("-", 1)
    return c == color or (len(tc) == 2 and v == tc[1])


def script_game(
    rng: np.random.Generator,
    players: Sequence[str] = DEFAULT_PLAYERS,
    turns: int = 30,
    *,
    multi_prob: float = 0.0,
    retract_prob: float = 0.05,
) -> list[Event]:
    """A plausible game log: legal plays under the official rules, draws, retractions.

    ``multi_prob`` is the chance a turn lays two cards of one value at once (legal
    only in the ``house`` preset); ``retract_prob`` the chance a player puts a card
    down and takes it back (``play`` then ``undo``). The tracker's simulator makes
    richer logs; :func:`render_video` acts out any log.

    >>> log = script_game(np.random.default_rng(1), ["A", "B", "C"], turns=5)
    >>> [e["type"] for e in log[:2]]
    ['round', 'flip']
    """
    players = list(players)
    n = len(players)
    deck = list(FACES)
    numbers = [f for f in FACES if f.split("-")[-1].isdigit()]
    log: list[Event] = [{"type": "round", "players": players, "dealer": players[0]}]
    top = str(rng.choice(numbers))
    color = top.split("-")[0]
    log.append({"type": "flip", "card": top})
    turn = 1 % n
    step = 1
    for _ in range(turns):
        p = players[turn]
        if rng.random() < retract_prob:
            wrong = str(rng.choice([f for f in numbers if _matches(f, top, color)]))
            log.append({"type": "play", "card": wrong, "player": p})
            log.append({"type": "undo"})
        legal = [f for f in deck if _matches(f, top, color)]
        if rng.random() < 0.22 or not legal:
            log.append({"type": "draw", "player": p})
            log.append({"type": "pass", "player": p})
            turn = (turn + step) % n
            continue
        card = str(rng.choice(legal))
        if card.startswith("wild") and rng.random() < 0.7:
            card = str(rng.choice([f for f in legal if not f.startswith("wild")] or legal))
        ev: Event = {"type": "play", "player": p}
        value = card.split("-", 1)[-1]
        twin = (
            f"{rng.choice([c for c in COLORS if not card.startswith(c)])}-{value}"
            if not card.startswith("wild")
            else None
        )
        if twin is not None and rng.random() < multi_prob:
            ev["cards"] = [twin, card] if rng.random() < 0.5 else [card, twin]
            card = ev["cards"][-1]
        else:
            ev["card"] = card
        log.append(ev)
        top = card
        if card.startswith("wild"):
            color = str(rng.choice(COLORS))
            log.append({"type": "color", "color": color})
        else:
            color = card.split("-")[0]
        if value == "reverse" and n > 2:
            step = -step
        nxt = (turn + step) % n
        if value in ("skip", "draw2") or (value == "reverse" and n == 2):
            if value == "draw2":
                log.append({"type": "draw", "player": players[nxt], "count": 2})
            nxt = (nxt + step) % n
        elif card == "wild-draw4":
            log.append({"type": "draw", "player": players[nxt], "count": 4})
            nxt = (nxt + step) % n
        turn = nxt
    return log


def simulated_game(
    seed: int,
    players: int = 4,
    rules: str = "house",
    turns: int = 40,
    *,
    retract_prob: float = 0.06,
) -> list[Event]:
    """A legal game from the tracker's simulator, made ready to be acted out.

    Every play and draw gets its ``player`` (the simulator leaves some out, as a
    referee may: the tracker's ``turn`` fills them in), the log stops after
    ``turns`` plays and draws, and now and then a player puts down a legal card and
    takes it back (``play`` then ``undo``) before the real play.

    >>> log = simulated_game(3, turns=6)
    >>> log[0]["type"], all("player" in e for e in log if e["type"] in ("play", "draw"))
    ('round', True)
    """
    from tracker import Game, preset
    from tracker.simulate import simulate

    rng = np.random.default_rng(seed)
    raw = simulate(preset(rules), players=players, seed=seed, rounds=1)
    game = Game(preset(rules))
    out: list[Event] = []
    actions = 0
    for src in raw:
        ev = {k: v for k, v in src.items() if k != "expect"}
        typ = ev.get("type")
        if typ == "end-round" or actions >= turns:
            break
        state = game.state_json() if out else {}
        if typ in ("play", "draw", "pass") and "player" not in ev and state.get("turn"):
            ev["player"] = state["turn"]
        if typ == "play" and rng.random() < retract_prob and state.get("color"):
            value = str(ev.get("card", "")).split("-")[-1]
            others = [v for v in map(str, range(10)) if v != value]
            fake = {"type": "play", "player": ev["player"]}
            fake["card"] = f"{state['color']}-{rng.choice(others)}"
            if game.apply(fake).ok:
                out += [fake, {"type": "undo"}]
                game.apply({"type": "undo"})
        game.apply(ev)
        out.append(ev)
        if typ in ("play", "draw"):
            actions += 1
    return out


# ---------------------------------------------------------------------------- clips
