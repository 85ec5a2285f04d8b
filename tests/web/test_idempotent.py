"""Writes are idempotent by a client-chosen ``client_id``: a retry is answered, not re-applied."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import AUTH, deal
from web import create_app
from web.store import Store


def event_count(app: Flask) -> int:
    store = Store.open(app.config["DATABASE"])
    try:
        return store.event_count(app.extensions["uno_table"]["service"].match.id)
    finally:
        store.close()


def test_a_retried_event_is_stored_once_and_answered_the_same(
    app: Flask, client: FlaskClient
) -> None:
    deal(client)
    play = {"type": "play", "card": "red-3", "client_id": "tablet-1:17"}
    first = client.post("/api/events", json=play, headers=AUTH)
    assert first.status_code == 200 and "X-Repeated-Request" not in first.headers
    client.post("/api/events", json={"type": "play", "card": "red-4"}, headers=AUTH)
    again = client.post("/api/events", json=play, headers=AUTH)
    assert again.status_code == 200
    assert again.json == first.json  # the original answer, number and verdict
    assert again.headers["X-Repeated-Request"] == "true"
    assert event_count(app) == 4
    game = client.get("/api/state").json["game"]
    assert game["top"] == "red-4" and game["hands"]["Ann"] == 6


def test_a_client_id_reused_for_another_event_is_a_conflict(
    app: Flask, client: FlaskClient
) -> None:
    deal(client)
    client.post(
        "/api/events", json={"type": "play", "card": "red-3", "client_id": "x"}, headers=AUTH
    )
    other = client.post(
        "/api/events", json={"type": "play", "card": "red-9", "client_id": "x"}, headers=AUTH
    )
    assert other.status_code == 409
    assert "already used" in other.json["error"]
    assert event_count(app) == 3


def test_a_bad_client_id_is_a_400(client: FlaskClient) -> None:
    for bad in (17, "", "x" * 101, "tab\n1"):
        response = client.post("/api/events", json={"type": "undo", "client_id": bad}, headers=AUTH)
        assert response.status_code == 400
        assert "client_id" in response.json["error"]


def test_a_retried_correction_is_applied_once(app: Flask, client: FlaskClient) -> None:
    deal(client)
    client.post("/api/events", json={"type": "play", "card": "red-3"}, headers=AUTH)
    body = {"card": "red-9", "client_id": "fix-1"}
    first = client.post("/api/correct", json=body, headers=AUTH)
    again = client.post("/api/correct", json=body, headers=AUTH)
    assert first.status_code == again.status_code == 200
    assert again.json == first.json and again.headers["X-Repeated-Request"] == "true"
    assert event_count(app) == 5  # round, flip, play, undo, play
    other = client.post("/api/correct", json={"card": "red-8", "client_id": "fix-1"}, headers=AUTH)
    assert other.status_code == 409


def test_a_retried_new_match_starts_one_match(app: Flask, client: FlaskClient) -> None:
    body = {"players": ["X", "Y"], "client_id": "new-1"}
    first = client.post("/api/matches", json=body, headers=AUTH)
    deal(client, ["X", "Y"], dealer="Y")
    again = client.post("/api/matches", json=body, headers=AUTH)
    assert first.status_code == again.status_code == 201
    assert again.json["id"] == first.json["id"]
    assert len(client.get("/api/matches").json["matches"]) == 2
    assert client.get("/api/state").json["n"] == 2  # the game in that match goes on


OLD_SCHEMA = """
CREATE TABLE matches (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at REAL NOT NULL,
    rules TEXT NOT NULL, players TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active',
    winner TEXT);
CREATE TABLE events (match_id INTEGER NOT NULL REFERENCES matches(id), n INTEGER NOT NULL,
    at REAL NOT NULL, source TEXT NOT NULL, event TEXT NOT NULL, verdict TEXT NOT NULL,
    ok INTEGER NOT NULL, PRIMARY KEY (match_id, n));
CREATE TABLE rounds (match_id INTEGER NOT NULL REFERENCES matches(id), number INTEGER NOT NULL,
    result TEXT, updated_at REAL NOT NULL, PRIMARY KEY (match_id, number));
INSERT INTO matches (created_at, rules, players) VALUES (1, 'official', '["Ann", "Bob"]');
INSERT INTO events VALUES (1, 1, 1, 'referee',
    '{"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"}', '{"ok": true}', 1);
"""


def test_a_database_of_the_previous_version_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(OLD_SCHEMA)
    conn.close()
    app = create_app({"DATABASE": str(path), "REFEREE_TOKEN": "t", "TESTING": True})
    client = app.test_client()
    auth = {"X-Referee-Token": "t"}
    assert client.get("/api/state").json["game"]["turn"] == "Ann"  # the match resumed
    body = {"type": "flip", "card": "red-7", "client_id": "c1"}
    assert client.post("/api/events", json=body, headers=auth).json["n"] == 2
    assert client.post("/api/events", json=body, headers=auth).json["n"] == 2
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 2
        indexes = {r[1] for r in conn.execute("PRAGMA index_list(events)")}
        assert "events_client_id" in indexes
        # The database itself refuses a second event with the same client_id.
        try:
            conn.execute("INSERT INTO events VALUES (1, 3, 1, 'referee', '{}', '{}', 1, 'c1')")
            raise AssertionError("a duplicate client_id was stored")
        except sqlite3.IntegrityError:
            pass
    finally:
        conn.close()
    Store.open(path).close()  # opening again migrates nothing twice
