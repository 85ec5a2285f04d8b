"""A linear read-out of the classifier's embedding, fitted to one physical deck.

The classifier ends in ``probs = softmax(embed @ W.T + b)``: a 1280-wide embedding
(the pooled features of the last convolution) and one linear layer. A deck the
classifier never saw still gives embeddings that separate its faces fairly well;
what fails is the linear layer, drawn for other editions. :class:`DeckHead` is a
replacement for that layer, fitted by :func:`fit_head` on embeddings of a few
photos per face (each augmented many times, see :mod:`vision.deck_augment`), with
a pull towards the layer it starts from, so faces the photos do not show keep what
the classifier knew of them.

Fitting is multinomial logistic regression with Adam in NumPy: seconds on two
cores for a few thousand crops, no PyTorch needed at run time.

>>> rng = np.random.default_rng(0)
>>> x = np.concatenate([rng.normal(m, 0.3, (20, 4)) for m in (0.0, 2.0)]).astype(np.float32)
>>> y = np.repeat([0, 1], 20)
>>> start = DeckHead(("a", "b"), np.zeros((2, 4), np.float32), np.zeros(2, np.float32))
>>> head = fit_head(start, x, y, HeadFit(steps=200))
>>> float((head.predict(x).argmax(1) == y).mean())
1.0
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]

#: Called as ``progress(step, steps)`` while a head is fitted.
FitProgress = Callable[[int, int], None]


@dataclass(frozen=True)
class HeadFit:
    """Settings of :func:`fit_head` (defaults chosen on the training sources only).

    ``anchor`` is the weight of the squared distance to the starting layer, per
    sample: larger keeps the head closer to what it started from. ``steps`` of Adam
    at ``lr``, full batch.
    """

    steps: int = 300
    lr: float = 0.01
    anchor: float = 1e-3
    label_smoothing: float = 0.05


@dataclass(frozen=True)
class DeckHead:
    """``softmax(embed @ weight.T + bias)`` over ``names`` (the classifier's order)."""

    names: tuple[str, ...]
    weight: F32  # (n_classes, embed_dim)
    bias: F32  # (n_classes,)
    #: The digest of the classifier whose embedding this reads
    #: (:func:`vision.recognition.classifier_digest`); "" in files written before
    #: heads named their classifier.
    classifier: str = ""

    def logits(self, embed: F32) -> F32:
        return (embed @ self.weight.T + self.bias).astype(np.float32)

    def predict(self, embed: F32) -> F32:
        """Class probabilities ``(n, n_classes)`` of raw embeddings ``(n, embed_dim)``."""
        return softmax(self.logits(embed))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(
            path,
            names=np.array(self.names),
            weight=self.weight,
            bias=self.bias,
            classifier=np.array(self.classifier),
        )

    @classmethod
    def load(cls, path: Path) -> DeckHead:
        with np.load(path, allow_pickle=False) as data:
            if "weight" not in data:
                raise ValueError(f"{path} is not a deck head (no 'weight' array)")
            return cls(
                tuple(str(n) for n in data["names"]),
                data["weight"].astype(np.float32),
                data["bias"].astype(np.float32),
                str(data["classifier"]) if "classifier" in data else "",
            )


def softmax(z: F32) -> F32:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def fit_head(
    start: DeckHead,
    x: F32,
    y: npt.NDArray[np.intp],
    fit: HeadFit = HeadFit(),
    *,
    sample_weight: F32 | None = None,
    progress: FitProgress | None = None,
) -> DeckHead:
    """A head fitted to embeddings ``x`` (n, d) with labels ``y`` (indices into
    ``start.names``), starting from and pulled towards ``start``.

    ``sample_weight`` weighs each embedding (default 1): crops of the user's own
    photos may count more than the general ones they are mixed with.
    """
    if len(x) != len(y) or len(x) == 0:
        raise ValueError("fit_head needs as many labels as embeddings, and at least one")
    n, k = len(x), len(start.names)
    w0, b0 = start.weight.astype(np.float32), start.bias.astype(np.float32)
    w, b = w0.copy(), b0.copy()
    sw = np.ones(n, np.float32) if sample_weight is None else sample_weight.astype(np.float32)
    sw = sw / sw.sum()
    target = np.full((n, k), fit.label_smoothing / k, np.float32)
    target[np.arange(n), y] += 1.0 - fit.label_smoothing
    xd = np.ascontiguousarray(x, np.float32)
    xt = np.ascontiguousarray(xd.T)  # (d, n): x.T @ g is far faster laid out this way
    m_w, v_w = np.zeros_like(w), np.zeros_like(w)
    m_b, v_b = np.zeros_like(b), np.zeros_like(b)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, fit.steps + 1):
        z = xd @ w.T + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - target) * sw[:, None]  # d loss / d logits
        gw = (xt @ g).T + 2 * fit.anchor * (w - w0)
        gb = g.sum(axis=0) + 2 * fit.anchor * (b - b0)
        for param, grad, m, v in ((w, gw, m_w, v_w), (b, gb, m_b, v_b)):
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            mh = m / (1 - beta1**step)
            vh = v / (1 - beta2**step)
            param -= fit.lr * mh / (np.sqrt(vh) + eps)
        if progress is not None:
            progress(step, fit.steps)
    return DeckHead(start.names, w.astype(np.float32), b.astype(np.float32), start.classifier)
