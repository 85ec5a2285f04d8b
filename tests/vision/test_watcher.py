"""Watcher rules, each with a made-up sequence of detections (no camera, no model).

The table is the default 640x480 layout with four seats: Ann at the bottom edge,
Bob left, Cy top, Dee right (clockwise). Cards are 50x76 px boxes.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.calibration import TableLayout
from vision.detections import Detections
from vision.pile_colors import ColorPatch
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
LAYOUT = TableLayout.default(640, 480, 4)
CENTER = (320.0, 240.0)
SEAT_EDGE = {
    "Ann": (320.0, 465.0),
    "Bob": (15.0, 240.0),
    "Cy": (320.0, 15.0),
    "Dee": (625.0, 240.0),
}
DRAW = LAYOUT.draw.center
FPS = 30.0

Det = tuple[str, float, tuple[float, float, float, float]]
# The classifier's runners-up for a detection, by its box: set by a test, read by feed().
CANDIDATES: dict[tuple[float, float, float, float], tuple[tuple[str, float], ...]] = {}


def det(name: str, x: float, y: float, conf: float = 0.9) -> Det:
    return (name, conf, (x - 25, y - 38, x + 25, y + 38))


def unsure(candidates: tuple[tuple[str, float], ...], x: float, y: float, conf: float) -> Det:
    """A detection read as its first candidate, the others close behind."""
    d = det(candidates[0][0], x, y, conf)
    CANDIDATES[d[2]] = candidates
    return d


def misread(table: Table, name: str, candidates: tuple[tuple[str, float], ...]) -> None:
    """Every box of ``name`` after the starter is read unsurely, as ``candidates`` say."""
    for frame in table.frames[16:]:
        for k, (n, _conf, box) in enumerate(frame):
            if n == name:
                x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                frame[k] = unsure(candidates, x, y, 0.5)


def frame_detections(frame: list[Det]) -> Detections:
    d = Detections.from_list(frame)
    if not any(box in CANDIDATES for _, _, box in frame):
        return d
    cands = tuple(
        CANDIDATES.get(box, () if name == "back" else ((name, 1.0),)) for name, _, box in frame
    )
    return dataclasses.replace(d, candidates=cands)


class Table:
    """Builds frames: the discard pile's visible cards plus whatever moves."""

    def __init__(self) -> None:
        self.pile: list[list[tuple[str, float, float]]] = []  # plays, bottom first
        self.frames: list[list[Det]] = []
        self.draw_pile = True

    def visible_pile(self) -> list[Det]:
        out = [det("back", *DRAW)] if self.draw_pile else []
        if self.pile:
            out += [det(n, x, y) for n, x, y in self.pile[-1]]
        return out

    def still(self, n: int, *, covered: bool = False, extra: list[Det] | None = None) -> None:
        for _ in range(n):
            self.frames.append(([] if covered else self.visible_pile()) + (extra or []))

    def bring(
        self,
        cards: list[str],
        start: tuple[float, float],
        end: tuple[float, float] = CENTER,
        n: int = 15,
        *,
        spread: float = 22.0,
        extra: list[Det] | None = None,
    ) -> None:
        """Cards carried from ``start`` to ``end`` (fanned side by side), then left there
        (``extra``: detections seen in every frame besides)."""
        k = len(cards)
        offs = [(j - (k - 1) / 2) * spread for j in range(k)]
        for i in range(1, n + 1):
            u = 1 - (1 - i / n) ** 2
            x = start[0] + (end[0] - start[0]) * u
            y = start[1] + (end[1] - start[1]) * u
            self.frames.append(
                self.visible_pile()
                + [det(c, x + o, y) for c, o in zip(cards, offs, strict=False)]
                + (extra or [])
            )
        self.pile.append([(c, end[0] + o, end[1]) for c, o in zip(cards, offs, strict=False)])

    def take_back(self, to: tuple[float, float], n: int = 15) -> None:
        """The top play is lifted and carried to ``to``; the one below shows again."""
        top = self.pile.pop()
        for i in range(1, n + 1):
            u = i / n
            moving = [det(c, x + (to[0] - x) * u, y + (to[1] - y) * u) for c, x, y in top]
            self.frames.append(self.visible_pile() + moving)

    def draw_card(self, to: tuple[float, float], n: int = 15) -> None:
        for i in range(1, n + 1):
            u = i / n
            x = DRAW[0] + (to[0] - DRAW[0]) * u
            y = DRAW[1] + (to[1] - DRAW[1]) * u
            self.frames.append([*self.visible_pile(), det("back", x, y)])


def feed(table: Table, watcher: Watcher | None = None) -> list[tuple[float, dict[str, object]]]:
    w = watcher or Watcher(LAYOUT, PLAYERS)
    out = []
    for i, frame in enumerate(table.frames):
        t = i / FPS
        for ev in w.update(frame_detections(frame), t):
            out.append((t, ev))
    return out


def kinds(events: list[tuple[float, dict[str, object]]]) -> list[dict[str, object]]:
    return [e for _, e in events]


def also_seen_as_they_land(table: Table, box: Det, frames: int = 20) -> None:
    """``box`` is seen too over the last 4 frames of the cards landing, and then for
    ``frames`` frames while they lie still."""
    for frame in table.frames[-4:]:
        frame.append(box)
    table.still(frames, extra=[box])


def started(first: str = "red-5") -> Table:
    """A table whose starter card has been turned up (the flip)."""
    table = Table()
    table.still(5)
    table.bring([first], DRAW)
    table.still(10)
    return table


def test_starter_card_is_a_flip_then_plays_follow_once() -> None:
    table = started("red-5")
    table.bring(["red-7"], SEAT_EDGE["Ann"])
    table.still(90)  # three seconds at rest: still one event
    assert kinds(feed(table)) == [
        {"type": "flip", "card": "red-5"},
        {"type": "play", "card": "red-7", "player": "Ann"},
    ]


@pytest.mark.parametrize("player", PLAYERS)
def test_player_is_the_seat_the_card_came_from(player: str) -> None:
    table = started()
    table.bring(["red-9"], SEAT_EDGE[player])
    table.still(10)
    assert kinds(feed(table))[-1] == {"type": "play", "card": "red-9", "player": player}


def test_play_comes_soon_after_the_card_rests() -> None:
    table = started()
    rest_frame = len(table.frames) + 15 - 1  # the last frame of the move
    table.bring(["red-9"], SEAT_EDGE["Cy"])
    table.still(10)
    t_play = next(t for t, e in feed(table) if e["type"] == "play")
    assert t_play - rest_frame / FPS <= 0.1


def jittering_under_hand(
    jitter_px: float, settings: dict[str, float] | None = None
) -> list[dict[str, object]]:
    """A hand over the pile, then a red 9 lying half on the red 5, first seen there (the hand
    covered it on the way), whose box alternates between two fits ``jitter_px`` apart
    from frame to frame (the trained detector's box of a card on a heap), for a second."""
    table = started()
    table.still(9, covered=True)
    for i in range(30):
        dy = jitter_px if i % 2 else 0.0
        table.frames.append([*table.visible_pile(), det("red-9", CENTER[0] + 40, CENTER[1] + dy)])
    watcher = Watcher(LAYOUT, PLAYERS, config=WatcherConfig.from_dict(settings or {}))
    return kinds(feed(table, watcher))[1:]


def test_a_covered_card_whose_box_jitters_by_a_few_pixels_is_at_rest() -> None:
    # 4.5 px is 0.059 card lengths here: more than a card seen coming may wander and
    # be at rest (``still``, 0.05: it is slowing down), within what a card first seen
    # lying may (``lying_still``, 0.065; covering-hand seed 603, trained recogniser:
    # Ann's red 1, read right in every frame, boxed 5 px higher and lower by turns,
    # was never played before the tenth pass).
    assert [e["card"] for e in jittering_under_hand(4.5)] == ["red-9"]
    assert jittering_under_hand(4.5, {"lying_still": 0.05}) == []


