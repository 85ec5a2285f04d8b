"""`uno-table referee`: one verdict per input line, bad lines included; exit 0."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tracker import Game, preset
from tracker.simulate import simulate
from uno_table.cli import main

ROOT = Path(__file__).resolve().parents[2]

LINES = [
    '{"type": "round", "players": ["Ann", "Bob", "Cy"], "dealer": "Cy"}',
    '{"type": "flip", "card": "red-5"}',
    "this is not json",
    '{"type": "play", "card": "red-7"}',
    "",
    '{"type": "play", "card": "blue-3", "player": "Bob"}',
    '{"type": "teleport"}',
    '{"type": "play", "card": "red-77", "player": "Bob"}',
    '{"type": "play", "card": "red-8", "player": "Zed"}',
    "[1, 2, 3]",
    '{"type": "play", "card": "red-8", "player": "Bob"}',
]


def referee(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "uno_table", "referee", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        check=False,
    )


def test_one_verdict_per_line_from_a_file(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    result = referee("--rules", "official", str(log))
    assert result.returncode == 0, result.stderr
    verdicts = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(verdicts) == len(LINES)
    assert [v["seq"] for v in verdicts] == list(range(1, len(LINES) + 1))
    codes = [[a["code"] for a in v["alerts"]] for v in verdicts]
    assert codes == [
        [],
        [],
        ["bad-event"],
        [],
        ["bad-event"],
        ["illegal-card"],
        ["bad-event"],
        ["bad-event"],
        ["bad-event"],
        ["bad-event"],
        [],
    ]
    assert verdicts[-1]["state"]["top"] == "red-8"
    assert verdicts[-1]["state"]["turn"] == "Cy"


def test_standard_input_and_a_line_that_is_not_utf8() -> None:
    data = b'{"type": "round", "players": ["A", "B"]}\n\xff\xfe garbage\n{"type": "undo"}'
    result = referee("--rules", "house", stdin=data)
    assert result.returncode == 0
    verdicts = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [v["ok"] for v in verdicts] == [True, False, True]
    assert verdicts[2]["state"]["hands"] == {}


def test_the_output_is_what_the_library_says(tmp_path: Path) -> None:
    rules = preset("youlerren")
    events = simulate(rules, players=3, seed=5, mistakes=0.1, rounds=1)
    for event in events:
        event.pop("expect")
    log = tmp_path / "sim.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    result = referee("--rules", "youlerren", str(log))
    _, verdicts = Game.replay(events, rules)
    got = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert got == [v.to_json() for v in verdicts]


def test_toggles_and_chinese_messages(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    lines = [
        '{"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"}',
        '{"type": "flip", "card": "red-5"}',
        '{"type": "play", "card": "red-draw2"}',
        '{"type": "play", "card": "blue-draw2"}',
    ]
    log.write_text("\n".join(lines), encoding="utf-8")
    plain = referee("--rules", "official", "--lang", "zh", str(log))
    last = json.loads(plain.stdout.decode().splitlines()[-1])
    assert last["alerts"][0]["code"] == "penalty-pending"
    assert last["alerts"][0]["message"] == last["alerts"][0]["messages"]["zh"]
    assert "罚" in last["alerts"][0]["message"]
    stacked = referee("--rules", "official", "--set", "stack_draw2_on_draw2=true", str(log))
    assert json.loads(stacked.stdout.decode().splitlines()[-1])["state"]["pending_draw"] == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "poker"], "unknown rule preset 'poker'"),
        (["--set", "warp=1"], "expected NAME=VALUE"),
        (["/no/such/file.jsonl"], "cannot read /no/such/file.jsonl"),
    ],
)
def test_exit_status_2_when_the_input_or_the_rules_are_unusable(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["referee", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_directory_cannot_be_read(tmp_path: Path) -> None:
    result = referee(str(tmp_path))
    assert result.returncode == 2 and b"cannot read" in result.stderr
