"""A back lost near the draw pile while an arm was at the discard pile and none at the
draw pile (``DrawRules._carried_to_discard``, :mod:`vision.watch.draws`): a covering
hand carries its card past the draw pile to the discard pile, and the detector boxes
the card under the hand as a back for a moment (``covering-dim-22fps`` and
``covering-tilted-noisy`` held-out 649, opened: Cy's green 3 taken for a card Bob
drew). Nor a back moving away from the draw pile then: the arm that played going back
past the draw pile, its dark sleeve boxed as a back (``dusk-drop-cool`` and
``rushed-dusk-25fps`` held-out 667, opened: Cy's arm after his green 5, a draw of his
0.2 s after his play, two alerts). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_arm_draws import ScriptedArms
from tests.vision.test_arm_draws import feed as feed_arms
from tests.vision.test_watcher import (
    DRAW,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    Table,
    det,
    feed,
    kinds,
    started,
)
from vision.arm_probe import DISCARD
from vision.arm_probe import DRAW as AT_DRAW
from vision.watcher import Watcher

#: Where the back lies: left of the draw pile, 0.85 card lengths from its middle.
BACK_AT = (DRAW[0] - 65.0, DRAW[1])


def events(arms: list[str] | None) -> list[dict[str, object]]:
    """The draws seen when a back lies still beside the draw pile for a quarter of a
    second, then is lost, Cy's arm seen meanwhile at each pile of ``arms`` (None: no
    arm probe)."""
    table = started()
    start = len(table.frames)
    for _ in range(8):
        table.frames.append([*table.visible_pile(), det("back", *BACK_AT)])
    table.still(30)
    return draws(table, arms, range(start - 2, start + 10))


def draws(table: Table, arms: list[str] | None, frames: range) -> list[dict[str, object]]:
    """The draws the watcher sees over ``table``'s frames, Cy's arm seen in ``frames``
    at each pile of ``arms`` (None: no arm probe)."""
    if arms is None:
        seen = kinds(feed(table, Watcher(LAYOUT, PLAYERS)))
    else:
        scripted = ScriptedArms()
        for pile in arms:
            scripted.at(frames, "Cy", pile)
        seen = feed_arms(table, scripted)
    return [e for e in seen[1:] if e["type"] == "draw"]


def test_a_back_lost_by_the_draw_pile_while_an_arm_is_at_the_discard_pile_is_no_draw() -> None:
    assert events([DISCARD]) == []


def test_with_an_arm_at_the_draw_pile_too_it_is_a_draw() -> None:
    assert len(events([DISCARD, AT_DRAW])) == 1


def test_without_the_arm_watch_it_is_a_draw_as_before() -> None:
    assert len(events(None)) == 1


def carried_away(arms: list[str] | None) -> list[dict[str, object]]:
    """The draws seen when a back goes from the draw pile to Cy's edge, Cy's arm seen
    meanwhile at each pile of ``arms`` (None: no arm probe)."""
    table = started()
    start = len(table.frames)
    table.draw_card(SEAT_EDGE["Cy"])
    end = len(table.frames)
    table.still(30)
    return draws(table, arms, range(start - 8, end))


def test_a_back_leaving_the_draw_pile_while_an_arm_is_at_the_discard_pile_only_is_no_draw() -> None:
    assert carried_away([DISCARD]) == []


def test_a_back_leaving_the_draw_pile_with_the_arm_at_the_draw_pile_is_a_draw() -> None:
    assert carried_away([DISCARD, AT_DRAW]) == [{"type": "draw", "player": "Cy"}]
    assert carried_away(None) == [{"type": "draw", "player": "Cy"}]
