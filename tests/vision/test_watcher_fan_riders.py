"""Lower cards of a fan lost from sight on the way in (``SeveralCardRules.riders``,
:mod:`vision.watch.fans`): cards of the play's value carried in beside one of its
cards, or beside a card carried beside one, are cards of the play, though dropped from
the tracks by the time its top card is judged, and though little of their ink shows
squared under it (``messy-pile`` held-out 713, opened: Ann's blue, yellow and green 6
carried in a fan, the blue and the yellow lost half a second before the green was
judged, the blue two fan steps from the green). Same made-up table as
``test_watcher.py``; the picture is a stand-in that knows where each new ink lies."""

from __future__ import annotations

from collections import deque

import pytest

from tests.vision.test_watcher import LAYOUT, PLAYERS, SEAT_EDGE, feed, kinds, started
from tests.vision.test_watcher_fan_end import PictureAt, at
from vision.tracks import Track
from vision.watch.fans import SeveralCardRules
from vision.watcher import Watcher

#: How far apart the fan's cards are carried: the blue 6 and the green 6, two steps
#: apart, farther than ``fan_width``; each beside the yellow 6.
SPREAD = 40.0
#: Frames of the fan's way in, and the frames the lower two are seen in.
WAY_IN, LOWER_SEEN = 24, 10


def fan_of_three(yellow_ink: float = 0.011) -> list[dict[str, object]]:
    """Ann carries a blue, a yellow and a green 6 in a fan onto a red 6; the blue and
    the yellow are lost from sight ``WAY_IN - LOWER_SEEN`` frames before the fan lands,
    squared under the green. The picture shows their inks (the yellow's
    ``yellow_ink``). The events after the flip."""
    table = started("red-6")
    table.bring(["blue-6", "yellow-6", "green-6"], SEAT_EDGE["Ann"], n=WAY_IN, spread=SPREAD)
    lower = {"blue-6", "yellow-6"}
    for k, frame in enumerate(table.frames[-WAY_IN:]):
        # Half covered by the green, read less surely; then lost.
        seen = k < LOWER_SEEN
        frame[:] = [(n, c - 0.1, b) if n in lower else (n, c, b) for n, c, b in frame]
        frame[:] = [d for d in frame if seen or d[0] not in lower]
    table.pile[-1] = [c for c in table.pile[-1] if c[0] not in lower]
    table.still(30)
    green_at = SPREAD
    picture = PictureAt(
        [at("green", 0.4, green_at), at("yellow", yellow_ink, green_at - 8), at("blue", 0.05, 5)]
    )
    return kinds(feed(table, Watcher(LAYOUT, PLAYERS, pile_colors=picture)))[1:]


THREE = [{"type": "play", "cards": ["blue-6", "yellow-6", "green-6"], "player": "Ann"}]


def test_a_fan_s_lower_cards_lost_on_the_way_in_are_its_cards() -> None:
    assert fan_of_three() == THREE


def test_a_lower_card_seen_coming_needs_the_ink_a_play_needs() -> None:
    # Less new yellow than ``ink_area``: none of it came, whatever was seen.
    assert fan_of_three(yellow_ink=0.003) == [
        {"type": "play", "cards": ["blue-6", "green-6"], "player": "Ann"}
    ]


def test_without_the_lost_cards_only_the_top_card_is_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = SeveralCardRules.riders

    def tracked_only(
        self: SeveralCardRules, group: list[Track], t: float, card: float
    ) -> list[Track]:
        lost = self.state.lost_arrivals
        self.state.lost_arrivals = deque(maxlen=lost.maxlen)
        try:
            return original(self, group, t, card)
        finally:
            self.state.lost_arrivals = lost

    monkeypatch.setattr(SeveralCardRules, "riders", tracked_only)
    assert fan_of_three() == [{"type": "play", "card": "green-6", "player": "Ann"}]
