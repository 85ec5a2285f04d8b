"""Benchmark: what one camera miss costs with the self-healing tracker (tracker.heal).

Clean game logs (the tracker's simulator; with ``--rendered`` also the scripts of the
rendered test videos, ``vision.synth_video.simulated_game``) are replayed through a
:class:`tracker.heal.Healer` with one fault injected at a time:

* ``drop <type>``: each event dropped in turn (round and end-round aside);
* ``misread starter``: the starter card read as a card of its colour or of its value;
* ``misread colour``: the colour named for each wild read as another colour;
* ``duplicate play``: each play reported twice;
* ``fan as top``: each play of several cards reported as its last card alone (the lower
  ones missed, the colour named with them unknown);
* ``fan extra card``: each play of several cards reported with its last card twice.

For each injected fault it counts the alerts that follow (the clean log has none) and
the events until the game is back in step with the truth (the same turn, direction,
top card, colour, pending penalty, hand counts and draw pile, for good). It does so
twice: from the events alone, and with the camera's view of the pile
(``observe_top``, 10 frames a second, the new top seen half a second before its event,
3 seconds between events). Where the healer asks the referee, the bench also taps the
option that matches the truth and says whether that put the game back in step.
Targets: at most one alert per fault, back in step by the next play, no alert on a
clean game. Last, logs with deliberate mistakes check that real mistakes are still
flagged (as their own alert, or as the question to the referee).

    python benchmarks/bench_heal.py [--games 6] [--rules house official youlerren] [--rendered]
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tracker import COLORS, Game, preset  # noqa: E402
from tracker.heal import Healer, HealSettings  # noqa: E402
from tracker.simulate import simulate  # noqa: E402

Event = dict[str, Any]
FPS = 8.0
GAP_S = 3.0  # between two events
LAG_S = 0.5  # the new top is on the pile this long before its event comes
HEAL_MS: list[float] = []  # time of each apply that had to explain a refusal
KEYS = ("turn", "direction", "top", "color", "pending_draw", "hands", "draw_pile")


def state_key(game: Game) -> tuple[Any, ...]:
    s = game.state_json()
    return tuple(tuple(sorted(s[k].items())) if isinstance(s[k], dict) else s[k] for k in KEYS)


def _loose(key: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(v for k, v in zip(KEYS, key, strict=True) if k not in ("top", "color"))


def with_players(log: list[Event], rules: str) -> list[Event]:
    """The camera names the player of every play and draw: fill in those left implied."""
    game, out = Game(preset(rules)), []
    for src in log:
        ev = {k: v for k, v in src.items() if k != "expect"}
        if ev["type"] in ("play", "draw", "pass") and "player" not in ev:
            turn = game.state_json()["turn"]
            if turn is not None:
                ev["player"] = turn
        game.apply(ev)
        out.append(ev)
    return out


@dataclass
class Fault:
    kind: str
    events: list[Event]  # the faulty stream
    truth_index: list[int]  # for each faulty event, the truth event it stands for
    at: int  # the truth index of the fault
    card: str | None = None  # the card the referee names when a guess was wrong
    color: str | None = None  # and its colour, for a wild


def faults(log: list[Event]) -> list[Fault]:
    out: list[Fault] = []
    n = len(log)
    for i, ev in enumerate(log):
        typ = ev["type"]
        if typ in ("round", "end-round"):
            continue
        out.append(
            Fault(
                f"drop {typ}",
                log[:i] + log[i + 1 :],
                [*range(i), *range(i + 1, n)],
                i,
                ev.get("card"),
                ev.get("color"),
            )
        )
        if typ == "play":
            out.append(
                Fault(
                    "duplicate play",
                    [*log[: i + 1], dict(ev), *log[i + 1 :]],
                    [*range(i + 1), i, *range(i + 1, n)],
                    i,
                )
            )
        fan = ev.get("cards")
        if typ == "play" and isinstance(fan, list) and len(fan) > 1:
            alone = {k: v for k, v in ev.items() if k not in ("cards", "color")}
            alone["card"] = fan[-1]
            if fan[-1].startswith("wild") and ev.get("color") is not None:
                alone["color"] = ev["color"]
            out.append(
                Fault("fan as top", [*log[:i], alone, *log[i + 1 :]], list(range(n)), i, fan[0])
            )
            extra = {**ev, "cards": [*fan, fan[-1]]}
            out.append(Fault("fan extra card", [*log[:i], extra, *log[i + 1 :]], list(range(n)), i))
        colour = ev.get("color")
        if colour is not None and (typ == "color" or str(ev.get("card", "")).startswith("wild")):
            other = COLORS[(COLORS.index(colour) + 1) % len(COLORS)]
            out.append(
                Fault(
                    "misread colour",
                    [*log[:i], {**ev, "color": other}, *log[i + 1 :]],
                    list(range(n)),
                    i,
                )
            )
    flips = [i for i, ev in enumerate(log) if ev["type"] == "flip"]
    if flips:
        i = flips[-1]
        color, _, value = log[i]["card"].partition("-")
        if color in COLORS:
            wrong_value = "3" if value != "3" else "4"
            wrong_color = COLORS[(COLORS.index(color) + 1) % len(COLORS)]
            for card in (f"{color}-{wrong_value}", f"{wrong_color}-{value}"):
                out.append(
                    Fault(
                        "misread starter",
                        [*log[:i], {**log[i], "card": card}, *log[i + 1 :]],
                        list(range(n)),
                        i,
                        log[i]["card"],
                    )
                )
    return out


@dataclass
class Outcome:
    alerts: int = 0
    asks: int = 0
    back_after: int | None = None  # truth events after the fault until back in step for good
    by_next_play: bool = False
    tapped_in_step: bool | None = None  # after the referee's tap (None: not asked)
    silent: bool = False  # a plain Game refuses nothing in the faulty log: no clue to heal from
    clue: bool = False  # a plain Game refuses something by the next play after the fault
    plain_alerts: int = 0  # the alerts the bare tracker raises on the faulty log
    errors: list[str] = field(default_factory=list)


def run(
    log: list[Event],
    truth: list[tuple[Any, ...]],
    tops: list[str | None],
    fault: Fault | None,
    rules: str,
    camera: bool,
    tap: bool,
    trace: bool = False,
) -> Outcome:
    healer = Healer(Game(preset(rules)), HealSettings())
    events = fault.events if fault else log
    index = fault.truth_index if fault else list(range(len(log)))
    at = fault.at if fault else 0
    later_plays = [k for k in range(at + 1, len(log)) if log[k]["type"] in ("play", "flip")]
    next_play = later_plays[0] if later_plays else len(log) - 1
    plain = Game(preset(rules))
    judged = [(k, len(plain.apply(e).alerts)) for e, k in zip(events, index, strict=True)]
    refused = [k for k, n in judged if n and log[k]["type"] != "end-round"]
    out = Outcome(silent=not refused, clue=any(at <= k <= next_play for k in refused))
    out.plain_alerts = sum(n for _k, n in judged)
    in_step: list[tuple[int, bool]] = []
    t = 0.0

    def frames(top: str | None, seconds: float) -> None:
        nonlocal t
        for _ in range(round(seconds * FPS)):
            t += 1 / FPS
            healed = healer.observe_top(top, t) if top is not None else None
            if healed is not None:
                note(healed)

    def note(healed: Any, what: object = "camera") -> None:
        if trace and (healed.alerts or healed.kind or current >= at - 1):
            ok = state_key(healer.game) == truth[current]
            print(current, what, "->", healed, "" if ok else "OUT OF STEP")
            for alert in healed.alerts:
                print("   ", alert.message())
        out.alerts += len(healed.alerts)
        asks = [a for a in healed.alerts if a.code == "ask-referee"]
        out.asks += len(asks)
        if asks and tap:
            tap_truth(len(asks[0].params["options"]))

    def tap_truth(options: int) -> None:
        nonlocal healer
        card = fault.card if fault else None
        taps = [(c, card) for c in range(options) if card] + [(c, None) for c in range(options)]
        # The referee taps what happened (naming the card where the guess was wrong); at
        # worst an option right but for the top card (a card the next play covers).
        for same in (lambda key: key, _loose):
            for choice, named in taps:
                trial = copy.deepcopy(healer)
                try:
                    trial.resolve(choice, named, fault.color if named and fault else None)
                except ValueError:
                    continue
                if same(state_key(trial.game)) == same(truth[current]):
                    healer = trial
                    if trace:
                        print("    referee taps", choice, named or "")
                    out.tapped_in_step = True
                    return
        out.tapped_in_step = False

    by_truth: dict[int, list[Event]] = defaultdict(list)
    for ev, k in zip(events, index, strict=True):
        by_truth[k].append(ev)
    current = 0
    for k in range(len(log)):
        # The camera sees the pile as it truly is, missed events or not.
        current = k
        if camera:
            frames(tops[k], LAG_S)
        for ev in by_truth[k]:
            start = time.perf_counter()
            healed = healer.apply(ev)
            if healed.kind or healed.alerts:
                HEAL_MS.append((time.perf_counter() - start) * 1000)
            note(healed, ev)
        if camera:
            frames(tops[k], GAP_S - LAG_S)
        if by_truth[k]:
            in_step.append((k, state_key(healer.game) == truth[k]))
    # Back in step for good: the first truth index after the fault from which all agree.
    last_bad = max((k for k, ok in in_step if not ok), default=None)
    if last_bad is None or last_bad < at:
        out.back_after = 0
    else:
        out.back_after = last_bad - at + 1
    out.by_next_play = last_bad is None or last_bad < next_play
    return out


def truth_of(log: list[Event], rules: str) -> tuple[list[tuple[Any, ...]], list[str | None]]:
    game = Game(preset(rules))
    keys, tops = [], []
    for ev in log:
        verdict = game.apply(ev)
        if not verdict.ok or verdict.alerts:
            raise SystemExit(f"the clean log is not clean: {ev} -> {verdict.to_json()['alerts']}")
        keys.append(state_key(game))
        tops.append(game.state_json()["top"])
    return keys, tops


def logs(args: argparse.Namespace) -> list[tuple[str, str, list[Event]]]:
    out = []
    for rules in args.rules:
        for seed in range(args.first_seed, args.first_seed + args.games):
            raw = simulate(preset(rules), players=args.players, seed=seed, rounds=1)
            log = with_players(raw, rules)
            if args.max_events and len(log) > args.max_events:
                log = log[: args.max_events]
            out.append((f"simulator, {rules} rules", rules, log))
    if args.rendered:
        from synth.video import simulated_game

        for seed in range(args.first_seed, args.first_seed + args.games):
            log = simulated_game(seed, turns=40)
            out.append(("rendered videos' scripts, house rules", "house", log))
    return out


def mistakes(args: argparse.Namespace) -> dict[str, int]:
    """Logs with deliberate mistakes: how the expected alerts show through the healer."""
    counts: dict[str, int] = defaultdict(int)
    for rules in args.rules:
        for seed in range(args.first_seed, args.first_seed + args.games):
            raw = simulate(preset(rules), players=args.players, seed=seed, rounds=1, mistakes=0.05)
            healer = Healer(Game(preset(rules)))
            filled = with_players(raw, rules)
            for src, ev in zip(raw, filled, strict=True):
                healed = healer.apply(ev)
                if not src["expect"] or src["expect"] == ["bad-event"]:
                    continue
                counts["mistakes"] += 1
                codes = healed.codes
                if set(src["expect"]) <= set(codes):
                    counts["flagged as such"] += 1
                elif "ask-referee" in codes:
                    counts["flagged as a question"] += 1
                else:
                    counts["lost"] += 1
    return dict(counts)


def overhead(sources: list[tuple[str, str, list[Event]]]) -> str:
    """Time per event of a clean log: the healer against the bare game."""
    spent = {"game": 0.0, "healer": 0.0}
    count = 0
    for _source, rules, log in sources:
        for name in spent:
            judge: Any = Game(preset(rules))
            if name == "healer":
                judge = Healer(judge)
            start = time.perf_counter()
            for event in log:
                judge.apply(event)
            spent[name] += time.perf_counter() - start
        count += len(log)
    game_us, healer_us = (spent[k] / count * 1e6 for k in ("game", "healer"))
    return f"clean logs, time per event: game {game_us:.0f} us, healer {healer_us:.0f} us"


def row(mode: str, kind: str, outs: list[Outcome]) -> str:
    n = len(outs)
    loud = [o for o in outs if not o.silent]
    clued = [o for o in outs if o.clue]
    backs = [o.back_after for o in loud if o.back_after is not None]
    asked = [o for o in outs if o.asks]
    taps = sum(1 for o in asked if o.tapped_in_step)
    in_step = sum(o.by_next_play for o in outs) / n
    clued_in_step = sum(o.by_next_play for o in clued) / len(clued) if clued else 1.0
    spread = f"{statistics.median(backs) if backs else 0:g} / {max(backs) if backs else 0}"
    return (
        f"{mode:12} {kind:16} {n:4d} {n - len(loud):6d} "
        f"{sum(o.plain_alerts for o in outs) / n:12.2f} {sum(o.alerts for o in outs) / n:12.3f} "
        f"{sum(o.alerts > 1 for o in outs):8d} {len(asked):5d} {f'{taps}/{len(asked)}':>9} "
        f"{in_step:20.1%} {clued_in_step:12.1%} {spread:>40}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="logs per rule set (default 6)")
    parser.add_argument("--rules", nargs="+", default=["house", "official", "youlerren"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--max-events", type=int, default=120, help="cut each log there (0: whole)")
    parser.add_argument("--rendered", action="store_true", help="also the rendered videos' scripts")
    args = parser.parse_args()

    start = time.perf_counter()
    tables: dict[str, dict[tuple[str, str], list[Outcome]]] = defaultdict(lambda: defaultdict(list))
    clean_alerts = {False: 0, True: 0}
    for source, rules, log in logs(args):
        truth, tops = truth_of(log, rules)
        for camera in (False, True):
            clean_alerts[camera] += run(log, truth, tops, None, rules, camera, False).alerts
            for fault in faults(log):
                outcome = run(log, truth, tops, fault, rules, camera, True)
                tables[source][("camera" if camera else "events only", fault.kind)].append(outcome)
    print(
        f"clean logs: alerts from the events alone {clean_alerts[False]}, "
        f"with the camera's view {clean_alerts[True]}"
    )
    print(overhead(logs(args)))
    for source, table in tables.items():
        print(f"\n{source} ({len({id(o) for outs in table.values() for o in outs}) // 2} faults)")
        print(
            f"{'mode':12} {'fault':16} {'n':>4} {'silent':>6} {'bare/fault':>12} "
            f"{'alerts/fault':>12} {'>1 alert':>8} {'asked':>5} {'tap fixes':>9} "
            f"{'in step by next play':>20} {'(clue by it)':>12} "
            f"{'events to step, median/max (not silent)':>40}"
        )
        for (mode, kind), outs in sorted(table.items()):
            print(row(mode, kind, outs))
        for mode in ("events only", "camera"):
            every = [o for (m, _k), outs in table.items() if m == mode for o in outs]
            print(row(mode, "all", every))
    print()
    over = [o for t in tables.values() for outs in t.values() for o in outs if o.alerts > 1]
    twice = sum(1 for o in over if o.asks > 1)
    print(f"faults costing > 1 alert: {len(over)}, of which {twice} raise two or more questions")
    HEAL_MS.sort()
    if HEAL_MS:
        p90 = HEAL_MS[int(0.9 * (len(HEAL_MS) - 1))]
        print(
            f"time to judge a refused event ({len(HEAL_MS)}): median "
            f"{statistics.median(HEAL_MS):.1f} ms, 90th percentile {p90:.1f} ms, "
            f"max {HEAL_MS[-1]:.1f} ms"
        )
    print("deliberate mistakes through the healer:", mistakes(args))
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
