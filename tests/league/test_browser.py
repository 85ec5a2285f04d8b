"""The organiser's page in a real Chromium: live tiles, standings once a round ends."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.league.conftest import TOKENS
from tests.league.helpers import Table, simulated_match
from tests.web.helpers import LiveServer

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

TIMEOUT = 15_000  # ms; 2 shared cores
PLAYERS = ["Ann", "Bob", "Cy"]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's chromium (installed by .ci/run); nothing is downloaded."""
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    }


def test_board_follows_the_tables_and_standings_follow_the_rounds(
    page: Page, league_server: LiveServer, tmp_path: Path
) -> None:
    expect.set_options(timeout=TIMEOUT)
    page.set_default_timeout(TIMEOUT)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(league_server.url + "/")
    expect(page.locator("#conn")).to_have_class(re.compile(r"\bon\b"))
    table = Table(tmp_path, "t1", PLAYERS, league=league_server.url, token=TOKENS["t1"])
    try:
        table.play(
            [
                {"type": "round", "players": PLAYERS, "dealer": "Cy"},
                {"type": "flip", "card": "red-7"},
            ]
        )
        tile = page.locator('.tile[data-table="t1"]')
        expect(tile.locator(".card")).to_have_attribute("data-card", "red-7")
        expect(tile.locator(".turn")).to_have_attribute("data-turn", "Ann")
        table.play([{"type": "play", "card": "blue-3"}])  # illegal: does not match
        expect(tile.locator('.alerts li[data-code="illegal-card"]')).to_have_count(1)
        expect(tile).to_have_class("tile alerting")
        table.play([{"type": "play", "card": "red-2"}])
        expect(tile.locator(".turn")).to_have_attribute("data-turn", "Bob")
        expect(tile).to_have_class("tile")

        table.new_match(PLAYERS, "official")
        log = simulated_match("official", PLAYERS, seed=8, rounds=1)
        table.play(log)
        row = page.locator('table.standings[data-rules="official"] tr[data-player="Ann"]')
        expect(row).to_be_visible()
        expect(page.locator("#ratings svg polyline")).to_have_count(3)
        expect(tile.locator(".meta")).to_contain_text(f"match 2 · official · event {len(log)}")
        shot = Path(os.environ.get("UNO_LEAGUE_SCREENSHOT") or tmp_path / "league.png")
        page.screenshot(path=str(shot), full_page=True)
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        table.close()
