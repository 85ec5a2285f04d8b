"""The table's layout as JSON: checked, read and written atomically, without ``vision``.

The file is the one ``uno-table calibrate-table`` writes and ``serve --layout`` reads
(:class:`vision.calibration.TableLayout`): the frame's ``width`` and ``height`` in
pixels, the ``discard`` and ``draw`` piles as ``[x1, y1, x2, y2]``, one bearing per
seat in ``seats`` (degrees clockwise from the top of the picture, seen from the
discard pile's centre; in the players' clockwise order), ``card_px`` (a card's long
side) and ``names``. The camera check (``/camera``) moves the zones and seats on the
page and saves them here; other keys of the file (the watcher's ``"watcher"``
settings) are kept.

>>> layout = default_layout(640, 480, ["Ann", "Bob"])
>>> layout["seats"], layout["discard"]
([180.0, 0.0], [247.0, 167.0, 393.0, 313.0])
>>> check_layout(layout, ["Ann", "Bob"]) == layout
True
>>> check_layout({**layout, "seats": [180.0]}, ["Ann", "Bob"])
Traceback (most recent call last):
...
web.layout.LayoutError: 'seats' has 1 bearing(s) for 2 players (Ann, Bob)
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

#: The keys of a layout the page sends (any other is refused by name).
LAYOUT_KEYS: Final = frozenset({"width", "height", "discard", "draw", "seats", "card_px", "names"})
#: Largest frame side taken, in pixels.
MAX_SIDE: Final = 10_000
#: Smallest frame side taken, in pixels.
MIN_SIDE: Final = 16
#: Two seats closer than this (degrees) cannot be told apart.
MIN_SEAT_GAP: Final = 5.0
#: A card's long side, as a fraction of the frame's shorter side, where none is known.
CARD_FRACTION: Final = 0.16


class LayoutError(ValueError):
    """A layout that cannot be used; the message says what is wrong."""


def default_layout(width: int, height: int, players: Sequence[str]) -> dict[str, Any]:
    """The discard pile in the middle, the draw pile beside it, the seats evenly around
    from the bottom edge (seat 0) clockwise: a start for the camera check."""
    n = len(players)
    card = CARD_FRACTION * min(width, height)
    cx, cy = width / 2, height / 2
    seats = [round((180.0 + 360.0 * i / n) % 360.0, 2) for i in range(n)]
    half = 0.95 * card
    discard = [cx - half, cy - half, cx + half, cy + half]
    towards = math.radians(seats[0] + 180.0 / n)  # between seat 0 and seat 1
    dx, dy = math.sin(towards) * 1.75 * card, -math.cos(towards) * 1.75 * card
    small = 0.575 * card
    draw = [cx + dx - small, cy + dy - small, cx + dx + small, cy + dy + small]
    return {
        "width": int(width),
        "height": int(height),
        "discard": [round(v, 1) for v in discard],
        "draw": [
            round(_clamp(v, 0, width if i % 2 == 0 else height), 1) for i, v in enumerate(draw)
        ],
        "seats": seats,
        "card_px": round(card, 2),
        "names": list(players),
    }


def _clamp(v: float, low: float, high: float) -> float:
    return min(max(v, low), high)


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise LayoutError(f"{what} must be a number")
    return float(value)


def _side(body: dict[str, Any], name: str) -> int:
    value = body.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_SIDE <= value <= MAX_SIDE:
        raise LayoutError(f"'{name}' must be a whole number of pixels, {MIN_SIDE} to {MAX_SIDE}")
    return value


def _zone(body: dict[str, Any], name: str, width: int, height: int) -> list[float]:
    value = body.get(name)
    if not isinstance(value, list) or len(value) != 4:
        raise LayoutError(f"'{name}' must be [x1, y1, x2, y2]")
    x1, y1, x2, y2 = (_number(v, f"'{name}'") for v in value)
    if not (x1 < x2 and y1 < y2):
        raise LayoutError(f"'{name}' is empty: it needs x1 < x2 and y1 < y2")
    if x1 < 0 or y1 < 0 or x2 > width or y2 > height:
        raise LayoutError(f"'{name}' {[x1, y1, x2, y2]} is not inside the {width}x{height} frame")
    return [round(v, 1) for v in (x1, y1, x2, y2)]


def _seats(body: dict[str, Any], players: Sequence[str]) -> list[float]:
    value = body.get("seats")
    who = ", ".join(players)
    if not isinstance(value, list):
        raise LayoutError("'seats' must be a list of bearings (degrees)")
    if len(value) != len(players):
        raise LayoutError(f"'seats' has {len(value)} bearing(s) for {len(players)} players ({who})")
    seats = [_number(b, "each seat's bearing") % 360.0 for b in value]
    # Going round clockwise from seat 0, the seats come in the players' order.
    turns = [(b - seats[0]) % 360.0 for b in seats]
    gaps = [b - a for a, b in zip(turns, [*turns[1:], 360.0], strict=True)]
    if any(g < MIN_SEAT_GAP for g in gaps):
        raise LayoutError(
            f"the seats must go round the table clockwise in the players' order ({who}), "
            f"at least {MIN_SEAT_GAP:g} degrees apart"
        )
    return [round(b, 2) for b in seats]


def check_layout(body: Any, players: Sequence[str]) -> dict[str, Any]:
    """The layout ``body`` describes, cleaned, for these players; :class:`LayoutError`
    naming what is wrong otherwise (zones inside the frame, one seat per player)."""
    if not isinstance(body, dict):
        raise LayoutError("a table layout is a JSON object")
    unknown = sorted(set(body) - LAYOUT_KEYS)
    if unknown:
        takes = ", ".join(sorted(LAYOUT_KEYS))
        raise LayoutError(f"a table layout takes no {', '.join(map(repr, unknown))} ({takes})")
    width, height = _side(body, "width"), _side(body, "height")
    discard = _zone(body, "discard", width, height)
    draw = _zone(body, "draw", width, height)
    seats = _seats(body, players)
    card = _number(body.get("card_px", CARD_FRACTION * min(width, height)), "'card_px'")
    if not 0 < card <= max(width, height):
        raise LayoutError("'card_px' must be a card's long side in pixels, inside the frame")
    names = body.get("names", list(players))
    if names != list(players):
        raise LayoutError(f"'names' must be the players in their seats' order: {list(players)}")
    return {
        "width": width,
        "height": height,
        "discard": discard,
        "draw": draw,
        "seats": seats,
        "card_px": round(card, 2),
        "names": list(players),
    }


def load_layout(path: str | Path) -> dict[str, Any] | None:
    """The layout in the file (its layout keys), or None when there is no usable file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    return {k: v for k, v in data.items() if k in LAYOUT_KEYS}


def save_layout(path: str | Path, layout: dict[str, Any]) -> None:
    """Write ``layout`` to ``path`` atomically (a temporary file in the same folder,
    flushed to disk, renamed over it), keeping the file's other keys ("watcher")."""
    target = Path(path)
    kept: dict[str, Any] = {}
    try:
        old = json.loads(target.read_text(encoding="utf-8"))
        if isinstance(old, dict):
            kept = {k: v for k, v in old.items() if k not in LAYOUT_KEYS}
    except (OSError, ValueError):
        pass
    text = json.dumps({**layout, **kept}, indent=2, ensure_ascii=False) + "\n"
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
