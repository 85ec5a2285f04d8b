"""The card tracker (vision.card_tracker.CardTracker) on its own: which detection links to
which track. Same made-up table as ``test_watcher.py``."""

from __future__ import annotations

from tests.vision.test_watcher import CENTER, FPS, LAYOUT
from vision.card_tracker import CardTracker
from vision.tracks import Detection
from vision.watcher_config import WatcherConfig


def box(x: float, y: float) -> tuple[float, float, float, float]:
    """A card lying upright (50 x 76 px) centred at ``(x, y)``."""
    return (x - 25, y - 38, x + 25, y + 38)


def tracker_after_a_still_card(name: str, frames: int = 15) -> tuple[CardTracker, int, int]:
    """A tracker that saw ``name`` lying still at the pile's centre for ``frames``
    frames: the tracker, that card's track id, and the next frame's number."""
    tracker = CardTracker(LAYOUT, WatcherConfig())
    here = box(*CENTER)
    for i in range(frames):
        (track,) = tracker.update([Detection(name, 0.9, here, ())], i / FPS)
    return tracker, track.id, frames


def test_a_card_lying_still_misread_where_it_lies_keeps_its_track() -> None:
    tracker, first, i = tracker_after_a_still_card("green-9")
    (track,) = tracker.update([Detection("red-3", 0.9, box(*CENTER), ())], i / FPS)
    assert track.id == first  # a misreading: the same box


def test_another_colour_and_value_lying_otherwise_on_a_still_card_is_another_card() -> None:
    # quick-untidy-26fps seed 603 (trained recogniser): a red 3 put down half over a
    # green 9 lying still, first seen lying there (a quick hand), its box overlapping
    # the green 9's about half: linked to the green 9's track as a misreading, its
    # play was never seen. A card of another colour and value lying otherwise is
    # another card.
    tracker, first, i = tracker_after_a_still_card("green-9")
    moved = box(CENTER[0] - 20, CENTER[1] - 16)
    (track,) = tracker.update([Detection("red-3", 0.9, moved, ())], i / FPS)
    assert track.id != first


def wobbling_card(name: str, config: WatcherConfig) -> tuple[CardTracker, int, int]:
    """A tracker that saw ``name`` lying at the pile's centre for 15 frames, its box
    wobbling up to 4.5 pixels from its place (a shaking camera, the trained detector:
    more than ``still``, 3.8 px here, within ``lying_still``, 5 px)."""
    tracker = CardTracker(LAYOUT, config)
    for i in range(15):
        dy = (4.5, 0.0, -1.0, 0.5, 1.0)[i % 5]
        (track,) = tracker.update(
            [Detection(name, 0.9, box(CENTER[0], CENTER[1] + dy), ())], i / FPS
        )
    return tracker, track.id, 15


def test_an_unlike_face_lying_otherwise_on_a_wobbling_card_is_another_card() -> None:
    # shaky-untidy-28fps seed 602 (trained recogniser): Cy's yellow 6, put down half
    # over a red reverse whose box wobbled by 4-5 px under a shaking camera, took the
    # red reverse's track (and its place, and the arm there before it: the play given
    # to Dee); the red reverse, seen again, was played once more.
    moved = box(CENTER[0] + 12, CENTER[1] + 14)
    tracker, first, i = wobbling_card("red-reverse", WatcherConfig())
    (track,) = tracker.update([Detection("yellow-6", 0.9, moved, ())], i / FPS)
    assert track.id != first
    # Judged still by ``still`` alone, the wobble hides that it lay still.
    narrow = WatcherConfig.from_dict({"lying_still": WatcherConfig().still})
    tracker, first, i = wobbling_card("red-reverse", narrow)
    (track,) = tracker.update([Detection("yellow-6", 0.9, moved, ())], i / FPS)
    assert track.id == first


def test_a_misreading_in_colour_alone_lying_otherwise_keeps_its_track() -> None:
    # Dim light reads a green card as yellow now and then, its box wandering: the
    # same value is the same card.
    tracker, first, i = tracker_after_a_still_card("green-9")
    moved = box(CENTER[0] - 20, CENTER[1] - 16)
    (track,) = tracker.update([Detection("yellow-9", 0.9, moved, ())], i / FPS)
    assert track.id == first


