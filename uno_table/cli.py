"""``uno-table``: one console script, a subcommand per module of :mod:`uno_table.commands`.

Each command module has a docstring (its one-line help is the first line), an
``add_arguments(parser)`` and a ``run(args) -> int``. Heavy imports (torch, OpenCV,
Flask) live inside ``run`` so that ``uno-table referee`` starts in milliseconds.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Order shown by --help: the two that run the assistant first.
COMMANDS: dict[str, str] = {
    "demo": "uno_table.commands.demo",
    "serve": "uno_table.commands.serve",
    "detect": "uno_table.commands.detect",
    "referee": "uno_table.commands.referee",
    "replay": "uno_table.commands.replay",
    "train": "uno_table.commands.train",
    "calibrate-deck": "uno_table.commands.calibrate_deck",
    "calibrate-table": "uno_table.commands.calibrate_table",
    "render-video": "uno_table.commands.render_video",
    "league": "uno_table.commands.league",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="uno-table",
        description="A referee's assistant for UNO played with real cards on a real table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        doc = (module.__doc__ or "").strip()
        summary = doc.splitlines()[0] if doc else name
        cmd = sub.add_parser(
            name,
            help=summary,
            description=doc,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(cmd)
        cmd.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
