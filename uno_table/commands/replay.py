"""replay: run the vision pipeline and the tracker over a video file, without a server.

Prints the events the watcher derives from the video and the tracker's verdict for
each. With --truth (a ground-truth event log with times, as `uno-table render-video`
writes), also prints precision and recall of play, draw and undo events, seat
attribution accuracy and the latency from a card coming to rest to its event.

  uno-table replay game.mp4 --json
  uno-table replay game.mp4 --json --truth game.mp4.truth.jsonl --oracle

The table layout is --layout, else VIDEO.layout.json next to the video, else one
proposed from the first frame. --oracle reads VIDEO.boxes.jsonl (rendered videos
only) instead of running the trained recogniser: it measures the watcher alone.

Arms reaching in from the table's edge are looked for in every frame (the seat of
a card a hand covered, a draw never seen); --no-arms leaves them out (as does a
table file's `"watcher": {"arm_every": 0}`).

Events the camera missed are inferred by the tracker's healer (printed as `inf`,
`"source": "inferred"` in --json; docs/healing.md); --no-heal replays with the bare
tracker, for comparison.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from uno_table.commands.referee import add_rule_arguments, rules_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", help="a video file OpenCV can read")
    parser.add_argument("--json", action="store_true", help="JSON Lines output")
    parser.add_argument("--truth", help="ground-truth event log (JSON Lines with t) to score")
    parser.add_argument("--layout", help="table layout JSON (uno-table calibrate-table)")
    parser.add_argument("--players", help="comma-separated names, clockwise")
    add_rule_arguments(parser)
    parser.add_argument(
        "--oracle",
        action="store_true",
        help="use the renderer's true boxes (VIDEO.boxes.jsonl) instead of the model",
    )
    parser.add_argument(
        "--realtime",
        action="store_true",
        help="play at the video's frame rate, dropping frames the pipeline cannot keep up with",
    )
    parser.add_argument(
        "--referee-from-truth",
        action="store_true",
        help="apply the truth log's rulings (colors, passes, UNO calls) as a referee would",
    )
    parser.add_argument(
        "--skip-static", action="store_true", help="reuse detections while the table is still"
    )
    parser.add_argument("--models", help="folder of the recogniser's weights (default models/)")
    parser.add_argument(
        "--no-arms",
        action="store_true",
        help="do not look for arms reaching in (the seat of a covered card, a hidden draw)",
    )
    parser.add_argument(
        "--no-heal",
        action="store_true",
        help="the bare tracker: no events inferred for what the camera missed (docs/healing.md)",
    )
    parser.add_argument(
        "--drop-event",
        type=int,
        action="append",
        metavar="N",
        help="inject a miss: the camera's Nth event (from 0) is not sent (repeatable)",
    )


def _fail(msg: str) -> int:
    print(f"uno-table replay: {msg}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from uno_table.replay import load_log, replay_video, score
    from uno_table.session import choose_layout
    from vision.calibration import TableLayout
    from vision.source import read_video
    from vision.watcher_config import WatcherConfig

    try:
        rules = rules_of(args)
    except ValueError as exc:
        return _fail(str(exc))
    video = Path(args.video)
    if not video.is_file():
        return _fail(f"no such video file: {video}")
    truth: list[dict[str, Any]] | None = None
    if args.referee_from_truth and not args.truth:
        return _fail("--referee-from-truth needs --truth")
    if args.truth:
        try:
            truth = load_log(args.truth)
        except (OSError, ValueError) as exc:
            return _fail(f"cannot read the truth log: {exc}")
    round_event = next((e for e in truth or [] if e.get("type") == "round"), None)
    players: list[str] = []
    if args.players:
        players = [p.strip() for p in args.players.split(",") if p.strip()]
    elif round_event:
        players = [str(p) for p in round_event["players"]]
    layout_path = Path(args.layout) if args.layout else video.with_name(video.name + ".layout.json")
    layout = None
    watcher_config = None
    if layout_path.exists():
        try:
            layout = TableLayout.load(layout_path)
            watcher_config = WatcherConfig.load(layout_path)
        except (OSError, ValueError) as exc:
            return _fail(f"cannot read the table layout: {exc}")
        if not players and layout.names:
            players = list(layout.names)
    elif args.layout:
        return _fail(f"no such layout file: {layout_path}")
    if not players:
        players = ["P1", "P2", "P3", "P4"]
    if len(set(players)) != len(players) or len(players) < 2:
        return _fail(f"need 2 or more distinct player names, got {players}")

    if args.oracle:
        from synth.video import OracleDetector

        boxes = video.with_name(video.name + ".boxes.jsonl")
        if not boxes.exists():
            return _fail(f"--oracle needs {boxes} (only rendered videos have one)")
        recognizer: Any = OracleDetector(boxes)
    else:
        try:
            from vision.detector import CardRecognizer

            recognizer = CardRecognizer.load(args.models)
        except Exception as exc:  # no model committed yet, or a broken file
            return _fail(f"the card recogniser is not available ({exc}); try --oracle")

    try:
        first = next(iter(read_video(video)))
    except (OSError, ValueError) as exc:
        return _fail(str(exc))
    dets = None if layout is not None or args.oracle else recognizer.detect(first.image)
    layout = choose_layout(first.image, len(players), layout, dets)
    if len(layout.seats) != len(players):
        return _fail(
            f"the layout has {len(layout.seats)} seats but there are {len(players)} players"
        )

    def emit(rec: dict[str, Any]) -> None:
        if args.realtime:
            return  # printed at the end, once stamped
        _print(rec, args.json)

    try:
        result = replay_video(
            video,
            players=players,
            layout=layout,
            recognizer=recognizer,
            rules=rules,
            round_event=round_event,
            realtime=args.realtime,
            skip_static=args.skip_static,
            arms=not args.no_arms,
            watcher_config=watcher_config,
            referee=truth if args.referee_from_truth else None,
            on_record=emit,
            heal=not args.no_heal,
            drop=set(args.drop_event or []),
        )
    except ValueError as exc:
        return _fail(str(exc))
    if args.realtime:
        for rec in result.records:
            _print(rec, args.json)
    tail: dict[str, Any] = {"summary": result.summary()}
    if truth is not None:
        tail["metrics"] = score(result.records, truth)
    if args.json:
        print(json.dumps(tail), flush=True)
    else:
        print(json.dumps(tail, indent=2))
    return 0


def _print(rec: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(rec), flush=True)
        return
    ev = rec["event"]
    v = rec.get("verdict") or {}
    what = " ".join(f"{k}={val}" for k, val in ev.items() if k != "type")
    alerts = "; ".join(a.get("message", a.get("code", "")) for a in v.get("alerts", []))
    mark = "-- " if rec.get("applied") is False else "ok " if v.get("ok") else "NO "
    if rec.get("dropped"):
        mark = "xx "  # an injected miss
    if rec.get("source") == "inferred":
        mark = "inf" if v.get("ok") else "iNO"  # an event the camera missed, inferred
    print(f"{rec['t']:8.2f}s  {mark} {ev['type']:<6} {what}  {alerts}".rstrip(), flush=True)
