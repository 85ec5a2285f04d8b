"""Card ink colours in a picture: which pixels are red, yellow, green or blue ink, in
any light, and which are skin.

Ink colours are told apart by hue (:data:`_INKS`); wood and skin are orange and less
saturated. In dim light every ink is darker: its floors scale with the light
(:func:`light_gain`); a lamp's tint is undone first (:func:`neutral_white`).
Used by :mod:`vision.pile_colors` (what came onto the pile) and the trials.

>>> px = np.array([[[40, 40, 220], [60, 90, 120]]], np.uint8)  # red ink; wood
>>> color_map(px).tolist()
[[1, 0]]
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.exposure import MIN_LIGHT_GAIN, LightBalance  # the floors go down at most this far

__all__ = [
    "HOUSE_WHITE_V",
    "SKIN_HUE",
    "WHITE_PERCENTILE",
    "color_map",
    "color_map_of_hsv",
    "light_gain",
    "neutral_white",
    "skin",
]

Image = npt.NDArray[np.uint8]

# Card ink per colour: the colour's number (1 + its index in ``COLORS``), an OpenCV
# hue (0..180) range, and the saturation and brightness it has at least. Skin is
# orange (hue 9-14 in any light) and less saturated; skin in shadow comes near red,
# but is darker and duller than red ink. A yellow card in warm light, or printed
# towards orange, goes down to hue 15, where only vivid, bright pixels are its ink.
# Green and blue meet at hue 80 with no gap: a blue card in dim warm light (the
# ``dim-warm`` tuning style) turns cyan, hue 84-93 (green there 49-66, in the house
# light 62-72 against blue's 94-101); hue 89-93 was no colour at all, and 84-88 green.
_INKS: tuple[tuple[int, int, int, int, int], ...] = (
    (1, 168, 183, 120, 100),  # red, wrapping round past 180 to hue 3
    (2, 19, 35, 90, 90),  # yellow
    (2, 15, 18, 170, 120),  # yellow towards orange
    (3, 42, 80, 60, 60),  # green
    (4, 81, 132, 60, 60),  # blue
)


#: A card face's white in the house light (the HSV value, 0..255) that the ink floors
#: above are set for. In dimmer light every ink is that much darker: the floors are
#: scaled by the light, the brightest the picture around the pile has lately been
#: (its 99th percentile: a card's white border) over this white.
HOUSE_WHITE_V = 240
#: The share of the picture around the pile brighter than its white (speculars, a
#: spot of glare): its 99th percentile.
WHITE_PERCENTILE = 99.0


#: A lamp's tint is undone before ink colours are read (:func:`neutral_white`) when
#: the cards' white needs one channel this many times brighter to be grey; below it
#: the picture is read as it is (the house light, daylight).
NEUTRAL_MIN_GAIN = 1.08
#: ... and no channel is made more than this many times brighter (a picture with no
#: white in it is not turned another colour).
NEUTRAL_MAX_GAIN = 2.5
#: Skin's hue (OpenCV, 0..180), where it is no ink colour.
SKIN_HUE = (5, 18)

_NEUTRAL = LightBalance(
    percentile=WHITE_PERCENTILE,
    max_gain=NEUTRAL_MAX_GAIN,
    min_gain=NEUTRAL_MIN_GAIN,
    step=1,
    neutral=True,
)


def neutral_white(image_bgr: Image) -> Image:
    """``image_bgr`` with its whitest pixels made grey, channel by channel.

    Under a warm lamp a card's white turns orange, and so does every ink: yellow ink
    falls to the hues of red ink (``covering-warm-dusk-22fps``, a tuning style: a
    yellow reverse put on a red one read as red ink, hue 6-15 against the red's
    176-12, and the play was taken for a misreading). Each channel is scaled so that
    its 99th percentile (a card's white border) meets the brightest channel's, as
    white balance does; a picture nearly grey already comes back as it is.

    >>> warm = np.array([[[78, 95, 147], [20, 60, 120]]], np.uint8)  # white; yellow ink
    >>> neutral_white(warm)[0].tolist()
    [[148, 147, 147], [38, 93, 120]]
    >>> grey = np.array([[[230, 235, 240]]], np.uint8)
    >>> neutral_white(grey) is grey
    True
    """
    return _NEUTRAL(image_bgr)


def color_map(image_bgr: Image, light: float = 1.0) -> npt.NDArray[np.uint8]:
    """Per pixel: 0 for no card ink, else 1 + the index of its colour in ``COLORS``.

    >>> px = np.array([[[40, 40, 220], [30, 210, 230], [60, 90, 120], [255, 255, 255]]], np.uint8)
    >>> color_map(px).tolist()
    [[1, 2, 0, 0]]

    ``light`` is the light over the house light's (:func:`light_gain`): in half the
    light, red ink half as bright is still red ink.

    >>> dim = np.array([[[20, 20, 90]]], np.uint8)  # red ink in half the light
    >>> color_map(dim).tolist(), color_map(dim, light=0.5).tolist()
    ([[0]], [[1]])
    """
    hsv = np.asarray(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV), np.uint8)
    return color_map_of_hsv(hsv, light)


def light_gain(white_v: float) -> float:
    """The light over the house light, from the white of a card (an HSV value).

    >>> light_gain(250), light_gain(120), light_gain(30)
    (1.0, 0.5, 0.35)
    """
    return min(1.0, max(MIN_LIGHT_GAIN, white_v / HOUSE_WHITE_V))


def color_map_of_hsv(hsv: Image, light: float = 1.0) -> npt.NDArray[np.uint8]:
    """:func:`color_map` of a picture in HSV already."""
    h, s, v = (hsv[..., i].astype(np.int16) for i in range(3))
    h = np.where(h < 4, h + 180, h)  # red's hues 0..3 join 168..180
    cat = np.zeros(h.shape, np.uint8)
    for k, lo, hi, s_min, v_min in _INKS:
        cat[(h >= lo) & (h <= hi) & (s >= s_min) & (v >= v_min * light)] = k
    return cat


def skin(hue: npt.NDArray[np.uint8], colors: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Skin-toned pixels: orange, no ink colour."""
    out: npt.NDArray[np.bool_] = (hue >= SKIN_HUE[0]) & (hue <= SKIN_HUE[1]) & (colors == 0)
    return out
