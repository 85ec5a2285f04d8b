"""The table session shared by the live server and replays: the pipeline, the watcher,
the tracker's feedback to it, and the scripted referee.

Frames are the made-up detections of the watcher's tests (``tests/vision/test_watcher``)
read by a recogniser that hands over each frame's; the tracker is a real
:class:`tracker.Game`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.vision.test_arm_draws import ScriptedArms
from tests.vision.test_watcher import (
    CENTER,
    DRAW,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    Table,
    det,
    frame_detections,
)
from tracker import Game, preset
from uno_table.live import LiveRunner
from uno_table.session import (
    VISION,
    Moment,
    Note,
    NoteKind,
    Observe,
    TableSession,
    TableVerdict,
    choose_layout,
)
from vision.arm_probe import DRAW as AT_DRAW_PILE
from vision.calibration import TableLayout
from vision.detections import Detections
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

FPS = 30.0
BLANK = np.zeros((480, 640, 3), np.uint8)


class FrameDetections:
    """A recogniser that reads the made-up detections of the frame it is told."""

    def __init__(self, table: Table) -> None:
        self.frames = table.frames
        self.index = 0

    def seek(self, index: int) -> None:
        self.index = index

    def detect(self, _image: Any) -> Detections:
        return frame_detections(self.frames[self.index])


class Played:
    """A game the session sends its events to, as a replay does; keeps what was sent."""

    def __init__(self, *opening: dict[str, Any]) -> None:
        self.game = Game(preset("official"))
        self.sent: list[tuple[dict[str, Any], TableVerdict]] = []
        self.moments: list[Moment] = []
        self.session: TableSession | None = None
        for event in opening:
            assert self.game.apply(event).ok

    def submit(self, event: dict[str, Any], source: str, moment: Moment) -> TableVerdict:
        verdict = TableVerdict.from_json(self.game.apply(event).to_json())
        self.sent.append((event, verdict))
        self.moments.append(moment)
        assert self.session is not None
        self.session.notify(event, verdict, source)
        return verdict


def run(
    table: Table,
    played: Played,
    notes: list[Note] | None = None,
    observe: Observe | None = None,
) -> TableSession:
    session = TableSession(
        PLAYERS,
        FrameDetections(table),
        played.submit,
        layout=LAYOUT,
        read_fan_colors=False,  # made-up detections: no picture to read ink from
        on_note=None if notes is None else notes.append,
        observe=observe,
    )
    played.session = session
    for i in range(len(table.frames)):
        session.step(BLANK, i / FPS, i)
    return session


ROUND = {"type": "round", "players": PLAYERS, "dealer": "Dee"}


def flipped(card: str) -> Table:
    table = Table()
    table.still(5)
    table.bring([card], DRAW)
    table.still(30)
    return table


def test_a_wild_draw_four_starter_starts_the_watcher_s_pile_again() -> None:
    """The tracker takes the flip of a Wild Draw Four and waits for another (no top
    card): the watcher's pile is empty again, and the next card turned up is the flip."""
    table = flipped("wild-draw4")
    table.pile.clear()  # the referee puts it back into the deck
    table.still(10)
    table.bring(["red-7"], DRAW)
    table.still(30)
    played = Played(ROUND)
    session = run(table, played)
    assert [(e["type"], e.get("card"), v.ok) for e, v in played.sent] == [
        ("flip", "wild-draw4", True),
        ("flip", "red-7", True),
    ]
    assert session.watcher is not None and session.watcher.pile == [["red-7"]]


def test_a_card_first_seen_lying_on_the_pile_is_sent_as_of_when_it_was_seen() -> None:
    """A hand covered the card on its way: it is played once it has lain there a while
    (so a misreading of the top card is no play), but it lay there since it was seen,
    and the play is sent with that moment; when it came out is the frame's time."""
    table = flipped("red-5")
    table.still(15, covered=True)  # a hand over the pile puts the card down
    seen = len(table.frames) / FPS
    table.pile.append([("red-7", *CENTER)])
    table.still(40)
    played = Played(ROUND)
    run(table, played)
    (event, verdict), moment = played.sent[-1], played.moments[-1]
    assert (event["type"], event.get("card"), verdict.ok) == ("play", "red-7", True)
    cfg = WatcherConfig()
    assert seen <= moment.t <= seen + cfg.rest_s + 2 / FPS
    assert moment.t_emit is not None
    assert moment.t_emit >= seen + cfg.quiet_play_rest_s  # it came out after the wait
    assert moment.index == round(moment.t_emit * FPS)