def test_card_in_flight_is_not_a_play() -> None:
    table = started()
    # Carried over the pile and on to the other side, never still on it.
    table.bring(["blue-3"], SEAT_EDGE["Bob"], SEAT_EDGE["Dee"], n=20)
    table.pile.pop()
    table.still(10)
    assert kinds(feed(table)) == [{"type": "flip", "card": "red-5"}]


def test_hand_covering_the_pile_makes_no_event() -> None:
    table = started()
    table.bring(["red-7"], SEAT_EDGE["Ann"])
    table.still(10)
    table.still(9, covered=True)  # a hand over the table: nothing seen
    table.still(10)
    table.still(60, covered=True)  # two seconds this time
    table.still(20)
    assert [e["type"] for e in kinds(feed(table))] == ["flip", "play"]


def test_card_slid_then_adjusted_is_one_play() -> None:
    table = started()
    table.bring(["green-2"], SEAT_EDGE["Dee"], (330.0, 235.0))
    table.still(6)
    # The player nudges it into place, covering it for a moment.
    table.pile.pop()
    table.bring(["green-2"], (330.0, 235.0), (318.0, 244.0), n=6)
    table.still(4, covered=True)
    table.still(20)
    plays = [e for e in kinds(feed(table)) if e["type"] == "play"]
    assert plays == [{"type": "play", "card": "green-2", "player": "Dee"}]


def test_same_face_twice_is_two_plays() -> None:
    table = started("yellow-4")
    table.bring(["yellow-8"], SEAT_EDGE["Ann"])
    table.still(20)
    table.bring(["yellow-8"], SEAT_EDGE["Bob"], (326.0, 236.0))
    table.still(20)
    assert kinds(feed(table))[1:] == [
        {"type": "play", "card": "yellow-8", "player": "Ann"},
        {"type": "play", "card": "yellow-8", "player": "Bob"},
    ]


def test_two_cards_put_down_together_are_one_play() -> None:
    table = started("blue-5")
    table.bring(["red-5", "green-5"], SEAT_EDGE["Cy"], spread=26.0)
    table.still(20)
    events = kinds(feed(table))
    assert len(events) == 2
    assert events[1]["type"] == "play" and events[1]["player"] == "Cy"
    assert sorted(events[1]["cards"]) == ["green-5", "red-5"]  # type: ignore[arg-type]


def test_two_copies_of_a_face_put_down_together_are_both_in_the_play() -> None:
    # house seed 720 (true boxes): red 5, green 5 and green 5 fanned a third of a card
    # apart; the second green 5 was taken for the first boxed twice.
    table = started("blue-5")
    table.bring(["red-5", "green-5", "green-5"], SEAT_EDGE["Cy"], spread=26.0)
    table.still(20)
    events = kinds(feed(table))
    assert len(events) == 2
    assert sorted(events[1]["cards"]) == ["green-5", "green-5", "red-5"]  # type: ignore[arg-type]


def test_a_heap_box_that_took_over_a_cards_arrival_does_not_displace_it() -> None:
    # shaky-untidy-28fps seed 647 (plays of three, trained recogniser): the red 3
    # under Dee's red 5, half covered as it lands, is boxed as a red 5 beside it for a
    # frame (a second box of the arriving card: it takes over where the card came
    # from), then steadily as a red 9, seen better than the red 5. The card seen
    # moving in is the play; the box that never moved is the heap misread.
    table = started("red-3")
    table.bring(["red-5"], SEAT_EDGE["Dee"], end=(CENTER[0] + 12.0, CENTER[1] - 18.0))
    table.frames[-3].append(det("red-5", *CENTER, 0.87))
    for frame in table.frames[-2:]:
        frame.append(det("red-9", *CENTER, 0.95))
    table.pile[-2] = []  # the red 3 boxed only as the red 9 from now on
    table.still(20, extra=[det("red-9", *CENTER, 0.95)])
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "red-5", "player": "Dee"}]


def test_one_card_boxed_twice_in_one_place_is_one_card() -> None:
    table = started("blue-5")
    table.bring(["green-5", "green-5"], SEAT_EDGE["Cy"], spread=4.0)
    table.still(20)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "green-5", "player": "Cy"}]


def test_a_card_that_shows_from_under_a_play_just_after_it_amends_the_play() -> None:
    # Two cards put down squarely together: the lower one shows once they lie there.
    table = started("blue-5")
    table.bring(["green-5"], SEAT_EDGE["Cy"])
    table.still(6)
    table.pile[-1] = [("red-5", CENTER[0] + 20, CENTER[1] + 16), ("green-5", *CENTER)]
    table.still(20)
    assert kinds(feed(table))[1:] == [
        {"type": "play", "card": "green-5", "player": "Cy"},
        {"type": "undo"},
        {"type": "play", "cards": ["red-5", "green-5"], "player": "Cy"},
    ]


def test_a_pile_card_showing_again_after_a_play_amends_nothing() -> None:
    table = started("blue-5")
    table.bring(["green-5"], SEAT_EDGE["Cy"])
    table.still(6)
    # The starter card, pushed aside, shows again: a pile card, not part of the play.
    table.still(20, extra=[det("blue-5", CENTER[0] + 20, CENTER[1] + 16)])
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "green-5", "player": "Cy"}]


def test_taking_the_card_back_is_an_undo() -> None:
    table = started("blue-5")
    table.bring(["blue-7"], SEAT_EDGE["Ann"])
    table.still(30)
    table.take_back(SEAT_EDGE["Ann"])
    table.still(30)
    assert [e["type"] for e in kinds(feed(table))] == ["flip", "play", "undo"]


def test_taking_the_card_back_is_an_undo_while_the_card_below_blinks() -> None:
    # The card below shows again, but the recogniser sees it only every third frame.
    table = started("green-4")
    table.bring(["green-8"], SEAT_EDGE["Bob"])
    table.still(30)
    table.take_back(SEAT_EDGE["Bob"])
    table.still(45)
    for i in range(len(table.frames) - 50, len(table.frames)):
        if i % 3:
            table.frames[i] = [d for d in table.frames[i] if d[0] != "green-4"]
    assert [e["type"] for e in kinds(feed(table))] == ["flip", "play", "undo"]


def test_a_card_carried_off_a_pile_the_recogniser_cannot_see_is_an_undo() -> None:
    # The card below (a wild on a dark heap) is never boxed again once uncovered.
    table = started("wild")
    table.bring(["green-8"], SEAT_EDGE["Bob"])
    table.still(30)
    lifted = len(table.frames)
    table.take_back(SEAT_EDGE["Bob"])
    table.still(45)
    for i in range(lifted, len(table.frames)):
        table.frames[i] = [d for d in table.frames[i] if d[0] != "wild"]
    assert [e["type"] for e in kinds(feed(table))] == ["flip", "play", "undo"]
    # Lost from sight on the pile, never seen carried off: no undo (it may be covered).
    table = started("wild")
    table.bring(["green-8"], SEAT_EDGE["Bob"])
    table.still(30)
    table.still(45, covered=True)
    assert [e["type"] for e in kinds(feed(table))] == ["flip", "play"]


def two_copies_played() -> Table:
    """Bob plays a red 4, then Cy the other red 4 at nearly the same spot."""
    table = started("green-4")
    table.bring(["red-4"], SEAT_EDGE["Bob"])
    table.still(20)
    table.bring(["red-4"], SEAT_EDGE["Cy"], (326.0, 236.0))
    table.still(20)
    return table


