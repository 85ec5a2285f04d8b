"""A card on the pile hidden by a hand longer than a track lives is a new track when it
shows again; lying as the lost track lay, read as its face, it is that card seen again,
not a card the hand put down (``shaky-covering-messy-26fps`` held-out 706, opened: Cy's
yellow 2, half covered on a messy pile, read as a yellow 1 in nine tracks over ten
seconds; the ninth, shown as Cy's arm came with his green Draw Two, was played as his
and the Draw Two was lost). Same made-up table as ``test_watcher.py``; the arm is
scripted."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, FPS, LAYOUT, PLAYERS, SEAT_EDGE, kinds, started
from tests.vision.test_watcher import feed as fed
from tests.vision.test_watcher_covered_copy import ArmsAtPile, lying
from vision.card_tracker import CardTracker
from vision.tracks import Detection, Track, TrackState
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

#: The pile card that shows beside the top now and then (as a face no play had).
GHOST_AT = (CENTER[0] - 30, CENTER[1] - 4)
HIDDEN_FRAMES = 24  # 0.8 s under a passing hand: longer than a track lives (lost_s)


def ghost_under_a_passing_hand(config: WatcherConfig | None = None) -> list[dict[str, object]]:
    """Ann's green 7, Bob's green 2 on it; a pile card beside them read as a green 1 for
    half a second, hidden 0.8 s by Cy's hand passing over the pile, then showing again
    as it lay for a second and a half, Cy's arm at the pile as it shows."""
    table = started("green-5")
    for card, player, spot in (
        ("green-7", "Ann", (CENTER[0] + 10, CENTER[1] + 6)),
        ("green-2", "Bob", (CENTER[0] - 6, CENTER[1] + 3)),
    ):
        table.bring([card], SEAT_EDGE[player], spot)
        table.still(20)
    ghost = [lying("green-1", *GHOST_AT)]
    table.still(15, extra=ghost)
    table.still(HIDDEN_FRAMES, covered=True)
    shows = len(table.frames)
    table.still(45, extra=ghost)
    w = Watcher(LAYOUT, PLAYERS, config)
    w.arms = ArmsAtPile([(PLAYERS.index("Cy"), (shows - 6) / FPS, (shows + 10) / FPS)])
    return kinds(fed(table, w))


def test_a_pile_card_hidden_longer_than_a_track_lives_is_no_play_when_it_shows_again() -> None:
    out = ghost_under_a_passing_hand()
    assert [(e["type"], e.get("card")) for e in out] == [
        ("flip", "green-5"),
        ("play", "green-7"),
        ("play", "green-2"),
    ]


def test_without_the_memory_it_passes_for_a_card_the_passing_hand_put_down() -> None:
    out = ghost_under_a_passing_hand(WatcherConfig(lay_memory_s=0.0))
    assert {"type": "play", "card": "green-1", "player": "Cy"} in out


def _lying_track(tracker: CardTracker, name: str, xy: tuple[float, float], t0: float) -> Track:
    """A track of ``name`` seen lying at ``xy`` five times from ``t0``."""
    box = (xy[0] - 20, xy[1] - 30, xy[0] + 20, xy[1] + 30)
    for k in range(5):
        (tr,) = tracker.update([Detection(name, 0.9, box, ())], t0 + k / FPS)
    return tr


def test_the_tracker_gives_a_new_track_how_a_lost_one_of_its_face_lay_there() -> None:
    tracker = CardTracker(LAYOUT, WatcherConfig())
    lost = _lying_track(tracker, "green-1", GHOST_AT, 1.0)
    assert lost.state is TrackState.FREE
    tracker.tracks = []
    tracker.forget([lost])
    again = _lying_track(tracker, "green-1", GHOST_AT, 2.0)
    assert again is not lost
    assert again.lay_before is not None and again.lay_before[0] == "green-1"
    tracker.tracks = []
    other = _lying_track(tracker, "red-3", GHOST_AT, 2.5)
    assert other.lay_before is None  # another face there: another card


def test_how_a_lost_track_lay_is_kept_only_lay_memory_s() -> None:
    cfg = WatcherConfig()
    tracker = CardTracker(LAYOUT, cfg)
    lost = _lying_track(tracker, "green-1", GHOST_AT, 1.0)
    tracker.tracks = []
    tracker.forget([lost])
    later = _lying_track(tracker, "green-1", GHOST_AT, lost.last_t + cfg.lay_memory_s + 0.5)
    assert later.lay_before is None
