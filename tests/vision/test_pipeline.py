"""The per-frame pipeline: recogniser then watcher, robust to a failing recogniser."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.calibration import TableLayout
from vision.detections import Detections
from vision.pipeline import TablePipeline
from vision.watcher import Watcher
from vision.watcher_config import WatcherConfig

LAYOUT = TableLayout.default(640, 480, 2)


class Scripted:
    """Returns one card sliding in from the bottom, then lying on the pile."""

    def __init__(self, fail_on: set[int] | None = None) -> None:
        self.calls = 0
        self.fail_on = fail_on or set()

    def detect(self, image: np.ndarray) -> Detections:
        i = self.calls
        self.calls += 1
        if i in self.fail_on:
            raise RuntimeError("inference failed")
        y = max(240.0, 460.0 - 20 * i)
        return Detections.from_list([("blue-2", 0.9, (295, y - 38, 345, y + 38))])


def frames(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    base = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    return [base.copy() for _ in range(n)]


def test_events_come_out_of_the_pipeline() -> None:
    pipe = TablePipeline(Scripted(), Watcher(LAYOUT, ["Ann", "Bob"]))
    events = []
    for i, img in enumerate(frames(25)):
        res = pipe.process(img, i / 30)
        assert len(res.detections) == 1
        events += res.events
    assert events == [{"type": "flip", "card": "blue-2"}]
    assert pipe.last is not None and pipe.frames == 25


def test_a_failing_recogniser_costs_frames_not_the_game() -> None:
    pipe = TablePipeline(Scripted(fail_on={3, 4, 15}), Watcher(LAYOUT, ["Ann", "Bob"]))
    events = []
    for i, img in enumerate(frames(30)):
        res = pipe.process(img, i / 30)
        events += res.events
    assert pipe.errors == 3
    assert pipe.last_error == "RuntimeError: inference failed"
    assert events == [{"type": "flip", "card": "blue-2"}]


def test_still_frames_reuse_detections_and_moving_ones_do_not() -> None:
    rec = Scripted()
    pipe = TablePipeline(rec, Watcher(LAYOUT, ["Ann", "Bob"]), skip_static=True)
    imgs = frames(10)
    for i, img in enumerate(imgs[:5]):
        pipe.process(img, i / 30)
    assert rec.calls == 1 and pipe.reused == 4  # the same picture: recognised once
    moved = imgs[5].copy()
    moved[200:280, 300:350] = 255  # a card appears
    res = pipe.process(moved, 5 / 30)
    assert not res.reused and rec.calls == 2
    # Even a still picture is looked at again after max_reuse_s.
    res = pipe.process(moved, 5 / 30 + 0.6)
    assert not res.reused and rec.calls == 3


def test_candidates_follow_their_detections_through_filters() -> None:
    d = Detections.from_list(
        [
            ("red-7", 0.5, (0, 0, 10, 15)),
            ("back", 0.9, (20, 0, 30, 15)),
            ("blue-2", 0.7, (40, 0, 50, 15)),
        ]
    )
    cands = ((("red-7", 0.6), ("red-1", 0.3)), (), (("blue-2", 0.8), ("green-2", 0.1)))
    d = dataclasses.replace(d, candidates=cands)
    ranked = d.sorted_by_confidence()
    assert ranked.card == ("back", "blue-2", "red-7")
    assert [ranked.candidates_of(i) for i in range(3)] == [cands[1], cands[2], cands[0]]
    with pytest.raises(ValueError, match="candidate lists"):
        dataclasses.replace(d, candidates=cands[:2])
    plain = Detections.from_list([("red-7", 0.5, (0, 0, 10, 15)), ("back", 0.9, (20, 0, 30, 15))])
    assert plain.candidates_of(0) == (("red-7", 1.0),) and plain.candidates_of(1) == ()


class Focusing(Scripted):
    """A recogniser that can look at a region again; records the regions asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.regions: list[tuple[float, float, float, float]] = []

    def detect_focused(
        self, image: np.ndarray, region: tuple[float, float, float, float], margin: float
    ) -> Detections:
        self.regions.append(region)
        assert margin == pytest.approx(0.6 * LAYOUT.card_px)
        return self.detect(image)


@pytest.mark.parametrize("zoom_pile", [True, False])
def test_the_discard_pile_is_looked_at_up_close_unless_turned_off(zoom_pile: bool) -> None:
    rec = Focusing()
    pipe = TablePipeline(rec, Watcher(LAYOUT, ["Ann", "Bob"]), zoom_pile=zoom_pile)
    for i, img in enumerate(frames(3)):
        pipe.process(img, i / 30)
    zone = LAYOUT.discard
    assert rec.calls == 3
    assert rec.regions == ([(zone.x1, zone.y1, zone.x2, zone.y2)] * 3 if zoom_pile else [])


