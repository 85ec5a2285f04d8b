"""Each crop's white made neutral: another camera's white balance undone.

A card's border and oval outline are white whatever the deck; a photo taken under
warm light or by a camera that balances white its own way shows them tinted, and a
classifier fitted on one photographer's photos reads the next one's greens as yellow
(models/README.md, "Calibration: each crop's white made neutral"). :class:`NeutralWhite`
takes each crop's whitest pixels (:data:`WHITE_PERCENTILE`) for white and scales
every channel so that white is grey. It is the first layer of a deck classifier that
``calibrate-deck`` fits (:class:`vision.deck_tail.TailTuner`, ``neutral_white``), so
the fit reads neutral crops and the ``deck.onnx`` it writes neutralises every crop
itself: the recogniser feeds it crops as they come, like any classifier. The shipped
classifier, trained without, has no such layer.

torch is needed to build it (to fit), not to run an ONNX file that holds it.
"""

from __future__ import annotations

import math

import torch
from torch import nn

#: The percentile of a crop's pixels, channel by channel, taken for its white.
WHITE_PERCENTILE = 97.0
#: The most a channel is scaled up (or down, by its inverse).
MAX_GAIN = 2.5


class NeutralWhite(nn.Module):
    """A network layer: images ``(n, 3, h, w)`` in 0-1 with each one's white (the
    :data:`WHITE_PERCENTILE` of each channel, interpolated as numpy's percentile
    does) scaled to the brightest channel's (``level`` None) or to ``level``, gains
    within :data:`MAX_GAIN`. Exported to ONNX with TopK. It carries the attributes
    an ultralytics network reads of its layers when predicting (``f``, ``i``), so a
    network that starts with it still predicts.

    >>> x = torch.zeros(1, 3, 10, 10); x[0, 0, :5], x[0, 1, :5], x[0, 2, :5] = 0.4, 0.6, 0.8
    >>> [round(float(v), 3) for v in NeutralWhite()(x)[0, :, 0, 0]]
    [0.8, 0.8, 0.8]
    >>> [round(float(v), 3) for v in NeutralWhite(level=0.9)(x)[0, :, 0, 0]]
    [0.9, 0.9, 0.9]
    """

    #: An ultralytics layer's input (-1: the layer before) and its index: none of the
    #: network's own (-1 would be read as the layer to return embeddings from).
    f = -1
    i = -2

    def __init__(self, level: float | None = None) -> None:
        super().__init__()
        self.level = level

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, c, h, w = x.shape
        pixels = int(h) * int(w)
        pos = (pixels - 1) * WHITE_PERCENTILE / 100.0
        below = math.floor(pos)
        frac = pos - below
        # the values at sorted positions `below` and `below + 1`, counted from the top
        top = torch.topk(x.reshape(n, c, pixels), pixels - below, dim=2).values
        low, high = top[..., -1], top[..., max(pixels - below - 2, 0)]
        white = torch.clamp(low + (high - low) * frac, min=1.0 / 255.0)  # (n, c)
        if self.level is None:
            target = white.max(dim=1, keepdim=True).values
        else:
            target = torch.full_like(white, self.level)
        gains = torch.clamp(target / white, 1.0 / MAX_GAIN, MAX_GAIN)
        return torch.clamp(x * gains[:, :, None, None], 0.0, 1.0)
