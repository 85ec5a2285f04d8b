"""The examples in the docstrings are run: documentation that no longer holds fails."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("tracker", "vision", "uno_table", "web", "synth")


def _modules() -> list[str]:
    names = []
    for pkg in PACKAGES:
        root = importlib.import_module(pkg)
        names.append(pkg)
        names += [
            m.name
            for m in pkgutil.walk_packages(root.__path__, pkg + ".")
            if not m.name.endswith("__main__")  # runs the command line when imported
        ]
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, report=True, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed"
