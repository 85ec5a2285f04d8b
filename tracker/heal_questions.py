"""The healer's questions: how a healing is put back, and its other answers tried.

A :class:`Question` is what the healer keeps of one healing: where the log was cut
and what it held, the real event, the options offered (the one applied first) and
the rivals not offered. :func:`revise` takes another of its answers when the events
since (or the camera's steady top) need it; :func:`undone` is what is left of it when
the log is cut back under it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracker.game import Game, Verdict
from tracker.heal_answers import Healed
from tracker.heal_options import Option
from tracker.heal_trials import commit, restore

Event = dict[str, Any]


@dataclass
class Question:
    """An open question: how to put the log back as it was, and the options."""

    base: int  # the log is cut back to this length ...
    tail: list[Event]  # ... and these events applied again, to undo the healing
    end: int  # the log's length right after the healing
    event: Event | None  # the real event (None: healed from the camera's view alone)
    options: list[Option]  # offered to the referee, the one applied first
    spare: list[Option] = field(default_factory=list)  # rivals not offered, for revising


def revise(
    game: Game, q: Question, event: Event | None, seq: int, top: str | None = None
) -> Healed | None:
    """Another option of an earlier healing ``q`` (the open question, or the last
    silent one), with the events since, makes ``event`` legal (or, with no event,
    leaves the camera's steady ``top`` on the pile): take it silently (the question
    stays open, that option first; ``q`` is updated). The rivals not offered are tried
    too (a fan's named colour is told by the plays after it, or by the card seen on
    top); one taken is offered in place of the last offered. None, with the game as it
    was, when no other option does."""
    now = game.events[q.base :]
    later = game.events[q.end :]
    every = [*q.options, *q.spare]
    for index, option in enumerate(every[1:], start=1):
        for trial in (True, False):
            steps: list[tuple[Event, Verdict]] = []
            restore(game, q.base, q.tail, None, steps)
            answer = commit(game, option, q.event, steps)
            end = len(game.events)
            fine = answer.ok or option.as_judged is not None
            for old in later:
                verdict = game.apply(old)
                steps.append((old, verdict))
                fine = fine and verdict.ok
            if event is not None:
                steps.append((event, game.apply(event)))
            final = steps[-1][1]
            fine = fine and final.ok and not final.alerts
            fine = fine and (top is None or game.state_json()["top"] == top)
            if trial:
                restore(game, q.base, now, seq)
                if not fine:
                    break
                continue
            every = [option, *every[:index], *every[index + 1 :]]
            q.options, q.spare = every[: len(q.options)], every[len(q.options) :]
            q.end = end
            healed = Healed(steps, final, True)
            healed.kind = "revised"
            return healed
    return None


def undone(q: Question, size: int) -> Question | None:
    """What is left of a healing when the log is cut back to ``size`` events: its real
    event alone taken back (the player's take-back of a card the healing let through),
    the explanations of the log before it stand, and the other ones may still be
    revised to (``scattered-pile`` seed 609: Ann's green 4 taken back, the fan read with
    a card too many then told by her next card, a third green Reverse); else nothing.
    """
    if q.event is None or size != q.end - 1 or q.options[0].as_judged is not None:
        return None
    options = [o for o in q.options if o.as_judged is None]
    spare = [o for o in q.spare if o.as_judged is None]
    if len(options) + len(spare) < 2:
        return None
    return Question(q.base, q.tail, size, None, options, spare)


__all__ = ["Question", "revise", "undone"]
