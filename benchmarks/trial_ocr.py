"""Trial: read a card's value as text with a pretrained OCR model (issue 19, item 5).

``rapidocr-onnxruntime`` ships PP-OCR detection and recognition ONNX models inside its
wheel (no download at run time); it is a trial dependency, not the project's:
``pip install rapidocr-onnxruntime``. For every photo of the sources named (the
surest box cached by ``benchmarks/bench_decks.py``), the card is cut out upright at
160x240 pixels and read twice (as cut and turned half a turn: the detector does not
know a card's top); the readings that are a value (a digit, or "+2" for Draw Two)
vote, weighted by the OCR's score. Printed per source: the right value among the
readings, the right value voted, no value read, and the card right when the voted
value is joined to the shipped classifier's colour (where the OCR reads no value,
the classifier's answer), against the classifier alone; seconds per card.

    python benchmarks/trial_ocr.py [alinivan,reiamenezes]
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("YOLO_OFFLINE", "1")

from vision.deck_tail import TailTuner  # noqa: E402
from vision.recognition import CLASSIFIER_PT  # noqa: E402

CACHE = ROOT / ".cache" / "bench_decks"
#: The rectified card the OCR reads (width, height in pixels).
CARD_W, CARD_H = 160, 240
VALUES = {str(d): str(d) for d in range(10)} | {"+2": "draw2"}


def upright(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    dst = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    q = np.float32(quad)
    # The quad is TL TR BR BL of the box; a landscape box is a card lying sideways.
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[3] - q[0]):
        q = np.roll(q, -1, axis=0)
    m = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(image, m, (CARD_W, CARD_H))


def readings(ocr: object, card: np.ndarray) -> Counter[str]:
    votes: Counter[str] = Counter()
    for img in (card, card[::-1, ::-1]):
        result, _ = ocr(np.ascontiguousarray(img))  # type: ignore[operator]
        for _box, text, score in result or []:
            t = text.strip().replace(" ", "")
            if t in VALUES:
                votes[VALUES[t]] += float(score)
    return votes


def main() -> None:
    from rapidocr_onnxruntime import RapidOCR

    sources = sys.argv[1].split(",") if len(sys.argv) > 1 else ["alinivan", "reiamenezes"]
    ocr = RapidOCR()
    tuner = TailTuner.from_file(ROOT / "models" / CLASSIFIER_PT)
    data = dict(np.load(CACHE / "l6-8.npz", allow_pickle=True)["data"].item())
    out = {}
    for s in sources:
        meta = json.loads((CACHE / f"{s}.json").read_text())["photos"]
        te_x = data[s]["te_x"]
        probs = tuner.probs(te_x.reshape(-1, *te_x.shape[2:])).reshape(len(te_x), 2, -1).mean(1)
        guess = [tuner.names[int(k)] for k in probs.argmax(1)]
        among = voted = none = joined = alone = 0
        text_cards = text_voted = 0  # cards whose value is printed as text: digits, +2
        t0 = time.time()
        for m, g in zip(meta, guess, strict=True):
            face = m["face"]
            value = face.split("-", 1)[1] if "-" in face else face
            votes = readings(ocr, upright(cv2.imread(m["path"]), np.array(m["quad"])))
            among += value in votes
            best = votes.most_common(1)[0][0] if votes else None
            voted += best == value
            if value in VALUES.values():
                text_cards += 1
                text_voted += best == value
            none += best is None
            colour = g.split("-")[0]
            final = f"{colour}-{best}" if best is not None and colour != "wild" else g
            joined += final == face
            alone += g == face
        n = len(meta)
        out[s] = {
            "cards": n,
            "value_among_readings": round(100 * among / n, 1),
            "value_voted": round(100 * voted / n, 1),
            "no_value_read": round(100 * none / n, 1),
            "text_cards": text_cards,
            "text_cards_value_voted": round(100 * text_voted / max(text_cards, 1), 1),
            "card_right_ocr_value_classifier_colour": round(100 * joined / n, 1),
            "card_right_classifier_alone": round(100 * alone / n, 1),
            "seconds_per_card": round((time.time() - t0) / n, 2),
        }
        print(s, out[s], flush=True)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
