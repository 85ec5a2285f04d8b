"""Round scoring and the match winner, for each scoring system of :mod:`tracker.rules`.

The worked example of pairwise scoring: hands worth 0, 10, 20 and 30 points.

>>> round_deltas("pairwise", [0, 10, 20, 30], winner=0)
[60, 20, -20, -60]
>>> round_deltas("winner-takes", [0, 10, 20, 30], winner=0)
[60, 0, 0, 0]
>>> round_deltas("partners", [0, 10, 20, 30], winner=0)
[40, 0, 40, 0]
>>> match_winner("own-points", [120, 510, 300], ["Ann", "Bob", "Cy"], target=500)
'Ann'
"""

from __future__ import annotations

from collections.abc import Sequence


def team_of(seat: int, players: int) -> int:
    """Partners sit opposite each other: seats i and i + n/2 form team i.

    >>> [team_of(seat, 4) for seat in range(4)]
    [0, 1, 0, 1]
    """
    return seat % (players // 2)


def round_deltas(
    scoring: str, points: Sequence[int], winner: int | None, stake: int = 1
) -> list[int]:
    """What each player's match total gains in one round.

    ``points`` are the card points left in each hand (seat order); ``winner`` is the
    seat that went out (``None`` when nobody did, e.g. the draw pile ran out).
    """
    n = len(points)
    if scoring == "pairwise":
        total = sum(points)
        # sum over j != i of (p_j - p_i) = total - n * p_i
        return [stake * (total - n * p) for p in points]
    if scoring == "own-points":
        return list(points)
    if winner is None:
        return [0] * n
    if scoring == "winner-takes":
        deltas = [0] * n
        deltas[winner] = sum(points) - points[winner]
        return deltas
    if scoring == "partners":
        team = team_of(winner, n)
        gained = sum(p for seat, p in enumerate(points) if team_of(seat, n) != team)
        return [gained if team_of(seat, n) == team else 0 for seat in range(n)]
    raise ValueError(f"unknown scoring system {scoring!r}")


def match_winner(
    scoring: str, totals: Sequence[int], players: Sequence[str], target: int | None
) -> str | None:
    """The match winner once a total reaches ``target`` (``None`` while the match goes on).

    With ``own-points`` the lowest total wins; otherwise the highest. Ties go to the
    first in seat order. Partners win together: ``"Ann & Cy"``.
    """
    if target is None or not totals or max(totals) < target:
        return None
    best = min(totals) if scoring == "own-points" else max(totals)
    seat = list(totals).index(best)
    if scoring == "partners":
        n = len(players)
        mates = [players[s] for s in range(n) if team_of(s, n) == team_of(seat, n)]
        return " & ".join(mates)
    return players[seat]
