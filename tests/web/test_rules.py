"""The rule set travels with the match (issue 22 §2): stored whole, migrated from an
older database, set with ``--set`` on ``serve``, refused by name when wrong, shown on
the page, changed between rounds only."""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Page, expect

from tests.web.helpers import AUTH, PLAYERS, TOKEN, LiveServer, deal, post_json
from tracker import Game, preset
from tracker.rulespec import from_assignments
from uno_table.cli import main
from web import create_app, service_of
from web.store import Store

HOUSE_NO_JUMP = {"preset": "house", "set": {"jump_in": False, "hand_size": 5}}

#: The ``matches`` and ``events`` tables as the first release made them: a preset name.
OLD_SCHEMA = """
CREATE TABLE matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT, created_at REAL NOT NULL, rules TEXT NOT NULL,
    players TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active', winner TEXT);
CREATE TABLE events (
    match_id INTEGER NOT NULL REFERENCES matches(id), n INTEGER NOT NULL, at REAL NOT NULL,
    source TEXT NOT NULL, event TEXT NOT NULL, verdict TEXT NOT NULL, ok INTEGER NOT NULL,
    PRIMARY KEY (match_id, n));
"""


def app_on(db: str, **config: object) -> Flask:
    return create_app({"DATABASE": db, "REFEREE_TOKEN": TOKEN, "TESTING": True, **config})


def hands_dealt(client: FlaskClient) -> dict[str, int]:
    hands: dict[str, int] = client.get("/api/state").json["game"]["hands"]
    return hands


# -- stored ------------------------------------------------------------------------------


def test_the_whole_rule_set_is_stored_and_resumed(db_path: str) -> None:
    rules = from_assignments("house", ["jump_in=false", "hand_size=5"])
    client = app_on(db_path, RULES=rules, PLAYERS=PLAYERS).test_client()
    body = client.get("/api/state").json
    assert body["match"]["rules"] == "house"
    assert body["match"]["rule_set"] == HOUSE_NO_JUMP == body["rule_set"]
    stored = sqlite3.connect(db_path).execute("SELECT rule_set FROM matches").fetchone()[0]
    assert json.loads(stored) == HOUSE_NO_JUMP
    deal(client)
    assert set(hands_dealt(client).values()) == {5}
    # A restart (even one told another preset) resumes the match with its own rules.
    again = app_on(db_path, RULES="official").test_client()
    assert again.get("/api/state").json["rule_set"] == HOUSE_NO_JUMP
    assert service_of(again.application).game.rules == rules


def test_an_old_database_is_migrated(tmp_path: Path) -> None:
    db = str(tmp_path / "old.db")
    conn = sqlite3.connect(db)
    conn.executescript(OLD_SCHEMA)
    conn.execute(
        "INSERT INTO matches (created_at, rules, players) VALUES (1.0, 'house', ?)",
        (json.dumps(["Ann", "Bob"]),),
    )
    for n, event in enumerate(
        [{"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"}], start=1
    ):
        conn.execute(
            "INSERT INTO events VALUES (1, ?, 1.0, 'referee', ?, '{\"ok\": true}', 1)",
            (n, json.dumps(event)),
        )
    conn.commit()
    conn.close()
    store = Store.open(db)
    match = store.match(1)
    store.close()
    assert match is not None and match.rule_set == '{"preset": "house", "set": {}}'
    assert match.ruleset() == preset("house")
    client = app_on(db).test_client()
    assert client.get("/api/state").json["rule_set"] == {"preset": "house", "set": {}}
    assert service_of(client.application).game.rules.jump_in is True


# -- the command line --------------------------------------------------------------------


