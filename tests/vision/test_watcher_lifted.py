"""A card taken back too fast for the recogniser to read on its way out (motion blur:
docs/watcher.md, "Recogniser under motion blur"): gone from the pile, the card below
showing again, and the arm that took it seen at the pile. Same made-up table as
``test_watcher.py``; the arms are scripted."""

from __future__ import annotations

import math
from collections.abc import Sequence

from tests.vision.test_watcher import (
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    Det,
    Table,
    feed,
    kinds,
    started,
)
from vision.arm_probe import DISCARD, ArmSighting
from vision.watcher import Watcher

#: How far (card lengths) the far end of an arm at the discard pile is from its centre.
AT_THE_PILE = 0.3


class ArmsSeen:
    """An arm probe that saw ``seat``'s arm at the discard pile in frames ``frames``."""

    def __init__(self, seat: int, frames: range) -> None:
        self.seat = seat
        # The time of the frame being watched, where a test feeds the frames clocked
        # (``tests.vision.test_arm_draws.feed_timed``): a live probe has seen no later arm.
        self.now = math.inf
        self.seen = [
            ArmSighting(
                i / FPS,
                seat,
                SEAT_EDGE[PLAYERS[seat]],
                (320.0, 240.0),
                DISCARD,
                True,
                to_discard=AT_THE_PILE,
            )
            for i in frames
        ]

    def seat_for(self, first_t: float) -> int | None:
        return self.seat if any(first_t - 2.0 <= s.t <= first_t + 0.3 for s in self.seen) else None

    def sightings_since(self, t: float) -> Sequence[ArmSighting]:
        return [s for s in self.seen if t <= s.t <= self.now]


def with_arm(table: Table, player: str | None, frames: range) -> list[dict[str, object]]:
    """The watcher's events on ``table``, ``player``'s arm seen at the discard pile in
    ``frames`` (no arm probe when ``player`` is None)."""
    w = Watcher(LAYOUT, PLAYERS)
    if player is not None:
        w.arms = ArmsSeen(PLAYERS.index(player), frames)
    return kinds(feed(table, w))


def lifted_unseen(arm_at_pile: bool) -> list[dict[str, object]]:
    """Ann plays a blue 7 and takes it back; the recogniser never reads it on its way
    out (only the blue 5 below shows); Ann plays a blue 9, landing 1.4 s after it was lifted."""
    table = started("blue-5")
    table.bring(["blue-7"], SEAT_EDGE["Ann"])
    table.still(30)
    lifted = len(table.frames)
    table.take_back(SEAT_EDGE["Ann"])
    for frame in table.frames[lifted:]:
        frame.pop()  # blurred: never read
    table.still(12)
    table.bring(["blue-9"], SEAT_EDGE["Ann"])
    table.still(30)
    return with_arm(table, "Ann" if arm_at_pile else None, range(lifted - 6, lifted + 4))


def test_a_card_lifted_unseen_by_an_arm_at_the_pile_is_an_undo_before_the_next_play() -> None:
    assert lifted_unseen(arm_at_pile=True)[1:] == [
        {"type": "play", "card": "blue-7", "player": "Ann"},
        {"type": "undo"},
        {"type": "play", "card": "blue-9", "player": "Ann"},
    ]


def test_a_card_gone_with_no_arm_at_the_pile_waits_longer_than_the_next_play() -> None:
    # Only gone (a recogniser may lose a card at rest): three times the wait, so the
    # next play comes first and the take-back is not seen.
    events = lifted_unseen(arm_at_pile=False)
    assert {"type": "undo"} not in events


def copy_lifted_unseen(offset: tuple[float, float]) -> list[dict[str, object]]:
    """The flip is a blue 8; Bob plays the other blue 8 at ``offset`` from it and takes
    it back unread, his arm seen at the pile: his hand hides the pile for a quarter of
    a second, then the first blue 8 shows again where it lay (``drop`` seed 643, trained
    recogniser: a third of a card length away)."""
    table = started("blue-8")
    x0, y0 = table.pile[-1][0][1:]
    table.bring(["blue-8"], SEAT_EDGE["Bob"], (x0 + offset[0], y0 + offset[1]))
    table.still(30)
    lifted = len(table.frames)
    table.still(8, covered=True)
    table.pile.pop()
    table.still(40)
    return with_arm(table, "Bob", range(lifted - 6, lifted + 4))[1:]


def test_a_copy_lifted_unseen_off_the_same_face_is_an_undo() -> None:
    # The blue 8 seen again lies nearer where the first one lay than where Bob's lay:
    # it is the card below, not Bob's blue 8 still there.
    assert copy_lifted_unseen((-11.0, -24.0)) == [
        {"type": "play", "card": "blue-8", "player": "Bob"},
        {"type": "undo"},
    ]


def test_a_copy_put_on_the_same_spot_and_seen_again_is_no_undo() -> None:
    # Put squarely on the first one: the blue 8 seen is as near Bob's spot as the
    # first one's, and it may be Bob's still lying there (a hand over it a moment).
    assert copy_lifted_unseen((-2.0, -3.0)) == [
        {"type": "play", "card": "blue-8", "player": "Bob"},
    ]


def across(name: str, x: float, y: float, conf: float = 0.9) -> Det:
    """A detection of a card lying across, at ``(x, y)`` (76 by 50 pixels)."""
    return (name, conf, (x - 38, y - 25, x + 38, y + 25))


def crosswise(table: Table, name: str, frames: range) -> None:
    """Boxes of ``name`` in ``frames`` drawn as a card lying across."""
    for i in frames:
        for k, (n, conf, (x1, y1, x2, y2)) in enumerate(table.frames[i]):
            if n == name:
                table.frames[i][k] = across(n, (x1 + x2) / 2, (y1 + y2) / 2, conf)


def crosswise_copy(taken_back: bool) -> list[dict[str, object]]:
    """The flip is a blue 8; Bob puts the other blue 8 square on it, lying across it,
    and his hand hides the pile a quarter of a second: it lifts his blue 8 unread
    (``taken_back``), the first one seen again as it lay, or leaves it lying."""
    table = started("blue-8")
    x0, y0 = table.pile[-1][0][1:]
    brought = len(table.frames)
    table.bring(["blue-8"], SEAT_EDGE["Bob"], (x0 - 2.0, y0 - 3.0))
    table.still(30)
    lifted = len(table.frames)
    table.still(8, covered=True)
    if taken_back:
        table.pile.pop()
    table.still(40)
    crosswise(table, "blue-8", range(brought, lifted if taken_back else len(table.frames)))
    return with_arm(table, "Bob", range(lifted - 6, lifted + 4))[1:]


def test_a_copy_lying_across_the_same_face_lifted_unseen_is_an_undo() -> None:
    # Put square on the first one, but lying otherwise: the blue 8 seen again is boxed
    # as the first one lay, not as Bob's (drop held-out 682, opened: Dee's blue 2 on
    # Cy's).
    assert crosswise_copy(taken_back=True) == [
        {"type": "play", "card": "blue-8", "player": "Bob"},
        {"type": "undo"},
    ]


def test_a_copy_lying_across_the_same_face_seen_again_as_it_lay_is_no_undo() -> None:
    assert crosswise_copy(taken_back=False) == [
        {"type": "play", "card": "blue-8", "player": "Bob"},
    ]
