"""Deck calibration by fitting the classifier's read-out: real photos of a deck never
trained on, bad input, and the recogniser using a head."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from synth.training import base_models_dir
from uno_table.cli import main
from vision.deck_calibration import color_of, list_photos
from vision.deck_fit import CalibrationError, fit_deck, read_photos
from vision.deck_head import DeckHead
from vision.detector import CardRecognizer
from vision.recognition import (
    CLASSIFIER_HEAD_FILE,
    CLASSIFIER_ONNX,
    MODELS_DIR,
    DeckFileError,
    base_head,
    classifier_digest,
)

MORE = Path(__file__).resolve().parents[3] / "shared" / "data" / "more-cards"
needs_photos = pytest.mark.skipif(not MORE.is_dir(), reason="shared/data/more-cards not here")


@pytest.fixture(scope="module")
def rec() -> CardRecognizer:
    r = CardRecognizer.load(calibration=None)
    r.set_calibration(None)
    return r


def test_the_classifier_head_gives_the_classifier_answers(rec: CardRecognizer) -> None:
    rng = np.random.default_rng(3)
    crops = rng.integers(0, 255, (5, rec.cls_imgsz, rec.cls_imgsz, 3), dtype=np.uint8)
    saved = rec.head
    try:
        rec.set_head(None)
        plain, _ = rec.classify_crops(crops)
        rec.set_head(DeckHead.load(MODELS_DIR / CLASSIFIER_HEAD_FILE))
        via_head, _ = rec.classify_crops(crops)
    finally:
        rec.set_head(saved)
    assert np.allclose(plain, via_head, atol=1e-4)


def test_a_head_for_other_faces_is_refused(rec: CardRecognizer, tmp_path: Path) -> None:
    head = base_head()
    other = DeckHead(head.names[:3], head.weight[:3], head.bias[:3])
    with pytest.raises(ValueError, match="faces"):
        rec.set_head(other)
    np.savez(tmp_path / "protos.npz", names=np.array(["red-7"]), prototypes=np.zeros((1, 4)))
    with pytest.raises(ValueError, match="not a deck head"):
        DeckHead.load(tmp_path / "protos.npz")


def _first_per_face(root: Path) -> dict[str, list[Path]]:
    return {face: paths[:1] for face, paths in list_photos(root).items()}


def _score(rec: CardRecognizer, photos: dict[str, list[Path]]) -> tuple[float, float]:
    right = colour = total = 0
    for face, paths in photos.items():
        for p in paths:
            faces = [d for d in rec.detect(cv2.imread(str(p))) if d.card != "back"]
            guess = faces[0].card if faces else "none"
            total += 1
            right += guess == face
            colour += guess != "none" and color_of(guess) == color_of(face)
    return right / total, colour / total


@needs_photos
@pytest.mark.slow
def test_calibration_on_one_photographer_reads_the_deck_in_another_ones_photos(
    tmp_path: Path,
) -> None:
    """The coloured-oval edition, never trained on by the classifier as trained. Fitted
    to one photo per face by one photographer (alinivan), the recogniser reads another
    photographer's photos of that edition (reiamenezes) far better than the
    classifier's own read-out."""
    base = base_models_dir(tmp_path / "base")
    rec = CardRecognizer.load(base, use_deck=False)
    start = base_head(base)  # white-oval training only
    found, problems = read_photos(rec, _first_per_face(MORE / "alinivan"))
    assert len(found) >= 50 and len(problems.skipped) <= 2
    head = fit_deck(rec, found, start=start, per_photo=24)
    test = {f: p for f, p in list_photos(MORE / "reiamenezes").items() if f in head.names}
    saved = rec.head
    try:
        rec.set_head(start)
        before, _ = _score(rec, test)
        rec.set_head(head)
        after, colour = _score(rec, test)
    finally:
        rec.set_head(saved)
    assert after >= before + 0.25, (before, after)
    assert colour >= 0.9


def test_bad_calibration_input_is_refused_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.onnx"
    deck = tmp_path / "deck"
    (deck / "red-7").mkdir(parents=True)
    (deck / "red-seven").mkdir()
    assert main(["calibrate-deck", str(deck), "--out", str(out), "--quiet"]) == 2
    assert "red-seven" in capsys.readouterr().err and not out.exists()

    shutil.rmtree(deck / "red-seven")
    blank = np.full((300, 400, 3), 128, np.uint8)  # a photo with no card
    cv2.imwrite(str(deck / "red-7" / "red-7_001.jpg"), blank)
    (deck / "red-7" / "red-7_002.jpg").write_bytes(b"not a jpeg")
    assert main(["calibrate-deck", str(deck), "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "no face-up card found" in err and "not a readable image" in err
    assert "nothing was changed" in err and not out.exists()


def test_read_photos_names_unknown_faces(rec: CardRecognizer, tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="unknown card names: purple-3"):
        read_photos(rec, {"purple-3": [tmp_path / "x.jpg"]})


@needs_photos
def test_calibrate_deck_command_writes_a_head_the_recogniser_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "deck"
    for face in ("red-7", "blue-skip", "green-2"):
        src = sorted((MORE / "criscard" / face).iterdir())[0]
        (deck / face).mkdir(parents=True)
        shutil.copy(src, deck / face / src.name)
    two = np.concatenate([cv2.imread(str(p)) for p in sorted((deck).glob("*/*.jpg"))[:2]], 1)
    cv2.imwrite(str(deck / "green-2" / "green-2_two.jpg"), two)  # two cards, one expected
    out = tmp_path / "deck.npz"
    assert main(["calibrate-deck", str(deck), "--head", "--out", str(out), "--crops", "8"]) == 0
    captured = capsys.readouterr()
    assert "calibrated 3 faces" in captured.out
    assert "cards found" in captured.err  # the photo of two cards is named
    assert "fitting" in captured.err  # the progress bar
    loaded = CardRecognizer.load(calibration=out)
    assert loaded.head is not None and loaded.head.names == loaded.face_names


def test_a_head_fitted_on_another_classifier_is_refused(tmp_path: Path) -> None:
    """A head reads one classifier's embedding: through another (the model was updated
    since the deck was calibrated) it would read nonsense, so loading says what to do.
    A head that names no classifier (older files) still loads."""
    head = base_head()
    assert head.classifier == classifier_digest(MODELS_DIR / CLASSIFIER_ONNX)
    stale = DeckHead(head.names, head.weight, head.bias, "0123456789abcdef")
    stale.save(tmp_path / "deck.npz")
    with pytest.raises(DeckFileError, match=r"(?s)another classifier.*calibrate-deck"):
        CardRecognizer.load(calibration=tmp_path / "deck.npz")
    DeckHead(head.names, head.weight, head.bias).save(tmp_path / "old.npz")
    assert CardRecognizer.load(calibration=tmp_path / "old.npz").head is not None


def test_the_read_out_is_the_shipped_classifiers_own_layer() -> None:
    rec = CardRecognizer.load(use_deck=False)
    assert rec.head is None  # the classifier's own layer
    assert base_head().names == rec.face_names  # a --head fit starts from it
