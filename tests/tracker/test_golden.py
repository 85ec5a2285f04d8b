"""Golden game logs, like perft files for chess engines: events with their stored verdicts.

Each ``golden/*.jsonl`` line is ``{"event": ..., "expect": [...], "verdict": ...}``.
``scripted-*`` logs were written by hand from the published rules (``expect`` written
with them); the others were made by the simulator (``expect`` is what it meant). The
verdicts were reviewed when they were stored; a change in any verdict fails here. To
store new verdicts after a deliberate change of behaviour, review the diff of:

    UNO_REGEN_GOLDEN=1 .venv/bin/pytest tests/tracker/test_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tracker import Game, preset
from tracker.simulate import simulate

GOLDEN = Path(__file__).parent / "golden"

# name: (preset, players, seed, mistake rate, rounds)
LOGS: dict[str, tuple[str, int, int, float, int]] = {
    "official-4p-clean": ("official", 4, 1, 0.0, 2),
    "official-3p-mistakes": ("official", 3, 2, 0.15, 2),
    "official-2p": ("official", 2, 3, 0.05, 2),
    "house-5p-mistakes": ("house", 5, 4, 0.15, 2),
    "house-10p": ("house", 10, 5, 0.05, 1),
    "youlerren-4p-mistakes": ("youlerren", 4, 6, 0.15, 2),
}


# Hand-written logs: name -> preset.
SCRIPTED: dict[str, str] = {"scripted-official": "official"}


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _generate(name: str) -> None:
    path = GOLDEN / f"{name}.jsonl"
    if name in SCRIPTED:
        rules = preset(SCRIPTED[name])
        pairs = [(r["event"], r["expect"]) for r in _read(path)]
    else:
        rules_name, players, seed, mistakes, rounds = LOGS[name]
        rules = preset(rules_name)
        log = simulate(rules, players=players, seed=seed, mistakes=mistakes, rounds=rounds)
        pairs = [(event, event.pop("expect")) for event in log]
    game = Game(rules)
    lines = []
    for event, expect in pairs:
        verdict = game.apply(event).to_json()
        record = {"event": event, "expect": expect, "verdict": verdict}
        lines.append(json.dumps(record, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("name", sorted([*LOGS, *SCRIPTED]))
def test_golden_log(name: str) -> None:
    if os.environ.get("UNO_REGEN_GOLDEN") == "1":
        _generate(name)
    path = GOLDEN / f"{name}.jsonl"
    records = _read(path)
    assert len(records) > 30
    game = Game(preset(SCRIPTED[name] if name in SCRIPTED else LOGS[name][0]))
    for number, record in enumerate(records, start=1):
        verdict = game.apply(record["event"])
        assert [a["code"] for a in record["verdict"]["alerts"]] == record["expect"], number
        assert verdict.to_json() == record["verdict"], f"{path.name} line {number}"


def test_golden_logs_on_disk_are_the_listed_ones() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.jsonl")) == sorted([*LOGS, *SCRIPTED])
