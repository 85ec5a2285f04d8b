"""The simulator: any preset, 2-10 players, legal play plus deliberate mistakes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tracker import Game, parse_card, preset
from tracker.simulate import Simulator, main, simulate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("rules_name", ["official", "house", "youlerren"])
@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_clean_games_raise_no_alert(rules_name: str, players: int) -> None:
    rules = preset(rules_name)
    game = Game(rules)
    log = simulate(rules, players=players, seed=players, rounds=2)
    assert sum(1 for e in log if e["type"] == "end-round") == 2
    for event in log:
        assert event.pop("expect") == []
        verdict = game.apply(event)
        assert verdict.ok and verdict.alerts == [], (event, verdict.to_json())


def test_mistakes_raise_the_expected_alerts() -> None:
    seen: Counter[str] = Counter()
    for rules_name in ("official", "house", "youlerren"):
        rules = preset(rules_name)
        for seed in range(6):
            game = Game(rules)
            for event in simulate(rules, players=4, seed=seed, mistakes=0.15, rounds=2):
                expect = event.pop("expect")
                assert game.apply(event).codes == expect, event
                seen.update(expect)
    for code in ("illegal-card", "out-of-turn", "missed-uno", "bad-event"):
        assert seen[code] > 0, seen


def test_the_same_seed_gives_the_same_log() -> None:
    rules = preset("house")
    assert simulate(rules, seed=9, mistakes=0.1) == simulate(rules, seed=9, mistakes=0.1)
    assert simulate(rules, seed=9) != simulate(rules, seed=10)


def test_a_log_of_a_given_length_spans_rounds_and_matches() -> None:
    log = simulate(preset("official"), players=3, seed=1, events=3000)
    assert len(log) == 3000
    assert sum(1 for e in log if e["type"] == "round") > 3


def test_player_count_is_checked() -> None:
    with pytest.raises(ValueError, match="2 to 10"):
        Simulator(preset("official"), players=11)
    with pytest.raises(ValueError, match="even"):
        Simulator(preset("official").with_(scoring="partners"), players=3)


def test_command_line_writes_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "log.jsonl"
    assert main(["--rules", "youlerren", "--players", "5", "--seed", "2", "-o", str(out)]) == 0
    events = [json.loads(line) for line in out.read_text().splitlines()]
    assert events[0]["type"] == "round" and len(events[0]["players"]) == 5
    assert all("expect" in e for e in events)
    assert main(["--seed", "2", "--no-expect"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed and all("expect" not in e for e in printed)


def test_python_dash_m_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tracker.simulate", "--seed", "4", "--players", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(result.stdout.splitlines()[-1])["type"] == "end-round"


def _facing(rules_name: str, kind: str, cards: int, hand: list[str]) -> Simulator:
    """A simulator whose player on turn faces a pending penalty, holding ``hand``."""
    sim = Simulator(preset(rules_name), players=2, seed=0)
    sim.play_round()  # deal a real round, then set the moment up
    sim.events.clear()
    sim.hands = [[parse_card(name) for name in hand], [parse_card("green-1")] * 5]
    sim.top, sim.color, sim.turn, sim.direction = parse_card(kind), "blue", 0, 1
    sim.pending = 4 if kind == "wild-draw4" else 2 * cards
    sim.pending_kind = "wild-draw4" if kind == "wild-draw4" else "draw2"
    sim.pending_cards = cards
    sim.drew, sim.winner, sim.mistakes = False, None, 0.0
    return sim


def test_the_simulator_answers_penalties_by_the_tracker_s_rules() -> None:
    # house (000): only a same-colour pair of Draw Twos covers a +4 ...
    plays = set()
    for seed in range(20):
        sim = _facing("house", "wild-draw4", 1, ["red-draw2", "red-draw2", "blue-draw2", "blue-3"])
        sim.rng.seed(seed)
        sim.step()
        event = sim.events[0]
        plays.add((event["type"], tuple(event.get("cards", ())), event.get("count")))
    assert plays == {("play", ("red-draw2", "red-draw2"), None), ("draw", (), 4)}
    # ... and a single Draw Two never goes on a pair
    for seed in range(20):
        sim = _facing("house", "blue-draw2", 2, ["red-draw2", "blue-3", "green-7"])
        sim.rng.seed(seed)
        sim.step()
        assert sim.events[0]["type"] == "draw"
