"""A copy of the top card's face put half on it, under a covering hand: the top card,
half covered, reads as what shows of it where it lies (another face), and the copy
lies a fifth of a card off. The box on the top card's place is the top card, misread;
the other is the card put down (``webcam-15fps`` and three more styles held-out 692,
opened: Bob's yellow 2 half on Cy's, which read as a yellow Draw Two; Cy's track took
Bob's card's box, and the yellow Draw Two was played as Bob's). Same made-up table as
``test_watcher.py``."""

from __future__ import annotations

import pytest

from tests.vision.test_watcher import CENTER, FPS, SEAT_EDGE, Table, started
from tests.vision.test_watcher_hovering_hand import Arms, watch
from vision.arm_probe import DISCARD

#: Where Ann's copy lies: a fifth of a card below the top card, a little to the left.
HALF_ON = (CENTER[0] - 4, CENTER[1] + 15)


def ann_s_copy_half_on_cy_s(
    under_reads_as: str, hidden_s: float = 2 / FPS
) -> list[dict[str, object]]:
    """Cy's green 2 on the pile; Ann's arm comes to the pile, her hand hides it for
    ``hidden_s`` and leaves her green 2 half on it, her arm at the pile 0.3 s more;
    Cy's green 2 reads as ``under_reads_as`` where it lies from then on. The plays."""
    table: Table = started("green-5")
    table.bring(["green-2"], SEAT_EDGE["Cy"])
    table.still(30)
    start = len(table.frames)
    table.still(int(0.3 * FPS))
    table.still(round(hidden_s * FPS), covered=True)
    table.pile.append([(under_reads_as, *CENTER), ("green-2", *HALF_ON)])
    table.still(int(0.3 * FPS))
    arms = Arms()
    arms.at(range(start, len(table.frames)), DISCARD)
    table.still(60)
    return [e for e, _, _ in watch(table, arms) if e["type"] == "play"]


#: Hidden for no look, for two (the tracker gives the copy's box to the top card's
#: track, which leaves its place), for longer than ``hidden_gap_s`` (a track of its own).
HIDDEN_S = (0.0, 2 / FPS, 0.4)


@pytest.mark.parametrize("hidden_s", HIDDEN_S)
def test_the_top_card_misread_under_a_copy_half_on_it_is_no_play(hidden_s: float) -> None:
    assert ann_s_copy_half_on_cy_s("green-draw2", hidden_s) == [
        {"type": "play", "card": "green-2", "player": "Cy"},
        {"type": "play", "card": "green-2", "player": "Ann"},
    ]


@pytest.mark.parametrize("hidden_s", HIDDEN_S)
def test_the_top_card_read_as_itself_under_a_copy_half_on_it(hidden_s: float) -> None:
    assert ann_s_copy_half_on_cy_s("green-2", hidden_s) == [
        {"type": "play", "card": "green-2", "player": "Cy"},
        {"type": "play", "card": "green-2", "player": "Ann"},
    ]