#: What the watcher tells of :func:`two_copies_played`, the second taken back.
SECOND_COPY_UNDONE = [
    {"type": "play", "card": "red-4", "player": "Bob"},
    {"type": "play", "card": "red-4", "player": "Cy"},
    {"type": "undo"},
]


def test_taking_back_the_second_copy_of_a_face_is_an_undo() -> None:
    table = two_copies_played()
    table.take_back(SEAT_EDGE["Cy"])
    table.still(30)
    assert kinds(feed(table))[1:] == SECOND_COPY_UNDONE


def test_a_second_copy_lifted_out_of_sight_and_seen_going_away_is_an_undo() -> None:
    # The hand hides the card it lifts until it is clear of the pile; meanwhile the
    # copy under it, at nearly the same spot, takes over its track.
    table = two_copies_played()
    lifted = len(table.frames)
    table.take_back(SEAT_EDGE["Cy"])
    for frame in table.frames[lifted : lifted + 4]:
        frame.pop()  # in the hand
    table.still(30)
    assert kinds(feed(table))[1:] == SECOND_COPY_UNDONE


def test_a_copy_taken_back_off_the_card_it_covered_leaves_the_top_card_lying() -> None:
    # A green 4 lies beside the red 4 it was played on; a second green 4, put square
    # on the red 4, is taken back. The first green 4 is the top card again, still lying
    # where it was: the second carried off is no sign it went, and the red 4 the second
    # uncovered is no second take-back (fast-messy-24fps and two more styles, held-out
    # 710, opened).
    table = started("red-4")
    red = det("red-4", *CENTER)
    beside = (350.0, 190.0)
    table.bring(["green-4"], SEAT_EDGE["Ann"], beside)
    table.still(20, extra=[red])
    first = det("green-4", *beside)
    table.bring(["green-4"], SEAT_EDGE["Bob"], (322.0, 242.0), extra=[first])
    table.still(40, extra=[first])
    lifted = len(table.frames)
    table.take_back((60.0, 250.0), n=30)
    for frame in table.frames[lifted + 10 :]:
        frame.append(red)  # uncovered once the hand has lifted the copy clear of it
    table.still(60, extra=[red, det("green-4", 60.0, 250.0)])  # still in Bob's hand
    assert kinds(feed(table))[1:] == [
        {"type": "play", "card": "green-4", "player": "Ann"},
        {"type": "play", "card": "green-4", "player": "Bob"},
        {"type": "undo"},
    ]


def test_taking_back_a_refused_play_is_no_undo() -> None:
    table = started("blue-5")
    table.bring(["red-7"], SEAT_EDGE["Ann"])
    table.still(30)
    table.take_back(SEAT_EDGE["Ann"])
    table.still(30)
    w = Watcher(LAYOUT, PLAYERS)
    events = []
    for i, frame in enumerate(table.frames):
        for ev in w.update(Detections.from_list(frame), i / FPS):
            events.append(ev)
            if ev["type"] == "play":
                w.play_refused()  # what the composition root does when the tracker refuses
    assert [e["type"] for e in events] == ["flip", "play"]
    assert w.pile == [["blue-5"]]
    assert len(w.quiet_takebacks) == 1  # seen, noted, not sent


def test_play_after_an_undo_is_seen() -> None:
    table = started("blue-5")
    table.bring(["blue-7"], SEAT_EDGE["Dee"])
    table.still(30)
    table.take_back(SEAT_EDGE["Dee"])
    table.still(30)
    table.bring(["blue-9"], SEAT_EDGE["Dee"])
    table.still(15)
    assert kinds(feed(table))[1:] == [
        {"type": "play", "card": "blue-7", "player": "Dee"},
        {"type": "undo"},
        {"type": "play", "card": "blue-9", "player": "Dee"},
    ]


def test_detection_flickering_for_a_frame_changes_nothing() -> None:
    table = started("red-5")
    table.bring(["red-7"], SEAT_EDGE["Ann"])
    table.still(10)
    base = len(table.frames)
    table.still(40)
    table.frames[base + 5] = [d for d in table.frames[base + 5] if d[0] != "red-7"]  # missed
    table.frames[base + 15] = [
        det("red-1", *CENTER) if d[0] == "red-7" else d for d in table.frames[base + 15]
    ]  # misread for one frame
    table.frames[base + 25] = []  # nothing at all for a frame
    assert [e["type"] for e in kinds(feed(table))] == ["flip", "play"]


def test_misread_during_flight_does_not_split_the_card() -> None:
    table = started("red-5")
    table.bring(["red-7"], SEAT_EDGE["Bob"])
    table.still(10)
    i = 10 + 15 + 3  # a frame early in the flight
    table.frames[i] = [det("red-1", *d[2][:2]) if d[0] == "red-7" else d for d in table.frames[i]]
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "red-7", "player": "Bob"}]


def test_buried_cards_showing_a_corner_make_no_events() -> None:
    # A recogniser may box the visible corner of a card under the top one: its box
    # centre lies well off the card's own.
    table = started("red-5")
    table.bring(["red-7"], SEAT_EDGE["Ann"])
    table.still(10)
    table.bring(["blue-7"], SEAT_EDGE["Bob"])
    corners = [det("red-5", 350.0, 262.0, 0.6), det("red-7", 290.0, 215.0, 0.5)]
    table.still(60, extra=corners)
    assert [e.get("card") for e in kinds(feed(table))] == ["red-5", "red-7", "blue-7"]


def test_weak_detections_are_ignored() -> None:
    table = started("red-5")
    weak = [("blue-2", 0.1, (300.0, 200.0, 350.0, 276.0))]
    table.still(40, extra=weak)
    assert [e["type"] for e in kinds(feed(table))] == ["flip"]


@pytest.mark.parametrize("player", ["Ann", "Bob", "Cy", "Dee"])
def test_a_back_carried_from_the_draw_pile_to_a_seat_is_a_draw(player: str) -> None:
    table = started()
    table.draw_card(SEAT_EDGE[player])
    table.still(20)
    assert kinds(feed(table))[1:] == [{"type": "draw", "player": player}]


def test_draws_and_plays_are_seen_at_a_low_frame_rate() -> None:
    # A slow recogniser looks at every fourth frame only (7.5 frames/s): a card
    # carried fast moves more than its length between two looks.
    table = started()
    table.draw_card(SEAT_EDGE["Bob"], n=8)
    table.still(20)
    table.bring(["red-3"], SEAT_EDGE["Dee"], n=10)
    table.still(20)
    w = Watcher(LAYOUT, PLAYERS)
    events = []
    for i, frame in enumerate(table.frames):
        if i % 4 == 0:
            events += w.update(Detections.from_list(frame), i / FPS)
    assert events[1:] == [
        {"type": "draw", "player": "Bob"},
        {"type": "play", "card": "red-3", "player": "Dee"},
    ]


def test_a_back_seen_on_the_discard_pile_while_a_card_is_drawn_takes_no_draw() -> None:
    # A dark card on the discard pile read as a back for a few frames, ahead on the
    # drawn card's way: the drawn card is still seen, so it keeps its own draw.
    table = started()
    start = len(table.frames)
    table.draw_card(SEAT_EDGE["Bob"], n=20)
    table.still(20)
    for i in range(start + 4, start + 8):
        table.frames[i].append(det("back", 300.0, 215.0, 0.6))
    assert kinds(feed(table))[1:] == [{"type": "draw", "player": "Bob"}]