def test_a_coloured_card_put_half_over_a_still_wild_is_another_card() -> None:
    # covering-high-camera seed 603 (trained recogniser): Bob's blue skip, first seen
    # lying half over the wild under it, was linked to the wild's track and took the
    # wild's way in (from Cy's side) as its own: the play given to Cy. A black wild
    # and a coloured card are no misreading of each other.
    tracker, first, i = tracker_after_a_still_card("wild")
    moved = box(CENTER[0] - 20, CENTER[1] - 16)
    (track,) = tracker.update([Detection("blue-skip", 0.9, moved, ())], i / FPS)
    assert track.id != first
    tracker, first, i = tracker_after_a_still_card("wild")
    (track,) = tracker.update([Detection("wild-draw4", 0.9, moved, ())], i / FPS)
    assert track.id == first  # one wild read as the other: a misreading


def test_an_unlike_face_put_square_on_a_still_card_a_hand_hid_is_another_card() -> None:
    # covering-hand seed 654 (true boxes): Bob's covering hand put a Wild Draw Four
    # square on the yellow 6 under the top card, hiding it for 0.4 s; the wild, first
    # seen lying where the yellow 6 lay, was linked to its track as a misreading and
    # the play was lost. A card hidden a while, then an unlike face where it lay, is
    # a card put on it.
    tracker, first, i = tracker_after_a_still_card("yellow-6")
    hidden = 12  # frames: 0.4 s at 30 frames/s
    (track,) = tracker.update([Detection("wild-draw4", 0.9, box(*CENTER), ())], (i + hidden) / FPS)
    assert track.id != first


def test_a_like_face_or_no_gap_on_a_still_card_stays_a_misreading() -> None:
    # The same face after the hand, another colour of its value after the hand, or an
    # unlike face in the next frame (no hand hid it): the card misread, its track.
    for name, gap in (("yellow-6", 12), ("green-6", 12), ("wild-draw4", 1)):
        tracker, first, i = tracker_after_a_still_card("yellow-6")
        (track,) = tracker.update([Detection(name, 0.9, box(*CENTER), ())], (i + gap - 1) / FPS)
        assert track.id == first, name


def test_its_face_seen_elsewhere_after_a_hand_hid_a_still_card_is_another_card() -> None:
    # covering-messy-dim-23fps held-out 705, opened: a green 5 lying still on the pile,
    # hidden 0.26 s by Ann's hand bringing her green skip, which was read once as a
    # green 5 0.8 card lengths off: linked to the green 5's track, it was played as a
    # green 5. A card lying still does not move under a hand that only passes.
    tracker, first, i = tracker_after_a_still_card("green-5")
    hidden = 8  # frames: 0.27 s at 30 frames/s
    off = 0.6 * LAYOUT.card_px  # beyond same_spot (0.45 card lengths)
    (track,) = tracker.update(
        [Detection("green-5", 0.9, box(CENTER[0] + off, CENTER[1] - off / 2), ())],
        (i + hidden) / FPS,
    )
    assert track.id != first


def test_its_face_seen_near_or_at_once_after_a_still_card_keeps_its_track() -> None:
    # Within same_spot after the hand (a box drawn otherwise), or that far in the next
    # look (no hand hid it): the card itself.
    near = 0.3 * LAYOUT.card_px
    far = 0.6 * LAYOUT.card_px
    for dx, gap in ((near, 8), (far, 1)):
        tracker, first, i = tracker_after_a_still_card("green-5")
        (track,) = tracker.update(
            [Detection("green-5", 0.9, box(CENTER[0] + dx, CENTER[1]), ())], (i + gap - 1) / FPS
        )
        assert track.id == first, (dx, gap)


def _carried_up(tracker: CardTracker, name: str, x: float, frames: int) -> tuple[int, float]:
    """``name`` carried up the table at 20 px a frame (8 card lengths a second) for
    ``frames`` frames: its track id and where it was last seen (y)."""
    y = 460.0
    for i in range(frames):
        y = 460.0 - 20.0 * i
        (track,) = tracker.update([Detection(name, 0.9, box(x, y), ())], i / FPS)
    return track.id, y


def test_another_colour_off_a_moving_cards_path_is_a_card_carried_beside_it() -> None:
    # house seed 652 (true boxes, a three-card fan): the fan's top card, green, went
    # unseen for a frame as the lowest, blue, showed for the first time two thirds of a
    # card to its side; the green track took the blue box and the green box, back the
    # next frame, became a card of its own: a fan of blue, red, green and green.
    tracker = CardTracker(LAYOUT, WatcherConfig())
    green, y = _carried_up(tracker, "green-9", 300.0, 8)
    beside = 300.0 + 0.65 * LAYOUT.card_px
    (blue,) = tracker.update([Detection("blue-9", 0.9, box(beside, y - 20), ())], 8 / FPS)
    assert blue.id != green
    (again, blue_again) = tracker.update(
        [
            Detection("green-9", 0.9, box(300.0, y - 40), ()),
            Detection("blue-9", 0.9, box(beside, y - 40), ()),
        ],
        9 / FPS,
    )
    assert (again.id, blue_again.id) == (green, blue.id)


