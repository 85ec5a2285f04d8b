"""The project's foundation: the console script, the offline ultralytics setup and the
package boundaries the architecture promises."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from uno_table.cli import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[1]


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_subcommand_has_its_own_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args([name, "--help"])
    assert exc.value.code == 0
    assert f"uno-table {name}" in capsys.readouterr().out


def test_the_design_commands_exist() -> None:
    for name in ("demo", "serve", "detect", "referee", "replay"):
        assert name in COMMANDS


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "uno-table"
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "referee" in result.stdout


def test_ultralytics_environment_is_offline_and_project_local() -> None:
    code = (
        "import os, vision\n"
        "print(os.environ['YOLO_OFFLINE'], os.environ['YOLO_AUTOINSTALL'],"
        " os.environ['YOLO_CONFIG_DIR'])\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("YOLO_")}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )
    assert out.returncode == 0, out.stderr
    offline, autoinstall, config_dir = out.stdout.split()
    assert offline == "1"
    assert autoinstall == "false"
    assert Path(config_dir).is_relative_to(ROOT)
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", str(Path(config_dir) / "settings.json")], cwd=ROOT
    )
    assert ignored.returncode == 0, "the ultralytics settings folder must be git-ignored"


def _imported_packages(package: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        (
            "tracker",
            {"vision", "web", "uno_table", "numpy", "cv2", "torch", "ultralytics", "flask"},
        ),
        ("vision", {"web", "uno_table", "flask"}),
        ("web", {"vision", "uno_table", "cv2", "torch", "ultralytics"}),
    ],
)
def test_package_boundaries(package: str, forbidden: set[str]) -> None:
    leaked = _imported_packages(package) & forbidden
    assert not leaked, f"{package}/ must not import {sorted(leaked)}"
