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
            {"vision", "web", "uno_table", "synth", "numpy", "cv2", "torch", "ultralytics"}
            | {"flask"},
        ),
        ("vision", {"web", "uno_table", "synth", "flask"}),
        ("web", {"vision", "uno_table", "synth", "cv2", "torch", "ultralytics"}),
        ("synth", {"web", "uno_table", "flask"}),
    ],
)
def test_package_boundaries(package: str, forbidden: set[str]) -> None:
    leaked = _imported_packages(package) & forbidden
    assert not leaked, f"{package}/ must not import {sorted(leaked)}"


# The commands that render (or read a rendering's ground truth) import ``synth`` inside
# the command, never at module level.
RENDERING_COMMANDS = frozenset(
    {"render_video.py", "train.py", "demo.py", "replay.py"}  # replay: ``--oracle``
)


def _module_level_imports(tree: ast.Module) -> set[str]:
    """Top-level packages imported when the module loads (function bodies left out)."""
    found: set[str] = set()
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
        todo.extend(ast.iter_child_nodes(node))
    return found


def test_uno_table_imports_the_synthetic_side_only_inside_rendering_commands() -> None:
    for path in (ROOT / "uno_table").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert "synth" not in _module_level_imports(tree), f"{path} imports synth on load"
        if path.parent.name != "commands" or path.name not in RENDERING_COMMANDS:
            everywhere = _imported_packages_of(tree)
            assert "synth" not in everywhere, f"{path} must not import synth"


def _imported_packages_of(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def _loaded_after(code: str) -> set[str]:
    """The modules ``sys.modules`` holds after running ``code`` in a fresh interpreter."""
    probe = code + "\nimport sys\nprint('\\n'.join(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


def test_the_runtime_never_loads_the_synthetic_side() -> None:
    code = (
        "import importlib, pkgutil\n"
        "for pkg in ('tracker', 'vision', 'web', 'uno_table'):\n"
        "    root = importlib.import_module(pkg)\n"
        "    for m in pkgutil.walk_packages(root.__path__, pkg + '.'):\n"
        "        if not m.name.endswith('__main__'):\n"
        "            importlib.import_module(m.name)\n"
    )
    loaded = _loaded_after(code)
    assert "vision.recognition" in loaded and "uno_table.commands.train" in loaded
    leaked = sorted(m for m in loaded if m == "synth" or m.startswith("synth."))
    assert not leaked, f"the runtime loaded {leaked}"


def test_the_watcher_loads_no_image_code() -> None:
    loaded = _loaded_after("import vision.watcher")
    drawing = {
        "cv2",
        "synth",
        "vision.annotate",
        "vision.pile_colors",
        "vision.ink_colors",
        "vision.geometry",
    }
    leaked = sorted(m for m in loaded if m.split(".")[0] in drawing or m in drawing)
    assert not leaked, f"vision.watcher loaded {leaked}"
