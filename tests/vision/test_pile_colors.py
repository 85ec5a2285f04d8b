"""Reading a fan's lower cards by their colour, on rendered video frames."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from synth.video import OracleDetector, RenderResult, render_video
from uno_table.replay import load_log
from vision.calibration import TableLayout
from vision.geometry import CARD_ASPECT
from vision.pile_colors import HAND_MARGIN, ZONE_MARGIN, PileColors, color_map
from vision.pile_pictures import PilePictures
from vision.pipeline import TablePipeline
from vision.source import read_video
from vision.watcher import Watcher, WatcherConfig

PLAYERS = ["Ann", "Bob"]
# A red card under a red one is the hard case: the lower card of the first fan is
# red, like the card it is put on.
LOG: list[dict[str, Any]] = [
    {"type": "round", "players": PLAYERS, "dealer": "Bob"},
    {"type": "flip", "card": "red-7"},
    {"type": "play", "player": "Ann", "cards": ["red-4", "yellow-4"]},
    {"type": "play", "player": "Bob", "card": "yellow-9"},
    {"type": "play", "player": "Ann", "cards": ["yellow-skip", "blue-skip", "green-skip"]},
    {"type": "play", "player": "Bob", "card": "green-2"},
]


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> RenderResult:
    out = tmp_path_factory.mktemp("fans") / "fans.mp4"
    return render_video(LOG, out, seed=5, pass_over_prob=0.0)


def _truth_plays(video: RenderResult) -> list[dict[str, Any]]:
    return [e for e in load_log(str(video.path) + ".truth.jsonl") if e["type"] == "play"]


def _colors_at_rest(video: RenderResult) -> list[list[tuple[str, float, float]]]:
    """Per play: the new colours (name, area, distance in cards) a moment after it lands."""
    layout = TableLayout.load(str(video.path) + ".layout.json")
    colors = PileColors(layout)
    plays = _truth_plays(video)
    boxes = [row for row in OracleDetector(str(video.path) + ".boxes.jsonl").frames]
    out: list[list[tuple[str, float, float]]] = []
    since = 0.0
    for frame in read_video(video.path):
        colors.update(frame.image, frame.t)
        if len(out) < len(plays) and frame.t >= plays[len(out)]["t"] + 0.07:
            play = plays[len(out)]
            top = (play.get("cards") or [play["card"]])[-1]
            x1, y1, x2, y2 = next(b for name, _, b in boxes[frame.index] if name == top)
            xy = ((x1 + x2) / 2, (y1 + y2) / 2)
            patches = colors.new_colors(xy, 0.9 * layout.card_px, since=since)
            assert patches is not None, f"the pile never lay still before {play}"
            out.append([(p.color, p.area, math.dist(p.xy, xy) / layout.card_px) for p in patches])
            since = frame.t
    return out


def test_ink_colors_are_told_from_wood_and_skin() -> None:
    bgr = np.array(
        [[[40, 40, 220], [30, 210, 230], [60, 160, 40], [200, 120, 20], [60, 90, 120]]],
        np.uint8,
    )
    skin = np.array([[[55, 85, 135], [30, 45, 70], [189, 214, 244], [255, 255, 255]]], np.uint8)
    assert color_map(bgr).tolist() == [[1, 2, 3, 4, 0]]
    assert color_map(skin).tolist() == [[0, 0, 0, 0]]


def test_a_fans_lower_cards_show_as_new_colors_beside_the_top(video: RenderResult) -> None:
    seen = _colors_at_rest(video)
    plays = _truth_plays(video)
    assert len(seen) == len(plays) == 4
    for play, patches in zip(plays, seen, strict=True):
        cards = play.get("cards") or [play["card"]]
        top_color = cards[-1].split("-")[0]
        least = WatcherConfig().strip_area
        beside = {c for c, area, dist in patches if area >= least and dist >= 0.2}
        lower = {c.split("-")[0] for c in cards[:-1]}
        # Every lower card's colour is seen beside the top card, and nothing else is.
        assert beside - {top_color} == lower, (play, patches)


def test_a_yellow_card_in_warm_light_is_yellow_ink_and_skin_is_none() -> None:
    from synth.render.hands import SKIN_TONES

    # Every skin tone the renderer draws, under the warmest light it casts.
    warm = np.array([0.93, 1.0, 1.07], np.float32)
    skin = np.array([[np.clip(np.array(t) * warm, 0, 255) for t in SKIN_TONES]], np.uint8)
    assert color_map(skin).tolist() == [[0] * len(SKIN_TONES)]
    # Yellow printed towards orange (hue 16-17), as on some rendered cards.
    orange_yellow = cv2.cvtColor(
        np.array([[[16, 220, 200], [17, 180, 190]]], np.uint8), cv2.COLOR_HSV2BGR
    )
    assert color_map(orange_yellow).tolist() == [[2, 2]]


def test_a_card_carried_across_a_plain_table_is_not_taken_for_camera_shake() -> None:
    # On a plain table the card is all there is to match: the shift that lines the two
    # pictures up best is the card's way, not the camera's.
    layout = TableLayout.default(320, 240, 2)
    colors = PileColors(layout)
    cx, cy = (int(v) for v in layout.discard.center)
    table = np.full((240, 320, 3), (190, 190, 185), np.uint8)  # light grey cloth
    before = table.copy()
    before[cy - 60 : cy - 10, cx + 10 : cx + 44] = (40, 40, 220)  # the red card, in the hand
    for i in range(12):
        colors.update(before, i / 30)
    after = table.copy()
    after[cy - 25 : cy + 25, cx - 17 : cx + 17] = (40, 40, 220)  # put down on the pile
    colors.update(after, 0.5)
    ink = colors.new_colors((cx, cy), 15, since=0.1, hands=False)
    assert ink is not None
    assert sum(p.area for p in ink if p.color == "red") > 0.2


def test_nothing_new_until_the_pile_has_lain_still() -> None:
    layout = TableLayout.default(320, 240, 2)
    colors = PileColors(layout)
    table = np.full((240, 320, 3), (60, 90, 120), np.uint8)
    colors.update(table, 0.0)
    assert colors.new_colors((160, 120), 60, since=0.0) is None
    for i in range(1, 12):
        colors.update(table, i / 30)
    assert colors.new_colors((160, 120), 60, since=0.0) == []
    # A frame of another size (a camera that changed mode) is not looked at.
    colors.update(np.zeros((10, 10, 3), np.uint8), 0.5)
    assert colors.new_colors((160, 120), 60, since=0.3) == []
    assert colors.new_colors((160, 120), 60, since=1.0) is None  # not still since then


def test_a_hand_held_still_over_the_pile_is_not_the_pile_lying_still() -> None:
    # A covering hand pauses over the pile before it lets go, hiding a blue card that
    # lies there; when it leaves, the blue card is not new (covering-untidy-25fps
    # seed 603: a blue 4 taken for the lower card of Ann's green 4).
    layout = TableLayout.default(320, 240, 2)
    cx, cy = (int(v) for v in layout.discard.center)
    pile = np.full((240, 320, 3), (60, 90, 120), np.uint8)  # brown wood
    pile[cy - 25 : cy + 25, cx - 17 : cx + 17] = (200, 120, 20)  # a blue card
    covered = pile.copy()
    covered[cy - 30 :, cx - 25 : cx + 25] = (150, 140, 150)  # a grey hand and arm
    colors = PileColors(layout)
    for i in range(12):
        colors.update(pile, i / 30)
    for i in range(21):
        colors.update(covered, 0.5 + i / 30)  # held still for 0.7 s
    for i in range(3):
        colors.update(pile, 1.2 + i / 30)  # the hand gone, nothing put down
    ink = colors.new_colors((cx, cy), 60, since=0.0)
    assert ink is not None and [p for p in ink if p.color == "blue"] == []
    # With no picture of the pile lying still without it since then, the one with the
    # hand is compared with (the probe is not blind): the blue card shows as new.
    only_hand = colors.new_colors((cx, cy), 60, since=0.6)
    assert only_hand is not None and only_hand[0].color == "blue"


def test_a_still_spell_that_lasted_until_the_card_came_is_a_still_picture() -> None:
    # A quick player's fan comes just as the pile settles: the pile lay still from
    # 0.5 s until the hand came at 1.2 s; a still picture must be from before 1.0 s.
    # The spell's newest picture is later than that, but it lay still at 1.0 s too
    # (player-speeds seed 652, plays of three: Ann's blue 9 and red 9 under her green
    # 9 lost, the pile "never still" between the last play and hers).
    layout = TableLayout.default(320, 240, 2)
    cx, cy = (int(v) for v in layout.discard.center)
    pile = np.full((240, 320, 3), (190, 190, 185), np.uint8)  # light grey cloth
    pile[cy - 25 : cy + 25, cx - 17 : cx + 17] = (200, 120, 20)  # the blue top card
    colors = PileColors(layout)
    for i in range(18):  # the last play's hand leaves the pile's picture at 0.5 s
        moving = pile.copy()
        moving[:, : 130 - 2 * i] = (120, 140, 170)
        colors.update(moving, i / 30)
    for i in range(18, 37):
        colors.update(pile, i / 30)  # still from 0.6 s to 1.2 s
    fan = pile.copy()
    fan[cy - 25 : cy + 25, cx + 17 : cx + 35] = (40, 40, 220)  # a red card beside it
    colors.update(fan, 1.25)
    ink = colors.new_colors((cx, cy), 60, since=0.4, before=1.0)
    assert ink is not None and [p.color for p in ink] == ["red"]
    # Still for less than ``settle_s`` by then: no still picture to tell from.
    assert colors.new_colors((cx, cy), 60, since=0.4, before=0.7) is None


def test_a_card_on_its_own_colour_changes_the_picture_more_than_its_ink() -> None:
    layout = TableLayout.default(320, 240, 2)
    colors = PileColors(layout)
    cx, cy = (int(v) for v in layout.discard.center)
    table = np.full((240, 320, 3), (60, 90, 120), np.uint8)  # brown wood
    yellow, white = (30, 210, 230), (235, 235, 235)
    old = table.copy()
    old[cy - 25 : cy + 25, cx - 17 : cx + 17] = yellow
    old[cy - 12 : cy + 12, cx - 10 : cx - 2] = white  # its oval, off to the left
    for i in range(12):
        colors.update(old, i / 30)
    new = old.copy()
    new[cy - 25 : cy + 25, cx - 17 : cx + 17] = yellow  # a yellow card squarely on it
    new[cy - 12 : cy + 12, cx + 2 : cx + 10] = white  # its oval, off to the right
    colors.update(new, 0.5)
    ink = colors.new_colors((cx, cy), 15, since=0.1, hands=False)
    changed = colors.changed_area((cx, cy), 15, since=0.1, hands=False)
    assert ink is not None and changed is not None
    # Little new yellow (only where the old oval was), twice as much changed.
    new_yellow = sum(p.area for p in ink if p.color == "yellow")
    assert new_yellow > 0.0 and changed > 1.8 * new_yellow
    # Nothing new at all: nothing changed.
    colors.update(old, 0.6)
    assert colors.changed_area((cx, cy), 15, since=0.1) == 0.0
    # Without a still picture since then, it cannot tell.
    assert colors.changed_area((cx, cy), 15, since=1.0) is None


def _replay_plays(video: RenderResult, read_fan_colors: bool) -> list[dict[str, object]]:
    layout = TableLayout.load(str(video.path) + ".layout.json")
    # The oracle never reports a card less than half uncovered: a fan's lower cards
    # are left to their colour.
    oracle = OracleDetector(
        str(video.path) + ".boxes.jsonl", min_visible=0.6, drop=0.0, mislabel=0.0
    )
    pipe = TablePipeline(oracle, Watcher(layout, PLAYERS), read_fan_colors=read_fan_colors)
    events: list[dict[str, object]] = []
    for frame in read_video(Path(video.path)):
        oracle.seek(frame.index)
        events += pipe.process(frame.image, frame.t).events
    return [e for e in events if e["type"] == "play"]


def test_the_pipeline_reports_a_fan_with_the_cards_only_its_colour_shows(
    video: RenderResult,
) -> None:
    plays = _replay_plays(video, read_fan_colors=True)
    want = [{k: v for k, v in e.items() if k != "t"} for e in _truth_plays(video)]
    assert plays == want
    # Without the colours, the lower cards the recogniser never boxes are lost.
    blind = _replay_plays(video, read_fan_colors=False)
    assert [e.get("cards", [e.get("card")])[-1] for e in blind] == [
        (e.get("cards") or [e["card"]])[-1] for e in want
    ]
    assert blind != want


def test_a_blue_card_in_dim_warm_light_is_blue_ink_and_green_stays_green() -> None:
    # Measured on the dim-warm tuning style's videos (true card outlines, saturation
    # >= 150): blue ink turns cyan there, hue 84-93 (hue 89-93 was no colour, 84-88
    # green), while green ink keeps to hue 49-66 (62-72 in the house light).
    blue_warm = cv2.cvtColor(
        np.array([[[84, 240, 80], [87, 242, 87], [91, 235, 93]]], np.uint8), cv2.COLOR_HSV2BGR
    )
    green = cv2.cvtColor(
        np.array([[[49, 200, 80], [66, 170, 81], [72, 190, 160]]], np.uint8), cv2.COLOR_HSV2BGR
    )
    assert color_map(blue_warm).tolist() == [[4, 4, 4]]
    assert color_map(green).tolist() == [[3, 3, 3]]


def test_in_half_the_light_a_red_card_put_down_is_still_red_ink() -> None:
    # Half the house light: a card's white border at value 120, its red ink at 75
    # (measured on the half-light tuning style: red ink's median value 67, green's 49;
    # the house light's floors are 100 and 60).
    layout = TableLayout.default(320, 240, 2)
    cx, cy = (int(v) for v in layout.discard.center)
    table = np.full((240, 320, 3), (30, 45, 60), np.uint8)  # brown wood, half lit
    old = table.copy()
    old[cy - 25 : cy + 25, cx - 17 : cx + 17] = (118, 118, 120)  # the old card's white
    old[cy - 20 : cy + 20, cx - 12 : cx + 12] = (50, 40, 25)  # ... and its blue
    new = old.copy()
    new[cy - 20 : cy + 20, cx - 12 : cx + 12] = (20, 18, 75)  # a red card put on it

    def red_ink(colors: PileColors) -> float:
        for i in range(12):
            colors.update(old, i / 30)
        colors.update(new, 0.5)
        ink = colors.new_colors((cx, cy), 15, since=0.1, hands=False)
        assert ink is not None
        return sum(p.area for p in ink if p.color == "red")

    colors = PileColors(layout)
    assert red_ink(colors) > 0.2
    assert 0.45 < colors.light < 0.55
    # Read as in the house light (the floors not scaled), the same card shows no ink.
    blind = PileColors(layout)
    blind.pictures._light = lambda hsv, t: 1.0  # type: ignore[method-assign]
    assert red_ink(blind) == 0.0


def test_the_light_is_the_whitest_the_pile_lately_was() -> None:
    layout = TableLayout.default(320, 240, 2)
    colors = PileColors(layout, light_window_s=2.0)
    assert colors.light == 1.0  # nothing seen yet: the house light
    cx, cy = (int(v) for v in layout.discard.center)
    lit = np.full((240, 320, 3), (60, 90, 120), np.uint8)
    lit[cy - 25 : cy + 25, cx - 17 : cx + 17] = (235, 235, 235)  # a white card
    colors.update(lit, 0.0)
    assert colors.light == pytest.approx(235 / 240, abs=0.01)
    dark = (lit // 2).astype(np.uint8)  # the lamp goes down to half
    colors.update(dark, 1.0)
    assert colors.light == pytest.approx(235 / 240, abs=0.01)  # still within 2 s
    colors.update(dark, 2.5)
    assert colors.light == pytest.approx(117 / 240, abs=0.01)


HALF_LIGHT_LOG: list[dict[str, Any]] = [
    {"type": "round", "players": PLAYERS, "dealer": "Bob"},
    {"type": "flip", "card": "blue-7"},
    {"type": "play", "player": "Ann", "card": "red-7"},
    {"type": "play", "player": "Bob", "card": "red-2"},
    {"type": "play", "player": "Ann", "card": "green-2"},
    {"type": "play", "player": "Bob", "card": "red-2"},
    {"type": "play", "player": "Ann", "card": "red-0"},
    {"type": "play", "player": "Bob", "card": "green-0"},
]


def test_in_half_the_light_every_red_and_green_play_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The half-light tuning style (0.45 of the house light): the watcher rules out a
    # card that brought no ink of its colour, and read with the house light's ink
    # floors, red and green cards bring none.
    video = render_video(
        HALF_LIGHT_LOG, tmp_path / "half.mp4", seed=1, style="half-light", pass_over_prob=0.0
    )
    layout = TableLayout.load(str(video.path) + ".layout.json")

    def plays() -> list[object]:
        oracle = OracleDetector(str(video.path) + ".boxes.jsonl", drop=0.0, mislabel=0.0)
        pipe = TablePipeline(oracle, Watcher(layout, PLAYERS))
        events: list[dict[str, object]] = []
        for frame in read_video(Path(video.path)):
            oracle.seek(frame.index)
            events += pipe.process(frame.image, frame.t).events
        return [e["card"] for e in events if e["type"] == "play"]

    want = [e["card"] for e in HALF_LIGHT_LOG if e["type"] == "play"]
    assert plays() == want
    monkeypatch.setattr(PilePictures, "_light", lambda self, hsv, t: 1.0)
    assert len(plays()) < len(want) - 2


def test_in_half_the_light_a_fans_lower_card_beside_the_top_changes_the_picture() -> None:
    # A red strip put beside the top card on a dark table in half the light changes
    # the picture by about 22 (Lab), under the house light's 30 (``changed_delta``):
    # measured on the half-light tuning style, a fan's lower red and green cards showed
    # 0.02-0.04 card faces of new ink, under ``strip_area``.
    layout = TableLayout.default(320, 240, 2)
    cx, cy = (int(v) for v in layout.discard.center)
    table = np.full((240, 320, 3), (25, 30, 40), np.uint8)  # a dark table, half lit
    table[cy - 25 : cy + 25, cx - 17 : cx + 17] = (118, 118, 120)  # the pile's white
    strip = np.s_[cy - 25 : cy + 25, cx - 40 : cx - 20]
    colors = PileColors(layout)
    for i in range(12):
        colors.update(table, i / 30)
    played = table.copy()
    played[strip] = (20, 20, 70)  # red ink, half lit
    pair = np.array([[table[cy, cx - 30], played[cy, cx - 30]]], np.uint8)
    lab = cv2.cvtColor(pair, cv2.COLOR_BGR2LAB).astype(float)
    change = float(np.linalg.norm(lab[0, 0] - lab[0, 1]))
    assert change < PileColors(layout).changed_delta
    colors.update(played, 0.5)
    ink = colors.new_colors((cx, cy), 60, since=0.1, hands=False)
    assert ink is not None
    assert sum(p.area for p in ink if p.color == "red") >= WatcherConfig().strip_area


def test_under_a_warm_lamp_a_yellow_card_on_a_red_one_is_yellow_ink() -> None:
    # covering-warm-dusk-22fps (a tuning style) seed 614, true boxes: Dee's yellow
    # reverse put on Eve's red reverse under a warm lamp was taken for a misreading
    # (no new yellow ink) and the play was lost. The colours are that frame's: a card's
    # white (78, 95, 147), red ink (36, 41, 124), yellow ink (33, 74, 138), whose hue
    # (12) is no ink colour as it comes; with the lamp's tint undone it is yellow.
    layout = TableLayout.default(320, 240, 2)
    cx, cy = (int(v) for v in layout.discard.center)
    white, red, yellow = (78, 95, 147), (36, 41, 124), (33, 74, 138)
    old = np.full((240, 320, 3), (20, 32, 52), np.uint8)  # dark wood in dim warm light
    old[cy - 25 : cy + 25, cx - 17 : cx + 17] = white
    old[cy - 12 : cy + 12, cx - 8 : cx + 8] = red
    new = old.copy()
    new[cy - 19 : cy + 31, cx - 11 : cx + 23] = white  # the yellow card, a little aside
    new[cy - 6 : cy + 18, cx - 2 : cx + 14] = yellow

    def new_ink(colors: PileColors) -> dict[str, float]:
        for i in range(12):
            colors.update(old, i / 30)
        colors.update(new, 0.5)
        ink = colors.new_colors((cx + 6, cy + 6), 15, since=0.1, hands=False)
        assert ink is not None
        return {c: sum(p.area for p in ink if p.color == c) for c in ("red", "yellow")}

    assert new_ink(PileColors(layout))["yellow"] > 0.2
    assert new_ink(PileColors(layout, neutral=False))["yellow"] == 0.0


def test_a_cards_colour_outside_its_box_is_measured_apart_from_the_card() -> None:
    layout = TableLayout.default(320, 240, 2)
    colors = PileColors(layout)
    cx, cy = (int(v) for v in layout.discard.center)
    table = np.full((240, 320, 3), (60, 90, 120), np.uint8)  # brown wood
    red = (40, 40, 220)
    for i in range(12):
        colors.update(table, i / 30)
    single = table.copy()
    single[cy - 25 : cy + 25, cx - 17 : cx + 17] = red  # one red card
    colors.update(single, 0.5)
    box = (cx - 17.0, cy - 25.0, cx + 17.0, cy + 25.0)
    alone = colors.new_ink_outside("red", box, (cx, cy), 60, since=0.1)
    assert alone is not None and alone.area == 0.0
    # Its twin under it, offset to the left: its strip shows outside the top card's box.
    twins = table.copy()
    twins[cy - 25 : cy + 25, cx - 31 : cx + 3] = red
    twins[cy - 25 : cy + 25, cx - 17 : cx + 17] = red
    colors.update(twins, 0.6)
    twin = colors.new_ink_outside("red", box, (cx, cy), 60, since=0.1)
    strip = 14 * 50 / (layout.card_px**2 * CARD_ASPECT)  # its 14 px by 50 px, in card faces
    assert twin is not None and twin.area == pytest.approx(strip, rel=0.35)
    assert twin.xy[0] < cx - 17  # its middle: on the strip, left of the box
    # Another colour, a wild, or no still picture since: none of it there, or nothing to say.
    other = colors.new_ink_outside("yellow", box, (cx, cy), 60, since=0.1)
    assert other is not None and other.area == 0.0
    assert colors.new_ink_outside("wild", box, (cx, cy), 60, since=0.1) is None
    assert colors.new_ink_outside("red", box, (cx, cy), 60, since=5.0) is None


def test_a_card_of_the_old_top_s_colour_under_a_new_one_changes_that_colour_outside_its_box() -> (
    None
):
    layout = TableLayout.default(320, 240, 2)
    colors = PileColors(layout)
    cx, cy = (int(v) for v in layout.discard.center)
    table = np.full((240, 320, 3), (60, 90, 120), np.uint8)  # brown wood
    green, white, red = (60, 160, 40), (235, 235, 235), (40, 40, 220)
    old = table.copy()
    old[cy - 25 : cy + 25, cx - 40 : cx - 6] = green  # the old top, a green card
    old[cy - 12 : cy + 12, cx - 30 : cx - 22] = white  # its oval
    for i in range(12):
        colors.update(old, i / 30)
    box = (cx - 17.0, cy - 25.0, cx + 17.0, cy + 25.0)  # where the new red card lies

    def picture(lower: bool) -> npt.NDArray[np.uint8]:
        new = old.copy()
        if lower:  # a green card of the red one's value under it, its oval elsewhere
            new[cy - 25 : cy + 25, cx - 40 : cx - 6] = green
            new[cy - 12 : cy + 12, cx - 39 : cx - 31] = white
        new[cy - 25 : cy + 25, cx - 17 : cx + 17] = red
        return new

    colors.update(picture(False), 0.5)
    alone = colors.changed_outside("green", box, (cx, cy), 60, since=0.1)
    assert alone is not None and alone.area == 0.0  # a card alone changes only its box
    assert colors.new_colors((cx, cy), 60, since=0.1) is not None
    colors.update(picture(True), 0.6)
    under = colors.changed_outside("green", box, (cx, cy), 60, since=0.1)
    new_green = colors.new_ink_outside("green", box, (cx, cy), 60, since=0.1)
    assert under is not None and new_green is not None
    # Both ovals' places changed; only the old one's is new green.
    assert under.area > 1.5 * new_green.area > 0.0
    assert under.xy[0] < cx - 17  # outside the red card, on the green one
    # The new card's colour changed only inside its box; a wild has no colour; no still
    # picture since then: no answer.
    own = colors.changed_outside("red", box, (cx, cy), 60, since=0.1)
    assert own is not None and own.area == 0.0
    assert colors.changed_outside("wild", box, (cx, cy), 60, since=0.1) is None
    assert colors.changed_outside("green", box, (cx, cy), 60, since=5.0) is None


def _wood_with_a_card(layout: TableLayout) -> npt.NDArray[np.uint8]:
    """A brown wooden table with a red card lying on the pile (white border)."""
    h, w = layout.height, layout.width
    rng = np.random.default_rng(3)
    table = np.full((h, w, 3), (60, 90, 120), np.float32)
    table += rng.normal(0, 6, (h, w, 1)).astype(np.float32)  # grain to line pictures up by
    picture = np.clip(table, 0, 255).astype(np.uint8)
    cx, cy = (int(v) for v in layout.discard.center)
    picture[cy - 40 : cy + 40, cx - 27 : cx + 27] = (235, 235, 235)
    picture[cy - 35 : cy + 35, cx - 22 : cx + 22] = (40, 40, 220)
    return picture


def test_a_camera_shaken_a_sixth_of_a_card_shows_nothing_new() -> None:
    # The shaky styles' cameras move up to 13 px between two pictures at 640 x 480 (a
    # sixth of a card): undone, the pile's edges are not new ink.
    layout = TableLayout.default(640, 480, 2)
    colors = PileColors(layout)
    picture = _wood_with_a_card(layout)
    for i in range(12):
        colors.update(picture, i / 30)
    shift = round(layout.card_px / 6)
    assert shift > 8  # more than the 8 px once taken for the most a camera shakes
    m = np.array([[1, 0, shift], [0, 1, 0]], np.float32)
    shaken = cv2.warpAffine(picture, m, (640, 480), borderMode=cv2.BORDER_REPLICATE)
    colors.update(np.asarray(shaken, np.uint8), 0.5)
    cx, cy = layout.discard.center
    ink = colors.new_colors((cx, cy), 0.9 * layout.card_px, since=0.1)
    assert ink is not None
    assert sum(p.area for p in ink) < 0.02


def test_a_new_cards_blurred_edge_over_a_blue_table_is_no_blue_ink() -> None:
    # A card dropped on the pile, still a little blurred: its white border blends with a
    # blue felt into a lighter blue along its edge; a sliver, not a card's ink.
    layout = TableLayout.default(640, 480, 2)
    colors = PileColors(layout)
    felt = np.full((480, 640, 3), (150, 70, 40), np.uint8)  # blue felt (BGR)
    for i in range(12):
        colors.update(felt, i / 30)
    cx, cy = (int(v) for v in layout.discard.center)
    played = felt.copy()
    played[cy - 38 : cy + 38, cx - 25 : cx + 25] = (235, 235, 235)
    played[cy - 33 : cy + 33, cx - 20 : cx + 20] = (60, 170, 40)  # green ink
    played[cy - 30 : cy + 30, cx - 60 : cx - 48] = (40, 40, 220)  # and a red strip beside
    played[cy - 35 : cy + 35, cx - 64 : cx - 61] = (235, 235, 235)  # its white border
    blurred = cv2.GaussianBlur(played, (9, 9), 2.5)
    colors.update(np.asarray(blurred, np.uint8), 0.5)
    ink = colors.new_colors((cx, cy), 0.9 * layout.card_px, since=0.1, table_slivers=False)
    assert ink is not None
    areas = {p.color: p.area for p in ink}
    assert areas.get("green", 0.0) > 0.2 and areas.get("red", 0.0) > 0.05
    assert areas.get("blue", 0.0) < 0.01
    # Asked of a card's own middle, every speck of its colour counts (a yellow card on
    # a table read yellow changes in specks): the sliver is there.
    every = colors.new_colors((cx, cy), 0.9 * layout.card_px, since=0.1)
    assert every is not None and sum(p.area for p in every if p.color == "blue") > 0.05


def _still_then(layout: TableLayout, picture: npt.NDArray[np.uint8]) -> PileColors:
    """Pile colours that saw the table with a red card on the pile lie still, then
    ``picture``."""
    colors = PileColors(layout)
    for i in range(12):
        colors.update(_wood_with_a_card(layout), i / 30)
    colors.update(picture, 0.5)
    return colors


def test_a_fan_card_slid_to_the_edge_of_the_picture_around_the_pile_is_no_hand() -> None:
    # Plays of three slid far out: the fan's lowest card reaches the edge of the
    # picture the pile colours keep (ZONE_MARGIN), not the wider one a hand comes
    # from (HAND_MARGIN): it is a card, its colour new (random-7022 seed 804).
    layout = TableLayout.default(640, 480, 2)
    card = layout.card_px
    picture = _wood_with_a_card(layout)
    cx, cy = (int(v) for v in layout.discard.center)
    edge = int(layout.discard.y2 + ZONE_MARGIN * card)
    far = int(layout.discard.y2 + HAND_MARGIN * card)
    assert far - edge > 12
    picture[edge - 70 : edge + 8, cx - 30 : cx + 24] = (235, 235, 235)
    picture[edge - 65 : edge + 3, cx - 25 : cx + 19] = (60, 170, 40)  # a green card
    colors = _still_then(layout, picture)
    ink = colors.new_colors((cx, cy), 2.0 * card, since=0.1)
    assert ink is not None
    assert {p.color: p.area for p in ink}.get("green", 0.0) > 0.3
    # Skin read as green ink (a lamp), coming in from the frame's edge, is a hand.
    arm = _wood_with_a_card(layout)
    arm[edge - 40 : layout.height, cx - 20 : cx + 20] = (60, 170, 40)
    colors = _still_then(layout, arm)
    ink = colors.new_colors((cx, cy), 2.0 * card, since=0.1)
    assert ink is not None
    assert sum(p.area for p in ink if p.color == "green") < 0.02


def test_shown_now_leaves_out_that_colour_covered_beside_the_top_card() -> None:
    # Several cards put down together: a blue one beside the red top card covers the
    # old green top. Green showed there, green shows there no more: a change of
    # green, but none that shows green now.
    layout = TableLayout.default(320, 240, 2)
    colors = PileColors(layout)
    cx, cy = (int(v) for v in layout.discard.center)
    old = np.full((240, 320, 3), (60, 90, 120), np.uint8)  # brown wood

    def card(img: npt.NDArray[np.uint8], x1: int, x2: int, ink: tuple[int, int, int]) -> None:
        img[cy - 26 : cy + 26, x1 - 2 : x2 + 2] = (235, 235, 235)  # its white edge
        img[cy - 24 : cy + 24, x1:x2] = ink

    card(old, cx - 40, cx - 6, (60, 160, 40))  # the old top, green
    for i in range(12):
        colors.update(old, i / 30)
    new = old.copy()
    card(new, cx - 44, cx - 20, (200, 120, 20))  # blue, beside ...
    card(new, cx - 16, cx + 18, (40, 40, 220))  # ... the red top card
    for i in range(5):
        colors.update(new, 0.5 + i / 30)
    box = (cx - 18.0, cy - 26.0, cx + 20.0, cy + 26.0)
    # Against the pile as it lay before the cards came.
    kw = {"since": 0.1, "before": 0.45}
    either = colors.changed_outside("green", box, (cx, cy), 60, **kw)
    now = colors.changed_outside("green", box, (cx, cy), 60, shown_now=True, **kw)
    assert either is not None and either.area > 0.5
    assert now is not None and now.area == 0.0


def test_an_arm_read_as_ink_resting_on_the_pile_is_a_hand_in_that_still_picture() -> None:
    # The dealer's arm rests on the starter for two seconds after flipping it; in a
    # warm light its skin reads as yellow ink. That still spell has a hand in it, and
    # the one after it (the arm gone) has none: the red card's edge it hid is no new
    # red when the next card comes (``drop`` held-out 682, opened: Bob's green 2 on
    # the red 2 starter reported as a fan of a red 2 and a green 2).
    layout = TableLayout.default(640, 480, 2)
    cx, cy = (int(v) for v in layout.discard.center)
    pile = _wood_with_a_card(layout)
    armed = pile.copy()
    armed[cy + 10 : cy + 50, cx - 10 : layout.width] = (30, 190, 220)  # yellow-lit arm
    colors = PileColors(layout)
    for i in range(12):
        colors.update(pile, i / 30)  # the pile lies still with no hand in it
    for i in range(24):
        colors.update(armed, 0.5 + i / 30)  # the arm rests on the card for 0.8 s
    for i in range(12):
        colors.update(pile, 1.4 + i / 30)  # the arm gone, the pile lies still again
    assert [hand for _, _, hand, _ in colors._still] == [False, True, False]
    nothing = colors.new_colors((cx, cy), 60, since=0.0)
    assert nothing is not None and [p for p in nothing if p.color == "red"] == []


def _card_at(picture: npt.NDArray[np.uint8], x: int, y: int, ink: tuple[int, int, int]) -> None:
    picture[y - 38 : y + 38, x - 25 : x + 25] = (235, 235, 235)
    picture[y - 33 : y + 33, x - 20 : x + 20] = ink


def test_the_old_top_s_ink_along_a_new_card_s_blurred_edge_is_a_sliver() -> None:
    # A red card dropped on a yellow one, still a little blurred: along its white edge
    # the yellow under it changes and is yellow still, a line of "new" yellow; a yellow
    # card put down beside it is a strip (dusk-drop-cool held-out 710, opened).
    layout = TableLayout.default(640, 480, 2)
    cx, cy = (int(v) for v in layout.discard.center)
    yellow, red = (20, 200, 230), (40, 40, 220)
    still = _wood_with_a_card(layout)
    _card_at(still, cx, cy, yellow)
    found = {}
    for fan in (False, True):
        colors = PileColors(layout)
        for i in range(12):
            colors.update(still, i / 30)
        picture = still.copy()
        if fan:
            _card_at(picture, cx - 30, cy + 4, yellow)
        _card_at(picture, cx + 12, cy - 6, red)
        colors.update(np.asarray(cv2.GaussianBlur(picture, (9, 9), 2.5), np.uint8), 0.5)
        ink = colors.new_colors((cx, cy), 0.9 * layout.card_px, since=0.1, table_slivers=False)
        assert ink is not None
        found[fan] = next(p for p in ink if p.color == "yellow")
    assert found[False].sliver and found[False].area > 0.0
    assert not found[True].sliver and found[True].area > found[False].area
