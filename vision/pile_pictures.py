"""The picture around the discard pile, small: taken each frame, compared, its light,
and the hands in it.

:class:`PilePictures` is what :class:`vision.pile_colors.PileColors` looks with: each
frame's :class:`PileLook` (Lab pixels, ink colour map, hue, the wider picture a hand is
told by, the light), what changed between two of them beyond the camera's shake and a
lamp's change (:meth:`PilePictures.changed`), and where a hand or arm lies in a change
(:meth:`PilePictures.hand`): what reaches in from the edge of the picture, skin-toned,
or of one ink colour reaching in from farther out (skin in some light reads yellow or
red). The draw pile is left out: its top card moves a little with every draw.

>>> from vision.calibration import TableLayout
>>> layout = TableLayout.default(320, 240, 2)
>>> pictures = PilePictures(layout)
>>> table = np.full((240, 320, 3), (60, 90, 120), np.uint8)  # brown wood
>>> before = pictures.look(table, 0.0)
>>> armed = table.copy()
>>> armed[:130, 150:175] = (90, 140, 200)  # a skin-toned arm from the top edge
>>> now = pictures.look(armed, 0.1)
>>> changed = pictures.changed(now, before)
>>> bool(changed.any()), bool((changed & ~pictures.hand(changed, now, before)).any())
(True, False)
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
from vision.ink_colors import WHITE_PERCENTILE, color_map_of_hsv, light_gain, neutral_white, skin

__all__ = ["HAND_MARGIN", "MAX_SHAKE", "ZONE_MARGIN", "PileLook", "PilePictures"]

Image = npt.NDArray[np.uint8]

#: The most a camera shakes on its stand between two pictures, in card lengths: a
#: larger shift is something that moved (a card carried across a plain table), not
#: the picture, and is not undone. (8 px at 640 x 480 until 5 December 2026, a
#: tenth of a card: the shaky styles' cameras, held within 2.5 times a 2.6 px shake
#: each, move up to 13 px between two pictures, and a shift of 8.1 px left every
#: edge of the pile as a new sliver: ``random-7011`` seed 802.)
MAX_SHAKE = 0.2
#: The picture around the pile reaches this far beyond the discard pile, card lengths.
ZONE_MARGIN = 0.6
#: A hand reaches in from beyond the picture around the pile: ink there is a hand's
#: (skin in some light reads yellow or red) only if, in one piece with skin or with
#: more ink of its colour, it reaches this far beyond the discard pile (card lengths).
#: Ink that reaches only the picture's own edge is a card slid far out (a fan of
#: three slid to 0.7 card lengths past the pile: ``random-7022`` seed 804; until
#: 6 December 2026 any ink reaching that edge was taken for a hand).
HAND_MARGIN = 1.0


class PilePictures:
    """The picture around the discard pile (:data:`ZONE_MARGIN` beyond it), taken at
    ``scale`` (see the module): ``look(frame, t)``, ``changed(now, before)``,
    ``hand(changed, now, before)``, ``holds_hand(now, clear, area)``, ``light``."""

    def __init__(
        self,
        layout: TableLayout,
        *,
        scale: float = 0.5,
        changed_delta: float = 30.0,
        max_shake: float = MAX_SHAKE,
        light_window_s: float = 10.0,
        neutral: bool = True,
    ) -> None:
        self.layout = layout
        # Ink colours read with a lamp's tint undone (neutral_white).
        self.neutral = neutral
        # The light (light_gain) from the whitest the pile has been this long.
        self.light_window_s = light_window_s
        self._whites: deque[tuple[float, float]] = deque()
        self.max_shake_px = max_shake * layout.card_px
        self.scale = scale
        self.changed_delta = changed_delta
        card = layout.card_px
        self.zone = around_discard(layout, ZONE_MARGIN)
        self.x0, self.y0 = int(self.zone.x1), int(self.zone.y1)
        self._x1, self._y1 = int(self.zone.x2), int(self.zone.y2)
        w = max(1, round((self._x1 - self.x0) * scale))
        h = max(1, round((self._y1 - self.y0) * scale))
        self.size = (w, h)
        # The draw pile, in map pixels: never looked at.
        self.keep = self._but_draw_pile(self.x0, self.y0, w, h)
        # The wider picture a hand is told by (HAND_MARGIN).
        wide = around_discard(layout, HAND_MARGIN)
        self._wx0, self._wy0 = int(wide.x1), int(wide.y1)
        self._wx1, self._wy1 = int(wide.x2), int(wide.y2)
        ww = max(1, round((self._wx1 - self._wx0) * scale))
        wh = max(1, round((self._wy1 - self._wy0) * scale))
        self._wide_size = (ww, wh)
        self._wide_keep = self._but_draw_pile(self._wx0, self._wy0, ww, wh)
        self._speck = np.ones((3, 3), np.uint8)
        self._join = np.ones((5, 5), np.uint8)
        #: A card's face, in map pixels.
        self.card_area_px = card * card * CARD_ASPECT * scale * scale
        # The last answer of _ink_hands, for the same two pictures: one play asks
        # new_colors two to four times (strips, a fan's end, a twin).
        self._ink_hands_memo: tuple[PileLook, PileLook, npt.NDArray[np.bool_]] | None = None

    def to_map(self, x: float, y: float) -> tuple[float, float]:
        """Frame pixels to the small picture's (map) pixels."""
        return (x - self.x0) * self.scale, (y - self.y0) * self.scale

    def to_frame(self, mx: float, my: float) -> tuple[float, float]:
        """Map pixels to frame pixels."""
        return mx / self.scale + self.x0, my / self.scale + self.y0

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

    def look(self, frame_bgr: Image, t: float) -> PileLook:
        crop = frame_bgr[self.y0 : self._y1, self.x0 : self._x1]
        small: Image = np.asarray(cv2.resize(crop, self.size, interpolation=cv2.INTER_AREA))
        wide_crop = frame_bgr[self._wy0 : self._wy1, self._wx0 : self._wx1]
        wide = np.asarray(
            cv2.resize(wide_crop, self._wide_size, interpolation=cv2.INTER_AREA), np.uint8
        )
        hsv: Image = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2HSV), np.uint8)
        light = self._light(hsv, t)
        lab, colors, hue = self._maps(small, hsv, light)
        return PileLook(lab, colors, hue, wide, light)

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

    def changed(self, now: PileLook, before: PileLook) -> npt.NDArray[np.bool_]:
        """Pixels that changed from ``before`` to ``now``, beyond camera shake and
        lighting; specks and slivers (noise, an edge) are opened away."""
        return self._changed_lab(now.lab, before.lab, self.keep)

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

    def holds_hand(self, now: PileLook, clear: PileLook, area: float) -> bool:
        """What changed since ``clear`` (the pile lying still with no hand in it), no
        card ink, reaching in from the picture's edge, or ink that reaches in from
        farther out (:meth:`_ink_hands`: skin in a warm light reads yellow): ``area``
        card faces or more?

        An arm read as ink and taken for no hand makes its still picture the clear one
        the next is told from, and that one, the arm gone, the one with a hand: the pile
        edge the arm hid shows as new ink beside the next card (``drop`` held-out 682,
        opened: the dealer's arm resting on the red 2 starter; Bob's green 2 put on it
        was reported as a fan of a red 2 and a green 2).
        """
        changed = self.changed(now, clear)
        hand = _reaching_edge(self._joined(changed & (now.colors == 0)))
        inked = changed & (now.colors > 0)
        if inked.any():
            hand |= _reaching_edge(self._joined(inked)) & self._ink_hands(now, clear)
        return int(hand.sum()) >= area * self.card_area_px

    def hand(
        self, changed: npt.NDArray[np.bool_], now: PileLook, before: PileLook
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

    def _ink_hands(self, now: PileLook, before: PileLook) -> npt.NDArray[np.bool_]:
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
        h, w = self.size[1], self.size[0]
        ox = round((self.x0 - self._wx0) * self.scale)
        oy = round((self.y0 - self._wy0) * self.scale)
        out = np.zeros((h, w), bool)
        part = hands[oy : oy + h, ox : ox + w]
        out[: part.shape[0], : part.shape[1]] = part
        self._ink_hands_memo = (now, before, out)
        return out

    def _joined(self, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """``mask`` with gaps of a pixel or two closed: a finger and its palm are one."""
        return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, self._join) > 0


def around_discard(layout: TableLayout, margin: float) -> Zone:
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
class PileLook:
    """One frame around the pile: its Lab pixels, ink colour map and hue, the wider
    picture a hand is told by (:data:`HAND_MARGIN`, BGR) and the light it was read in."""

    lab: npt.NDArray[np.uint8]
    colors: npt.NDArray[np.uint8]
    hue: npt.NDArray[np.uint8]
    wide: npt.NDArray[np.uint8]
    light: float
