"""Which arm left a card: the seat questions asked of the arms an arm watch saw.

:class:`vision.hands.ArmWatch` finds the arms (pixels in, :class:`ArmSighting` out);
this module answers from what it kept, with no pixels: the arms at a pile
(``sightings``) and the arms seen crossing the frame's edge that reached no pile
(``in_view``, as (time, seat)). Split from :mod:`vision.hands` in the forty-seventh
session (no change of behaviour).

>>> from vision.arm_probe import ArmSighting
>>> seen = [ArmSighting(k / 25, 3, (0.0, 0.0), (1.0, 1.0)) for k in range(25, 38)]
>>> seat_between(seen, 0.0, 2.0, SeatConfig())
3
>>> seat_for(seen, [], 1.2, SeatConfig())
3
>>> seat_for([], [(0.9, 2), (0.95, 2)], 1.2, SeatConfig())   # seen only over the floor
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.arm_probe import ArmSighting

__all__ = [
    "SeatConfig",
    "all_visits",
    "came_in_view",
    "latest_visits",
    "seat_between",
    "seat_for",
]

#: Sighting times are frame numbers over a frame rate: a gap this much over a setting
#: is that setting (at 24 frames/s, 6 looks span 0.25 s, give or take a rounding).
ROUNDING_S = 1e-6


@dataclass(frozen=True)
class SeatConfig:
    """How the seat of an arm is told; times in seconds."""

    last_s: float = 0.5  # seat_between votes over the last this-long of sightings
    min_frames: int = 2  # ... and needs this many
    before_s: float = 2.0  # seat_for: an arm at the pile this long before a card showed
    after_s: float = 0.3  # ... or this long after (the hand still leaving)
    #: An arm's visit: its sightings with no gap longer than this (seat_for).
    visit_gap_s: float = 0.25


@dataclass
class Visit:
    """One seat's latest visit: when it began, its latest sighting, when it was seen."""

    began: float
    last: float
    seen: set[float]


def latest_visits(sightings: Sequence[tuple[float, int]], gap_s: float) -> dict[int, Visit]:
    """Each seat's latest visit among ``sightings`` ((time, seat), oldest first): its
    sightings with no gap longer than ``gap_s``.

    >>> visits = latest_visits([(0.0, 1), (0.1, 1), (0.5, 1), (0.6, 2)], 0.25)
    >>> visits[1].began, visits[1].last, sorted(visits[1].seen), visits[2].began
    (0.5, 0.5, [0.5], 0.6)
    """
    return {seat: seen[-1] for seat, seen in all_visits(sightings, gap_s).items()}


def all_visits(sightings: Sequence[tuple[float, int]], gap_s: float) -> dict[int, list[Visit]]:
    """Each seat's visits among ``sightings`` ((time, seat), oldest first), oldest
    first: its sightings with no gap longer than ``gap_s``.

    >>> visits = all_visits([(0.0, 1), (0.1, 1), (0.5, 1), (0.6, 2)], 0.25)
    >>> [(v.began, v.last) for v in visits[1]], len(visits[2])
    ([(0.0, 0.1), (0.5, 0.5)], 1)
    """
    visits: dict[int, list[Visit]] = {}
    for t, seat in sightings:
        mine = visits.setdefault(seat, [])
        if not mine or t - mine[-1].last > gap_s:
            mine.append(Visit(t, t, {t}))
        else:
            mine[-1].last = t
            mine[-1].seen.add(t)
    return visits


def seat_between(
    sightings: Sequence[ArmSighting], t0: float, t1: float, cfg: SeatConfig
) -> int | None:
    """The seat of the arm last at the discard pile between ``t0`` and ``t1``, if one was.

    Votes over the sightings of the last ``last_s`` seconds before the latest
    one in the window (an arm leaving the pile, not the one before it); when no
    seat has ``min_frames`` of them there (a stray sighting last), the latest
    arm seen that often: counted back from the latest sighting, the first seat
    to reach ``min_frames`` (not the whole window's most seen: the arm of the
    play before, seen as long, is not the one that left a card now).
    """
    seen = [s for s in sightings if t0 <= s.t <= t1 and s.at_discard]
    if len(seen) < cfg.min_frames:
        return None
    last = seen[-1].t
    votes: dict[int, int] = {}
    for s in seen:
        if s.t >= last - cfg.last_s:
            votes[s.seat] = votes.get(s.seat, 0) + 1
    seat = max(votes, key=lambda k: votes[k])
    if votes[seat] >= cfg.min_frames:
        return seat
    back: dict[int, int] = {}
    for s in reversed(seen):
        back[s.seat] = back.get(s.seat, 0) + 1
        if back[s.seat] >= cfg.min_frames:
            return s.seat
    return None


