"""The game service: one tracker game per match, kept in step with the store.

Every event, from the referee's tablet or from the camera, goes through
:meth:`GameService.submit`: under one lock the tracker judges it, the store appends
event and verdict (committed before anyone is answered), then every live page hears
of it. On start the current match is rebuilt by replaying its stored events, so a
server killed mid-game comes back in exactly the same state.

With healing on (the default; ``HEAL`` in the app's config), the game is wrapped in a
:class:`tracker.heal.Healer`: a refusal that a missed event explains is healed, the
inferred events stored before the real one with source ``inferred`` (they undo like
any other), and where it is unsure ONE ``ask-referee`` alert offers a one-tap fix
(:meth:`GameService.resolve`). The camera's view of the pile comes in through
:meth:`GameService.observe_top`. See docs/healing.md.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from tracker import Game, rulespec
from tracker.rules import RuleSet
from web.game_core import GameCore
from web.game_values import (
    ASK,
    INFERRED,
    RULES_EVENT,
    ServiceError,
    Submitted,
    history_size,
    is_rules_change,
    resolve_rules,
    rounds_of,
)
from web.store import Match, Store

__all__ = [
    "ASK",
    "INFERRED",
    "RULES_EVENT",
    "Game",
    "GameCore",
    "GameService",
    "ServiceError",
    "Submitted",
    "history_size",
    "is_rules_change",
    "resolve_rules",
    "rounds_of",
]


class GameService(GameCore):
    """Owns the current match's :class:`tracker.Game`; thread-safe.

    The event path (loading, reading, :meth:`~web.game_core.GameCore.submit`) is
    :class:`~web.game_core.GameCore`'s; here are the camera's view of the pile, the
    answer to a question, and the referee's commands (correct the last play, change
    the rules between rounds, start a new match).
    """

    def observe_top(self, card: str | None, t: float, store: Store) -> Submitted | None:
        """The card the camera sees on top of the discard pile at video time ``t``
        (:meth:`tracker.heal.Healer.observe_top`): a steady top unlike the record's is
        healed, its steps stored and published like an event's. None when nothing
        was done (or healing is off)."""
        with self.lock:
            healer = self.healer
            if healer is None:
                return None
            healed = healer.observe_top(card, t)
            if healed is None:
                return None
            return self._store(lambda: healed, None, store, INFERRED)

    def resolve(
        self,
        question: int,
        index: int,
        store: Store,
        *,
        card: str | None = None,
        color: str | None = None,
    ) -> Submitted:
        """The referee's answer to the open ``ask-referee`` question ``question``:
        option ``index`` is what happened (0, the one applied: nothing changes), with
        ``card`` (and a wild's ``color``) when the card was another ("Correct it")."""
        with self.lock:
            healer = self.healer
            open_q = self.open_question()
            if healer is None or open_q is None:
                raise ServiceError("no question is open: nothing to answer")
            if open_q.get("question") != question:
                raise ServiceError(
                    f"question {question} is no longer open (the open one is "
                    f"{open_q.get('question')}); reload the page"
                )
            options = open_q.get("options") or []
            if not 0 <= index < len(options):
                raise ServiceError(f"question {question} has no option {index}", 400)
            if index == 0 and card is None:  # "Yes": as recorded; nothing changes
                healer.question = None
                verdict = {**(self.last or {}), "alerts": [], "answered": question}
                snapshot = self.snapshot()
                self.broker.publish("snapshot", snapshot)
                return Submitted(self.n, verdict, snapshot)
            try:
                return self._store(
                    lambda: healer.resolve(index, card=card, color=color),
                    None,
                    store,
                    "referee",
                )
            except LookupError as exc:
                raise ServiceError(str(exc)) from exc
            except ValueError as exc:
                raise ServiceError(f"cannot correct to that card: {exc}", 400) from exc

    def correct(
        self, card: str, color: str | None, store: Store, *, client_id: str | None = None
    ) -> list[Submitted]:
        """Replace the last play (a misread card) by ``card``: an undo, then the play.

        With ``client_id``, the undo and the play are stored as ``<client_id>/undo`` and
        ``<client_id>/play``; a retry gets their stored answers.
        """
        ids = (f"{client_id}/undo", f"{client_id}/play") if client_id else (None, None)
        with self.lock:
            if ids[0] is not None and ids[1] is not None:
                first = self._earlier(store, ids[0], None)
                if first is not None:
                    stored = store.event_by_client_id(ids[1])
                    if stored is not None and stored.event.get("card") != card:
                        raise ServiceError(
                            f"client_id {client_id!r} was already used to correct to "
                            f"{stored.event.get('card')}; choose a new one"
                        )
                    second = self._earlier(store, ids[1], None)
                    return [first] if second is None else [first, second]
            history = self.game.events  # the events that changed the state, undos removed
            if not history or history[-1].get("type") != "play":
                raise ServiceError("the last event applied is not a play; nothing to correct")
            player = history[-1].get("player")
            if not player:
                # "Whoever's turn it was": the state an undo would go back to.
                player = self.game.judge({"type": "undo"}).state.get("turn")
            play: dict[str, Any] = {"type": "play", "card": card}
            if player:
                play["player"] = player
            if color:
                play["color"] = color
            undone = self._submit({"type": "undo"}, store, "referee", ids[0])
            if not undone.verdict.get("ok"):
                return [undone]
            return [undone, self._submit(play, store, "referee", ids[1])]

    def preview(self, event: dict[str, Any], store: Store) -> dict[str, Any]:
        """The verdict ``event`` would get now, without applying or storing it."""
        del store  # judged on the live game, which is in step with the store
        with self.lock:
            return self.game.judge(event).to_json()

    def change_rules(
        self, rules: RuleSet | object, store: Store, *, client_id: str | None = None
    ) -> Submitted:
        """Change the rule set between rounds; stored (and logged) as a ``rules`` event.

        Refused (409) while a round is in progress: a rule must not change under a hand
        being played. Undoing back into an earlier round keeps the new rules.
        """
        ruleset = resolve_rules(rules)
        with self.lock:
            if client_id is not None:
                earlier = self._earlier(store, client_id, None)
                if earlier is not None:
                    return earlier
            if self.game.state_json().get("in_round"):
                raise ServiceError(
                    "a round is in progress: the rules can change only between rounds "
                    "(end the round first)"
                )
            spec = rulespec.spec_of(ruleset)
            event = {"type": RULES_EVENT, **spec}
            verdict = {"ok": True, "alerts": [], "rule_set": spec, "seq": self.game.seq}
            try:
                n = store.append_event(
                    self.match.id, event, verdict, source="referee", client_id=client_id
                )
            except Exception as exc:
                raise ServiceError(f"could not store the change: {exc}", 503) from exc
            self.game.rules = ruleset
            self.n = n
            self.last = verdict
            snapshot = self.snapshot()
            self.broker.publish(
                "verdict",
                {
                    "n": n,
                    "t": time.time(),
                    "source": "referee",
                    "event": event,
                    "verdict": verdict,
                    "snapshot": snapshot,
                },
            )
            return Submitted(n, verdict, snapshot)

    def new_match(
        self,
        players: Sequence[str],
        rules: RuleSet | object,
        store: Store,
        *,
        client_id: str | None = None,
    ) -> tuple[Match, bool]:
        """Finish the current match and start a new one; ``(match, repeated)``.

        ``rules`` is a rule set, a preset name or ``{"preset", "set"}``. With
        ``client_id``, a retry answers the match the first request made.
        """
        ruleset = resolve_rules(rules)
        with self.lock:
            if client_id is not None:
                earlier = store.match_by_client_id(client_id)
                if earlier is not None:
                    return earlier, True
            match_id = store.create_match(list(players), ruleset, client_id=client_id)
            match = store.match(match_id)
            assert match is not None
            self._load(store, match)
            self.broker.publish("snapshot", self.snapshot())
            return match, False
