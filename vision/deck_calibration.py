"""Photos of real cards: the held-out split, evaluation and deck calibration.

A photo folder holds one folder per face named with the canonical names
(``red-7/red-7_003.jpg``), as ``shared/data/real-cards`` does. Photos whose index
ends in 0 or 5 are the held-out part: they are never trained or calibrated on.

>>> is_held_out(Path("red-7/red-7_015.jpg")), is_held_out(Path("red-7/red-7_013.jpg"))
(True, False)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.labels import FACES
from vision.recognition import CardFinder, CardRecognizer, DeckCalibration

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
_INDEX = re.compile(r"_(\d+)$")

Progress = Callable[[int, int], None]


def photo_index(path: Path) -> int | None:
    """The number at the end of a photo's name (``red-7_013.jpg`` -> 13), if any."""
    m = _INDEX.search(path.stem)
    return int(m.group(1)) if m else None


def is_held_out(path: Path) -> bool:
    """Whether a photo belongs to the fixed held-out part (index ending in 0 or 5)."""
    idx = photo_index(path)
    return idx is not None and idx % 5 == 0


def list_photos(root: Path, part: str = "all") -> dict[str, list[Path]]:
    """Photos by face under ``root/<face>/``; ``part`` is ``all``, ``train`` or ``held-out``.

    Folders whose name is not a face are ignored; a missing root raises.
    """
    if not root.is_dir():
        raise FileNotFoundError(f"no photo folder {root}")
    if part not in ("all", "train", "held-out"):
        raise ValueError(f"part must be all, train or held-out, not {part!r}")
    out: dict[str, list[Path]] = {}
    for face in FACES:
        folder = root / face
        if not folder.is_dir():
            continue
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if part == "train":
            files = [p for p in files if not is_held_out(p)]
        elif part == "held-out":
            files = [p for p in files if is_held_out(p)]
        if files:
            out[face] = files
    return out


def color_of(card: str) -> str:
    """``red`` for ``red-7``, ``black`` for the wilds, ``back`` for a back."""
    if card in ("wild", "wild-draw4"):
        return "black"
    return card.split("-", 1)[0]


def best_face(finder: CardFinder, image: np.ndarray) -> np.ndarray | None:
    """Corners of the most confident face-up card in ``image``, or None."""
    corners, conf, cls_id = finder.find_cards(image)
    faces = np.nonzero(cls_id == 0)[0]
    if len(faces) == 0:
        return None
    return corners[faces[int(np.argmax(conf[faces]))]]


