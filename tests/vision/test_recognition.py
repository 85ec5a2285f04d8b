"""The committed recogniser on rendered scenes with known cards, and deck calibration."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from synth.render.scene import SceneStyle, compose_scene
from synth.video import render_video, simulated_game
from uno_table.cli import main
from vision.deck_calibration import calibrate, color_of, evaluate_photos, is_held_out, list_photos
from vision.deck_head import DeckHead
from vision.detections import Detections
from vision.detector import CardRecognizer, DeckCalibration
from vision.recognition import Letterbox
from vision.source import read_video

CLEAR = SceneStyle(card_width=(0.13, 0.2), hand_prob=0.0, glare_prob=0.0, blur_prob=0.2)


@pytest.fixture(scope="module")
def rec() -> CardRecognizer:
    r = CardRecognizer.load()
    r.set_calibration(None)  # judge the committed model alone
    return r


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def test_rendered_scenes_with_known_cards_are_recognised(rec: CardRecognizer) -> None:
    rng = np.random.default_rng(2024)
    found = total = 0
    for _ in range(16):
        names = [
            str(n)
            for n in rng.choice(
                [
                    "red-7",
                    "blue-skip",
                    "wild",
                    "green-0",
                    "yellow-draw2",
                    "back",
                    "blue-reverse",
                    "wild-draw4",
                    "red-9",
                    "green-6",
                ],
                3,
            )
        ]
        scene = compose_scene(rng, cards=names, size=(480, 640), style=CLEAR)
        dets = list(rec.detect(scene.image))
        for card in scene.cards:
            if card.visible < 0.9 or min(card.xyxy) < 0:
                continue
            total += 1
            found += any(d.card == card.card and _iou(d.box, card.xyxy) > 0.5 for d in dets)
    assert total >= 12
    assert found / total >= 0.8, f"{found}/{total} cards recognised"


def test_each_face_comes_with_its_likeliest_faces(rec: CardRecognizer) -> None:
    rng = np.random.default_rng(7)
    scene = compose_scene(rng, cards=["red-7", "back", "blue-skip"], size=(480, 640), style=CLEAR)
    dets = rec.detect(scene.image)
    assert dets.candidates is not None and len(dets) >= 2
    for i, name in enumerate(dets.card):
        cands = dets.candidates_of(i)
        if name == "back":
            assert cands == ()
            continue
        assert cands[0][0] == name and len(cands) == rec.n_candidates
        probs = [p for _, p in cands]
        assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1.001
        assert len({f for f, _ in cands}) == len(cands)


def test_a_card_filling_the_whole_picture_is_found(rec: CardRecognizer) -> None:
    # A scan or close-up: no table around the card (the recogniser retries with a margin).
    from synth.render.cards import render_card

    face = render_card("blue-4", width=360)
    image = np.where(face[..., 3:] > 0, face[..., :3], 255).astype(np.uint8)
    dets = rec.detect(image)
    assert [d.card for d in dets if d.card != "back"], "no face-up card found"
    assert dets.corners is not None and (dets.xyxy[:, 2] > dets.xyxy[:, 0]).all()


def test_an_empty_table_has_no_cards(rec: CardRecognizer) -> None:
    from synth.render.table import render_table

    table = render_table(480, 640, np.random.default_rng(3), "felt")
    assert len(rec.detect(table)) == 0


def test_detect_refuses_what_is_not_a_bgr_frame(rec: CardRecognizer) -> None:
    with pytest.raises(ValueError, match="BGR image"):
        rec.detect(np.zeros((10, 10), np.uint8))


def test_letterbox_maps_points_back_to_the_frame() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    boxed, lb = Letterbox.apply(frame, 320)
    assert boxed.shape == (320, 320, 3)
    pts = np.float32([[lb.left + 10 * lb.scale, lb.top + 20 * lb.scale]])
    assert np.allclose(lb.to_frame(pts), [[10, 20]], atol=1e-3)


def _photo_folder(root: Path, faces: list[str], per_face: int, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    style = SceneStyle(card_width=(0.25, 0.3), hand_prob=0.0, glare_prob=0.0, distractor_prob=0.0)
    for face in faces:
        (root / face).mkdir(parents=True)
        for i in range(per_face):
            scene = compose_scene(rng, cards=[face], size=(480, 360), style=style)
            cv2.imwrite(str(root / face / f"{face}_{i:03d}.jpg"), scene.image)
    return root


def test_held_out_split_and_listing(tmp_path: Path) -> None:
    for name in ("red-7_000.jpg", "red-7_001.jpg", "red-7_015.jpg"):
        (tmp_path / "red-7").mkdir(exist_ok=True)
        (tmp_path / "red-7" / name).write_bytes(b"x")
    (tmp_path / "not-a-card").mkdir()
    assert [p.name for p in list_photos(tmp_path, "train")["red-7"]] == ["red-7_001.jpg"]
    assert len(list_photos(tmp_path, "held-out")["red-7"]) == 2
    assert list(list_photos(tmp_path)) == ["red-7"]
    assert is_held_out(Path("x/wild_020.jpg")) and not is_held_out(Path("x/wild.jpg"))
    assert color_of("wild-draw4") == "black" and color_of("blue-2") == "blue"


def test_calibration_round_trip_and_use(rec: CardRecognizer, tmp_path: Path) -> None:
    photos = _photo_folder(tmp_path / "deck", ["red-7", "blue-skip", "wild"], 3, seed=9)
    calib, problems = calibrate(rec, list_photos(photos))
    assert len(problems) <= 2, problems
    assert calib.names == ("red-7", "blue-skip", "wild")
    assert np.allclose(np.linalg.norm(calib.prototypes, axis=1), 1.0, atol=1e-4)
    calib.save(tmp_path / "deck.npz")
    loaded = DeckCalibration.load(tmp_path / "deck.npz")
    assert loaded.names == calib.names and np.allclose(loaded.prototypes, calib.prototypes)
    rec.set_calibration(loaded)
    try:
        report = evaluate_photos(rec, list_photos(photos))
    finally:
        rec.set_calibration(None)
    assert report.total == 9 and report.top1 >= 6 / 9


def test_calibrate_deck_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photos = _photo_folder(tmp_path / "deck", ["green-3", "yellow-reverse"], 1, seed=4)
    (photos / "green-3" / "green-3_009.jpg").write_bytes(b"")  # unreadable: a warning
    out = tmp_path / "deck.npz"
    assert main(["calibrate-deck", str(photos), "--head", "--out", str(out), "--crops", "8"]) == 0
    captured = capsys.readouterr()
    assert "calibrated 2 faces" in captured.out and "not a readable image" in captured.err
    head = DeckHead.load(out)  # the classifier's read-out, fitted to these photos
    assert len(head.names) == 54 and head.weight.shape == (54, head.weight.shape[1])
    assert main(["calibrate-deck", str(tmp_path / "nowhere")]) == 2
    (tmp_path / "empty").mkdir()
    assert main(["calibrate-deck", str(tmp_path / "empty")]) == 2


def test_real_photo_writers_use_the_training_part_only(tmp_path: Path) -> None:
    from vision.deck_calibration import add_real_crops, add_real_detection_images
    from vision.yolo_env import MODELS_DIR

    photos = _photo_folder(tmp_path / "photos", ["red-7", "blue-skip"], 3, seed=5)
    (photos / "red-7" / "red-7_002.jpg").write_bytes(b"not a jpeg")  # skipped, not fatal

    cls_dir = tmp_path / "cls"
    n_crops = add_real_crops(photos, cls_dir, MODELS_DIR, repeat=2, imgsz=64)
    crops = sorted(p.name for p in (cls_dir / "train").rglob("*.jpg"))
    assert n_crops >= 2  # blue-skip_001/002 and red-7_001 are readable training photos
    assert len(crops) == 2 * n_crops
    assert not any("_000_" in name for name in crops), "held-out photos (index 0) never used"
    assert {p.name for p in (cls_dir / "train").iterdir()} == {"red-7", "blue-skip"}
    for crop in (cls_dir / "train").rglob("*.jpg"):
        image = cv2.imread(str(crop))
        assert image is not None and image.shape[:2] == (64, 64)
    # The second copy is cut from a jittered box (and turned): not the first one turned.
    first = sorted((cls_dir / "train").rglob("*_0.jpg"))[0]
    a = cv2.imread(str(first)).astype(int)
    b = cv2.imread(str(first.with_name(first.name.replace("_0.jpg", "_1.jpg")))).astype(int)
    assert np.abs(a[::-1, ::-1] - b).mean() > 2.0

    det_dir = tmp_path / "det"
    n_images = add_real_detection_images(photos, det_dir, MODELS_DIR)
    assert n_images == n_crops  # the same photos pass the same detector and checks
    labels = sorted((det_dir / "labels" / "train").glob("*.txt"))
    assert [p.stem for p in labels] == sorted(
        p.stem for p in (det_dir / "images" / "train").glob("*.jpg")
    )
    for label in labels:
        fields = label.read_text().split()
        assert fields[0] == "0" and len(fields) == 9
        assert all(0.0 <= float(v) <= 1.0 for v in fields[1:])


def test_detector_cut_crops_carry_the_true_face(tmp_path: Path) -> None:
    from synth.render.cards import FACES
    from synth.training import write_detector_cut_crops
    from vision.yolo_env import MODELS_DIR

    n = write_detector_cut_crops(tmp_path, MODELS_DIR, 6, seed=2, imgsz=48, split="val")
    crops = list((tmp_path / "val").rglob("*.jpg"))
    assert n == len(crops) > 0
    assert {p.parent.name for p in crops} <= set(FACES)
    assert all(cv2.imread(str(p)).shape == (48, 48, 3) for p in crops)
    assert not (tmp_path / "train").exists()


def test_a_margin_is_tried_when_nothing_card_shaped_is_found() -> None:
    from vision.recognition import _needs_margin

    def box(w: float, h: float) -> np.ndarray:
        return np.float32([(0, 0), (w, 0), (w, h), (0, h)])

    face, back = np.intp(0), np.intp(1)
    shape = (480, 640, 3)
    none = np.zeros((0, 4, 2), np.float32)
    assert _needs_margin(none, np.zeros(0, np.intp), shape)
    # A 2:3 face box is a card: no second look.
    assert not _needs_margin(np.stack([box(200, 300)]), np.array([face]), shape)
    # A large square face box is a close-up boxed out of shape: look again.
    assert _needs_margin(np.stack([box(400, 420)]), np.array([face]), shape)
    # A small square box (a pile on a table seen from above) is left alone.
    assert not _needs_margin(np.stack([box(60, 64)]), np.array([face]), shape)
    # A card-shaped back does not make a face box card-shaped.
    assert _needs_margin(np.stack([box(400, 420), box(100, 150)]), np.array([face, back]), shape)


def _cards_on_table(places: dict[str, tuple[int, int]], width: int, seed: int) -> np.ndarray:
    """A rendered felt table (640x480) with each card of ``places`` drawn upright,
    ``width`` pixels wide, its top left corner at its place (later ones on top)."""
    from synth.render.cards import render_card
    from synth.render.table import render_table

    image = render_table(480, 640, np.random.default_rng(seed), "felt")
    for name, (x, y) in places.items():
        face = render_card(name, width=width)
        alpha = face[..., 3:].astype(np.float32) / 255
        patch = image[y : y + face.shape[0], x : x + width]
        patch[:] = (alpha * face[..., :3] + (1 - alpha) * patch).astype(np.uint8)
    return image


def _read_with_every_box_a_back(
    rec: CardRecognizer,
    monkeypatch: pytest.MonkeyPatch,
    image: np.ndarray,
    places: dict[str, tuple[int, int]],
) -> dict[str, str | None]:
    """What :meth:`CardRecognizer.detect` names at each 120-pixel card of ``places``
    when the detector calls every box a back."""
    found = rec.find_cards

    def all_backs(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        corners, conf, cls = found(frame)
        return corners, conf, np.ones_like(cls)

    monkeypatch.setattr(rec, "find_cards", all_backs)
    dets = list(rec.detect(image))
    read: dict[str, str | None] = {}
    for name, (x, y) in places.items():
        match = [d.card for d in dets if _iou(d.box, (x, y, x + 120, y + 180)) > 0.5]
        read[name] = match[0] if match else None
    return read


def test_a_wild_the_detector_takes_for_a_back_is_read_as_a_wild(
    rec: CardRecognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both are black cards with an oval: the detector may call a wild face down.
    # The wild's four inks tell it from a back, and the classifier which wild it is.
    places = {"back": (40, 150), "wild": (250, 150), "wild-draw4": (460, 150)}
    image = _cards_on_table(places, 120, seed=3)
    read = _read_with_every_box_a_back(rec, monkeypatch, image, places)
    assert read == {"back": "back", "wild": "wild", "wild-draw4": "wild-draw4"}


@pytest.mark.parametrize("light", [1.0, 0.55])
def test_a_green_or_blue_card_the_detector_takes_for_a_back_is_read_as_its_face(
    rec: CardRecognizer, monkeypatch: pytest.MonkeyPatch, light: float
) -> None:
    # In dim, warm light a green card darkens towards a back's black, and the detector
    # boxes it as face down (the tuning style dim-warm: most of its missed plays). A
    # back shows no green or blue ink: such a "back" is a face, named by the classifier.
    places = {"back": (40, 150), "green-7": (250, 150), "blue-2": (460, 150)}
    image = _cards_on_table(places, 120, seed=4)
    warm = np.array([0.72, 0.93, 1.15], np.float32) if light < 1 else np.ones(3, np.float32)
    image = np.clip(image.astype(np.float32) * light * warm, 0, 255).astype(np.uint8)
    read = _read_with_every_box_a_back(rec, monkeypatch, image, places)
    assert read == {"back": "back", "green-7": "green-7", "blue-2": "blue-2"}


def test_up_close_an_unsure_card_no_surer_box_covers_is_kept(
    rec: CardRecognizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Up close, boxes under close_conf were all dropped (cards half under the top one
    # read as anything); in dim light the top card itself fell under it (dim-warm:
    # a green 4 read 0.69, a wild 0.56) and its play was never seen. Now a close box
    # read at close_alone_conf or better is kept unless a surer close box covers
    # close_cover_share of it.
    # the green 7 lies half over the blue 2
    places = {"blue-2": (230, 170), "green-7": (290, 150), "red-5": (470, 150)}
    image = _cards_on_table(places, 100, seed=6)
    region = (200.0, 130.0, 600.0, 350.0)
    found = rec.find_cards

    def unsure_up_close(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        corners, conf, cls = found(frame)
        if frame.shape[:2] != image.shape[:2]:  # the cut-out: every card read unsurely
            conf = np.full_like(conf, 0.62)
        return corners, conf, cls

    monkeypatch.setattr(rec, "find_cards", unsure_up_close)
    dets = rec.detect_focused(image, region, margin=30)
    assert _card_found(dets, "green-7", [290, 150, 390, 300])  # on top, unsure: kept
    assert _card_found(dets, "red-5", [470, 150, 570, 300])  # alone, unsure: kept
    # half under the green 7, read no surer than it: left out
    assert not any(_iou(d.box, (230, 170, 330, 320)) > 0.5 for d in dets)
    monkeypatch.setattr(rec, "close_alone_conf", 1.0)  # as before: all unsure dropped
    again = rec.detect_focused(image, region, margin=30)
    assert not _card_found(again, "green-7", [290, 150, 390, 300])


def _card_found(dets: Detections, card: str, box: list[float], iou: float = 0.5) -> bool:
    return any(d.card == card and _iou(d.box, tuple(box)) > iou for d in dets)


def test_the_discard_pile_looked_at_up_close_reads_its_cards(
    rec: CardRecognizer, tmp_path: Path
) -> None:
    # A short rendered game: the pile's cards lie on each other at all angles, about
    # 77 pixels long in a 640x480 frame, as a webcam above a table sees them.
    video = tmp_path / "game.mp4"
    render_video(simulated_game(900, players=3, turns=6), video, seed=900)
    layout = json.loads(video.with_name(video.name + ".layout.json").read_text())
    x0, y0, x1, y1 = layout["discard"]
    boxes = [json.loads(line) for line in video.with_name(video.name + ".boxes.jsonl").open()]

    def on_pile(box: tuple[float, ...] | list[float]) -> bool:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return x0 <= cx <= x1 and y0 <= cy <= y1

    def false_faces(dets: Detections, truth: list[list[Any]]) -> int:
        return sum(
            d.card != "back"
            and on_pile(d.box)
            and not any(c == d.card and _iou(d.box, tuple(b)) > 0.3 for c, _, b in truth)
            for d in dets
        )

    whole = close = total = 0
    whole_false = close_false = 0  # faces on the pile that are no card lying there
    outside_kept = frames = 0
    for i, frame in enumerate(read_video(video)):
        if i % 4:
            continue
        frames += 1
        truth = boxes[i]["cards"]
        # The close look reads the frame with its light evened out (vision.exposure):
        # the whole frame is read so too, to compare like with like.
        balanced = rec.light_balance(frame.image) if rec.light_balance else frame.image
        whole_dets = rec.detect(balanced)
        close_dets = rec.detect_focused(
            frame.image, (x0, y0, x1, y1), margin=0.6 * layout["card_px"]
        )
        for card, visible, box in truth:
            if on_pile(box) and card != "back" and visible >= 0.9:  # a whole card on the pile
                total += 1
                whole += _card_found(whole_dets, card, box)
                close += _card_found(close_dets, card, box)
        whole_false += false_faces(whole_dets, truth)
        close_false += false_faces(close_dets, truth)
        # Away from the pile the second look changes nothing.
        away = [d for d in whole_dets if not on_pile(d.box)]
        outside_kept += all(_card_found(close_dets, d.card, list(d.box), 0.99) for d in away)
    assert total >= 40
    assert close >= whole and close >= 0.95 * total, f"{close} (whole frame {whole}) of {total}"
    # Up close it boxes half-buried cards too; read unsurely, they are left out.
    assert close_false < whole_false, f"false faces {close_false} (whole frame {whole_false})"
    assert outside_kept == frames
