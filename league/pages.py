"""The organiser's page: every table live, standings, ratings with their history."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from flask import Blueprint, current_app, render_template
from markupsafe import Markup

from league import queries
from league.api import ratings, since_arg
from league.db import get_db
from league.plot import history_svg
from league.ratings import initial

bp = Blueprint("league_pages", __name__)


def _summary(since: float) -> dict[str, Any]:
    conn = get_db()
    r = ratings(conn)
    shown = {p.player for p in r.current[: int(current_app.config["RATING_PLOT_PLAYERS"])]}
    series: dict[str, list[tuple[int, float]]] = defaultdict(list)
    start = initial()
    for p in r.history:
        if p.player in shown:
            if p.player not in series:  # from where everyone starts, before their first round
                series[p.player].append((p.index - 1, start))
            series[p.player].append((p.index, p.ordinal))
    by_rules: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in queries.standings(conn, since):
        by_rules[row["rule_set"]].append(row)
    return {
        "since": since,
        "since_text": datetime.fromtimestamp(since).isoformat(sep=" ", timespec="minutes"),
        "standings": dict(by_rules),
        "ratings": r.current,
        "plot": Markup(history_svg(dict(series), "rating (mu - 3 sigma) after each round")),
    }


@bp.get("/")
def index() -> Any:
    """The page; ``?since=`` (a date or epoch seconds) limits the standings to the evening."""
    try:
        since = since_arg()
    except ValueError as exc:
        return str(exc), 400
    return render_template("league.html", tables=queries.board(get_db()), **_summary(since))


@bp.get("/parts/summary")
def summary() -> Any:
    """The standings and ratings alone (the page reloads them when a round ends)."""
    try:
        since = since_arg()
    except ValueError as exc:
        return str(exc), 400
    return render_template("league_summary.html", **_summary(since))
