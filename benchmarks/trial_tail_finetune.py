"""Trial: fine-tune the classifier's last stages (layers 7-9) on cached layer-6 features
of augmented real crops, leaving sources out in turn (models/README.md, "Other decks").

Reads the photos' boxes cached by ``benchmarks/bench_decks.py`` (run it first), caches
the layer-6 features of ``K`` augmented crops per photo, then for each source named
fits layers 7-9 (batch norm frozen, AdamW lr 1e-3, 8 epochs) on the other sources and
scores the left-out one on each photo's surest box (upright and half-turned averaged):
top-1 and colour, with the classifier as it is ("base") and fine-tuned.

    python benchmarks/trial_tail_finetune.py 8 soloskino,reiamenezes,alinivan
"""

import copy
import json
import os
import sys
import time

os.environ["YOLO_OFFLINE"] = "1"
from pathlib import Path

import cv2
import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import vision.yolo_env  # noqa
from ultralytics import YOLO
from vision.deck_augment import augmented_crops
from vision.recognition import warp_crop

torch.set_num_threads(2)
CACHE = Path(__file__).resolve().parents[1] / ".cache" / "bench_decks"
SOURCES = (
    "real-cards",
    "alinivan",
    "criscard",
    "soloskino",
    "reiamenezes",
    "svolsch",
    "syedhannaan",
)
y = YOLO(str(Path(__file__).resolve().parents[1] / "models" / "classifier.pt"), task="classify")
net = y.model.eval()
layers = list(net.model)
names = [net.names[i] for i in range(len(net.names))]
index = {n: i for i, n in enumerate(names)}
prefix = torch.nn.Sequential(*layers[:7]).eval()
K = int(sys.argv[1]) if len(sys.argv) > 1 else 8


def to_t(crops):
    return torch.from_numpy(
        np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2)).astype(np.float32) / 255.0
    )


feat_file = CACHE / f"l6-{K}.npz"
if feat_file.exists():
    d = np.load(feat_file, allow_pickle=True)
    data = d["data"].item()
else:
    data = {}
    rng = np.random.default_rng(1)
    for s in SOURCES:
        meta = json.loads((CACHE / f"{s}.json").read_text())["photos"]
        tr_x, tr_y, te_x, te_y, held = [], [], [], [], []
        for m in meta:
            img = cv2.imread(m["path"])
            quad = np.float32(m["quad"])
            crops = augmented_crops(img, quad, K, 96, rng)
            plain = warp_crop(img, quad, 96)
            with torch.no_grad():
                f = prefix(
                    to_t(np.concatenate([crops, plain[None], plain[None, ::-1, ::-1]]))
                ).numpy()
            tr_x.append(f[:K])
            tr_y += [index[m["face"]]] * K
            te_x.append(f[K:])
            te_y.append(index[m["face"]])
            held.append(m["held_out"])
        data[s] = dict(
            tr_x=np.concatenate(tr_x),
            tr_y=np.array(tr_y),
            te_x=np.stack(te_x),
            te_y=np.array(te_y),
            held=np.array(held),
        )
        print(s, data[s]["tr_x"].shape, flush=True)
    np.savez(feat_file, data=np.array(data, dtype=object))


def train_tail(xs, ys, epochs=8, lr=1e-3):
    tail = torch.nn.Sequential(*[copy.deepcopy(layer) for layer in layers[7:]])
    for p_ in tail.parameters():
        p_.requires_grad_(True)
    tail.train()
    for m in tail.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()
    opt = torch.optim.AdamW(tail.parameters(), lr=lr, weight_decay=1e-4)
    X = torch.from_numpy(xs)
    Y = torch.from_numpy(ys).long()
    n = len(X)
    for _ in range(epochs):
        perm = torch.randperm(n)
        for i in range(0, n, 256):
            b = perm[i : i + 256]
            loss = torch.nn.functional.cross_entropy(
                logits_of(tail, X[b]), Y[b], label_smoothing=0.05
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
    tail.eval()
    return tail


def logits_of(tail, x):
    h = x
    for layer in list(tail)[:-1]:
        h = layer(h)
    c = tail[-1]
    return c.linear(c.drop(c.pool(c.conv(h)).flatten(1)))


def evaluate(tail, te_x, te_y):
    with torch.no_grad():
        X = torch.from_numpy(te_x.reshape(-1, *te_x.shape[2:]))
        p = torch.softmax(logits_of(tail, X), 1).numpy().reshape(len(te_x), 2, -1).mean(1)
    pred = p.argmax(1)
    top1 = float((pred == te_y).mean())
    col = float(
        np.mean(
            [
                names[a].split("-")[0] == names[b].split("-")[0]
                for a, b in zip(pred, te_y, strict=True)
            ]
        )
    )
    return top1, col


folds = sys.argv[2].split(",") if len(sys.argv) > 2 else SOURCES
for s in folds:
    t = time.time()
    xs = np.concatenate(
        [data[o]["tr_x"][np.repeat(~data[o]["held"], K)] for o in SOURCES if o != s]
    )
    ys = np.concatenate(
        [data[o]["tr_y"][np.repeat(~data[o]["held"], K)] for o in SOURCES if o != s]
    )
    tail = train_tail(xs, ys)
    te = data[s]["held"] if s == "real-cards" else np.ones(len(data[s]["te_y"]), bool)
    base = torch.nn.Sequential(*layers[7:]).eval()
    print(
        s,
        "base",
        evaluate(base, data[s]["te_x"][te], data[s]["te_y"][te]),
        "tail-LOSO",
        evaluate(tail, data[s]["te_x"][te], data[s]["te_y"][te]),
        f"{time.time() - t:.0f}s",
        flush=True,
    )
