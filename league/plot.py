"""The rating history as an inline SVG line chart, drawn on the server (no script needed).

>>> svg = history_svg({"Ann": [(1, 0.0), (2, 1.5)], "Bob": [(1, 0.0), (2, -1.0)]})
>>> svg.startswith("<svg") and svg.count("<polyline") == 2
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Final

WIDTH: Final = 640
HEIGHT: Final = 260
MARGIN: Final = 36
PALETTE: Final = (
    "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd",
    "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
)  # fmt: skip


def history_svg(series: Mapping[str, Sequence[tuple[int, float]]], title: str = "") -> str:
    """One line per player: x the round of the evening, y the rating."""
    points = [pt for line in series.values() for pt in line]
    if not points:
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="40"></svg>'
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1.0)

    def sx(x: float) -> float:
        return MARGIN + (x - x0) / (x1 - x0) * (WIDTH - 2 * MARGIN)

    def sy(y: float) -> float:
        return HEIGHT - MARGIN - (y - y0) / (y1 - y0) * (HEIGHT - 2 * MARGIN)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-plot" role="img"'
        f' viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">',
        f"<title>{escape(title or 'rating history')}</title>",
        f'<line x1="{MARGIN}" y1="{HEIGHT - MARGIN}" x2="{WIDTH - MARGIN}"'
        f' y2="{HEIGHT - MARGIN}" stroke="#888"/>',
        f'<line x1="{MARGIN}" y1="{MARGIN}" x2="{MARGIN}" y2="{HEIGHT - MARGIN}" stroke="#888"/>',
        f'<text x="4" y="{MARGIN}" font-size="11">{y1:.1f}</text>',
        f'<text x="4" y="{HEIGHT - MARGIN}" font-size="11">{y0:.1f}</text>',
        f'<text x="{WIDTH - MARGIN}" y="{HEIGHT - 8}" font-size="11"'
        f' text-anchor="end">round {x1}</text>',
    ]
    for i, (player, line) in enumerate(series.items()):
        color = PALETTE[i % len(PALETTE)]
        coords = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in line)
        parts.append(
            f'<polyline data-player="{escape(player)}" fill="none" stroke="{color}"'
            f' stroke-width="2" points="{coords}"/>'
        )
        lx, ly = line[-1]
        parts.append(
            f'<text x="{min(sx(lx) + 4, WIDTH - 4):.1f}" y="{sy(ly):.1f}" font-size="11"'
            f' fill="{color}">{escape(player)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
