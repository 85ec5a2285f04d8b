"""Each crop's white made neutral (vision.white_balance): the layer a deck classifier
fitted by ``calibrate-deck`` reads crops through."""

from __future__ import annotations

import numpy as np
import torch

from vision.white_balance import MAX_GAIN, WHITE_PERCENTILE, NeutralWhite


def _card(seed: int = 0) -> torch.Tensor:
    """A 96-pixel crop: a white border round a coloured middle, as a card's."""
    rng = np.random.default_rng(seed)
    x = np.full((1, 3, 96, 96), 0.8, np.float32)
    x[0, :, 12:84, 12:84] = rng.uniform(0.1, 0.6, (3, 72, 72))
    return torch.from_numpy(x)


def test_the_white_taken_is_numpys_percentile_of_each_channel() -> None:
    x = torch.from_numpy(np.random.default_rng(3).uniform(0.2, 0.7, (2, 3, 40, 30)))
    x = x.float()
    out = NeutralWhite()(x)
    white = np.percentile(x.numpy().reshape(2, 3, -1), WHITE_PERCENTILE, axis=2)
    gains = white.max(axis=1, keepdims=True) / white
    assert np.allclose(out.numpy(), x.numpy() * gains[:, :, None, None], atol=1e-6)


def test_another_cameras_colour_cast_is_undone() -> None:
    card = _card()
    cast = card * torch.tensor([0.75, 0.95, 1.1])[None, :, None, None]  # a warm camera
    plain, undone = NeutralWhite()(card), NeutralWhite()(cast)
    # the same picture up to its brightness: the channels' ratios are back
    scale = float(undone.mean() / plain.mean())
    assert torch.allclose(undone, plain * scale, atol=2e-3)
    assert not torch.allclose(cast, card * float(cast.mean() / card.mean()), atol=2e-2)


def test_a_crop_without_white_is_not_pushed_past_the_gain_limit() -> None:
    x = torch.full((1, 3, 8, 8), 0.5)
    x[:, 2] = 0.05  # no blue at all: a deep yellow card filling the crop
    out = NeutralWhite()(x)
    assert float(out[0, 2].max()) == np.float32(0.05 * MAX_GAIN)
    assert float(out[0, 0].max()) == 0.5


def test_every_crop_of_a_batch_is_balanced_on_its_own() -> None:
    a, b = _card(1), _card(2) * torch.tensor([1.0, 0.8, 0.6])[None, :, None, None]
    both = NeutralWhite()(torch.cat([a, b]))
    assert torch.allclose(both[0], NeutralWhite()(a)[0])
    assert torch.allclose(both[1], NeutralWhite()(b)[0])
