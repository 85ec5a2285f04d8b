"""Pushing events to the league: exactly once, in order, each table with its own token."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from league.db import connect
from tests.league.conftest import TOKENS, auth
from tests.league.helpers import Table, league_events, simulated_match, wait_for
from tests.web.helpers import LiveServer
from tracker import Game, preset

pytestmark = pytest.mark.postgres

PLAYERS = ["Ann", "Bob", "Cy"]


def push_body(events: list[dict[str, Any]], first: int = 1, match: int = 1) -> dict[str, Any]:
    """A push of ``events`` numbered from ``first``, with verdicts from the tracker."""
    game = Game(preset("official"))
    verdicts = [game.apply(e).to_json() for e in events]
    return {
        "match": {"id": match, "rules": "official", "players": PLAYERS, "created_at": 1.0},
        "events": [
            {"seq": first + i, "at": 100.0 + i, "source": "vision", "event": e, "verdict": v}
            for i, (e, v) in enumerate(zip(events, verdicts, strict=True))
        ][first - 1 :],
    }


DEAL = [
    {"type": "round", "players": PLAYERS, "dealer": "Cy"},
    {"type": "flip", "card": "red-7"},
    {"type": "play", "card": "red-3"},
    {"type": "play", "card": "blue-9"},  # illegal: Bob
]


def count(url: str) -> int:
    with connect(url) as conn:
        row = conn.execute("SELECT count(*) AS n FROM events").fetchone()
    return int(row["n"]) if row else 0


@pytest.fixture
def client(league_app: Any) -> FlaskClient:
    return league_app.test_client()  # type: ignore[no-any-return]


def test_push_is_idempotent_by_key(client: FlaskClient, league_url: str) -> None:
    body = push_body(DEAL)
    first = client.post("/api/tables/t1/events", json=body, headers=auth("t1"))
    assert first.status_code == 200, first.json
    assert first.json == {"match": 1, "acked": 4, "inserted": 4, "repeats": 0}
    again = client.post("/api/tables/t1/events", json=body, headers=auth("t1"))
    assert again.json == {"match": 1, "acked": 4, "inserted": 0, "repeats": 4}
    assert count(league_url) == 4
    # An overlapping push (3 already stored, 1 new) stores the new one only.
    more = push_body([*DEAL, {"type": "draw", "player": "Bob"}])
    answer = client.post("/api/tables/t1/events", json=more, headers=auth("t1")).json
    assert answer == {"match": 1, "acked": 5, "inserted": 1, "repeats": 4}
    assert count(league_url) == 5
    progress = client.get("/api/tables/t1/progress", headers=auth("t1"))
    assert progress.json == {"table": "t1", "acked": {"1": 5}}


def test_same_key_with_other_content_is_refused(client: FlaskClient, league_url: str) -> None:
    client.post("/api/tables/t1/events", json=push_body(DEAL), headers=auth("t1"))
    forged = push_body([*DEAL[:3], {"type": "play", "card": "red-9"}])
    answer = client.post("/api/tables/t1/events", json=forged, headers=auth("t1"))
    assert answer.status_code == 409
    assert "another content" in answer.json["error"]
    assert league_events(league_url, "t1")[(1, 4)][0] == {"type": "play", "card": "blue-9"}


def test_a_gap_is_refused_and_says_where_to_resume(client: FlaskClient, league_url: str) -> None:
    client.post("/api/tables/t1/events", json=push_body(DEAL[:2]), headers=auth("t1"))
    gap = push_body(DEAL, first=4)
    answer = client.post("/api/tables/t1/events", json=gap, headers=auth("t1"))
    assert answer.status_code == 409 and answer.json["acked"] == 2
    assert count(league_url) == 2


def test_tokens_write_to_their_own_table_only(client: FlaskClient, league_url: str) -> None:
    body = push_body(DEAL)
    none = client.post("/api/tables/t1/events", json=body)
    assert none.status_code == 401
    other = client.post("/api/tables/t1/events", json=body, headers=auth("t2"))
    assert other.status_code == 403 and "t1" in other.json["error"]
    wrong = client.post(
        "/api/tables/t1/events", json=body, headers={"Authorization": "Bearer x" * 3}
    )
    assert wrong.status_code == 403
    unknown = client.post("/api/tables/t3/events", json=body, headers=auth("t1"))
    assert unknown.status_code == 403
    assert client.get("/api/tables/t1/progress", headers=auth("t2")).status_code == 403
    assert count(league_url) == 0
    ok = client.post("/api/tables/t2/events", json=body, headers=auth("t2"))
    assert ok.status_code == 200
    assert set(league_events(league_url, "t2")) == {(1, 1), (1, 2), (1, 3), (1, 4)}
    assert league_events(league_url, "t1") == {}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("not json", "JSON object"),
        ({"match": {"id": 1}, "events": []}, "match.rules"),
        ({**push_body(DEAL), "events": [{"seq": 0}]}, "seq"),
        ({**push_body(DEAL), "match": {**push_body(DEAL)["match"], "rules": "poker"}}, "poker"),
        (
            {**push_body(DEAL), "match": {**push_body(DEAL)["match"], "players": ["A", "A"]}},
            "distinct",
        ),
    ],
)
def test_bad_pushes_get_a_clear_error_and_store_nothing(
    client: FlaskClient, league_url: str, body: object, message: str
) -> None:
    answer = client.post("/api/tables/t1/events", json=body, headers=auth("t1"))
    assert answer.status_code == 400
    assert message in answer.json["error"]
    assert count(league_url) == 0


def test_a_match_cannot_change_players_once_stored(client: FlaskClient) -> None:
    client.post("/api/tables/t1/events", json=push_body(DEAL), headers=auth("t1"))
    body = push_body(DEAL)
    body["match"]["players"] = ["Ann", "Bob", "Zed"]
    assert client.post("/api/tables/t1/events", json=body, headers=auth("t1")).status_code == 409


def test_a_table_pushes_every_stored_event_as_it_is_committed(
    tmp_path: Path, league_server: LiveServer, league_url: str
) -> None:
    table = Table(tmp_path, "t1", PLAYERS, league=league_server.url, token=TOKENS["t1"])
    try:
        log = simulated_match("official", PLAYERS, seed=5, rounds=2)
        table.play(log)
        table.new_match(PLAYERS, "house")
        table.play(simulated_match("house", PLAYERS, seed=6, rounds=1)[:30])
        stored = table.stored()
        assert len(stored) == len(log) + 30
        wait_for(lambda: len(league_events(league_url, "t1")) == len(stored), what="the push")
        assert league_events(league_url, "t1") == stored
        assert table.pusher is not None and table.pusher.state == "up"
        assert table.pusher.sent == len(stored)  # each sent once: no repeats were needed
    finally:
        table.close()


def test_database_down_is_503_and_nothing_is_acknowledged(tmp_path: Path) -> None:
    from league import create_app

    app = create_app(
        {"DATABASE": "postgresql://postgres@127.0.0.1:1/none", "MIGRATE": False, "TESTING": True}
    )
    answer = app.test_client().post(
        "/api/tables/t1/events", json=push_body(DEAL), headers=auth("t1")
    )
    assert answer.status_code == 503
    assert "unavailable" in answer.json["error"]
