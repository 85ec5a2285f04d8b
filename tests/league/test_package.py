"""The league package: its docstring examples hold, and it stands apart from the table's code."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import league

ROOT = Path(__file__).resolve().parents[2]


def _modules() -> list[str]:
    return ["league", *(m.name for m in pkgutil.walk_packages(league.__path__, "league."))]


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_league_imports_nothing_of_the_table() -> None:
    found: set[str] = set()
    for path in (ROOT / "league").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    assert not found & {"web", "vision", "uno_table", "cv2", "torch", "ultralytics"}