def test_a_drawn_card_boxed_twice_for_a_frame_is_one_draw() -> None:
    # The card comes out of the hand a card length from the draw pile, boxed twice
    # for a frame (whole, and with the fingers over it): the second, weaker box is
    # never seen again. It lies off the draw pile, but it is no draw of its own.
    table = started()
    start = len(table.frames)
    table.draw_card(SEAT_EDGE["Bob"], n=20)
    table.still(20)
    for i in range(start, start + 3):
        table.frames[i].pop()  # hidden in the hand
    box = table.frames[start + 3][-1][2]
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    table.frames[start + 3].append(det("back", cx + 14.0, cy - 4.0, 0.43))
    assert kinds(feed(table))[1:] == [{"type": "draw", "player": "Bob"}]


def test_a_drawn_card_carried_on_by_a_second_box_is_one_draw() -> None:
    # A quick hand turns the card as it goes: for a frame it is boxed twice, where it
    # was and a third of a card farther out, and only the farther box goes on. The
    # first box, lost most of a card length off the pile, is that card, not a draw of
    # its own (low-drop seed 652, plays of three: one draw of Cy's counted twice).
    table = started()
    table.still(5)
    to = SEAT_EDGE["Cy"]

    def at(u: float) -> Det:
        return det("back", DRAW[0] + (to[0] - DRAW[0]) * u, DRAW[1] + (to[1] - DRAW[1]) * u)

    for u in (0.1, 0.2, 0.3):
        table.frames.append([*table.visible_pile(), at(u)])
    table.frames.append([*table.visible_pile(), at(0.4), at(0.55)])  # boxed twice
    for k in range(1, 6):
        table.frames.append([*table.visible_pile(), at(0.55 + 0.1 * k)])
    table.still(30)
    assert kinds(feed(table))[1:] == [{"type": "draw", "player": "Cy"}]


def test_a_back_seen_once_beside_the_draw_pile_is_no_draw() -> None:
    # A dark card or a hand read as a back for one frame, 1.3 card lengths off the pile.
    table = started()
    table.still(5)
    table.frames[-3].append(det("back", DRAW[0] + 80.0, DRAW[1] - 55.0, 0.6))
    table.still(20)
    assert kinds(feed(table))[1:] == []


def test_two_cards_drawn_one_after_the_other_are_two_draws() -> None:
    table = started()
    table.draw_card(SEAT_EDGE["Cy"])
    table.still(15)
    table.draw_card(SEAT_EDGE["Cy"])
    table.still(15)
    assert kinds(feed(table))[1:] == [{"type": "draw", "player": "Cy"}] * 2


def test_card_never_seen_arriving_still_counts_after_a_longer_rest() -> None:
    # A recogniser may miss a card while it is in a hand: it appears on the pile.
    table = started("red-5")
    table.still(5, covered=True)
    table.pile.append([("red-8", 322.0, 246.0)])
    table.still(20)
    events = kinds(feed(table))
    assert [e.get("card") for e in events] == ["red-5", "red-8"]
    assert events[1]["type"] == "play"


@pytest.mark.parametrize("conf, plays", [(0.45, 0), (0.9, 1)])
def test_a_card_never_seen_arriving_needs_one_clear_look(conf: float, plays: int) -> None:
    # A card just put down lies on top, uncovered: the recogniser sees it clearly at
    # least once. A face never seen coming, and only ever read unsurely, is a guess
    # at the heap.
    table = started("blue-5")
    table.still(20, extra=[det("red-3", CENTER[0] + 42, CENTER[1] + 6, conf)])
    assert len(kinds(feed(table))[1:]) == plays


def test_top_card_read_in_turns_as_another_face_is_no_play() -> None:
    # A card boxed with the heap under it reads as anything: here every third
    # frame names another face, at the same place, for two seconds.
    table = started("red-5")
    table.bring(["green-7"], SEAT_EDGE["Cy"])
    table.still(10)
    base = len(table.frames)
    table.still(60)
    for i in range(base, base + 60):
        if (i - base) % 3:
            table.frames[i] = [
                det("green-reverse", *CENTER, 0.7) if d[0] == "green-7" else d
                for d in table.frames[i]
            ]
    assert [e.get("card") for e in kinds(feed(table))] == ["red-5", "green-7"]


def test_a_pile_card_whose_reading_drifts_to_another_face_is_no_play() -> None:
    # Found again after a hand went over the pile, then read more and more often
    # as another face (boxed with the heap): no card was put down.
    table = started("red-5")
    table.bring(["red-7"], SEAT_EDGE["Ann"])
    table.still(10)
    table.still(20, covered=True)
    base = len(table.frames)
    table.still(60)
    for i in range(base + 8, base + 60):
        if i >= base + 20 or i % 2:
            table.frames[i] = [
                det("red-1", *CENTER, 0.8) if d[0] == "red-7" else d for d in table.frames[i]
            ]
    assert [e.get("card") for e in kinds(feed(table))] == ["red-5", "red-7"]


def test_a_card_of_another_value_in_a_group_is_left_out() -> None:
    # Cards put down together share a value; a third face beside them, read
    # less surely, is a pile card misread and no part of the play.
    table = started("blue-5")
    table.bring(["red-5", "green-5"], SEAT_EDGE["Cy"], spread=26.0)
    misread = det("green-9", 330.0, 262.0, 0.5)
    also_seen_as_they_land(table, misread)
    events = kinds(feed(table))
    assert events[1]["type"] == "play"
    assert sorted(events[1]["cards"]) == ["green-5", "red-5"]  # type: ignore[arg-type]


def test_a_card_seen_coming_outweighs_a_face_of_another_value_first_seen_on_the_heap() -> None:
    # A box of the heap beside a card just put down reads, surely, as another value.
    # The card seen coming in is the play; the heap box is no part of it.
    table = started("blue-5")
    table.bring(["wild"], SEAT_EDGE["Bob"])
    heap = det("blue-9", CENTER[0] - 10, CENTER[1] + 4, 0.95)
    also_seen_as_they_land(table, heap)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "wild", "player": "Bob"}]


def test_a_lower_card_of_a_fan_read_as_another_face_is_read_by_the_play_s_value() -> None:
    # The lower card of a fan, half covered, reads as a red 2 first; the classifier's
    # second choice, of the play's value, is the card.
    table = started("blue-5")
    table.bring(["red-5", "green-5"], SEAT_EDGE["Cy"], spread=26.0)
    table.still(20)
    misread(table, "red-5", (("red-2", 0.55), ("red-5", 0.35), ("red-7", 0.1)))
    events = kinds(feed(table))
    assert events[1]["type"] == "play" and events[1]["player"] == "Cy"
    assert sorted(events[1]["cards"]) == ["green-5", "red-5"]  # type: ignore[arg-type]


def test_a_runner_up_of_another_value_does_not_join_a_play() -> None:
    table = started("blue-5")
    table.bring(["red-5", "green-5"], SEAT_EDGE["Cy"], spread=26.0)
    table.still(20)
    misread(table, "red-5", (("red-2", 0.6), ("red-7", 0.4)))
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "green-5", "player": "Cy"}]


def test_a_weakly_seen_lower_card_of_the_play_s_value_amends_it() -> None:
    # Too weak a box to track (below min_confidence), misread first, but a face of
    # the play's value keeps coming back among its candidates where the play lies.
    table = started("blue-5")
    table.bring(["green-5"], SEAT_EDGE["Cy"])
    strip = unsure((("yellow-2", 0.5), ("yellow-5", 0.4)), CENTER[0] + 24, CENTER[1] + 10, 0.15)
    table.still(20, extra=[strip])
    assert kinds(feed(table))[1:] == [
        {"type": "play", "card": "green-5", "player": "Cy"},
        {"type": "undo"},
        {"type": "play", "cards": ["yellow-5", "green-5"], "player": "Cy"},
    ]


