"""The examples in the tracker's docstrings are true."""

import doctest
import importlib

import pytest

MODULES = [
    "tracker",
    "tracker.cards",
    "tracker.rules",
    "tracker.messages",
    "tracker.scoring",
    "tracker.game",
    "tracker.state",
    "tracker.verdict",
    "tracker.simulate",
    "tracker.simulate_table",
    "tracker.simulate_turns",
    "tracker.simulate_mistakes",
    "tracker.events",
    "tracker.legal",
    "tracker.tables",
    "tracker.vocabulary",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
