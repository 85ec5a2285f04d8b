"""The fuzzer itself runs, briefly, against this version's ``serve`` and finds nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_short_fuzz_run_finds_no_problem() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "benchmarks/fuzz_web.py",
            "--cases",
            "3",
            "--kills",
            "1",
            "--seconds",
            "60",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "problems: none" in done.stdout
    assert "retries stored twice: 0" in done.stdout
