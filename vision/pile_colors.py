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
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from tracker.cards import COLORS
from vision.calibration import TableLayout, Zone
from vision.geometry import CARD_ASPECT
from vision.ink_colors import (  # noqa: F401  (color_map: a public name here too)
    WHITE_PERCENTILE,
    color_map,
    color_map_of_hsv,
    light_gain,
    neutral_white,
    skin,
)
from vision.pile_probe import ColorPatch

Image = npt.NDArray[np.uint8]


#: The most a camera shakes on its stand between two pictures, in card lengths: a
#: larger shift is something that moved (a card carried across a plain table), not
#: the picture, and is not undone. (8 px at 640 x 480 until 5 December 2026, a
#: tenth of a card: the shaky styles' cameras, held within 2.5 times a 2.6 px shake
#: each, move up to 13 px between two pictures, and a shift of 8.1 px left every
#: edge of the pile as a new sliver: ``random-7011`` seed 802.)
MAX_SHAKE = 0.2
#: An ink colour this much of the picture around the pile has is the table's (a
#: blue or green felt, a red cloth) ...
TABLE_SHARE = 0.4
#: ... and its new ink counts only where this wide (map pixels, a square): a new
#: card's blurred white edge over a blue table reads as blue, a sliver along the
#: card, not a card's ink (``random-7012`` seed 802: a green 8 dropped on a green 8
#: taken for a fan with a blue 8).
TABLE_INK_WIDTH = 3
#: The picture around the pile reaches this far beyond the discard pile, card lengths.
ZONE_MARGIN = 0.6
#: A hand reaches in from beyond the picture around the pile: ink there is a hand's
#: (skin in some light reads yellow or red) only if, in one piece with skin or with
#: more ink of its colour, it reaches this far beyond the discard pile (card lengths).
#: Ink that reaches only the picture's own edge is a card slid far out (a fan of
#: three slid to 0.7 card lengths past the pile: ``random-7022`` seed 804; until
#: 6 December 2026 any ink reaching that edge was taken for a hand).
HAND_MARGIN = 1.0


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
        # Ink colours read with a lamp's tint undone (neutral_white).
        self.neutral = neutral
        self.still_hand_area = still_hand_area
        # The light (light_gain) from the whitest the pile has been this long.
        self.light_window_s = light_window_s
        self._whites: deque[tuple[float, float]] = deque()
        self.max_shake_px = max_shake * layout.card_px
        self.scale = scale
        self.settle_s = settle_s
        self.changed_delta = changed_delta
        self.changed_px = changed_px
        card = layout.card_px
        self.zone = _around_discard(layout, ZONE_MARGIN)
        self._x0, self._y0 = int(self.zone.x1), int(self.zone.y1)
        self._x1, self._y1 = int(self.zone.x2), int(self.zone.y2)
        w = max(1, round((self._x1 - self._x0) * scale))
        h = max(1, round((self._y1 - self._y0) * scale))
        self._size = (w, h)
        # The draw pile, in map pixels: never looked at.
        self._keep = self._but_draw_pile(self._x0, self._y0, w, h)
        # The wider picture a hand is told by (HAND_MARGIN).
        wide = _around_discard(layout, HAND_MARGIN)
        self._wx0, self._wy0 = int(wide.x1), int(wide.y1)
        self._wx1, self._wy1 = int(wide.x2), int(wide.y2)
        ww = max(1, round((self._wx1 - self._wx0) * scale))
        wh = max(1, round((self._wy1 - self._wy0) * scale))
        self._wide_size = (ww, wh)
        self._wide_keep = self._but_draw_pile(self._wx0, self._wy0, ww, wh)
        self._speck = np.ones((3, 3), np.uint8)
        self._join = np.ones((5, 5), np.uint8)
        self._table_ink = np.ones((TABLE_INK_WIDTH, TABLE_INK_WIDTH), np.uint8)
        self._card_area_px = card * card * CARD_ASPECT * scale * scale
        self._run: _Look | None = None  # the picture a still run began with
        self._run_t0 = 0.0
        self._now: _Look | None = None
        # The pile as it last lay still in each of the last few still spells:
        # (when, picture, a hand in it, when the spell began), the newest last; and
        # every picture of the last seconds.
        self._still: deque[tuple[float, _Look, bool, float]] = deque(maxlen=history)
        self._recent: deque[tuple[float, _Look]] = deque()
        self.recent_s = recent_s
        self._run_kept = False  # the current still spell has its entry in _still
        # The last answer of _ink_hands, for the same two pictures: one play asks
        # new_colors two to four times (strips, a fan's end, a twin).
        self._ink_hands_memo: tuple[_Look, _Look, npt.NDArray[np.bool_]] | None = None
        self._run_hand: bool | None = None  # the current still spell has a hand in it

    def _but_draw_pile(self, x0: int, y0: int, w: int, h: int) -> npt.NDArray[np.bool_]:
        """A map of ``w`` x ``h`` from (``x0``, ``y0``), true but on the draw pile."""
        keep = np.ones((h, w), bool)
        d, scale = self.layout.draw, self.scale
        dx0 = max(0, int((d.x1 - x0) * scale))
        dy0 = max(0, int((d.y1 - y0) * scale))
        dx1 = min(w, int((d.x2 - x0) * scale) + 1)
        dy1 = min(h, int((d.y2 - y0) * scale) + 1)
        if dx1 > dx0 and dy1 > dy0:
            keep[dy0:dy1, dx0:dx1] = False
        return keep

    def _look(self, frame_bgr: Image, t: float) -> _Look:
        crop = frame_bgr[self._y0 : self._y1, self._x0 : self._x1]
        small: Image = np.asarray(cv2.resize(crop, self._size, interpolation=cv2.INTER_AREA))
        wide_crop = frame_bgr[self._wy0 : self._wy1, self._wx0 : self._wx1]
        wide = np.asarray(
            cv2.resize(wide_crop, self._wide_size, interpolation=cv2.INTER_AREA), np.uint8
        )
        hsv: Image = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2HSV), np.uint8)
        light = self._light(hsv, t)
        lab, colors, hue = self._maps(small, hsv, light)
        return _Look(lab, colors, hue, wide, light)

    def _maps(
        self, small: Image, hsv: Image, light: float
    ) -> tuple[Image, npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
        """A picture's Lab pixels, ink colour map (in ``light``) and hue."""
        lab = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), np.uint8)
        if self.neutral:
            neutral = neutral_white(small)
            if neutral is not small:
                ink_hsv = np.asarray(cv2.cvtColor(neutral, cv2.COLOR_BGR2HSV), np.uint8)
                return lab, color_map_of_hsv(ink_hsv, light), hsv[..., 0].copy()
        return lab, color_map_of_hsv(hsv, light), hsv[..., 0].copy()

    def _light(self, hsv: Image, t: float) -> float:
        """The light now (:func:`light_gain`), from the whitest this picture and the
        last ``light_window_s`` of them were (a card's white border is in most)."""
        white = float(np.percentile(hsv[..., 2], WHITE_PERCENTILE))
        whites = self._whites
        while whites and (whites[-1][1] <= white or whites[-1][0] > t):
            whites.pop()  # newer and whiter: the older, darker ones never count again
        whites.append((t, white))
        while whites[0][0] < t - self.light_window_s:
            whites.popleft()
        return light_gain(whites[0][1])

    @property
    def light(self) -> float:
        """The light over the house light, as last measured (1.0 before any frame)."""
        return light_gain(self._whites[0][1]) if self._whites else 1.0

    def _changed(self, now: _Look, before: _Look) -> npt.NDArray[np.bool_]:
        """Pixels that changed from ``before`` to ``now``, beyond camera shake and
        lighting; specks and slivers (noise, an edge) are opened away."""
        return self._changed_lab(now.lab, before.lab, self._keep)

    def _changed_lab(
        self, now_lab_u8: Image, before_lab_u8: Image, keep: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.bool_]:
        """:meth:`_changed` of two Lab pictures, only where ``keep`` holds."""
        now_lab, before_lab = now_lab_u8.astype(np.float32), before_lab_u8.astype(np.float32)
        (dx, dy), _ = cv2.phaseCorrelate(before_lab[..., 0], now_lab[..., 0])
        if math.hypot(dx, dy) > self.max_shake_px * self.scale:
            # No camera shakes that much: the match followed something that moved
            # (a card carried across a plain table), not the picture.
            dx = dy = 0.0
        h, w = now_lab.shape[:2]
        m = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        past = cv2.warpAffine(before_lab, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
        diff = now_lab - past
        # A lamp or a cloud changes every pixel alike: take the common change away.
        diff -= np.median(diff.reshape(-1, 3), axis=0)
        delta = np.sqrt((diff * diff).sum(axis=2))
        # In dimmer light a card changes the picture less (a red strip on a dark table
        # in half the light: under half the house light's change).
        changed = ((delta > self.changed_delta * self.light) & keep).astype(np.uint8)
        return cv2.morphologyEx(changed, cv2.MORPH_OPEN, self._speck) > 0

    def update(self, frame_bgr: Image, t: float) -> None:
        """Look at one frame. A frame of another size than the layout's is ignored."""
        if frame_bgr.ndim != 3 or frame_bgr.shape[:2] != (self.layout.height, self.layout.width):
            return
        now = self._look(frame_bgr, t)
        self._now = now
        self._recent.append((t, now))
        while t - self._recent[0][0] > self.recent_s:
            self._recent.popleft()
        if self._run is None or int(self._changed(now, self._run).sum()) > self.changed_px:
            self._run, self._run_t0, self._run_kept, self._run_hand = now, t, False, None
        elif t - self._run_t0 >= self.settle_s:
            if self._run_hand is None:
                self._run_hand = self._holds_hand(now)
            if self._run_kept:
                self._still.pop()
            self._still.append((t, now, self._run_hand, self._run_t0))
            self._run_kept = True

    def _holds_hand(self, now: _Look) -> bool:
        """What changed since the pile last lay still with no hand in it, no card
        ink, reaching in from the picture's edge: ``still_hand_area`` card faces or
        more."""
        clear = next((look for _, look, hand, _ in reversed(self._still) if not hand), None)
        if clear is None:
            return False
        changed = self._changed(now, clear)
        hand = _reaching_edge(self._joined(changed & (now.colors == 0)))
        return int(hand.sum()) >= self.still_hand_area * self._card_area_px

    def _hand(
        self, changed: npt.NDArray[np.bool_], now: _Look, before: _Look
    ) -> npt.NDArray[np.bool_]:
        """Where a hand or arm lies, with a margin: changed pixels that reach the edge
        of the picture (an arm comes in from outside it, a card on the pile does not),
        either skin-toned ones joined up, or ones of one ink colour (skin in some
        light looks yellow or red) that reach in from :data:`HAND_MARGIN` out too
        (:meth:`_ink_hands`): a card touching a hand that holds it inside the picture
        is not taken for the hand."""
        hand = _reaching_edge(self._joined(changed & skin(now.hue, now.colors)))
        inked = np.zeros_like(hand)
        for k in range(1, len(COLORS) + 1):
            inked |= _reaching_edge(self._joined(changed & (now.colors == k)))
        if inked.any():
            hand |= inked & self._ink_hands(now, before)
        return cv2.dilate(hand.astype(np.uint8), self._speck) > 0

    def _ink_hands(self, now: _Look, before: _Look) -> npt.NDArray[np.bool_]:
        """Ink that changed from ``before`` to ``now`` and, in one piece with skin or
        more ink of its colour, reaches the edge of the wider picture
        (:data:`HAND_MARGIN`): a hand's, cut to the picture around the pile."""
        memo = self._ink_hands_memo
        if memo is not None and memo[0] is now and memo[1] is before:
            return memo[2]
        hsv = np.asarray(cv2.cvtColor(now.wide, cv2.COLOR_BGR2HSV), np.uint8)
        lab, colors, hue = self._maps(now.wide, hsv, now.light)
        before_lab = np.asarray(cv2.cvtColor(before.wide, cv2.COLOR_BGR2LAB), np.uint8)
        changed = self._changed_lab(lab, before_lab, self._wide_keep)
        skin_px = skin(hue, colors)
        hands = np.zeros_like(changed)
        for k in range(1, len(COLORS) + 1):
            ink = colors == k
            hands |= _reaching_edge(self._joined(changed & (ink | skin_px))) & ink
        h, w = self._size[1], self._size[0]
        ox = round((self._x0 - self._wx0) * self.scale)
        oy = round((self._y0 - self._wy0) * self.scale)
        out = np.zeros((h, w), bool)
        part = hands[oy : oy + h, ox : ox + w]
        out[: part.shape[0], : part.shape[1]] = part
        self._ink_hands_memo = (now, before, out)
        return out

    def _joined(self, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """``mask`` with gaps of a pixel or two closed: a finger and its palm are one."""
        return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, self._join) > 0

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
        self, changed: npt.NDArray[np.bool_], now: _Look, k: int, table_slivers: bool
    ) -> npt.NDArray[np.bool_]:
        """The new ink of colour ``k``: what changed and is of that colour now; of the
        table's own colour (:data:`TABLE_SHARE`), unless ``table_slivers``, only what
        is :data:`TABLE_INK_WIDTH` wide."""
        mask: npt.NDArray[np.bool_] = changed & (now.colors == k)
        if table_slivers or not mask.any():
            return mask
        kept = now.colors[self._keep]
        if kept.size and float(np.mean(kept == k)) >= TABLE_SHARE:
            opened = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, self._table_ink)
            mask = np.asarray(opened, np.uint8) > 0
        return mask

    def _patch(self, color: str, mask: npt.NDArray[np.bool_]) -> ColorPatch:
        """The ink of ``color`` where ``mask`` (map pixels, not empty) holds: its area
        in card faces and its middle in frame pixels."""
        my, mx = np.nonzero(mask)
        xy = (float(mx.mean()) / self.scale + self._x0, float(my.mean()) / self.scale + self._y0)
        return ColorPatch(color, len(mx) / self._card_area_px, xy)

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
        x1 = max(0, math.floor((bx1 - self._x0) * self.scale))
        y1 = max(0, math.floor((by1 - self._y0) * self.scale))
        x2 = max(0, math.ceil((bx2 - self._x0) * self.scale) + 1)
        y2 = max(0, math.ceil((by2 - self._y0) * self.scale) + 1)
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
        return int(found[0].sum()) / self._card_area_px

    def _lying_still_at(self, since: float, before: float, began: float) -> _Look | None:
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
    ) -> tuple[npt.NDArray[np.bool_], _Look, _Look] | None:
        """What changed within ``radius`` of ``near`` (less a hand, if ``hands``),
        against the still picture :meth:`new_colors` describes, the picture now and
        that still picture."""
        asked: list[tuple[_Look, bool]] = []
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
        changed = self._changed(now, settled)
        h, w = changed.shape
        ys, xs = np.mgrid[0:h, 0:w]
        cx = (near[0] - self._x0) * self.scale
        cy = (near[1] - self._y0) * self.scale
        r = radius * self.scale
        if hands:
            changed &= ~self._hand(changed, now, settled)
        changed &= (xs - cx) ** 2 + (ys - cy) ** 2 <= r * r
        return changed, now, settled


def _around_discard(layout: TableLayout, margin: float) -> Zone:
    """The discard pile and ``margin`` card lengths around it, inside the frame."""
    z, card = layout.discard, layout.card_px
    return Zone(
        max(0.0, z.x1 - margin * card),
        max(0.0, z.y1 - margin * card),
        min(float(layout.width), z.x2 + margin * card),
        min(float(layout.height), z.y2 + margin * card),
    )


def _reaching_edge(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The parts of ``mask`` that reach the edge of the picture."""
    n, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    if n <= 1:
        return np.zeros_like(mask)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    return np.isin(labels, edge[edge > 0])


@dataclass(frozen=True)
class _Look:
    """One frame around the pile: its Lab pixels, ink colour map and hue, the wider
    picture a hand is told by (:data:`HAND_MARGIN`, BGR) and the light it was read in."""

    lab: npt.NDArray[np.uint8]
    colors: npt.NDArray[np.uint8]
    hue: npt.NDArray[np.uint8]
    wide: npt.NDArray[np.uint8]
    light: float
