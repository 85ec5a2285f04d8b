"""A multiplayer rating per player: the Weng-Lin model (openskill's Plackett-Luce).

Every round that ended is one rated game among its players, in the order the tables
stored them. A round's ranking is its points under the match's rule set (highest
first; lowest first where the lowest total wins), ties broken by the points of the
cards left in hand (fewest first); players equal on both share a rank.

The rating shown is openskill's ordinal, ``mu - 3 sigma``: a cautious estimate that
rises as a player wins and as the model grows sure of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Point:
    """A player's rating after their ``game``-th rated round (``index``: the round overall)."""

    player: str
    index: int
    game: int
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True)
class Ratings:
    current: list[Point]  # best first
    history: list[Point]  # every player's rating after each of their rounds, in order


def initial() -> float:
    """The rating every player starts from (mu - 3 sigma of a new openskill rating)."""
    r = PlackettLuce().rating()
    return float(r.mu) - 3.0 * float(r.sigma)


def _ranks(result: Mapping[str, Any], players: list[str]) -> list[float]:
    points = result.get("points") or {}
    hand = result.get("hand_points") or {}
    sign = 1.0 if result.get("lower_wins") else -1.0

    def key(p: str) -> tuple[float, float]:
        return (sign * float(points.get(p, 0)), float(hand.get(p, 0)))

    keys = sorted({key(p) for p in players})
    return [float(keys.index(key(p)) + 1) for p in players]


def rate(rounds: Iterable[Mapping[str, Any]]) -> Ratings:
    """Ratings after ``rounds`` (rows of :func:`league.queries.round_results`), in order."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games: dict[str, int] = {}
    history: list[Point] = []
    for index, result in enumerate(rounds, start=1):
        players = sorted((result.get("points") or {}).keys())
        if len(players) < 2:
            continue
        teams = [[ratings.get(p) or model.rating(name=p)] for p in players]
        new = model.rate(teams, ranks=_ranks(result, players))
        for p, (r,) in zip(players, new, strict=True):
            ratings[p] = r
            games[p] = games.get(p, 0) + 1
            history.append(Point(p, index, games[p], float(r.mu), float(r.sigma)))
    current = [Point(p, 0, games[p], float(r.mu), float(r.sigma)) for p, r in ratings.items()]
    current.sort(key=lambda pt: (-pt.ordinal, pt.player))
    return Ratings(current, history)
