"""The layout the referee saved on the camera check, waiting for the live loop.

The web app (``/camera``) hands a layout over from its own thread; the live loop takes
it at its next frame, once. A layout that is not one is refused at once
(``ValueError``), before the loop ever sees it.

>>> inbox = LayoutInbox()
>>> inbox.take() is None
True
>>> inbox.put({"width": 640})
Traceback (most recent call last):
...
ValueError: not a table layout: KeyError('height')
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.calibration import TableLayout


class LayoutInbox:
    """One saved layout at most, kept until the live loop takes it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._layout: TableLayout | None = None

    def put(self, layout: dict[str, Any]) -> None:
        """Keep ``layout`` (JSON, as ``TableLayout.to_dict`` writes) for the loop; a newer
        one replaces one not taken yet. ``ValueError`` for one that is not a layout."""
        from vision.calibration import TableLayout

        table = TableLayout.from_dict(layout)
        with self._lock:
            self._layout = table

    def take(self) -> TableLayout | None:
        """The layout saved since the last take, or None."""
        with self._lock:
            layout, self._layout = self._layout, None
        return layout
