"""Training data for the two stages taken from the detector's own boxes and from game videos.

The classifier gets at run time what the detector cuts, not crops along the true
corners: :func:`write_detector_cut_crops` (rendered table scenes, tight discard piles
among them) and :func:`write_video_cut_crops` (frames of rendered game videos) write
the detector's face-up boxes labelled from the renderer (a box around part of a pile:
:func:`heap_label`). :func:`write_video_frame_dataset` writes game video frames with
their cards' corners for the detector. Training on them is :mod:`synth.training`'s.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from synth.styles import VideoStyle


def write_video_cut_crops(
    cls_dir: Path,
    models_dir: Path,
    n_videos: int,
    *,
    seed: int = 0,
    turns: int = 20,
    every: int = 6,
    imgsz: int = 64,
    det_imgsz: int = 320,
    min_iou: float = 0.6,
    min_visible: float = 0.6,
    det_conf: float = 0.35,
    split: str = "train",
    progress: Any = None,
) -> int:
    """Crops of rendered game videos as the detector in ``models_dir`` cuts them.

    A webcam frame shows cards small, blurred in flight, compressed, on a pile that
    grows all game: the crops the classifier gets from the live table. Each of
    ``n_videos`` short games (seeds from ``seed`` on, never those of the watcher's
    benchmark) is rendered, and every ``every``-th frame's face-up detections are
    labelled from the renderer's boxes: the card the box overlaps by ``min_iou``
    when it is ``min_visible`` uncovered, else the top of the heap it holds
    (:func:`heap_label`). ``det_conf`` is the detector's confidence threshold (lower:
    more boxes of half-covered cards). Written to ``cls_dir/<split>/<face>/``;
    returns the count.
    """
    import numpy as np

    from synth.render.scene import PlacedCard
    from vision.recognition import CardFinder

    finder = CardFinder.load(models_dir, imgsz=det_imgsz, conf=det_conf)
    rng = np.random.default_rng(seed)
    written = 0
    for k, (vseed, frames, _layout) in enumerate(
        _game_frames(range(seed, seed + n_videos), turns, every)
    ):
        for image, index, truth in frames:
            cards = [PlacedCard(n, _box_corners(*b), v) for n, v, b in truth["cards"]]
            written += _write_cut_crops(
                image,
                finder,
                cards,
                cls_dir / split,
                f"vid{vseed}_{index:05d}",
                rng,
                imgsz=imgsz,
                min_iou=min_iou,
                min_visible=min_visible,
                upright_truth=True,
            )
        if progress is not None:
            progress("video-cut crops", k + 1, n_videos)
    return written


def _game_frames(
    seeds: Iterable[int],
    turns: int,
    every: int,
    *,
    phased: bool = False,
    style: str | VideoStyle = "house",
) -> Iterator[tuple[int, Iterator[tuple[Any, int, dict[str, Any]]], Path]]:
    """Short simulated games rendered one at a time (in a temporary folder) in
    ``style``: for each seed, its every ``every``-th frame with the frame's index and
    the renderer's truth for it (``cards`` and ``quads``), and the game's layout file
    (there while its frames are read). ``phased``: start at ``seed % every``, so that
    the frames taken do not always fall at the same moment of a clip."""
    import tempfile

    from synth.video import render_video, simulated_game
    from vision.source import read_video

    def sampled(
        path: Path, truth: list[str], offset: int
    ) -> Iterator[tuple[Any, int, dict[str, Any]]]:
        for frame in read_video(path):
            if (frame.index - offset) % every == 0 and frame.index < len(truth):
                yield frame.image, frame.index, json.loads(truth[frame.index])

    with tempfile.TemporaryDirectory() as tmp:
        for vseed in seeds:
            log = simulated_game(vseed, players=3 + vseed % 3, turns=turns, retract_prob=0.08)
            res = render_video(log, Path(tmp) / f"v{vseed}.mp4", seed=vseed, style=style)
            truth = res.boxes_path.read_text().splitlines()
            offset = vseed % every if phased else 0
            yield vseed, sampled(res.path, truth, offset), res.layout_path


def frame_cards(truth: dict[str, Any]) -> list[Any]:
    """A rendered frame's cards (its ``boxes.jsonl`` line) as
    :class:`synth.render.scene.PlacedCard` values, with their corners."""
    import numpy as np

    from synth.render.scene import PlacedCard

    return [
        PlacedCard(name, np.array(quad, np.float32), visible)
        for (name, visible, _b), quad in zip(truth["cards"], truth["quads"], strict=True)
    ]


def write_video_frame_dataset(
    root: Path,
    n_train: int,
    n_val: int,
    *,
    seed: int = 0,
    turns: int = 20,
    every: int = 8,
    min_visible: float = 0.3,
    progress: Any = None,
) -> Path:
    """Frames of rendered game videos, labelled for the detector; returns the yaml path.

    The table scenes the detector learns from are still pictures of scattered cards.
    A game is different: cards in flight under a hand, several cards put down
    together in a fan (the lower ones showing a strip), a pile that grows tight all
    game. ``n_train + n_val`` short games (seeds from ``seed`` on) are rendered and
    every ``every``-th frame written with its cards' corners from the renderer
    (those at least ``min_visible`` uncovered), in the layout of
    :func:`synth.render.dataset.write_detection_dataset`.
    """
    import cv2

    from synth.render.dataset import _write_obb_yaml, obb_label_lines

    n = n_train + n_val
    games = _game_frames(range(seed, seed + n), turns, every, phased=True)
    for k, (vseed, frames, _layout) in enumerate(games):
        split = "train" if k < n_train else "val"
        img_dir, lbl_dir = root / "images" / split, root / "labels" / split
        img_dir.mkdir(parents=True, exist_ok=True)
        lbl_dir.mkdir(parents=True, exist_ok=True)
        for image, index, truth in frames:
            cards = frame_cards(truth)
            h, w = image.shape[:2]
            stem = f"v{vseed}_{index:05d}"
            cv2.imwrite(str(img_dir / f"{stem}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            labels = obb_label_lines(cards, w, h, min_visible)
            (lbl_dir / f"{stem}.txt").write_text("".join(x + "\n" for x in labels))
        if progress is not None:
            progress("video frames", k + 1, n)
    return _write_obb_yaml(root, f"synth.training.write_video_frame_dataset (seed {seed})")


def _write_cut_crops(
    image: Any,
    finder: Any,
    cards: list[Any],
    split_dir: Path,
    stem: str,
    rng: Any,
    *,
    imgsz: int,
    min_iou: float,
    min_visible: float,
    upright_truth: bool = False,
) -> int:
    """Cut ``image``'s face-up detections, label them from ``cards``, write them.

    Each labelled crop goes to ``split_dir/<face>/<stem>_<n>.jpg``, every other one
    turned half a turn. ``upright_truth``: the cards' corners are upright boxes
    (a video's truth), so each detection is compared as its upright box too.
    Returns the number written.
    """
    import cv2

    from vision.geometry import warp_crop

    corners, _conf, cls_id = finder.find_cards(image)
    written = 0
    for quad, k in zip(corners, cls_id, strict=True):
        if k != 0:
            continue
        box = _box_corners(*quad.min(0), *quad.max(0)) if upright_truth else quad
        scored = [(_polygon_iou(box, c.corners), c) for c in cards]
        iou, card = max(scored, key=lambda s: s[0], default=(0.0, None))
        if card is None or iou < min_iou or card.visible < min_visible:
            card = heap_label(box, cards, min_visible)
        if card is None or card.card == "back":
            continue
        crop = warp_crop(image, quad, imgsz)
        if rng.random() < 0.5:
            crop = crop[::-1, ::-1]
        dest = split_dir / card.card
        dest.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(dest / f"{stem}_{written}.jpg"), crop)
        written += 1
    return written


def _box_corners(x1: float, y1: float, x2: float, y2: float) -> Any:
    """The corners of an upright box, clockwise from the top left."""
    import numpy as np

    return np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)


def heap_label(quad: Any, cards: list[Any], min_visible: float = 0.6) -> Any:
    """The card a box around part of a pile shows on top, or None.

    ``cards`` are a scene's placed cards. Of the cards whose centre the box holds,
    exactly one may be ``min_visible`` uncovered (two whole cards in one box are two
    cards, not a heap), and the box must overlap it by a third at least.
    """
    import cv2
    import numpy as np

    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    whole = []
    for card in cards:
        cx, cy = np.asarray(card.corners, np.float32).mean(0)
        inside = cv2.pointPolygonTest(poly, (float(cx), float(cy)), False) >= 0
        if inside and card.visible >= min_visible:
            whole.append(card)
    if len(whole) != 1 or _polygon_iou(quad, whole[0].corners) < 0.33:
        return None
    return whole[0]


def _polygon_iou(a: Any, b: Any) -> float:
    import cv2
    import numpy as np

    pa, pb = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - inter
    return float(inter / union) if union > 0 else 0.0


def write_detector_cut_crops(
    cls_dir: Path,
    models_dir: Path,
    n_scenes: int,
    *,
    seed: int = 0,
    imgsz: int = 64,
    det_imgsz: int = 320,
    size: tuple[int, int] = (480, 640),
    min_iou: float = 0.7,
    min_visible: float = 0.6,
    dense_frac: float = 0.0,
    split: str = "train",
    progress: Any = None,
) -> int:
    """Crops of rendered table scenes as the detector in ``models_dir`` cuts them.

    The classifier otherwise learns from crops cut along the true corners (slightly
    jittered); at run time it gets the detector's boxes, which are looser or tighter,
    cut off a corner of a card half under another, or include a neighbour. Each
    face-up detection whose rotated box overlaps a rendered card by ``min_iou`` (and
    that card is at least ``min_visible`` uncovered) is written to
    ``cls_dir/<split>/<face>/`` under the card's true name. Returns the number written.

    ``dense_frac`` of the scenes are tight discard piles. There the detector may box
    the top card together with the heap under it; such a box (see :func:`heap_label`)
    is written under the top card's name, the card a reader of the pile wants.
    """
    import numpy as np

    from synth.render.dataset import _closeup_cards, _style
    from synth.render.scene import CardBank, compose_scene, random_cards
    from vision.recognition import CardFinder

    finder = CardFinder.load(models_dir, imgsz=det_imgsz)
    rng = np.random.default_rng(seed)
    bank = CardBank(rng, variants=16)
    written = 0
    for i in range(n_scenes):
        style = _style(rng, 0.15, dense_frac)
        names = _closeup_cards(rng) if style.card_width[0] >= 0.2 else None
        if style.pile_share > 0.8:
            names = random_cards(rng, int(rng.integers(4, 11)))
        scene = compose_scene(rng, cards=names, size=size, style=style, bank=bank)
        written += _write_cut_crops(
            scene.image,
            finder,
            scene.cards,
            cls_dir / split,
            f"det{seed}_{i:06d}",
            rng,
            imgsz=imgsz,
            min_iou=min_iou,
            min_visible=min_visible,
        )
        if progress is not None and ((i + 1) % 50 == 0 or i + 1 == n_scenes):
            progress("detector-cut crops", i + 1, n_scenes)
    return written
