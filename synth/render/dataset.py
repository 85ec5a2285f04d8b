"""YOLO datasets rendered from synthetic scenes.

Two datasets feed the two stages of the recogniser:

- a detection dataset (ultralytics OBB format: ``class x1 y1 ... x4 y4``, normalised)
  with two classes, ``card`` (face up) and ``back`` (face down);
- a classification dataset (one folder per face) of card crops warped upright, the
  way :func:`vision.geometry.warp_crop` cuts them at run time
  (:meth:`vision.recognition.CardRecognizer.crops`).

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> yaml_path = write_detection_dataset(root / "det", n_train=2, n_val=1, size=(96, 128))
>>> sorted(p.name for p in (root / "det" / "labels" / "train").iterdir())
['000000.txt', '000001.txt']
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from synth.render.scene import (
    CardBank,
    PlacedCard,
    Scene,
    SceneStyle,
    compose_scene,
    random_cards,
)
from vision.geometry import jitter_corners, rect_corners, warp_crop
from vision.labels import DETECTOR_CLASSES, FACES

Progress = Callable[[str, int, int], None]
#: A scene writer reports its progress every this many scenes, and at the last.
PROGRESS_EVERY = 25


def stderr_progress(stage: str, done: int, total: int) -> None:
    """A one-line progress counter on stderr."""
    end = "\n" if done == total else ""
    print(f"\r{stage}: {done}/{total}", end=end, file=sys.stderr, flush=True)


def _report(progress: Progress | None, stage: str, done: int, total: int) -> None:
    """Tell ``progress`` every :data:`PROGRESS_EVERY` scenes and at the last."""
    if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
        progress(stage, done, total)


def _style(rng: np.random.Generator, closeup_frac: float, dense_frac: float = 0.0) -> SceneStyle:
    u = rng.random()
    if u < closeup_frac:
        # A card held close to the camera or a phone photo of one card: large cards.
        return SceneStyle(card_width=(0.2, 0.5), hand_prob=0.5, perspective=0.15)
    if u < closeup_frac + dense_frac:
        # A discard pile as play leaves it: cards squarely on top of each other at
        # all angles, only the top one whole; a detector must box that one, not the heap.
        return SceneStyle(card_width=(0.07, 0.16), pile_spread=(0.0, 0.12), pile_share=0.9)
    return SceneStyle()


def _closeup_cards(rng: np.random.Generator) -> list[str]:
    return random_cards(rng, int(rng.integers(1, 4)))


def obb_label_lines(
    cards: list[PlacedCard], width: int, height: int, min_visible: float
) -> list[str]:
    """OBB label lines for the cards at least ``min_visible`` visible, clipped to the frame."""
    lines: list[str] = []
    for c in cards:
        if c.visible < min_visible:
            continue
        cls = 1 if c.card == "back" else 0
        pts = c.corners / np.float32([width, height])
        pts = np.clip(pts, 0.0, 1.0)
        if cv2.contourArea(pts.astype(np.float32)) <= 1e-5:
            continue
        coords = " ".join(f"{v:.5f}" for v in pts.reshape(-1))
        lines.append(f"{cls} {coords}")
    return lines


def _write_obb_sample(
    root: Path, split: str, stem: str, scene: Scene, min_visible: float, quality: int
) -> None:
    """One scene as ``images/<split>/<stem>.jpg`` and its OBB label file."""
    img_dir, lbl_dir = root / "images" / split, root / "labels" / split
    img_dir.mkdir(parents=True, exist_ok=True)
    lbl_dir.mkdir(parents=True, exist_ok=True)
    oh, ow = scene.image.shape[:2]
    cv2.imwrite(str(img_dir / f"{stem}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    lines = obb_label_lines(scene.cards, ow, oh, min_visible)
    (lbl_dir / f"{stem}.txt").write_text("".join(line + "\n" for line in lines))


def _write_obb_yaml(root: Path, made_by: str) -> Path:
    """The ultralytics dataset yaml of an OBB dataset written by the functions above."""
    for kind in ("images", "labels"):  # an empty split still has its folders
        for split in ("train", "val"):
            (root / kind / split).mkdir(parents=True, exist_ok=True)
    yaml_path = root / "data.yaml"
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(DETECTOR_CLASSES))
    yaml_path.write_text(
        f"# Rendered by {made_by}.\n"
        f"path: {root.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n"
    )
    return yaml_path


def write_detection_dataset(
    root: Path,
    n_train: int,
    n_val: int,
    *,
    seed: int = 0,
    size: tuple[int, int] = (480, 640),
    closeup_frac: float = 0.25,
    dense_frac: float = 0.0,
    min_visible: float = 0.3,
    progress: Progress | None = None,
) -> Path:
    """Render ``n_train + n_val`` scenes into ``root``; returns the dataset yaml path.

    ``closeup_frac`` of them show one to three large cards, ``dense_frac`` a tight
    pile of five to ten cards (three in ten of them a draw pile, all backs); the rest
    are mixed table scenes.
    """
    rng = np.random.default_rng(seed)
    bank = CardBank(rng, variants=16)
    total = n_train + n_val
    done = 0
    for split, n in (("train", n_train), ("val", n_val)):
        for i in range(n):
            style = _style(rng, closeup_frac, dense_frac)
            names = _closeup_cards(rng) if style.card_width[0] >= 0.2 else None
            if style.pile_share > 0.8:
                names = random_cards(rng, int(rng.integers(5, 11)))
                if rng.random() < 0.3:
                    # The draw pile: a stack of backs, whose top card is a back too.
                    names = ["back"] * len(names)
            scene = compose_scene(rng, cards=names, size=size, style=style, bank=bank)
            _write_obb_sample(root, split, f"{i:06d}", scene, min_visible, quality=92)
            done += 1
            _report(progress, "detection scenes", done, total)
    return _write_obb_yaml(root, f"synth.render.dataset (seed {seed})")


def write_photo_dataset(
    root: Path,
    n_train: int,
    n_val: int,
    *,
    seed: int = 0,
    long_side: int = 320,
    min_visible: float = 0.3,
    progress: Progress | None = None,
) -> Path:
    """Phone-photo-like scenes for the detector: one or two cards filling much of a
    portrait or landscape picture, often held by a hand, the camera tilted.

    The table scenes of :func:`write_detection_dataset` show cards at most half the
    picture wide; a close-up photo (the way people photograph a card, and the way a
    card is shown to the camera) fills it. Written in the same layout; returns the
    dataset yaml path.
    """
    rng = np.random.default_rng(seed)
    bank = CardBank(rng, variants=16)
    short = round(long_side * 3 / 4)
    total = n_train + n_val
    done = 0
    for split, n in (("train", n_train), ("val", n_val)):
        for i in range(n):
            portrait = rng.random() < 0.6
            oh, ow = (long_side, short) if portrait else (short, long_side)
            # Card width as a share of the picture's width: a portrait card fills a
            # portrait photo; in a landscape one its height is the limit.
            width = (0.35, 0.75) if portrait else (0.22, 0.45)
            style = SceneStyle(
                card_width=width, hand_prob=0.6, distractor_prob=0.5, perspective=0.2
            )
            names = random_cards(rng, 1 if rng.random() < 0.75 else 2)
            for _attempt in range(6):
                # A photo is framed on its card: redraw scenes that cut it off.
                scene = compose_scene(rng, cards=names, size=(oh, ow), style=style, bank=bank)
                if max(c.visible for c in scene.cards) >= 0.75:
                    break
            _write_obb_sample(root, split, f"p{i:06d}", scene, min_visible, quality=90)
            done += 1
            _report(progress, "photo scenes", done, total)
    return _write_obb_yaml(root, f"synth.render.dataset.write_photo_dataset (seed {seed})")


def write_classifier_dataset(
    root: Path,
    n_train: int,
    n_val: int,
    *,
    seed: int = 1,
    crop: int = 64,
    size: tuple[int, int] = (144, 192),
    min_visible: float = 0.65,
    faces: tuple[str, ...] = FACES,
    progress: Progress | None = None,
) -> Path:
    """Render ``n_train``/``n_val`` crops per face into ``root/{train,val}/<face>/``.

    ``faces`` limits the faces drawn (a smoke test); the others may still appear
    around them.
    """
    rng = np.random.default_rng(seed)
    bank = CardBank(rng, variants=24, width=max(64, int(crop * 2.5)))
    counts = {"train": dict.fromkeys(faces, 0), "val": dict.fromkeys(faces, 0)}
    for split, target in (("train", n_train), ("val", n_val)):
        for face in faces:
            (root / split / face).mkdir(parents=True, exist_ok=True)
        total = target * len(faces)
        made = 0
        while made < total:
            # Pick the faces with the fewest crops so far; a few extra cards (and backs)
            # make overlaps.
            need = sorted(faces, key=lambda f: (counts[split][f], rng.random()))
            k = int(rng.integers(2, 5))
            targets = list(need[:k])
            extra = random_cards(rng, int(rng.integers(0, 2)))
            order = extra + targets if rng.random() < 0.7 else targets + extra
            style = SceneStyle(card_width=(0.2, 0.34), hand_prob=0.25, perspective=0.15)
            scene = compose_scene(rng, cards=order, size=size, style=style, bank=bank)
            for pc in scene.cards:
                if pc.card not in targets or pc.visible < min_visible:
                    continue
                if counts[split][pc.card] >= target:
                    continue
                quad = jitter_corners(rng, rect_corners(pc.corners), 0.03)
                if rng.random() < 0.5:
                    quad = np.roll(quad, 2, axis=0)
                img = warp_crop(scene.image, quad, crop)
                n = counts[split][pc.card]
                cv2.imwrite(str(root / split / pc.card / f"r{seed}_{n:05d}.jpg"), img)
                counts[split][pc.card] = n + 1
                made += 1
            if progress is not None:
                progress(f"classifier crops ({split})", made, total)
    return root
