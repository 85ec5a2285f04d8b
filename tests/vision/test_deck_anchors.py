"""The rendered crops of every face that a deck calibration keeps reading right
(``models/face-anchors.jpg``, vision.deck_fit.face_anchors)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.deck_fit import (
    ANCHOR_CROP,
    ANCHORS_PER_FACE,
    FACE_ANCHORS_FILE,
    CalibrationError,
    face_anchors,
)
from vision.deck_tail import TailTuner
from vision.labels import FACES
from vision.recognition import CLASSIFIER_PT, MODELS_DIR


@pytest.fixture(scope="module")
def tuner() -> TailTuner:
    return TailTuner.from_file(MODELS_DIR / CLASSIFIER_PT)


def test_the_shipped_anchors_cover_every_face_and_read_as_their_faces(tuner: TailTuner) -> None:
    """Every face, ``ANCHORS_PER_FACE`` crops, upright and half-turned; the shipped
    classifier names nearly all of them as their row says (the rows are the faces)."""
    got = face_anchors(tuner, MODELS_DIR / FACE_ANCHORS_FILE)
    assert got is not None
    x, p = got
    assert len(x) == len(p) == 2 * len(FACES) * ANCHORS_PER_FACE
    faces = p.argmax(1)
    assert sorted({tuner.names[f] for f in faces}) == sorted(FACES)
    assert np.allclose(p.sum(1), 1.0)
    read = tuner.probs(x).argmax(1)
    assert (read == faces).mean() >= 0.9, (read == faces).mean()


def test_no_anchor_file_means_none_and_a_wrong_mosaic_is_refused(
    tuner: TailTuner, tmp_path: Path
) -> None:
    assert face_anchors(tuner, tmp_path / FACE_ANCHORS_FILE) is None
    bad = tmp_path / "bad.jpg"
    cv2.imwrite(str(bad), np.zeros((3 * ANCHOR_CROP, 2 * ANCHOR_CROP, 3), np.uint8))
    with pytest.raises(CalibrationError, match=r"one row for each of the 54 faces"):
        face_anchors(tuner, bad)