def test_another_colour_on_a_moving_cards_path_is_that_card_misread() -> None:
    # In flight a card is read in another colour now and then (blur): its box is
    # where the card was going, and it keeps its track.
    tracker = CardTracker(LAYOUT, WatcherConfig())
    green, y = _carried_up(tracker, "green-9", 300.0, 8)
    (track,) = tracker.update([Detection("blue-9", 0.9, box(305.0, y - 20), ())], 8 / FPS)
    assert track.id == green


def test_a_track_read_as_a_face_before_and_lying_at_its_spot_was_that_card() -> None:
    # A fan's lower card read as a yellow 6 on its way, boxed as a yellow 5 once it
    # lies: the play's yellow 6, found by its colour there, is that track's card.
    tracker = CardTracker(LAYOUT, WatcherConfig())
    for i, name in enumerate(["yellow-6"] * 4 + ["yellow-5"] * 8):
        x = CENTER[0] - 60 + 5 * i
        (track,) = tracker.update([Detection(name, 0.9, box(x, CENTER[1]), ())], i / FPS)
    assert track.name == "yellow-5"
    here = (track.xy[0] + 10, track.xy[1])
    assert tracker.was_card(track, "yellow-6", here)
    assert tracker.was_card(track, "yellow-5", here)
    # Never read as a red 6, or read as a yellow 6 but lying elsewhere: not that card.
    assert not tracker.was_card(track, "red-6", here)
    assert not tracker.was_card(track, "yellow-6", (track.xy[0] + 60, track.xy[1]))


def test_a_track_that_reads_as_another_face_since_a_moment_read_so_since_then() -> None:
    # A card put square on a still wild draw four took its track (the same box); the
    # track reads as the new face since it lay there, not since the track began.
    tracker, first, i = tracker_after_a_still_card("wild-draw4", frames=10)
    (track,) = tracker.update([Detection("wild-draw4", 0.9, box(*CENTER), ())], i / FPS)
    assert track.read_since() == track.first_t == 0.0  # only ever read as its face
    for k in range(i + 1, i + 19):
        (track,) = tracker.update([Detection("green-9", 0.9, box(*CENTER), ())], k / FPS)
    assert track.id == first and track.name == "green-9"
    assert track.read_since() == (i + 1) / FPS
    # Past the looks it keeps, still when it began to read so: no time creeping on with
    # every frame (held-out rushed-dusk-25fps seed 671).
    for k in range(i + 19, i + 40):
        (track,) = tracker.update([Detection("green-9", 0.9, box(*CENTER), ())], k / FPS)
    assert len(track.votes) < 40 - 1
    assert track.read_since() == (i + 1) / FPS
    # One look of another face last: its first sighting, as before any row.
    (track,) = tracker.update([Detection("green-6", 0.9, box(*CENTER), ())], (i + 40) / FPS)
    assert track.name == "green-9" and track.read_since() == track.first_t
    # Read as its face again: since that look.
    (track,) = tracker.update([Detection("green-9", 0.9, box(*CENTER), ())], (i + 41) / FPS)
    assert track.read_since() == (i + 41) / FPS


def test_a_hand_gap_of_exactly_hidden_gap_s_at_a_slow_camera_counts_as_hidden() -> None:
    # webcam-15fps seed 643 (trained recogniser): the blue 8 on the pile, unseen for
    # three frames at 15 frames/s (0.2 s, hidden_gap_s) under Bob's hand, then his blue
    # 3 lying half over it: the frame times' rounding made the gap 0.19999 s, the blue
    # 3 took the blue 8's track and was played as a blue 8. Three frames at 15 frames/s
    # span hidden_gap_s: another face lying otherwise after them is another card.
    fps = 15.0
    tracker = CardTracker(LAYOUT, WatcherConfig())
    for i in range(15):
        (track,) = tracker.update([Detection("blue-8", 0.9, box(*CENTER), ())], i / fps)
    first, last = track.id, 14
    assert (last + 3) / fps - last / fps < WatcherConfig().hidden_gap_s  # the rounding
    moved = box(CENTER[0] - 11, CENTER[1] - 8)
    (track,) = tracker.update([Detection("blue-3", 0.9, moved, ())], (last + 3) / fps)
    assert track.id != first
