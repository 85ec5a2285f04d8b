"""The table watcher per video style: tuning styles and held-out styles apart.

    python benchmarks/bench_styles.py                  # true boxes (the oracle), ~10 min
    python benchmarks/bench_styles.py --styles covering-hand,drop --videos 1
    python benchmarks/bench_styles.py --model-videos 1 # also the trained recogniser (slow)
    python benchmarks/bench_styles.py --model-only --model-videos 1 --styles drop  # only it

Renders (once, into the git-ignored .cache/bench-styles/) the same legal games
(the tracker's simulator, house rules, seeds 601, 602, ...: 4 and 5 players, a few
take-backs) in every style of ``synth.styles.STYLES``, replays each through
recogniser -> watcher -> tracker with the referee's rulings from the truth (as
``bench_watcher.py`` does), and reports per style plays, draws and take-backs
(precision / recall), seats and latency, then pooled over the tuning styles and
over the held-out styles (``synth.styles.TUNING_STYLES``, ``HELD_OUT_STYLES``), the
held-out styles also as the four of the first styles (``OLD_HELD_OUT_STYLES``) and
the three defined on 2 December 2026 (``NEW_HELD_OUT_STYLES``), the two defined
after the fourth pass (``FOURTH_HELD_OUT_STYLES``), the two after the fifth
(``FIFTH_HELD_OUT_STYLES``), the two after the seventh (``SIXTH_HELD_OUT_STYLES``,
the sixth group), the two after the eighth (``SEVENTH_HELD_OUT_STYLES``) and one
after the arms were made to see in dim light (``EIGHTH_HELD_OUT_STYLES``). The watcher's
thresholds may be tuned on the tuning styles only.

The recogniser is the oracle (the renderer's true boxes, 2% dropped, 1% wrong
labels, box jitter; cards less than 40% uncovered unseen), and with
``--model-videos N`` also the trained recogniser on the first N videos per style.

The runs look for arms as the runtime does (``vision.hands.ArmWatch``, fed every
frame by the pipeline and lent to the watcher: the seat of a covered card, a draw
never seen). With ``--no-arms STYLES`` (default ``covering-hand``) the oracle runs
on those styles are repeated without arms (``replay --no-arms``), and the seats
and draws compared.

Prints a markdown table and writes the figures to docs/watcher-styles.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_watcher import alerts_raised, pooled, refused, run, write_figures  # noqa: E402
from synth.styles import (  # noqa: E402
    EIGHTH_HELD_OUT_STYLES,
    FIFTH_HELD_OUT_STYLES,
    FOURTH_HELD_OUT_STYLES,
    HELD_OUT_STYLES,
    NEW_HELD_OUT_STYLES,
    OLD_HELD_OUT_STYLES,
    RANDOM_PREFIX,
    SEVENTH_HELD_OUT_STYLES,
    SIXTH_HELD_OUT_STYLES,
    STYLES,
    TUNING_STYLES,
)
from synth.video import DEMO_VERSION, OracleDetector, render_video, simulated_game  # noqa: E402

CACHE = ROOT / ".cache" / "bench-styles"
FIRST_SEED = 601
GROUPS = (
    ("tuning", TUNING_STYLES),
    ("held out", HELD_OUT_STYLES),
    ("old held out", OLD_HELD_OUT_STYLES),
    ("new held out", NEW_HELD_OUT_STYLES),
    ("fourth held out", FOURTH_HELD_OUT_STYLES),
    ("fifth held out", FIFTH_HELD_OUT_STYLES),
    ("sixth held out", SIXTH_HELD_OUT_STYLES),
    ("seventh held out", SEVENTH_HELD_OUT_STYLES),
    ("eighth held out", EIGHTH_HELD_OUT_STYLES),
)


def game_for(seed: int, turns: int) -> list[dict[str, Any]]:
    """The legal game a video of ``seed`` acts out (3-5 players by the seed)."""
    return simulated_game(seed, players=3 + seed % 3, turns=turns, retract_prob=0.08)


def seeds_with_plays_of(cards: int, n: int, turns: int) -> list[int]:
    """The first ``n`` seeds from :data:`FIRST_SEED` whose game has a play of ``cards``
    cards or more (the simulator lays every card of the value a hand holds, now and
    then: few games of 12 turns do)."""
    out: list[int] = []
    seed = FIRST_SEED
    while len(out) < n:
        plays = [e for e in game_for(seed, turns) if e["type"] == "play"]
        if any(len(e.get("cards", ())) >= cards for e in plays):
            out.append(seed)
        seed += 1
    return out


def video_for(style: str, seed: int, turns: int) -> Path:
    path = CACHE / f"v{DEMO_VERSION}-{style}-s{seed}-t{turns}.mp4"
    if not path.with_name(path.name + ".layout.json").exists():
        log = game_for(seed, turns)
        players = len(log[0]["players"])
        t0 = time.perf_counter()
        res = render_video(log, path, seed=seed, style=style)
        print(
            f"  rendered {style} seed {seed}: {players} players, {res.frames} frames "
            f"in {time.perf_counter() - t0:.0f} s",
            flush=True,
        )
    return path


def figures(runs: list[tuple[Any, list[dict[str, Any]]]]) -> dict[str, Any]:
    m = pooled(runs)
    return {
        "play": m["play"],
        "draw": m["draw"],
        "undo": m["undo"],
        "seat_accuracy": m["seat_accuracy"],
        "seats": m["seats"],
        "latency_ms": m["latency_ms"],
        "refused_by_tracker": refused(runs),
        "alerts": sum(alerts_raised(res.records) for res, _ in runs),
    }


def row(name: str, f: dict[str, Any]) -> str:
    def pr(k: str) -> str:
        return f"{f[k]['precision'] * 100:.1f} / {f[k]['recall'] * 100:.1f} (n={f[k]['truth']})"

    return (
        f"| {name} | {pr('play')} | {f['seat_accuracy'] * 100:.1f} (n={f['seats']['n']}) "
        f"| {pr('draw')} | {pr('undo')} | {f['latency_ms']['median']:.0f} "
        f"| {f['refused_by_tracker']} | {f['alerts']} |"
    )


def row_seats(f: dict[str, Any]) -> str:
    return (
        f"seats {f['seat_accuracy'] * 100:.1f}% (n={f['seats']['n']}), plays "
        f"{f['play']['precision'] * 100:.1f} / {f['play']['recall'] * 100:.1f}%, draws "
        f"{f['draw']['precision'] * 100:.1f} / {f['draw']['recall'] * 100:.1f}%"
    )


def markdown(out: dict[str, Any], key: str) -> str:
    lines = [
        "| style | plays P / R % | seats % | draws P / R % | take-backs P / R % "
        "| latency median ms | refused | alerts (all false) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for group, names in (
        ("tuning", TUNING_STYLES),
        ("old held out", OLD_HELD_OUT_STYLES),
        ("new held out", NEW_HELD_OUT_STYLES),
        ("fourth held out", FOURTH_HELD_OUT_STYLES),
        ("fifth held out", FIFTH_HELD_OUT_STYLES),
        ("sixth held out", SIXTH_HELD_OUT_STYLES),
        ("seventh held out", SEVENTH_HELD_OUT_STYLES),
        ("eighth held out", EIGHTH_HELD_OUT_STYLES),
    ):
        for name in names:
            if name in out[key]["styles"]:
                lines.append(row(f"{name} ({group})", out[key]["styles"][name]))
        if group in out[key]["groups"]:
            lines.append(row(f"**all {group} styles**", out[key]["groups"][group]))
    if "held out" in out[key]["groups"]:
        lines.append(row("**all held out styles**", out[key]["groups"]["held out"]))
    return "\n".join(lines)


def style_names(spec: str, tuning: Any, held_out: Any) -> list[str]:
    """The styles ``--styles`` names: names, ``tuning``, ``held-out``, or
    ``random:A-B`` (the randomised styles ``random-A`` to ``random-B``).

    >>> style_names("house,random:7001-7003", ["house"], [])
    ['house', 'random-7001', 'random-7002', 'random-7003']
    >>> style_names("tuning", ["house", "slide"], ["dark"])
    ['house', 'slide']
    """
    names: list[str] = []
    for s in spec.split(","):
        if s.startswith("random:"):
            lo, _, hi = s[len("random:") :].partition("-")
            names += [f"{RANDOM_PREFIX}{k}" for k in range(int(lo), int(hi or lo) + 1)]
        else:
            names += list({"tuning": tuning, "held-out": held_out}.get(s, [s]))
    return names


def measure(
    videos: dict[str, list[Path]],
    make: Any,
    n: int | None = None,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    per: dict[str, list[tuple[Any, list[dict[str, Any]]]]] = {}
    for style, paths in videos.items():
        per[style] = [run(v, make(v), settings=settings) for v in paths[:n]]
        print(row(style, figures(per[style])), flush=True)
    groups = {}
    randomised = [s for s in per if s.startswith(RANDOM_PREFIX)]
    for group, names in [*GROUPS, ("randomised (tuning span)", randomised)]:
        runs = [r for s in names if s in per for r in per[s]]
        if runs:
            groups[group] = figures(runs)
    return {"styles": {s: figures(r) for s, r in per.items()}, "groups": groups}


def without_arms(videos: dict[str, list[Path]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for style, paths in videos.items():
        runs = [run(v, OracleDetector(str(v) + ".boxes.jsonl", seed=7), arms=False) for v in paths]
        out[style] = figures(runs)
        print(row(f"{style} without arms", out[style]), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--styles",
        default=",".join(STYLES),
        help="comma-separated style names, 'tuning', 'held-out', 'random:A-B'",
    )
    ap.add_argument("--videos", type=int, default=2, help="videos (games) per style")
    ap.add_argument(
        "--seeds",
        default="",
        help="comma-separated game seeds, in place of --videos",
    )
    ap.add_argument(
        "--find-seeds",
        type=int,
        default=0,
        help="print the first N seeds from 601 whose game plays three cards or more at "
        "once, and stop",
    )
    ap.add_argument("--turns", type=int, default=12, help="plays and draws per video")
    ap.add_argument("--model-videos", type=int, default=0, help="trained recogniser: videos/style")
    ap.add_argument("--no-arms", default="covering-hand", help="styles to replay without arms too")
    ap.add_argument(
        "--model-only", action="store_true", help="the trained recogniser only (no oracle runs)"
    )
    ap.add_argument("--out", default=str(ROOT / "docs" / "watcher-styles.json"))
    ap.add_argument("--set", default="{}", help="watcher settings changed, as JSON (sweeps)")
    args = ap.parse_args(argv)
    settings = json.loads(args.set)
    styles = style_names(args.styles, TUNING_STYLES, HELD_OUT_STYLES)
    unknown = [s for s in styles if s not in STYLES and not s.startswith(RANDOM_PREFIX)]
    if unknown:
        ap.error(f"no such style: {', '.join(unknown)} (the styles: {', '.join(STYLES)})")
    if args.find_seeds:
        print(",".join(str(s) for s in seeds_with_plays_of(3, args.find_seeds, args.turns)))
        return 0
    seeds = [int(x) for x in args.seeds.split(",") if x.strip()] or [
        FIRST_SEED + i for i in range(args.videos)
    ]
    print(f"rendering/reusing {len(styles)} x {len(seeds)} videos in {CACHE}", flush=True)
    videos = {s: [video_for(s, seed, args.turns) for seed in seeds] for s in styles}
    out: dict[str, Any] = {
        "seeds": seeds,
        "turns": args.turns,
        "tuning_styles": list(TUNING_STYLES),
        "held_out_styles": list(HELD_OUT_STYLES),
        "old_held_out_styles": list(OLD_HELD_OUT_STYLES),
        "new_held_out_styles": list(NEW_HELD_OUT_STYLES),
        "fourth_held_out_styles": list(FOURTH_HELD_OUT_STYLES),
    }
    if not args.model_only:
        out["oracle"] = measure(
            videos, lambda v: OracleDetector(str(v) + ".boxes.jsonl", seed=7), settings=settings
        )
        print("\ntrue boxes (the oracle):\n" + markdown(out, "oracle"), flush=True)
    bare_styles = [s for s in args.no_arms.split(",") if s in videos and not args.model_only]
    if bare_styles:
        out["oracle_no_arms"] = without_arms({s: videos[s] for s in bare_styles})
        print("\narms as evidence (true boxes):")
        for s in bare_styles:
            bare, armed = out["oracle_no_arms"][s], out["oracle"]["styles"][s]
            print(
                f"| {s} | without arms: {row_seats(bare)} | with arms: {row_seats(armed)} |",
                flush=True,
            )
    if args.model_videos > 0:
        from vision.detector import CardRecognizer

        rec = CardRecognizer.load()
        out["model"] = measure(videos, lambda v: rec, args.model_videos)
        print("\ntrained recogniser:\n" + markdown(out, "model"), flush=True)
    write_figures(out, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