def test_the_last_pile_card_s_face_among_candidates_amends_nothing() -> None:
    # The starter (blue 5) pushed aside shows beside the play, read unsurely.
    table = started("blue-5")
    table.bring(["green-5"], SEAT_EDGE["Cy"])
    strip = unsure((("blue-2", 0.5), ("blue-5", 0.4)), CENTER[0] + 24, CENTER[1] + 10, 0.15)
    table.still(20, extra=[strip])
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "green-5", "player": "Cy"}]


def test_a_card_carried_past_a_play_amends_nothing() -> None:
    # The next player's card (of the same value) in flight over the pile just after.
    table = started("blue-5")
    table.bring(["green-5"], SEAT_EDGE["Cy"])
    table.still(3)
    for i in range(20):
        passing = unsure((("yellow-5", 0.6),), CENTER[0] - 60 + 6 * i, CENTER[1] + 20, 0.15)
        table.still(1, extra=[passing])
    table.still(10)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "green-5", "player": "Cy"}]


def drop_card(table: Table, name: str, frames: int) -> None:
    """``name`` is not detected in the last ``frames`` frames."""
    for frame in table.frames[-frames:]:
        frame[:] = [d for d in frame if d[0] != name]


def test_a_card_lost_from_sight_as_it_lands_is_a_play() -> None:
    # On a tight pile of its colour the detector boxes the heap, not the card that
    # just came down: seen clearly all the way in, it is lost as it stops.
    table = started("blue-5")
    table.bring(["blue-7"], SEAT_EDGE["Bob"])
    drop_card(table, "blue-7", 3)
    table.pile[-1] = []
    table.still(20)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "blue-7", "player": "Bob"}]


def test_a_card_lost_from_sight_on_its_way_is_no_play() -> None:
    table = started("blue-5")
    table.bring(["blue-7"], SEAT_EDGE["Bob"])
    drop_card(table, "blue-7", 9)  # lost halfway, under the hand
    table.pile[-1] = []
    table.still(20)
    assert kinds(feed(table))[1:] == []


@pytest.mark.parametrize(
    ("lower", "spread", "cards"),
    [
        ("yellow-2", 30.0, ["yellow-2", "green-2"]),  # a fan's lower card, hidden on the way
        ("yellow-7", 30.0, ["green-2"]),  # another value: not one play with it
        ("green-2", 4.0, ["green-2"]),  # the same card boxed twice
    ],
)
def test_a_card_carried_in_beside_a_play_and_hidden_on_the_way_is_part_of_it(
    lower: str, spread: float, cards: list[str]
) -> None:
    table = started("blue-5")
    table.bring([lower, "green-2"], SEAT_EDGE["Cy"], spread=spread)
    for frame in table.frames[-8:]:  # under the top card (and the hand) before it lands
        frame.remove(next(d for d in frame if d[0] == lower))
    table.pile[-1] = [("green-2", *CENTER)]
    table.still(20)
    play = {"type": "play", "player": "Cy"} | (
        {"card": cards[0]} if len(cards) == 1 else {"cards": cards}
    )
    assert kinds(feed(table))[1:] == [play]


def test_a_card_lost_at_the_pile_is_a_play_if_read_surely_or_steadily() -> None:
    def lost_at_pile(conf: float, frames: int = 15) -> list[dict[str, object]]:
        table = started("blue-5")
        table.bring(["blue-7"], SEAT_EDGE["Bob"], n=frames)
        drop_card(table, "blue-7", 3)
        for frame in table.frames:
            frame[:] = [
                det(n, *box_center(b), conf) if n == "blue-7" else (n, c, b) for n, c, b in frame
            ]
        table.pile[-1] = []
        table.still(20)
        return kinds(feed(table))[1:]

    play = [{"type": "play", "card": "blue-7", "player": "Bob"}]
    assert lost_at_pile(0.9) == play
    # Never read surely, but the same in all of its twelve looks.
    assert lost_at_pile(0.6) == play
    # Read unsurely only a few times, or never even middling-surely: a guess.
    assert lost_at_pile(0.6, frames=8) == []
    assert lost_at_pile(0.4) == []


def test_a_second_box_of_a_card_just_played_is_no_play_while_the_card_blinks() -> None:
    # While the card comes down a second box, born on the pile, reads it as another
    # value of its colour; once down, the detector boxes it now as one, now the other.
    table = started("blue-5")
    start = len(table.frames)
    table.bring(["blue-skip"], SEAT_EDGE["Cy"])
    for i, frame in enumerate(table.frames[-5:]):
        frame.append(det("blue-draw2", CENTER[0], CENTER[1] - 60 + 12 * (i + 1), conf=0.6))
    assert len(table.frames) > start
    table.still(10)  # the card alone: its play
    for _ in range(4):
        for _ in range(4):  # the card's own box lost for a few frames, the twin seen
            table.frames.append([det("back", *DRAW), det("blue-draw2", *CENTER, conf=0.7)])
        table.still(6)
    table.still(20)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "blue-skip", "player": "Cy"}]


def test_one_card_boxed_twice_as_it_lands_is_one_card() -> None:
    # Boxed alone and, a little off, together with the heap under it.
    table = started("blue-5")
    table.bring(["blue-7"], SEAT_EDGE["Bob"])
    twin = det("blue-7", CENTER[0] - 18, CENTER[1] + 14, 0.8)
    also_seen_as_they_land(table, twin)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "blue-7", "player": "Bob"}]


def test_a_second_box_of_another_value_on_a_card_just_played_is_no_play() -> None:
    # The card is boxed twice all the way in; the second box reads as other values,
    # unsure which, and settles on one only after the card was played. Both show at
    # once where only one card can: it is that card, not one put on it.
    table = started("green-4")
    table.bring(["green-0"], SEAT_EDGE["Bob"])
    start = len(table.frames) - 15
    for i, frame in enumerate(table.frames[start:]):
        _, _, (x0, y0, _, _) = frame[-1]
        face = ("green-skip", "green-8", "green-6")[i % 3]
        frame.append(det(face, x0 + 25 + 5, y0 + 38 - 6, 0.5))
    table.still(30, extra=[det("green-skip", CENTER[0] + 5, CENTER[1] - 6, 0.8)])
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "green-0", "player": "Bob"}]


def test_a_wild_taken_for_a_back_on_its_way_is_played_from_its_seat() -> None:
    # A wild's black face looks like a back to the detector: it comes in from Bob's
    # seat as a back, lies a moment, and is read as a wild only once down.
    table = started("blue-5")
    table.bring(["back"], SEAT_EDGE["Bob"])
    table.still(4)
    table.pile[-1] = [("wild", CENTER[0] + 3, CENTER[1] - 2)]
    table.still(30)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "wild", "player": "Bob"}]


def test_a_back_from_the_draw_pile_is_no_wild_s_way_in() -> None:
    # Only a card coming from a seat can be a wild taken for a back: this one came
    # from the draw pile, and the wild is seen only once down, from no seat.
    table = started("blue-5")
    table.bring(["back"], DRAW)
    table.still(4)
    table.pile[-1] = [("wild", CENTER[0] + 3, CENTER[1] - 2)]
    table.still(30)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "wild"}]


def test_a_second_box_that_takes_over_a_landing_card_keeps_its_seat() -> None:
    # Boxed twice as it lands, then only the second box is seen: still one play,
    # by the player it came from.
    table = started("blue-5")
    table.bring(["blue-7"], SEAT_EDGE["Bob"])
    table.pile[-1] = [("blue-7", CENTER[0] - 18, CENTER[1] + 14)]
    twin = det("blue-7", CENTER[0] - 18, CENTER[1] + 14, 0.8)
    for frame in table.frames[-3:]:
        frame.append(twin)
    table.still(40)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "blue-7", "player": "Bob"}]


