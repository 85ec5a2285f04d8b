"""Bad input of every kind the fuzzer found: a clear 4xx, nothing stored, nothing broken."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import AUTH, PLAYERS, deal
from web import create_app
from web.store import Store

POSTS = ["/api/events", "/api/correct", "/api/matches", "/api/round-preview"]
SURROGATE = "\ud800"


def stored(app: Flask) -> tuple[int, int]:
    """(matches, events) in the database."""
    store = Store.open(app.config["DATABASE"])
    try:
        matches = store.matches()
        return len(matches), sum(store.event_count(m.id) for m in matches)
    finally:
        store.close()


def post_raw(client: FlaskClient, path: str, body: bytes | str) -> Any:
    return client.post(path, data=body, headers={**AUTH, "Content-Type": "application/json"})


def refused(client: FlaskClient, path: str, body: bytes | str, says: str) -> Any:
    """Post ``body``, which must be a 400 whose error says ``says``; the response."""
    response = post_raw(client, path, body)
    assert response.status_code == 400, response.json
    assert says in response.json["error"]
    return response


# -- lone UTF-16 surrogates ----------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/matches", {"players": [SURROGATE, "Bob"]}),
        ("/api/matches", {"players": ["Ann", "Bob"], "rules": "official" + SURROGATE}),
        ("/api/events", {"type": "round", "players": ["Ann", SURROGATE], "dealer": "Ann"}),
        ("/api/events", {"type": "uno", "player": "Ann" + SURROGATE}),
        ("/api/events", {"type": "play", "card": "red-3", "client_id": SURROGATE}),
        ("/api/events", {"type": "end-round", "hands": {SURROGATE: []}}),
        ("/api/correct", {"card": "red-3", SURROGATE: 1}),
        ("/api/round-preview", {"hands": {"\udfff": []}}),
    ],
)
def test_lone_surrogates_are_refused_and_nothing_is_stored(
    app: Flask, client: FlaskClient, path: str, body: dict[str, Any]
) -> None:
    deal(client)
    before = stored(app)
    raw = json.dumps(body)  # ensure_ascii: the surrogate travels as "\ud800" text
    assert "\\ud" in raw or "\\udfff" in raw
    refused(client, path, raw, "lone UTF-16 surrogate")
    assert stored(app) == before
    # Everything still works: the exports, the state, the live stream.
    assert client.get("/api/matches/current/events.jsonl").status_code == 200
    assert client.get("/api/matches/current/scores.csv").status_code == 200
    assert client.get("/api/state").json["match"]["players"] == PLAYERS


def test_a_surrogate_stored_by_an_older_version_breaks_nothing(db_path: str) -> None:
    """A database written before surrogates were refused: the server starts, the stream
    and the exports carry the name as its JSON escape."""
    store = Store.open(db_path)
    store.create_match(["Ann", SURROGATE], "official")
    store.close()
    app = create_app({"DATABASE": db_path, "REFEREE_TOKEN": "t", "TESTING": True})
    client = app.test_client()
    export = client.get("/api/matches/current/events.jsonl")
    assert export.status_code == 200
    assert client.get("/api/matches/current/scores.csv").data.startswith(b"round,winner,Ann,")
    assert client.get("/api/state").status_code == 200
    stream = client.get("/api/stream", buffered=False)
    first = b""
    for chunk in stream.response:
        first += chunk
        if b"event: snapshot" in first and first.endswith(b"\n\n"):
            break
    stream.close()
    assert b'"\\ud800"' in first
    first.decode("utf-8")  # valid UTF-8 on the wire


# -- nesting, long numbers, huge ids --------------------------------------------------


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("depth", [17, 1_000, 100_000])
def test_deeply_nested_json_is_a_400_on_every_post(
    app: Flask, client: FlaskClient, path: str, depth: int
) -> None:
    deal(client)
    before = stored(app)
    refused(client, path, "[" * depth + "]" * depth, "nested more than 16 deep")
    deep_in_an_event = '{"type": "play", "card": ' + "[" * depth + "]" * depth + "}"
    response = post_raw(client, path, deep_in_an_event)
    assert response.status_code == 400, response.json
    assert stored(app) == before


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("digits", [19, 4_301, 100_000])
def test_numbers_with_too_many_digits_are_a_400(
    app: Flask, client: FlaskClient, path: str, digits: int
) -> None:
    deal(client)
    before = stored(app)
    started = time.perf_counter()
    long_number = '{"type": "draw", "count": 1' + "0" * (digits - 1) + "}"
    refused(client, path, long_number, "at most 18 digits")
    assert time.perf_counter() - started < 2.0
    assert stored(app) == before


@pytest.mark.parametrize("body", ['{"type": "draw", "count": NaN}', '{"a": Infinity}', "1e999"])
def test_numbers_that_are_not_json_are_a_400(client: FlaskClient, body: str) -> None:
    response = post_raw(client, "/api/events", body)
    assert response.status_code == 400
    assert response.json["error"]


@pytest.mark.parametrize("kind", ["events.jsonl", "scores.csv"])
@pytest.mark.parametrize("match", ["9" * 19, "9" * 20, "1" + "0" * 400, "18446744073709551616"])
def test_huge_match_numbers_are_not_found(client: FlaskClient, match: str, kind: str) -> None:
    response = client.get(f"/api/matches/{match}/{kind}")
    assert response.status_code == 404
    assert "error" in response.json


@pytest.mark.parametrize("arg", ["after", "limit"])
def test_huge_numbers_in_queries_are_answered(client: FlaskClient, arg: str) -> None:
    deal(client)
    for value in ["9" * 30, "-" + "9" * 30]:
        response = client.get(f"/api/events?{arg}={value}")
        assert response.status_code == 200
    assert client.get("/api/events?after=" + "9" * 30).json["events"] == []


# -- unknown keys -----------------------------------------------------------------------


def test_a_typo_in_a_new_match_is_refused_by_name(app: Flask, client: FlaskClient) -> None:
    deal(client)
    match = client.get("/api/state").json["match"]
    response = client.post("/api/matches", json={"player": ["X", "Y"]}, headers=AUTH)
    assert response.status_code == 400
    assert "'player'" in response.json["error"]
    assert client.get("/api/state").json["match"] == match  # the match goes on
    response = client.post(
        "/api/matches", json={"players": ["X", "Y"], "rule": "house"}, headers=AUTH
    )
    assert response.status_code == 400 and "'rule'" in response.json["error"]
    assert stored(app) == (1, 2)


def test_a_typo_in_a_correction_is_refused_by_name(client: FlaskClient) -> None:
    deal(client)
    client.post("/api/events", json={"type": "play", "card": "red-3"}, headers=AUTH)
    response = client.post("/api/correct", json={"card": "wild", "colour": "blue"}, headers=AUTH)
    assert response.status_code == 400 and "'colour'" in response.json["error"]
    assert client.get("/api/state").json["game"]["top"] == "red-3"


# -- the round preview ----------------------------------------------------------------


def test_round_preview_needs_the_referee_token(client: FlaskClient) -> None:
    deal(client, ["Ann", "Bob"], dealer="Bob")
    body = {"hands": {"Ann": [], "Bob": ["red-1"]}}
    assert client.post("/api/round-preview", json=body).status_code == 401
    wrong = client.post("/api/round-preview", json=body, headers={"X-Referee-Token": "nope"})
    assert wrong.status_code == 401
    assert client.post("/api/round-preview", json=body, headers=AUTH).status_code == 200


def test_round_preview_does_not_replay_the_match_per_call(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import web.game

    deal(client, ["Ann", "Bob"], dealer="Bob")
    for card in ("red-3", "red-5"):
        client.post("/api/events", json={"type": "play", "card": card}, headers=AUTH)
    replays: list[int] = []
    real = web.game.Game.replay

    def counting(events: Any, rules: Any = None) -> Any:
        events = list(events)
        replays.append(len(events))
        return real(events, rules)

    monkeypatch.setattr(web.game.Game, "replay", counting)
    answers = []
    for bob in (["red-1"], ["red-1", "wild"], [], ["red-1"]):
        hands = {"Ann": [], "Bob": bob} if bob else {"Ann": ["blue-2"], "Bob": []}
        response = client.post("/api/round-preview", json={"hands": hands}, headers=AUTH)
        assert response.status_code == 200
        answers.append(response.json["round"]["points"])
    assert answers[0] == {"Ann": 1, "Bob": 0} and answers[1] == {"Ann": 51, "Bob": 0}
    assert answers[2] == {"Ann": 0, "Bob": 2} and answers[3] == answers[0]
    assert replays == []  # judged on the live game (Game.judge): no replay at all
    # A new event: the next preview judges the game as it is now, and changes nothing.
    before = client.get("/api/state").json
    client.post("/api/events", json={"type": "draw"}, headers=AUTH)
    after = client.post("/api/round-preview", json={"hands": {"Ann": [], "Bob": []}}, headers=AUTH)
    assert after.status_code == 200 and replays == []
    state = client.get("/api/state").json
    assert state["n"] == before["n"] + 1 and state["game"]["in_round"]
    # And the previews changed nothing.
    game = client.get("/api/state").json["game"]
    assert game["in_round"] is True and game["totals"] == {"Ann": 0, "Bob": 0}