def plausible_card(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """A pseudo-label sanity check: card proportions, and not a speck of the photo."""
    w = float(np.linalg.norm(quad[1] - quad[0]))
    h = float(np.linalg.norm(quad[2] - quad[1]))
    if w < 1 or h < 1:
        return False
    ratio = max(w, h) / min(w, h)
    return 1.25 <= ratio <= 1.85 and w * h >= 0.02 * shape[0] * shape[1]


def add_real_crops(
    real_root: Path,
    cls_dir: Path,
    models_dir: Path,
    *,
    repeat: int = 3,
    imgsz: int = 64,
    jitter: float = 0.03,
    seed: int = 0,
) -> int:
    """Crop the training part of ``real_root`` with the detector in ``models_dir`` into
    ``cls_dir/train/<face>/``, ``repeat`` crops each (the real photos are few);
    returns the number of photos added. Held-out photos are never touched.

    The first crop follows the detector's box; the others move each corner by about
    ``jitter`` of the card width, as a detector's box varies from frame to frame, so
    the copies are not identical. Every other crop is turned half a turn, as the
    detector cannot tell top from bottom.
    """
    from vision.geometry import jitter_corners, warp_crop

    rng = np.random.default_rng(seed)
    for face in list_photos(real_root, "train"):
        (cls_dir / "train" / face).mkdir(parents=True, exist_ok=True)
    added = 0
    for face, p, img, quad in training_cards(real_root, models_dir, min_conf=0.3):
        dest = cls_dir / "train" / face
        for k in range(repeat):
            q = quad if k == 0 or jitter <= 0 else jitter_corners(rng, quad, jitter)
            crop = warp_crop(img, q, imgsz)
            out = crop if k % 2 == 0 else crop[::-1, ::-1]
            cv2.imwrite(str(dest / f"real_{p.stem}_{k}.jpg"), out)
        added += 1
    return added


def training_cards(
    real_root: Path, models_dir: Path, *, min_conf: float
) -> Iterator[tuple[str, Path, np.ndarray, np.ndarray]]:
    """``(face, path, image, quad)`` for each training-part photo (never a held-out one)
    in which the detector of ``models_dir`` finds a plausible card; unreadable photos
    and photos without one are passed over."""
    finder = CardFinder.load(models_dir, conf=min_conf)
    for face, paths in list_photos(real_root, "train").items():
        for p in paths:
            img = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if img is None:
                continue
            quad = best_face(finder, img)
            if quad is not None and plausible_card(quad, img.shape):
                yield face, p, img, quad


@dataclass
class PhotoReport:
    """Accuracy of the recogniser on labelled photos (most confident card per photo)."""

    total: int = 0
    correct: int = 0
    color_correct: int = 0
    missed: int = 0  # no face-up card found
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def top1(self) -> float:
        return self.correct / self.total if self.total else 0.0

    @property
    def color(self) -> float:
        return self.color_correct / self.total if self.total else 0.0

    def summary(self) -> str:
        worst = ", ".join(f"{t}->{p} x{n}" for (t, p), n in self.confusions.most_common(6))
        return (
            f"{self.total} photos: top-1 {self.top1:.1%}, colour {self.color:.1%}, "
            f"no card found {self.missed}; confusions: {worst or 'none'}"
        )


def evaluate_photos(
    rec: CardRecognizer,
    photos: dict[str, list[Path]],
    progress: Progress | None = None,
) -> PhotoReport:
    """Top-1 and colour accuracy: the most confident card against the folder label."""
    report = PhotoReport()
    items = [(face, p) for face, paths in photos.items() for p in paths]
    for i, (face, p) in enumerate(items):
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        report.total += 1
        dets = rec.detect(img) if img is not None else None
        faces = [d for d in dets if d.card != "back"] if dets is not None else []
        if not faces:
            report.missed += 1
            report.confusions[(face, "none")] += 1
        else:
            guess = faces[0].card  # detections come sorted by confidence
            report.correct += guess == face
            report.color_correct += color_of(guess) == color_of(face)
            if guess != face:
                report.confusions[(face, guess)] += 1
        if progress is not None:
            progress(i + 1, len(items))
    return report


def calibrate(
    rec: CardRecognizer, photos: dict[str, Iterable[Path]], weight: float = 0.5
) -> tuple[DeckCalibration, list[str]]:
    """Prototypes from photos of one deck; returns the calibration and the problems met.

    Each photo's most confident face-up card is embedded; the prototype of a face is
    the normalised mean over its photos. Unreadable photos and photos with no card
    found are reported and skipped.
    """
    names: list[str] = []
    protos: list[np.ndarray] = []
    problems: list[str] = []
    for face, paths in photos.items():
        embs: list[np.ndarray] = []
        for p in paths:
            img = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if img is None:
                problems.append(f"{p}: not a readable image")
                continue
            quad = best_face(rec.finder, img)
            if quad is None:
                problems.append(f"{p}: no face-up card found")
                continue
            _, emb = rec.classify_crops(rec.crops(img, quad[None]))
            embs.append(emb[0])
        if embs:
            mean = np.mean(embs, axis=0)
            protos.append(mean / max(float(np.linalg.norm(mean)), 1e-8))
            names.append(face)
    if not protos:
        raise ValueError("no usable photo: calibration needs at least one card photo")
    return DeckCalibration(tuple(names), np.stack(protos).astype(np.float32), weight), problems


def add_real_detection_images(
    real_root: Path, det_dir: Path, models_dir: Path, *, min_conf: float = 0.3
) -> int:
    """Pseudo-label the training part of ``real_root`` for the detector.

    Each photo shows one card: the detector in ``models_dir`` proposes its box, kept
    when confident, and the photo is copied to ``det_dir/images/train`` with an OBB
    label (class ``card``). Returns the number of photos labelled. Held-out photos
    are never touched.
    """
    img_dir = det_dir / "images" / "train"
    lbl_dir = det_dir / "labels" / "train"
    img_dir.mkdir(parents=True, exist_ok=True)
    lbl_dir.mkdir(parents=True, exist_ok=True)
    added = 0
    for _face, p, img, quad in training_cards(real_root, models_dir, min_conf=min_conf):
        h, w = img.shape[:2]
        pts = np.clip(quad / np.float32([w, h]), 0.0, 1.0).reshape(-1)
        cv2.imwrite(str(img_dir / f"{p.stem}.jpg"), img)
        (lbl_dir / f"{p.stem}.txt").write_text("0 " + " ".join(f"{v:.5f}" for v in pts) + "\n")
        added += 1
    return added
