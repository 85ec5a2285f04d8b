"""Tracks: one :class:`Track` per physical card, what the card tracker
(:class:`vision.card_tracker.CardTracker`) makes of each frame's detections, and the
:class:`TrackState` the rules give it (which linking reads: a settled card on the
pile keeps its face). Split from the tracker in the forty-ninth session.

>>> tr = Track(id=0, first_t=0.0, first_xy=(320.0, 240.0), first_in_discard=True,
...            first_in_draw=False)
>>> tr.note(Detection("red-7", 0.9, (295, 202, 345, 278), ()), 0.0)
>>> tr.name, tr.state, tr.settled
('red-7', <TrackState.FREE: 'free'>, False)
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from vision.boxes import box_middle
from vision.detections import Candidates
from vision.faces import card_value


class TrackState(Enum):
    """What the rules made of a track; every state but ``FREE`` is *settled*: the card
    is no play of its own any more."""

    #: Not (yet) part of anything: it may become a play, a draw, or nothing.
    FREE = "free"
    #: Its card is in a play the watcher reported.
    PLAYED = "played"
    #: A card of the pile from before (a new round's leftovers).
    PILE = "pile"
    #: A box where no card was put: a pile card misread, or the heap.
    MISREAD = "misread"
    #: Another box of a card already tracked (boxed twice, or taken up by a heap box);
    #: that box carries the play.
    TWIN = "twin"


def same_moments(a: Track, b: Track) -> list[tuple[Sighting, Sighting]]:
    """The sightings of ``a`` and ``b`` from the same frames, in order (a frame's time
    is the one value every track seen in it records)."""
    at = {s.t: s for s in b.sightings}
    return [(s, at[s.t]) for s in a.sightings if s.t in at]


class Detection(NamedTuple):
    """One detection as the watcher reads it."""

    name: str
    conf: float
    box: tuple[float, ...]
    candidates: Candidates


@dataclass
class Sighting:
    t: float
    x: float
    y: float
    box: tuple[float, float, float, float]


@dataclass
class Track:
    id: int
    first_t: float
    first_xy: tuple[float, float]
    first_in_discard: bool
    first_in_draw: bool
    sightings: deque[Sighting] = field(default_factory=lambda: deque(maxlen=30))
    votes: deque[tuple[str, float]] = field(default_factory=lambda: deque(maxlen=15))
    last_t: float = 0.0
    vx: float = 0.0
    vy: float = 0.0
    max_travel: float = 0.0  # farthest distance from the first sighting
    was_outside_discard: bool = False
    state: TrackState = TrackState.FREE  # what the rules made of it (see TrackState)
    pending_since: float | None = None  # came to rest as a play candidate
    drawn: bool = False  # its draw event was emitted
    handed_on: bool = False  # a later sighting of the same drawn card carries it on
    seen_before: int = 0  # sightings of the drawn card's tracks it carries on
    last_name: str = ""  # the face its latest detection gave
    name_run_since: float = 0.0  # when its detections began to give that face, every one since
    faces: set[str] = field(default_factory=set)  # every face it was ever read as
    looks: deque[Candidates] = field(default_factory=lambda: deque(maxlen=15))
    read_as: str | None = None  # the face a play's value settled for it, over its vote
    back_t: float | None = None  # when last seen again after ``hidden_gap_s`` unseen
    # How it lay before it went unseen then: its face and its box steadied (each side
    # the median), when seen at least ``lay_before_sightings`` times read as that face
    lay_before: tuple[str, tuple[float, float, float, float]] | None = None
    misread_xy: tuple[float, float] | None = None  # where it lay when judged a misreading
    waited_since: float | None = None  # when its judgement first waited for a hand to go
    waited_as: str | None = None  # the face it was voted then

    @property
    def settled(self) -> bool:
        """No play of its own any more: played, or a pile card, misread or boxed twice."""
        return self.state is not TrackState.FREE

    @property
    def xy(self) -> tuple[float, float]:
        s = self.sightings[-1]
        return (s.x, s.y)

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.sightings[-1].box

    @property
    def name(self) -> str:
        if self.read_as is not None:
            return self.read_as
        score: dict[str, float] = {}
        for n, c in self.votes:
            score[n] = score.get(n, 0.0) + c * c
        return max(score, key=lambda n: score[n])

    def name_share(self) -> float:
        """How much of the vote the winning name holds (0..1).

        Votes weigh the square of their confidence: one clear look at a card outweighs
        several unsure ones (a card half under a hand, or boxed with the pile).
        """
        total = sum(c * c for _, c in self.votes) or 1.0
        top = self.name
        return sum(c * c for n, c in self.votes if n == top) / total

    def misread_here(self) -> None:
        """Judge it a box where no card was put (a pile card misread, or the heap), where
        it lies now."""
        self.state, self.misread_xy = TrackState.MISREAD, self.xy

    def reads(self) -> list[tuple[Sighting, str]]:
        """Its latest sightings, oldest first, each with the face it was read as (as
        many as both are kept for: a sighting and its vote are noted together).

        >>> tr = Track(id=1, first_t=0.0, first_xy=(0.0, 0.0), first_in_discard=True,
        ...            first_in_draw=False, votes=deque(maxlen=2))
        >>> for i, face in enumerate(["red-1", "red-7", "red-7"]):
        ...     tr.note(Detection(face, 0.9, (i, 0.0, i + 1.0, 1.0), ()), float(i))
        >>> [(s.t, face) for s, face in tr.reads()]
        [(1.0, 'red-7'), (2.0, 'red-7')]
        """
        n = min(len(self.sightings), len(self.votes))
        sightings = list(self.sightings)[len(self.sightings) - n :]
        faces = [face for face, _conf in list(self.votes)[len(self.votes) - n :]]
        return list(zip(sightings, faces, strict=True))

    def showed_t(self) -> float:
        """When it showed as the card it lies as: when seen again after it last went
        unseen ``hidden_gap_s`` (:attr:`back_t`: a hand over it, it may lie otherwise
        now, or be another card on its track), or when first seen if it never did."""
        return self.first_t if self.back_t is None else self.back_t

    def read_since(self) -> float:
        """When it began to read as its face: the first of its latest looks in a row
        that read so; its first sighting if it never read otherwise (or its face is none
        it was read as), or if its latest look read otherwise.

        The start of that row is kept as it happens (``name_run_since``), not taken from
        the looks kept for the vote: read that way, a row longer than those gave a time
        creeping on with every frame (the held-out ``rushed-dusk-25fps`` seed 671's
        misreading track, then Bob's blue reverse: its put-down arm sought ever later).
        """
        name = self.name
        if self.faces <= {name} or self.last_name != name:
            return self.first_t
        return self.name_run_since

    def note(self, det: Detection, t: float) -> None:
        """Keep one detection of it at ``t``: its place, its face's vote and look, and
        since when its detections give that face (:meth:`read_since`)."""
        name, conf, box, cands = det
        cx, cy = box_middle(box)
        self.sightings.append(Sighting(t, cx, cy, (box[0], box[1], box[2], box[3])))
        self.votes.append((name, conf))
        self.looks.append(cands)
        self.faces.add(name)
        self.last_t = t
        if name != self.last_name:
            self.name_run_since = t
        self.last_name = name

    def carry_on(self, old: Track) -> None:
        """This track is the card ``old`` was, seen on: it takes up where ``old`` began
        and whether it was drawn (one card, one draw); ``old`` is handed on."""
        self.first_in_draw = self.first_in_draw or old.first_in_draw
        self.first_xy = old.first_xy
        self.drawn = old.drawn
        self.seen_before = len(old.sightings) + old.seen_before
        old.handed_on = True

    @property
    def own_travel(self) -> float:
        """How far its own remembered sightings moved from the first of them (px):
        unlike ``max_travel``, not what it took over with :meth:`came_as`."""
        return self.travel_since(-math.inf)

    def travel_since(self, t: float) -> float:
        """How far its remembered sightings from ``t`` on moved from the first of them (px).

        >>> tr = Track(id=1, first_t=0.0, first_xy=(0.0, 0.0), first_in_discard=True,
        ...            first_in_draw=False)
        >>> for i, x in enumerate([0.0, 0.0, 30.0, 40.0]):
        ...     tr.sightings.append(Sighting(i / 10, x, 0.0, (x, 0.0, x, 0.0)))
        >>> tr.travel_since(0.15), tr.travel_since(1.0)
        (10.0, 0.0)
        """
        since = [s for s in self.sightings if s.t >= t]
        if not since:
            return 0.0
        first = since[0]
        return max(math.hypot(s.x - first.x, s.y - first.y) for s in since)

    def came_as(self, other: Track) -> None:
        """Take over where ``other`` (the same card, boxed apart) came from."""
        self.was_outside_discard = True
        self.first_xy = other.first_xy
        self.first_in_discard = other.first_in_discard

    def face_of_value(self, value: str) -> tuple[str, float] | None:
        """The likeliest face of ``value`` over its recent looks, with its mean probability.

        A card half under another of a fan is often read as another face; the
        classifier's runners-up still hold its face, and the play's value picks it.
        """
        score: dict[str, float] = {}
        for look in self.looks:
            for face, p in look:
                if card_value(face) == value:
                    score[face] = score.get(face, 0.0) + p
        if not score:
            return None
        best = max(score, key=lambda f: score[f])
        return best, score[best] / len(self.looks)
