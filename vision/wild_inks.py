"""Faces the detector took for backs, told apart by their inks.

A back is a black card with a red oval and yellow letters: it shows no green and no
blue. The detector sometimes boxes a face as a back: a wild (a black card with an oval
in the middle too, holding all four colours) in any light, and, in dim or warm light,
a green or blue card (darkened, it looks to the detector like the black of a back).
Green or blue ink in the middle of the crop tells them apart: both green and blue,
a wild (:func:`shows_wild_inks`); a good share of either, a green or blue face
(:func:`shows_face_inks`), which the classifier then names.

The inks are counted with saturation and brightness floors low enough for a room lit
at half the usual light with a warm bulb: backs measured 0.006 of their middle or less
green or blue ink in the renderer's styles (dim and warm ones included), green faces
taken for backs 0.3-0.75, wilds 0.02-0.1 of each.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

#: Share of a card's middle that must show green and blue ink for a "back" to be a wild.
WILD_INK = 0.02
#: Share of a card's middle that must show green or blue ink for a "back" to be a face.
FACE_INK = 0.05
#: A pixel counts as ink from this saturation (0-255) ...
INK_SATURATION = 60
#: ... and this brightness (0-255, HSV value) up.
INK_VALUE = 35
#: OpenCV hue ranges (0-180) of the green and of the blue ink.
GREEN_HUES = (40, 85)
BLUE_HUES = (95, 130)
WILDS = ("wild", "wild-draw4")


def ink_shares(crop: Image) -> tuple[float, float]:
    """Shares of an upright card crop's middle (BGR) showing green and blue ink."""
    n, m = crop.shape[:2]
    middle = crop[n // 4 : 3 * n // 4, m // 4 : 3 * m // 4]
    hsv = cv2.cvtColor(np.ascontiguousarray(middle), cv2.COLOR_BGR2HSV)
    hue = hsv[..., 0]
    inked = (hsv[..., 1] > INK_SATURATION) & (hsv[..., 2] > INK_VALUE)
    green = float((inked & (hue >= GREEN_HUES[0]) & (hue <= GREEN_HUES[1])).mean())
    blue = float((inked & (hue >= BLUE_HUES[0]) & (hue <= BLUE_HUES[1])).mean())
    return green, blue


def back_shows(crop: Image) -> str:
    """What a crop the detector called a back shows, its inks counted once: "wild" (a
    wild's green and blue, :func:`shows_wild_inks`), "face" (a green or blue face,
    :func:`shows_face_inks`), or "" (a back).

    >>> from synth.render.cards import render_card
    >>> [back_shows(cv2.resize(render_card(c, width=64)[..., :3], (64, 64)))
    ...  for c in ("back", "wild", "green-7")]
    ['', 'wild', 'face']
    """
    shares = ink_shares(crop)
    if min(shares) >= WILD_INK:
        return "wild"
    return "face" if max(shares) >= FACE_INK else ""


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
    return min(ink_shares(crop)) >= WILD_INK


def shows_face_inks(crop: Image) -> bool:
    """Whether an upright card crop (BGR) shows a green or blue face, not a back.

    >>> from synth.render.cards import render_card
    >>> def card(c, light=1.0):
    ...     img = render_card(c, width=64)[..., :3].astype(np.float32) * light
    ...     return cv2.resize(img.clip(0, 255).astype(np.uint8), (64, 64))
    >>> [shows_face_inks(card(c)) for c in ("back", "green-7", "blue-2", "red-7")]
    [False, True, True, False]
    >>> [shows_face_inks(card(c, 0.5)) for c in ("back", "green-7")]  # half the light
    [False, True]
    """
    return max(ink_shares(crop)) >= FACE_INK
