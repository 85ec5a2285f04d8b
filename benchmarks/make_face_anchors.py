"""Write ``models/face-anchors.jpg``: rendered crops of every face that a deck
calibration keeps reading right while it fits the user's photos (``vision.deck_fit``,
:func:`~vision.deck_fit.face_anchors`).

Each face is drawn by the renderer (``synth.render.cards.render_card``, a random
edition of the three it knows, shades and wear at random), laid on a random table,
slightly turned, and cut out ``PER_FACE`` times as a calibration cuts a photo
(:func:`vision.deck_augment.augmented_crops`). One row of the mosaic per face, in the
order of ``vision.labels.FACES``; deterministic for a seed.

    python benchmarks/make_face_anchors.py [--out models/face-anchors.jpg]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from synth.render.cards import render_card  # noqa: E402
from vision.deck_augment import augmented_crops, random_table  # noqa: E402
from vision.deck_fit import ANCHOR_CROP, ANCHOR_JPEG_QUALITY, ANCHORS_PER_FACE  # noqa: E402
from vision.labels import FACES  # noqa: E402

SEED = 78
#: The card's width on its table, and the table's side (pixels).
CARD_WIDTH = 120
TABLE = 320
#: Each card turned by up to this many degrees on its table.
TURN = 10.0


def card_on_table(face: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A photo of ``face`` on a random table and its quad (TL TR BR BL)."""
    card = render_card(face, rng=rng, width=CARD_WIDTH)
    h, w = card.shape[:2]
    table = random_table(rng, TABLE).astype(np.float32)
    x0, y0 = (TABLE - w) // 2, (TABLE - h) // 2
    alpha = card[..., 3:].astype(np.float32) / 255.0
    roi = table[y0 : y0 + h, x0 : x0 + w]
    table[y0 : y0 + h, x0 : x0 + w] = card[..., :3] * alpha + roi * (1 - alpha)
    quad = np.float32([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)])
    turn = cv2.getRotationMatrix2D((TABLE / 2, TABLE / 2), rng.uniform(-TURN, TURN), 1.0)
    photo = cv2.warpAffine(
        table.astype(np.uint8), turn, (TABLE, TABLE), borderMode=cv2.BORDER_REFLECT
    )
    quad = cv2.transform(quad[None], turn)[0].astype(np.float32)
    return photo, quad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "face-anchors.jpg")
    args = ap.parse_args()
    rng = np.random.default_rng(SEED)
    rows = []
    for face in FACES:
        # the second of augmented_crops' crops: changed at random, and half-turned
        crops = [
            augmented_crops(*card_on_table(face, rng), 2, ANCHOR_CROP, rng)[1][::-1, ::-1]
            for _ in range(ANCHORS_PER_FACE)
        ]
        rows.append(np.concatenate(crops, 1))
    mosaic = np.concatenate(rows, 0)
    cv2.imwrite(str(args.out), mosaic, [cv2.IMWRITE_JPEG_QUALITY, ANCHOR_JPEG_QUALITY])
    print(
        f"{args.out}: {len(FACES)} faces x {ANCHORS_PER_FACE} crops,",
        f"{args.out.stat().st_size} bytes",
    )


if __name__ == "__main__":
    main()
