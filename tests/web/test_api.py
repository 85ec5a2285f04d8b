"""Every endpoint and every error of the referee's API, through Flask's test client."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import AUTH, PLAYERS, TOKEN, deal
from tracker import Game, preset
from web import create_app
from web.store import Store


def state(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/api/state")
    assert response.status_code == 200
    body: dict[str, Any] = response.json
    return body


def stored_count(app: Flask) -> int:
    store = Store.open(app.config["DATABASE"])
    try:
        return store.event_count(app.extensions["uno_table"]["service"].match.id)
    finally:
        store.close()


# -- reading -------------------------------------------------------------------------


def test_page_is_served_with_everything_local(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert '<img id="video" src="/video.mjpg"' in html
    for asset in ("/static/app.js", "/static/app.css", "/static/i18n.js"):
        assert asset in html
        body = client.get(asset)
        assert body.status_code == 200
        text = body.get_data(as_text=True)
        # No CDN, no web font, nothing fetched from the internet.
        assert "https://" not in text and "http://" not in text.replace(
            "http://www.w3.org/2000/svg", ""
        )
    assert "https://" not in html and "http://" not in html


def test_state_of_a_fresh_match(client: FlaskClient) -> None:
    body = state(client)
    assert body["match"]["players"] == PLAYERS
    assert body["match"]["rules"] == "official"
    assert body["n"] == 0
    assert body["game"]["in_round"] is False
    assert body["alerts"] == []


def test_state_follows_the_game(client: FlaskClient) -> None:
    deal(client)
    game = state(client)["game"]
    assert game["top"] == "red-7"
    assert game["color"] == "red"
    assert game["turn"] == "Ann"
    assert game["direction"] == "clockwise"
    assert game["pending_draw"] == 0
    assert game["hands"] == dict.fromkeys(PLAYERS, 7)


def test_healthz_without_camera(client: FlaskClient) -> None:
    body = client.get("/healthz").json
    assert body["status"] == "degraded"
    assert body["camera"]["state"] == "none"
    assert body["recognition"]["available"] is False
    assert body["match"] == 1
    assert body["store"]["ok"] is True and body["store"]["events"] == 0


def test_healthz_is_503_when_the_store_is_gone(app: Flask, client: FlaskClient) -> None:
    Path(app.config["DATABASE"]).unlink()
    Path(app.config["DATABASE"]).mkdir()  # a folder where the database was: unreadable
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json["status"] == "down" and response.json["store"]["ok"] is False


class LostCamera:
    """A live side whose camera was lost and whose model is missing."""

    def frame_jpeg(self) -> tuple[int, bytes] | None:
        return None

    def status(self) -> dict[str, Any]:
        return {
            "camera": {"state": "lost", "message": "no frames: reconnecting", "reconnects": 3},
            "recognition": {"available": False, "message": "no card model"},
        }

    def seat_cards(self) -> dict[str, list[str]]:
        return {"Ann": ["red-1", "wild"], "Bob": []}


def test_healthz_reports_a_lost_camera(db_path: str) -> None:
    app = create_app({"DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "LIVE": LostCamera()})
    body = app.test_client().get("/healthz").json
    assert body["status"] == "degraded"
    assert body["camera"] == {
        "state": "lost",
        "message": "no frames: reconnecting",
        "reconnects": 3,
    }
    assert body["recognition"]["message"] == "no card model"


def test_seat_cards_come_from_the_live_side(db_path: str) -> None:
    app = create_app({"DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "LIVE": LostCamera()})
    body = app.test_client().get("/api/seat-cards").json
    assert body["hands"] == {"Ann": ["red-1", "wild"], "Bob": [], "Cy": [], "Dee": []}


def test_video_without_camera_shows_the_placeholder(client: FlaskClient) -> None:
    response = client.get("/video.mjpg", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "multipart/x-mixed-replace"
    first = next(iter(response.response))
    response.close()
    assert first.startswith(b"--unotableframe\r\nContent-Type: image/jpeg\r\n")
    jpeg = first.split(b"\r\n\r\n", 1)[1]
    assert jpeg[:2] == b"\xff\xd8"  # a JPEG


class Frames:
    """A live side that has a new frame each time it is asked."""

    def __init__(self) -> None:
        self.index = 0

    def frame_jpeg(self) -> tuple[int, bytes] | None:
        self.index += 1
        return self.index, b"\xff\xd8frame-%d\xff\xd9" % self.index

    def status(self) -> dict[str, Any]:
        return {"camera": {"state": "ok"}, "recognition": {"available": True}}

    def seat_cards(self) -> dict[str, list[str]]:
        return {}


def test_video_streams_each_new_frame(db_path: str) -> None:
    app = create_app(
        {"DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "LIVE": Frames(), "VIDEO_FPS": 200}
    )
    client = app.test_client()
    assert client.get("/healthz").json["status"] == "ok"
    response = client.get("/video.mjpg", buffered=False)
    chunks = iter(response.response)
    parts = [next(chunks) for _ in range(3)]
    response.close()
    bodies = [p.split(b"\r\n\r\n", 1)[1] for p in parts]
    assert [b[2:9] for b in bodies] == [b"frame-1", b"frame-2", b"frame-3"]


def test_stream_starts_with_a_snapshot(client: FlaskClient) -> None:
    deal(client)
    response = client.get("/api/stream", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    text = b"".join(next(chunks) for _ in range(3)).decode()
    response.close()
    assert "retry: 2000" in text
    snapshot = text.split("event: snapshot\ndata: ", 1)[1].split("\n\n", 1)[0]
    assert json.loads(snapshot)["game"]["top"] == "red-7"
    assert "event: health" in text


def test_events_history(client: FlaskClient) -> None:
    deal(client)
    body = client.get("/api/events").json
    assert [e["n"] for e in body["events"]] == [1, 2]
    assert body["events"][1]["event"] == {"type": "flip", "card": "red-7"}
    assert body["events"][1]["source"] == "referee"
    assert body["events"][1]["verdict"]["ok"] is True
    assert [e["n"] for e in client.get("/api/events?after=1").json["events"]] == [2]
    assert len(client.get("/api/events?after=oops").json["events"]) == 2
    assert [e["n"] for e in client.get("/api/events?limit=1").json["events"]] == [2]


def test_unknown_api_path_and_method_answer_json(client: FlaskClient) -> None:
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and "error" in missing.json
    wrong = client.delete("/api/state")
    assert wrong.status_code == 405 and "error" in wrong.json


# -- posting events ------------------------------------------------------------------


def test_post_event_returns_the_verdict_after_storing_it(app: Flask, client: FlaskClient) -> None:
    deal(client)
    response = client.post("/api/events", json={"type": "play", "card": "red-3"}, headers=AUTH)
    assert response.status_code == 200
    assert response.json["n"] == 3
    verdict = response.json["verdict"]
    assert verdict["ok"] is True
    assert verdict["state"]["turn"] == "Bob"
    assert stored_count(app) == 3  # in the database before the answer


def test_bearer_token_works_too(client: FlaskClient) -> None:
    response = client.post(
        "/api/events",
        json={"type": "round", "players": PLAYERS, "dealer": "Dee"},
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    assert response.status_code == 200
    assert response.json["verdict"]["ok"] is True


def test_illegal_play_is_flagged_stored_and_not_applied(app: Flask, client: FlaskClient) -> None:
    deal(client)
    response = client.post("/api/events", json={"type": "play", "card": "blue-3"}, headers=AUTH)
    assert response.status_code == 200
    verdict = response.json["verdict"]
    assert verdict["ok"] is False
    # With no camera, a missed play may explain it: refused as judged, and ONE question
    # offers the miss (tracker.heal).
    (alert,) = verdict["alerts"]
    assert alert["code"] == "ask-referee"
    assert alert["player"] == "Ann"
    assert alert["messages"]["en"].startswith("Ann played blue-3 on red-7: it matches neither")
    assert "(Refused; tap to correct." in alert["messages"]["en"]
    assert "blue-3" in alert["messages"]["en"] and "blue-3" in alert["messages"]["zh"]
    after = state(client)
    assert after["game"]["top"] == "red-7" and after["game"]["hands"]["Ann"] == 7
    assert after["alerts"][-1]["code"] == "ask-referee"
    assert stored_count(app) == 3


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({}, "referee token required"),
        ({"X-Referee-Token": "wrong"}, "wrong referee token"),
        ({"Authorization": "Bearer wrong"}, "wrong referee token"),
        ({"Authorization": "Basic dXNlcjpwYXNz"}, "referee token required"),
    ],
)
def test_writes_without_the_token_are_refused(
    app: Flask, client: FlaskClient, headers: dict[str, str], message: str
) -> None:
    deal(client)
    before = state(client)
    for path, body in [
        ("/api/events", {"type": "play", "card": "red-3"}),
        ("/api/correct", {"card": "red-3"}),
        ("/api/matches", {"players": ["X", "Y"]}),
    ]:
        response = client.post(path, json=body, headers=headers)
        assert response.status_code == 401
        assert response.is_json
        assert message in response.json["error"]
    assert state(client) == before
    assert stored_count(app) == 2


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "empty body"),
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (b'"play"', "JSON object"),
        (b"{}", "missing 'type'"),
        (b'{"type": 7}', "missing 'type'"),
        (b'{"type": "jump-in"}', "unknown event type 'jump-in'"),
        (b'{"type": "play"}', "exactly one of 'card' or 'cards'"),
        (b'{"type": "play", "card": "red-7", "cards": ["red-7"]}', "exactly one of"),
        (b'{"type": "play", "card": "purple-7"}', "not a card name"),
        (b'{"type": "play", "card": "back"}', "not a card name"),
        (b'{"type": "play", "cards": []}', "non-empty list"),
        (b'{"type": "play", "card": "wild", "color": "black"}', "'color' must be one of"),
        (b'{"type": "play", "card": "red-1", "colour": "red"}', "has no field 'colour'"),
        (b'{"type": "color"}', "needs 'color'"),
        (b'{"type": "draw", "count": 0}', "whole number"),
        (b'{"type": "draw", "count": "2"}', "whole number"),
        (b'{"type": "draw", "count": true}', "whole number"),
        (b'{"type": "uno"}', "needs 'player'"),
        (b'{"type": "uno", "player": ""}', "player's name"),
        (b'{"type": "catch", "player": "Ann"}', "needs 'by'"),
        (b'{"type": "challenge", "guilty": "yes"}', "true or false"),
        (b'{"type": "round", "players": ["Ann"], "dealer": "Ann"}', "at least 2 distinct"),
        (b'{"type": "round", "players": ["A", "A"], "dealer": "A"}', "at least 2 distinct"),
        (b'{"type": "end-round", "hands": ["red-1"]}', "map each player"),
        (b'{"type": "end-round", "hands": {"Ann": "red-1"}}', "map each player"),
        (b'{"type": "end-round", "hands": {"Ann": ["red-10"]}}', "not a card name"),
    ],
)
def test_malformed_events_get_400_and_change_nothing(
    app: Flask, client: FlaskClient, body: bytes, message: str
) -> None:
    deal(client)
    before = state(client)
    response = client.post(
        "/api/events", data=body, headers={**AUTH, "Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert message in response.json["error"]
    assert state(client) == before
    assert stored_count(app) == 2


def test_oversized_body_is_refused(client: FlaskClient) -> None:
    response = client.post(
        "/api/events",
        data=b'{"type": "undo", "pad": "' + b"x" * 300_000 + b'"}',
        headers={**AUTH, "Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert "error" in response.json


def test_envelope_keys_are_dropped_from_the_log(client: FlaskClient) -> None:
    deal(client)
    client.post(
        "/api/events", json={"type": "play", "card": "red-1", "client_id": "tab-1"}, headers=AUTH
    )
    assert client.get("/api/events").json["events"][-1]["event"] == {
        "type": "play",
        "card": "red-1",
    }


def test_undo_takes_back_the_last_play(client: FlaskClient) -> None:
    deal(client)
    client.post("/api/events", json={"type": "play", "card": "red-3"}, headers=AUTH)
    response = client.post("/api/events", json={"type": "undo"}, headers=AUTH)
    assert response.json["verdict"]["ok"] is True
    game = state(client)["game"]
    assert game["top"] == "red-7" and game["turn"] == "Ann"


# -- correcting a misread card -------------------------------------------------------


def test_correct_replaces_the_last_play(client: FlaskClient) -> None:
    deal(client)
    client.post("/api/events", json={"type": "play", "card": "red-3"}, headers=AUTH)
    response = client.post("/api/correct", json={"card": "red-9"}, headers=AUTH)
    assert response.status_code == 200
    undo, play = response.json["results"]
    assert undo["verdict"]["ok"] and play["verdict"]["ok"]
    game = state(client)["game"]
    assert game["top"] == "red-9" and game["turn"] == "Bob" and game["hands"]["Ann"] == 6
    logged = [e["event"] for e in client.get("/api/events").json["events"]]
    assert logged[-2:] == [{"type": "undo"}, {"type": "play", "card": "red-9", "player": "Ann"}]


def test_correct_to_a_wild_names_the_color(client: FlaskClient) -> None:
    deal(client)
    client.post("/api/events", json={"type": "play", "card": "red-3"}, headers=AUTH)
    response = client.post("/api/correct", json={"card": "wild", "color": "blue"}, headers=AUTH)
    assert response.status_code == 200
    game = state(client)["game"]
    assert game["top"] == "wild" and game["color"] == "blue"


def test_correct_without_a_play_to_correct(client: FlaskClient) -> None:
    deal(client)  # the last event is the flip
    response = client.post("/api/correct", json={"card": "red-9"}, headers=AUTH)
    assert response.status_code == 409
    assert "not a play" in response.json["error"]


@pytest.mark.parametrize("body", [{"card": "red-99"}, {}, {"card": "wild", "color": "pink"}, [1]])
def test_correct_with_a_bad_body(client: FlaskClient, body: Any) -> None:
    deal(client)
    response = client.post("/api/correct", json=body, headers=AUTH)
    assert response.status_code == 400
    assert response.json["error"]


# -- end of round, exports, matches --------------------------------------------------


def play_a_short_round(client: FlaskClient) -> None:
    """Two players; Ann goes out quickly by the record of an ``end-round``."""
    deal(client, ["Ann", "Bob"], dealer="Bob")
    for card in ("red-3", "red-5"):
        client.post("/api/events", json={"type": "play", "card": card}, headers=AUTH)


def test_round_preview_applies_nothing(app: Flask, client: FlaskClient) -> None:
    play_a_short_round(client)
    before = state(client)
    hands = {"Ann": [], "Bob": ["red-1", "wild", "blue-skip"]}
    response = client.post("/api/round-preview", json={"hands": hands}, headers=AUTH)
    assert response.status_code == 200
    assert response.json["round"]["winner"] == "Ann"
    assert response.json["round"]["hand_points"] == {"Ann": 0, "Bob": 71}
    assert response.json["round"]["points"] == {"Ann": 71, "Bob": 0}
    assert state(client) == before
    bad = client.post("/api/round-preview", json={"type": "undo"}, headers=AUTH)
    assert bad.status_code == 400


def test_end_round_then_export_scores_and_log(app: Flask, client: FlaskClient) -> None:
    play_a_short_round(client)
    hands = {"Ann": [], "Bob": ["red-1", "wild", "blue-skip"]}
    end = client.post("/api/events", json={"type": "end-round", "hands": hands}, headers=AUTH)
    assert end.json["verdict"]["round"]["points"] == {"Ann": 71, "Bob": 0}
    assert state(client)["game"]["totals"] == {"Ann": 71, "Bob": 0}

    scores = client.get("/api/matches/current/scores.csv")
    assert scores.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(scores.get_data(as_text=True))))
    assert rows[0] == ["round", "winner", *PLAYERS, *(f"total {p}" for p in PLAYERS)]
    assert rows[1][:2] == ["1", "Ann"]
    assert rows[1][2:4] == ["71", "0"]

    log = client.get("/api/matches/1/events.jsonl")
    assert log.mimetype == "application/x-ndjson"
    assert "attachment" in log.headers["Content-Disposition"]
    events = [json.loads(line) for line in log.get_data(as_text=True).splitlines()]
    assert events[0]["type"] == "round" and events[-1]["type"] == "end-round"
    # The exported log replays to the same game.
    game, _ = Game.replay(events, preset("official"))
    assert game.state_json() == state(client)["game"]


def test_exports_of_unknown_matches(client: FlaskClient) -> None:
    assert client.get("/api/matches/42/events.jsonl").status_code == 404
    assert client.get("/api/matches/42/scores.csv").status_code == 404
    bad = client.get("/api/matches/first/scores.csv")
    assert bad.status_code == 400 and "use a number" in bad.json["error"]


def test_new_match(client: FlaskClient) -> None:
    deal(client)
    response = client.post(
        "/api/matches", json={"players": ["Xu", "Yan", "Zoe"], "rules": "house"}, headers=AUTH
    )
    assert response.status_code == 201
    assert response.json["id"] == 2 and response.json["rules"] == "house"
    body = state(client)
    assert body["match"]["players"] == ["Xu", "Yan", "Zoe"] and body["n"] == 0
    matches = client.get("/api/matches").json["matches"]
    assert [(m["id"], m["status"]) for m in matches] == [(1, "finished"), (2, "active")]
    # The old match is still exportable.
    old = client.get("/api/matches/1/events.jsonl").get_data(as_text=True)
    assert len(old.splitlines()) == 2


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"players": ["Solo"]}, 400),
        ({"rules": 5}, 400),
        ({"rules": "no-such-rules"}, 400),
        ([], 400),
    ],
)
def test_new_match_errors(client: FlaskClient, body: Any, status: int) -> None:
    response = client.post("/api/matches", json=body, headers=AUTH)
    assert response.status_code == status
    assert response.json["error"]
    assert state(client)["match"]["id"] == 1


# -- restart -------------------------------------------------------------------------


def test_a_new_app_on_the_same_database_resumes_the_match(db_path: str) -> None:
    config = {"DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "PLAYERS": PLAYERS}
    first = create_app(config).test_client()
    deal(first)
    first.post("/api/events", json={"type": "play", "card": "red-3"}, headers=AUTH)
    first.post("/api/events", json={"type": "play", "card": "blue-4"}, headers=AUTH)  # illegal
    first.post("/api/events", json={"type": "draw"}, headers=AUTH)
    before = state(first)

    second = create_app({**config, "PLAYERS": ["Other", "People"]}).test_client()
    after = state(second)
    # The healer's open question is not asked again after a restart (its best answer
    # is in the record); everything else is as it was.
    assert before.pop("question") is not None and after.pop("question") is None
    assert after == before
    assert after["alerts"][-1]["code"] == "ask-referee"
    # ...and goes on from there.
    response = second.post("/api/events", json={"type": "pass"}, headers=AUTH)
    assert response.json["n"] == before["n"] + 1

    third = create_app({**config, "NEW_MATCH": True}).test_client()
    assert state(third)["match"]["id"] == 2