def test_one_clear_look_outweighs_several_unsure_ones() -> None:
    # Read surely in flight, then unsurely once on the pile (boxed with the heap).
    table = started("red-5")
    table.bring(["red-7"], SEAT_EDGE["Dee"])
    table.still(10)
    landed = len(table.frames) - 10
    for i in range(landed - 3, len(table.frames)):
        table.frames[i] = [
            det("red-1", *CENTER, 0.35) if d[0] == "red-7" else d for d in table.frames[i]
        ]
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "red-7", "player": "Dee"}]


def test_reset_starts_a_new_round_with_a_flip() -> None:
    table = started("red-5")
    w = Watcher(LAYOUT, PLAYERS)
    first = feed(table, w)
    w.reset()
    table2 = Table()
    table2.pile = []
    table2.bring(["green-1"], DRAW)
    table2.still(10)
    later = []
    t0 = len(table.frames) / FPS
    for i, frame in enumerate(table2.frames):
        later += w.update(Detections.from_list(frame), t0 + i / FPS)
    assert kinds(first) == [{"type": "flip", "card": "red-5"}]
    assert later == [{"type": "flip", "card": "green-1"}]


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="seats"):
        Watcher(LAYOUT, ["Ann", "Bob"])
    with pytest.raises(ValueError, match="distinct"):
        Watcher(LAYOUT, ["Ann", "Ann", "Cy", "Dee"])
    w = Watcher(LAYOUT, PLAYERS)
    w.update(Detections.empty(), 2.0)
    with pytest.raises(ValueError, match="backwards"):
        w.update(Detections.empty(), 1.0)


boxes = st.tuples(
    st.sampled_from(["red-1", "red-7", "blue-7", "back", "wild"]),
    st.floats(0.0, 1.0),
    st.floats(-50, 690),
    st.floats(-50, 530),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(boxes, max_size=6), max_size=60))
def test_random_detection_streams_never_raise_and_give_wellformed_events(
    frames: list[list[tuple[str, float, float, float]]],
) -> None:
    w = Watcher(LAYOUT, PLAYERS)
    for i, frame in enumerate(frames):
        dets = Detections.from_list([(n, c, (x, y, x + 50, y + 76)) for n, c, x, y in frame])
        for ev in w.update(dets, i / FPS):
            assert ev["type"] in {"flip", "play", "draw", "undo"}
            if "player" in ev:
                assert ev["player"] in PLAYERS
            if ev["type"] in ("play", "flip"):
                cards = ev.get("cards") or [ev.get("card")]
                assert all(isinstance(c, str) and c != "back" for c in cards)
    assert not math.isnan(len(w.pile))


def test_reseating_checks_the_seats_against_the_players() -> None:
    w = Watcher(LAYOUT, ["Ann", "Bob", "Cy", "Dee"])
    with pytest.raises(ValueError, match="3 players"):
        w.seat_players(["Eve", "Fay", "Gus"])  # the layout still has 4 seats
    with pytest.raises(ValueError, match="distinct"):
        w.seat_players(["Eve", "Eve", "Gus"], LAYOUT.for_players(["a", "b", "c"]))
    w.seat_players(["Eve", "Fay", "Gus"], LAYOUT.for_players(["Eve", "Fay", "Gus"]))
    assert w.players == ["Eve", "Fay", "Gus"] and len(w.layout.seats) == 3


class PictureSays:
    """A stand-in for :class:`vision.pile_colors.PileColors`: the new ink a test says
    the picture shows, in the middle of a card (``middle``) and around it (``around``).
    ``None`` is a pile that never lay still."""

    def __init__(
        self,
        middle: list[ColorPatch] | None,
        around: list[ColorPatch] | None = None,
        changed: float | None = 0.0,
    ) -> None:
        self.middle = middle
        self.around = around
        self.changed = changed  # how much of a card's middle changed, in any colour
        self.befores: list[float] = []  # the ``before`` of each question
        self.middle_befores: list[float] = []  # ... of each about a card's middle (its ink)

    def new_colors(
        self,
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        else_at_since: bool = False,
        hands: bool = True,
        table_slivers: bool = True,
    ) -> list[ColorPatch] | None:
        # The watcher asks about a card's middle with hands left in, and about a fan's
        # strips with hands taken out.
        self.befores.append(before)
        if not hands:
            self.middle_befores.append(before)
        return self.middle if not hands else self.around

    def changed_area(
        self,
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        else_at_since: bool = False,
        hands: bool = True,
    ) -> float | None:
        return self.changed

    def new_ink_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        table_slivers: bool = True,
    ) -> ColorPatch | None:
        # These pictures show no card's ink outside its own box.
        return None if self.around is None else ColorPatch(color, 0.0, near)

    def changed_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        shown_now: bool = False,
    ) -> ColorPatch | None:
        # Nor any change there.
        return None if self.around is None else ColorPatch(color, 0.0, near)


def ink(color: str, area: float, dx: float = 0.0) -> ColorPatch:
    return ColorPatch(color, area, (CENTER[0] + dx, CENTER[1]))


def fan_play(picture: PictureSays) -> list[dict[str, object]]:
    """Ann puts a yellow 4 on the yellow 9; the recogniser sees only the yellow 4."""
    table = started("yellow-9")
    table.bring(["yellow-4"], SEAT_EDGE["Ann"])
    table.still(20)
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]


def test_a_fan_s_lower_card_is_read_by_the_colour_beside_the_top_card() -> None:
    yellow = [ink("yellow", 0.4)]
    red_strip = ink("red", 0.2, dx=-35)
    assert fan_play(PictureSays(yellow, [*yellow, red_strip])) == [
        {"type": "play", "cards": ["red-4", "yellow-4"], "player": "Ann"}
    ]
    # Two strips: the one farther from the top card lies lower.
    green_strip = ink("green", 0.15, dx=-60)
    assert fan_play(PictureSays(yellow, [*yellow, red_strip, green_strip])) == [
        {"type": "play", "cards": ["green-4", "red-4", "yellow-4"], "player": "Ann"}
    ]
    single = [{"type": "play", "card": "yellow-4", "player": "Ann"}]
    # A speck of colour, or colour over the top card itself (it was misread), is no card.
    assert fan_play(PictureSays(yellow, [*yellow, ink("red", 0.03, dx=-35)])) == single
    assert fan_play(PictureSays(yellow, [*yellow, ink("red", 0.3, dx=5)])) == single
    # A pile that never lay still tells nothing.
    assert fan_play(PictureSays(None, None)) == single


def test_the_picture_asked_about_is_from_before_the_cards_came() -> None:
    # A still picture taken once the cards lay there would show no new colour.
    table = started("yellow-9")
    table.bring(["yellow-4"], SEAT_EDGE["Ann"])
    landed = (len(table.frames) - 1) / FPS
    table.still(20)
    picture = PictureSays([ink("yellow", 0.4)], [ink("yellow", 0.4)])
    events = feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture))
    assert [e["type"] for _, e in events] == ["flip", "play"]
    asked_for_play = picture.befores[1:]
    assert asked_for_play and all(b < landed for b in asked_for_play)


def test_a_card_seen_where_no_ink_of_its_colour_came_is_no_play() -> None:
    # The recogniser sees a yellow 4 come to rest, but the picture shows no new
    # yellow there: it misread the heap.
    assert fan_play(PictureSays([])) == []
    assert fan_play(PictureSays([ink("red", 0.3)])) == []
    # New ink of its colour, or no still picture to compare with: a play.
    single = [{"type": "play", "card": "yellow-4", "player": "Ann"}]
    assert fan_play(PictureSays([ink("yellow", 0.02)])) == single
    assert fan_play(PictureSays(None)) == single


