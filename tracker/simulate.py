"""A random-game simulator: event logs of legal play with deliberate mistakes.

The simulator deals real shuffled cards and keeps every hand; which plays are legal it
asks :mod:`tracker.legal`, the rules the tracker's :class:`~tracker.game.Game` judges
with (so it cannot read a rule differently); each event it writes carries ``expect``, the
alert codes a correct referee answers it with. A rate of deliberate mistakes (a card
that does not match, a play out of turn, a missed UNO call that gets caught, a bluffed
Wild Draw Four that gets challenged, a malformed event...) exercises the alerts.

This module is the entry point (:func:`simulate`, the command line); the simulator
itself is three modules: :mod:`tracker.simulate_table` (:class:`SimTable`: the cards,
the hands and the bookkeeping), :mod:`tracker.simulate_turns` (:class:`Simulator`: the
players' turns) and :mod:`tracker.simulate_mistakes` (the deliberate mistakes).

>>> events = simulate(preset("official"), players=3, seed=7, rounds=1)
>>> events[0]["type"], events[-1]["type"]
('round', 'end-round')

From the shell (one JSON object per line, ``expect`` included):

    python -m tracker.simulate --rules house --players 5 --mistakes 0.1 --seed 3
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from tracker.rules import PRESETS, RuleSet, preset
from tracker.simulate_mistakes import MISTAKES
from tracker.simulate_table import ACTIONS, MAX_PLAYERS, MIN_PLAYERS, NAMES, RoundOver, SimTable
from tracker.simulate_turns import Simulator

__all__ = [
    "ACTIONS",
    "MISTAKES",
    "NAMES",
    "RoundOver",
    "SimTable",
    "Simulator",
    "main",
    "simulate",
]


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
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
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
