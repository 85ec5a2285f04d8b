"""render-video: render a synthetic game video with its ground-truth event log.

A legal game from the tracker's simulator (or the event log given with --log) is
acted out on a rendered table seen from above: hands bring cards in from the
seats, draws, retractions, hands passing over, camera noise, lighting changes and
shake. Writes OUT (mp4v) and, next to it, OUT.truth.jsonl (events with times),
OUT.boxes.jsonl (true card boxes per frame) and OUT.layout.json (the table).

  uno-table render-video game.mp4 --seed 7 --turns 40
  uno-table render-video game.mp4 --style covering-hand   # docs/watcher.md: the styles
  uno-table replay game.mp4 --truth game.mp4.truth.jsonl --oracle
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", help="the video file to write (.mp4)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (game and scene)")
    parser.add_argument("--turns", type=int, default=40, help="plays and draws to act out")
    parser.add_argument("--players", type=int, default=4, help="number of players (2-10)")
    parser.add_argument("--rules", default="house", help="rule preset of the simulated game")
    parser.add_argument("--log", help="act out this event log (JSON Lines) instead")
    parser.add_argument("--retract-prob", type=float, default=0.06, help="chance of a take-back")
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    parser.add_argument("--fps", type=float, default=30.0, help="unless the style sets it")
    parser.add_argument(
        "--style",
        default="house",
        help="the video's look (synth.styles.STYLES): house (default), covering-hand, slide, "
        "drop, webcam-15fps, high-tilted, dim-warm, messy-pile, player-speeds",
    )


def run(args: argparse.Namespace) -> int:
    from synth.video import render_video, simulated_game
    from uno_table.replay import load_log

    try:
        if args.log:
            log = [
                {k: v for k, v in e.items() if k not in ("t", "expect")} for e in load_log(args.log)
            ]
        else:
            if not 2 <= args.players <= 10:
                raise ValueError(f"2 to 10 players, not {args.players}")
            log = simulated_game(
                args.seed, args.players, args.rules, args.turns, retract_prob=args.retract_prob
            )
        res = render_video(
            log,
            args.out,
            seed=args.seed,
            width=args.width,
            height=args.height,
            fps=args.fps,
            style=args.style,
        )
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"uno-table render-video: {exc}", file=sys.stderr)
        return 2
    print(
        json.dumps(
            {
                "video": str(res.path),
                "truth": str(res.truth_path),
                "boxes": str(res.boxes_path),
                "layout": str(res.layout_path),
                "players": res.players,
                "style": args.style,
                "frames": res.frames,
                "seconds": round(res.frames / res.fps, 2),
            }
        )
    )
    return 0