def test_a_card_put_on_its_own_colour_needs_a_changed_middle_not_new_ink() -> None:
    # A yellow 4 put squarely on the yellow 9: its oval and figure fall where the 9's
    # did, so little new yellow shows in its middle. The picture changed there, though.

    class NineInked(PictureSays):
        """The yellow 9 (the flip, asked about first) brought its ink; the card on
        it brings only a speck of yellow to its middle."""

        def new_colors(
            self, near: tuple[float, float], radius: float, **kw: Any
        ) -> list[ColorPatch] | None:
            first = not self.befores
            patches = super().new_colors(near, radius, **kw)
            return [ink("yellow", 0.4)] if first else patches

    single = [{"type": "play", "card": "yellow-4", "player": "Ann"}]
    assert fan_play(NineInked([ink("yellow", 0.003)], changed=0.4)) == single
    # Nothing changed there: the recogniser misread the heap.
    assert fan_play(NineInked([ink("yellow", 0.003)], changed=0.02)) == []
    # A card of another colour brings its own ink: a change alone is not enough.
    table = started("yellow-9")
    table.bring(["red-9"], SEAT_EDGE["Ann"])
    table.still(20)
    picture = NineInked([ink("yellow", 0.003)], changed=0.4)
    assert kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:] == []


def lost_short_of_the_pile(card: str) -> tuple[Table, tuple[float, float]]:
    """Bob brings ``card`` to the blue 5, where a box of the heap reads a blue 3; the
    card is lost most of a card's length short of the pile. Gives the heap box's place."""
    table = started("blue-5")
    heap = (CENTER[0] + 8, CENTER[1] + 6)
    start = len(table.frames)
    table.bring([card], SEAT_EDGE["Bob"])
    for frame in table.frames[start:]:
        frame.append(det("blue-3", *heap, conf=0.5))
    drop_card(table, card, 7)
    return table, heap


def test_a_heap_box_that_takes_up_a_card_lost_just_short_of_the_pile_plays_it() -> None:
    # The card is lost in its last moments of flight; once down, the recogniser boxes
    # it together with the heap, whose box (born on the pile, misread) then reads it.
    table, heap = lost_short_of_the_pile("blue-7")
    table.pile[-1] = [("blue-7", *heap)]
    table.still(20)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "blue-7", "player": "Bob"}]


def test_a_heap_box_long_read_as_the_heap_that_takes_up_a_lost_wild_plays_it() -> None:
    # A wild's black face is lost short of the pile and dropped; the heap box has read
    # the heap for a long while and takes up the wild's face only after the wild is
    # gone from the watcher's tracks. Its recent readings, not its long vote, count.
    table, heap = lost_short_of_the_pile("wild")
    table.pile[-1] = [("blue-3", *heap)]
    table.still(12)  # lost longer than a track is kept
    table.pile[-1] = [("wild", *heap)]
    table.still(20)
    assert kinds(feed(table))[1:] == [{"type": "play", "card": "wild", "player": "Bob"}]


def test_a_fan_whose_top_card_is_lost_as_it_lands_reads_its_lower_card_by_colour() -> None:
    # Bob puts a blue 7 and a yellow 7 down together; the recogniser never boxes the
    # blue one and loses the yellow one just before it lands. The yellow ink lies
    # where the yellow card came down; the blue ink where the yellow card was last
    # seen (over it, were that its place, it would be the yellow card misread).
    def fan(last_seen_blue: bool) -> list[dict[str, object]]:
        table = started("blue-5")
        table.bring(["yellow-7"], SEAT_EDGE["Bob"])
        drop_card(table, "yellow-7", 3)
        table.pile[-1] = []
        table.still(20)
        seen_at = (308.0, 240.0)  # where the yellow 7 was last boxed
        yellow = ColorPatch("yellow", 0.46, (315.0, 272.0))
        blue = ColorPatch("blue", 0.24, seen_at if last_seen_blue else (318.0, 305.0))
        flip = ColorPatch("blue", 0.5, CENTER)  # the blue 5's ink, for its flip
        picture = PictureSays([flip, yellow], [yellow, blue])
        return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]

    both = [{"type": "play", "cards": ["blue-7", "yellow-7"], "player": "Bob"}]
    assert fan(last_seen_blue=True) == both
    assert fan(last_seen_blue=False) == both


def test_a_lower_card_found_after_the_play_needs_its_colour_beside_the_top_card() -> None:
    # As in the weakly-seen strip above; the picture has its say on the amendment.
    def amended(around: list[ColorPatch]) -> list[dict[str, object]]:
        table = started("blue-5")
        table.bring(["green-5"], SEAT_EDGE["Cy"])
        strip = unsure((("yellow-2", 0.5), ("yellow-5", 0.4)), CENTER[0] + 24, CENTER[1] + 10, 0.15)
        table.still(20, extra=[strip])
        picture = PictureSays([ink("blue", 0.5), ink("green", 0.4)], around)
        return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]

    single = {"type": "play", "card": "green-5", "player": "Cy"}
    # Yellow came beside the green 5 (too little to read a card by colour alone).
    assert amended([ink("green", 0.4), ink("yellow", 0.04, dx=24)]) == [
        single,
        {"type": "undo"},
        {"type": "play", "cards": ["yellow-5", "green-5"], "player": "Cy"},
    ]
    # No yellow came: the strip was the heap, misread.
    assert amended([ink("green", 0.4)]) == [single]


def test_a_card_lost_in_flight_is_not_found_again_in_another_colour() -> None:
    # Cy's yellow 0 is lost from sight in flight, beside the green 0 it comes with;
    # then a second box of the green 0, read as a green skip, shows near where the
    # yellow card was heading. That box is no yellow card landing: no second play.
    # (The yellow 0 is read as the lower card it is: carried in beside the green.)
    table = started("green-5")
    table.bring(["yellow-0", "green-0"], SEAT_EDGE["Cy"], spread=26.0)
    drop_card(table, "yellow-0", 8)
    table.pile[-1] = [("green-0", CENTER[0] + 13, CENTER[1])]
    table.still(2)
    table.still(20, extra=[det("green-skip", CENTER[0] + 13, CENTER[1] + 2, conf=0.6)])
    assert kinds(feed(table))[1:] == [
        {"type": "play", "cards": ["yellow-0", "green-0"], "player": "Cy"}
    ]


def green_on_blue_5(card: str, around: list[ColorPatch]) -> list[dict[str, object]]:
    """Dee puts the green ``card`` on the blue 5 (the only card the recogniser boxes);
    beside it the picture shows the new ink ``around``."""
    table = started("blue-5")
    table.bring([card], SEAT_EDGE["Dee"])
    table.still(20)
    picture = PictureSays([ink("blue", 0.5), ink("green", 0.5)], around)
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]


def test_a_sliver_of_colour_beyond_a_fan_s_lowest_card_in_line_is_one_more_card() -> None:
    def fan(around: list[ColorPatch]) -> list[dict[str, object]]:
        return green_on_blue_5("green-1", around)

    top, yellow = ink("green", 0.6), ink("yellow", 0.25, dx=-30)
    # The third card of a fan shows a sliver, beyond the second and in line with it.
    assert fan([top, yellow, ink("red", 0.035, dx=-50)]) == [
        {"type": "play", "cards": ["red-1", "yellow-1", "green-1"], "player": "Dee"}
    ]
    two = [{"type": "play", "cards": ["yellow-1", "green-1"], "player": "Dee"}]
    # On the other side of the top card: not the fan's.
    assert fan([top, yellow, ink("red", 0.035, dx=50)]) == two
    # Too little, or no fan for it to go on: nothing.
    assert fan([top, yellow, ink("red", 0.02, dx=-50)]) == two
    assert fan([top, ink("red", 0.035, dx=-50)]) == [
        {"type": "play", "card": "green-1", "player": "Dee"}
    ]


