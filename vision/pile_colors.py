"""What colours came onto the discard pile since it last lay still.

Cards put down together lie in a fan: the lower ones show only a strip beside the
top card, which the detector seldom boxes and the classifier, seeing a third of a
card, seldom names right. Their colour is plain to see, though, and their value is
the play's (several cards go down together only when they share one). This
per-frame processor keeps a map of the colours on and around the discard pile as
it last lay still; the watcher asks it, when a play comes to rest, which colours
appeared since then beside the top card.

What changed is found in the picture (in Lab, after undoing camera shake and the
common change a lamp or a cloud makes), and only then is its colour read: a red
card put down on a red one still changes the pixels where its white oval and its
figure fall. Ink colours are told apart by hue; wood and skin are orange and less
saturated, and a hand is recognised as what reaches in from the edge of the
picture.

>>> import numpy as np
>>> from vision.calibration import TableLayout
>>> layout = TableLayout.default(320, 240, 2)
>>> colours = PileColors(layout)
>>> table = np.full((240, 320, 3), (60, 90, 120), np.uint8)  # brown wood
>>> for i in range(12):
...     colours.update(table, i / 30)
>>> played = table.copy()
>>> cx, cy = (int(v) for v in layout.discard.center)
>>> played[cy - 20 : cy + 20, cx - 30 : cx - 8] = (40, 40, 220)  # a red strip, left
>>> played[cy - 25 : cy + 25, cx - 10 : cx + 20] = (30, 210, 230)  # the yellow top card
>>> colours.update(played, 0.5)
>>> [(p.color, round(p.xy[0] - cx)) for p in colours.new_colors((cx + 5, cy), 60, since=0.1)]
[('yellow', 4), ('red', -21)]
"""

from __future__ import annotations

import math
from collections import deque

import cv2
import numpy as np
import numpy.typing as npt

from tracker.cards import COLORS
from vision.calibration import TableLayout
from vision.ink_colors import color_map  # noqa: F401  (a public name here too)
from vision.pile_pictures import (  # noqa: F401  (HAND_MARGIN, ZONE_MARGIN: public here too)
    HAND_MARGIN,
    MAX_SHAKE,
    ZONE_MARGIN,
    PileLook,
    PilePictures,
)
from vision.pile_probe import ColorPatch

Image = npt.NDArray[np.uint8]


#: An ink colour this much of the picture around the pile has is the table's (a
#: blue or green felt, a red cloth) ...
TABLE_SHARE = 0.4
#: ... and its new ink counts only where this wide (map pixels, a square): a new
#: card's blurred white edge over a blue table reads as blue, a sliver along the
#: card, not a card's ink (``random-7012`` seed 802: a green 8 dropped on a green 8
#: taken for a fan with a blue 8).
TABLE_INK_WIDTH = 3


