"""The table's light evened out before the recogniser reads a frame (a white patch).

A webcam in a dim or lamp-lit room gives frames darker and tinted: in half the house
light the detector, trained on well-lit scenes, leaves cards unboxed (on the tuning
style ``dim-slide-22fps``, 13% of the frames after a play showed the played card
unboxed; with the light evened out, 3%). Every card has a white border, the whitest
thing on most tables, so the frame's whitest pixels, channel by channel, say what the
light did to a card's white: each channel is scaled so that they come back to a
card's white in the house light (what auto white balance does, on the cards' white).

Only ever brightened, never darkened, at most :attr:`LightBalance.max_gain` times (a
frame with nothing white in view is not blown up), and left as it is when the gain
is small (a well-lit table: nothing changes).

>>> import numpy as np
>>> frame = np.full((48, 64, 3), 40, np.uint8)
>>> frame[10:20, 10:20] = (100, 110, 120)          # a card's white in half a warm light
>>> balanced = LightBalance()(frame)
>>> [int(v) for v in balanced[15, 15]], int(balanced[0, 0, 0])
([235, 235, 235], 94)
>>> lit = np.full((8, 8, 3), 250, np.uint8)
>>> LightBalance()(lit) is lit                      # a well-lit frame: as it is
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

#: The dimmest light read, over the house light: a frame is lifted at most 1 / this
#: (:attr:`LightBalance.max_gain`), and the pile's ink floors go down at most this far
#: (:mod:`vision.pile_colors`); below it a picture is too dark to read.
MIN_LIGHT_GAIN = 0.35


@dataclass(frozen=True)
class LightBalance:
    """How a frame's light is evened out (:meth:`__call__`).

    * ``white``: a card's white in the house light (grey levels);
    * ``percentile``: the whitest share of the frame taken for a card's white (99.5:
      the brightest 0.5% of its pixels, a card's border on a table seen from above);
    * ``max_gain``: the most a channel is scaled (1 / :data:`MIN_LIGHT_GAIN`: light
      down to 0.35 of the house light);
    * ``min_gain``: below this on every channel the frame is left as it is;
    * ``step``: every ``step``-th pixel, each way, is looked at for the white;
    * ``neutral``: bring each channel's white to the brightest channel's own instead
      of to ``white``: a tint undone, the light left as it is (the pile's ink colours,
      :func:`vision.pile_colors.neutral_white`).
    """

    white: float = 235.0
    percentile: float = 99.5
    max_gain: float = 1.0 / MIN_LIGHT_GAIN
    min_gain: float = 1.08
    step: int = 4
    neutral: bool = False

    def gains(self, frame: Image) -> npt.NDArray[np.float64]:
        """The factor of each channel (B, G, R), at least 1."""
        sample = frame[:: self.step, :: self.step].reshape(-1, 3)
        if len(sample) == 0:
            return np.ones(3)
        whitest = np.percentile(sample, self.percentile, axis=0)
        white = float(whitest.max()) if self.neutral else self.white
        return np.clip(white / np.maximum(whitest, 1.0), 1.0, self.max_gain)

    def __call__(self, frame: Image) -> Image:
        """``frame`` with its light evened out (the same array when nothing changes)."""
        gains = self.gains(frame)
        if float(gains.max()) < self.min_gain:
            return frame
        levels = np.arange(256, dtype=np.float64)[:, None] * gains[None, :]
        table = np.clip(np.rint(levels), 0, 255).astype(np.uint8).reshape(256, 1, 3)
        return np.asarray(cv2.LUT(frame, table), np.uint8)
