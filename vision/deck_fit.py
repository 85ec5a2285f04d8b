"""Fitting the classifier's read-out to a deck: photos in, a :class:`DeckHead` out.

Each photo is read by the detector; its most confident face-up card (the photo
must show one card) is cut out many times over with :mod:`vision.deck_augment`.
Then either the classifier's last stages are fitted on those crops
(:func:`fit_deck_tail`, :mod:`vision.deck_tail`: what ``uno-table calibrate-deck``
does) or only its linear read-out on their embeddings (:func:`fit_deck`,
:func:`~vision.deck_head.fit_head`, starting from the layer the recogniser uses now).

The same steps serve ``uno-table calibrate-deck`` (a user's photos), the tablet's
deck setup and ``benchmarks/bench_decks.py`` (sources of real photos held out in
turn).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.deck_augment import Augment, augmented_crops
from vision.deck_head import DeckHead, FitProgress, HeadFit, fit_head
from vision.deck_tail import FIRST_TUNED_LAYER, TailFit, TailTuner
from vision.geometry import warp_crop
from vision.labels import FACES
from vision.recognition import CardRecognizer

F32 = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]

#: Called as ``progress(stage, done, total)``.
Progress = Callable[[str, int, int], None]

#: Least detector confidence of the card in a calibration photo.
PHOTO_MIN_CONF = 0.3
#: The first layer fitted for a deck the classifier reads poorly before the fit (an
#: edition it never learnt): layers 5 and 6 hold the small maps' colour and shape
#: detectors (models/README.md, "Calibration across photographers, second pass").
DEEP_FIRST_LAYER = 5
#: A deck counts as read poorly below this share of its photos read right before the
#: fit. Chosen on the tuning sources (alinivan, svolsch: the classifier as trained read
#: 21-24% of their photos) and the decks it already reads (real-cards, syedhannaan:
#: 97.7-100%), where fitting from layer 5 read one or two photos fewer.
DEEP_FIT_BELOW = 0.8


class CalibrationError(ValueError):
    """Calibration input that cannot be used as it is (the message says why)."""


@dataclass
class Photo:
    """One labelled card photo and where its card lies (``quad``: TL TR BR BL)."""

    face: str
    path: Path
    image: Image
    quad: F32
    n_faces: int  # face-up boxes the detector found
    held_out: bool = False  # a photo kept for evaluation only


@dataclass
class PhotoProblems:
    """Photos passed over, with the reason, and photos that showed more than one card."""

    skipped: list[str] = field(default_factory=list)
    several: list[str] = field(default_factory=list)


def share_read_right(tuner: TailTuner, photos: Sequence[Photo], size: int) -> float:
    """The share of ``photos`` whose card ``tuner``'s classifier, as it is, names right
    (the ``size`` crop upright and turned half a turn, the answers averaged)."""
    if not photos:
        return 0.0
    crops = np.stack([warp_crop(p.image, p.quad, size) for p in photos])
    turned = np.ascontiguousarray(crops[:, ::-1, ::-1])
    probs = tuner.probs(tuner.features(crops)) + tuner.probs(tuner.features(turned))
    names = [tuner.names[int(k)] for k in probs.argmax(axis=1)]
    return float(np.mean([n == p.face for n, p in zip(names, photos, strict=True)]))


def first_layer_for(read_right: float) -> int:
    """The first of the classifier's layers a calibration fits, given the share of the
    deck's photos it reads right before the fit: deeper for an edition it never learnt.

    >>> first_layer_for(0.2), first_layer_for(0.97)
    (5, 7)
    """
    return DEEP_FIRST_LAYER if read_right < DEEP_FIT_BELOW else FIRST_TUNED_LAYER


def read_photo(rec: CardRecognizer, face: str, path: Path) -> Photo | str:
    """The photo with its most confident face-up card, or the reason it cannot be used."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        return f"{path}: not a readable image"
    corners, conf, cls_id = rec._find(image)
    faces = np.nonzero((cls_id == 0) & (conf >= PHOTO_MIN_CONF))[0]
    if len(faces) == 0:
        return f"{path}: no face-up card found"
    best = faces[int(np.argmax(conf[faces]))]
    return Photo(face, path, image, corners[best].astype(np.float32), len(faces))


