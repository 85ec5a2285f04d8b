"""The healer's question on the tablet page, in a real Chromium: one tap answers it."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.helpers import LiveServer
from tests.web.test_browser import TIMEOUT, deal, open_page, post

pytestmark = pytest.mark.browser
expect.set_options(timeout=TIMEOUT)


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def ask(server: LiveServer) -> None:
    """Ann +2; Cy plays (Bob's penalty inferred); Ann plays out of turn: one question."""
    deal(server)
    post(server, {"type": "play", "card": "red-draw2", "player": "Ann"})
    post(server, {"type": "play", "card": "red-4", "player": "Cy"})
    post(server, {"type": "play", "card": "blue-4", "player": "Ann"})


def test_the_question_is_answered_with_one_tap(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    ask(live_server)
    banner = page.locator("#alert")
    expect(banner).to_have_attribute("data-codes", "ask-referee")
    expect(banner).to_contain_text("Did Dee draw a card?")
    buttons = banner.locator(".ask-options button")
    # Yes, the three other options (as judged, Dee's card, Dee's not Ann's), another card
    expect(buttons).to_have_count(5)
    expect(banner.locator('.ask-options button:has-text("not Ann")')).to_have_count(1)
    expect(buttons.nth(0)).to_have_text("Yes")
    other = banner.locator('.ask-options button:has-text("out of turn")')
    expect(other).to_have_text(re.compile(r"^No: Ann played out of turn"))
    # The log shows what was inferred.
    expect(page.locator("#log")).to_contain_text("inferred")
    other.click()
    # The record is put back: Ann's play refused as judged, Dee to play.
    expect(page.locator("#turn")).to_have_text("Dee")
    expect(banner).to_have_attribute("data-codes", "out-of-turn")
    expect(banner.locator(".ask-options")).to_have_count(0)
    assert get_json(live_server.url + "/api/state")["question"] is None


def test_yes_keeps_the_record_and_the_buttons_go(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    ask(live_server)
    banner = page.locator("#alert")
    expect(banner.locator(".ask-options button")).to_have_count(5)
    n = get_json(live_server.url + "/api/state")["n"]
    banner.locator('.ask-options [data-option="0"]').click()
    expect(banner).to_be_hidden()
    expect(page.locator("#turn")).to_have_text("Bob")  # Ann's blue-4 stands
    state = get_json(live_server.url + "/api/state")
    assert state["question"] is None and state["n"] == n


def test_a_spectator_sees_the_question_without_buttons(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server, referee=False)
    ask(live_server)
    banner = page.locator("#alert")
    expect(banner).to_contain_text("Did Dee draw a card?")
    expect(banner.locator(".ask-options")).to_have_count(0)
