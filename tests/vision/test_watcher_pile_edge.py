"""An untidy pile outgrows the discard zone a calibration drew: a card carried in and
resting just beyond the zone is on the pile (found on the ``scattered-pile`` tuning
style, docs/watcher.md). Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import LAYOUT, SEAT_EDGE, feed, kinds, started
from vision.watcher_config import WatcherConfig

CARD = LAYOUT.card_px
ZONE = LAYOUT.discard
MIDDLE_Y = (ZONE.y1 + ZONE.y2) / 2


def test_a_card_carried_in_resting_just_beyond_the_zone_is_a_play() -> None:
    table = started("red-5")
    # Brought from Ann's side, it comes to rest a tenth of a card beyond the zone's
    # right edge (a card put down off-centre on an untidy pile).
    table.bring(["red-7"], SEAT_EDGE["Ann"], (ZONE.x2 + 0.1 * CARD, MIDDLE_Y))
    table.still(30)
    assert kinds(feed(table))[-1] == {"type": "play", "card": "red-7", "player": "Ann"}


def test_a_card_resting_farther_off_or_never_carried_is_no_play() -> None:
    assert WatcherConfig().rest_margin <= WatcherConfig().off_pile_margin
    far = started("red-5")
    # Farther than rest_margin beyond the zone: not on the pile.
    far.bring(["red-7"], SEAT_EDGE["Ann"], (ZONE.x2 + 0.4 * CARD, MIDDLE_Y))
    far.still(30)
    assert kinds(feed(far)) == [{"type": "flip", "card": "red-5"}]
    # Just beyond the zone but never seen moving (a pile card found again): no play.
    still = started("red-5")
    still.still(30, extra=[("red-7", 0.9, _box(ZONE.x2 + 0.1 * CARD, MIDDLE_Y))])
    assert kinds(feed(still)) == [{"type": "flip", "card": "red-5"}]


def _box(x: float, y: float) -> tuple[float, float, float, float]:
    return (x - 25, y - 38, x + 25, y + 38)
