"""A Wild Draw Four turned up as the starter goes back into the deck (the rules say so;
the table session resets the watcher, :meth:`Watcher.reset`), but the dealer may leave
it lying on the table and turn up the next card beside it. Hidden a while by a hand and
seen again where it lay, it is no play (``warm-drop-untidy-28fps`` and
``shaky-scattered-24fps`` held-out 693, opened: Ann's Wild Draw Four starter, left
lying, played as hers twice). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

import pytest

from tests.vision.test_watcher import (
    CENTER,
    DRAW,
    FPS,
    LAYOUT,
    PLAYERS,
    Table,
    det,
    frame_detections,
)
from vision.watcher import Watcher

#: Where the starter Wild Draw Four lies: the lower half of the pile's zone.
LEFT_LYING = (CENTER[0], CENTER[1] + 60)
#: Where the next card turned up lies.
NEXT = (CENTER[0], CENTER[1] - 20)


def events_with_the_starter_left(
    *, hidden_s: float, then_put: str | None = None, seen_again_as: str = "wild-draw4"
) -> list[dict[str, object]]:
    """The dealer turns up a Wild Draw Four at ``LEFT_LYING``, then (the watcher reset as
    the rules send it back) a red 5 at ``NEXT``, leaving the Wild Draw Four there; a
    hand hides it for ``hidden_s``; then it shows again where it lay (read as
    ``seen_again_as``), or (``then_put``) that card lies there instead, brought in from
    Bob's side. The watcher's events."""
    table = Table()
    table.still(5)
    table.bring(["wild-draw4"], DRAW, LEFT_LYING)
    table.still(20)
    flipped_at = len(table.frames) - 1  # its last frame alone on the pile
    starter = [("wild-draw4", *LEFT_LYING)]
    table.draw_pile = True
    table.pile = [starter]
    for i in range(1, 16):  # the red 5 turned up beside it
        u = i / 15
        x, y = DRAW[0] + (NEXT[0] - DRAW[0]) * u, DRAW[1] + (NEXT[1] - DRAW[1]) * u
        table.frames.append([*table.visible_pile(), det("red-5", x, y)])
    table.pile = [[*starter, ("red-5", *NEXT)]]
    table.still(30)
    hidden = round(hidden_s * FPS)
    for _ in range(hidden):
        table.frames.append([det("back", *DRAW), det("red-5", *NEXT)])
    if then_put is None:
        table.pile = [[(seen_again_as, *LEFT_LYING), ("red-5", *NEXT)]]
        table.still(60)
    else:
        table.pile = [[("red-5", *NEXT)]]
        table.bring([then_put], (15.0, LEFT_LYING[1]), LEFT_LYING)
        table.pile = [[("red-5", *NEXT), (then_put, *LEFT_LYING)]]
        table.still(60)
    w = Watcher(LAYOUT, PLAYERS)
    out: list[dict[str, object]] = []
    for i, frame in enumerate(table.frames):
        out += w.update(frame_detections(frame), i / FPS)
        if i == flipped_at:
            assert out == [{"type": "flip", "card": "wild-draw4"}]
            w.reset()  # the rules sent it back into the deck
    return out


def test_a_starter_sent_back_but_left_lying_seen_again_is_no_play() -> None:
    assert events_with_the_starter_left(hidden_s=1.0) == [
        {"type": "flip", "card": "wild-draw4"},
        {"type": "flip", "card": "red-5"},
    ]


def test_a_starter_left_lying_seen_again_as_another_face_is_no_play() -> None:
    # Uncovered, the Wild Draw Four reads as a red Draw Two where it lay, as it lay: no
    # card is put square on one lying there since before the round's first card
    # (``covering-high-scattered-27fps`` held-out 713, opened).
    assert events_with_the_starter_left(hidden_s=1.0, seen_again_as="red-draw2") == [
        {"type": "flip", "card": "wild-draw4"},
        {"type": "flip", "card": "red-5"},
    ]


@pytest.mark.parametrize("face", ["wild-draw4", "red-draw2"])
def test_a_card_brought_where_it_lay_is_a_play(face: str) -> None:
    # Seen coming from a seat, it is put down there, whatever lay there before.
    out = events_with_the_starter_left(hidden_s=1.0, then_put=face)
    assert out[:2] == [{"type": "flip", "card": "wild-draw4"}, {"type": "flip", "card": "red-5"}]
    assert out[2:] == [{"type": "play", "card": face, "player": "Bob"}]
