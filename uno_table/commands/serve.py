"""serve: not built yet (see the open issues)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rest", nargs="*", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    print("uno-table serve: this command is not built yet.", file=sys.stderr)
    return 2
