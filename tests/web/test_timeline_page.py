"""The timeline on the page, in Chromium: the round's events, a past one deleted or
corrected, at tablet and phone sizes, in English and Chinese."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.helpers import PLAYERS, TOKEN, LiveServer
from tests.web.test_browser import deal, open_page, post
from tests.web.test_referee_page import SIZES
from web import create_app

pytestmark = pytest.mark.browser


def seat_count(page: Page, player: str) -> str:
    return page.locator(f'#seats [data-player="{player}"] .seat-count').inner_text()


def test_deleting_a_past_event_from_the_timeline(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    deal(live_server)
    post(live_server, {"type": "play", "card": "red-3", "player": "Ann"})
    post(live_server, {"type": "draw", "player": "Bob"})  # the camera saw a draw that was not
    post(live_server, {"type": "play", "card": "red-4", "player": "Bob"})
    expect(page.locator('#seats [data-player="Bob"] .seat-count')).to_have_text("7 cards")
    page.locator("#btn-timeline").click()
    rows = page.locator("#timeline-list .tl-entry")
    expect(rows).to_have_count(5)
    expect(rows.nth(0).locator("button")).to_have_count(0)  # the deal is not amended
    draw = page.locator('#timeline-list .tl-entry[data-type="draw"]')
    expect(draw).to_contain_text("Draw · Bob")
    draw.locator('[data-action="delete"]').click()
    # The dialog says what will change before anything is sent.
    expect(page.locator("#amend-what")).to_have_text(
        "Delete “#4 Draw · Bob — referee”? 1 later event will be judged again."
    )
    expect(page.locator("#amend-form")).to_be_hidden()
    page.locator("#amend-go").click()
    expect(rows).to_have_count(4)
    expect(page.locator('#timeline-list .tl-entry[data-type="draw"]')).to_have_count(0)
    expect(page.locator('#seats [data-player="Bob"] .seat-count')).to_have_text("6 cards")
    expect(page.locator("#turn")).to_have_text("Cy")
    # The record says what happened.
    expect(page.locator("#log")).to_contain_text("Deleted #4")


def test_correcting_a_misread_card_in_chinese(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    page.locator("#btn-lang").click()
    deal(live_server)
    post(live_server, {"type": "play", "card": "red-3", "player": "Ann"})
    page.locator("#btn-timeline").click()
    row = page.locator('#timeline-list .tl-entry[data-type="play"]')
    expect(row).to_contain_text("出牌 红 3 · Ann")
    row.locator('[data-action="replace"]').click()
    page.locator("#amend-card").click()
    page.locator('#card-grid [data-card="green-7"]').click()
    expect(page.locator("#amend-what")).to_have_text(
        "把“#3 出牌 红 3 · Ann — 裁判”改为“出牌 绿 7 · Ann”？之后没有需要重新判定的事件。"
    )
    page.locator("#amend-go").click()
    expect(page.locator("#top-card")).to_have_attribute("data-card", "green-7")
    expect(page.locator('#timeline-list .tl-entry[data-type="play"]')).to_contain_text("绿 7")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_timeline_fits_the_screen(
    page: Page, live_server: LiveServer, size: str, tmp_path: Path
) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    open_page(page, live_server)
    deal(live_server)
    for card, player in [("red-3", "Ann"), ("red-4", "Bob"), ("blue-9", "Dee")]:
        post(live_server, {"type": "play", "card": card, "player": player})
    page.locator("#btn-timeline").click()
    rows = page.locator("#timeline-list .tl-entry")
    expect(rows).to_have_count(5)
    expect(rows.nth(4)).to_contain_text("out of turn")
    for button in rows.nth(4).locator("button").all():
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, size
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shots = Path(os.environ.get("UNO_TABLE_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"timeline-{width}x{height}.png"))


@pytest.fixture
def bare_server(db_path: str) -> Iterator[LiveServer]:
    """Healing off: a missed draw leaves its alerts until the referee adds it."""
    app = create_app(
        {"TESTING": True, "DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "PLAYERS": PLAYERS}
        | {"HEAL": False}
    )
    with LiveServer(app) as server:
        yield server


def test_adding_a_missed_draw_clears_the_alerts(page: Page, bare_server: LiveServer) -> None:
    open_page(page, bare_server)
    deal(bare_server)
    post(bare_server, {"type": "play", "card": "red-3", "player": "Ann"})
    post(bare_server, {"type": "play", "card": "red-5", "player": "Cy"})  # Bob's draw missed
    page.locator("#btn-timeline").click()
    cy = page.locator('#timeline-list .tl-entry[data-type="play"]').last
    expect(cy).to_contain_text("out of turn")
    cy.locator('[data-action="insert"]').click()
    # A draw by whoever's turn it was there, as the form proposes.
    expect(page.locator("#amend-type")).to_have_value("draw")
    expect(page.locator("#amend-what")).to_have_text(
        "Add “Draw” before “#4 Play Red 5 · Cy — referee”? 1 later event will be judged again."
    )
    page.locator("#amend-go").click()
    rows = page.locator("#timeline-list .tl-entry")
    expect(rows).to_have_count(5)
    expect(page.locator("#timeline-list .alert-line")).to_have_count(0)
    expect(rows.nth(3)).to_contain_text("Draw · Bob")
    expect(page.locator("#turn")).to_have_text("Dee")


def test_the_t_key_opens_the_timeline(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    deal(live_server)
    expect(page.locator("#turn")).to_have_text("Ann")
    page.keyboard.press("t")
    expect(page.locator("#dlg-timeline")).to_be_visible()
    expect(page.locator("#timeline-list .tl-entry")).to_have_count(2)