class PileColors:
    """``update(frame, t)`` each frame; ``new_colors(...)`` when a play comes to rest.

    The pile *lies still* once the picture around it has not changed for
    ``settle_s``: a hand holding a card still for a moment does not last that long.
    A still picture with a hand in it (what changed since the pile last lay still
    without one: no card ink, reaching in from the picture's edge, ``still_hand_area``
    card faces or more) is the last choice: a covering hand that pauses over the pile
    hides the cards under it, which would show as new when it leaves. It is used only
    when the pile lay still with no hand in it at no time asked about.
    What changed since then, in the colour of card ink, is what was put down (or a
    hand, whose skin is no ink colour). The draw pile is left out: its top card
    moves a little with every draw.
    """

    def __init__(
        self,
        layout: TableLayout,
        *,
        scale: float = 0.5,
        settle_s: float = 0.3,
        changed_delta: float = 30.0,
        changed_px: int = 12,
        history: int = 8,
        recent_s: float = 3.0,
        max_shake: float = MAX_SHAKE,
        light_window_s: float = 10.0,
        still_hand_area: float = 0.2,
        neutral: bool = True,
    ) -> None:
        self.layout = layout
        self.pictures = PilePictures(
            layout,
            scale=scale,
            changed_delta=changed_delta,
            max_shake=max_shake,
            light_window_s=light_window_s,
            neutral=neutral,
        )
        self.still_hand_area = still_hand_area
        self.settle_s = settle_s
        self.changed_px = changed_px
        self._table_ink = np.ones((TABLE_INK_WIDTH, TABLE_INK_WIDTH), np.uint8)
        self._run: PileLook | None = None  # the picture a still run began with
        self._run_t0 = 0.0
        self._now: PileLook | None = None
        # The pile as it last lay still in each of the last few still spells:
        # (when, picture, a hand in it, when the spell began), the newest last; and
        # every picture of the last seconds.
        self._still: deque[tuple[float, PileLook, bool, float]] = deque(maxlen=history)
        self._recent: deque[tuple[float, PileLook]] = deque()
        self.recent_s = recent_s
        self._run_kept = False  # the current still spell has its entry in _still
        self._run_hand: bool | None = None  # the current still spell has a hand in it

    @property
    def changed_delta(self) -> float:
        """How much a pixel changes (Lab distance, in the house light) to count."""
        return self.pictures.changed_delta

    @property
    def light(self) -> float:
        """The light over the house light, as last measured (1.0 before any frame)."""
        return self.pictures.light

    def update(self, frame_bgr: Image, t: float) -> None:
        """Look at one frame. A frame of another size than the layout's is ignored."""
        if frame_bgr.ndim != 3 or frame_bgr.shape[:2] != (self.layout.height, self.layout.width):
            return
        now = self.pictures.look(frame_bgr, t)
        self._now = now
        self._recent.append((t, now))
        while t - self._recent[0][0] > self.recent_s:
            self._recent.popleft()
        if self._run is None or int(self.pictures.changed(now, self._run).sum()) > self.changed_px:
            self._run, self._run_t0, self._run_kept, self._run_hand = now, t, False, None
        elif t - self._run_t0 >= self.settle_s:
            if self._run_hand is None:
                self._run_hand = self._holds_hand(now)
            if self._run_kept:
                self._still.pop()
            self._still.append((t, now, self._run_hand, self._run_t0))
            self._run_kept = True

    def _holds_hand(self, now: PileLook) -> bool:
        """What changed since the pile last lay still with no hand in it, no card
        ink, reaching in from the picture's edge: ``still_hand_area`` card faces or
        more."""
        clear = next((look for _, look, hand, _ in reversed(self._still) if not hand), None)
        if clear is None:
            return False
        return self.pictures.holds_hand(now, clear, self.still_hand_area)

    def new_colors(
        self,
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        else_at_since: bool = False,
        hands: bool = True,
        table_slivers: bool = True,
    ) -> list[ColorPatch] | None:
        """Ink colours that appeared within ``radius`` of ``near`` since the pile last
        lay still (before ``before``), largest first; ``None`` when it did not lie
        still between ``since`` and ``before``.

        With ``else_at_since``, a pile that did not lie still is compared with the
        picture at ``since`` instead (a hand may be in it: what it hid then shows as
        new now). ``hands=False`` keeps what looks like a hand: near the middle of a
        card, which a hand holds by its edge, that is the card touching the hand.
        ``table_slivers=False`` leaves out new ink of the table's own colour narrower
        than :data:`TABLE_INK_WIDTH` (:data:`TABLE_SHARE`): a new card's blurred white
        edge over a blue felt reads as blue, along the card; asked of what lies beside
        a card (a fan's lower cards), not of a card's own middle, whose ink on a table
        of its colour (a yellow card on wood in a warm lamp's light, read yellow)
        changes in specks.
        """
        found = self._changed_near(near, radius, since, before, else_at_since, hands)
        if found is None:
            return None
        changed, now, _ = found
        patches = []
        for k, name in enumerate(COLORS, start=1):
            mask = self._ink(changed, now, k, table_slivers)
            if mask.any():
                patches.append(self._patch(name, mask))
        return sorted(patches, key=lambda p: -p.area)

    def _ink(
        self, changed: npt.NDArray[np.bool_], now: PileLook, k: int, table_slivers: bool
    ) -> npt.NDArray[np.bool_]:
        """The new ink of colour ``k``: what changed and is of that colour now; of the
        table's own colour (:data:`TABLE_SHARE`), unless ``table_slivers``, only what
        is :data:`TABLE_INK_WIDTH` wide."""
        mask: npt.NDArray[np.bool_] = changed & (now.colors == k)
        if table_slivers or not mask.any():
            return mask
        kept = now.colors[self.pictures.keep]
        if kept.size and float(np.mean(kept == k)) >= TABLE_SHARE:
            mask = self._wide_ink(mask)
        return mask

    def _patch(self, color: str, mask: npt.NDArray[np.bool_]) -> ColorPatch:
        """The ink of ``color`` where ``mask`` (map pixels, not empty) holds: its area
        in card faces and its middle in frame pixels."""
        my, mx = np.nonzero(mask)
        xy = self.pictures.to_frame(float(mx.mean()), float(my.mean()))
        sliver = not self._wide_ink(mask).any()
        return ColorPatch(color, len(mx) / self.pictures.card_area_px, xy, sliver)

    def _wide_ink(self, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """What of ``mask`` is :data:`TABLE_INK_WIDTH` map pixels wide or more (its
        opening by a square of that side): no sliver, no card's blurred edge."""
        opened = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, self._table_ink)
        wide: npt.NDArray[np.bool_] = np.asarray(opened, np.uint8) > 0
        return wide

    def new_ink_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        table_slivers: bool = True,
    ) -> ColorPatch | None:
        """Ink of ``color`` that appeared within ``radius`` of ``near`` since the pile
        last lay still (as :meth:`new_colors`, a hand left out), lying outside ``box``
        (x1, y1, x2, y2 in frame pixels): its area (0.0: none) and its middle; ``None``
        when it cannot tell. A card's ink lies inside its own box: ink of its colour
        outside it is another card of that colour (the twin under it of a fan).
        ``table_slivers``: as :meth:`new_colors`'s.
        """
        if color not in COLORS:
            return None
        found = self._changed_near(near, radius, since, before, False, True)
        if found is None:
            return None
        changed, now, _ = found
        mask = self._ink(changed, now, COLORS.index(color) + 1, table_slivers)
        return self._patch_outside(color, mask, box, near)

    def changed_outside(
        self,
        color: str,
        box: tuple[float, float, float, float],
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        shown_now: bool = False,
    ) -> ColorPatch | None:
        """What changed within ``radius`` of ``near`` since the pile last lay still
        (as :meth:`new_colors`, a hand left out), outside ``box``, where the picture
        shows ink of ``color`` now or showed it then (``shown_now``: now only): its
        area (0.0: none) and its middle; ``None`` when it cannot tell. A card put down
        on one of its own colour brings little new ink, but its oval and figure fall
        where the old card's did not; a card put down alone changes nothing outside
        its own box. Several put down together cover that colour where they lie
        outside the top card's box: ``shown_now`` leaves out what it showed only then.
        """
        if color not in COLORS:
            return None
        found = self._changed_near(near, radius, since, before, False, True)
        if found is None:
            return None
        changed, now, settled = found
        k = COLORS.index(color) + 1
        mask = changed & (now.colors == k)
        if not shown_now:
            mask |= changed & (settled.colors == k)
        return self._patch_outside(color, mask, box, near)

    def _patch_outside(
        self,
        color: str,
        mask: npt.NDArray[np.bool_],
        box: tuple[float, float, float, float],
        near: tuple[float, float],
    ) -> ColorPatch:
        """The patch of ``color`` where ``mask`` (map pixels) holds outside ``box``
        (frame pixels, rounded outwards; NumPy clips the slice to the map); area 0.0
        at ``near`` when none."""
        bx1, by1, bx2, by2 = box
        (mx1, my1), (mx2, my2) = self.pictures.to_map(bx1, by1), self.pictures.to_map(bx2, by2)
        x1, y1 = max(0, math.floor(mx1)), max(0, math.floor(my1))
        x2, y2 = max(0, math.ceil(mx2) + 1), max(0, math.ceil(my2) + 1)
        mask[y1:y2, x1:x2] = False
        return self._patch(color, mask) if mask.any() else ColorPatch(color, 0.0, near)

    def changed_area(
        self,
        near: tuple[float, float],
        radius: float,
        *,
        since: float,
        before: float = math.inf,
        else_at_since: bool = False,
        hands: bool = True,
    ) -> float | None:
        """How much of the picture within ``radius`` of ``near`` changed, in any
        colour, since the pile last lay still (as :meth:`new_colors`, ``hands``
        too), in card faces; ``None`` when it cannot tell.

        A card put on one of its own colour brings little new ink to its middle
        (its oval and figure fall where the old card's did), but changes it.
        """
        found = self._changed_near(near, radius, since, before, else_at_since, hands)
        if found is None:
            return None
        return int(found[0].sum()) / self.pictures.card_area_px

    def _lying_still_at(self, since: float, before: float, began: float) -> PileLook | None:
        """The picture at ``before`` of a still spell that began at ``began`` and
        lasted past ``before``, if it had lain still ``settle_s`` by then: a quick
        player's card comes just as the pile settles, and the spell's newest picture,
        taken as the hand came, is later than a still picture may be."""
        if began + self.settle_s > before:
            return None
        first = max(since, began)
        return next((look for t, look in reversed(self._recent) if first <= t <= before), None)

    def _changed_near(
        self,
        near: tuple[float, float],
        radius: float,
        since: float,
        before: float,
        else_at_since: bool,
        hands: bool,
    ) -> tuple[npt.NDArray[np.bool_], PileLook, PileLook] | None:
        """What changed within ``radius`` of ``near`` (less a hand, if ``hands``),
        against the still picture :meth:`new_colors` describes, the picture now and
        that still picture."""
        asked: list[tuple[PileLook, bool]] = []
        for t, look, hand, began in reversed(self._still):
            if since <= t <= before:
                asked.append((look, hand))
            elif t > before and (at := self._lying_still_at(since, before, began)) is not None:
                asked.append((at, hand))
        settled = next((look for look, hand in asked if not hand), None)
        if settled is None and asked:
            settled = asked[0][0]  # a hand in it, but the only still picture there is
        if settled is None and else_at_since:
            settled = next((look for t, look in self._recent if since <= t <= before), None)
        if self._now is None or settled is None:
            return None
        now = self._now
        changed = self.pictures.changed(now, settled)
        h, w = changed.shape
        ys, xs = np.mgrid[0:h, 0:w]
        cx, cy = self.pictures.to_map(*near)
        r = radius * self.pictures.scale
        if hands:
            changed &= ~self.pictures.hand(changed, now, settled)
        changed &= (xs - cx) ** 2 + (ys - cy) ** 2 <= r * r
        return changed, now, settled
