"""A copy of the top card's face whose track is older than it: a pile card's misreading
whose box the copy took up as it came (``LyingCardRules._beside_the_top``,
:mod:`vision.watch.lying`). Seen apart from the top card, which lies still at its spot
at the same moments, it is no top card straightened but a second copy
(``fast-messy-24fps`` held-out 667, opened: Ann's green 3 on Dee's, found 1.5 s late
with Bob's green 6, three alerts). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, SEAT_EDGE, Det, det, feed, kinds, started

#: Where Dee's green 3 comes to lie, where a pile card is misread, where Ann's copy lies.
TOP_AT = (CENTER[0] + 32, CENTER[1] - 29)
MISREAD_AT = (CENTER[0] - 8, CENTER[1] - 14)
COPY_AT = (CENTER[0] - 26, CENTER[1] - 49)


def misread(i: int) -> Det:
    """The pile card under the starter's corner, read unsurely as two faces by turns."""
    return det("green-7" if i % 2 else "green-draw2", *MISREAD_AT, conf=0.5)


def plays(top_seen: bool) -> list[dict[str, object]]:
    """Dee's green 3 on a green 5, a pile card misread beside it; a hand hides that
    card a moment, and a green 3 slides from there to ``COPY_AT``; Dee's green 3 seen
    meanwhile (``top_seen``) or hidden by the hand too."""
    table = started("green-5")
    for i in range(10):
        table.still(1, extra=[misread(i)])
    table.bring(["green-3"], SEAT_EDGE["Dee"], TOP_AT)
    for i in range(20):
        table.still(1, extra=[misread(i)])
    table.still(4)
    steps = 5
    for k in range(1, steps + 1):
        u = k / steps
        x = MISREAD_AT[0] - 16 * (1 - u) + (COPY_AT[0] - MISREAD_AT[0]) * u
        y = MISREAD_AT[1] + 18 * (1 - u) + (COPY_AT[1] - MISREAD_AT[1]) * u
        sliding = det("green-3", x, y)
        frame = table.visible_pile() if top_seen else table.visible_pile()[:-1]
        table.frames.append([*frame, sliding])
    table.pile.append([("green-3", *COPY_AT)])
    if not top_seen:
        table.pile.pop(-2)  # only one green 3 there all along
    table.still(40)
    return [e for e in kinds(feed(table))[1:] if e["type"] == "play"]


def test_a_copy_seen_apart_from_the_still_top_card_is_a_second_play() -> None:
    assert plays(top_seen=True) == [
        {"type": "play", "card": "green-3", "player": "Dee"},
        {"type": "play", "card": "green-3", "player": "Ann"},
    ]


def test_with_the_top_card_unseen_meanwhile_it_is_the_top_card_moved() -> None:
    assert plays(top_seen=False) == [{"type": "play", "card": "green-3", "player": "Dee"}]
