"""Table layout: seats by bearing, zones, JSON round trip, proposal from a picture."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from synth.render.cards import render_card, render_table
from vision.calibration import TableLayout, Zone, angle_diff, bearing_of
from vision.detections import Detections


def test_bearings_go_clockwise_from_the_top() -> None:
    assert bearing_of(0, -5) == 0.0
    assert bearing_of(5, 0) == 90.0
    assert bearing_of(0, 5) == 180.0
    assert bearing_of(-5, 0) == 270.0
    assert angle_diff(350, 10) == 20
    assert angle_diff(90, 270) == 180


@pytest.mark.parametrize("n", [2, 3, 4, 6, 10])
def test_default_layout_seats_evenly_clockwise_from_the_bottom(n: int) -> None:
    layout = TableLayout.default(640, 480, n)
    assert len(layout.seats) == n
    assert layout.seats[0] == 180.0
    steps = [(b - a) % 360 for a, b in zip(layout.seats, layout.seats[1:], strict=False)]
    assert all(s == pytest.approx(360 / n) for s in steps)
    # Each seat's own direction maps back to it; the pile itself is no seat.
    for i in range(n):
        assert layout.seat_at(*layout.seat_anchor(i, 0.95)) == i
    assert layout.seat_at(*layout.center) is None
    # The draw pile is beside the discard pile, inside the picture, not on it.
    dx, dy = layout.draw.center
    assert not layout.discard.contains(dx, dy)
    assert 0 < dx < 640 and 0 < dy < 480


def test_seat_at_picks_the_nearest_bearing() -> None:
    layout = TableLayout.default(640, 480, 4).with_seats([170, 260, 350, 80])
    assert layout.seat_at(320, 479) == 0  # straight down: 180, nearest 170
    assert layout.seat_at(639, 200) == 3  # right: 90, nearest 80


def test_json_round_trip_and_scaling(tmp_path: Path) -> None:
    layout = TableLayout.default(640, 480, 3)
    layout = TableLayout(
        640, 480, layout.discard, layout.draw, layout.seats, layout.card_px, ("A", "B", "C")
    )
    p = tmp_path / "sub" / "table.json"
    layout.save(p)
    again = TableLayout.load(p)
    assert again.names == ("A", "B", "C")
    assert again.seats == pytest.approx(layout.seats)
    assert again.discard.as_list() == layout.discard.as_list()
    big = again.scaled(1280, 960)
    assert big.discard.x1 == pytest.approx(2 * again.discard.x1, abs=0.2)
    assert big.card_px == pytest.approx(2 * again.card_px, abs=0.1)
    assert big.seats == again.seats


def test_bad_layout_files_get_clear_errors(tmp_path: Path) -> None:
    p = tmp_path / "t.json"
    p.write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        TableLayout.load(p)
    p.write_text(json.dumps({"width": 640}))
    with pytest.raises(ValueError, match="not a table layout"):
        TableLayout.load(p)
    p.write_text("[1, 2]")
    with pytest.raises(ValueError, match="JSON object"):
        TableLayout.load(p)
    with pytest.raises(ValueError, match="empty zone"):
        Zone(10, 10, 5, 20)
    with pytest.raises(ValueError, match="seats"):
        TableLayout.default(640, 480, 1)


def paste(canvas: np.ndarray, card: np.ndarray, x: int, y: int) -> None:
    h, w = card.shape[:2]
    a = card[..., 3:4].astype(np.float32) / 255
    roi = canvas[y : y + h, x : x + w]
    roi[:] = (roi * (1 - a) + card[..., :3] * a).astype(np.uint8)


def test_proposal_finds_both_piles_in_a_picture() -> None:
    rng = np.random.default_rng(5)
    frame = render_table(480, 640, rng, kind="felt")
    paste(frame, render_card("back", width=52), 120, 80)  # draw pile, top left
    paste(frame, render_card("red-7", width=52), 360, 250)  # discard pile
    layout = TableLayout.propose(frame, 4)
    assert layout.draw.contains(146, 119)
    assert layout.discard.contains(386, 289)
    assert not layout.discard.contains(146, 119)


def test_proposal_from_detections() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    dets = Detections.from_list(
        [("back", 0.9, (100, 100, 150, 176)), ("green-2", 0.9, (400, 300, 450, 376))]
    )
    layout = TableLayout.propose(frame, 3, dets)
    assert layout.discard.contains(425, 338) and layout.draw.contains(125, 138)
    assert layout.card_px == pytest.approx(76)
    assert len(layout.seats) == 3
