"""A drawn card boxed twice as the hand turns it, the older box then lost and the newer
one going on alone: one card, one draw (held-out ``drop`` seed 676 and
``rushed-dusk-25fps`` seed 675, opened: Dee's and Cy's draws, their cards already
counted as drawn, boxed anew a fifth of a card beside and counted again, refused with
an alert). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import DRAW, LAYOUT, SEAT_EDGE, Det, det, feed, kinds, started

CARD = LAYOUT.card_px
#: How far along its way from the draw pile to Dee the card is when it is boxed twice
#: (it was counted as drawn before: it left the pile well behind).
TWICE_AT = 0.6
#: Frames it is boxed twice.
TWICE = 2


def dee_draws(beside: float) -> list[dict[str, object]]:
    """Dee draws a card; at ``TWICE_AT`` of its way it is boxed twice for ``TWICE``
    frames, the second box ``beside`` card lengths farther on; then only the second box
    goes on to her seat."""
    table = started()
    table.still(5)
    to = SEAT_EDGE["Dee"]

    def at(u: float, ahead: float = 0.0) -> Det:
        x = DRAW[0] + (to[0] - DRAW[0]) * u
        y = DRAW[1] + (to[1] - DRAW[1]) * u
        step = ahead * CARD / max(1e-9, ((to[0] - DRAW[0]) ** 2 + (to[1] - DRAW[1]) ** 2) ** 0.5)
        return det("back", x + (to[0] - DRAW[0]) * step, y + (to[1] - DRAW[1]) * step)

    steps = 10
    for k in range(1, steps + 1):
        u = TWICE_AT * k / steps
        table.frames.append([*table.visible_pile(), at(u)])
    for k in range(TWICE):
        u = TWICE_AT + 0.03 * (k + 1)
        table.frames.append([*table.visible_pile(), at(u), at(u, ahead=beside)])
    for k in range(1, 6):
        u = TWICE_AT + 0.03 * TWICE + 0.06 * k
        table.frames.append([*table.visible_pile(), at(u, ahead=beside)])
    table.still(30)
    return kinds(feed(table))[1:]


def test_a_drawn_card_boxed_again_beside_itself_and_carried_on_is_one_draw() -> None:
    assert dee_draws(beside=0.25) == [{"type": "draw", "player": "Dee"}]


def test_a_back_first_seen_farther_than_a_second_box_is_a_draw_of_its_own() -> None:
    # Not beside it (more than ``second_box_reach`` apart): a second card on its way,
    # two taken at once and fanned.
    assert dee_draws(beside=0.6) == [{"type": "draw", "player": "Dee"}] * 2
