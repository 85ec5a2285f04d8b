"""The API split into blueprints (web.api, web.api_export, web.api_write, ...) keeps
every URL with its methods, and every part answers its errors the same way."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.web.helpers import TOKEN

#: Every ``/api`` URL of the table's server and the methods it takes (HEAD/OPTIONS aside).
API_RULES = {
    ("/api/state", "GET"),
    ("/api/events", "GET"),
    ("/api/events", "POST"),
    ("/api/stream", "GET"),
    ("/api/seat-cards", "GET"),
    ("/api/round-preview", "POST"),
    ("/api/matches", "GET"),
    ("/api/matches", "POST"),
    ("/api/matches/<match>/events.jsonl", "GET"),
    ("/api/matches/<match>/scores.csv", "GET"),
    ("/api/correct", "POST"),
    ("/api/resolve", "POST"),
    ("/api/rules", "POST"),
    ("/api/timeline", "GET"),
    ("/api/amend", "POST"),
    ("/api/layout", "GET"),
    ("/api/layout", "POST"),
}


def test_every_api_url_is_still_served(app: Flask) -> None:
    served = {
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods or ()
        if method not in {"HEAD", "OPTIONS"}
    }
    assert served >= API_RULES


def test_each_part_answers_a_bad_body_with_a_json_400(client: FlaskClient) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    for url in ("/api/events", "/api/round-preview", "/api/amend", "/api/rules", "/api/layout"):
        response = client.post(url, data=b"{not json", headers=auth)
        assert response.status_code == 400, url
        assert "error" in response.get_json(), url


def test_an_unknown_match_is_a_json_404(client: FlaskClient) -> None:
    for url in ("/api/matches/99/events.jsonl", "/api/matches/99/scores.csv"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.get_json() == {"error": "no match 99"}


def test_the_page_links_the_exports(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "/api/matches/current/events.jsonl" in page
    assert "/api/matches/current/scores.csv" in page
