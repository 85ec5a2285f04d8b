"""``uno-table detect``: the JSON format of DESIGN.md, folders, and bad images."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from synth.render.scene import compose_scene
from uno_table.cli import main


@pytest.fixture(scope="module")
def scene_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scenes")
    rng = np.random.default_rng(7)
    (root / "sub").mkdir()
    for i, cards in enumerate([["red-7"], ["blue-skip", "back"]]):
        scene = compose_scene(rng, cards=cards, size=(480, 640))
        folder = root if i == 0 else root / "sub"
        cv2.imwrite(str(folder / f"scene{i}.jpg"), scene.image)
    (root / "notes.txt").write_text("not an image, ignored in a folder")
    return root


def _lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_json_lines_match_the_design(scene_files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detect", str(scene_files / "scene0.jpg"), "--json"]) == 0
    (record,) = _lines(capsys)
    assert set(record) == {"image", "cards"}
    assert record["image"] == str(scene_files / "scene0.jpg")
    cards = record["cards"]
    assert isinstance(cards, list) and cards
    for card in cards:
        assert set(card) == {"card", "confidence", "box"}
        assert isinstance(card["card"], str) and 0.0 <= card["confidence"] <= 1.0
        x1, y1, x2, y2 = card["box"]
        assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= 480
    confs = [c["confidence"] for c in cards]
    assert confs == sorted(confs, reverse=True)


def test_a_folder_means_every_image_below_it(
    scene_files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["detect", str(scene_files), "--json"]) == 0
    records = _lines(capsys)
    assert [Path(str(r["image"])).name for r in records] == ["scene0.jpg", "scene1.jpg"]
    assert all("cards" in r for r in records)


def test_bad_images_get_an_error_line_and_the_run_goes_on(
    scene_files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0 this is no jpeg" * 10)
    missing = tmp_path / "missing.png"
    good = scene_files / "scene0.jpg"
    code = main(["detect", str(empty), str(corrupt), str(missing), str(good), "--json"])
    assert code == 1
    records = _lines(capsys)
    assert [r["image"] for r in records] == [str(empty), str(corrupt), str(missing), str(good)]
    assert "empty" in str(records[0]["error"])
    assert "not a readable image" in str(records[1]["error"])
    assert "no such file" in str(records[2]["error"])
    assert "cards" in records[3] and "error" not in records[3]


def test_plain_text_output(scene_files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detect", str(scene_files / "scene0.jpg")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(str(scene_files / "scene0.jpg") + ": ")


def test_missing_models_are_a_clear_error(
    scene_files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["detect", str(scene_files / "scene0.jpg"), "--models", str(tmp_path)])
    assert code == 2
    assert "cannot load the recogniser" in capsys.readouterr().err
