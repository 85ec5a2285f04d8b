"""How the deck benchmarks split a source's photos for a calibration."""

from __future__ import annotations

from collections.abc import Hashable, Iterable


def first_per_face(faces: Iterable[Hashable]) -> tuple[list[int], list[int]]:
    """Indices of the first photo of each face, and of the others, in the given order.

    >>> first_per_face(["red-1", "red-2", "red-1", "blue-5", "red-2"])
    ([0, 1, 3], [2, 4])
    """
    seen: set[Hashable] = set()
    first: list[int] = []
    rest: list[int] = []
    for i, face in enumerate(faces):
        (rest if face in seen else first).append(i)
        seen.add(face)
    return first, rest
