"""The live runner's parts beside its thread: the link to the game service, the latest
frame served as JPEG, the cards by seat and the camera check's layout inbox. Real
OpenCV encoding, real table layouts and a real :class:`uno_table.session.TableSession`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from uno_table.live_frames import LatestFrame, cards_by_seat
from uno_table.live_layout import LayoutInbox
from uno_table.live_link import ServiceLink
from uno_table.session import VISION, Moment, TableVerdict
from vision.calibration import TableLayout
from vision.detections import Detections

OK = TableVerdict(ok=True)
AT = Moment(1.0, 30)


def test_the_latest_frame_is_encoded_once_per_frame_for_every_viewer() -> None:
    frames = LatestFrame()
    assert frames.jpeg(75) is None and frames.raw() is None
    raw = np.zeros((48, 64, 3), np.uint8)
    annotated = np.full((48, 64, 3), 200, np.uint8)
    frames.put(annotated, raw, 7)
    first = frames.jpeg(75)
    assert first is not None and first[0] == 7 and first[1][:2] == b"\xff\xd8"
    assert frames.jpeg(75) is first  # a second viewer: not encoded again
    assert frames.raw() is raw
    frames.put(annotated, raw, 8)
    second = frames.jpeg(75)
    assert second is not None and second[0] == 8 and second is not first


def test_cards_by_seat_reads_faces_in_front_of_seated_players_only() -> None:
    layout = TableLayout.default(640, 480, 4)
    players = ["Ann", "Bob", "Cy"]  # seat 3 has nobody
    boxes = []
    for seat, card in [(0, "red-1"), (2, "blue-skip"), (3, "wild"), (0, "back")]:
        x, y = layout.seat_anchor(seat, 0.8)
        boxes.append((card, 0.9, (x - 20, y - 30, x + 20, y + 30)))
    dx, dy = layout.draw.center
    boxes.append(("green-5", 0.9, (dx - 20, dy - 30, dx + 20, dy + 30)))  # on the draw pile
    seats = cards_by_seat(Detections.from_list(boxes), layout, players)
    assert seats == {"Ann": ["red-1"], "Bob": [], "Cy": ["blue-skip"]}


def test_the_layout_inbox_keeps_the_newest_and_refuses_a_bad_one_losing_nothing() -> None:
    inbox = LayoutInbox()
    first = TableLayout.default(640, 480, 3)
    newest = TableLayout.default(1280, 960, 3)
    inbox.put(first.to_dict())
    inbox.put(newest.to_dict())
    with pytest.raises(ValueError, match="not a table layout"):
        inbox.put({"width": 640, "height": 480})
    taken = inbox.take()
    assert taken is not None and taken.to_dict() == newest.to_dict()
    assert inbox.take() is None  # taken once


def test_verdicts_before_the_session_reach_it_in_order() -> None:
    link = ServiceLink(report=lambda message: None)
    link.notify({"type": "color", "color": "red"}, OK, "referee")
    link.notify({"type": "play", "card": "red-5", "player": "Bob"}, OK, VISION)
    link.notify({"type": "uno", "player": "Bob"}, TableVerdict(ok=False), "referee")
    assert link.session is None
    session = link.open_session(["Ann", "Bob"], None)
    assert link.session is session
    assert session.last_applied == ("play", VISION)  # the refused one changed nothing
    link.notify({"type": "draw", "player": "Ann"}, OK, "referee")
    assert session.last_applied == ("draw", "referee")


def test_the_link_counts_the_cameras_events_and_reports_failures_without_raising() -> None:
    reports: list[str] = []
    link = ServiceLink(report=reports.append)
    assert link.send({"type": "draw"}, VISION, AT) is None  # no service bound yet
    assert link.observe("red-5", AT) is None
    sent: list[tuple[dict[str, Any], str]] = []

    def submit(event: dict[str, Any], source: str) -> dict[str, Any]:
        sent.append((event, source))
        return {"ok": True, "state": {"top": "red-5", "turn": "Bob"}}

    link.submit = submit
    event = {"type": "play", "card": "red-5", "player": "Ann"}
    verdict = link.send(event, VISION, AT)
    assert verdict is not None and verdict.ok and verdict.turn == "Bob"
    assert sent == [(event, VISION)] and sent[0][0] is not event  # a copy is sent
    assert link.send({"type": "uno", "player": "Ann"}, "referee", AT) is not None
    assert link.events_submitted == 1  # rulings are not the camera's events

    def down(*_args: Any) -> dict[str, Any]:
        raise ConnectionError("database is locked")

    link.submit = down
    link.observe_top = down
    assert link.send({"type": "draw"}, VISION, AT) is None
    assert link.send({"type": "pass"}, "referee", AT) is None
    assert link.observe("red-5", AT) is None
    assert reports == [
        "could not submit an event: database is locked",
        "could not submit a ruling: database is locked",
        "could not check the pile's top: database is locked",
    ]
    assert link.events_submitted == 1
    link.observe_top = lambda top, t: {"ok": True, "state": {"top": top}}
    healed = link.observe("red-5", AT)
    assert healed is not None and healed.top == "red-5"
