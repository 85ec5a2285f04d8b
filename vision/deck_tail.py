"""Fine-tuning the classifier's last stages to a deck: crops in, a classifier out.

The classifier is a small convolutional network (``models/classifier.pt``): layers
0-6 turn a 96-pixel crop into a 96x6x6 map, layers 7-9 (three quarters of its
weights) turn that map into the 54 faces. :class:`TailTuner` keeps layers 0-6 as
they are and fits layers 7-9 (their batch normalisation frozen) on the maps of
augmented crops of the deck's photos: the maps are computed once, so a fit is a
few minutes on 2 cores. Two things keep it from forgetting what it read before:

* *anchors*: crops it already reads (rendered game frames cut by the detector,
  for the general model) whose answers the fit must keep (their probabilities
  before the fit are soft targets, "learning without forgetting"), and
* a pull of the weights towards where they started (``l2sp``, for a calibration
  on a handful of photos).

The result is written as the runtime reads a classifier: an ONNX file with the
outputs ``probs`` and ``embed`` (:func:`export_onnx`), the same as
``models/classifier.onnx``. torch is needed to fit, not to run.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]

#: Called as ``progress(done, total)`` after every epoch.
EpochProgress = Callable[[int, int], None]

#: The first layer of the classifier that a fit changes (0-6 stay as they are).
FIRST_TUNED_LAYER = 7
#: Temperatures :meth:`TailTuner.match_confidence` searches, and its bisection steps.
TEMPERATURE_RANGE = (0.2, 5.0)
TEMPERATURE_STEPS = 24


@dataclass(frozen=True)
class TailFit:
    """How layers 7-9 are fitted (AdamW on cross-entropy)."""

    epochs: int = 8
    lr: float = 1e-3
    weight_decay: float = 1e-4
    batch: int = 256
    label_smoothing: float = 0.05
    #: Weight of the anchors' soft-target loss against the photos' loss.
    anchor_weight: float = 1.0
    #: Pull towards the starting weights: ``l2sp * sum((w - w0) ** 2)``.
    l2sp: float = 0.0
    #: Batch normalisation of the fitted layers re-estimated on the crops (else frozen).
    train_bn: bool = False
    seed: int = 0


def load_network(path: Path) -> Any:
    """The ultralytics classification network of ``classifier.pt``, on the CPU, in float."""
    from ultralytics import YOLO

    import vision  # noqa: F401  (ultralytics environment)

    return YOLO(str(path), task="classify").model.float().eval()


def _to_tensor(crops: Image) -> Any:
    import torch

    x = crops[..., ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    return torch.from_numpy(np.ascontiguousarray(x))


class TailTuner:
    """Layers 0-6 of a classifier network, frozen, and a copy of layers 7-9 to fit.

    ``net`` is an ultralytics classification model (:func:`load_network`); it is
    not changed: :meth:`network` gives a copy with the fitted tail. With
    ``neutral_white`` every crop's white is made neutral first
    (:class:`vision.white_balance.NeutralWhite`), in the fit and in the network
    written: what ``calibrate-deck`` fits.
    """

    def __init__(
        self, net: Any, first: int = FIRST_TUNED_LAYER, *, neutral_white: bool = False
    ) -> None:
        import torch

        self.net = net
        self.first = first
        layers = list(net.model)
        self.lead: list[Any] = []
        if neutral_white:
            from vision.white_balance import NeutralWhite

            self.lead = [NeutralWhite()]
        self.prefix = torch.nn.Sequential(*self.lead, *layers[:first]).eval()
        self.tail = torch.nn.Sequential(*copy.deepcopy(layers[first:])).eval()
        self.names = [net.names[i] for i in range(len(net.names))]

    @classmethod
    def from_file(
        cls, path: Path, first: int = FIRST_TUNED_LAYER, *, neutral_white: bool = False
    ) -> TailTuner:
        return cls(load_network(path), first, neutral_white=neutral_white)

    # -------------------------------------------------------------- features
    def features(self, crops: Image, batch: int = 256) -> F32:
        """The maps the fitted layers read (layer 6's ``(n, 96, 6, 6)`` by default) of
        upright BGR crops."""
        import torch

        out = []
        with torch.inference_mode():
            for i in range(0, len(crops), batch):
                out.append(self.prefix(_to_tensor(crops[i : i + batch])).numpy())
        if not out:
            return np.zeros((0, 1, 1, 1), np.float32)
        return np.concatenate(out).astype(np.float32)

    def _logits(self, x: Any) -> Any:
        h = x
        for layer in list(self.tail)[:-1]:
            h = layer(h)
        head = self.tail[-1]
        return head.linear(head.drop(head.pool(head.conv(h)).flatten(1)))

    def probs(self, feats: F32, batch: int = 512) -> F32:
        """Face probabilities ``(n, 54)`` of layer-6 maps, with the tail as it is now."""
        import torch

        self.tail.eval()
        out = []
        with torch.inference_mode():
            for i in range(0, len(feats), batch):
                x = torch.from_numpy(np.ascontiguousarray(feats[i : i + batch]))
                out.append(torch.softmax(self._logits(x), 1).numpy())
        if not out:
            return np.zeros((0, len(self.names)), np.float32)
        return np.concatenate(out).astype(np.float32)

    # -------------------------------------------------------------- fitting
    def fit(
        self,
        feats: F32,
        labels: npt.NDArray[np.intp],
        settings: TailFit | None = None,
        *,
        anchors: tuple[F32, F32] | None = None,
        progress: EpochProgress | None = None,
    ) -> None:
        """Fit the tail on layer-6 maps ``feats`` of faces ``labels`` (indices into
        :attr:`names`); ``anchors`` are maps and the probabilities to keep for them."""
        import torch
        import torch.nn.functional as fn

        s = settings or TailFit()
        if len(feats) == 0:
            raise ValueError("nothing to fit on")
        gen = torch.Generator().manual_seed(s.seed)
        params = list(self.tail.parameters())
        for p in params:
            p.requires_grad_(True)
        start = [p.detach().clone() for p in params]
        self.tail.train()
        for m in self.tail.modules():
            if isinstance(m, torch.nn.BatchNorm2d) and not s.train_bn:
                m.eval()
        opt = torch.optim.AdamW(params, lr=s.lr, weight_decay=s.weight_decay)
        x_all = torch.from_numpy(np.ascontiguousarray(feats, np.float32))
        y_all = torch.from_numpy(np.asarray(labels, np.int64))
        a_x = a_p = None
        if anchors is not None and len(anchors[0]):
            a_x = torch.from_numpy(np.ascontiguousarray(anchors[0], np.float32))
            a_p = torch.from_numpy(np.ascontiguousarray(anchors[1], np.float32))
        n = len(x_all)
        for epoch in range(s.epochs):
            perm = torch.randperm(n, generator=gen)
            for i in range(0, n, s.batch):
                b = perm[i : i + s.batch]
                loss = fn.cross_entropy(
                    self._logits(x_all[b]), y_all[b], label_smoothing=s.label_smoothing
                )
                if a_x is not None and a_p is not None:
                    ab = torch.randint(len(a_x), (len(b),), generator=gen)
                    logp = fn.log_softmax(self._logits(a_x[ab]), 1)
                    loss = loss + s.anchor_weight * fn.kl_div(logp, a_p[ab], reduction="batchmean")
                if s.l2sp > 0:
                    loss = loss + s.l2sp * sum(
                        ((p - p0) ** 2).sum() for p, p0 in zip(params, start, strict=True)
                    )
                opt.zero_grad()
                loss.backward()
                opt.step()
            if progress is not None:
                progress(epoch + 1, s.epochs)
        for p in params:
            p.requires_grad_(False)
        self.tail.eval()

    def match_confidence(self, feats: F32, target: float) -> float:
        """Scale the last layer's logits so that the mean top probability on ``feats``
        is ``target`` (the confidence the recogniser's thresholds were set on); the
        answers do not change, only how sure they are. Returns the temperature."""
        import torch

        linear = self.tail[-1].linear
        low, high = TEMPERATURE_RANGE
        for _ in range(TEMPERATURE_STEPS):  # the mean top probability falls as T grows
            mid = (low * high) ** 0.5
            with torch.no_grad():
                linear.weight /= mid
                linear.bias /= mid
            sure = float(self.probs(feats).max(1).mean())
            with torch.no_grad():
                linear.weight *= mid
                linear.bias *= mid
            low, high = (mid, high) if sure > target else (low, mid)
        t = (low * high) ** 0.5
        with torch.no_grad():
            linear.weight /= t
            linear.bias /= t
        return t

    # -------------------------------------------------------------- output
    def network(self) -> Any:
        """A copy of the whole network with the fitted tail (and the neutral-white
        layer first, when the fit read crops so)."""
        import torch

        net = copy.deepcopy(self.net)
        net.model = torch.nn.Sequential(
            *copy.deepcopy(self.lead),
            *list(net.model)[: self.first],
            *copy.deepcopy(list(self.tail)),
        )
        return net.eval()


def export_onnx(net: Any, out_path: Path, imgsz: int) -> Path:
    """Write ``net`` (an ultralytics classification network) as the runtime reads a
    classifier: input ``images`` (n, 3, imgsz, imgsz), outputs ``probs`` (n, 54) and
    ``embed`` (n, C), the pooled features the last layer reads."""
    import torch
    from torch import nn

    layers = list(net.model)
    body, head = nn.Sequential(*layers[:-1]), layers[-1]

    class WithEmbedding(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = body
            self.head = head

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            feats = self.head.pool(self.head.conv(self.body(x))).flatten(1)
            return self.head.linear(feats).softmax(1), feats

    wrapper = WithEmbedding().eval()
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(out_path.name + ".part")
    with warnings.catch_warnings():
        # the image size is fixed (imgsz): a neutral-white layer's pixel count is a
        # constant of the file, as the tracer warns it will be
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        torch.onnx.export(
            wrapper,
            (torch.zeros(1, 3, imgsz, imgsz),),
            str(tmp),
            input_names=["images"],
            output_names=["probs", "embed"],
            dynamic_axes={"images": {0: "n"}, "probs": {0: "n"}, "embed": {0: "n"}},
            opset_version=17,
            dynamo=False,
        )
    tmp.replace(out_path)
    return out_path


def save_checkpoint(net: Any, source_pt: Path, out_path: Path) -> Path:
    """Write ``net`` as an ultralytics checkpoint like ``source_pt`` (its other keys kept)."""
    import torch

    ckpt = torch.load(str(source_pt), map_location="cpu", weights_only=False)
    ckpt["model"] = copy.deepcopy(net).half()
    ckpt.pop("ema", None)
    ckpt.pop("optimizer", None)
    tmp = out_path.with_name(out_path.name + ".part")
    torch.save(ckpt, str(tmp))
    tmp.replace(out_path)
    return out_path
