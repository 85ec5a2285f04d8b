"""A hand passing over the pile, its fingers on the top card, makes the recogniser
read that card as another face where it lies and as it lies; once the hand has gone
the card reads as itself again. That face is no card put down: judged once the hand
has gone, and a misreading if the top card then shows again (``drop`` and five more
styles held-out 690, opened: Cy's red 5, read as a red 8 under Bob's hand, was played
as Bob's and taken back 0.5 s on; with only the wait made, ``dusk-drop-cool`` took it for
Bob's copy of the red 5 once it read as the red 5 again). Same made-up table as
``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, FPS, LAYOUT, SEAT_EDGE, Table, det, started
from tests.vision.test_watcher_hovering_hand import Arms, watch
from vision.arm_probe import DISCARD


def green_2_read_as_green_8() -> tuple[Table, Arms, int]:
    """Cy's green 2 on the pile; Ann's hand comes over it, her fingers on it: from one
    look to the next it reads as a green 8 where it lies, for 0.6 s. The table, Ann's
    arm probe (to be told where her arm was) and the frame her hand came."""
    table = started("green-5")
    table.bring(["green-2"], SEAT_EDGE["Cy"])
    table.still(30)
    start = len(table.frames)
    table.still(int(0.6 * FPS), covered=True, extra=[det("green-8", *CENTER)])
    return table, Arms(), start


def misread_under_ann_s_hand(*, then: str | None) -> list[dict[str, object]]:
    """:func:`green_2_read_as_green_8`, her arm at the pile all the while; then her hand
    brings the card ``then`` onto the pile, or (None) her arm goes and the green 2 shows
    again. The events other than the round's."""
    table, arms, start = green_2_read_as_green_8()
    if then is not None:
        table.still(int(0.2 * FPS), covered=True)
        table.bring([then], SEAT_EDGE["Ann"], (CENTER[0] + 8, CENTER[1] + 5))
    arms.at(range(start, len(table.frames)), DISCARD)
    table.still(60)
    return [e for e, _, _ in watch(table, arms) if e["type"] in ("play", "undo")]


def test_a_face_read_under_a_passing_hand_where_the_top_card_lies_is_no_play() -> None:
    assert misread_under_ann_s_hand(then=None) == [
        {"type": "play", "card": "green-2", "player": "Cy"},
    ]


def test_the_hand_that_made_the_misreading_may_still_bring_its_card() -> None:
    assert misread_under_ann_s_hand(then="green-reverse") == [
        {"type": "play", "card": "green-2", "player": "Cy"},
        {"type": "play", "card": "green-reverse", "player": "Ann"},
    ]


def test_the_top_card_read_as_itself_again_lying_otherwise_is_no_copy() -> None:
    # Her fingers nudge the green 2 a sixth of a card as her hand goes: the track of the
    # misreading now reads as the green 2, lying otherwise than it lay, her arm still
    # at the pile. It is the top card seen again, not her copy put down on it
    # (``dusk-drop-cool`` held-out 690: Cy's red 5, reboxed under Ann's arm as she came
    # with her red reverse, was taken for Bob's copy).
    table, arms, start = green_2_read_as_green_8()
    table.pile[-1] = [("green-2", CENTER[0], CENTER[1] + LAYOUT.card_px / 6)]
    table.still(int(0.5 * FPS))
    arms.at(range(start, len(table.frames)), DISCARD)
    table.still(60)
    events = [e for e, _, _ in watch(table, arms) if e["type"] in ("play", "undo")]
    assert events == [{"type": "play", "card": "green-2", "player": "Cy"}]
