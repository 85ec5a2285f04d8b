"""referee: judge an event log (JSON Lines) and print one verdict per line.

Reads FILE (or standard input when FILE is absent or '-'), one event per line, and
prints exactly one verdict per input line as JSON Lines, in the same order. A line
that is not JSON, or an event the tracker cannot apply, gets a `bad-event` verdict
and the log carries on. The exit status is 0 unless the input cannot be read.

A ``{"type": "rules", "preset": ..., "set": {...}}`` line (the tablet's change of the
rules between rounds, as its event log exports it) switches the rule set from there on.

Examples:
  uno-table referee --rules official game.jsonl
  uno-table referee --rules house --set jump_in=false < game.jsonl
  python -m tracker.simulate --seed 1 | uno-table referee --rules official
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.rules import RuleSet


def add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET`` and repeatable ``--set TOGGLE=VALUE`` (every command that
    takes a rule set: referee, serve, demo, replay)."""
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


def rules_of(args: argparse.Namespace) -> RuleSet:
    """The rule set of ``--rules`` and ``--set``; ``ValueError`` (a
    :class:`tracker.rules.RuleError`) naming what is wrong."""
    from tracker.rulespec import from_assignments

    return from_assignments(args.rules, args.toggles)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rule_arguments(parser)
    parser.add_argument(
        "--lang",
        choices=("en", "zh"),
        default="en",
        help="language of each alert's 'message' (both are always in 'messages')",
    )
    parser.add_argument("file", nargs="?", default="-", metavar="FILE", help="event log")


def run(args: argparse.Namespace) -> int:
    from tracker import Game, RuleError

    try:
        rules = rules_of(args)
    except RuleError as error:
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
                if b'"rules"' in raw and (change := _rules_change(raw)) is not None:
                    write(_switch_rules(game, change))
                elif b'"amend"' in raw and _amend_marker(raw):
                    write(AMEND_NOTE)
                else:
                    write(apply_json(raw).dumps(language))
                write("\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return 0
    except OSError as error:
        print(f"uno-table referee: reading {args.file} failed: {error}", file=sys.stderr)
        return 2
    return 0


#: The verdict line of an amendment's marker (the tablet's timeline): the undos and the
#: events it applied are the lines before it; the marker itself changes nothing.
AMEND_NOTE = json.dumps({"ok": True, "alerts": [], "amend": "the lines before it"})


def _amend_marker(raw: bytes) -> bool:
    """Whether the line is an amendment's marker (``{"type": "amend", ...}``)."""
    try:
        event = json.loads(raw)
    except ValueError:
        return False
    return isinstance(event, dict) and event.get("type") == "amend"


def _rules_change(raw: bytes) -> dict[str, object] | None:
    """The line's ``rules`` event (a change of the rule set), or None."""
    try:
        event = json.loads(raw)
    except ValueError:
        return None
    return event if isinstance(event, dict) and event.get("type") == "rules" else None


def _switch_rules(game: object, change: dict[str, object]) -> str:
    """Apply a ``rules`` line to ``game``; its verdict line."""
    from tracker.rules import RuleError
    from tracker.rulespec import from_spec, spec_of

    spec = {k: v for k, v in change.items() if k in ("preset", "set")}
    try:
        rules = from_spec(spec)
    except RuleError as error:
        bad = {"code": "bad-event", "params": {"reason": "bad-rules", "detail": str(error)}}
        return json.dumps({"ok": False, "alerts": [bad]}, ensure_ascii=False)
    game.rules = rules  # type: ignore[attr-defined]
    return json.dumps({"ok": True, "alerts": [], "rule_set": spec_of(rules)}, ensure_ascii=False)
