"""The SQLite store, the event check and the SSE broker, on their own."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from web.broker import Broker
from web.events import CARDS, EventError, validate_event
from web.store import Store


def test_database_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "sub" / "uno.db")  # the folder is made
    assert store.journal_mode() == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()


def test_events_are_numbered_per_match_and_read_back(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "uno.db")
    first = store.create_match(["Ann", "Bob"], "official")
    assert store.append_event(first, {"type": "undo"}, {"ok": False}, source="referee") == 1
    assert store.append_event(first, {"type": "pass"}, {"ok": True}, source="vision") == 2
    second = store.create_match(["Cy", "Dee"], "house")
    assert store.append_event(second, {"type": "undo"}, {"ok": False}, source="referee") == 1
    assert store.events(first) == [{"type": "undo"}, {"type": "pass"}]
    rows = store.stored_events(first, after=1)
    assert [(r.n, r.source, r.verdict) for r in rows] == [(2, "vision", {"ok": True})]
    assert [(m.id, m.status) for m in store.matches()] == [(first, "finished"), (second, "active")]
    latest = store.latest_match()
    assert latest is not None and latest.players == ["Cy", "Dee"] and latest.rules == "house"
    store.close()


def test_rounds_follow_the_game_including_an_undone_round(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "uno.db")
    match = store.create_match(["Ann", "Bob"], "official")
    won = {"winner": "Ann", "points": {"Ann": 30, "Bob": 0}}
    store.append_event(match, {"type": "round"}, {"ok": True}, source="r", rounds=[None])
    store.append_event(match, {"type": "end-round"}, {"ok": True}, source="r", rounds=[won])
    store.append_event(match, {"type": "round"}, {"ok": True}, source="r", rounds=[won, None])
    assert store.rounds(match) == [won, None]
    store.append_event(match, {"type": "undo"}, {"ok": True}, source="r", rounds=[won])
    assert store.rounds(match) == [won]
    store.close()


def test_a_failed_write_leaves_nothing_behind(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "uno.db")
    match = store.create_match(["Ann", "Bob"], "official")
    with pytest.raises(sqlite3.IntegrityError):
        store.append_event(999, {"type": "undo"}, {"ok": True}, source="r")  # no such match
    assert store.event_count(match) == 0
    # The connection is usable afterwards.
    assert store.append_event(match, {"type": "undo"}, {"ok": True}, source="r") == 1
    store.close()


def test_concurrent_writers_never_share_a_number(tmp_path: Path) -> None:
    path = tmp_path / "uno.db"
    match = Store.open(path).create_match(["Ann", "Bob"], "official")
    numbers: list[int] = []
    lock = threading.Lock()

    def writer() -> None:
        store = Store.open(path)
        for _ in range(20):
            n = store.append_event(match, {"type": "pass"}, {"ok": True}, source="r")
            with lock:
                numbers.append(n)
        store.close()

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(numbers) == list(range(1, 81))


def test_the_card_vocabulary_is_the_full_deck() -> None:
    assert len(CARDS) == 54  # 4 colors x 13 faces + 2 wilds
    assert {"red-0", "blue-draw2", "yellow-skip", "green-reverse", "wild", "wild-draw4"} <= CARDS


def test_valid_events_come_back_clean() -> None:
    assert validate_event({"type": "play", "cards": ["red-7", "blue-7"], "player": "Ann"}) == {
        "type": "play",
        "cards": ["red-7", "blue-7"],
        "player": "Ann",
    }
    assert validate_event({"type": "undo", "t": 3.2}) == {"type": "undo"}
    assert validate_event({"type": "end-round", "hands": {"Ann": [], "Bob": ["wild"]}})
    with pytest.raises(EventError, match="'challenge' needs 'guilty'"):
        validate_event({"type": "challenge"})


def test_broker_drops_the_oldest_for_a_slow_client() -> None:
    broker = Broker(maxsize=3)
    slow = broker.subscribe()
    for i in range(5):
        broker.publish("verdict", {"n": i})
    got = [slow.get(timeout=0.1) for _ in range(4)]
    assert [m.data for m in got if m] == ['{"n": 2}', '{"n": 3}', '{"n": 4}']
    broker.unsubscribe(slow)
    assert broker.publish("verdict", {"n": 5}) == 0
