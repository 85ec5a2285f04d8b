"""Write the generated rules table into the documents that carry a copy of it.

``README.md`` and ``docs/rules.md`` hold :func:`tracker.rules.toggle_table` between the
markers ``<!-- rules-table:start -->`` and ``<!-- rules-table:end -->``; after a change
to a toggle or a preset, run from the repository root::

    python -m tracker.tables            # rewrites the tables in place
    python -m tracker.tables --check    # exit status 1 when a copy is out of date

>>> replace_between("a <!-- rules-table:start -->old<!-- rules-table:end --> b", "new\\n")
'a <!-- rules-table:start -->\\nnew\\n<!-- rules-table:end --> b'
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from tracker.rules import toggle_table

START: Final = "<!-- rules-table:start -->"
END: Final = "<!-- rules-table:end -->"
DOCUMENTS: Final = ("README.md", "docs/rules.md")


def replace_between(text: str, table: str) -> str:
    """``text`` with whatever lies between the markers replaced by ``table``."""
    if START not in text or END not in text:
        raise ValueError(f"the markers {START} and {END} are missing")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{table}{END}{tail}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tracker.tables", description=__doc__)
    parser.add_argument("--root", default=".", help="repository root (default: .)")
    parser.add_argument("--check", action="store_true", help="only say whether copies are current")
    args = parser.parse_args(argv)
    table = toggle_table()
    stale = []
    for name in DOCUMENTS:
        path = Path(args.root) / name
        text = path.read_text(encoding="utf-8")
        new = replace_between(text, table)
        if new != text:
            stale.append(name)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    verb = "out of date" if args.check else "rewritten"
    print(f"{verb}: {', '.join(stale)}" if stale else "rules tables are current")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
