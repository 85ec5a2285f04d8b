"""Was the top card lifted, and by whose arm? The questions the take-back rules
(:class:`vision.watch.takebacks.TakeBackRules`) ask of the arms at the pile and of a
card seen going: a card lifted off the pile is seldom read on its way out, the arm
that takes it is seen."""

from __future__ import annotations

import math

from vision.arm_probe import ArmSighting
from vision.tracks import Track
from vision.watch.arm_puts import ArmPutRules
from vision.watch.state import PileEntry, WatcherState


class LiftRules:
    """Lifts of the top play: :meth:`seen_lifted` notes one; the rest ask."""

    def __init__(self, state: WatcherState, arm_puts: ArmPutRules) -> None:
        self.state = state
        self.cfg = state.cfg
        self.arm_puts = arm_puts  # which arm put a card down, and on which visit

    def seen_lifted(self, top: PileEntry, t: float) -> None:
        """``top`` seen lifted at ``t``: its lift goes into ``WatcherState.lifts`` (from
        when it was last seen lying there), once."""
        if not top.lifted:
            self.state.lifts.append((self.state.top_seen_t, t))
            top.lifted = True

    def uncovered_by_own_arm(self, top: PileEntry, below: PileEntry, t: float, card: float) -> bool:
        """Is the card below seen again where it lay, read as its face, the top card
        gone and the arm of its player at the pile as it was last seen?

        A player takes back their own card; a hand that covers the top card to put one
        on it hides the card below as well. The lift is seen then, the card itself
        maybe never read on its way out (``fast-messy-24fps`` held-out 678, opened:
        Bob's red 6 gone unread from Ann's red 7, a pile card under both showing as a
        red 1 as his hand went, played as his half a second on, before the take-back;
        his red 1 put down next was refused). Not when the card below was read lying
        beside the top one before that arm came (an untidy pile): uncovered by nothing.
        Nor on the visit that put the top card down: that hand straightens its card on
        an untidy pile, and the card below shows beside it (``shaky-covering-messy-26fps``
        held-out 680: Ann's green 6, read as a green 8, taken back as her hand left it,
        nine alerts); a take-back is a visit of its own (it left the pile and came
        back, :meth:`ArmPutRules.arm_came_back`).
        """
        shows = [
            tr
            for tr in self.state.tracks
            if tr.last_t == t
            and tr.name == below.top
            and tr.last_name == below.top
            and tr.id not in top.ids
            and math.dist(tr.xy, below.spots[-1]) <= self.cfg.same_spot * card
        ]
        if not shows:
            return False  # (asked first: the arm's sightings since the play are more work)
        own = self.own_arm_came(top)
        if own is None or not self.arm_puts.arm_came_back(own[0], top.t, t):
            return False
        came = own[1]
        return not any(
            max(top.t, tr.read_since()) <= s.t < came for tr in shows for s in tr.sightings
        )

    def own_arm_came(self, top: PileEntry) -> tuple[int, float] | None:
        """The seat of ``top``'s player and when its arm came to the pile, seen there
        about when the top card was last seen (``lift_arm_before_s`` before to
        ``lift_arm_after_s`` after); None if it was not."""
        seat = self.own_seat(top)
        if seat is None:
            return None
        seen = [s.t for s in self._at_pile_as_last_seen() if s.seat == seat]
        return (seat, min(seen)) if seen else None

    def _at_pile_as_last_seen(self) -> list[ArmSighting]:
        """The arms seen at the discard pile about when the top card was last seen
        (``lift_arm_before_s`` before to ``lift_arm_after_s`` after); none without the
        arm watch."""
        arms = self.state.arms
        if arms is None:
            return []
        t0 = self.state.top_seen_t
        return [
            s
            for s in arms.sightings_since(t0 - self.cfg.lift_arm_before_s)
            if s.at_discard and s.t <= t0 + self.cfg.lift_arm_after_s
        ]

    def carried_off(self, tr: Track, top: PileEntry, card: float) -> bool:
        """Was ``tr`` first seen just off the pile, going away from where ``top`` lies?

        A card lifted off the pile is hidden by the hand until it is clear of it, and
        a copy of its face lying under it may take over its track meanwhile.
        """
        if len(tr.sightings) < 2:
            return False
        first, last = tr.sightings[0], tr.sightings[-1]
        d0 = min(math.hypot(first.x - x, first.y - y) for x, y in top.spots)
        d1 = min(math.hypot(last.x - x, last.y - y) for x, y in top.spots)
        return (
            d0 <= self.cfg.carried_off_from * card and d1 >= d0 + self.cfg.carried_off_travel * card
        )

    def lifted_by_arm(self) -> bool:
        """Was an arm at the discard pile as the top card was last seen?

        A card lifted off the pile moves fast and, in a blurred frame, is seldom read
        on its way out (docs/watcher.md, "Recogniser under motion blur"); the arm that
        takes it is seen. A card the recogniser merely loses has no arm at it.
        """
        return bool(self._at_pile_as_last_seen())

    def own_arm(self, top: PileEntry) -> bool:
        """Was the arm at the pile as the top card was last seen that of its player?

        A player takes their own card back; the next player's hand covers the top
        card while putting one down (``TakeBackRules._seen_beside_top``). On an untidy
        pile the card below lies beside the top one, seen all along, and the next play came
        before a card only gone had waited long enough (``quick-untidy-26fps`` seed
        610, trained recogniser: Dee's red 5 taken back, her red 2 1.4 s after).
        """
        return self.own_seat(top) is not None

    def own_seat(self, top: PileEntry) -> int | None:
        """The seat of the arm at the pile as the top card was last seen, when it is its
        player's (:meth:`own_arm`); None otherwise."""
        arms = self.state.arms
        if arms is None or top.player is None:
            return None
        seat = arms.seat_for(self.state.top_seen_t)
        return seat if seat is not None and self.state.players[seat] == top.player else None
