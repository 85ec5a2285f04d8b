"""A wild the detector took for a back: both are black cards with an oval in the middle.

A back's oval is red with yellow letters; a wild's holds all four colours, so green and
blue ink in the middle of the crop tells them apart (:func:`shows_wild_inks`).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

#: Share of a card's middle that must show green and blue ink for a "back" to be a wild.
WILD_INK = 0.02
WILDS = ("wild", "wild-draw4")


def shows_wild_inks(crop: Image) -> bool:
    """Whether an upright card crop (BGR) shows a wild's face rather than a back.

    Both are black cards with an oval in the middle, and the detector may take a
    wild for a face-down card. A back's oval is red with yellow letters; a wild's
    holds all four colours: green and blue ink in the middle of the card tell them
    apart, whatever the table around it.

    >>> from synth.render.cards import render_card
    >>> [shows_wild_inks(cv2.resize(render_card(c, width=64)[..., :3], (64, 64)))
    ...  for c in ("back", "wild", "wild-draw4")]
    [False, True, True]
    """
    n, m = crop.shape[:2]
    middle = crop[n // 4 : 3 * n // 4, m // 4 : 3 * m // 4]
    hsv = cv2.cvtColor(np.ascontiguousarray(middle), cv2.COLOR_BGR2HSV)
    hue = hsv[..., 0]
    inked = (hsv[..., 1] > 90) & (hsv[..., 2] > 70)
    green = float((inked & (hue >= 40) & (hue <= 85)).mean())
    blue = float((inked & (hue >= 95) & (hue <= 130)).mean())
    return min(green, blue) >= WILD_INK
