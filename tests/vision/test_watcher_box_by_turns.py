"""A pile card the detector boxes in two ways by turns (part of the card under it
taken in, say): a second box of it, born where the other way lies, is that card, not
a copy put down by a covering hand (``messy-pile`` seed 654, trained recogniser: the
blue 6 atop Bob's fan of sixes, docs/watcher.md). Same made-up table as
``test_watcher.py``; the arms are scripted."""

from __future__ import annotations

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    Table,
    det,
    frame_detections,
    started,
)
from tests.vision.test_watcher_covered_copy import ArmsAtPile
from vision.watcher import Watcher

#: The other way the green 4 lying at the centre is boxed: a fifth of a card higher
#: (its box overlaps the usual one by about half).
HIGHER = (CENTER[0] + 6, CENTER[1] - 16)
#: Where Bob's yellow 4 lands: over the green 4's lower part.
BOBS_SPOT = (CENTER[0] - 8, CENTER[1] + 26)


def boxed_by_turns(with_bob: bool) -> tuple[Table, list[tuple[int, float, float]]]:
    """Ann's green 4 on the starter green 5, boxed at its place and higher by turns,
    then by both ways at once; Bob's yellow 4 (if ``with_bob``), carried in, hides
    the green 4, which then shows boxed the higher way only. The table and the arm
    spells (seat, from, to in seconds)."""
    table = started("green-5")
    ann_from = len(table.frames)
    table.bring(["green-4"], SEAT_EDGE["Ann"])
    spells = [(PLAYERS.index("Ann"), ann_from / FPS, len(table.frames) / FPS)]
    table.still(12)
    usual, higher = det("green-4", *CENTER), det("green-4", *HIGHER)
    starter = table.visible_pile()[:1]  # the draw pile
    for i in range(12):
        table.frames.append([*starter, higher if i % 2 else usual])
    table.frames.append([*starter, usual])
    for _ in range(30):
        table.frames.append([*starter, usual, higher])
    if with_bob:
        bob_from = len(table.frames)
        for i in range(1, 16):
            u = 1 - (1 - i / 15) ** 2
            x = SEAT_EDGE["Bob"][0] + (BOBS_SPOT[0] - SEAT_EDGE["Bob"][0]) * u
            y = SEAT_EDGE["Bob"][1] + (BOBS_SPOT[1] - SEAT_EDGE["Bob"][1]) * u
            # The green 4 hidden by the hand as it comes.
            table.frames.append([*starter, det("yellow-4", x, y)])
        spells.append((PLAYERS.index("Bob"), bob_from / FPS, len(table.frames) / FPS))
        for _ in range(40):
            table.frames.append([*starter, det("yellow-4", *BOBS_SPOT), higher])
    else:
        for _ in range(40):
            table.frames.append([*starter, usual, higher])
    return table, spells


def watch(table: Table, spells: list[tuple[int, float, float]]) -> list[dict[str, object]]:
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsAtPile(spells)
    out: list[dict[str, object]] = []
    for i, frame in enumerate(table.frames):
        out += w.update(frame_detections(frame), i / FPS)
    return out


def test_a_second_box_of_the_top_card_where_it_was_boxed_by_turns_is_no_copy() -> None:
    table, spells = boxed_by_turns(with_bob=False)
    assert watch(table, spells) == [
        {"type": "flip", "card": "green-5"},
        {"type": "play", "card": "green-4", "player": "Ann"},
    ]


def test_it_is_no_copy_either_once_a_card_put_on_it_hides_its_usual_box() -> None:
    table, spells = boxed_by_turns(with_bob=True)
    assert watch(table, spells) == [
        {"type": "flip", "card": "green-5"},
        {"type": "play", "card": "green-4", "player": "Ann"},
        {"type": "play", "card": "yellow-4", "player": "Bob"},
    ]
