"""The live runner's link to the game service: events out, verdicts back.

The camera side's :class:`~uno_table.session.TableSession` sends through a
:class:`ServiceLink` (:meth:`ServiceLink.send` is its :data:`uno_table.session.Submit`,
:meth:`ServiceLink.observe` its :data:`uno_table.session.Observe`); the game service
tells it every verdict (:meth:`ServiceLink.notify`); :meth:`ServiceLink.open_session`
makes that session. What the service judged before the
session existed (the demo's deal, a ruling while the model loads) is kept and told to
the session when it is attached. A failure to reach the service is reported, never
raised: the camera's loop goes on.

>>> from uno_table.session import Moment
>>> link = ServiceLink(report=print)
>>> link.send({"type": "draw"}, "vision", Moment(0.0, 0)) is None  # nothing to send to yet
True
>>> link.submit = lambda event, source: {"ok": True, "state": {}}
>>> link.send({"type": "draw"}, "vision", Moment(0.0, 0)).ok, link.events_submitted
(True, 1)
>>> def down(event, source): raise ConnectionError("the service is down")
>>> link.submit = down
>>> link.send({"type": "uno", "player": "Ann"}, "referee", Moment(0.1, 1))
could not submit a ruling: the service is down
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from uno_table.session import VISION, Moment, Note, ScriptedReferee, TableSession, TableVerdict

if TYPE_CHECKING:
    from vision.calibration import TableLayout
    from vision.watcher_config import WatcherConfig

# (event, source) -> verdict as JSON; the game service's submit, bound to a store.
Submit = Callable[[dict[str, Any], str], dict[str, Any]]
# (pile top, video time) -> the verdict of what it healed, or None (docs/healing.md).
ObserveTop = Callable[[str | None, float], dict[str, Any] | None]
# A message for the runner's health (``status()["recognition"]["message"]``).
Report = Callable[[str], None]


class ServiceLink:
    """The game service as the camera side sees it; ``submit`` and ``observe_top`` are
    bound by :func:`uno_table.live_app.build_app` (or a test)."""

    def __init__(self, report: Report) -> None:
        self.submit: Submit | None = None
        self.observe_top: ObserveTop | None = None
        self.report = report
        self.events_submitted = 0  # the camera's events the service answered
        self._lock = threading.Lock()
        self._session: TableSession | None = None
        self._early: list[tuple[dict[str, Any], TableVerdict, str]] = []

    @property
    def session(self) -> TableSession | None:
        """The attached session (None until the camera side has started)."""
        with self._lock:
            return self._session

    def attach(self, session: TableSession) -> None:
        """Send to and notify ``session`` from now on; it hears what came before, in order."""
        with self._lock:
            self._session = session
            early, self._early = self._early, []
        for event, verdict, source in early:
            session.notify(event, verdict, source)

    def open_session(
        self,
        players: list[str],
        recognizer: Any,
        *,
        layout: TableLayout | None = None,
        config: WatcherConfig | None = None,
        referee_script: list[dict[str, Any]] | None = None,
        on_note: Callable[[Note], None] | None = None,
    ) -> TableSession:
        """The camera side's :class:`TableSession`, sending through this link and attached
        to it (see :meth:`attach`)."""
        session = TableSession(
            players,
            recognizer,
            self.send,
            layout=layout,
            # Scripted rulings only make sense alongside the camera's plays.
            referee=ScriptedReferee(referee_script) if referee_script else None,
            # A still table is not recognised again: the CPU goes to frames that changed.
            skip_static=True,
            config=config,
            on_note=on_note,
            observe=self.observe,
        )
        self.attach(session)
        return session

    def notify(self, event: dict[str, Any], verdict: TableVerdict, source: str) -> None:
        """A verdict of the game service (from any thread), told to the session."""
        with self._lock:
            session = self._session
            if session is None:  # the camera has not started: kept for its session
                self._early.append((event, verdict, source))
        if session is not None:
            session.notify(event, verdict, source)

    def send(self, event: dict[str, Any], source: str, _moment: Moment) -> TableVerdict | None:
        """The session's :data:`uno_table.session.Submit`: the game service's answer."""
        if self.submit is None:
            return None
        try:
            verdict = self.submit(dict(event), source)
        except Exception as exc:
            what = "an event" if source == VISION else "a ruling"
            self.report(f"could not submit {what}: {exc}")
            return None
        if source == VISION:
            self.events_submitted += 1
        return TableVerdict.from_json(verdict)

    def observe(self, top: str | None, moment: Moment) -> TableVerdict | None:
        """The session's :data:`uno_table.session.Observe`: the game service's healer."""
        if self.observe_top is None:
            return None
        try:
            verdict = self.observe_top(top, moment.t)
        except Exception as exc:  # the camera's view is evidence; never a stop
            self.report(f"could not check the pile's top: {exc}")
            return None
        return None if verdict is None else TableVerdict.from_json(verdict)
