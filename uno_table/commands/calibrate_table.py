"""calibrate-table: find the discard pile, the draw pile and the seats; save them as JSON.

Takes one frame from the camera, file or stream, proposes a layout (the piles found
in the picture, seats spread evenly clockwise from the bottom edge), applies what
you give on the command line, saves the layout and a preview picture to check it.

  uno-table calibrate-table --source 0 --players Ann,Bob,Cy,Dee --out table.json
  uno-table calibrate-table --edit table.json --bearings 170,260,350,80 --out table.json

Zones are x1,y1,x2,y2 in pixels; bearings are degrees clockwise from the top of
the picture, seen from the discard pile, one per player in clockwise order.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", help="camera index, video file or URL to look at")
    parser.add_argument("--edit", help="start from this layout JSON instead of a proposal")
    parser.add_argument("--out", required=True, help="where to save the layout JSON")
    parser.add_argument("--players", help="comma-separated names, clockwise")
    parser.add_argument("--seats", type=int, help="number of seats (default: from --players, or 4)")
    parser.add_argument("--discard", help="discard pile zone x1,y1,x2,y2")
    parser.add_argument("--draw", help="draw pile zone x1,y1,x2,y2")
    parser.add_argument("--bearings", help="seat bearings in degrees, clockwise order")
    parser.add_argument("--preview", help="preview image (default: OUT with .png)")
    parser.add_argument(
        "--use-model", action="store_true", help="find the piles with the card recogniser"
    )


def _floats(text: str, n: int | None, what: str) -> list[float]:
    try:
        vals = [float(v) for v in text.split(",") if v.strip()]
    except ValueError as exc:
        raise ValueError(f"{what}: numbers separated by commas, got {text!r}") from exc
    if n is not None and len(vals) != n:
        raise ValueError(f"{what}: {n} numbers, got {len(vals)}")
    return vals


def grab_frame(spec: str, timeout: float = 10.0) -> Any:
    """One frame from a camera, file or URL (raises ``RuntimeError`` if none comes)."""
    from vision.source import open_source

    src = open_source(spec, realtime=False)
    src.start()
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            f = src.next_frame(timeout=0.5)
            if f is not None:
                return f.image
            if src.ended:
                break
        raise RuntimeError(f"no frame from {spec}: {src.status()['error'] or 'timed out'}")
    finally:
        src.stop()


def run(args: argparse.Namespace) -> int:
    import dataclasses

    from vision.calibration import TableLayout, Zone
    from vision.watcher_config import WatcherConfig

    try:
        names = [p.strip() for p in args.players.split(",")] if args.players else []
        n = args.seats or len(names) or 4
        frame = grab_frame(args.source) if args.source else None
        kept = None  # the watcher's settings in the edited file, kept as they are
        if args.edit:
            layout = TableLayout.load(args.edit)
            WatcherConfig.load(args.edit)  # a bad setting is an error now, not at the table
            kept = json.loads(Path(args.edit).read_text()).get("watcher")
        elif frame is not None:
            dets = None
            if args.use_model:
                from vision.detector import CardRecognizer

                dets = CardRecognizer.load().detect(frame)
            layout = TableLayout.propose(frame, n, dets)
        else:
            raise ValueError("give --source to look at the table, or --edit LAYOUT")
        if args.discard:
            layout = dataclasses.replace(
                layout, discard=Zone(*_floats(args.discard, 4, "--discard"))
            )
        if args.draw:
            layout = dataclasses.replace(layout, draw=Zone(*_floats(args.draw, 4, "--draw")))
        if args.bearings:
            layout = layout.with_seats(_floats(args.bearings, None, "--bearings"))
        if names:
            if len(names) != len(layout.seats):
                raise ValueError(f"{len(names)} players but {len(layout.seats)} seats")
            layout = dataclasses.replace(layout, names=tuple(names))
        layout.save(args.out)
        if kept:
            saved = json.loads(Path(args.out).read_text())
            Path(args.out).write_text(json.dumps({**saved, "watcher": kept}, indent=2) + "\n")
        preview = Path(args.preview or Path(args.out).with_suffix(".png"))
        if frame is not None:
            _draw_preview(frame, layout, preview)
            print(f"preview: {preview}")
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"uno-table calibrate-table: {exc}", file=sys.stderr)
        return 2
    print(f"layout saved: {args.out}")
    return 0


def _draw_preview(frame: Any, layout: Any, path: Path) -> None:
    import cv2

    img = frame.copy()
    for zone, color, label in (
        (layout.discard, (0, 200, 255), "discard"),
        (layout.draw, (255, 120, 0), "draw"),
    ):
        p1, p2 = (int(zone.x1), int(zone.y1)), (int(zone.x2), int(zone.y2))
        cv2.rectangle(img, p1, p2, color, 2)
        cv2.putText(img, label, (p1[0], p1[1] - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.5, color, 1)
    cx, cy = layout.center
    for i, _b in enumerate(layout.seats):
        x, y = layout.seat_anchor(i, 0.92)
        cv2.line(img, (int(cx), int(cy)), (int(x), int(y)), (80, 255, 80), 1)
        name = layout.names[i] if i < len(layout.names) else f"seat {i}"
        cv2.putText(
            img, name, (int(x) - 20, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (80, 255, 80), 2
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)
