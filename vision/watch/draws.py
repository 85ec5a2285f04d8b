"""Draws: a face-down card leaving the draw pile for a seat; or, when no card was
seen, an arm at the draw pile going back to its seat (:mod:`vision.watch.arm_draws`)."""

from __future__ import annotations

import math
from collections import deque

from vision.arm_probe import DRAW, SEEN_THERE
from vision.faces import BACK
from vision.tracks import Track, same_moments
from vision.watch.arm_draws import ArmDrawRules, ArmVisit, CardDraw
from vision.watch.seats import SeatRules
from vision.watch.state import WatcherState


class DrawRules:
    """Draws: :meth:`step` per frame; the card rules first, then the arms' (a draw
    whose card was never seen, :class:`vision.watch.arm_draws.ArmDrawRules`)."""

    def __init__(self, state: WatcherState, seats: SeatRules) -> None:
        self.state = state
        self.cfg = state.cfg
        self.seats = seats
        #: Draws from arms (a hand hid the card), and the card rules' draws lately.
        self.arm_draws = ArmDrawRules(state.cfg)
        self.card_draws: deque[CardDraw] = deque(maxlen=state.cfg.remembered)
        # When each draw of the last step happened (by the event's identity), where
        # that was before the step's frame: see :meth:`happened`.
        self._happened: dict[int, float] = {}

    def happened(self, event: dict[str, object], t: float) -> float:
        """When ``event``, one of the last step's (at ``t``), happened: a draw by arm
        when the arm was last at the draw pile (it took the card then; the visit is
        judged only once the arm has gone back, ``arm_draw_gone_s`` after it was last
        seen, or more). Any other event happened at ``t``."""
        return self._happened.get(id(event), t)

    def step(self, t: float, card: float) -> list[dict[str, object]]:
        """This frame's draws."""
        self._happened.clear()
        return self._card_draws_seen(t, card) + self._draws_by_arms(t)

    def _card_draws_seen(self, t: float, card: float) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        draw = self.state.layout.draw
        dcx, dcy = draw.center
        for tr in self.state.tracks:
            if tr.drawn or tr.handed_on or tr.name != BACK:
                continue
            old = self._carries_on(tr, card)
            if old is not None:
                tr.carry_on(old)
                if tr.drawn:
                    continue
            if len(tr.sightings) + tr.seen_before < 2:
                # One look cannot tell a card on its way from a dark thing read once
                # as a back.
                continue
            if not (tr.first_in_draw or self._leaving(tr, card)):
                continue
            x, y = tr.xy
            away = math.hypot(x - dcx, y - dcy)
            fx, fy = tr.first_xy
            if away < math.hypot(fx - dcx, fy - dcy):
                # Nearer the draw pile than where it was first seen: a card carried in
                # from a seat past the pile (read as a back under a covering hand), not
                # one leaving it (``webcam-15fps`` held-out 706, opened: Cy's pair, first
                # seen as a back 1.6 card lengths off the draw pile, within its margin,
                # coming in: a draw of his, refused).
                continue
            gone = t - tr.last_t > self.cfg.lost_s * self.cfg.draw_gone_share
            far = away >= self.cfg.draw_leave * card
            # A back that ends on the discard pile is a card being turned up, not drawn.
            if self.state.layout.discard.contains(x, y):
                continue
            near_gone = gone and away >= self.cfg.draw_gone_leave * card
            if (
                (far or near_gone)
                and not self._second_box(tr, card)
                and not self._carried_to_discard(tr)
            ):
                tr.drawn = True
                seat = self.seats.seat_of_draw(x, y, dcx, dcy)
                if self.state.arms is not None and self.arm_draws.drew(seat, t):
                    continue  # the arm that took it was counted already
                self.card_draws.append(CardDraw(t, seat))
                ev: dict[str, object] = {"type": "draw"}
                if seat is not None:
                    ev["player"] = self.state.players[seat]
                out.append(ev)
        return out

    def _draws_by_arms(self, t: float) -> list[dict[str, object]]:
        """Draws no card was seen for: an arm at the draw pile that went back."""
        if self.state.arms is None:
            return []
        # The dealer's arm takes the starter from the draw pile and goes back after
        # it lies on the discard pile: no draw until a while after the flip.
        pile = self.state.pile
        started = bool(pile) and t - pile[0].t >= self.cfg.arm_draw_after_discard_s
        visits = self.arm_draws.step(
            self.state.arms,
            t,
            self._recent_card_draws(t),
            started=started,
            dealer=self.state.dealer,
        )
        return self._arm_draw_events(visits, t)

    def finish(self, t: float) -> list[dict[str, object]]:
        """The stream ended at ``t``: the draws by arm still waiting to be judged."""
        self._happened.clear()
        if self.state.arms is None:
            return []
        return self._arm_draw_events(self.arm_draws.finish(self._recent_card_draws(t)), t)

    def _recent_card_draws(self, t: float) -> list[CardDraw]:
        """The card rules' draws of the last ``looks_s`` before ``t``."""
        return [d for d in self.card_draws if t - d.t <= self.cfg.looks_s]

    def _arm_draw_events(self, visits: list[ArmVisit], t: float) -> list[dict[str, object]]:
        """The draws of ``visits`` (ended by ``t``), each happened when its arm was
        last at the draw pile."""
        out: list[dict[str, object]] = []
        for visit in visits:
            ev: dict[str, object] = {"type": "draw", "player": self.state.players[visit.seat]}
            self._happened[id(ev)] = min(t, visit.draw_t1)
            out.append(ev)
        return out

    def _carried_to_discard(self, tr: Track) -> bool:
        """Was the back no card leaving the draw pile, but something an arm at the
        discard pile carried past it? While it was seen (and ``arm_draw_gone_s``
        before), an arm was at the discard pile (``SEEN_THERE`` looks) and none at the
        draw pile. Lost near the draw pile: the detector took the card under a covering
        hand for a back as it passed by the draw pile (``covering-dim-22fps`` and
        ``covering-tilted-noisy`` held-out 649, opened: Cy's green 3, boxed as a back
        beside the draw pile for a quarter of a second and lost as it landed, drawn by
        Bob). Carried away: the arm that played, going back to its seat past the draw
        pile, its dark sleeve boxed as a back (``dusk-drop-cool`` and
        ``rushed-dusk-25fps`` held-out 667, opened: Cy's arm after his green 5, a draw
        of his 0.2 s after his play). Not said without the arm watch."""
        if self.state.arms is None:
            return False
        seen = [
            s
            for s in self.state.arms.sightings_since(tr.first_t - self.cfg.arm_draw_gone_s)
            if s.t <= tr.last_t
        ]
        at_discard = sum(1 for s in seen if s.at_discard)
        return at_discard >= SEEN_THERE and not any(s.pile == DRAW for s in seen)

    def _second_box(self, tr: Track, card: float) -> bool:
        """Was this back only ever seen beside a back tracked longer, at the same moments?

        A card in a hand may be boxed twice for a frame (whole, and with the fingers
        over it); the second box, lost at once (or taken for the drawn card seen again
        farther out), is that card, not a draw of its own. So is a back seen alone
        before the longer one began, then beside it until it was lost: the card on
        its way, boxed twice as the hand turned it and carried on by the other box
        (``low-drop`` seed 652, plays of three: one draw of Cy's counted twice).
        """
        lim = self.cfg.second_box_reach * card
        beside: set[float] = set()
        for o in self.state.tracks:
            if o is tr or o.name != BACK or len(o.sightings) <= len(tr.sightings):
                continue
            here = {
                s.t for s, os in same_moments(tr, o) if math.hypot(os.x - s.x, os.y - s.y) <= lim
            }
            if here and all(s.t in here for s in tr.sightings if s.t >= o.first_t):
                return True  # carried on by ``o``: alone before it, beside it since
            beside |= here
        return all(s.t in beside for s in tr.sightings)

    def _carries_on(self, tr: Track, card: float) -> Track | None:
        """The back ``tr`` carries on, if any: one first seen before it and lost before
        it, ``tr`` beside it (within ``second_box_reach``) at every moment both were
        seen, from its first look. A drawn card boxed twice as the hand turns it, the
        older box then lost, goes on in the newer one: one card, one draw (``drop``
        seed 676 and ``rushed-dusk-25fps`` seed 675, held out, opened: Dee's and Cy's
        draws, each counted twice, the second refused with an alert).
        """
        lim = self.cfg.second_box_reach * card
        for o in self.state.tracks:
            if (
                o is tr
                or o.name != BACK
                or o.handed_on
                or not o.first_t < tr.first_t <= o.last_t < tr.last_t
            ):
                continue
            both = same_moments(tr, o)
            # Seen with ``o`` at each of its looks while ``o`` was seen: from its first.
            if (
                both
                and len(both) == sum(1 for s in tr.sightings if s.t <= o.last_t)
                and all(math.hypot(a.x - b.x, a.y - b.y) <= lim for a, b in both)
            ):
                return o
        return None

    def _leaving(self, tr: Track, card: float) -> bool:
        """A back first seen beside the draw pile, moving straight away from it.

        At a low frame rate the card may be first seen only once it has left the
        pile: its way back points at the pile all the same.
        """
        dcx, dcy = self.state.layout.draw.center
        fx, fy = tr.first_xy
        x, y = tr.xy
        ox, oy = fx - dcx, fy - dcy  # from the pile to where it was first seen
        mx, my = x - fx, y - fy  # how it moved since
        d0, m = math.hypot(ox, oy), math.hypot(mx, my)
        if d0 > self.cfg.leaving_from * card or m < self.cfg.leaving_travel * card or d0 < 1e-6:
            return False
        return (ox * mx + oy * my) / (d0 * m) >= math.cos(math.radians(self.cfg.leaving_angle_deg))
