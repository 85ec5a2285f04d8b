"""The referee's timeline: the current round's events, and amending a past one.

The timeline lists what the record of the round holds now: every event that changed
the game (from the game service's ``applied`` list, in step with the tracker's
history), and every event the tracker refused since (a refusal changed nothing, but
it was reported and judged: the referee may delete it, correct it, or insert the
missed event that makes it legal). An undo takes its event out; a refusal is kept
while the events it was judged after are.

:func:`amend` deletes, replaces or inserts before a past event of the round: the game
is taken back to it with ``undo`` (:func:`tracker.amend.rewrite`, or the healer's
:meth:`~tracker.heal.Healer.amend`), the change applied, and every later event judged
again. Nothing stored is rewritten: the undos and the events applied again are stored
as events (source ``amend``; an event applied again keeps, in its verdict's ``again``,
the number and source of the event it repeats), and last a marker event ``{"type":
"amend", ...}`` (source ``referee``, the request's ``client_id``) whose verdict sums
it up. A restart replays all of it to the same state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from tracker.amend import AGAIN, NEW, UNDO, rewrite

if TYPE_CHECKING:
    from web.game import GameService, Submitted
    from web.store import Store

#: The type of the stored marker of an amendment (the service's own, never sent to
#: the tracker; ``/api/events`` does not take it).
AMEND_EVENT: Final = "amend"
#: The source of the undos and the events applied again by an amendment.
AMENDED: Final = "amend"
#: What ``POST /api/amend`` can do to a past event.
ACTIONS: Final = ("delete", "replace", "insert")
#: Event types that cannot be put into the record by an amendment (a deal starts a
#: round, an undo is not an event of the game).
NOT_AMENDABLE: Final = frozenset({"round", "undo"})


@dataclass(frozen=True)
class Entry:
    """One event of the round's timeline."""

    n: int
    source: str  # camera events are "vision"; "inferred" for the healer's
    event: dict[str, Any]
    ok: bool
    alerts: list[dict[str, Any]]
    applied: bool  # False: refused, it changed nothing

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "source": self.source,
            "event": self.event,
            "ok": self.ok,
            "alerts": self.alerts,
            "applied": self.applied,
        }


@dataclass(frozen=True)
class _Refused:
    n: int
    source: str
    event: dict[str, Any]
    at: int  # how many events the history held when it was judged ...
    anchor: int  # ... and the number of the last of them (0: none)


def is_amend_marker(event: Mapping[str, Any], verdict: Mapping[str, Any]) -> bool:
    """Whether a stored event is an amendment's marker."""
    return event.get("type") == AMEND_EVENT and isinstance(verdict.get(AMEND_EVENT), dict)


class Timeline:
    """What the service needs beyond the game to list the round's events."""

    def __init__(self) -> None:
        self.refused: list[_Refused] = []
        # Per stored number: (ok, alerts) of its verdict, for the events still listed.
        self.judged: dict[int, tuple[bool, list[dict[str, Any]]]] = {}

    def note(
        self,
        n: int,
        source: str,
        event: Mapping[str, Any],
        verdict: Mapping[str, Any],
        applied: Sequence[tuple[int, str]],
        *,
        refused: bool,
    ) -> None:
        """Event ``n`` was stored with ``verdict``; ``refused``: it changed nothing."""
        alerts = verdict.get("alerts")
        self.judged[n] = (bool(verdict.get("ok")), list(alerts) if isinstance(alerts, list) else [])
        if refused and event.get("type") not in ("undo", AMEND_EVENT):
            anchor = applied[-1][0] if applied else 0
            self.refused.append(_Refused(n, source, dict(event), len(applied), anchor))

    def drop(self, numbers: Sequence[int]) -> None:
        """An amendment took these refused events out (they were judged again)."""
        gone = set(numbers)
        self.refused = [r for r in self.refused if r.n not in gone]

    def entries(
        self, applied: Sequence[tuple[int, str]], history: Sequence[Mapping[str, Any]]
    ) -> list[Entry]:
        """The current round's events, oldest first: from its ``round`` event on (none
        before the first deal)."""
        start = next(
            (i for i in range(len(history) - 1, -1, -1) if history[i].get("type") == "round"),
            None,
        )
        if start is None:
            return []
        live = {n for n, _ in applied}
        self.refused = [r for r in self.refused if _valid(r, applied)]
        out = [
            self._entry(n, source, dict(event), True)
            for (n, source), event in zip(applied[start:], history[start:], strict=True)
        ]
        out += [
            self._entry(r.n, r.source, r.event, False)
            for r in self.refused
            if r.at > start and r.n not in live
        ]
        return sorted(out, key=lambda e: e.n)

    def _entry(self, n: int, source: str, event: dict[str, Any], applied: bool) -> Entry:
        ok, alerts = self.judged.get(n, (applied, []))
        return Entry(n, source, event, ok, alerts, applied)


