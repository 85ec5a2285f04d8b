"""One value passed between vision stages: the cards seen in one frame.

Modelled on ``supervision.Detections``: parallel numpy arrays, immutable, cheap to
filter. The detector makes it, the watcher reads it, the annotator draws it.

>>> d = Detections.from_list([("red-7", 0.9, (10, 10, 60, 90))])
>>> len(d), d.card[0], round(float(d.confidence[0]), 3)
(1, 'red-7', 0.9)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]
# A detection's candidate faces: (name, probability) pairs, most likely first.
Candidates = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Detection:
    """One recognised card: its canonical name, confidence and box (x1, y1, x2, y2)."""

    card: str
    confidence: float
    box: tuple[float, float, float, float]

    @property
    def center(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)


@dataclass(frozen=True)
class Detections:
    """The cards of one frame.

    ``xyxy`` is ``(n, 4)`` float32 pixel boxes, ``confidence`` ``(n,)`` float32, ``card``
    the canonical names of DESIGN.md (``back`` for a face-down card). ``corners`` is
    optional ``(n, 4, 2)``: the card's four corners where a stage found them.
    ``candidates`` is optional, one entry per detection: the classifier's likeliest
    faces with their probabilities, best first (empty for a back). A later stage that
    knows more (the cards of one play share a value) can pick among them.
    """

    xyxy: FloatArray
    confidence: FloatArray
    card: tuple[str, ...]
    corners: FloatArray | None = field(default=None)
    candidates: tuple[Candidates, ...] | None = field(default=None)

    def __post_init__(self) -> None:
        n = len(self.card)
        if self.xyxy.shape != (n, 4) or self.confidence.shape != (n,):
            raise ValueError(
                f"inconsistent detections: {self.xyxy.shape} boxes, "
                f"{self.confidence.shape} confidences, {n} names"
            )
        if self.corners is not None and self.corners.shape != (n, 4, 2):
            raise ValueError(f"corners must be (n, 4, 2), got {self.corners.shape}")
        if self.candidates is not None and len(self.candidates) != n:
            raise ValueError(f"{len(self.candidates)} candidate lists for {n} detections")

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4), np.float32), np.zeros((0,), np.float32), ())

    @classmethod
    def from_list(cls, items: Iterable[tuple[str, float, Sequence[float]]]) -> Detections:
        """Build from ``(card, confidence, (x1, y1, x2, y2))`` tuples (tests, fixtures)."""
        rows = list(items)
        if not rows:
            return cls.empty()
        return cls(
            np.array([r[2] for r in rows], np.float32).reshape(-1, 4),
            np.array([r[1] for r in rows], np.float32),
            tuple(r[0] for r in rows),
        )

    def __len__(self) -> int:
        return len(self.card)

    def __iter__(self) -> Iterator[Detection]:
        for i, name in enumerate(self.card):
            x1, y1, x2, y2 = (float(v) for v in self.xyxy[i])
            yield Detection(name, float(self.confidence[i]), (x1, y1, x2, y2))

    def __getitem__(
        self, index: npt.NDArray[np.bool_] | npt.NDArray[np.intp] | slice
    ) -> Detections:
        idx = np.arange(len(self))[index]
        return Detections(
            self.xyxy[idx],
            self.confidence[idx],
            tuple(self.card[i] for i in idx),
            None if self.corners is None else self.corners[idx],
            None if self.candidates is None else tuple(self.candidates[i] for i in idx),
        )

    def sorted_by_confidence(self) -> Detections:
        """Highest confidence first (the order of ``uno-table detect``)."""
        return self[np.argsort(-self.confidence, kind="stable")]

    @property
    def centers(self) -> FloatArray:
        return np.stack(
            [(self.xyxy[:, 0] + self.xyxy[:, 2]) / 2, (self.xyxy[:, 1] + self.xyxy[:, 3]) / 2],
            axis=1,
        ).astype(np.float32)

    def candidates_of(self, i: int) -> Candidates:
        """The candidate faces of detection ``i``: its own name alone when none were given.

        >>> Detections.from_list([("red-7", 0.9, (0, 0, 5, 8))]).candidates_of(0)
        (('red-7', 1.0),)
        """
        if self.candidates is not None:
            return self.candidates[i]
        return () if self.card[i] == "back" else ((self.card[i], 1.0),)

    def to_json(self) -> list[dict[str, object]]:
        """The ``cards`` list of ``uno-table detect --json``."""
        return [
            {
                "card": d.card,
                "confidence": round(d.confidence, 4),
                "box": [round(v, 1) for v in d.box],
            }
            for d in self.sorted_by_confidence()
        ]