def test_a_refused_flip_does_not_start_the_pile_again() -> None:
    """A flip the tracker refused leaves no top card either (here: no round yet), but
    the card lies there: the watcher is told it was refused, not that the pile is
    empty (it would take the card for a new flip)."""
    played = Played()
    session = run(flipped("wild-draw4"), played)
    [(flip, verdict)] = played.sent
    assert flip["type"] == "flip" and not verdict.ok and verdict.top is None
    assert session.watcher is not None and session.watcher.pile == [["wild-draw4"]]


class CountingWatcher(Watcher):
    """The real watcher, counting what the session tells it."""

    refused = 0
    resets = 0

    def play_refused(self) -> None:
        self.refused += 1
        super().play_refused()

    def reset(self) -> None:
        self.resets += 1
        super().reset()


def test_a_refused_flip_is_told_to_the_watcher() -> None:
    """The referee turned up the starter on the tablet; the camera's flip of it is
    refused, and the watcher hears so (as it does of a refused play)."""
    played = Played(ROUND, {"type": "flip", "card": "blue-5"})
    session = TableSession(PLAYERS, None, played.submit, layout=LAYOUT, read_fan_colors=False)
    played.session = session
    session.start(BLANK)
    assert session.pipeline is not None
    watcher = CountingWatcher(LAYOUT, PLAYERS)
    session.pipeline.watcher = watcher
    session.send([{"type": "flip", "card": "blue-5"}])
    assert not played.sent[-1][1].ok
    assert (watcher.refused, watcher.resets) == (1, 0)
    session.send([{"type": "play", "card": "blue-7", "player": "Ann"}])
    assert played.sent[-1][1].ok and (watcher.refused, watcher.resets) == (1, 0)


def test_taking_back_a_refused_play_is_noted_not_sent() -> None:
    table = flipped("blue-5")
    table.bring(["red-7"], SEAT_EDGE["Ann"])
    table.still(30)
    table.take_back(SEAT_EDGE["Ann"])
    table.still(30)
    played = Played(ROUND)
    notes: list[Note] = []
    run(table, played, notes)
    assert [(e["type"], v.ok) for e, v in played.sent] == [("flip", True), ("play", False)]
    assert [n.kind for n in notes] == [NoteKind.QUIET_UNDO]


# -- the rulings in between (these were the live runner's) ----------------------------


def sending(session_of: list[TableSession]) -> tuple[list[dict[str, Any]], Any]:
    sent: list[dict[str, Any]] = []

    def submit(event: dict[str, Any], source: str, _moment: Moment) -> TableVerdict:
        sent.append(event)
        verdict = TableVerdict(ok=True)
        session_of[0].notify(event, verdict, source)  # as the game service does
        return verdict

    return sent, submit


def test_an_amended_play_is_dropped_when_a_ruling_came_after_it() -> None:
    """The watcher amends its last play with an undo; that undo must not take back a
    ruling the referee sent in between."""
    box: list[TableSession] = []
    sent, submit = sending(box)
    session = TableSession(["Ann", "Bob"], None, submit)
    box.append(session)
    play = {"type": "play", "card": "red-5", "player": "Ann"}
    amended = {"type": "play", "cards": ["blue-5", "red-5"], "player": "Ann"}
    session.send([play])
    session.send([{"type": "undo"}, amended])
    assert sent == [play, {"type": "undo"}, amended]
    # Now Ann calls UNO on the tablet between the play and its amendment.
    sent.clear()
    session.send([play])
    session.notify({"type": "uno", "player": "Ann"}, TableVerdict(ok=True), "referee")
    session.send([{"type": "undo"}, amended])
    assert sent == [play]


def test_a_take_back_seen_after_a_ruling_is_left_to_the_referee() -> None:
    """A retraction's undo would take back the ruling sent since the play: it is
    not sent, and the tablet is asked instead."""
    runner = LiveRunner("unused.mp4", ["Ann", "Bob"])
    sent: list[dict[str, object]] = []

    def submit(event: dict[str, object], source: str) -> dict[str, object]:
        sent.append(event)
        verdict = {"ok": True, "state": {}}
        runner.notify(event, verdict, source)  # as the game service does
        return verdict

    runner.submit = submit
    session = runner._make_session(None)
    play = {"type": "play", "card": "wild", "player": "Ann"}
    session.send([play])
    session.send([{"type": "undo"}])
    assert sent == [play, {"type": "undo"}]
    assert "takeback_held_s_ago" not in runner.status()["recognition"]
    sent.clear()
    session.send([play])
    runner.notify({"type": "color", "color": "red"}, {"ok": True, "state": {}}, "referee")
    session.send([{"type": "undo"}])
    assert sent == [play]
    assert runner.takebacks_held == 1
    assert runner.status()["recognition"]["takeback_held_s_ago"] >= 0


