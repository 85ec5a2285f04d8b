"""A pile card read as another face while a hand shades it (candle light), read as
itself again once the hand is gone: no play. Same made-up table as
``test_watcher.py``; the arm is scripted."""

from __future__ import annotations

from tests.vision.test_watcher import started
from tests.vision.test_watcher_lifted import with_arm


def shaded(afterwards: str) -> list[dict[str, object]]:
    """Bob's hand comes over the starter red 5 (unseen), which then shows under it
    read as a wild (in its place, box and all), unseen again as the hand lifts: half a
    second in all; then the card there reads as ``afterwards`` (``covering-candle-20fps``
    seed 643, trained recogniser: the blue 8 under Bob's hand)."""
    table = started("red-5")
    table.still(20)
    (name, x, y) = table.pile[-1][0]
    shaded_from = len(table.frames)
    table.still(4, covered=True)
    read_as_wild = len(table.frames)
    table.still(6)
    for frame in table.frames[read_as_wild:]:
        frame[:] = [d if d[0] != name else ("wild", *d[1:]) for d in frame]
    table.still(4, covered=True)
    table.pile[-1][0] = (afterwards, x, y)
    table.still(30)
    return with_arm(table, "Bob", range(shaded_from - 4, shaded_from + 10))[1:]


def test_a_pile_card_read_as_another_face_under_a_hand_is_no_play() -> None:
    assert shaded("red-5") == []


def test_a_card_put_down_under_a_hand_and_read_as_itself_is_a_play() -> None:
    # The same frames, but once the hand is gone the card there reads as the wild:
    # a wild put squarely on the red 5.
    assert shaded("wild") == [{"type": "play", "card": "wild", "player": "Bob"}]
