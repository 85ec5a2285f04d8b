"""The tracker's answer to one event: :class:`Verdict` (DESIGN.md's verdict contract),
with the state after the event and its alerts, as typed values and as JSON.

>>> from tracker.game import Game
>>> verdict = Game().apply({"type": "flip", "card": "red-5"})  # no round dealt yet
>>> verdict.ok, verdict.codes, verdict.to_json()["seq"]
(False, ['bad-event'], 1)
"""

from __future__ import annotations

import json
from typing import Any

from tracker.messages import Alert

# (players, hands, turn, direction, top, color, pending_draw)
_Snapshot = tuple[tuple[str, ...], tuple[int, ...], str | None, str, str | None, str | None, int]
_encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
_NAMES_CACHE: dict[tuple[str, ...], list[str]] = {}
#: Seatings whose quoted names are kept (a match has one or two).
_NAMES_CACHE_SIZE = 64


def _quoted_names(players: tuple[str, ...]) -> list[str]:
    """The players' names as JSON strings (cached: the seating rarely changes)."""
    quoted = _NAMES_CACHE.get(players)
    if quoted is None:
        if len(_NAMES_CACHE) > _NAMES_CACHE_SIZE:
            _NAMES_CACHE.clear()
        quoted = _NAMES_CACHE[players] = [_encode(name) for name in players]
    return quoted


class Verdict:
    """The answer to one event (DESIGN.md): ``seq``, ``ok``, ``alerts``, ``state``.

    ``extra`` holds what an ``end-round`` verdict adds: ``round``, ``totals`` and
    ``match_winner``. The state is kept as a compact snapshot and turned into the
    ``state`` dict on first use; :meth:`dumps` writes the JSON line straight from it.
    """

    __slots__ = ("_snapshot", "_state", "alerts", "extra", "ok", "seq")

    def __init__(
        self,
        seq: int,
        ok: bool,
        alerts: list[Alert],
        snapshot: _Snapshot,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.seq = seq
        self.ok = ok
        self.alerts = alerts
        self.extra = extra
        self._snapshot = snapshot
        self._state: dict[str, Any] | None = None

    @property
    def state(self) -> dict[str, Any]:
        """The DESIGN.md state after this event (the unchanged state when refused)."""
        if self._state is None:
            players, hands, turn, direction, top, color, pending = self._snapshot
            self._state = {
                "turn": turn,
                "direction": direction,
                "top": top,
                "color": color,
                "pending_draw": pending,
                "hands": dict(zip(players, hands, strict=True)),
            }
        return self._state

    @property
    def codes(self) -> list[str]:
        """The alert codes, in order."""
        return [alert.code for alert in self.alerts]

    def to_json(self, language: str = "en") -> dict[str, Any]:
        """The verdict object of DESIGN.md, ready for :func:`json.dumps`.

        Each alert's ``message`` is in ``language``; ``messages`` holds both.
        """
        out: dict[str, Any] = {
            "seq": self.seq,
            "ok": self.ok,
            "alerts": [alert.to_json(language) for alert in self.alerts],
            "state": self.state,
        }
        if self.extra:
            out.update(self.extra)
        return out

    def dumps(self, language: str = "en") -> str:
        """``json.dumps(self.to_json(language), ensure_ascii=False)``, faster.

        >>> from tracker.game import Game
        >>> game = Game()
        >>> game.apply({"type": "round", "players": ["Ann", "Bob"]}).dumps()[:40]
        '{"seq": 1, "ok": true, "alerts": [], "st'
        """
        if self.alerts or self.extra:
            return _encode(self.to_json(language))
        players, hands, turn, direction, top, color, pending = self._snapshot
        quoted = _quoted_names(players)
        hands_text = ", ".join([f"{name}: {count}" for name, count in zip(quoted, hands)])  # noqa: B905
        turn_text = "null" if turn is None else quoted[players.index(turn)]
        # Card names, colors and directions are plain ASCII: no escaping needed.
        top_text = "null" if top is None else f'"{top}"'
        color_text = "null" if color is None else f'"{color}"'
        return (
            f'{{"seq": {self.seq}, "ok": {"true" if self.ok else "false"}, "alerts": [], '
            f'"state": {{"turn": {turn_text}, "direction": "{direction}", '
            f'"top": {top_text}, "color": {color_text}, "pending_draw": {pending}, '
            f'"hands": {{{hands_text}}}}}}}'
        )

    def __repr__(self) -> str:
        return f"Verdict(seq={self.seq}, ok={self.ok}, alerts={self.codes})"
