"""The referee's timeline: the round's events, and amending a past one (delete, replace,
insert before), each later event judged again; stored, replayed, idempotent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import AUTH, PLAYERS, TOKEN, deal
from tests.web.helpers import post_event as post
from uno_table.cli import main
from web import create_app


def make_app(db_path: str, *, heal: bool = False) -> Flask:
    config = {"TESTING": True, "DATABASE": db_path, "REFEREE_TOKEN": TOKEN, "PLAYERS": PLAYERS}
    return create_app(config | {"HEAL": heal})


@pytest.fixture
def bare(db_path: str) -> FlaskClient:
    """A client of an app with healing off: every refusal stays an alert."""
    return make_app(db_path).test_client()


def timeline(client: FlaskClient) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.get("/api/timeline").json["events"]
    return events


def number_of(client: FlaskClient, **fields: Any) -> int:
    """The timeline number of the event with these fields."""
    found = [e["n"] for e in timeline(client) if fields.items() <= e["event"].items()]
    assert len(found) == 1, (fields, timeline(client))
    return int(found[0])


def amend(client: FlaskClient, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    response = client.post("/api/amend", json=body, headers=AUTH)
    assert response.status_code == status, response.json
    answer: dict[str, Any] = response.json
    return answer


def stored(client: FlaskClient) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = client.get("/api/events").json["events"]
    return rows


def codes(entries: list[dict[str, Any]]) -> list[list[str]]:
    return [[a["code"] for a in e["alerts"]] for e in entries]


def misread(client: FlaskClient) -> None:
    """Ann's green-7 read as red-3: Bob's green-2 is refused, then Cy's out of turn."""
    deal(client)
    assert post(client, {"type": "play", "card": "red-3", "player": "Ann"})["ok"]
    assert not post(client, {"type": "play", "card": "green-2", "player": "Bob"})["ok"]
    assert not post(client, {"type": "play", "card": "green-5", "player": "Cy"})["ok"]


def test_the_timeline_lists_the_rounds_events_with_refusals(bare: FlaskClient) -> None:
    misread(bare)
    entries = timeline(bare)
    assert [e["event"]["type"] for e in entries] == ["round", "flip", "play", "play", "play"]
    assert [e["applied"] for e in entries] == [True, True, True, False, False]
    assert codes(entries) == [[], [], [], ["illegal-card"], ["out-of-turn"]]
    assert {e["source"] for e in entries} == {"referee"}
    post(bare, {"type": "undo"})  # Ann's play taken back: the refusals after it go too
    assert [e["event"]["type"] for e in timeline(bare)] == ["round", "flip"]


def test_correcting_a_misread_card_clears_the_cascade(bare: FlaskClient) -> None:
    misread(bare)
    assert [a["code"] for a in bare.get("/api/state").json["alerts"]] == [
        "illegal-card",
        "out-of-turn",
    ]
    n = number_of(bare, card="red-3")
    right = {"type": "play", "card": "green-7", "player": "Ann"}
    answer = amend(bare, {"n": n, "action": "replace", "event": right})
    summary = answer["verdict"]["amend"]
    assert summary["judged_again"] == 2 and summary["alerts"] == []
    entries = timeline(bare)
    assert [e["event"].get("card") for e in entries[2:]] == ["green-7", "green-2", "green-5"]
    assert all(e["ok"] and e["applied"] and not e["alerts"] for e in entries)
    # The plays judged again keep their source; the correction is the referee's.
    state = bare.get("/api/state").json
    assert state["alerts"] == []  # the cascade's alerts are gone
    game = state["game"]
    assert (game["top"], game["turn"], game["hands"]["Cy"]) == ("green-5", "Dee", 6)
    # The record only grew: the misread play, the refusals, an undo, the new play, the
    # plays judged again (source "amend", with the number they repeat), the marker.
    rows = stored(bare)
    assert [r["source"] for r in rows[2:]] == [
        "referee", "referee", "referee", "amend", "referee", "amend", "amend", "referee"
    ]  # fmt: skip
    assert rows[5]["event"] == {"type": "undo"}
    assert rows[7]["verdict"]["again"] == {"n": n + 1, "source": "referee"}
    assert rows[-1]["event"] == {"type": "amend", "action": "replace", "n": n, "event": right}