def read_photos(
    rec: CardRecognizer,
    photos: Mapping[str, Sequence[Path]],
    progress: Progress | None = None,
) -> tuple[list[Photo], PhotoProblems]:
    """Every usable photo of ``photos`` (face -> paths) and the problems met."""
    known = set(rec.face_names)
    unknown = sorted(f for f in photos if f not in known)
    if unknown:
        raise CalibrationError(
            f"unknown card names: {', '.join(unknown)} (folders must be named like red-7, "
            "blue-skip, wild-draw4)"
        )
    items = [(face, p) for face, paths in photos.items() for p in paths]
    out: list[Photo] = []
    problems = PhotoProblems()
    for i, (face, p) in enumerate(items):
        got = read_photo(rec, face, p)
        if isinstance(got, str):
            problems.skipped.append(got)
        else:
            if got.n_faces > 1:
                problems.several.append(f"{p}: {got.n_faces} cards found, the surest one used")
            out.append(got)
        if progress is not None:
            progress("reading photos", i + 1, len(items))
    return out, problems


def embed(rec: CardRecognizer, crops: Image, batch: int = 128) -> F32:
    """Raw classifier embeddings ``(n, C)`` of upright BGR crops, as they are."""
    parts = [rec.embed_crops(crops[i : i + batch]) for i in range(0, len(crops), batch)]
    return np.concatenate(parts) if parts else np.zeros((0, 1), np.float32)


def augmented_features(
    photos: Sequence[Photo],
    per_photo: int,
    size: int,
    names: Sequence[str],
    features: Callable[[Image], F32],
    seed: int = 0,
    aug: Augment | None = None,
    progress: Progress | None = None,
) -> tuple[F32, npt.NDArray[np.intp]]:
    """``features`` of ``per_photo`` augmented ``size`` crops of every photo, and their
    labels (indices into ``names``)."""
    rng = np.random.default_rng(seed)
    index = {n: i for i, n in enumerate(names)}
    xs: list[F32] = []
    ys: list[int] = []
    for i, ph in enumerate(photos):
        crops = augmented_crops(ph.image, ph.quad, per_photo, size, rng, aug or Augment())
        xs.append(features(crops))
        ys.extend([index[ph.face]] * per_photo)
        if progress is not None:
            progress("augmenting", i + 1, len(photos))
    if not xs:
        raise CalibrationError("no usable photo: calibration needs at least one card photo")
    return np.concatenate(xs), np.array(ys, np.intp)


def augmented_embeddings(
    rec: CardRecognizer,
    photos: Sequence[Photo],
    per_photo: int,
    seed: int = 0,
    aug: Augment | None = None,
    progress: Progress | None = None,
) -> tuple[F32, npt.NDArray[np.intp]]:
    """Embeddings of ``per_photo`` augmented crops of every photo, and their labels
    (indices into ``rec.face_names``)."""
    return augmented_features(
        photos,
        per_photo,
        rec.cls_imgsz,
        rec.face_names,
        lambda crops: embed(rec, crops),
        seed,
        aug,
        progress,
    )


def fit_deck(
    rec: CardRecognizer,
    photos: Sequence[Photo],
    *,
    start: DeckHead,
    per_photo: int = 48,
    fit: HeadFit | None = None,
    seed: int = 0,
    progress: Progress | None = None,
) -> DeckHead:
    """A head fitted to ``photos`` of one deck, from ``start``."""
    x, y = augmented_embeddings(rec, photos, per_photo, seed, progress=progress)
    fit_progress: FitProgress | None = None
    if progress is not None:
        report = progress

        def fit_progress(step: int, steps: int) -> None:
            report("fitting", step, steps)

    return fit_head(start, x, y, fit or HeadFit(), progress=fit_progress)


