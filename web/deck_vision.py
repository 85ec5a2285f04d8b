"""The deck setup's side of its contract with the vision work (:class:`DeckVision`).

What crosses it: an image as the setup keeps it with the cards found in it
(:class:`Reading`, :class:`Found`), the named cards to fit on or to check
(:class:`LabelledCard`), the fit's progress callback, and :class:`DeckError` for input
the setup cannot take. The composition root implements :class:`DeckVision`
(``uno_table.deck_setup.DeckSetup``), so ``web`` never imports ``vision``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Progress = Callable[[str, int, int], None]
Quad = tuple[tuple[float, float], ...]


class DeckError(Exception):
    """Input the deck setup cannot take (the message says why); nothing was changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Found:
    """A card the recogniser boxed: corners (TL TR BR BL), name, confidence, candidates."""

    quad: Quad
    card: str
    confidence: float
    candidates: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Reading:
    """An image as the deck setup keeps it (JPEG, upright) and the cards found in it."""

    jpeg: bytes
    width: int
    height: int
    cards: tuple[Found, ...]


@dataclass(frozen=True)
class LabelledCard:
    """One card to fit on or to check: its photo (JPEG), where it lies, its name."""

    key: str  # "photo/card"
    jpeg: bytes
    quad: Quad
    face: str


class DeckVision(Protocol):
    """The vision side of the deck setup (``uno_table.deck_setup.DeckSetup``)."""

    def read(self, data: bytes) -> Reading:
        """Decode an image and find its cards; :class:`DeckError` if it is no image."""
        ...

    def camera_frame(self) -> bytes | None:
        """The camera's latest frame as it came (JPEG), or None without one."""
        ...

    def fit(
        self,
        train: Sequence[LabelledCard],
        held: Sequence[LabelledCard],
        per_photo: int,
        progress: Progress,
    ) -> tuple[list[str], list[str], Any]:
        """Fit on ``train``; the names ``held`` read with the general read-out and with
        that fit; and the deck fitted on both, for :meth:`use`."""
        ...

    def use(self, deck: Any) -> dict[str, Any]:
        """Save ``deck`` as the models' deck file and make the recogniser use it."""
        ...

    def forget(self) -> dict[str, Any]:
        """Delete the deck file; back to the general read-out."""
        ...

    def status(self) -> dict[str, Any]:
        """``{"deck_file": ..., "saved": bool, "in_use": bool, "camera": bool, ...}``."""
        ...
