"""The parts of the deck setup's state: photos, their cards, the fit's job, the held-back choice.

Calibrating holds back part of the labelled cards (:func:`held_back`: second photos of
faces) to measure the fit on; :class:`Job` is the fit running in the background, its
stage and progress; :class:`DeckPhoto` and :class:`DeckCard` are a photo as the page
shows it and the name each of its cards is given.

>>> held_back(["red-1", "red-2", "red-1", "red-3"])  # the second photo of red-1
[2]
>>> held_back(["a", "b", "a", "b", "a", "b", "c", "c"])  # 8 cards: 2, among 5 repeats
[2, 4]
>>> held_back(["red-1", "red-2", "red-3", "red-4"])  # each face once: nothing to measure on
[]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from web.deck_vision import Found, Reading

#: Up to one labelled card in HELD_BACK_EVERY is held back to measure the fit.
HELD_BACK_EVERY = 4
#: The stages of a fit, in order, as reported to ``progress(stage, done, total)``.
STAGES = ("crops", "check", "fit")


def held_back(labels: Sequence[str]) -> list[int]:
    """Which of ``labels`` (in order) to hold back: one card in 4 (at least one), taken
    evenly among the second (third, ...) photos of a face.

    The check must read new photos of faces the fit has seen: a face's only photo,
    held back, would be a face the deck was not fitted on (the deck in use is fitted
    on every card), and would say nothing of it. With every face photographed once
    there is nothing to hold back: the page asks for a second photo of some cards.
    """
    seen: set[str] = set()
    repeats: list[int] = []
    for i, face in enumerate(labels):
        if face in seen:
            repeats.append(i)
        seen.add(face)
    k = min(max(1, len(labels) // HELD_BACK_EVERY), len(repeats))
    return [repeats[j * len(repeats) // k] for j in range(k)]


@dataclass
class DeckCard:
    found: Found
    label: str | None  # None: not a card to calibrate on (dropped, or a back)

    def to_json(self, index: int) -> dict[str, Any]:
        xs = [p[0] for p in self.found.quad]
        ys = [p[1] for p in self.found.quad]
        return {
            "id": index,
            "quad": [[round(x, 1), round(y, 1)] for x, y in self.found.quad],
            "box": [round(min(xs), 1), round(min(ys), 1), round(max(xs), 1), round(max(ys), 1)],
            "proposed": self.found.card,
            "confidence": round(self.found.confidence, 3),
            "candidates": [[n, round(p, 3)] for n, p in self.found.candidates[:5]],
            "label": self.label,
            "corrected": self.label is not None and self.label != self.found.card,
        }


@dataclass
class DeckPhoto:
    id: int
    name: str
    source: str  # "upload" | "camera"
    reading: Reading
    cards: list[DeckCard] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "width": self.reading.width,
            "height": self.reading.height,
            "cards": [c.to_json(i) for i, c in enumerate(self.cards)],
        }


@dataclass
class Job:
    state: str = "idle"  # idle | running | done | failed
    stage: str = ""
    done: int = 0
    total: int = 0
    error: str = ""
    started: float = 0.0
    seconds: float = 0.0
    stages: tuple[str, ...] = STAGES  # without held-back cards there is no "check"

    def fraction(self) -> float:
        if self.state == "done":
            return 1.0
        if self.state != "running" or self.stage not in self.stages:
            return 0.0
        part = self.done / self.total if self.total else 0.0
        return round((self.stages.index(self.stage) + part) / len(self.stages), 3)

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "stage": self.stage,
            "done": self.done,
            "total": self.total,
            "fraction": self.fraction(),
            "error": self.error,
            "seconds": round(self.seconds or (time.monotonic() - self.started), 1)
            if self.started
            else 0.0,
        }