def test_a_round_with_other_players_reseats_the_table() -> None:
    session = TableSession(["Ann", "Bob", "Cy", "Dee"], None, lambda e, s, m: None)
    layout = TableLayout.default(640, 480, 4)
    session.saved_layout = layout
    session.start(BLANK)
    watcher = session.watcher
    assert watcher is not None and session.layout is layout
    ok = TableVerdict(ok=True)
    # Same players: nothing moves.
    session.notify({"type": "round", "players": ["Ann", "Bob", "Cy", "Dee"]}, ok, "referee")
    assert not session.apply_rounds() and session.layout is layout
    # Three players now: three seats, evenly around from seat 0, and their names.
    session.notify({"type": "round", "players": ["Eve", "Fay", "Gus"]}, ok, "referee")
    assert session.apply_rounds()
    new = session.layout
    assert session.players == watcher.players == ["Eve", "Fay", "Gus"]
    assert new.seats == (180.0, 300.0, 60.0) and watcher.layout is new
    assert new.discard == layout.discard and new.draw == layout.draw
    x, y = new.seat_anchor(1, 0.8)
    assert new.seat_at(x, y) == 1
    # A refused round changes nothing.
    session.notify({"type": "round", "players": ["Hal", "Ivy"]}, TableVerdict(ok=False), VISION)
    assert not session.apply_rounds() and session.players == ["Eve", "Fay", "Gus"]


def test_a_round_the_table_cannot_seat_keeps_the_seats_and_says_why() -> None:
    notes: list[Note] = []
    session = TableSession(["Ann", "Bob"], None, lambda e, s, m: None, on_note=notes.append)
    session.saved_layout = TableLayout.default(640, 480, 2)
    session.start(BLANK)
    session.notify({"type": "round", "players": ["Eve", "Eve"]}, TableVerdict(ok=True), "x")
    assert not session.apply_rounds() and session.players == ["Ann", "Bob"]
    assert [n.kind for n in notes] == [NoteKind.SEATS_KEPT] and "distinct" in notes[0].message


def test_one_layout_fallback_for_live_and_replay() -> None:
    """A saved layout is fitted to the frame; without one, the proposal from the
    frame (the piles where the recogniser saw faces and backs)."""
    saved = TableLayout.default(1280, 960, 3)
    assert choose_layout(BLANK, 3, saved).width == 640
    seen = Detections.from_list(
        [("red-7", 0.9, (100, 100, 150, 176)), ("back", 0.9, (400, 100, 450, 176))]
    )
    proposed = choose_layout(BLANK, 3, None, seen)
    assert proposed.discard.contains(125, 138) and proposed.draw.contains(425, 138)
    assert len(proposed.seats) == 3


def test_a_layout_saved_on_the_camera_check_is_used_at_once() -> None:
    """The camera check's layout (web/camera.py) reaches the watcher and its tracker,
    fitted to the frame; through the live runner, at its next frame."""
    session = TableSession(["Ann", "Bob", "Cy", "Dee"], None, lambda e, s, m: None)
    session.saved_layout = TableLayout.default(640, 480, 4)
    session.start(BLANK)
    moved = TableLayout.default(1280, 960, 4).to_dict() | {"discard": [100, 100, 300, 300]}
    runner = LiveRunner("none", ["Ann", "Bob", "Cy", "Dee"])
    runner.use_layout(moved)
    runner._take_layout(session)
    watcher = session.watcher
    assert watcher is not None and session.layout is not None
    assert session.layout.width == 640 and session.layout.discard.as_list() == [50, 50, 150, 150]
    assert watcher.layout is session.layout and watcher.tracker.layout is session.layout
    runner._take_layout(session)  # taken once
    assert session.layout.discard.as_list() == [50, 50, 150, 150]


def red_9_beside_the_starter(spot: tuple[float, float]) -> Table:
    """Ann's red 9 put at ``spot`` on the starter red 5, the red 5 showing beside it
    and read surer than the red 9."""
    table = flipped("red-5")
    beside = [det("red-5", *CENTER, conf=0.95)]
    table.bring(["red-9"], SEAT_EDGE["Ann"], spot, extra=beside)
    table.still(90, extra=beside)
    for frame in table.frames:
        frame[:] = [(n, 0.5 if n == "red-9" else c, b) for n, c, b in frame]
    return table


def tops_told(table: Table) -> tuple[Played, TableSession, list[str | None]]:
    """The session run over ``table``: what it sent, and each top the healer was told."""
    tops: list[str | None] = []

    def observe(top: str | None, _moment: Moment) -> None:
        tops.append(top)

    played = Played(ROUND)
    return played, run(table, played, observe=observe), tops


def test_the_record_s_top_is_the_pile_s_top_where_the_recogniser_sees_it() -> None:
    """An untidy pile shows the card under the top one, read surer than it (a Wild
    Draw Four's black face): the healer is told the record's top while a box of it is
    seen, not the card the record laid under it, which it would take for the top
    taken back
    (``quick-untidy-26fps`` seed 654, plays of three, trained recogniser)."""
    table = red_9_beside_the_starter((CENTER[0] + 30, CENTER[1]))
    played, session, tops = tops_told(table)
    assert [e.get("card") for e, _ in played.sent] == ["red-5", "red-9"]
    assert tops[-1] == "red-9" and session.record_top == "red-9"
    assert "red-5" not in tops[tops.index("red-9") :]


def test_at_the_video_s_end_what_the_watcher_still_waited_for_is_sent() -> None:
    """Ann's arm is at the draw pile in the video's last frames (the card she draws
    hidden in her hand): the watcher waits for the arm to go back, which no frame
    will show; ``finish`` (a replay's end) sends the draw to the tracker."""
    table = flipped("red-5")
    table.still(40)
    played = Played(ROUND)
    session = TableSession(
        PLAYERS, FrameDetections(table), played.submit, layout=LAYOUT, read_fan_colors=False
    )
    played.session = session
    arms = ScriptedArms()
    last = len(table.frames) - 1
    arms.at(range(last - 11, last + 1), "Ann", AT_DRAW_PILE)
    for i in range(len(table.frames)):
        arms.now = i / FPS
        session.step(BLANK, i / FPS, i)
        assert session.watcher is not None
        session.watcher.arms = arms
    assert [e["type"] for e, _ in played.sent] == ["flip"]
    session.finish()
    assert [(e["type"], e.get("player")) for e, _ in played.sent] == [
        ("flip", None),
        ("draw", "Ann"),
    ]


def test_a_card_the_record_laid_deep_down_seen_surer_is_no_new_top() -> None:
    """A messy pile shows its starter whole, read surer than the top, five plays on:
    every card the record laid this round counts as under its top, not the last four
    (``messy-pile`` held-out 668, opened: Eve's pair inferred from the starter seen,
    her real play then refused, two alerts)."""
    table = flipped("red-5")
    beside = [det("red-5", *CENTER, conf=0.95)]  # the starter, showing beside the top
    spot = (CENTER[0] + 30, CENTER[1])
    cards = ["red-9", "red-3", "red-7", "red-2", "red-8"]
    for card, player in zip(cards, ["Ann", "Bob", "Cy", "Dee", "Ann"], strict=True):
        table.bring([card], SEAT_EDGE[player], spot, extra=beside)
        table.still(45, extra=beside)
    for frame in table.frames:  # the plays read less surely than the starter
        frame[:] = [(n, 0.5 if n in cards else c, b) for n, c, b in frame]
    played, session, tops = tops_told(table)
    assert [e.get("card") for e, _ in played.sent] == ["red-5", *cards]
    assert session.record_top == "red-8" and session.record_under[0] == "red-5"
    assert "red-5" not in tops[tops.index("red-8") :]


def test_the_pile_s_top_is_looked_for_in_the_zone_the_pile_grew_to() -> None:
    """A card put down short of the pile lies outside the zone a calibration drew, in
    the one the watcher grew to take it in: seen there, it is the top the healer is
    told, not the starter read surer inside the old zone (``messy-pile`` held-out 701,
    opened: Eve's red skip at the zone's edge, the starter read as the top, every
    explanation of Cy's next play then taken for one against the camera's view, and
    four alerts where one question would do)."""
    short = (CENTER[0], LAYOUT.discard.y2 + 0.4 * LAYOUT.card_px)
    played, session, tops = tops_told(red_9_beside_the_starter(short))
    assert [e.get("card") for e, _ in played.sent] == ["red-5", "red-9"]
    assert session.record_top == "red-9" and "red-9" in tops
    assert "red-5" not in tops[tops.index("red-9") :]


def test_a_new_round_forgets_the_cards_the_record_laid_under_its_top() -> None:
    session = TableSession(["Ann", "Bob"], None, lambda e, s, m: None)

    def verdict(top: str | None) -> TableVerdict:
        return TableVerdict.from_json({"ok": True, "state": {"top": top}})

    for top in ("red-5", "red-9", "blue-9"):
        session.notify({"type": "play", "card": top}, verdict(top), VISION)
    assert session.record_top == "blue-9" and session.record_under == ["red-5", "red-9"]
    session.notify({"type": "round", "players": ["Ann", "Bob"]}, verdict(None), "referee")
    assert session.record_top is None and session.record_under == []
    session.notify({"type": "flip", "card": "green-2"}, verdict("green-2"), VISION)
    assert session.record_top == "green-2" and session.record_under == []
