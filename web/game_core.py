"""The game service's event path: the match rebuilt from the store, read, and judged.

:class:`GameCore` holds the current match's :class:`tracker.Game` in step with the
store: on start (and after a failure half-way) it replays the match's stored events;
:meth:`GameCore.submit` judges an event (through the healer when healing is on),
stores every step in one transaction and then tells every page. The referee's other
commands and the camera's view of the pile are :class:`web.game.GameService`'s.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tracker import Game, rulespec
from tracker.heal import AskReferee, Healed, Healer
from tracker.rules import RuleSet
from web.broker import Broker
from web.game_values import (
    ASK,
    INFERRED,
    ServiceError,
    Submitted,
    asks_referee,
    history_size,
    is_rules_change,
    resolve_rules,
    rounds_of,
    shown_source,
)
from web.store import Match, Store
from web.timeline import Entry, Timeline, is_amend_marker


class GameCore:
    """Owns the current match's :class:`tracker.Game`; thread-safe. The event path
    of :class:`web.game.GameService`, which adds the referee's other commands."""

    def __init__(
        self,
        db_path: str,
        rules: RuleSet | str,
        players: Sequence[str],
        broker: Broker,
        *,
        new_match: bool = False,
        heal: bool = True,
    ) -> None:
        self.db_path = db_path
        self.heal = heal
        self.healer: Healer | None = None
        # The open ask-referee question's params (``question``, ``options``), if any.
        self._question: dict[str, Any] | None = None
        self.broker = broker
        self.lock = threading.RLock()
        self.recent_alerts: list[dict[str, Any]] = []
        # (number, source) of each event in the game's history, undone ones removed.
        self.applied: list[tuple[int, str]] = []
        # The refusals and verdicts the round's timeline lists (web/timeline.py).
        self.round_log = Timeline()
        # Called after every stored event as (event, verdict, source), e.g. the live loop.
        self.listeners: list[Callable[[dict[str, Any], dict[str, Any], str], None]] = []
        store = Store.open(db_path)
        try:
            match = store.latest_match()
            if match is None or new_match:
                # A bad rule set fails here, before anything is stored.
                store.create_match(list(players), resolve_rules(rules))
                match = store.latest_match()
            assert match is not None
            self._load(store, match)
        finally:
            store.close()

    # -- loading -------------------------------------------------------------------

    def _load(self, store: Store, match: Match) -> None:
        """Rebuild the game of ``match`` by replaying its stored events (a change of the
        rules between rounds is a stored event too, applied here, not by the tracker)."""
        stored = store.stored_events(match.id)
        game = Game(match.ruleset())
        self.match = match
        self.game = game
        self.n = stored[-1].n if stored else 0
        self.recent_alerts = []
        self.applied = []
        self.round_log = Timeline()
        verdict: dict[str, Any] | None = None
        for s in stored:
            if is_rules_change(s.event, s.verdict):
                game.rules = rulespec.from_spec(s.verdict["rule_set"])
                verdict = s.verdict
                continue
            if is_amend_marker(s.event, s.verdict):
                summary = s.verdict["amend"]
                self.round_log.drop(summary.get("dropped") or [])
                self.forget_alerts(set(summary.get("removed") or []))
                verdict = s.verdict
                continue
            size = history_size(game)
            verdict = game.apply(s.event).to_json()
            source = shown_source(s.source, s.verdict)
            self._follow(size, s.n, source)
            refused = not verdict.get("ok") and history_size(game) == size
            self.round_log.note(s.n, source, s.event, verdict, self.applied, refused=refused)
            if s.verdict.get("healed") or asks_referee(s.verdict):
                verdict = s.verdict  # the healer's answer, as it was given
            self._track(s.event, verdict, s.n)
        self.last = verdict
        # A question asked before a restart is not asked again: its answer was applied.
        self.healer = Healer(game) if self.heal else None
        self._question = None

    def _follow(self, size_before: int, n: int, source: str) -> None:
        """Keep :attr:`applied` in step with the game's history after event ``n``."""
        size = history_size(self.game)
        self.applied.extend([(n, source)] * max(size - size_before, 0))
        del self.applied[len(self.applied) - max(size_before - size, 0) :]  # undone

    def undo_target(self) -> dict[str, Any] | None:
        """What an ``undo`` would take back now: the last event that changed the state
        (a refused play changed nothing, so it is not that), its number and source."""
        history = self.game.events
        if not history or not self.applied:
            return None
        n, source = self.applied[-1]
        return {"n": n, "source": source, "event": history[-1]}

    def timeline(self) -> list[Entry]:
        """The current round's events, oldest first (:class:`web.timeline.Timeline`)."""
        with self.lock:
            return self.round_log.entries(self.applied, self.game.events)

    def forget_alerts(self, numbers: set[int]) -> None:
        """Take the alerts of events no longer in the record out of the recent ones."""
        self.recent_alerts = [a for a in self.recent_alerts if a.get("n") not in numbers]

    def clear_question(self) -> None:
        """The open question is no longer asked (the log it asked about was rewritten:
        :meth:`tracker.heal.Healer.amend` forgot it)."""
        self._question = None

    def _track(self, event: dict[str, Any], verdict: dict[str, Any], n: int) -> None:
        for alert in verdict.get("alerts") or []:
            self.recent_alerts.append({**alert, "n": n, "event": event})
        del self.recent_alerts[:-20]

    # -- reading -------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Everything a page needs to draw itself."""
        with self.lock:
            return {
                "match": self.match.to_json(),
                "rule_set": rulespec.spec_of(self.game.rules),
                "n": self.n,
                "game": self.game.state_json(),
                "last": self.last,
                "alerts": list(self.recent_alerts),
                "undo": self.undo_target(),
                "question": self.open_question(),
            }

    def open_question(self) -> dict[str, Any] | None:
        """The open ``ask-referee`` question, if any: its alert's ``params`` as they are
        now (a later event may have revised which option is applied: option 0 is always
        the one in the record) and ``n``, the number of the event that asked it."""
        healer, asked = self.healer, self._question
        if healer is None or healer.question is None or asked is None:
            return None
        params = AskReferee(None, healer.question.options, int(asked["question"])).params
        return {**params, "n": asked["n"]}

    # -- writing -------------------------------------------------------------------

    def submit(
        self, event: dict[str, Any], store: Store, *, source: str, client_id: str | None = None
    ) -> Submitted:
        """Judge ``event``, store it with its verdict, tell every page; in that order.

        ``client_id`` is the poster's own id for this event: posted again (a retry after
        a lost answer), the stored answer comes back and nothing is applied twice.
        """
        with self.lock:
            if client_id is not None:
                earlier = self._earlier(store, client_id, event)
                if earlier is not None:
                    return earlier
            return self._submit(event, store, source, client_id)

    def _earlier(
        self, store: Store, client_id: str, event: dict[str, Any] | None
    ) -> Submitted | None:
        """The stored answer to ``client_id``; 409 if it was another event."""
        stored = store.event_by_client_id(client_id)
        if stored is None:
            return None
        if event is not None and stored.event != event:
            raise ServiceError(
                f"client_id {client_id!r} was already used for another event "
                f"({stored.event.get('type')}, number {stored.n}); choose a new one"
            )
        return Submitted(stored.n, stored.verdict, self.snapshot(), repeated=True)

    def _submit(
        self, event: dict[str, Any], store: Store, source: str, client_id: str | None = None
    ) -> Submitted:
        def judge() -> Healed | None:
            if self.healer is not None:
                return self.healer.apply(event)
            verdict = self.game.apply(event)
            return Healed([(event, verdict)], verdict, verdict.ok)

        return self._store(judge, event, store, source, client_id)

    def _store(
        self,
        judge: Callable[[], Healed | None],
        event: dict[str, Any] | None,
        store: Store,
        source: str,
        client_id: str | None = None,
    ) -> Submitted:
        """Apply what ``judge`` does to the game, store each of its steps (the inferred
        events, and every step before the input's own, with source ``inferred``; the
        last with the whole verdict and ``client_id``), then tell every page. ``event``
        is the input (None: the camera's view of the pile, or the referee's answer to
        a question); its own step is stored with ``source``."""
        try:
            healed = judge()
            if healed is None:
                raise ServiceError("nothing to apply")
            verdict = healed.to_json()
        except ServiceError:
            raise
        except (LookupError, ValueError):
            raise  # the caller's error (a resolve with no such question)
        except Exception as exc:  # the tracker promises not to raise; be safe anyway
            self._reload(store)
            raise ServiceError(f"the tracker failed on this event: {exc}", 500) from exc
        steps = [(e, v.to_json()) for e, v in healed.steps]
        if not steps:  # a play reported twice: nothing to store
            return Submitted(self.n, verdict, self.snapshot())
        steps[-1] = (steps[-1][0], verdict)
        # Every step before the input's own is the healer's (inferred events, the undos
        # a correction takes, events applied again).
        sources = [
            source if i == len(steps) - 1 and not step.get("inferred") else INFERRED
            for i, (step, _) in enumerate(steps)
        ]
        return self.record(steps, sources, sources, event, source, client_id, store)

    def record(
        self,
        steps: Sequence[tuple[dict[str, Any], dict[str, Any]]],
        sources: Sequence[str],
        shown: Sequence[str],
        event: dict[str, Any] | None,
        source: str,
        client_id: str | None,
        store: Store,
        *,
        before_publish: Callable[[], None] | None = None,
    ) -> Submitted:
        """Store steps the game has applied (each with its stored source; ``shown`` is
        the source the timeline says, e.g. the camera's for an event applied again; the
        last step with ``client_id``), then tell every page. ``event`` is the input
        (None: the last step is shown), ``source`` who sent it."""
        state = self.game.state_json()
        rows = [
            (step, answer, by, client_id if i == len(steps) - 1 else None)
            for i, ((step, answer), by) in enumerate(zip(steps, sources, strict=True))
        ]
        try:
            # One transaction: every step of a healing or an amendment, or none.
            numbers = store.append_events(self.match.id, rows, rounds=rounds_of(state))
            stored = list(zip(numbers, sources, strict=True))
        except Exception as exc:
            # Not stored, so not applied: rebuild the game from what is stored.
            self._reload(store)
            raise ServiceError(f"could not store the event: {exc}", 503) from exc
        verdict = steps[-1][1]
        n = stored[-1][0]
        self.n = n
        self.last = verdict
        self._follow_steps(
            steps, [(number, by) for (number, _), by in zip(stored, shown, strict=True)]
        )
        for (step, answer), (number, _) in zip(steps, stored, strict=True):
            self._track(step, answer, number)
            for alert in answer.get("alerts") or []:  # (the last question asked stays)
                if isinstance(alert, Mapping) and alert.get("code") == ASK:
                    self._question = {**alert.get("params", {}), "n": number}
        winner = state.get("match_winner")
        if (winner or None) != self.match.winner:
            store.set_match_winner(self.match.id, winner or None)
            self.match = store.match(self.match.id) or self.match
        if before_publish is not None:
            before_publish()
        snapshot = self.snapshot()
        shown_event = event if event is not None else steps[-1][0]
        self.broker.publish(
            "verdict",
            {
                "n": n,
                "t": time.time(),
                "source": source,
                "event": shown_event,
                "verdict": verdict,
                "snapshot": snapshot,
                "steps": [
                    {"n": number, "source": by, "event": step}
                    for (step, _), (number, by) in zip(steps, stored, strict=True)
                ],
            },
        )
        for listener in self.listeners:
            # A listener's failure is its own: the event is stored and published.
            with contextlib.suppress(Exception):
                listener(shown_event, verdict, source)
        return Submitted(n, verdict, snapshot)

    def _follow_steps(
        self,
        steps: Sequence[tuple[dict[str, Any], dict[str, Any]]],
        stored: Sequence[tuple[int, str]],
    ) -> None:
        """:meth:`_follow` over several stored steps: an accepted ``undo`` takes one
        back, another accepted event adds one; then matched to the game's history."""
        for (step, answer), (n, by) in zip(steps, stored, strict=True):
            if step.get("type") == "amend":  # an amendment's marker: not the game's
                continue
            ok = bool(answer.get("ok"))
            if ok and step.get("type") == "undo":
                del self.applied[-1:]
            elif ok:
                self.applied.append((n, by))
            self.round_log.note(n, by, step, answer, self.applied, refused=not ok)
        size = history_size(self.game)
        while len(self.applied) < size:  # (an event the tracker kept though refused)
            self.applied.append(stored[-1])
        del self.applied[size:]

    def reload(self, store: Store) -> None:
        """Rebuild the game from what is stored (after a failure half-way)."""
        self._reload(store)

    def _reload(self, store: Store) -> None:
        self._question = None
        match = store.match(self.match.id) or self.match
        self._load(store, match)
