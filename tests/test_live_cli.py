"""``uno-table serve`` refuses bad arguments with a clear message, before serving."""

from __future__ import annotations

from pathlib import Path

import pytest

from uno_table.cli import main


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nope"], "unknown rule preset 'nope'"),
        (["--players", "Ann"], "at least 2 distinct names"),
        (["--players", "Ann,Ann"], "at least 2 distinct names"),
        (["--layout", "no-such-layout.json"], "No such file"),
        (["--db", "/proc/no-such-dir/x.db"], "cannot open the database"),
    ],
)
def test_serve_refuses_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--source", "none", "--port", "0", *args]) == 2
    assert message in capsys.readouterr().err


def test_serve_refuses_a_layout_for_other_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.calibration import TableLayout

    path = tmp_path / "table.json"
    TableLayout.default(640, 480, 3).save(path)
    code = main(["serve", "--source", "none", "--layout", str(path), "--players", "A,B"])
    assert code == 2
    assert "the layout has 3 seats for 2 players" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["serve", "--source", "none", "--layout", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_serve_reads_the_layout_the_camera_check_saved_beside_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from uno_table.commands.serve import default_layout_file
    from vision.calibration import TableLayout

    db = tmp_path / "club.db"
    assert default_layout_file(str(db)) == str(tmp_path / "club.layout.json")
    TableLayout.default(640, 480, 3).save(tmp_path / "club.layout.json")
    # Found without --layout, and checked like one: 3 seats, 2 players.
    assert main(["serve", "--source", "none", "--db", str(db), "--players", "A,B"]) == 2
    assert "the layout has 3 seats for 2 players" in capsys.readouterr().err
