"""What the game service takes and answers, and how it reads its stored events.

The values of :mod:`web.game` (:class:`ServiceError`, :class:`Submitted`), the kinds
of stored event the service itself writes (a change of the rules, an inferred event,
an ``ask-referee`` alert) and the small readings of the tracker's state it needs
(:func:`rounds_of`, :func:`history_size`). Import them from :mod:`web.game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tracker import Game, rulespec
from tracker.rules import RuleError, RuleSet

#: The type of the stored event that changes the rules between rounds (the service's
#: own, never sent to the tracker; ``/api/events`` does not take it).
RULES_EVENT = "rules"
#: The source an inferred event is stored with (the page labels it).
INFERRED = "inferred"
ASK = "ask-referee"


def is_rules_change(event: Mapping[str, Any], verdict: Mapping[str, Any]) -> bool:
    """Whether a stored event is a change of the rule set (stored by
    :meth:`web.game.GameService.change_rules`)."""
    return event.get("type") == RULES_EVENT and "rule_set" in verdict


def resolve_rules(rules: RuleSet | object) -> RuleSet:
    """A rule set from a :class:`RuleSet`, a preset name or a ``{"preset", "set"}`` spec;
    :class:`ServiceError` (400) naming what is wrong otherwise."""
    if isinstance(rules, RuleSet):
        return rules
    try:
        return rulespec.from_spec(rules)
    except RuleError as exc:
        raise ServiceError(f"bad rule set: {exc}", 400) from exc


class ServiceError(Exception):
    """A request the game cannot take now; ``status`` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class Submitted:
    """What :meth:`GameService.submit` answers: the stored number and the verdict."""

    n: int
    verdict: dict[str, Any]
    snapshot: dict[str, Any] = field(repr=False)
    #: True when this is the stored answer to an earlier post with the same client_id.
    repeated: bool = False


def rounds_of(state: Mapping[str, Any]) -> list[dict[str, Any] | None]:
    """The match's rounds from the tracker's state: results so far, None for one in play."""
    scores = state.get("round_scores") or []
    rounds: list[dict[str, Any] | None] = [
        dict(s) if isinstance(s, Mapping) else {"points": s} for s in scores
    ]
    if state.get("in_round") and len(rounds) < int(state.get("round") or 0):
        rounds.append(None)
    return rounds


def asks_referee(verdict: Mapping[str, Any]) -> bool:
    """Whether a stored verdict asked the referee (an ``ask-referee`` alert)."""
    alerts = verdict.get("alerts")
    return isinstance(alerts, list) and any(
        isinstance(a, Mapping) and a.get("code") == ASK for a in alerts
    )


def shown_source(source: str, verdict: Mapping[str, Any]) -> str:
    """The source the timeline says for a stored event: an event an amendment applied
    again is said as the one it repeats (the camera's, the referee's)."""
    again = verdict.get("again")
    if isinstance(again, Mapping) and isinstance(again.get("source"), str):
        return str(again["source"])
    return source


def history_size(game: Game) -> int:
    """How many events the game's history holds (those that changed the state).

    ``Game.events`` copies the list; the tracker's own list is read where it is one, so
    that following every event of a long match stays linear.
    """
    history = getattr(game, "_history", None)
    return len(history) if isinstance(history, list) else len(game.events)
