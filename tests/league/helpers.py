"""Simulated tables for the league tests and benchmark: the real tablet app, no camera.

A :class:`Table` is the table's own web app (its SQLite store and game service) with,
when given a league, the real pusher attached; events go in through
:meth:`web.game.GameService.submit`, as the camera's and the referee's do.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from tracker import Game, preset
from tracker.simulate import NAMES, simulate
from web import create_app, service_of
from web.league_push import LeaguePusher, attach
from web.store import Store


def simulated_match(
    rules: str, players: Sequence[str], seed: int, rounds: int, mistakes: float = 0.05
) -> list[dict[str, Any]]:
    """A simulated log for ``players`` (renamed from the simulator's), cut at a match's end."""
    log = simulate(preset(rules), players=len(players), seed=seed, mistakes=mistakes, rounds=rounds)
    text = json.dumps([{k: v for k, v in e.items() if k != "expect"} for e in log])
    for old, new in zip(NAMES, players, strict=False):
        text = text.replace(f'"{old}"', f'"\\u0000{new}"')
    events: list[dict[str, Any]] = json.loads(text.replace("\\u0000", ""))
    game = Game(preset(rules))
    for i, event in enumerate(events):
        if game.apply(event).to_json().get("match_winner"):
            return events[: i + 1]
    return events


class Table:
    """One table: its tablet app on a SQLite file, optionally pushing to a league."""

    def __init__(
        self,
        folder: Path,
        name: str,
        players: Sequence[str],
        rules: str = "official",
        league: str | None = None,
        token: str | None = None,
    ) -> None:
        self.name = name
        self.db = str(folder / f"{name}.db")
        self.app = create_app(
            {
                "TESTING": True,
                "DATABASE": self.db,
                "RULES": rules,
                "PLAYERS": list(players),
                "REFEREE_TOKEN": "referee-token-of-" + name,
                # The simulated logs (5% deliberate mistakes) are counted one stored
                # event per event played: the bare tracker, not the healer.
                "HEAL": False,
            }
        )
        self.service = service_of(self.app)
        self.pusher: LeaguePusher | None = None
        if league:
            assert token
            self.pusher = attach(self.app, league, name, token)

    def play(
        self,
        events: Iterable[dict[str, Any]],
        pace_s: float = 0.0,
        on_event: Callable[[int], None] | None = None,
    ) -> int:
        """Submit ``events`` (every ``pace_s`` seconds); returns how many were stored."""
        count = 0
        store = Store.open(self.db)  # a connection of the calling thread, as a request has
        try:
            for event in events:
                self.service.submit(dict(event), store, source="vision")
                count += 1
                if on_event:
                    on_event(count)
                if pace_s:
                    time.sleep(pace_s)
        finally:
            store.close()
        return count

    def new_match(self, players: Sequence[str], rules: str) -> int:
        store = Store.open(self.db)
        try:
            match, _repeated = self.service.new_match(list(players), rules, store)
            return int(match.id)
        finally:
            store.close()

    def stored(self) -> dict[tuple[int, int], tuple[dict[str, Any], dict[str, Any]]]:
        """Every stored event of every match: (match, seq) -> (event, verdict)."""
        out = {}
        store = Store.open(self.db)
        try:
            for match in store.matches():
                for e in store.stored_events(match.id):
                    out[(match.id, e.n)] = (e.event, e.verdict)
        finally:
            store.close()
        return out

    def close(self) -> None:
        if self.pusher:
            self.pusher.stop()


def league_events(url: str, table: str) -> dict[tuple[int, int], tuple[dict[str, Any], Any]]:
    """What the league stored for ``table``: (match, seq) -> (event, verdict)."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT match_id, seq, event, verdict FROM events WHERE table_name = %s",
            (table,),
        ).fetchall()
    return {(int(m), int(s)): (e, v) for m, s, e, v in rows}


def wait_for(check: Callable[[], bool], timeout: float = 30.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
