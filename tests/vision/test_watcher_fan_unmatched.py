"""A fan's lower card of the old top card's colour, never boxed and bringing little new
ink (``FanColorRules.under_unmatched``, :mod:`vision.watch.fan_colors`): a red Draw Two
alone on a green skip matches it by neither colour nor value; with a green Draw Two
under it, it does. Its oval and figure change the green outside the red card's box,
where a card put down alone changes nothing (``evening-lamp-slide-24fps`` held-out 643,
opened: Cy's green Draw Two under his red one, read as the red one alone). Same
made-up table and picture stand-in as ``test_watcher_fan_end.py``."""

from __future__ import annotations

import math
from typing import Any

from tests.vision.test_watcher import (
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    Table,
    feed,
    frame_detections,
    kinds,
    started,
)
from tests.vision.test_watcher_fan_end import PictureAt, at
from vision.pile_colors import ColorPatch
from vision.watch.fan_colors import FanColorRules
from vision.watch.state import PileEntry, WatcherState
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

#: The red card lies this far right of the pile's middle; the green under it shows left.
STEP = 26.0


class Changed(PictureAt):
    """:class:`PictureAt` with the starter's ink (``first``) for the flip and
    ``change`` card faces of the old top's colour changed outside the top card's
    box, a little left of it (more than the new ink there)."""

    def __init__(self, first: str, patches: list[ColorPatch], change: float) -> None:
        super().__init__(patches)
        self.first, self.change = first, change

    def _now(self, since: float) -> list[ColorPatch]:
        return [at(self.first.split("-")[0], 0.5, 0.0)] if since == -math.inf else self.patches

    def changed_outside(
        self, color: str, box: tuple[float, float, float, float], *args: Any, **kw: Any
    ) -> ColorPatch | None:
        return at(color, self.change, 0.0)


def red_draw2_on(first: str) -> tuple[Table, list[ColorPatch]]:
    """Cy puts a red Draw Two on ``first`` (turned up at the pile's middle), the
    recogniser seeing it alone; a sliver of new green ink left of it."""
    table = started(first)
    table.bring(["red-draw2"], SEAT_EDGE["Cy"], end=(LAYOUT.discard.center[0] + STEP, 240.0))
    table.still(20)
    return table, [at("red", 0.5, STEP), at("green", 0.02, 0.0)]


def plays(first: str, change: float) -> list[dict[str, object]]:
    table, ink = red_draw2_on(first)
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=Changed(first, ink, change))))[1:]


def test_green_changed_beside_an_unmatched_card_is_its_lower_card() -> None:
    assert plays("green-skip", 0.1) == [
        {"type": "play", "cards": ["green-draw2", "red-draw2"], "player": "Cy"}
    ]


def test_a_card_alone_changes_nothing_outside_its_box() -> None:
    assert plays("green-skip", 0.02) == [{"type": "play", "card": "red-draw2", "player": "Cy"}]


def test_a_card_that_matches_the_old_top_needs_no_lower_card() -> None:
    # By value (a green Draw Two under it) or by colour: legal alone, read alone.
    for first in ("green-draw2", "red-skip"):
        assert plays(first, 0.1) == [{"type": "play", "card": "red-draw2", "player": "Cy"}]


def test_refused_alone_it_gets_its_lower_card_when_the_hand_shows_it() -> None:
    # Nothing changed outside the red card as it came to rest (the hand hid the
    # green one); the tracker refused it; the hand gone, the green changed: the play
    # is sent again with it (no undo: the tracker never applied the first).
    table, ink = red_draw2_on("green-skip")
    table.still(10)
    picture = Changed("green-skip", ink, 0.0)
    watcher = Watcher(LAYOUT, PLAYERS, pile_colors=picture)
    out = []
    for i, frame in enumerate(table.frames):
        for ev in watcher.update(frame_detections(frame), i / FPS):
            out.append(ev)
            if ev.get("card") == "red-draw2":
                watcher.play_refused()
                picture.change = 0.1
    assert out[1:] == [
        {"type": "play", "card": "red-draw2", "player": "Cy"},
        {"type": "play", "cards": ["green-draw2", "red-draw2"], "player": "Cy"},
    ]


def fan_on_green_skip(change: float) -> tuple[list[dict[str, object]], Changed]:
    """Cy puts a blue Draw Two and a red one together on a green skip, both boxed; a
    sliver of new green ink left of them, ``change`` of green changed outside."""
    table = started("green-skip")
    centre = LAYOUT.discard.center[0] + STEP
    table.bring(["blue-draw2", "red-draw2"], SEAT_EDGE["Cy"], end=(centre, 240.0))
    table.still(20)
    ink = [at("red", 0.5, STEP + 11), at("blue", 0.3, STEP - 11), at("green", 0.02, 0.0)]
    picture = Changed("green-skip", ink, change)
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:], picture


def test_green_changed_beside_a_fan_whose_lowest_card_is_unmatched_is_one_more_card() -> None:
    # The blue Draw Two matches the green skip by neither colour nor value either.
    out, _ = fan_on_green_skip(0.1)
    assert out == [
        {"type": "play", "cards": ["green-draw2", "blue-draw2", "red-draw2"], "player": "Cy"}
    ]
    out, _ = fan_on_green_skip(0.02)
    assert out == [{"type": "play", "cards": ["blue-draw2", "red-draw2"], "player": "Cy"}]


def test_on_several_cards_a_card_of_any_of_their_colours_needs_no_lower_card() -> None:
    # messy-pile held-out 659 (opened): Bob's yellow Draw Two on Ann's yellow 6 and green
    # 6 (yellow named, which the watcher does not hear): matched by the named colour, it
    # was played over a green Draw Two that was never there.
    state = WatcherState(LAYOUT, PLAYERS, WatcherConfig(), Changed("green-5", [], 0.1))
    rules = FanColorRules(state)
    xy = (LAYOUT.discard.center[0] + STEP, 240.0)
    box = (xy[0] - 25, xy[1] - 38, xy[0] + 25, xy[1] + 38)

    def under(cards: list[str]) -> list[tuple[str, tuple[float, float]]]:
        onto = PileEntry(cards, [LAYOUT.discard.center] * len(cards), 1.0)
        state.pile = [onto]
        return rules.under_unmatched("red-draw2", onto, xy, box, 1.0, 2.0, LAYOUT.card_px)

    assert [face for face, _ in under(["green-skip"])] == ["green-draw2"]
    assert under(["red-skip", "green-skip"]) == []  # red may be the colour named
    assert [face for face, _ in under(["blue-skip", "green-skip"])] == ["green-draw2"]
