# Two commands for a new user: `make demo` runs the assistant, `make test` runs the tests.
# Both create .venv on first use; the stamp file re-installs when pyproject.toml changes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-fast lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/uno-table demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict tracker

# pytest runs last so that its summary line is the last thing printed.
test: lint
	$(BIN)/pytest

# The fast tier: lint and every test not marked slow (a few minutes).
test-fast: lint
	$(BIN)/pytest -m "not slow"

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