def test_serve_takes_set_like_referee(db_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    from uno_table.commands import serve
    from uno_table.commands.referee import rules_of
    from uno_table.live import build_app

    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args(["--rules", "house", "--set", "jump_in=false", "--set", "hand_size=5"])
    app, runner = build_app(
        source=None, players=PLAYERS, rules=rules_of(args), db=db_path, token=TOKEN
    )
    assert runner is None
    assert app.test_client().get("/api/state").json["rule_set"] == HOUSE_NO_JUMP
    # A wrong toggle or value: refused before anything is served, naming it.
    base = ["serve", "--source", "none", "--port", "0", "--db", db_path]
    assert main([*base, "--set", "jump=true"]) == 2
    assert "NAME one of" in capsys.readouterr().err
    assert main([*base, "--set", "hand_size=many"]) == 2
    assert "hand_size takes a whole number, not 'many'" in capsys.readouterr().err


# -- the API -----------------------------------------------------------------------------


def test_new_match_takes_a_rule_set(client: FlaskClient) -> None:
    answer = client.post(
        "/api/matches", json={"players": ["Xu", "Yan"], "rules": HOUSE_NO_JUMP}, headers=AUTH
    )
    assert answer.status_code == 201, answer.json
    assert answer.json["rule_set"] == HOUSE_NO_JUMP
    assert client.get("/api/state").json["rule_set"] == HOUSE_NO_JUMP
    # Without "rules", the next match keeps the rule set in force.
    again = client.post("/api/matches", json={"players": ["Xu", "Yan"]}, headers=AUTH)
    assert again.json["rule_set"] == HOUSE_NO_JUMP


@pytest.mark.parametrize(
    ("rules", "named"),
    [
        ({"preset": "house", "set": {"jump": True, "hand_size": "many"}}, ["jump", "hand_size"]),
        ({"preset": "house", "set": {"jump_in": 3}}, ["jump_in takes true/false"]),
        ({"preset": "house", "set": {"hand_size": 99}}, ["hand_size must be 1..15"]),
        ({"preset": "poker"}, ["unknown rule preset 'poker'"]),
        ({"preset": "house", "toggles": {}}, ["'toggles'"]),
        (5, ["a rule set is a preset name"]),
    ],
)
def test_a_bad_rule_set_is_refused_by_name(
    client: FlaskClient, rules: object, named: list[str]
) -> None:
    deal(client)
    before = client.get("/api/state").json
    for path, body in (
        ("/api/matches", {"players": ["Xu", "Yan"], "rules": rules}),
        ("/api/rules", {"rules": rules}),
    ):
        answer = client.post(path, json=body, headers=AUTH)
        assert answer.status_code == 400, (path, answer.json)
        for name in named:
            assert name in answer.json["error"], (path, answer.json)
    after = client.get("/api/state").json
    assert after["match"]["id"] == before["match"]["id"] and after["n"] == before["n"]


def test_rules_change_between_rounds_only(app: Flask, client: FlaskClient) -> None:
    # Before the first round: taken, stored as an event the log shows.
    changed = client.post("/api/rules", json={"rules": HOUSE_NO_JUMP}, headers=AUTH)
    assert changed.status_code == 200, changed.json
    assert changed.json["verdict"]["rule_set"] == HOUSE_NO_JUMP
    log = client.get("/api/events").json["events"]
    assert log[-1]["event"] == {"type": "rules", **HOUSE_NO_JUMP}
    assert log[-1]["source"] == "referee"
    deal(client)
    assert set(hands_dealt(client).values()) == {5}
    # While the round runs: refused, nothing stored.
    n = client.get("/api/state").json["n"]
    refused = client.post("/api/rules", json={"rules": "official"}, headers=AUTH)
    assert refused.status_code == 409
    assert "a round is in progress" in refused.json["error"]
    assert client.get("/api/state").json["n"] == n
    assert client.post("/api/rules", json={"rules": "official"}).status_code == 401
    # After the round: taken again; the next deal follows the new rules.
    hands = {p: [] if p == "Ann" else ["red-1"] for p in PLAYERS}
    over = client.post("/api/events", json={"type": "end-round", "hands": hands}, headers=AUTH)
    assert over.json["verdict"]["ok"], over.json
    assert client.post("/api/rules", json={"rules": "official"}, headers=AUTH).status_code == 200
    client.post(
        "/api/events", json={"type": "round", "players": PLAYERS, "dealer": "Ann"}, headers=AUTH
    )
    assert set(hands_dealt(client).values()) == {7}
    state = client.get("/api/state").json
    # A restart replays the changes where they were made: the same game.
    again = app_on(app.config["DATABASE"]).test_client().get("/api/state").json
    assert again["game"] == state["game"] and again["rule_set"] == {"preset": "official", "set": {}}
    # The exported log replays with `uno-table referee` (it applies the rules lines).
    export = client.get("/api/matches/current/events.jsonl").get_data(as_text=True)
    assert '"type": "rules"' in export
    game = Game(preset("official"))
    for line in export.splitlines():
        event = json.loads(line)
        if event["type"] == "rules":
            game.rules = from_assignments(event["preset"], [])
            for key, value in event["set"].items():
                game.rules = game.rules.with_text(f"{key}={value}")
        else:
            game.apply(event)
    assert game.state_json() == state["game"]


def test_referee_command_applies_rules_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "match.jsonl"
    lines = [
        {"type": "rules", **HOUSE_NO_JUMP},
        {"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"},
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["referee", str(log)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0] == {"ok": True, "alerts": [], "rule_set": HOUSE_NO_JUMP}
    assert out[1]["state"]["hands"] == {"Ann": 5, "Bob": 5}


# -- the page ----------------------------------------------------------------------------


@pytest.mark.browser
def test_the_page_shows_and_changes_the_rules(page: Page, db_path: str) -> None:
    from tests.web.test_browser import open_page

    rules = from_assignments("house", ["jump_in=false"])
    app = app_on(db_path, RULES=rules, PLAYERS=PLAYERS)
    with LiveServer(app) as server:
        open_page(page, server)
        info = page.locator("#rules-info")
        expect(info).to_have_text("Rules: house · changed: jump_in = no")
        page.locator("#btn-lang").click()
        expect(info).to_have_text("规则：house · 改动：jump_in = 否")
        page.locator("#btn-lang").click()
        # Between rounds: the dialog changes them, and the log says so.
        page.locator("#btn-rules").click()
        expect(page.locator("#rules-set")).to_have_value("jump_in=false")
        page.locator("#rules-set").fill("jump_in=false\nhand_size=5")
        page.locator("#rules-go").click()
        expect(info).to_have_text("Rules: house · changed: jump_in = no, hand_size = 5")
        expect(page.locator("#log li").first).to_contain_text("#1 Rules · Rules: house")
        # Mid-round: the dialog warns, and the server's refusal is shown.
        status, _ = post_json(
            server.url + "/api/events",
            {"type": "round", "players": PLAYERS, "dealer": "Dee"},
        )
        assert status == 200
        expect(page.locator("body")).to_have_attribute("data-n", "2")
        page.locator("#btn-rules").click()
        expect(page.locator("#rules-in-round")).to_be_visible()
        page.locator("#rules-preset").select_option("official")
        page.locator("#rules-go").click()
        expect(page.locator("#toast")).to_contain_text("a round is in progress")
        expect(info).to_have_text("Rules: house · changed: jump_in = no, hand_size = 5")
