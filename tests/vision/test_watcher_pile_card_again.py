"""A pile card a few plays down, boxed again while another seat's arm is at the pile,
is no copy that arm put down when it is boxed smaller inside where it lay (the cards
put on it since hide part of it), nor when its box only drifts off its old one long
after it was first seen again (``messy-pile`` and ``steep-messy-speeds`` seed 654,
trained recogniser, docs/watcher.md). Same made-up table as ``test_watcher.py``; the
arms are scripted."""

from __future__ import annotations

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    PLAYERS,
    SEAT_EDGE,
    Det,
    Table,
    started,
)
from tests.vision.test_watcher_box_by_turns import watch

#: Ann's green 4 at the centre, then Bob's green 7 and Cy's green 2 beside it.
PLAYS = (
    ("green-4", "Ann", CENTER),
    ("green-7", "Bob", (CENTER[0] + 30, CENTER[1] - 12)),
    ("green-2", "Cy", (CENTER[0] - 28, CENTER[1] + 14)),
)


def box(name: str, x1: float, y1: float, x2: float, y2: float) -> Det:
    return (name, 0.9, (x1, y1, x2, y2))


def green_4_again(shown: list[Det], later: list[Det] | None = None) -> list[dict[str, object]]:
    """The three plays, each by its player's arm; then Dee's arm at the pile for half a
    second while the green 4 is boxed again as ``shown`` (Cy's green 2 still seen), for
    three seconds, then as ``later`` (if given) for two more."""
    table = started("green-5")
    spells = []
    for card, player, spot in PLAYS:
        first = len(table.frames)
        table.bring([card], SEAT_EDGE[player], spot)
        spells.append((PLAYERS.index(player), first / FPS, len(table.frames) / FPS))
        table.still(30)
    top = Table.visible_pile(table)
    spells.append((PLAYERS.index("Dee"), len(table.frames) / FPS, (len(table.frames) + 15) / FPS))
    for _ in range(90):
        table.frames.append([*top, *shown])
    for _ in range(60 if later else 0):
        table.frames.append([*top, *(later or [])])
    return watch(table, spells)


def expected() -> list[dict[str, object]]:
    return [{"type": "flip", "card": "green-5"}] + [
        {"type": "play", "card": card, "player": player} for card, player, _ in PLAYS
    ]


def test_a_pile_card_boxed_smaller_inside_where_it_lay_is_no_copy() -> None:
    x, y = CENTER
    # Its left part hidden by the green 2: boxed 12 px narrower (IoU 0.76 with its
    # old box, wholly inside it).
    assert green_4_again([box("green-4", x - 13, y - 38, x + 25, y + 38)]) == expected()


def test_a_pile_card_seen_again_whose_box_drifts_seconds_later_is_no_copy() -> None:
    x, y = CENTER
    where_it_lay = box("green-4", x - 24, y - 38, x + 26, y + 38)
    drifted = box("green-4", x - 22, y - 36, x + 32, y + 46)  # IoU 0.75, not inside
    assert green_4_again([where_it_lay], [drifted]) == expected()


def test_a_card_boxed_inside_with_none_of_its_sides_where_they_were_is_a_copy() -> None:
    # Dee's green 4 put down across the first, inside its box, no side of its box
    # where the first's was (random-7024 seed 803: Eve's second yellow 9).
    x, y = CENTER
    across = box("green-4", x - 13, y - 30, x + 20, y + 30)
    assert green_4_again([across]) == [
        *expected(),
        {"type": "play", "card": "green-4", "player": "Dee"},
    ]
