"""The watcher's thresholds, in one place: distances in card lengths (the long side of
a card, ``TableLayout.card_px``), times in seconds, areas in card faces.

Every field has a default, the values the watcher was tuned with; a table may
override any of them in its layout file (``uno-table calibrate-table``) under a
``"watcher"`` object, read by :meth:`WatcherConfig.load`:

.. code-block:: json

    {"width": 640, "height": 480, "discard": [...], "draw": [...], "seats": [...],
     "watcher": {"lost_s": 0.6, "min_confidence": 0.3}}

>>> WatcherConfig.from_dict({"lost_s": 0.6}).lost_s
0.6
>>> WatcherConfig.from_dict({"lost": 0.6})
Traceback (most recent call last):
...
ValueError: unknown watcher setting 'lost' (see vision/watcher_config.py)
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class WatcherConfig:
    """Tuning knobs; distances are fractions of the card's long side (``card_px``)."""

    rest_s: float = 0.06  # still for this long (and >= 2 sightings) = at rest
    still: float = 0.05  # "still" = all sightings over rest_s within this distance
    # A card first seen lying on the pile (a hand covered it on the way) moves no more:
    # only its box does, by 4-5 px (0.06 card lengths) with the trained detector on a
    # heap; a card seen coming must keep within ``still`` (it is slowing down).
    lying_still: float = 0.065  # such a card is at rest while its box keeps within this
    creep_s: float = 0.1  # a card still now that came farther than ``creep`` over the
    creep: float = 0.03  # last creep_s, on the line (within creep_angle_deg) it came
    creep_angle_deg: float = 60.0  # along the creep_s before, and then no farther than
    creep_slow: float = 0.25  # creep_slow (a slow card), is creeping to rest: not at rest
    #: The same over spans this long (``creep`` the same distance a span, ``creep_slow``
    #: the same speed): the slowest hands' cards creep slower than their boxes jitter
    #: over one creep_s (vision.motion.Motion.creeping).
    creep_long_s: float = 0.25  # seconds (0: off)
    #: A card slid on steadily by a hand that still holds it: over the last three
    #: creep_s, and over the last one and a half, it moves this fast (a straight line
    #: fitted to its places) and no faster than creep_slow a creep_s: still on its way,
    #: not at rest (0: off; vision.motion.Motion.sliding).
    slide_speed: float = 0.25  # card lengths a second
    slide_steady: float = 0.7  # ... and over the later half this share of that speed or more
    lost_s: float = 0.45  # a track unseen this long is gone
    match_gate: float = 0.8  # link a detection to a track within this distance (+ motion)
    min_confidence: float = 0.25  # ignore weaker detections
    group_s: float = 0.5  # wait at most this long for cards put down together
    quiet_play_rest_s: float = 0.3  # a card never seen arriving must rest this long
    waited_travel: float = 0.2  # judged once a hand went: moved this far since, it lay there later
    swap_gap_s: float = 0.2  # a face replacing a pile card's sooner is a misreading
    misread_moved: float = 0.5  # a misreading (no new ink) moved on this far: a card (0: off)
    amend_s: float = 1.0  # a card of the last play seen this long after it: amend
    undo_s: float = 0.5  # the top card gone this long, the one below visible: undo
    same_spot: float = 0.45  # a card this near a pile card's resting place is that card
    draw_leave: float = 1.2  # a back this far from the draw pile has been drawn
    votes: int = 25  # sightings used for a track's name
    value_evidence: float = 0.1  # mean probability of a face of the play's value, to read it so
    fan_evidence: float = 0.1  # mean probability, over fan_s, of a lower card of a fan
    fan_s: float = 0.6  # how far back a play's lower cards are looked for
    landed_unseen_s: float = 0.25  # a card lost this long as it reached the pile landed
    strip_area: float = 0.07  # a new colour this large (in card faces) beside a play: a lower card
    ink_area: float = 0.005  # a play with less new ink of its colour (in card faces) is none
    own_color_change: float = 0.15  # or, put on its own colour, less change in its middle
    lower_ink_area: float = 0.02  # a lower card read from boxes needs this much new ink
    strip_reach: float = 0.9  # how far from the top card lower cards of a fan are looked for
    strip_area_on_own: float = 0.05  # strip_area for a colour put on its own (the old top's)
    strip_hand_gap_s: float = 1.0  # an arm at the discard pile unseen no longer than this
    # between two sightings may have held still over it: no clear picture of the pile then
    unmatched_lower_change: float = 0.05  # old top's colour changed beside a card matching nothing
    unmatched_fan_line: float = 0.3  # ... or past a fan's lowest card, this near its line
    twin_outside_area: float = 0.05  # the top card's colour this far outside its box: its twin
    twin_apart: float = 0.25  # two boxes of one face at once, this far apart (card lengths) ...
    twin_scale: float = 0.15  # ... each of a card's size within this share ...
    twin_looks: int = 2  # ... in this many frames: two cards, the lower read as the upper
    fan_tail_area: float = 0.03  # a new colour this large beyond a fan's lowest card, in line
    wild_as_back_s: float = 2.0  # a wild seen where a back from a seat landed this long ago
    clear_look: float = 0.5  # a card not seen coming needs one look this sure to be a play
    twin_box: float = 0.25  # another value boxed this near a card as it is played: that card
    lost_arrival_s: float = 1.5  # a heap box reading as a card lost on its way this long ago
    beside_gap_s: float = 0.3  # a pile card seen this recently where a box lies: that card
    below_gap_s: float = 0.4  # the card below unseen this long: its wait starts again
    blind_undo_s: float = 1.0  # the top card carried off, nothing on the pile: undo
    fan_width: float = 0.9  # cards carried in this near each other may be one fan
    fan_travel: float = 0.3  # ... when both went this far together

    # -- the rules: plays ---------------------------------------------------------------
    sure_looks: int = 6  # a face read this often at ``clear_look`` was seen surely
    new_card_vote: float = 0.5  # a resting face with less of its vote is no card yet
    arrived_travel: float = 0.5  # a card that moved this far on the pile arrived there
    came_in_margin: float = 0.25  # a card first seen this far beyond the pile's zone or
    # farther came from outside it (nearer, and not travelling: a pile card at its edge)
    second_copy_from: float = 0.9  # the top card's face first seen this far off it: a copy
    copy_apart: float = 0.5  # ... or, since it reads as that face, seen this far from the
    # top card's own track at the same moments, that track at its spot (same_spot)
    airborne_scale: float = 1.12  # a card still over the pile looking this much bigger than
    # the top card did at rest is held or falling above it (a drop): not at rest yet ...
    airborne_max_s: float = 0.5  # ... unless still this long (no card hovers)
    airborne_shrink: float = 0.05  # ... or this much smaller than a look before: falling (0: off)
    airborne_shrink_s: float = 0.1  # ... the two looks this far apart at most (seconds)
    hidden_gap_s: float = 0.2  # a pile card unseen this long (a hand over it; the top
    # card so hidden, then its face seen there as a hand of another seat that went to
    # the discard pile alone leaves: a jump-in put square on it) ...
    same_box_overlap: float = 0.8  # ... seen again with a box overlapping its old one less
    # (intersection over union) lies otherwise: a copy put on it, when an arm was there
    copy_gap_s: float = 0.07  # the top card unseen this long (a frame at up to 28 frames/s,
    # two at 30), then seen lying otherwise (same_box_overlap), another seat's arm at the
    # pile: a copy of its face put on it (LyingCardRules.copy_on_top) ...
    straighten_s: float = 1.0  # ... (or that of the seat that played it, this long after)
    hidden_within: float = 0.95  # a pile card's face seen again boxed smaller, this share
    # of the box inside the one that card had ...
    hidden_side: float = 0.06  # ... and this near (card lengths) where that box's sides ...
    hidden_sides_kept: int = 2  # ... were for this many of them, is that card, part of it
    # hidden by cards put on it since, no copy (CopyRules._partly_hidden)
    drawn_as_kept: int = 4  # the ways a top card's own track was boxed while it lay on
    # top, kept per play ...
    drawn_as_switches: int = 2  # ... a box its track switched to and from (by turns with
    # another) this often is where that card lies too (CopyRules.covered_copy: a copy
    # put down lies otherwise; one put on it by a quick hand may carry on its track,
    # boxed where the copy lies from then on: one switch)
    put_down_judged_s: float = 2.0  # a card first seen on the pile (or seen again after a
    # hand hid it, or read as its face only since) is taken for one an arm put down only
    # this long after
    one_play_per_arm_s: float = 2.0  # a card first seen on the pile this near in time to
    # a play of another value by the seat whose arm was there was not put down by that arm
    # (it brought that play; taken back since or not) ...
    arm_away_s: float = 0.5  # ... unless that arm left the pile after that play, unseen
    # there this long, and came back (seen there twice or more) by the time the card
    # showed: a second visit, a second play (a seat plays again after skips)
    lay_before_sightings: int = 3  # a card seen this often, read as its face, lying as it
    # lies now before a hand hid it lay there before: not put down by that hand
    lay_memory_s: float = 3.0  # how a track lost for good lay is kept this long: a
    # track of its face first seen where it lay within that time is that card seen again
    covered_steady: float = 0.8  # a pile card seen in this share of the frames before a hand
    covered_looks: int = 3  # hid the top, unseen since a card showed over it this often: covered
    copy_hides_top_s: float = 1.0  # a card of the face just under the top, put down by
    # another seat's hand than the top's player's, the top last seen at most this long
    # before it showed and not since, is a copy put on it (CopyRules.covered_copy);
    # a face new to the pile first seen this soon after the top went unseen lies on it,
    # and holds off a take-back (TakeBackRules._put_on_it)
    copy_covers_top_s: float = 0.1  # ... or last seen at most this long after it showed:
    # a card slid onto the top hides it a look or two after it shows
    deep_copy_depth: int = 3  # ... also for a card this deep in the pile or deeper (the top
    # card's too; never the one just under the top, which a take-back uncovers)
    copy_over_top: float = 0.5  # ... and, deeper than the card just under the top, its
    # box overlapping the top card's this much (intersection over union): put over it
    copy_across_top: float = 0.7  # ... or holding this share of the top card's box: put
    # across it (turned, its upright box is much bigger than the top card's)
    rest_margin: float = 0.2  # a card carried in and resting this far beyond the discard zone
    # is on the pile (an untidy pile outgrows the zone; at most off_pile_margin, beyond
    # which a card of the top play counts as carried off)
    far_rest_margin: float = 0.5  # ... and one carried in from a seat (came_in) resting
    # this far beyond it: a card put down short of the pile; the zone grows with the
    # cards played beyond it, no farther than this (WatcherState.grow_pile_zone)
    swap_way_looks: int = 3  # a card carried in, resting as the face of the pile card
    # where it lies, read there this often as others before it read as that face: the
    # pile card, its box taken over by the track of a card carried over it (a swap)
    pile_reach: float = 0.9  # a face this near a pile card of that face is that card
    pile_depth: int = 60  # how many plays down the pile is looked into
    recent_plays: int = 5  # the faces of the last plays are no fan card anywhere on the heap
    quiet_play_vote: float = 0.7  # a card never seen moving needs this much of its vote
    steady_vote: float = 0.6  # a face with this much of its vote is no string of misreadings
    looks_s: float = 2.0  # the faces seen lately are kept this long (for a fan's cards)
    remembered: int = 8  # lost backs and lost arrivals remembered for a while, at most
    landed_sightings: int = 4  # a card lost as it landed was seen at least this often
    landed_vote: float = 0.8  # ... with this much of its vote
    landed_look: float = 0.8  # ... and one look this sure (or ``sure_looks``)
    landed_reach: float = 0.6  # ... and lost this near the pile's centre
    back_landed_sightings: int = 3  # a back from a seat on the pile, seen this often ...
    back_landed_travel: float = 1.5  # ... and carried this far: maybe a wild
    lost_arriving_vote: float = 0.8  # a card lost on its way in: this much of its vote ...
    lost_arriving_look: float = 0.7  # ... one look this sure (or ``sure_looks``) ...
    lost_arriving_reach: float = 2.0  # ... lost this near the pile's centre
    lost_arrival_min_s: float = 0.2  # lost at least this long (not a missed frame)
    take_over_reach: float = 2.0  # the heap box that takes it up lies this near
    now_reads_looks: int = 3  # a box whose last looks all read a face reads it now
    companion_gap_s: float = 0.3  # a card put down with others was seen this recently ...
    companion_before_s: float = 1.5  # ... first seen at most this long before the first
    companion_margin: float = 0.5  # ... within this margin of the discard zone
    companion_travel: float = 0.3  # ... and came in this far with them
    companion_first_s: float = 0.6  # ... or was first seen this near the first's time
    group_sightings: int = 3  # a companion still moving joins the play if seen this often
    fan_step: float = 0.2  # cards carried as a fan lie at least this far apart
    fan_together: float = 0.5  # ... and their moves differ by at most this share
    lost_twin_reach: float = 1.0  # one card boxed twice, one box lost: this far apart
    seen_window_s: float = 1.0  # how well a card was seen: its looks over this time
    twin_box_gap_s: float = 0.1  # a box of another value seen this recently at the top card
    fan_after_play_s: float = 0.2  # a card first seen this long before a play may be in it
    fan_reach: float = 0.8  # a fan's lower card lies this near one of its cards
    fan_still: float = 0.12  # and its boxes keep to one place within this
    ink_middle: float = 0.35  # new ink is looked for within this of a card's middle
    strip_off_top: float = 0.2  # colour this near the top card's middle is that card's
    on_card_reach: float = 0.3  # a point this near a card's middle lies on it (half its width)
    fan_tail_beyond: float = 0.1  # a fan's tail lies at least this beyond its lowest card
    fan_tail_angle_deg: float = 30.0  # ... within this angle of the fan's line
    fan_end_reach: float = 0.3  # ink looked for this near a fan's end (a step past its lowest card)
    amend_before_s: float = 0.6  # a lower card first seen this long before the play amends it
    seat_travel: float = 0.3  # a card first seen on the pile that moved this far: from there
    seat_tie_deg: float = 10.0  # a side this near half way between two seats' tells neither

    # -- the rules: draws, take-backs ---------------------------------------------------
    draw_gone_share: float = 0.5  # a back lost this share of ``lost_s`` ...
    draw_gone_leave: float = 0.8  # ... this far from the draw pile was drawn
    second_box_reach: float = 0.4  # a back only ever seen this near a longer one: its twin
    leaving_from: float = 2.5  # a back first seen this near the draw pile ...
    leaving_travel: float = 0.5  # ... moving this far ...
    leaving_angle_deg: float = 35.0  # ... within this angle of straight away: drawn
    off_pile_margin: float = 0.2  # a card of the top play seen beyond this: carried off
    carried_off_from: float = 1.5  # a face first seen this near a top card ...
    carried_off_travel: float = 0.3  # ... going this much farther away: carried off
    below_copy_margin: float = 0.15  # a face of the top play seen this much nearer the spot
    # of the same face on the card below than its own is that card, uncovered (a copy
    # taken back unread: TakeBackRules._below_copy)
    unseen_undo_factor: float = 3.0  # top card only gone (not seen carried): wait x undo_s
    lift_arm_before_s: float = 0.3  # ... unless an arm was at the discard pile from this long
    lift_arm_after_s: float = 0.3  # ... before the top card was last seen to this long after
    lift_uncovers_s: float = 0.5  # a face first lying on the pile this near a top card's
    # lift (from last seen lying to first seen carried off, before or after): uncovered
    # by it, no play (LyingCardRules.uncovered_by_lift)

    # -- arms as evidence (vision/hands.py, vision/watch/arm_draws.py) -------------------
    arm_every: int = 1  # the pipeline looks for arms every this many frames (0: no arms)
    arm_draw_gone_s: float = 0.3  # an arm not seen at a pile this long went back: its visit ended
    arm_draw_looks: int = 4  # a visit is a draw when its far end was at the draw pile this often
    arm_draw_seen_s: float = 0.08  # ... or, with a slower camera, in as many looks as it
    arm_draw_min_looks: int = 2  # takes this long, and this many at least (2 at 25 frames/s
    # and fewer: a rushed player's penalty draws at 25 frames/s are seen in 2; 0.13 s and
    # 3 looks until the forty-fifth pass, tuning 615-616 and 803-804 lost five draws)
    arm_draw_dwell_s: float = 0.04  # ... over at least this long (not passing by) ...
    arm_draw_run: int = 3  # ... the arm seen in this many looks in a row at least ...
    arm_draw_near: float = 0.8  # ... its far end this near the draw pile's centre once ...
    arm_draw_discard_share: float = 0.2  # ... and then at the discard pile in at most this share
    arm_draw_play_near: float = 1.0  # at the discard pile: the arm's far end this near its centre
    # (an arm going back from the draw pile may pass nearer the discard pile than the draw pile)
    arm_draw_play_reach: float = 0.95  # ... and, after the draw pile, at least this share as long
    # as there (an arm going on to the discard pile reaches as far; one going back is shorter)
    arm_draw_after_discard_s: float = 1.0  # ... and it was not at the discard pile this recently
    arm_draw_card_s: float = 0.5  # a card seen drawn this near a visit's time: that visit's card
    arm_draw_play_wait_s: float = 0.5  # a visit that was at the discard pile is judged this
    # much later: a card its hand covered is played only once seen at rest there
    arm_draw_retreat: float = 2.0  # an arm back at the draw pile after its far end drew
    # this far from it (card lengths) for arm_draw_gone_s draws again: a penalty drawn
    # card by card with the arm in view throughout is a visit per card; so is one ...
    arm_draw_retract: float = 0.6  # ... shorter than this share of its longest at the draw
    arm_draw_reach_again: float = 0.9  # pile for arm_draw_gone_s, then this share again
    # (an arm from a seat beside the draw pile, drawn back to the frame's edge)
    arm_draw_resumed_s: float = 1.0  # an arm first seen at the draw pile this soon after
    # its seat's draw, seen coming in, was last seen there (within arm_draw_near) is that
    # arm, lost a while as it held still: no new draw (seen coming in once, it would be
    # again going back) ...
    arm_draw_came_looks: int = 2  # ... seen coming in: in this many looks or more before
    # its far end reached the draw pile (one may be a chance look at an arm from nearby)

    # -- the card tracker (vision/tracks.py): linking, motion, lost and found ----------
    predict_damping: float = 0.6  # a track is looked for this share of its velocity ahead
    gate_per_frame_gap: float = 4.0  # the gate grows this much per second between looks
    gate_gap_cap_s: float = 0.25  # ... up to this time between looks
    gate_speed_s: float = 0.5  # the predicted place's gate grows by speed x this x gap
    moving_window_s: float = 0.1  # moving: farther than ``still`` within this time
    other_face_reach: float = 0.35  # another face farther off a still card: another card
    lost_in_flight_s: float = 0.2  # lost this long in flight, then another colour: no link
    other_color_off_path: float = 0.5  # another colour this far off a moving card's path:
    # another card carried beside it (a fan), not that card misread: no link
    face_change_cost: float = 0.35  # link cost of another face (a flicker still links)
    settled_cost: float = 0.25  # link cost of a settled card (a landing card links first)
    still_cost: float = 0.05  # link cost of a card not moving
    velocity_smoothing: float = 0.6  # weight of the newest step in a track's velocity
    draw_margin: float = 0.8  # first seen this near the draw pile: it came from there
    stitch_gap_s: float = 0.35  # a drawn card unseen at most this long may be found farther out
    stitch_near_draw: float = 2.5  # ... when first seen this near the draw pile
    stitch_pile_travel: float = 0.3  # a back that moved less, lying there ...
    stitch_pile_s: float = 1.0  # ... this long, is the draw pile itself
    stitch_pile_reach: float = 0.3  # a back this near the draw pile's centre is the pile
    stitch_angle_deg: float = 30.0  # found farther out on the same ray, within this angle

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WatcherConfig:
        """The defaults with ``data``'s settings; a clear error for an unknown name or a
        value that is no positive number."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in fields:
                raise ValueError(f"unknown watcher setting {name!r} (see vision/watcher_config.py)")
            kind = int if fields[name].type in ("int", int) else float
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ValueError(f"watcher setting {name!r} must be a number >= 0, not {value!r}")
            if kind is int and value != int(value):
                raise ValueError(f"watcher setting {name!r} must be a whole number, not {value!r}")
            values[name] = kind(value)
        return cls(**values)

    @classmethod
    def load(cls, path: str | Path) -> WatcherConfig:
        """The ``"watcher"`` settings of a table layout file (the defaults without)."""
        p = Path(path)
        try:
            data = json.loads(p.read_text())
        except json.JSONDecodeError as exc:
            raise ValueError(f"{p}: not JSON ({exc.msg}, line {exc.lineno})") from exc
        settings = data.get("watcher", {}) if isinstance(data, dict) else {}
        if not isinstance(settings, dict):
            raise ValueError(f'{p}: "watcher" is an object of settings')
        try:
            return cls.from_dict(settings)
        except ValueError as exc:
            raise ValueError(f"{p}: {exc}") from exc
