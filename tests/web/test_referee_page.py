"""The page as a referee uses it (issue 21 §2): words, round end, undo, dealer, warnings,
layout at tablet and phone sizes. Browser tests run in Debian's Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Page, expect

from tests.web.helpers import AUTH, PLAYERS, TOKEN, LiveServer, deal
from tests.web.test_browser import open_page, post
from web import create_app

SIZES = {"landscape tablet": (1024, 768), "portrait tablet": (768, 1024), "phone": (390, 844)}


# -- without a browser -----------------------------------------------------------------


def test_the_state_names_what_undo_takes_back(app: Flask, client: FlaskClient) -> None:
    deal(client)
    assert client.get("/api/state").json["undo"]["event"] == {"type": "flip", "card": "red-7"}
    client.post("/api/events", json={"type": "play", "card": "red-3"}, headers=AUTH)
    refused = client.post("/api/events", json={"type": "play", "card": "blue-9"}, headers=AUTH)
    assert refused.json["verdict"]["ok"] is False
    undo = client.get("/api/state").json["undo"]
    # Not the refused play shown last: it changed nothing. The play before it.
    assert undo == {"n": 3, "source": "referee", "event": {"type": "play", "card": "red-3"}}
    client.post("/api/events", json={"type": "undo"}, headers=AUTH)
    assert client.get("/api/state").json["undo"]["n"] == 2
    # The same after a restart on the same database.
    again = create_app(
        {"DATABASE": app.config["DATABASE"], "REFEREE_TOKEN": TOKEN, "TESTING": True}
    )
    assert again.test_client().get("/api/state").json["undo"]["n"] == 2
    client.post("/api/events", json={"type": "undo"}, headers=AUTH)
    client.post("/api/events", json={"type": "undo"}, headers=AUTH)
    assert client.get("/api/state").json["undo"] is None


def test_the_page_offers_a_qr_code_of_itself(client: FlaskClient) -> None:
    qr = client.get("/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert b"<svg" in qr.data and b"<path" in qr.data
    html = client.get("/", base_url="http://192.168.7.20:8000").get_data(as_text=True)
    assert "192.168.7.20:8000" in html and 'src="/qr.svg"' in html


# -- in Chromium ------------------------------------------------------------------------


def end_round(server: LiveServer, hands: dict[str, list[str]]) -> dict[str, Any]:
    return post(server, {"type": "end-round", "hands": hands})


@pytest.mark.browser
def test_round_end_is_a_calm_summary(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    post(live_server, {"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"})
    post(live_server, {"type": "flip", "card": "red-7"})
    post(live_server, {"type": "play", "card": "red-3"})
    # Bob shows one card where the record says 7: one quiet note, singular.
    end_round(live_server, {"Ann": [], "Bob": ["wild"]})
    dialog = page.locator("#dlg-summary")
    expect(dialog).to_be_visible()
    expect(page.locator("#summary-title")).to_have_text("Ann wins round 1")
    expect(page.locator('#summary-table tr[data-player="Ann"]')).to_have_class("won")
    expect(page.locator('#summary-table tr[data-player="Ann"] td').nth(2)).to_have_text("50")
    expect(page.locator('#summary-table tr[data-player="Ann"] td').nth(3)).to_have_text("50")
    expect(page.locator("#summary-standing")).to_have_text("Standing: 1. Ann 50 · 2. Bob 0")
    notes = page.locator("#summary-notes")
    expect(notes).to_contain_text("Bob's hand shows 1 card; the record says 7")
    expect(notes).not_to_contain_text("1 cards")
    expect(page.locator("#alert")).to_be_hidden()  # no red banner, no beep
    assert page.locator("body").get_attribute("data-beeps") is None
    page.locator("#dlg-summary button").click()

    # The next round proposes the dealer the state names (after Bob: Ann), not one more.
    page.locator("#btn-start-round").click()
    expect(page.locator("#round-dealer")).to_have_value("Ann")


@pytest.mark.browser
def test_end_round_needs_a_winner_to_confirm(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    post(live_server, {"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"})
    post(live_server, {"type": "flip", "card": "red-7"})
    page.locator("#btn-end-round").click()
    page.locator('#end-table input[data-player="Ann"]').fill("red-1")
    page.locator('#end-table input[data-player="Bob"]').fill("blue-2")
    expect(page.locator("#end-headline")).to_contain_text("No one has an empty hand")
    expect(page.locator("#end-go")).to_be_disabled()
    page.locator('#end-table input[data-player="Ann"]').fill("")
    expect(page.locator("#end-headline")).to_have_text("Ann goes out and wins the round")
    expect(page.locator("#end-go")).to_be_enabled()


@pytest.mark.browser
def test_alerts_name_cards_in_words_in_both_languages(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    post(live_server, {"type": "round", "players": PLAYERS, "dealer": "Dee"})
    post(live_server, {"type": "flip", "card": "red-7"})
    post(live_server, {"type": "play", "card": "green-draw2"})  # matches nothing
    text = page.locator("#alert-text")
    expect(text).to_contain_text("Ann played Green Draw Two on Red 7")
    expect(text).not_to_contain_text("draw2")
    page.locator("#btn-lang").click()
    expect(text).to_contain_text("Ann 在 红 7 上出了 绿 +2")
    assert not any(w in text.inner_text() for w in ("red", "green", "draw2"))
    expect(page.locator("#log li").first).to_contain_text("出牌 绿 +2")
    # The picker's buttons fit: symbols, with the name in words as the tooltip.
    page.locator("#btn-lang").click()
    page.locator("#btn-play").click()
    reverse = page.locator('#card-grid [data-card="red-reverse"]')
    expect(reverse).to_have_attribute("title", "Red Reverse")
    assert reverse.evaluate("b => b.scrollWidth <= b.clientWidth")


class SlowRecognition:
    """The live side of a machine too slow for its camera (104 ms a frame at 30 fps)."""

    def frame_jpeg(self) -> tuple[int, bytes] | None:
        return None

    def status(self) -> dict[str, Any]:
        return {
            "camera": {"state": "ok", "message": "receiving frames", "fps": 30.0,
                       "nominal_fps": 30.0},
            "recognition": {"available": True, "message": "ok", "ms_per_frame": 104.0,
                            "frames_per_s": 9.6},
        }  # fmt: skip

    def seat_cards(self) -> dict[str, list[str]]:
        return {}


@pytest.fixture
def slow_server(db_path: str) -> Iterator[LiveServer]:
    app = create_app(
        {"DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "LIVE": SlowRecognition(),
         "HEALTH_POLL_S": 0.2}
    )  # fmt: skip
    with LiveServer(app) as server:
        yield server


@pytest.mark.browser
def test_the_page_warns_when_recognition_falls_behind(page: Page, slow_server: LiveServer) -> None:
    open_page(page, slow_server, referee=False)
    health = page.locator("#health")
    expect(health).to_be_visible()
    expect(health).to_contain_text("Card recognition is falling behind (104 ms per frame")
    expect(health).to_contain_text("Lower the camera's resolution or frame rate")
    page.locator("#btn-lang").click()
    expect(health).to_contain_text("卡牌识别跟不上")


@pytest.mark.browser
@pytest.mark.parametrize("size", list(SIZES))
def test_the_game_is_visible_without_scrolling(
    page: Page, live_server: LiveServer, size: str, tmp_path: Path
) -> None:
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    open_page(page, live_server)
    post(live_server, {"type": "round", "players": PLAYERS, "dealer": "Dee"})
    post(live_server, {"type": "flip", "card": "red-draw2"})
    post(live_server, {"type": "play", "card": "blue-3"})  # an alert
    expect(page.locator("#alert")).to_be_visible()
    expect(page.locator("#pending")).to_have_text("+2")
    for selector in ("#turn", "#direction", "#top-card", "#color-swatch", "#pending", "#alert"):
        box = page.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (size, selector, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (size, selector, box)
    # Nothing wider than the screen (the seats' buttons included).
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shots = Path(os.environ.get("UNO_TABLE_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"page-{width}x{height}.png"))


@pytest.mark.browser
def test_keyboard_shortcuts_press_the_referees_buttons(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    post(live_server, {"type": "round", "players": PLAYERS, "dealer": "Dee"})
    post(live_server, {"type": "flip", "card": "red-7"})
    expect(page.locator("#turn")).to_have_text("Ann")
    page.keyboard.press("d")
    expect(page.locator('#seats li[data-player="Ann"] .seat-count')).to_have_text("8 cards")
    page.keyboard.press("p")
    expect(page.locator("#turn")).to_have_text("Bob")
    page.keyboard.press("u")
    expect(page.locator("#undo-what")).to_contain_text("Pass")
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-undo")).to_be_hidden()
    page.keyboard.press("l")
    expect(page.locator("#dlg-card")).to_be_visible()
    page.keyboard.press("d")  # a dialog is open: no draw
    page.keyboard.press("Escape")
    assert page.locator("body").get_attribute("data-n") == "4"


@pytest.mark.browser
def test_spectators_have_no_shortcuts(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server, referee=False)
    post(live_server, {"type": "round", "players": PLAYERS, "dealer": "Dee"})
    expect(page.locator("#turn")).to_have_text("Ann")
    page.keyboard.press("d")
    page.wait_for_timeout(500)
    assert page.locator("body").get_attribute("data-n") == "1"


@pytest.mark.browser
def test_the_sound_button_says_whether_sound_can_play(page: Page, live_server: LiveServer) -> None:
    open_page(page, live_server)
    sound = page.locator("#btn-sound")
    expect(sound).to_have_text("Sound: tap to enable")  # no tap yet: the browser is silent
    page.locator("#seats").click()
    expect(sound).to_have_text("Sound on")
    sound.click()
    expect(sound).to_have_text("Sound off")
