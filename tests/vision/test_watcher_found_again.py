"""The top card lost from sight longer than the tracker keeps a track (an arm over the
pile), found again where it lay (a track that is no play), and then a card a covering
hand puts on it: another face, lying otherwise after the hand hid the pile, is a card
of its own (``vision.card_tracker.CardTracker.link``), not the old card read otherwise
(found on the ``covering-dim-webcam`` tuning style, seed 606, true boxes). Same
made-up table as ``test_watcher.py``; the arms are scripted."""

from __future__ import annotations

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    frame_detections,
    started,
)
from tests.vision.test_watcher_covered_copy import ArmsAtPile, lying
from vision.watcher import Watcher, WatcherConfig


def test_a_card_put_on_the_top_card_found_again_is_played_by_its_hand() -> None:
    table = started("blue-4")
    table.bring(["red-4"], SEAT_EDGE["Ann"])
    table.still(20)
    # Bob's arm over the pile (drawing across it) hides the red 4 a good while ...
    hidden_from = len(table.frames)
    hidden = 25
    assert hidden / FPS > WatcherConfig().lost_s
    table.still(hidden, covered=True)
    table.still(40)  # ... and it shows again where it lay
    # Cy's covering hand puts a red 7 on it, a little lower, in a quarter of a second.
    covered_from = len(table.frames)
    table.still(8, covered=True)
    table.frames += [[lying("red-7", CENTER[0] + 1, CENTER[1] + 20)] for _ in range(40)]
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsAtPile(
        [
            (PLAYERS.index("Bob"), hidden_from / FPS, (hidden_from + hidden) / FPS),
            (PLAYERS.index("Cy"), covered_from / FPS, (covered_from + 8) / FPS),
        ]
    )
    events: list[dict[str, object]] = []
    for i, frame in enumerate(table.frames):
        events += w.update(frame_detections(frame), i / FPS)
    assert events == [
        {"type": "flip", "card": "blue-4"},
        {"type": "play", "card": "red-4", "player": "Ann"},
        {"type": "play", "card": "red-7", "player": "Cy"},
    ]