def test_inserting_a_missed_draw_clears_the_out_of_turn_alerts(bare: FlaskClient) -> None:
    deal(bare)
    post(bare, {"type": "play", "card": "red-3", "player": "Ann"})
    # Bob drew a card and passed; the camera saw neither.
    assert post(bare, {"type": "play", "card": "red-5", "player": "Cy"})["alerts"]
    assert post(bare, {"type": "play", "card": "red-6", "player": "Dee"})["alerts"]
    n = number_of(bare, card="red-5")
    draw = {"type": "draw", "player": "Bob"}
    answer = amend(bare, {"n": n, "action": "insert", "event": draw})
    assert answer["verdict"]["amend"]["judged_again"] == 2
    entries = timeline(bare)
    assert [e["event"]["type"] for e in entries[2:]] == ["play", "draw", "play", "play"]
    assert codes(entries) == [[]] * 6
    game = bare.get("/api/state").json["game"]
    assert game["hands"] == {"Ann": 6, "Bob": 8, "Cy": 6, "Dee": 6}
    assert game["turn"] == "Ann" and game["top"] == "red-6"


def test_deleting_a_false_draw_gives_the_card_back(client: FlaskClient) -> None:
    """With the healer on (the default)."""
    deal(client)
    post(client, {"type": "play", "card": "red-3", "player": "Ann"})
    post(client, {"type": "draw", "player": "Bob"})  # the camera saw a draw that was not
    post(client, {"type": "play", "card": "red-4", "player": "Bob"})
    assert client.get("/api/state").json["game"]["hands"]["Bob"] == 7
    answer = amend(client, {"n": number_of(client, type="draw"), "action": "delete"})
    assert answer["verdict"]["ok"] and answer["verdict"]["amend"]["judged_again"] == 1
    assert [e["event"]["type"] for e in timeline(client)] == ["round", "flip", "play", "play"]
    game = client.get("/api/state").json["game"]
    assert game["hands"]["Bob"] == 6 and game["turn"] == "Cy"


def test_deleting_a_refused_event_takes_it_out(bare: FlaskClient) -> None:
    misread(bare)
    amend(bare, {"n": number_of(bare, card="green-5"), "action": "delete"})
    entries = timeline(bare)
    assert [e["event"].get("card") for e in entries[2:]] == ["red-3", "green-2"]
    assert codes(entries)[-1] == ["illegal-card"]  # judged again: still refused
    state = bare.get("/api/state").json
    assert [a["code"] for a in state["alerts"]] == ["illegal-card"]


