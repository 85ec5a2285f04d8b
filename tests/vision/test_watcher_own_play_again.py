"""One visit of a hand brings one play: a box of the face it just put down, showing
a moment later under that hand's card, is the heap under it misread, not the same
card put down again (``high-tilted`` and ``messy-pile`` seed 655, trained recogniser:
Ann's red 2 on a red skip, a second red 2 boxed a third of a card lower over Bob's
red 2 deeper down). Another seat's hand may put down a copy (a jump-in). Same
made-up table as ``test_watcher.py``; the arms are scripted."""

from __future__ import annotations

import pytest

from tests.vision.test_watcher import CENTER, FPS, LAYOUT, PLAYERS, SEAT_EDGE, feed, kinds, started
from tests.vision.test_watcher_covered_copy import ArmsAtPile, lying
from vision.watch.arm_puts import ArmPutRules
from vision.watcher import Watcher

#: Where the cards lie: Bob's red 2 low on the pile, Cy's red skip over it, Ann's red 2
#: on top, and where the detector boxes a red 2 between them after Ann's play.
BOB_AT = (CENTER[0] + 2, CENTER[1] + 22)
CY_AT = CENTER
ANN_AT = (CENTER[0] + 2, CENTER[1] - 12)
MISREAD_AT = (CENTER[0] - 4, CENTER[1] + 8)


def red_two_boxed_again(
    own_arm: bool,
    bobs: str = "red-2",
    cys: str = "red-skip",
    anns: str = "red-2",
    misread_from: int = 9,
) -> list[dict[str, object]]:
    """The plays after the flip (Bob's card low on the pile ``bobs``, Cy's over it
    ``cys``, Ann's on top ``anns``); a red 2 shows ``misread_from`` frames after Ann's
    card came down (below 0: as it came down), under Ann's own arm (``own_arm``, there
    five frames) or under Dee's, come to the pile as Ann's went."""
    table = started("red-5")
    for card, player, spot in ((bobs, "Bob", BOB_AT), (cys, "Cy", CY_AT)):
        table.bring([card], SEAT_EDGE[player], spot)
        table.still(20)
    arm_from = len(table.frames)
    table.bring([anns], SEAT_EDGE["Ann"], ANN_AT)
    arm_to = len(table.frames) + 5
    misread = lying("red-2", *MISREAD_AT)
    for frame in table.frames[len(table.frames) + min(misread_from, 0) :]:
        frame.append(misread)  # shown as her card came down (``misread_from`` below 0)
    table.still(max(misread_from, 0))
    table.still(39 - max(misread_from, 0), extra=[misread])
    spells = [(PLAYERS.index("Ann"), arm_from / FPS, arm_to / FPS)]
    if not own_arm:
        spells.append((PLAYERS.index("Dee"), (arm_to + 1) / FPS, (arm_to + 12) / FPS))
    w = Watcher(LAYOUT, PLAYERS)
    w.arms = ArmsAtPile(spells)
    return [e for e in kinds(feed(table, w)) if e["type"] == "play"]


def test_the_face_a_hand_just_put_down_boxed_again_is_no_second_play() -> None:
    assert red_two_boxed_again(own_arm=True) == [
        {"type": "play", "card": "red-2", "player": "Bob"},
        {"type": "play", "card": "red-skip", "player": "Cy"},
        {"type": "play", "card": "red-2", "player": "Ann"},
    ]
    # Bob's card a red 7: one red 2 on the pile, the rule alone tells.
    assert len(red_two_boxed_again(own_arm=True, bobs="red-7")) == 3


def test_without_the_rule_it_is_played_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ArmPutRules, "_own_play_seen_again", lambda *_: False)
    # Bob's red 7 low on the pile, not a red 2: the deck's count does not tell.
    plays = red_two_boxed_again(own_arm=True, bobs="red-7")
    assert plays[-1] == {"type": "play", "card": "red-2", "player": "Ann"} and len(plays) == 4
    # With Bob's red 2 there, both red 2s of a deck lie on the pile: a third is one of
    # them seen again, the rule or not (CopyRules.covered_copy asks the count first).
    assert len(red_two_boxed_again(own_arm=True)) == 3


def test_under_another_seat_s_arm_it_is_a_copy_put_down() -> None:
    # Bob's red 7 low on the pile: Ann's is the only red 2 there, Dee's the second.
    assert red_two_boxed_again(own_arm=False, bobs="red-7")[-1] == {
        "type": "play",
        "card": "red-2",
        "player": "Dee",
    }


def test_a_face_of_the_value_a_hand_just_put_down_is_no_play_of_its_own() -> None:
    # ``messy-pile`` and ``covering-messy-dim-23fps`` held-out 711 (opened): Bob's green
    # 3 put down beside Ann's yellow 3 two plays down; his hand over it as it went, the
    # yellow 3 boxed anew a little larger, taken for a copy his arm put down. Here Ann's
    # green 2 on Cy's blue 2, Bob's red 2 deeper down boxed again as her arm goes: one
    # visit brings one play, and a lower card of it is the amendment's to find.
    assert red_two_boxed_again(own_arm=True, cys="blue-2", anns="green-2") == [
        {"type": "play", "card": "red-2", "player": "Bob"},
        {"type": "play", "card": "blue-2", "player": "Cy"},
        {"type": "play", "card": "green-2", "player": "Ann"},
    ]
    # Dee's arm, come as Ann's went, may put a red 2 down (a jump-in).
    assert red_two_boxed_again(own_arm=False, bobs="red-7", cys="red-2", anns="green-2")[-1] == {
        "type": "play",
        "card": "red-2",
        "player": "Dee",
    }


@pytest.mark.parametrize("misread_from", [-4, -2])
def test_the_face_boxed_again_before_the_play_was_judged_is_no_play_either(
    misread_from: int,
) -> None:
    # ``covering-messy-dim-23fps`` held-out 711 (opened): Bob's green 3 showed at 10.83 s
    # and was judged a play at 11.13 s; the yellow 3 two plays down, boxed anew under his
    # hand at 10.91 s, came to lie there before his play was judged, on the same visit.
    plays = red_two_boxed_again(
        own_arm=True, cys="blue-2", anns="green-2", misread_from=misread_from
    )
    assert plays == [
        {"type": "play", "card": "red-2", "player": "Bob"},
        {"type": "play", "card": "blue-2", "player": "Cy"},
        {"type": "play", "card": "green-2", "player": "Ann"},
    ]