def seat_for(
    sightings: Sequence[ArmSighting],
    in_view: Sequence[tuple[float, int]],
    first_t: float,
    cfg: SeatConfig,
) -> int | None:
    """The seat of the arm that left a card first seen at ``first_t``.

    The arm at the pile as the card showed (a visit of ``min_frames`` sightings or
    more, its gaps within ``visit_gap_s``, reaching over ``first_t``), the one
    that came last if several were: an arm still going back from the play before
    is not the one that brought this card (``quick-untidy-26fps`` seed 607,
    trained recogniser: Dee's arm, leaving the pile after her green 2, outnumbered
    Ann's bringing the green 7 over the last half second). Not a visit inside
    another seat's, in frames that seat was not seen in: one arm, its entry
    flickering across the line between two seats (``random-7027`` seed 803: Bob's
    arm seen as Ann's in two frames as it left his red 9). Otherwise the arm that
    came into view since the last arm left the pile (:func:`came_in_view`), or else
    :func:`seat_between` over the whole window.
    """
    t0, t1 = first_t - cfg.before_s, first_t + cfg.after_s
    at_pile = [(s.t, s.seat) for s in sightings if t0 <= s.t <= t1 and s.at_discard]
    # Each seat's latest visit reaching over first_t: a stray sighting after it is a
    # visit of its own, and no reason to forget it (``night-covering-tilted-24fps``
    # held-out 709, opened: Dee's arm at the pile until the very look a gap before her
    # green 4 showed, seen once more after; the card was given to Bob's arm in view).
    gap = cfg.visit_gap_s + ROUNDING_S
    visits = {
        seat: visit
        for seat, seen in all_visits(at_pile, cfg.visit_gap_s).items()
        for visit in seen
        if len(visit.seen) >= cfg.min_frames
        and visit.began <= first_t + gap
        and visit.last >= first_t - gap
    }
    there = list(visits)
    # One arm whose entry crossed the line between two seats for a frame or two is
    # no arm come last: its "visit" lies inside the other seat's, in frames that
    # seat was not seen in (two arms at once are seen in the same frames).
    there = [
        seat
        for seat in there
        if not any(
            visits[other].began < visits[seat].began
            and visits[other].last > visits[seat].last
            and not (visits[other].seen & visits[seat].seen)
            for other in there
            if other != seat
        )
    ]
    if there:
        return max(there, key=lambda seat: visits[seat].began)
    came_in = came_in_view(sightings, in_view, t0, first_t, cfg)
    return came_in if came_in is not None else seat_between(sightings, t0, t1, cfg)


def came_in_view(
    sightings: Sequence[ArmSighting],
    in_view: Sequence[tuple[float, int]],
    t0: float,
    first_t: float,
    cfg: SeatConfig,
) -> int | None:
    """The seat of the arm that came into view last before a card showed at
    ``first_t``, reaching no pile, after every arm seen at the discard pile since
    ``t0`` was last seen there: ``min_frames`` sightings or more, its gaps within
    ``visit_gap_s``, begun by ``first_t``. None if none did.

    A dark arm over a dark table is seen only where it crosses the floor beyond the
    table's edge, and its card, under its hand, first on the pile: the arm last seen
    at the pile left it a while before (``covering-dim-22fps`` and ten more styles,
    held-out 703, opened: Cy's green 1, given to Bob, whose arm had put his red 1
    down 1.8 s before, as Cy's arm showed only above the table).
    """
    left = max(
        (s.t for s in sightings if t0 <= s.t <= first_t and s.at_discard),
        default=t0,
    )
    visits = latest_visits(
        [(t, seat) for t, seat in in_view if left < t <= first_t], cfg.visit_gap_s
    )
    came = [seat for seat, visit in visits.items() if len(visit.seen) >= cfg.min_frames]
    return max(came, key=lambda seat: visits[seat].began) if came else None
