"""The watcher's thresholds: one documented configuration, loadable from the table file."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from uno_table.cli import main
from uno_table.session import TableSession
from vision.calibration import TableLayout
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig


def table_file(tmp_path: Path, watcher: object = None) -> Path:
    path = tmp_path / "table.json"
    TableLayout.default(640, 480, 3).save(path)
    if watcher is not None:
        data = json.loads(path.read_text())
        path.write_text(json.dumps({**data, "watcher": watcher}))
    return path


def test_every_setting_is_a_documented_number() -> None:
    text = (Path(__file__).parents[2] / "vision" / "watcher_config.py").read_text()
    for f in dataclasses.fields(WatcherConfig):
        assert f.type in ("float", "int"), f.name
        line = next(line for line in text.splitlines() if line.strip().startswith(f.name + ":"))
        assert "#" in line, f"{f.name} has no comment saying what it is"


def test_a_table_file_overrides_the_defaults(tmp_path: Path) -> None:
    assert WatcherConfig.load(table_file(tmp_path)) == WatcherConfig()
    cfg = WatcherConfig.load(table_file(tmp_path, {"lost_s": 0.6, "votes": 12}))
    assert (cfg.lost_s, cfg.votes, cfg.rest_s) == (0.6, 12, WatcherConfig().rest_s)
    assert isinstance(cfg.votes, int)


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"lost": 0.6}, "unknown watcher setting 'lost'"),
        ({"lost_s": "long"}, "must be a number"),
        ({"lost_s": -1}, "must be a number >= 0"),
        ({"votes": 2.5}, "whole number"),
        ([1, 2], '"watcher" is an object'),
    ],
)
def test_a_bad_setting_is_a_clear_error(tmp_path: Path, settings: object, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        WatcherConfig.load(table_file(tmp_path, settings))


def test_the_session_gives_the_table_s_settings_to_its_watcher(tmp_path: Path) -> None:
    path = table_file(tmp_path, {"lost_s": 0.6})
    session = TableSession(
        ["Ann", "Bob", "Cy"],
        None,
        lambda e, s, m: None,
        layout=TableLayout.load(path),
        config=WatcherConfig.load(path),
    )
    session.start(np.zeros((480, 640, 3), np.uint8))
    assert isinstance(session.watcher, Watcher)
    assert session.watcher.cfg.lost_s == 0.6
    assert session.watcher.tracker.cfg is session.watcher.cfg


def test_calibrate_table_edit_keeps_the_watcher_settings(tmp_path: Path) -> None:
    path = table_file(tmp_path, {"lost_s": 0.6})
    out = tmp_path / "edited.json"
    edit = ["calibrate-table", "--edit", str(path), "--bearings", "0,120,240", "--out", str(out)]
    assert main(edit) == 0
    assert json.loads(out.read_text())["watcher"] == {"lost_s": 0.6}
    assert TableLayout.load(out).seats == (0.0, 120.0, 240.0)
    bad = table_file(tmp_path, {"lost": 1})
    assert main(["calibrate-table", "--edit", str(bad), "--out", str(out)]) == 2
