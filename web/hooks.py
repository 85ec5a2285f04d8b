"""What the composition root hands the web app: plain callables, no vision imports.

``uno_table.live`` implements :class:`LiveHooks` with the camera, the recogniser and
the watcher; the app only ever calls these methods. :class:`NoLive` is the stand-in
when the server runs without a camera (``--source none``, the Flask test client).

>>> hooks = NoLive()
>>> hooks.frame_jpeg() is None, hooks.status()["camera"]["state"]
(True, 'none')
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class LiveHooks(Protocol):
    """The live side of the assistant, as seen by the web app."""

    def frame_jpeg(self) -> tuple[int, bytes] | None:
        """The latest annotated frame as ``(frame_index, jpeg_bytes)``, or None."""
        ...

    def status(self) -> dict[str, Any]:
        """``{"camera": {"state": ..., ...}, "recognition": {"available": bool, ...}}``."""
        ...

    def seat_cards(self) -> dict[str, list[str]]:
        """Cards recognised in front of each seat now (for scoring a round)."""
        ...


class NoLive:
    """No camera, no recogniser: the referee enters everything by hand."""

    def __init__(self, reason: str = "no video source configured") -> None:
        self.reason = reason

    def frame_jpeg(self) -> tuple[int, bytes] | None:
        return None

    def status(self) -> dict[str, Any]:
        return {
            "camera": {"state": "none", "message": self.reason},
            "recognition": {"available": False, "message": self.reason},
        }

    def seat_cards(self) -> dict[str, list[str]]:
        return {}