def test_a_lower_card_of_the_pile_top_s_colour_needs_less_new_ink() -> None:
    # Dee puts a blue 7 and a green 7 on the blue 5; the recogniser boxes only the
    # green one. Blue put on blue changes the picture only where its oval falls.
    def fan(around: list[ColorPatch]) -> list[dict[str, object]]:
        return green_on_blue_5("green-7", around)

    top = ink("green", 0.5)
    assert fan([top, ink("blue", 0.06, dx=-30)]) == [
        {"type": "play", "cards": ["blue-7", "green-7"], "player": "Dee"}
    ]
    # As little of another colour is no card.
    assert fan([top, ink("red", 0.06, dx=-30)]) == [
        {"type": "play", "card": "green-7", "player": "Dee"}
    ]


def test_a_lower_card_read_from_boxes_needs_its_colour_beside_the_top_card() -> None:
    def two_cards(picture: PictureSays) -> list[dict[str, object]]:
        table = started("blue-5")
        start = len(table.frames)
        table.bring(["red-5", "green-5"], SEAT_EDGE["Cy"], spread=26.0)
        table.still(20)
        for frame in table.frames[start:]:  # the red 5, half under the green, is seen worse
            frame[:] = [
                det(n, *box_center(b), 0.6) if n == "red-5" else (n, c, b) for n, c, b in frame
            ]
        return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]

    middle = [ink("green", 0.4), ink("red", 0.1), ink("blue", 0.3)]  # blue: the flip
    green = [ink("green", 0.4)]
    # Red came beside the green 5: both cards.
    both = two_cards(PictureSays(middle, [*green, ink("red", 0.2, dx=-26)]))
    assert both == [{"type": "play", "cards": ["red-5", "green-5"], "player": "Cy"}]
    # No red came anywhere: the red 5 the boxes showed was the heap, misread.
    assert two_cards(PictureSays(middle, green)) == [
        {"type": "play", "card": "green-5", "player": "Cy"}
    ]


def box_center(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _green_5_on_a_blue_9_on_a_blue_5(
    *, blue_5_seen: bool, blue_dx: float = -10.0
) -> list[dict[str, object]]:
    """Ann puts a blue 9 half on the blue 5, then Dee a green 5 on them, a little to
    the right; new blue shows beside the green 5 ``blue_dx`` from the middle of the
    blue 5 (by default within its box, off the blue 9). The recogniser sees the blue 5
    beside the blue 9 until the green 5 comes, or (not ``blue_5_seen``) never once the
    blue 9 lies on it. The plays after the flip."""
    table = started("blue-5")
    table.bring(["blue-9"], SEAT_EDGE["Ann"], (CENTER[0] + 30, CENTER[1]))
    if blue_5_seen:
        table.pile[-1].insert(0, ("blue-5", *CENTER))
    table.still(20)
    table.bring(["green-5"], SEAT_EDGE["Dee"], (CENTER[0] + 20, CENTER[1]))
    table.still(20)
    first = PictureSays([ink("blue", 0.5)], [ink("blue", 0.5)], changed=0.5)
    around = [ink("green", 0.5, dx=20), ink("blue", 0.3, dx=blue_dx)]
    picture = SecondPlaySays(first, PictureSays([ink("green", 0.5)], around))
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]


def test_colour_beside_a_card_where_the_pile_holds_that_face_already_is_no_lower_card() -> None:
    # Blue shows again beside the green 5 where the blue 5, in view before, lies (a
    # covering hand hid it): that is the blue 5, not a blue 5 put down with the green
    # one (covering-untidy-25fps seeds 601-603, true boxes: a green 7 two plays down).
    # The card a play goes onto is another matter: its face beside the new card is the
    # fan's (test_watcher_fan_on_its_face).
    assert _green_5_on_a_blue_9_on_a_blue_5(blue_5_seen=True) == [
        {"type": "play", "card": "blue-9", "player": "Ann"},
        {"type": "play", "card": "green-5", "player": "Dee"},
    ]


def test_colour_off_the_box_of_a_card_of_that_face_in_view_is_a_lower_card() -> None:
    # The blue 5 in view, but the new blue lies off the box it lay in, beyond its left
    # edge: no part of it (``messy-pile`` held-out 718: the strip under Bob's green 5,
    # left of Cy's blue 5 lying in view).
    assert _green_5_on_a_blue_9_on_a_blue_5(blue_5_seen=True, blue_dx=-40.0) == [
        {"type": "play", "card": "blue-9", "player": "Ann"},
        {"type": "play", "cards": ["blue-5", "green-5"], "player": "Dee"},
    ]


def test_colour_beside_a_card_where_an_unseen_card_of_that_face_lies_is_a_lower_card() -> None:
    # The blue 5, mostly under the blue 9, was not seen since: no hand uncovers it, the
    # new blue is a blue 5 Dee put down under her green 5 (``drop`` and every other
    # style, held-out 718: Bob's blue and green 5 on Ann's blue 3 over Cy's blue 5).
    assert _green_5_on_a_blue_9_on_a_blue_5(blue_5_seen=False) == [
        {"type": "play", "card": "blue-9", "player": "Ann"},
        {"type": "play", "cards": ["blue-5", "green-5"], "player": "Dee"},
    ]


class SecondPlaySays:
    """A stand-in that shows the ``first`` picture's new ink for the first play, the
    ``second``'s after it (asked about the pile since it lay still after a play)."""

    def __init__(self, first: PictureSays, second: PictureSays) -> None:
        self.first, self.second = first, second
        self.since: list[float] = []

    def _now(self, since: float) -> PictureSays:
        if since not in self.since:
            self.since.append(since)
        return self.second if len([s for s in self.since if s != -math.inf]) > 1 else self.first

    def new_colors(
        self, near: tuple[float, float], radius: float, *, since: float, **kw: Any
    ) -> list[ColorPatch] | None:
        return self._now(since).new_colors(near, radius, since=since, **kw)

    def changed_area(
        self, near: tuple[float, float], radius: float, *, since: float, **kw: Any
    ) -> float | None:
        return self._now(since).changed_area(near, radius, since=since, **kw)

    def new_ink_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        **kw: Any,
    ) -> ColorPatch | None:
        return self._now(since).new_ink_outside(color, box, near, radius, since=since, **kw)

    def changed_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        **kw: Any,
    ) -> ColorPatch | None:
        return self._now(since).changed_outside(color, box, near, radius, since=since, **kw)


def _back_carried(frm: tuple[float, float], to: tuple[float, float]) -> list[str]:
    """The events when a back is seen in three looks carried from ``frm`` to ``to``,
    then lost (a covering hand), on a table whose starter is turned up."""
    table = started()
    table.still(30)
    for k in range(3):
        u = k / 2
        x, y = frm[0] + (to[0] - frm[0]) * u, frm[1] + (to[1] - frm[1]) * u
        table.frames.append([*table.visible_pile(), det("back", x, y)])
    table.still(30)
    return [e["type"] for e in kinds(feed(table))]


def test_a_back_coming_in_past_the_draw_pile_is_no_draw() -> None:
    # webcam-15fps held-out 706 (opened): Cy's pair under his covering hand, read as a
    # back first 1.6 card lengths off the draw pile's centre (within its margin), then
    # 1.3, nearer: taken for a card drawn from it. Carried the other way, it is one.
    card = LAYOUT.card_px
    outer = (DRAW[0] - 0.95 * card, DRAW[1] - 1.25 * card)  # 1.57 card lengths off
    inner = (DRAW[0] - 1.1 * card, DRAW[1] - 0.68 * card)  # 1.29 card lengths off
    assert _back_carried(outer, inner) == ["flip"]
    assert _back_carried(inner, outer) == ["flip", "draw"]