#: In the model folder: rendered crops of every face (one row of ``ANCHORS_PER_FACE``
#: crops a face, in the order of :data:`vision.labels.FACES`), written by
#: ``benchmarks/make_face_anchors.py``. A calibration keeps reading them right while it
#: fits the user's photos (:func:`face_anchors`): faces the photos lack, or show once,
#: stay apart (models/README.md, "Calibration across photographers").
FACE_ANCHORS_FILE = "face-anchors.jpg"
ANCHORS_PER_FACE = 8
ANCHOR_CROP = 96
ANCHOR_JPEG_QUALITY = 90
#: Label smoothing of the anchors' targets.
ANCHOR_SMOOTH = 0.05


def face_anchors(tuner: TailTuner, path: Path) -> tuple[F32, F32] | None:
    """The maps :meth:`TailTuner.fit` reads of the crops of ``path`` (a
    :data:`FACE_ANCHORS_FILE`), upright and half-turned, and their faces as targets;
    None when there is no such file. A mosaic of the wrong shape is refused."""
    mosaic = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if mosaic is None:
        return None
    h, w = mosaic.shape[:2]
    if h != len(FACES) * ANCHOR_CROP or w % ANCHOR_CROP:
        raise CalibrationError(
            f"{path}: {w}x{h} is no mosaic of {ANCHOR_CROP}-pixel crops, one row for each "
            f"of the {len(FACES)} faces; write it again with benchmarks/make_face_anchors.py"
        )
    per_face = w // ANCHOR_CROP
    crops = np.asarray(
        np.asarray(mosaic, np.uint8)
        .reshape(len(FACES), ANCHOR_CROP, per_face, ANCHOR_CROP, 3)
        .transpose(0, 2, 1, 3, 4)
        .reshape(-1, ANCHOR_CROP, ANCHOR_CROP, 3),
        np.uint8,
    )
    index = {n: i for i, n in enumerate(tuner.names)}
    faces = np.repeat([index[f] for f in FACES], per_face)
    turned = np.ascontiguousarray(crops[:, ::-1, ::-1])
    x = np.concatenate([tuner.features(crops), tuner.features(turned)])
    y = np.concatenate([faces, faces])
    p = np.full((len(y), len(tuner.names)), ANCHOR_SMOOTH / len(tuner.names), np.float32)
    p[np.arange(len(y)), y] += 1 - ANCHOR_SMOOTH
    return x, p


#: How a calibration fits the classifier's last stages to one deck's few photos: a
#: small learning rate, many passes over few crops, and a pull towards the weights it
#: starts from (written before benchmarks/bench_tail.py measured it, models/README.md).
TAIL_CALIBRATION = TailFit(epochs=30, lr=3e-4, batch=64, l2sp=1e-2)


def fit_deck_tail(
    rec: CardRecognizer,
    photos: Sequence[Photo],
    tuner: TailTuner,
    *,
    per_photo: int = 24,
    fit: TailFit = TAIL_CALIBRATION,
    aug: Augment | None = None,
    anchors: tuple[F32, F32] | None = None,
    seed: int = 0,
    progress: Progress | None = None,
) -> None:
    """Fit ``tuner``'s last stages (:mod:`vision.deck_tail`) to ``photos`` of one deck,
    in place (``anchors``: maps and the probabilities to keep for them,
    :meth:`~vision.deck_tail.TailTuner.fit`); write the result with
    :func:`vision.deck_tail.export_onnx`."""
    x, y = augmented_features(
        photos, per_photo, rec.cls_imgsz, tuner.names, tuner.features, seed, aug, progress
    )
    report = progress

    def epochs(done: int, total: int) -> None:
        if report is not None:
            report("fitting", done, total)

    tuner.fit(x, y, fit, anchors=anchors, progress=epochs)
