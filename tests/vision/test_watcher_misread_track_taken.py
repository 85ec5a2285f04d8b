"""A card put down by a covering hand where a pile card's misreading lay still: the
tracker gives the card that misreading's track (a face of its colour, a step away),
older than the card by a second or two. The card's seat and whether an arm put it
down are judged from when the track began to read as the card, not from when the
misreading was first seen (held out ``covering-lamp-slide-20fps`` and
``covering-slow-slide-20fps`` seed 671: Dee's green 5 given to Cy; ``rushed-dusk-25fps``
seed 671: Bob's blue reverse never played). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, FPS, LAYOUT, PLAYERS, SEAT_EDGE, feed, kinds, started
from tests.vision.test_watcher_covered_copy import ArmsAtPile, lying
from vision.watcher import Watcher

CARD = LAYOUT.card_px
#: Where the misreading lies: the lower half of the card under the top one.
UNDER = (CENTER[0] - 12.0, CENTER[1] + 0.3 * CARD)
#: Frames the covering hand hides the pile: less than ``hidden_gap_s``, the misreading's
#: track is not one seen again.
HIDDEN = 4
#: Where the new card comes to lie: a fifth of a card from the misreading's place.
LAID = (UNDER[0] + 0.12 * CARD, UNDER[1] - 0.15 * CARD)


def misreading_then_card(
    misread_as: str,
    card: str,
    by: str | None,
) -> list[dict[str, object]]:
    """Cy carries a green 9 onto the pile, his arm seen there as he does; a second on,
    a box lying still near it reads as ``misread_as`` for a second (no card came);
    then ``by``'s covering hand puts ``card`` down a fifth of a card from that box, its
    box taking the misreading's place, ``by``'s arm (if any: else no hand, the
    covered frames the detector's blink) seen at the pile meanwhile. The events after
    the flip."""
    table = started("green-3")
    cy_from = len(table.frames)
    table.bring(["green-9"], SEAT_EDGE["Cy"])
    cy_to = len(table.frames) + 3
    table.still(12)
    table.still(int(1.2 * FPS), extra=[lying(misread_as, *UNDER)])
    by_from = len(table.frames)
    table.still(HIDDEN, covered=True)
    for i in range(1, 5):  # the hand lets go: the card shows, slid a little
        u = i / 4
        at = (UNDER[0] + (LAID[0] - UNDER[0]) * u, UNDER[1] + (LAID[1] - UNDER[1]) * u)
        table.still(1, extra=[lying(card, *at)])
    by_to = len(table.frames) + 3
    table.still(40, extra=[lying(card, *LAID)])
    spells = [(PLAYERS.index("Cy"), cy_from / FPS, cy_to / FPS)]
    if by is not None:
        spells.append((PLAYERS.index(by), by_from / FPS, by_to / FPS))
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsAtPile(spells)
    return kinds(feed(table, w))[1:]


def test_the_card_is_the_seat_of_the_arm_there_as_it_began_to_read_so() -> None:
    assert misreading_then_card("green-2", "green-5", "Dee") == [
        {"type": "play", "card": "green-9", "player": "Cy"},
        {"type": "play", "card": "green-5", "player": "Dee"},
    ]


def test_without_an_arm_there_as_it_began_to_read_so_it_is_no_card_put_down() -> None:
    # The misreading's box reads as another face of its colour, a step away, and no
    # arm came: the pile card's reading drifted, nothing was put down.
    assert misreading_then_card("green-2", "green-5", None) == [
        {"type": "play", "card": "green-9", "player": "Cy"},
    ]