def test_a_retry_is_answered_from_the_store(bare: FlaskClient) -> None:
    misread(bare)
    body = {"n": number_of(bare, card="green-5"), "action": "delete", "client_id": "tab-7"}
    first = bare.post("/api/amend", json=body, headers=AUTH)
    count = len(stored(bare))
    again = bare.post("/api/amend", json=body, headers=AUTH)
    assert again.status_code == 200 and again.headers.get("X-Repeated-Request") == "true"
    assert again.json == first.json and len(stored(bare)) == count
    other = bare.post(
        "/api/amend", json={**body, "action": "replace"} | {"event": {"type": "pass"}}, headers=AUTH
    )
    assert other.status_code == 409 and "client_id" in other.json["error"]
    assert len(stored(bare)) == count


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"n": 3, "action": "delete", "evnt": {}}, 400, "'evnt'"),
        ({"n": "3", "action": "delete"}, 400, "'n'"),
        ({"n": -1, "action": "delete"}, 400, "'n'"),
        ({"n": 3}, 400, "'action'"),
        ({"n": 3, "action": "erase"}, 400, "delete, replace, insert"),
        ({"n": 3, "action": "delete", "event": {"type": "pass"}}, 400, "takes no 'event'"),
        ({"n": 3, "action": "replace"}, 400, "needs the 'event'"),
        ({"n": 3, "action": "replace", "event": {"type": "play", "card": "red-10"}}, 400, "red-10"),
        ({"n": 3, "action": "replace", "event": {"type": "undo"}}, 400, "'undo'"),
        ({"n": 3, "action": "insert", "event": {"type": "round", "players": ["A"]}}, 400, "round"),
        ({"n": 3, "action": "replace", "event": {"type": "pass", "t": 1}}, 400, "'t'"),
        ({"n": 1, "action": "delete"}, 409, "deals the round"),
        ({"n": 99, "action": "delete"}, 409, "current round"),
        ([3, "delete"], 400, "send"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_and_changes_nothing(
    bare: FlaskClient, body: Any, status: int, says: str
) -> None:
    misread(bare)
    before = (stored(bare), bare.get("/api/state").json, timeline(bare))
    answer = amend(bare, body, status)
    assert says in answer["error"]
    assert (stored(bare), bare.get("/api/state").json, timeline(bare)) == before


def test_amending_needs_the_token(bare: FlaskClient) -> None:
    misread(bare)
    response = bare.post("/api/amend", json={"n": 5, "action": "delete"})
    assert response.status_code == 401 and len(timeline(bare)) == 5


def test_only_the_current_round_can_be_amended(bare: FlaskClient) -> None:
    deal(bare, ["Ann", "Bob"], dealer="Bob")
    n = number_of(bare, type="flip")
    post(bare, {"type": "play", "card": "red-3", "player": "Ann"})
    post(bare, {"type": "end-round", "hands": {"Ann": [], "Bob": ["red-1"]}})
    post(bare, {"type": "round", "players": ["Ann", "Bob"], "dealer": "Ann"})
    answer = amend(bare, {"n": n, "action": "delete"}, 409)
    assert "only the current round" in answer["error"]


def test_a_restart_reads_the_same_timeline_and_state(db_path: str) -> None:
    client = make_app(db_path).test_client()
    misread(client)
    right = {"type": "play", "card": "green-7", "player": "Ann"}
    amend(client, {"n": number_of(client, card="red-3"), "action": "replace", "event": right})
    amend(client, {"n": number_of(client, card="green-5"), "action": "delete"})
    before = client.get("/api/state").json, timeline(client)
    again = make_app(db_path).test_client()
    after = again.get("/api/state").json, timeline(again)
    assert after == before
    assert before[0]["game"]["top"] == "green-2" and before[0]["game"]["turn"] == "Cy"


def test_an_amendment_is_published_to_the_pages(db_path: str) -> None:
    app = make_app(db_path)
    client = app.test_client()
    misread(client)
    sub = app.extensions["uno_table"]["broker"].subscribe()
    amend(client, {"n": number_of(client, card="green-5"), "action": "delete"})
    message = sub.get(timeout=5)
    assert message is not None
    text = message.encode().decode()
    assert "event: verdict\n" in text and '"type": "amend"' in text


def test_the_exported_log_replays_with_the_referee_command(
    bare: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    misread(bare)
    right = {"type": "play", "card": "green-7", "player": "Ann"}
    amend(bare, {"n": number_of(bare, card="red-3"), "action": "replace", "event": right})
    log = tmp_path / "match.jsonl"
    log.write_bytes(bare.get("/api/matches/current/events.jsonl").data)
    assert '"type": "amend"' in log.read_text()
    assert main(["referee", "--rules", "official", str(log)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[-1] == {"ok": True, "alerts": [], "amend": "the lines before it"}
    assert out[-2]["state"] == {
        k: v for k, v in bare.get("/api/state").json["game"].items() if k in out[-2]["state"]
    }


def test_a_question_raised_while_judging_again_is_open(client: FlaskClient) -> None:
    """With the healer: Bob's play deleted, Cy's is out of turn, explained by a draw of
    Bob's the healer is unsure of: it asks, and the question can be answered."""
    deal(client)
    for card, player in [("red-3", "Ann"), ("red-4", "Bob"), ("red-5", "Cy")]:
        post(client, {"type": "play", "card": card, "player": player})
    answer = amend(client, {"n": number_of(client, card="red-4"), "action": "delete"})
    assert [a["code"] for a in answer["verdict"]["amend"]["alerts"]] == ["ask-referee"]
    entries = timeline(client)
    assert [e["event"]["type"] for e in entries[2:]] == ["play", "draw", "play"]
    assert entries[3]["source"] == "inferred" and codes(entries)[-1] == ["ask-referee"]
    question = client.get("/api/state").json["question"]
    assert question is not None and question["n"] == entries[-1]["n"]
    body = {"question": question["question"], "option": 0}
    assert client.post("/api/resolve", json=body, headers=AUTH).status_code == 200
    assert client.get("/api/state").json["question"] is None


def test_an_amendment_is_stored_whole_or_not_at_all(db_path: str) -> None:
    """The database refuses the last row (a trigger, as a full disk would): none of the
    undos and events judged again is kept, and the game is the stored one."""
    import sqlite3

    client = make_app(db_path).test_client()
    misread(client)
    before = stored(client), client.get("/api/state").json["game"], timeline(client)
    conn = sqlite3.connect(db_path)
    conn.execute(
        "CREATE TRIGGER full BEFORE INSERT ON events WHEN NEW.event LIKE '%\"amend\"%'"
        " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    )
    conn.commit()
    right = {"type": "play", "card": "green-7", "player": "Ann"}
    answer = amend(client, {"n": 3, "action": "replace", "event": right}, 503)
    assert "disk is full" in answer["error"]
    assert (stored(client), client.get("/api/state").json["game"], timeline(client)) == before
    conn.execute("DROP TRIGGER full")
    conn.commit()
    conn.close()
    amend(client, {"n": 3, "action": "replace", "event": right})
    assert timeline(client)[-1]["ok"]


def test_the_service_amends_without_the_http_layer(db_path: str) -> None:
    """web.timeline.amend on a GameService of its own (a real store): the record after a
    delete, and the same service read back by a second one on the same database."""
    from web.broker import Broker
    from web.game import GameService
    from web.store import Store
    from web.timeline import amend as amend_event

    service = GameService(db_path, "official", PLAYERS, Broker(), heal=False)
    store = Store.open(db_path)
    try:
        for event in [
            {"type": "round", "players": PLAYERS, "dealer": "Dee"},
            {"type": "flip", "card": "red-7"},
            {"type": "play", "card": "red-3", "player": "Ann"},
            {"type": "draw", "player": "Bob"},
            {"type": "pass", "player": "Bob"},
        ]:
            service.submit(event, store, source="vision")
        done = amend_event(service, 4, "delete", None, store)
        assert done.verdict["amend"]["judged_again"] == 1
        # Bob's pass, judged again without his draw, is refused: a pass needs a draw.
        entries = service.timeline()
        assert [(e.event["type"], e.applied, e.source) for e in entries[2:]] == [
            ("play", True, "vision"),
            ("pass", False, "vision"),
        ]
        rows = store.stored_events(service.match.id)
        assert [(r.source, r.event["type"]) for r in rows[5:]] == [
            ("amend", "undo"),
            ("amend", "undo"),
            ("amend", "pass"),
            ("referee", "amend"),
        ]
    finally:
        store.close()
    again = GameService(db_path, "official", PLAYERS, Broker(), heal=False)
    assert again.timeline() == entries and again.game.state_json() == service.game.state_json()