def test_bad_frames_cost_the_picture_helpers_not_the_watcher() -> None:
    pipe = TablePipeline(Scripted(), Watcher(LAYOUT, ["Ann", "Bob"]))
    assert pipe.arms is not None and pipe.watcher.arms is pipe.arms
    good = frames(1)[0]
    bad: list[object] = [
        None,
        np.zeros((480, 640), np.uint8),  # grey, no colour channels
        np.zeros((480, 640, 3), np.float32),  # not 8-bit
        np.zeros((0, 0, 3), np.uint8),  # empty
        np.zeros((480, 640, 4), np.uint8),  # four channels
    ]
    events = []
    for i in range(25):
        img = bad[i % len(bad)] if i in (2, 5, 9, 13, 21) else good
        res = pipe.process(img, i / 30)  # type: ignore[arg-type]
        assert res.error is None and len(res.detections) == 1
        events += res.events
    assert events == [{"type": "flip", "card": "blue-2"}]
    assert pipe.helper_errors >= 5  # the arms (and the pile's colours) skipped them
    assert pipe.last_helper_error is not None and "colour frame" in pipe.last_helper_error


def test_the_arms_look_at_every_frame_unless_turned_off() -> None:
    fed = TablePipeline(Scripted(), Watcher(LAYOUT, ["Ann", "Bob"]))
    for i, img in enumerate(frames(4)):
        assert fed.process(img, i / 30).arms_ms > 0
    every_other = Watcher(LAYOUT, ["Ann", "Bob"], WatcherConfig(arm_every=2))
    pipe = TablePipeline(Scripted(), every_other)
    looked = [pipe.process(img, i / 30).arms_ms > 0 for i, img in enumerate(frames(4))]
    assert looked == [True, False, True, False]
    for off in (
        TablePipeline(Scripted(), Watcher(LAYOUT, ["Ann", "Bob"]), watch_arms=False),
        TablePipeline(Scripted(), Watcher(LAYOUT, ["Ann", "Bob"], WatcherConfig(arm_every=0))),
    ):
        assert off.arms is None and off.watcher.arms is None
        assert off.process(frames(1)[0], 0.0).arms_ms == 0.0


def test_a_new_table_gets_a_new_arm_watch() -> None:
    watcher = Watcher(LAYOUT, ["Ann", "Bob"])
    pipe = TablePipeline(Scripted(), watcher)
    pipe.process(frames(1)[0], 0.0)
    three = TableLayout.default(640, 480, 3)
    watcher.seat_players(["Ann", "Bob", "Cy"], three)
    pipe.process(frames(1)[0], 0.1)
    assert pipe.arms is not None and pipe.arms.layout == three and watcher.arms is pipe.arms


def test_the_pile_outgrowing_its_zone_keeps_the_picture_helpers() -> None:
    # A card played short of the pile grows the discard zone: the same table, so the
    # pile's still pictures and the arms seen stay (``messy-pile`` held-out 698: the
    # colours' history dropped as the zone grew, a fan's lower card never seen).
    watcher = Watcher(LAYOUT, ["Ann", "Bob"])
    pipe = TablePipeline(Scripted(), watcher)
    for i, img in enumerate(frames(15)):
        pipe.process(img, i / 30)
    colors, arms = pipe.pile_colors, pipe.arms
    assert colors is not None and arms is not None
    zone = LAYOUT.discard
    watcher.state.grow_pile_zone([(zone.center[0], zone.y2 + 10.0)], LAYOUT.card_px)
    assert watcher.layout.discard != zone and watcher.calibrated_layout == LAYOUT
    pipe.process(frames(1)[0], 0.6)
    assert pipe.pile_colors is colors and pipe.arms is arms
    # The pile lay still before the zone grew: a picture to tell new ink from.
    assert colors.new_colors(zone.center, LAYOUT.card_px, since=0.0) == []


def test_the_arms_see_in_the_light_the_pile_s_colours_measured() -> None:
    # A dark table in half the light (a card's white at 118) and a dark sleeve 8 grey
    # levels lighter reaching from the bottom edge to the discard pile.
    table = np.full((480, 640, 3), (40, 42, 45), np.uint8)
    cx, cy = (int(v) for v in LAYOUT.discard.center)
    table[cy - 38 : cy + 38, cx - 25 : cx + 25] = (118, 118, 120)
    arm = table.copy()
    arm[cy + 40 :, cx - 20 : cx + 20] = (48, 50, 53)

    def arms_seen(read_fan_colors: bool) -> int:
        pipe = TablePipeline(
            Scripted(), Watcher(LAYOUT, ["Ann", "Bob"]), read_fan_colors=read_fan_colors
        )
        for i in range(12):
            pipe.process(table, i / 30)
        for i in range(12, 16):
            pipe.process(arm, i / 30)
        assert pipe.arms is not None
        return len(pipe.arms.sightings)

    assert arms_seen(read_fan_colors=True) >= 2
    assert arms_seen(read_fan_colors=False) == 0  # no light measured: the house light's
