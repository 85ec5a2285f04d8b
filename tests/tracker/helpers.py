"""Small helpers to write rule scenarios as a few lines each."""

from __future__ import annotations

from typing import Any

from tracker import Game, RuleSet, Verdict, preset

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def rules_of(rules: str | RuleSet, **toggles: Any) -> RuleSet:
    base = preset(rules) if isinstance(rules, str) else rules
    return base.with_(**toggles) if toggles else base


def deal(
    rules: str | RuleSet = "official",
    players: int = 4,
    flip: str | None = "red-5",
    dealer: str | None = None,
    hand_size: int | None = None,
    **toggles: Any,
) -> Game:
    """A game with one round dealt (dealer: the last player, so the first to play is Ann)."""
    game = Game(rules_of(rules, **toggles))
    names = NAMES[:players]
    event: dict[str, Any] = {"type": "round", "players": names, "dealer": dealer or names[-1]}
    if hand_size is not None:
        event["hand_size"] = hand_size
    ok(game, event)
    if flip is not None:
        ok(game, {"type": "flip", "card": flip})
    return game


def ok(game: Game, event: dict[str, Any]) -> Verdict:
    """Apply an event that must be accepted with no alert."""
    verdict = game.apply(event)
    assert verdict.ok, (event, verdict.to_json()["alerts"])
    assert verdict.alerts == [], (event, verdict.to_json()["alerts"])
    return verdict


def play(game: Game, card: str, player: str | None = None, **fields: Any) -> Verdict:
    event: dict[str, Any] = {"type": "play", "card": card, **fields}
    if player is not None:
        event["player"] = player
    return game.apply(event)


def refused(verdict: Verdict, code: str) -> None:
    """The event was not applied and raised exactly this alert."""
    assert not verdict.ok, verdict.to_json()
    assert verdict.codes == [code], verdict.to_json()["alerts"]


def state(game: Game) -> dict[str, Any]:
    return game.state_json()
