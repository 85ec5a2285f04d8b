"""Fixtures for the web tests: an app on a fresh database, a real threaded server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import PLAYERS, TOKEN, LiveServer
from web import create_app


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "uno.db")


@pytest.fixture
def app(db_path: str) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "DATABASE": db_path,
            "REFEREE_TOKEN": TOKEN,
            "PLAYERS": PLAYERS,
            "HEALTH_POLL_S": 0.2,
        }
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def live_server(app: Flask) -> Iterator[LiveServer]:
    with LiveServer(app) as server:
        yield server


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's chromium (installed by .ci/run); nothing is downloaded."""
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }
