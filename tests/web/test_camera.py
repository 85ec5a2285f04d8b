"""The camera check: the table's layout read, saved (checked, atomic) and moved on the
page in Chromium."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Page, expect

from tests.web.helpers import AUTH, PLAYERS, TOKEN, LiveServer
from vision.calibration import TableLayout
from web import create_app


@pytest.fixture
def layout_file(tmp_path: Path) -> Path:
    return tmp_path / "table.json"


@pytest.fixture
def cam_app(db_path: str, layout_file: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "DATABASE": db_path,
            "REFEREE_TOKEN": TOKEN,
            "PLAYERS": PLAYERS,
            "LAYOUT_FILE": str(layout_file),
        }
    )


@pytest.fixture
def cam(cam_app: Flask) -> FlaskClient:
    return cam_app.test_client()


def current(client: FlaskClient, **size: int) -> dict[str, Any]:
    query = "&".join(f"{k}={v}" for k, v in size.items())
    body: dict[str, Any] = client.get("/api/layout?" + query).json
    return body


def test_a_first_guess_until_one_is_saved(cam: FlaskClient, layout_file: Path) -> None:
    body = current(cam, width=1280, height=720)
    assert body["source"] == "default" and not body["saved"] and body["writable"]
    layout = body["layout"]
    assert (layout["width"], layout["height"]) == (1280, 720)
    assert len(layout["seats"]) == 4 and layout["names"] == PLAYERS
    # What calibrate-table and serve --layout read.
    assert TableLayout.from_dict(layout).seats == (180.0, 270.0, 0.0, 90.0)
    assert not layout_file.exists()


def test_a_saved_layout_is_written_and_read_back(cam: FlaskClient, layout_file: Path) -> None:
    layout = current(cam)["layout"]
    moved = {**layout, "discard": [100, 100, 200, 200], "seats": [170, 260, 350, 80]}
    response = cam.post("/api/layout", json=moved, headers=AUTH)
    assert response.status_code == 200, response.json
    assert response.json["saved"] and not response.json["applied"]  # no camera here
    on_disk = json.loads(layout_file.read_text())
    assert on_disk["discard"] == [100, 100, 200, 200] and on_disk["seats"] == [170, 260, 350, 80]
    loaded = TableLayout.load(layout_file)  # the file serve --layout reads
    assert loaded.discard.as_list() == [100, 100, 200, 200]
    assert loaded.names == tuple(PLAYERS)
    body = current(cam)
    assert body["source"] == "file" and body["saved"] and body["layout"] == on_disk
    assert not list(layout_file.parent.glob("*.tmp"))  # nothing half-written left behind


def test_saving_keeps_the_watcher_settings(cam: FlaskClient, layout_file: Path) -> None:
    layout = current(cam)["layout"]
    layout_file.write_text(json.dumps({**layout, "watcher": {"rest_s": 0.1}}))
    assert cam.post("/api/layout", json=layout, headers=AUTH).status_code == 200
    assert json.loads(layout_file.read_text())["watcher"] == {"rest_s": 0.1}


def edit(layout: dict[str, Any], **change: Any) -> dict[str, Any]:
    return {**layout, **change}


BAD: list[tuple[Any, str]] = [
    ({"discard": [600, 100, 700, 200]}, "not inside the 640x480 frame"),
    ({"draw": [-5, 100, 50, 200]}, "not inside"),
    ({"discard": [200, 200, 100, 100]}, "empty"),
    ({"discard": [1, 2, 3]}, "[x1, y1, x2, y2]"),
    ({"draw": [1, 2, "x", 4]}, "must be a number"),
    ({"seats": [180, 270, 0]}, "3 bearing(s) for 4 players"),
    ({"seats": [180, 0, 270, 90]}, "clockwise in the players' order"),
    ({"seats": [180, 181, 0, 90]}, "at least 5 degrees apart"),
    ({"width": 0}, "'width'"),
    ({"height": True}, "'height'"),
    ({"card_px": -1}, "'card_px'"),
    ({"names": ["Ann", "Bob", "Cy", "Ed"]}, "'names'"),
    ({"zones": {}}, "takes no 'zones'"),
]


@pytest.mark.parametrize(("change", "says"), BAD)
def test_bad_layouts_are_refused_and_nothing_written(
    cam: FlaskClient, layout_file: Path, change: dict[str, Any], says: str
) -> None:
    layout = current(cam)["layout"]
    assert cam.post("/api/layout", json=layout, headers=AUTH).status_code == 200
    before = layout_file.read_bytes()
    response = cam.post("/api/layout", json=edit(layout, **change), headers=AUTH)
    assert response.status_code == 400 and says in response.json["error"], response.json
    assert layout_file.read_bytes() == before


def test_saving_needs_the_token_and_a_file(cam: FlaskClient, client: FlaskClient) -> None:
    layout = current(cam)["layout"]
    assert cam.post("/api/layout", json=layout).status_code == 401
    assert cam.post("/api/layout", json=[1, 2], headers=AUTH).status_code == 400
    # The app of the other tests keeps no layout file: saving says how to get one.
    refused = client.post("/api/layout", json=layout, headers=AUTH)
    assert refused.status_code == 409 and "--layout" in refused.json["error"]
    assert not current(client)["writable"]


def test_the_seats_follow_the_players_of_the_round(cam: FlaskClient) -> None:
    cam.post(
        "/api/events",
        json={"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"},
        headers=AUTH,
    )
    layout = current(cam)["layout"]
    assert layout["names"] == ["Ann", "Bob"] and len(layout["seats"]) == 2


class FakeLive:
    """A live side that uses a layout (as uno_table.live.LiveRunner does)."""

    def __init__(self) -> None:
        self.used: list[dict[str, Any]] = []

    def frame_jpeg(self) -> None:
        return None

    def status(self) -> dict[str, Any]:
        return {"camera": {"state": "ok"}, "recognition": {"available": False}}

    def seat_cards(self) -> dict[str, list[str]]:
        return {}

    def table_layout(self) -> dict[str, Any] | None:
        return self.used[-1] if self.used else None

    def use_layout(self, layout: dict[str, Any]) -> None:
        self.used.append(layout)


def test_a_saved_layout_goes_to_the_live_side(db_path: str, layout_file: Path) -> None:
    live = FakeLive()
    app = create_app(
        {"TESTING": True, "DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "PLAYERS": PLAYERS}
        | {"LAYOUT_FILE": str(layout_file), "LIVE": live}
    )
    client = app.test_client()
    layout = current(client)["layout"]
    response = client.post("/api/layout", json=layout, headers=AUTH)
    assert response.json["applied"] and live.used == [layout]
    assert current(client)["source"] == "live"


# -- in Chromium ------------------------------------------------------------------------


@pytest.fixture
def cam_server(cam_app: Flask) -> Iterator[LiveServer]:
    with LiveServer(cam_app) as server:
        yield server


@pytest.mark.browser
def test_dragging_the_discard_pile_saves_the_layout(
    page: Page, cam_server: LiveServer, layout_file: Path
) -> None:
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(cam_server.url + f"/camera?token={TOKEN}")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.locator(".seat-handle")).to_have_count(4)
    before = current_layout(page)
    rect = page.locator("#zone-discard .zone-rect")
    box = rect.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y + 40, steps=5)
    page.mouse.up()
    # Bob's seat dragged a little further round.
    seat = page.locator('.seat-handle[data-player="Bob"] circle').bounding_box()
    assert seat is not None
    hx, hy = seat["x"] + seat["width"] / 2, seat["y"] + seat["height"] / 2
    page.mouse.move(hx, hy)
    page.mouse.down()
    page.mouse.move(hx, hy - 60, steps=5)
    page.mouse.up()
    page.locator("#cam-save").click()
    expect(page.locator("body")).to_have_attribute("data-saved", re.compile(r"\d+"))
    saved = json.loads(layout_file.read_text())
    # The screen's pixels are the frame's, scaled: the pile moved right and down.
    shown = page.locator("#cam-overlay").bounding_box()
    assert shown is not None
    sx, sy = before["width"] / shown["width"], before["height"] / shown["height"]
    moved_x = saved["discard"][0] - before["discard"][0]
    moved_y = saved["discard"][1] - before["discard"][1]
    assert abs(moved_x - 60 * sx) < 2 and abs(moved_y - 40 * sy) < 2, (moved_x, moved_y)
    assert saved["seats"][1] != before["seats"][1] and saved["seats"][0] == before["seats"][0]
    assert TableLayout.load(layout_file).names == tuple(PLAYERS)
    shots = Path(os.environ.get("UNO_TABLE_SHOTS") or layout_file.parent)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "camera-1024x768.png"))


def current_layout(page: Page) -> dict[str, Any]:
    """The layout the page shows (what Save would send)."""
    layout: dict[str, Any] = json.loads(
        page.locator("#cam-overlay").get_attribute("data-layout") or "{}"
    )
    return layout
