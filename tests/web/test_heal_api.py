"""The healer through the game service: inferred events stored, one question, one tap."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import AUTH, PLAYERS, TOKEN, deal
from tests.web.helpers import post_event as post
from web import create_app


def stored(client: FlaskClient) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.get("/api/events").json["events"]
    return events


def ask(client: FlaskClient) -> dict[str, Any]:
    """Ann +2, Cy plays (Bob's penalty inferred), then Ann plays out of turn: asked."""
    deal(client)
    post(client, {"type": "play", "card": "red-draw2", "player": "Ann"})
    post(client, {"type": "play", "card": "red-4", "player": "Cy"})
    verdict = post(client, {"type": "play", "card": "blue-4", "player": "Ann"})
    assert [a["code"] for a in verdict["alerts"]] == ["ask-referee"]
    return verdict


def test_a_missed_penalty_is_inferred_stored_and_undone(client: FlaskClient) -> None:
    deal(client)
    post(client, {"type": "play", "card": "red-draw2", "player": "Ann"})
    verdict = post(client, {"type": "play", "card": "red-4", "player": "Cy"})
    assert verdict["ok"] and verdict["alerts"] == [] and verdict["healed"] == "penalty"
    rows = stored(client)
    assert rows[-2]["source"] == "inferred"
    assert rows[-2]["event"] == {"type": "draw", "player": "Bob", "count": 2, "inferred": True}
    assert rows[-1]["event"]["card"] == "red-4" and rows[-1]["source"] == "referee"
    state = client.get("/api/state").json
    assert state["game"]["turn"] == "Dee" and state["undo"]["source"] == "referee"
    assert post(client, {"type": "undo"})["ok"]  # Cy's play first ...
    assert client.get("/api/state").json["undo"]["source"] == "inferred"
    assert post(client, {"type": "undo"})["state"]["pending_draw"] == 2  # ... then the draw


def test_healing_off_cascades_as_before(db_path: str) -> None:
    app = create_app(
        {"TESTING": True, "DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "PLAYERS": PLAYERS}
        | {"HEAL": False}
    )
    client = app.test_client()
    deal(client)
    post(client, {"type": "play", "card": "red-draw2", "player": "Ann"})
    verdict = post(client, {"type": "play", "card": "red-4", "player": "Cy"})
    assert not verdict["ok"] and "healed" not in verdict
    assert all(r["source"] != "inferred" for r in stored(client))


def test_the_question_is_one_alert_and_yes_keeps_the_record(client: FlaskClient) -> None:
    verdict = ask(client)
    alert = verdict["alerts"][0]
    assert alert["message"].startswith("Did Dee draw a card? (Recorded so; tap to correct.")
    assert "摸了一张牌吗" in alert["messages"]["zh"]
    question = client.get("/api/state").json["question"]
    assert question["question"] == alert["params"]["question"]
    assert [o["index"] for o in question["options"]] == [0, 1, 2, 3]
    assert "Dee played blue-4, not Ann" in [o["en"] for o in question["options"]]
    n = len(stored(client))
    body = {"question": question["question"], "option": 0}
    response = client.post("/api/resolve", json=body, headers=AUTH)
    assert response.status_code == 200 and response.json["verdict"]["ok"]
    assert len(stored(client)) == n  # "Yes": nothing changes
    assert client.get("/api/state").json["question"] is None
    again = client.post("/api/resolve", json=body, headers=AUTH)
    assert again.status_code == 409 and "no question" in again.json["error"]


def test_correct_it_takes_the_other_option(client: FlaskClient) -> None:
    alert = ask(client)["alerts"][0]
    options = alert["params"]["options"]
    judged = next(o["index"] for o in options if "out of turn" in o["en"])
    body = {"question": alert["params"]["question"], "option": judged}
    response = client.post("/api/resolve", json=body, headers=AUTH)
    assert response.status_code == 200, response.json
    verdict = response.json["verdict"]
    assert [a["code"] for a in verdict["alerts"]] == ["out-of-turn"]
    state = client.get("/api/state").json
    assert state["game"]["turn"] == "Dee" and state["game"]["top"] == "red-4"
    assert state["question"] is None
    assert not any(r["event"].get("player") == "Dee" for r in stored(client)[-3:])


def test_resolve_takes_only_an_open_question_and_a_real_card(client: FlaskClient) -> None:
    def answer(body: Any, headers: dict[str, str] = AUTH) -> tuple[int, str]:
        response = client.post("/api/resolve", json=body, headers=headers)
        return response.status_code, str((response.json or {}).get("error", ""))

    assert answer({"question": 1, "option": 0})[0] == 409  # nothing asked yet
    q = ask(client)["alerts"][0]["params"]["question"]
    assert answer({"question": q, "option": 0}, {})[0] in (401, 403)
    assert answer({"question": q, "option": 9})[0] == 400
    assert answer({"question": q + 1, "option": 0})[0] == 409
    assert answer({"question": q, "option": "0"})[0] == 400
    assert answer({"question": q, "option": 0, "card": "blue-99"})[0] == 400
    assert answer({"question": q, "option": 0, "colour": "red"})[0] == 400
    n = len(stored(client))
    assert len(stored(client)) == n and client.get("/api/state").json["question"]


def test_a_restart_replays_inferred_events_to_the_same_game(
    client: FlaskClient, app: Flask, db_path: str
) -> None:
    ask(client)
    before = client.get("/api/state").json["game"]
    again = create_app(dict(app.config) | {"LIVE": None}).test_client()
    after = again.get("/api/state").json
    assert after["game"] == before and after["question"] is None


def test_the_camera_view_of_the_pile_heals_a_missed_play(app: Flask, client: FlaskClient) -> None:
    from web.game import GameService
    from web.store import Store

    deal(client)  # Ann to play on red-7
    service: GameService = app.extensions["uno_table"]["service"]
    store = Store.open(app.config["DATABASE"])
    try:
        seen = ["red-7"] * 8 + ["red-2"] * 32  # 8 frames a second: the starter, then red-2
        done = [service.observe_top(card, i / 8, store) for i, card in enumerate(seen)]
    finally:
        store.close()
    healed = [d for d in done if d is not None]
    assert len(healed) == 1 and healed[0].verdict["alerts"] == []
    rows = stored(client)
    assert rows[-1]["source"] == "inferred"
    assert rows[-1]["event"] == {"type": "play", "player": "Ann", "card": "red-2", "inferred": True}


def test_a_play_read_as_the_starter_is_stored_as_inferred(app: Flask, client: FlaskClient) -> None:
    """A Wild Draw Four turned up first (the camera saw it; its flip never came), then
    the next card turned up reported as a play: stored as the two flips, inferred, and
    a restart replays the log to the same game."""
    from web.game import GameService
    from web.store import Store

    response = client.post(
        "/api/events", json={"type": "round", "players": PLAYERS, "dealer": "Dee"}, headers=AUTH
    )
    assert response.status_code == 200
    service: GameService = app.extensions["uno_table"]["service"]
    store = Store.open(app.config["DATABASE"])
    try:
        for i in range(16):  # 8 frames a second
            service.observe_top("wild-draw4", i / 8, store)
    finally:
        store.close()
    verdict = post(client, {"type": "play", "card": "green-7", "player": "Bob"})
    assert verdict["ok"] and verdict["alerts"] == [] and verdict["healed"] == "flip"
    rows = stored(client)[-2:]
    assert [r["source"] for r in rows] == ["inferred", "inferred"]
    assert [r["event"] for r in rows] == [
        {"type": "flip", "card": "wild-draw4", "inferred": True},
        {"type": "flip", "card": "green-7", "inferred": True, "read_as": "play"},
    ]
    before = client.get("/api/state").json["game"]
    assert (before["top"], before["turn"]) == ("green-7", "Ann")
    again = create_app(dict(app.config) | {"LIVE": None}).test_client()
    assert again.get("/api/state").json["game"] == before
