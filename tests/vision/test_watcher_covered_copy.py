"""The same face twice under a covering hand (a jump-in): the copy is first seen lying
on the pile, where the first one lay; only where it lies tells it from the first card
uncovered (found on the ``covering-hand`` tuning style, docs/watcher.md). Same
made-up table as ``test_watcher.py``; the arms are scripted."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    Det,
    Table,
    det,
    frame_detections,
    started,
)
from tests.vision.test_watcher_lifted import ArmsSeen
from vision.arm_probe import ArmSighting
from vision.card_tracker import CardTracker
from vision.tracks import Detection
from vision.watch.state import PileEntry
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig


class ArmsAtPile:
    """An arm probe: each ``(seat, t0, t1)``, that seat's arm seen at the discard pile
    from ``t0`` to ``t1``; a card first seen at ``first_t`` is the last such arm's
    when it was there up to 2 s before or 0.3 s after."""

    def __init__(self, spells: list[tuple[int, float, float]]) -> None:
        self.spells = spells

    def seat_for(self, first_t: float) -> int | None:
        seen = [s for s, t0, t1 in self.spells if first_t - 2.0 <= t1 and t0 <= first_t + 0.3]
        return seen[-1] if seen else None

    def sightings_since(self, t: float) -> Sequence[ArmSighting]:
        return []


def ArmAtPile(seat: int | None, t0: float, t1: float) -> ArmsAtPile:
    """An arm probe that saw ``seat``'s arm (if any) at the discard pile from ``t0``
    to ``t1``."""
    return ArmsAtPile([] if seat is None else [(seat, t0, t1)])


def lying(name: str, x: float, y: float, *, across: bool = False) -> Det:
    """A card lying at ``(x, y)``, upright (50 x 76 px) or across (76 x 50 px)."""
    w, h = (38, 25) if across else (25, 38)
    return (name, 0.9, (x - w, y - h, x + w, y + h))


def watch_covered(
    table: Table,
    first_covered: int,
    arm: int | None,
    covered: int = 15,
    *,
    as_hand_comes: Callable[[Watcher], None] | None = None,
) -> list[dict[str, object]]:
    """The watcher's events over ``table``'s frames, the arm of seat ``arm`` (if any)
    seen at the pile for the ``covered`` frames (half a second) the hand covers it from
    ``first_covered``; ``as_hand_comes`` is done to the watcher then (to forget boxes it
    kept, as it does not keep every card's)."""
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmAtPile(arm, first_covered / FPS, (first_covered + covered) / FPS)
    out: list[dict[str, object]] = []
    for i, frame in enumerate(table.frames):
        if i == first_covered and as_hand_comes is not None:
            as_hand_comes(w)
        out += w.update(frame_detections(frame), i / FPS)
    return out


#: Ann's green 4 on the pile, then Bob's green 7 on it.
ANN_THEN_BOB = (("green-4", "Ann", CENTER), ("green-7", "Bob", (CENTER[0] + 10, CENTER[1] + 6)))


def covered_after(
    starter: str,
    plays: Sequence[tuple[str | list[str], str, tuple[float, float]]],
    showing: list[Det],
) -> tuple[Table, int]:
    """The starter, then each ``(card, player, spot)`` brought from its player's edge
    and left still (``card`` a list: those cards fanned, centred on ``spot``); then a
    hand covers the pile for half a second and leaves ``showing``. The table, and the
    first frame the hand covers."""
    table = started(starter)
    for card, player, spot in plays:
        table.bring([card] if isinstance(card, str) else card, SEAT_EDGE[player], spot)
        table.still(20)
    first_covered = len(table.frames)
    table.still(15, covered=True)
    for _ in range(40):
        table.frames.append(list(showing))
    return table, first_covered


def jump_in(again: Det, arm: int | None) -> list[dict[str, object]]:
    """Ann plays a green 4; a hand covers the pile for half a second (the arm of seat
    ``arm`` there, if any) and leaves ``again`` showing."""
    table, first_covered = covered_after("green-5", [("green-4", "Ann", CENTER)], [again])
    return watch_covered(table, first_covered, arm)


def test_a_copy_put_down_by_a_covering_hand_lying_otherwise_is_a_play() -> None:
    copy = lying("green-4", CENTER[0] + 8, CENTER[1] + 5, across=True)
    events = jump_in(copy, arm=PLAYERS.index("Bob"))
    assert events[-1] == {"type": "play", "card": "green-4", "player": "Bob"}
    assert [e["type"] for e in events] == ["flip", "play", "play"]


def test_the_same_card_uncovered_or_no_arm_there_is_no_play() -> None:
    # Where it lay, a hand having passed over; this probe tells whose arm but not
    # where it reached (no sightings): with the arm seen going to the discard pile
    # alone, the same frames are a jump-in (test_watcher_square_copy.py).
    same = lying("green-4", CENTER[0] + 1, CENTER[1])
    assert [e["type"] for e in jump_in(same, arm=PLAYERS.index("Bob"))] == ["flip", "play"]
    copy = lying("green-4", CENTER[0] + 8, CENTER[1] + 5, across=True)
    assert [e["type"] for e in jump_in(copy, arm=None)] == ["flip", "play"]


def test_a_card_of_that_face_uncovered_where_it_lay_deeper_is_no_copy() -> None:
    # The starter green 9, a green 5 on it, and Cy's green 9 on that; Cy's hand takes
    # his green 9 back: the starter shows again where it lay (not a copy put down).
    table, first_covered = covered_after(
        "green-9",
        [
            ("green-5", "Bob", (CENTER[0] + 12, CENTER[1] + 4)),
            ("green-9", "Cy", (CENTER[0] - 14, CENTER[1] - 10)),
        ],
        [lying("green-5", CENTER[0] + 12, CENTER[1] + 4), lying("green-9", *CENTER)],
    )
    out = watch_covered(table, first_covered, PLAYERS.index("Cy"))
    assert [e["type"] for e in out if e["type"] != "undo"] == ["flip", "play", "play"]


def test_a_copy_of_the_card_under_the_top_put_down_by_another_hand_is_a_play() -> None:
    # Ann's green 4, then Bob's green 7; Cy's hand (not Bob's, who would be taking his
    # green 7 back) puts a second green 4 on them (covering-hand seed 604).
    table, first_covered = covered_after(
        "green-5", ANN_THEN_BOB, [lying("green-4", CENTER[0] - 9, CENTER[1] - 6, across=True)]
    )
    out = watch_covered(table, first_covered, PLAYERS.index("Cy"))
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Cy"}
    assert [e["type"] for e in out] == ["flip", "play", "play", "play"]


def test_the_card_under_the_top_uncovered_by_a_take_back_is_no_copy() -> None:
    # Ann's green 4, then Bob's green 7; Bob's hand takes the green 7 back and the
    # green 4 shows again, boxed otherwise than it lay (a recogniser may box it so):
    # the card under the top, uncovered, not a copy put down (the face of the card
    # just under the top is never taken for a copy).
    table, first_covered = covered_after(
        "green-5", ANN_THEN_BOB, [lying("green-4", CENTER[0] + 8, CENTER[1] + 5, across=True)]
    )
    out = watch_covered(table, first_covered, PLAYERS.index("Bob"))
    assert [e["type"] for e in out if e["type"] != "undo"] == ["flip", "play", "play"]


def test_a_copy_of_a_card_lying_deeper_put_down_by_a_covering_hand_is_a_play() -> None:
    # Ann's green 4, Bob's green 7, Cy's green 2 on it; Dee's hand puts a second green
    # 4 on the pile and leaves it lying otherwise than the first: no take-back uncovers
    # a card three deep while the two on it stay (covering-hand seed 601 at 11.1 s).
    table, first_covered = covered_after(
        "green-5",
        [*ANN_THEN_BOB, ("green-2", "Cy", (CENTER[0] - 6, CENTER[1] + 3))],
        [lying("green-4", CENTER[0] - 9, CENTER[1] - 6, across=True)],
    )
    out = watch_covered(table, first_covered, PLAYERS.index("Dee"))
    assert [e["type"] for e in out] == ["flip", "play", "play", "play", "play"]
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Dee"}
    # No arm there: the first green 4 seen again (the cards on it pushed aside).
    assert [e["type"] for e in watch_covered(table, first_covered, None)] == ["flip"] + ["play"] * 3


def test_a_copy_of_a_deeper_card_put_square_on_a_neat_pile_hiding_the_top_is_a_play() -> None:
    # As above, but Dee's green 4 lies square where the first green 4 lay, over the
    # top (a neat pile), and the top is not seen again: no one take-back uncovers a
    # card three deep, and only another seat's hand than the top's player's put it
    # down (covering-hand seed 647: a red 3 put square on a red reverse over a red 5
    # and the red 3 before).
    table, first_covered = covered_after(
        "green-5",
        [*ANN_THEN_BOB, ("green-2", "Cy", (CENTER[0] - 6, CENTER[1] + 3))],
        [lying("green-4", *CENTER)],
    )
    out = watch_covered(table, first_covered, PLAYERS.index("Dee"))
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Dee"}
    assert [e["type"] for e in out] == ["flip", "play", "play", "play", "play"]
    # The top's own player's hand there: not a copy by that rule (its hand may be
    # straightening the pile); where the first green 4 lay, it is that card.
    out = watch_covered(table, first_covered, PLAYERS.index("Cy"))
    assert [e["type"] for e in out if e["type"] != "undo"] == ["flip", "play", "play", "play"]


def test_a_deeper_card_seen_again_beside_the_top_as_a_hand_passes_is_no_copy() -> None:
    # Ann's green 4 lies apart from the cards put on the pile after it; a hand of
    # another seat covers the pile and the green 4 shows where it lay, the top unseen:
    # a pile card seen again, not a copy (covering-untidy-25fps seed 713, trained
    # recogniser: a yellow 4 seven deep seen again as Ann's fan of sixes came).
    apart = (CENTER[0] + 40, CENTER[1] + 30)
    table, first_covered = covered_after(
        "green-5",
        [
            ("green-4", "Ann", apart),
            ("green-7", "Bob", (CENTER[0] - 10, CENTER[1] - 6)),
            ("green-2", "Cy", (CENTER[0] - 16, CENTER[1] - 3)),
        ],
        [lying("green-4", *apart)],
    )
    out = watch_covered(table, first_covered, PLAYERS.index("Dee"))
    assert [e["type"] for e in out] == ["flip", "play", "play", "play"]


def test_an_arm_seen_at_the_pile_does_not_make_a_copy_under_the_top_a_take_back() -> None:
    # The starter green 9, Bob's green 5 on it; Cy's covering hand, seen at the pile,
    # puts a second green 9 on them (covering-dim-webcam seed 604 at 6.9 s). The green 5
    # gone, a green 9 showing, an arm at the pile: a take-back's signs too, but the
    # take-back waits as long as a card first seen lying there waits to be played.
    table, first_covered = covered_after(
        "green-9",
        [("green-5", "Bob", (CENTER[0] + 10, CENTER[1] + 6))],
        [lying("green-9", CENTER[0] - 9, CENTER[1] - 6, across=True)],
    )
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsSeen(PLAYERS.index("Cy"), range(first_covered, first_covered + 15))
    out: list[dict[str, object]] = []
    for i, frame in enumerate(table.frames):
        out += w.update(frame_detections(frame), i / FPS)
    assert [e["type"] for e in out] == ["flip", "play", "play"]
    assert out[-1] == {"type": "play", "card": "green-9", "player": "Cy"}


def test_a_card_uncovered_by_the_hand_that_put_it_down_is_that_arm_s_play() -> None:
    # Cy's hand (from the top) covers the pile and lets go of a green 7: the card's
    # lower part shows first, its box drifting up as the hand withdraws. That drift
    # is the card uncovered, not its way in from Ann's side (covering-hand seed 602).
    table = started("green-5")
    first_covered = len(table.frames)
    table.still(15, covered=True)
    for i in range(10):  # the box grows upwards, its middle from 30 px below to the card's
        y = CENTER[1] + 30 * (1 - i / 9)
        table.frames.append([*table.visible_pile(), lying("green-7", CENTER[0], y)])
    table.frames += [[*table.visible_pile(), lying("green-7", *CENTER)] for _ in range(40)]
    out = watch_covered(table, first_covered, PLAYERS.index("Cy"))
    assert out[-1] == {"type": "play", "card": "green-7", "player": "Cy"}


def test_a_copy_of_the_card_under_the_top_put_where_it_lay_by_another_hand_is_a_play() -> None:
    # Ann's green 4, then Bob's green 7; Cy's hand puts a second green 4 square where
    # Ann's lies (covering-half-light seed 604): only the hand tells it from Bob taking
    # his green 7 back, which uncovers Ann's green 4 as it lay.
    showing = [lying("green-4", *CENTER)]
    table, first_covered = covered_after("green-5", ANN_THEN_BOB, showing)
    out = watch_covered(table, first_covered, PLAYERS.index("Cy"))
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Cy"}
    assert [e["type"] for e in out] == ["flip", "play", "play", "play"]
    taken_back = watch_covered(table, first_covered, PLAYERS.index("Bob"))
    assert [e["type"] for e in taken_back] == ["flip", "play", "play", "undo"]


def test_a_card_put_over_the_top_beside_a_pile_card_uncovered_is_no_take_back() -> None:
    # Ann's green 4, Bob's green 7 on it (the green 4 still showing beside it); Cy's
    # covering hand puts a green 9 over the green 7, and as it goes the green 4 shows
    # again where it lay, the green 7 hidden: the green 9 lies on the top card, which
    # was not lifted (covering-untidy-25fps seed 720, plays of three, trained
    # recogniser: Bob's red 2 taken back as Ann's red skip hid it).
    table = started("green-5")
    beside = (CENTER[0] - 30, CENTER[1] - 4)
    table.bring(["green-4"], SEAT_EDGE["Ann"], beside)
    table.still(20)
    table.bring(
        ["green-7"],
        SEAT_EDGE["Bob"],
        (CENTER[0] + 10, CENTER[1] + 6),
        extra=[lying("green-4", *beside)],
    )
    table.still(20, extra=[lying("green-4", *beside)])
    arm_from = len(table.frames)
    table.still(10, covered=True)
    draw_pile = table.visible_pile()[0]
    for k in range(60):
        # Read unsure at first (half under the hand still): judged a play only later.
        green_9 = (
            "green-9",
            0.45 if k < 30 else 0.9,
            lying("green-9", CENTER[0] + 12, CENTER[1] + 8)[2],
        )
        table.frames.append([draw_pile, lying("green-4", *beside), green_9])
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsSeen(PLAYERS.index("Cy"), range(arm_from - 4, arm_from + 14))
    out: list[dict[str, object]] = []
    for i, frame in enumerate(table.frames):
        out += w.update(frame_detections(frame), i / FPS)
    assert out[-1] == {"type": "play", "card": "green-9", "player": "Cy"}
    assert {"type": "undo"} not in out


def test_a_copy_put_down_beside_the_pile_just_past_its_zone_is_a_play() -> None:
    # Bob's covering hand puts a second green 4 beside Ann's, its middle 8 px past the
    # pile's zone (an untidy pile outgrows it) and a card length from Ann's: never
    # seen travelling, it was carried there by the arm at the pile (covering-untidy-25fps
    # seed 606, trained recogniser: Cy's green 4 beside Bob's).
    assert LAYOUT.discard.x2 < 401.0 < LAYOUT.discard.x2 + 0.2 * LAYOUT.card_px
    table, first_covered = covered_after(
        "green-5",
        [("green-4", "Ann", CENTER)],
        [lying("green-4", *CENTER), lying("green-4", 401.0, CENTER[1])],
    )
    out = watch_covered(table, first_covered, PLAYERS.index("Bob"))
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Bob"}
    assert [e["type"] for e in out] == ["flip", "play", "play"]
    # No arm at the pile then: a card that was not put down there.
    assert [e["type"] for e in watch_covered(table, first_covered, None)] == ["flip", "play"]


def test_a_card_put_on_a_pile_cards_track_gets_the_arm_of_when_it_showed() -> None:
    # Bob's green 9 put where the Wild Draw Four lay took over a track that had read as
    # the Wild Draw Four for five seconds, while Ann's arm was over the pile drawing
    # (random-7001 seed 801): the arm there when the track began to read as the green 9
    # is the one that put it down.
    ann, bob = PLAYERS.index("Ann"), PLAYERS.index("Bob")
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsAtPile([(ann, 0.0, 1.0), (bob, 5.0, 5.6)])
    w.state.pile.append(PileEntry(["wild-draw4"], [CENTER], 0.0))
    tracker = CardTracker(LAYOUT, WatcherConfig())
    here = (CENTER[0] - 25, CENTER[1] - 38, CENTER[0] + 25, CENTER[1] + 38)
    for i in range(int(5.6 * FPS)):
        face = "wild-draw4" if i < 5 * FPS else "green-9"
        (track,) = tracker.update([Detection(face, 0.9, here, ())], i / FPS)
    assert track.name == "green-9" and track.first_t == 0.0
    assert w.seats.seat_of([track], LAYOUT.card_px) == bob


def turned(name: str, x: float, y: float) -> Det:
    """A card lying at ``(x, y)`` turned by 45 degrees: its upright box is 89 by 89 px."""
    half = (50 + 76) * math.sqrt(0.5) / 2
    return (name, 0.9, (x - half, y - half, x + half, y + half))


def test_a_copy_of_a_deeper_card_put_across_the_top_is_a_play() -> None:
    # As above, both green 4s lying turned where the first lay (a neat pile): Dee's
    # hides the top card, Cy's green 2, upright beneath it, its upright box holding all
    # of the green 2's though overlapping it by less than half (intersection over
    # union; ``dusk-drop-cool`` and eight more styles held-out 696, opened: Bob's green
    # 3 put across Ann's yellow 3 was taken for the green 3 of his fan five plays down).
    table, first_covered = covered_after(
        "green-5",
        [*ANN_THEN_BOB, ("green-2", "Cy", (CENTER[0] - 6, CENTER[1] + 3))],
        [turned("green-4", *CENTER)],
    )
    upright = det("green-4", *CENTER)
    for frame in table.frames:
        frame[:] = [turned("green-4", *CENTER) if d == upright else d for d in frame]
    out = watch_covered(table, first_covered, PLAYERS.index("Dee"))
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Dee"}
    assert [e["type"] for e in out] == ["flip", "play", "play", "play", "play"]


def _fan_then_copy(*, lower_box_kept: bool) -> list[dict[str, object]]:
    """Ann's green 4, Bob's green 7 on it, then Cy's fan of twos (a green 2 where the
    green 4 lay, a yellow 2 beside it); a hand of Dee's covers the pile and leaves a
    green 4 lying upright where the first lay, on the green 2, half on the yellow 2,
    the fan unseen from then on. ``lower_box_kept``: whether the watcher keeps the
    green 2's box as it came to rest (not when its track was read as another face
    then; forgotten here as the hand comes)."""
    fan = (["green-2", "yellow-2"], "Cy", (CENTER[0] + 11, CENTER[1]))
    table, first_covered = covered_after(
        "green-5", [*ANN_THEN_BOB, fan], [lying("green-4", *CENTER)]
    )

    def forget_the_lower_box(w: Watcher) -> None:
        top = w.state.pile[-1]
        assert top.cards == ["green-2", "yellow-2"]
        del top.boxes["green-2"]

    return watch_covered(
        table,
        first_covered,
        PLAYERS.index("Dee"),
        as_hand_comes=None if lower_box_kept else forget_the_lower_box,
    )


def test_a_copy_of_a_deeper_card_put_on_the_lower_card_of_a_fan_is_a_play() -> None:
    # A card three deep shows again only when every card put over it has gone; the
    # top play's fan lies on it still, hidden by the card put on it: a copy, though it
    # overlaps the fan's top card by under half (``warm-drop-untidy-28fps`` and two
    # more styles, held-out 700, opened: Dee's second wild, put on the blue 3 of Cy's
    # fan of threes, where her first wild lay six plays down; the blue 3's box not
    # kept, its track read as a blue 1 half the time).
    for lower_box_kept in (True, False):
        out = _fan_then_copy(lower_box_kept=lower_box_kept)
        assert out[-1] == {"type": "play", "card": "green-4", "player": "Dee"}, out
        assert [e["type"] for e in out] == ["flip", "play", "play", "play", "play"], out


def _slid_off_the_top(arm: int | None) -> list[dict[str, object]]:
    """Ann's green 4 on the pile; a green 4 shows on it, turned, hiding it from the
    next look on, and slides 0.6 card lengths along the pile to lie 0.4 off it, the
    arm of seat ``arm`` (if any) at the pile meanwhile."""
    table = started("green-5")
    table.bring(["green-4"], SEAT_EDGE["Ann"], CENTER)
    table.still(20)
    others = [d for d in table.visible_pile() if d[0] != "green-4"]
    first = len(table.frames)
    start, end, n = (CENTER[0] + 14, CENTER[1] - 6), (CENTER[0] - 29, CENTER[1]), 6
    for i in range(n + 1):
        u = 1 - (1 - i / n) ** 2
        x, y = start[0] + (end[0] - start[0]) * u, start[1] + (end[1] - start[1]) * u
        top = [det("green-4", *CENTER)] if i == 0 else []  # hidden from the next look
        table.frames.append([*others, *top, lying("green-4", x, y, across=True)])
    for _ in range(45):
        table.frames.append([*others, lying("green-4", *end, across=True)])
    return watch_covered(table, first, arm, covered=n + 3)


def test_a_copy_of_the_top_card_put_on_it_by_another_hand_and_slid_off_is_a_play() -> None:
    # Dee's wild shows over Cy's, hides it for good and slides off it along the pile:
    # no hand straightening a card hides it, and only another seat's hand than the
    # top's player's put it down, so a copy, though it showed on the top card
    # (``rushed-dusk-25fps`` held-out 700, opened: first seen 0.2 card lengths off
    # Cy's wild, carried 0.55 to lie 0.4 off it).
    out = _slid_off_the_top(PLAYERS.index("Dee"))
    assert out[-1] == {"type": "play", "card": "green-4", "player": "Dee"}, out
    assert [e["type"] for e in out] == ["flip", "play", "play"], out
    # The top's own player's hand, or no arm seen: that card straightened.
    for arm in (PLAYERS.index("Ann"), None):
        assert [e["type"] for e in _slid_off_the_top(arm)] == ["flip", "play"]
