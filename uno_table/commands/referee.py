"""referee: judge an event log (JSON Lines) and print one verdict per line.

Reads FILE (or standard input when FILE is absent or '-'), one event per line, and
prints exactly one verdict per input line as JSON Lines, in the same order. A line
that is not JSON, or an event the tracker cannot apply, gets a `bad-event` verdict
and the log carries on. The exit status is 0 unless the input cannot be read.

Examples:
  uno-table referee --rules official game.jsonl
  uno-table referee --rules house --set jump_in=false < game.jsonl
  python -m tracker.simulate --seed 1 | uno-table referee --rules official
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default="official",
        metavar="PRESET",
        help="rule preset: official, house or youlerren (default: official)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="TOGGLE=VALUE",
        dest="toggles",
        help="change one toggle of the preset, e.g. --set stack_draw2_on_draw2=true "
        "(repeatable; see docs/rules.md)",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "zh"),
        default="en",
        help="language of each alert's 'message' (both are always in 'messages')",
    )
    parser.add_argument("file", nargs="?", default="-", metavar="FILE", help="event log")


def run(args: argparse.Namespace) -> int:
    from tracker import Game, RuleError, UnknownPresetError, preset

    try:
        rules = preset(args.rules)
        for assignment in args.toggles:
            rules = rules.with_text(assignment)
    except (UnknownPresetError, RuleError) as error:
        print(f"uno-table referee: {error}", file=sys.stderr)
        return 2
    try:
        source = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")  # noqa: SIM115
    except OSError as error:
        print(f"uno-table referee: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2

    game = Game(rules)
    apply_json = game.apply_json
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    write = sys.stdout.write
    language = args.lang
    try:
        with source:
            for raw in source:
                write(apply_json(raw).dumps(language))
                write("\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return 0
    except OSError as error:
        print(f"uno-table referee: reading {args.file} failed: {error}", file=sys.stderr)
        return 2
    return 0
