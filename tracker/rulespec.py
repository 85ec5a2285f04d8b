"""A rule set as JSON: the preset it started from plus the toggles set differently.

This is how a rule set travels with a match (stored, posted, shown): ``{"preset":
"house", "set": {"jump_in": false}}``. A bare preset name is the same as an empty
``set``, so a match stored before rule sets were stored whole still resolves.

>>> rules = from_spec({"preset": "house", "set": {"jump_in": False, "hand_size": "5"}})
>>> spec_of(rules)
{'preset': 'house', 'set': {'jump_in': False, 'hand_size': 5}}
>>> loads(dumps(rules)) == rules, loads("official") == preset("official")
(True, True)
>>> from_spec({"preset": "house", "set": {"jump": True, "hand_size": "many"}})
Traceback (most recent call last):
...
tracker.rulespec.RuleSpecError: unknown toggle(s): jump; hand_size takes a whole number, not 'many'
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from typing import Any

from tracker.rules import RuleError, RuleSet, UnknownPresetError, preset

__all__ = [
    "RuleSpecError",
    "changed",
    "dumps",
    "from_assignments",
    "from_spec",
    "loads",
    "spec_of",
    "text_of",
]

#: Toggles that are not ``set``: the preset's name is the spec's ``preset``.
_NOT_TOGGLES = frozenset({"name"})
_FIELDS = {f.name: f for f in dataclasses.fields(RuleSet) if f.name not in _NOT_TOGGLES}


class RuleSpecError(RuleError):
    """A rule set that cannot be made: unknown preset, unknown toggles, bad values."""


def changed(rules: RuleSet) -> dict[str, object]:
    """The toggles of ``rules`` that differ from its preset, as JSON-ready data.

    >>> changed(preset("house").with_(jump_in=False))
    {'jump_in': False}
    """
    base = preset(rules.name).toggles()
    return {k: v for k, v in rules.toggles().items() if k in _FIELDS and base[k] != v}


def spec_of(rules: RuleSet) -> dict[str, Any]:
    """``{"preset": name, "set": {toggle: value}}`` with only the toggles that differ."""
    return {"preset": rules.name, "set": changed(rules)}


def text_of(rules: RuleSet) -> str:
    """The rule set in one line, as ``--set`` would write it.

    >>> text_of(preset("house").with_(jump_in=False, hand_size=5))
    'house, jump_in=false, hand_size=5'
    """
    parts = [rules.name]
    for key, value in changed(rules).items():
        shown = (
            "none"
            if value is None
            else str(value).lower()
            if isinstance(value, bool)
            else ",".join(map(str, value))
            if isinstance(value, list)
            else str(value)
        )
        parts.append(f"{key}={shown}")
    return ", ".join(parts)


def dumps(rules: RuleSet) -> str:
    """The rule set as stored (compact JSON, keys in field order)."""
    return json.dumps(spec_of(rules), ensure_ascii=False)


def loads(text: str) -> RuleSet:
    """The one way a stored rule set is resolved: JSON of :func:`spec_of`, or a bare
    preset name (what older databases hold)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            return from_spec(json.loads(stripped))
        except ValueError as exc:
            if isinstance(exc, RuleError):
                raise
            raise RuleSpecError(f"stored rule set is not JSON: {exc}") from None
    return from_spec(stripped)


def from_spec(spec: object) -> RuleSet:
    """A rule set from a preset name or ``{"preset": name, "set": {toggle: value}}``.

    A value given as text is read as on the command line (``"false"``, ``"5"``,
    ``"none"``, ``"1,2,draw2"``); other values must have the toggle's JSON type. Every
    unknown toggle and bad value is named in one :class:`RuleSpecError`.
    """
    if isinstance(spec, str):
        return _preset(spec)
    if not isinstance(spec, Mapping):
        raise RuleSpecError(
            "a rule set is a preset name or {'preset': <name>, 'set': {<toggle>: <value>}}"
        )
    unknown_keys = sorted(set(spec) - {"preset", "set"})
    if unknown_keys:
        raise RuleSpecError(
            f"a rule set takes 'preset' and 'set', not {', '.join(map(repr, unknown_keys))}"
        )
    name = spec.get("preset", "official")
    if not isinstance(name, str):
        raise RuleSpecError("'preset' must be a preset name")
    toggles = spec.get("set") or {}
    if not isinstance(toggles, Mapping):
        raise RuleSpecError("'set' must be an object of toggle: value")
    rules = _preset(name)
    unknown = sorted(str(k) for k in toggles if k not in _FIELDS)
    problems = [f"unknown toggle(s): {', '.join(unknown)}"] if unknown else []
    changes: dict[str, object] = {}
    for key, value in toggles.items():
        if key not in _FIELDS:
            continue
        try:
            changes[key] = _value(rules, key, value)
        except RuleError as exc:
            problems.append(str(exc))
    if not problems:
        try:
            return rules.with_(**changes)
        except RuleError as exc:
            problems.append(str(exc))
    raise RuleSpecError("; ".join(problems))


def from_assignments(name: str, assignments: Iterable[str]) -> RuleSet:
    """A preset with ``NAME=VALUE`` assignments applied (the ``--set`` option).

    >>> from_assignments("house", ["jump_in=no"]).jump_in
    False
    """
    rules = _preset(name)
    for assignment in assignments:
        try:
            rules = rules.with_text(assignment)
        except RuleError as exc:
            raise RuleSpecError(str(exc)) from None
    return rules


def _preset(name: str) -> RuleSet:
    try:
        return preset(name)
    except UnknownPresetError as exc:
        raise RuleSpecError(str(exc)) from None


def _value(rules: RuleSet, key: str, value: object) -> object:
    """``value`` checked against the toggle's type (text is read like ``--set``)."""
    if isinstance(value, str):
        return getattr(rules.with_text(f"{key}={value}"), key)
    current = getattr(rules, key)
    if key == "last_card_values":
        if value is None:
            return None
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return frozenset(value)
        raise RuleError(f"{key} takes a list of card values or null")
    if key == "target_score" and value is None:
        return None
    if isinstance(current, bool) or _FIELDS[key].type in ("bool",):
        if isinstance(value, bool):
            return value
        raise RuleError(f"{key} takes true/false, not {value!r}")
    if isinstance(current, int) or key == "target_score":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise RuleError(f"{key} takes a whole number, not {value!r}")
    raise RuleError(f"{key} takes text, not {value!r}")
