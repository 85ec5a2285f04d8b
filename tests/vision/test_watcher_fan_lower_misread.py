"""A fan's lower card, lost on its way and found by its colour, misread once it lies.

``dim-warm`` seed 647 (plays of three, trained recogniser; docs/watcher.md,
"Twenty-second pass"): Bob fans a yellow 6, a red 6 and a green 6. The yellow 6 is
read as a yellow 6 on its way (then as a yellow 5), lost from sight before it lies,
and the play finds it by its colour beside the green 6. Then its track is boxed again
where it lies, as a yellow 5: a card that came with the last play and lies where one
of its cards lies, read as that card before, is that card misread, not a new play. A
card first seen after the play, or lying elsewhere, or never read as a card of the
play, is judged as before. The state is set up by hand and
:meth:`vision.watch.lying.LyingCardRules.is_new_card` asked, as in
``test_watcher_moved_copy.py``.
"""

from __future__ import annotations

from collections import deque

from tests.vision.test_watcher import CENTER, LAYOUT, PLAYERS
from vision.tracks import Sighting, Track
from vision.watch.copies import CopyRules
from vision.watch.lying import LyingCardRules
from vision.watch.state import PileEntry, WatcherState
from vision.watcher_config import WatcherConfig

FPS = 30.0
#: Where the play's yellow 6 was found by its colour, below its green 6.
YELLOW_AT = (CENTER[0] - 10.0, CENTER[1] + 30.0)


def is_new(first_t: float, faces: list[str], lies_at: tuple[float, float]) -> bool:
    """Bob's yellow 6, red 6 and green 6 were played at 2 s; a track first seen at
    ``first_t`` outside the pile, read as ``faces`` on its way in, now lies at
    ``lies_at`` read as a yellow 5: would it be a new play at 3 s?"""
    state = WatcherState(LAYOUT, PLAYERS, WatcherConfig())
    state.pile = [
        PileEntry(["blue-6"], [CENTER], 0.5, ids=[1], player="Ann"),
        PileEntry(
            ["yellow-6", "red-6", "green-6"],
            [YELLOW_AT, (CENTER[0] - 5.0, CENTER[1] + 15.0), CENTER],
            2.0,
            ids=[2],
            player="Bob",
        ),
    ]
    state.pile_changed_t = 2.0
    start = (CENTER[0] - 200.0, CENTER[1] + 30.0)
    tr = Track(id=9, first_t=first_t, first_xy=start, first_in_discard=False, first_in_draw=False)
    x, y = lies_at
    way = [(start[0] + (x - start[0]) * k / 8, start[1] + (y - start[1]) * k / 8) for k in range(7)]
    for k, (wx, wy) in enumerate(way):  # on its way, then lost before it lies
        t = first_t + k / FPS
        tr.sightings.append(Sighting(t, wx, wy, (wx - 25, wy - 38, wx + 25, wy + 38)))
        tr.votes.append((faces[k % len(faces)], 0.9))
        tr.faces.add(faces[k % len(faces)])
    tr.was_outside_discard = True
    tr.max_travel = 200.0
    for i in range(int(2.7 * FPS), int(3.0 * FPS) + 1):  # boxed again where it lies
        t = i / FPS
        tr.sightings.append(Sighting(t, x, y, (x - 25, y - 38, x + 25, y + 38)))
        tr.votes.append(("yellow-5", 0.9))
        tr.faces.add("yellow-5")
        tr.last_t = t
    state.tracks = [tr]
    return LyingCardRules(state, CopyRules(state), deque()).is_new_card(
        tr, tr.last_t, LAYOUT.card_px
    )


def test_a_lower_card_of_the_last_play_misread_where_it_lies_is_no_new_card() -> None:
    assert not is_new(1.7, ["yellow-6", "yellow-5"], (YELLOW_AT[0] + 8.0, YELLOW_AT[1]))


def test_a_card_after_the_play_elsewhere_or_never_read_as_its_card_is_judged_as_before() -> None:
    near = (YELLOW_AT[0] + 8.0, YELLOW_AT[1])
    assert is_new(2.2, ["yellow-6", "yellow-5"], near)  # first seen after the play
    assert is_new(1.7, ["yellow-5"], near)  # never read as a card of the play
    assert is_new(1.7, ["yellow-6", "yellow-5"], (CENTER[0] + 60.0, CENTER[1] - 40.0))