def _valid(r: _Refused, applied: Sequence[tuple[int, str]]) -> bool:
    """A refusal stands while the events it was judged after are still the record."""
    if r.at > len(applied):
        return False
    return r.at == 0 or applied[r.at - 1][0] == r.anchor


def amend(
    service: GameService,
    n: int,
    action: str,
    event: dict[str, Any] | None,
    store: Store,
    *,
    client_id: str | None = None,
) -> Submitted:
    """Delete, replace (by ``event``) or insert ``event`` before the round's event
    ``n``, and judge every later event again; stored and published (module docstring).

    Raises :class:`web.game.ServiceError`: 409 when ``n`` is not an event of the
    current round's timeline (or is its deal), or ``client_id`` was used for another
    request; 400 for an action or event that does not fit.
    """
    from web.game import ServiceError, Submitted

    if action not in ACTIONS:
        raise ServiceError(f"'action' must be one of {', '.join(ACTIONS)}", 400)
    if (event is None) != (action == "delete"):
        need = "takes no 'event'" if action == "delete" else "needs the 'event' to put in"
        raise ServiceError(f"{action} {need}", 400)
    if event is not None and event.get("type") in NOT_AMENDABLE:
        raise ServiceError(f"an amendment cannot put in a {event.get('type')!r} event", 400)
    marker: dict[str, Any] = {"type": AMEND_EVENT, "action": action, "n": n}
    if event is not None:
        marker["event"] = event
    with service.lock:
        if client_id is not None:
            stored = store.event_by_client_id(client_id)
            if stored is not None:
                if stored.event != marker:
                    raise ServiceError(
                        f"client_id {client_id!r} was already used for another request "
                        f"(number {stored.n}); choose a new one"
                    )
                return Submitted(stored.n, stored.verdict, service.snapshot(), repeated=True)
        entries = service.timeline()
        numbers = [e.n for e in entries]
        if n not in numbers:
            raise ServiceError(
                f"event {n} is not in the current round's timeline (an earlier round's, "
                "one taken back, or none): only the current round can be amended"
            )
        k = numbers.index(n)
        if k == 0:
            raise ServiceError(f"event {n} deals the round: start a new round instead")
        later = entries[k:] if action == "insert" else entries[k + 1 :]
        base = sum(1 for number, _ in service.applied if number < n)
        new = [] if event is None else [event]
        game, healer = service.game, service.healer
        try:
            if healer is not None:
                done = healer.amend(base, new, [e.event for e in later])
            else:
                done = rewrite(game, base, new, [e.event for e in later])
        except Exception as exc:  # the tracker promises not to raise; be safe anyway
            service.reload(store)
            raise ServiceError(f"the tracker failed on this amendment: {exc}", 500) from exc
        steps: list[tuple[dict[str, Any], dict[str, Any]]] = []
        sources: list[str] = []
        shown: list[str] = []
        for i, (step, verdict, role, index) in enumerate(done.steps):
            answer = verdict.to_json()
            if i in done.judged_alerts:  # e.g. the healer's question about it
                answer["alerts"] = [a.to_json() for a in done.judged_alerts[i]]
            if role == AGAIN and index is not None:
                was = later[index]
                answer["again"] = {"n": was.n, "source": was.source}
                sources.append(AMENDED)
                shown.append(was.source)
            else:
                by = AMENDED if role == UNDO else "referee" if role == NEW else "inferred"
                sources.append(by)
                shown.append(by)
            steps.append((step, answer))
        dropped = [e.n for e in entries[k:] if not e.applied]
        removed = set(numbers[k:])  # judged again under new numbers, or gone
        summary = {
            "seq": game.seq,
            "ok": True,
            "alerts": [],
            "state": _state(service),
            AMEND_EVENT: {
                "action": action,
                "n": n,
                "judged_again": len(later),
                "dropped": dropped,
                "removed": sorted(removed),
                "alerts": [a.to_json() for a in done.alerts],
            },
        }
        steps.append((marker, summary))
        sources.append("referee")
        shown.append("referee")

        def tidy() -> None:
            service.round_log.drop(dropped)
            service.forget_alerts(removed)

        service.clear_question()  # the healer's own, if any, is asked in the steps
        return service.record(
            steps, sources, shown, marker, "referee", client_id, store, before_publish=tidy
        )


def _state(service: GameService) -> dict[str, Any]:
    game = service.game.state_json()
    keys = ("turn", "direction", "top", "color", "pending_draw", "hands")
    return {k: game.get(k) for k in keys}
