"""Trying an explanation on the game and taking it back: :func:`fits` (apply it,
then the real event, note the state it leaves, restore the log), :func:`commit` (apply
it for good) and :func:`restore` (undo down to a point, apply a tail again). They act
on the game alone; :class:`tracker.heal.Healer` decides which explanation to keep.

>>> from tracker.game import Game
>>> from tracker.heal_options import Option
>>> game = Game()
>>> _ = game.apply({"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob"})
>>> _ = game.apply({"type": "flip", "card": "red-5"})
>>> draw = Option("draw", [{"type": "draw", "player": "Ann"}], 1.25)
>>> fits(game, draw, {"type": "play", "card": "blue-5", "player": "Ann"}, 2, game.seq, None)
True
>>> game.events[-1]["type"], draw.state[-1]   # taken back; it left 92 cards to draw
('flip', 92)
"""

from __future__ import annotations

from typing import Any, Final

from tracker.amend import rewind
from tracker.game import Game, Verdict
from tracker.heal_options import Option

Event = dict[str, Any]

#: The state an explanation leaves, as far as telling two explanations apart goes.
STATE_KEYS: Final = ("turn", "direction", "top", "color", "pending_draw", "hands", "draw_pile")


def fits(
    game: Game, option: Option, event: Event | None, at: int, seq: int, top: str | None
) -> bool:
    """Apply ``option`` (then ``event``), note the state, and take it all back."""
    base = option.base(at)
    tail = game.events[base:at]
    steps: list[tuple[Event, Verdict]] = []
    final = commit(game, option, event, steps)
    fine = all(v.ok and not v.alerts for _, v in steps[:-1])
    fine = fine and (option.as_judged is not None or (final.ok and not final.alerts))
    if top is not None:
        fine = fine and game.state_json()["top"] == top
    option.state = state_key(game)
    option.applied = [e for e, _ in steps if e.get("inferred")]
    restore(game, base, tail, seq)
    return fine


def commit(
    game: Game, option: Option, event: Event | None, steps: list[tuple[Event, Verdict]]
) -> Verdict:
    """Apply an option's rewrite and inferred events, then ``event``; the last verdict."""
    if option.rewrite is not None:
        index, fixed = option.rewrite
        later = game.events[index + 1 :]
        restore(game, index, [], None, steps)
        steps += [(new, game.apply(new)) for new in fixed]
        steps += [(old, game.apply(old)) for old in later]
    for template in option.events:
        inferred = {**template, "inferred": True}
        if inferred["type"] in ("play", "draw", "pass") and "player" not in inferred:
            inferred["player"] = game.state_json()["turn"]
        steps.append((inferred, game.apply(inferred)))
    steps += [(again, game.apply(again)) for again in option.replayed]
    if event is not None and not option.instead:
        steps.append((event, game.apply(event)))
    if not steps:
        raise ValueError("an explanation with nothing to apply")
    return steps[-1][1]


def restore(
    game: Game,
    base: int,
    tail: list[Event],
    seq: int | None,
    steps: list[tuple[Event, Verdict]] | None = None,
) -> None:
    """Undo down to ``base`` events, then apply ``tail`` again; ``seq`` restores the
    game's counter (a trial leaves no trace), else the undos go to ``steps``."""
    rewind(game, base, steps)
    for event in tail:
        verdict = game.apply(event)
        if steps is not None:
            steps.append((event, verdict))
    if seq is not None:
        game.seq = seq


def state_key(game: Game) -> tuple[Any, ...]:
    """What tells two explanations apart: the state they leave."""
    state = game.state_json()
    return tuple(
        tuple(sorted(state[k].items())) if isinstance(state[k], dict) else state[k]
        for k in STATE_KEYS
    )


__all__ = ["STATE_KEYS", "commit", "fits", "restore", "state_key"]
