"""The vision side of the tablet's deck setup (:class:`web.deck_session.DeckVision`).

:class:`DeckSetup` reads the user's photos with a recogniser of its own (loaded on
first use, so the live loop's is never called from two threads), fits the deck
with :mod:`vision.deck_fit` the way ``uno-table calibrate-deck`` does, and when the
user keeps it, writes ``deck.onnx`` (the classifier with its last stages fitted to
the deck, :mod:`vision.deck_tail`) into the models folder (atomically) and has the
live loop's recogniser, if one is running, classify with it.

>>> setup = DeckSetup("no/such/models")
>>> setup.status()["saved"], setup.camera_frame() is None
(False, True)
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from web.deck_session import DeckError, Found, LabelledCard, Progress, Reading

#: An image's longer side is brought down to this many pixels when it is kept.
MAX_SIDE = 1600
#: JPEG quality of the kept photos.
JPEG_QUALITY = 92


class DeckSetup:
    """Reads photos, fits a deck, saves and applies it. ``live``: the
    :class:`uno_table.live.LiveRunner` (its ``camera_frame()`` and
    ``active_recognizer``), or None without a camera."""

    def __init__(
        self, models_dir: str | Path | None = None, live: Any = None, recognizer: Any = None
    ) -> None:
        self.models_dir = Path(models_dir) if models_dir is not None else None
        self.live = live
        self._rec = recognizer
        self._lock = threading.RLock()
        self._in_use: bool | None = None  # None: whatever the deck file says
        self._net: Any = None  # the shipped classifier network, loaded on the first fit

    # -- helpers -------------------------------------------------------------------

    def _models(self) -> Path:
        if self.models_dir is not None:
            return self.models_dir
        from vision.yolo_env import MODELS_DIR

        return Path(MODELS_DIR)

    def deck_path(self) -> Path:
        from vision.recognition import DECK_CLASSIFIER_FILE

        return self._models() / DECK_CLASSIFIER_FILE

    def _tuner(self, first: int | None = None, *, neutral_white: bool = True) -> Any:
        """A fresh fitter of the shipped classifier's last stages (from layer ``first``;
        None: :data:`vision.deck_tail.FIRST_TUNED_LAYER`), reading each crop with its
        white made neutral (``neutral_white``, :mod:`vision.white_balance`) as a
        calibration does; without, the shipped classifier as the recogniser reads."""
        from vision.deck_tail import FIRST_TUNED_LAYER, TailTuner, load_network
        from vision.recognition import CLASSIFIER_PT

        with self._lock:
            if self._net is None:
                try:
                    self._net = load_network(self._models() / CLASSIFIER_PT)
                except Exception as exc:  # no weights, a broken file: said on the page
                    raise DeckError(f"cannot load the classifier to fit: {exc}", 503) from exc
            # a copy of the last stages: the network is kept
            first = FIRST_TUNED_LAYER if first is None else first
            return TailTuner(self._net, first, neutral_white=neutral_white)

    def recognizer(self) -> Any:
        """The deck setup's own recogniser, loaded on first use."""
        with self._lock:
            if self._rec is None:
                from vision.detector import CardRecognizer

                try:
                    self._rec = CardRecognizer.load(self._models())
                except Exception as exc:  # no weights, a broken file: said on the page
                    raise DeckError(f"cannot load the card recogniser: {exc}", 503) from exc
            return self._rec

    # -- DeckVision ----------------------------------------------------------------

    def read(self, data: bytes) -> Reading:
        import cv2
        import numpy as np

        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            raise DeckError("not an image that can be read (send JPEG or PNG photos)")
        h, w = image.shape[:2]
        if max(h, w) > MAX_SIDE:
            scale = MAX_SIDE / max(h, w)
            image = cv2.resize(
                image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA
            )
            h, w = image.shape[:2]
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise DeckError("the image could not be stored")
        with self._lock:
            dets = self.recognizer().detect(image)
        corners = dets.corners
        cards = []
        for i in range(len(dets)):
            if corners is not None:
                quad = tuple((float(x), float(y)) for x, y in corners[i])
            else:
                x1, y1, x2, y2 = (float(v) for v in dets.xyxy[i])
                quad = ((x1, y1), (x2, y1), (x2, y2), (x1, y2))
            cards.append(
                Found(quad, dets.card[i], float(dets.confidence[i]), dets.candidates_of(i))
            )
        # Reading order: rows from the top, then left to right.
        cards.sort(key=lambda f: (round(_centre(f)[1] / max(h / 6, 1)), _centre(f)[0]))
        return Reading(buf.tobytes(), w, h, tuple(cards))

    def camera_frame(self) -> bytes | None:
        grab = getattr(self.live, "camera_frame", None)
        frame = grab() if grab is not None else None
        if frame is None:
            return None
        import cv2

        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        return buf.tobytes() if ok else None

    def fit(
        self,
        train: Sequence[LabelledCard],
        held: Sequence[LabelledCard],
        per_photo: int,
        progress: Progress,
    ) -> tuple[list[str], list[str], Any]:
        """Fit on ``train`` and read ``held`` with the shipped classifier and with that
        fit (stage "check"); then fit on every card (stage "fit") for :meth:`use`. The
        crops are cut and read by the frozen first layers once, for both fits."""
        from vision.deck_fit import (
            FACE_ANCHORS_FILE,
            TAIL_CALIBRATION,
            CalibrationError,
            augmented_features,
            face_anchors,
            first_layer_for,
            share_read_right,
        )

        with self._lock:
            rec = self.recognizer()
            photos = _photos([*train, *held])
            shipped = self._tuner()
            # A deck the shipped classifier reads poorly is fitted from a deeper layer.
            first = first_layer_for(share_read_right(shipped, photos, rec.cls_imgsz))
            if first != shipped.first:
                shipped = self._tuner(first)
            try:  # rendered crops of every face, kept apart while fitting (none: no file)
                anchors = face_anchors(shipped, self._models() / FACE_ANCHORS_FILE)
            except CalibrationError as exc:
                raise DeckError(str(exc), 500) from exc
            x, y = augmented_features(
                photos,
                per_photo,
                rec.cls_imgsz,
                shipped.names,
                shipped.features,
                progress=lambda _s, d, t: progress("crops", d, t),
            )
            held_photos = photos[len(train) :]
            before: list[str] = []
            after: list[str] = []
            if held_photos:  # the fit without them, to read them with
                n = len(train) * per_photo
                check = self._tuner(first)
                check.fit(
                    x[:n],
                    y[:n],
                    TAIL_CALIBRATION,
                    anchors=anchors,
                    progress=lambda d, t: progress("check", d, t),
                )
                before = _read_cards(rec, self._tuner(neutral_white=False), held_photos)
                after = _read_cards(rec, check, held_photos)
            tuner = self._tuner(first)
            tuner.fit(
                x, y, TAIL_CALIBRATION, anchors=anchors, progress=lambda d, t: progress("fit", d, t)
            )
            return before, after, tuner.network()

    def use(self, deck: Any) -> dict[str, Any]:
        """Write ``deck.onnx`` (a temporary file renamed over it) and classify with it."""
        from vision.deck_tail import export_onnx

        path = self.deck_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".deck-", suffix=".onnx", dir=path.parent)
        os.close(fd)
        try:
            export_onnx(deck, Path(tmp), self.recognizer().cls_imgsz)
            os.replace(tmp, path)
        except (OSError, RuntimeError) as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise DeckError(f"cannot write {path}: {exc}", 500) from exc
        self._apply(path)
        self._in_use = True
        return self.status()

    def forget(self) -> dict[str, Any]:
        """Delete the deck's files (``deck.onnx``, an older ``deck.npz``): the shipped
        classifier reads again."""
        from vision.recognition import DECK_FILE

        try:
            for path in (self.deck_path(), self._models() / DECK_FILE):
                path.unlink(missing_ok=True)
        except OSError as exc:
            raise DeckError(f"cannot delete {path}: {exc}", 500) from exc
        self._apply(None)
        self._in_use = False
        return self.status()

    def _apply(self, deck_file: Path | None) -> None:
        """Classify with ``deck_file`` (None: the shipped classifier) from now on: this
        setup's recogniser and the live one, with no read-out head or prototypes."""
        from vision.recognition import CLASSIFIER_ONNX

        live_rec = getattr(self.live, "active_recognizer", None)
        with self._lock:
            for rec in (self._rec, live_rec):
                if rec is not None and hasattr(rec, "use_classifier"):  # not a stand-in
                    if getattr(rec, "calibration", None) is not None:
                        rec.set_calibration(None)  # an older prototype calibration
                    rec.set_head(None)
                    rec.use_classifier(deck_file or self._models() / CLASSIFIER_ONNX)

    def status(self) -> dict[str, Any]:
        path = self.deck_path()
        saved = path.exists()
        live_rec = getattr(self.live, "active_recognizer", None)
        return {
            "deck_file": str(path),
            "saved": saved,
            "in_use": saved if self._in_use is None else self._in_use,
            "camera": self.live is not None and hasattr(self.live, "camera_frame"),
            "live_recognizer": live_rec is not None,
            "loaded": self._rec is not None,
        }


def _centre(found: Found) -> tuple[float, float]:
    xs = [p[0] for p in found.quad]
    ys = [p[1] for p in found.quad]
    return sum(xs) / 4, sum(ys) / 4


def _photos(cards: Sequence[LabelledCard]) -> list[Any]:
    """:class:`vision.deck_fit.Photo` of each card, decoding each photo once."""
    import cv2
    import numpy as np

    from vision.deck_fit import Photo

    images: dict[int, Any] = {}
    out = []
    for card in cards:
        key = id(card.jpeg)
        if key not in images:
            images[key] = cv2.imdecode(np.frombuffer(card.jpeg, np.uint8), cv2.IMREAD_COLOR)
        quad = np.array(card.quad, np.float32)
        out.append(Photo(card.face, Path(card.key), images[key], quad, 1))
    return out


def _read_cards(rec: Any, tuner: Any, photos: Sequence[Any]) -> list[str]:
    """Each photo's card named by ``tuner``'s classifier, as the recogniser reads a card
    (the crop upright and turned half a turn, the two answers averaged)."""
    import numpy as np

    if not photos:
        return []
    crops = np.stack([rec.crops(p.image, p.quad[None])[0] for p in photos])
    probs = tuner.probs(tuner.features(crops)) + tuner.probs(
        tuner.features(np.ascontiguousarray(crops[:, ::-1, ::-1]))
    )
    return [tuner.names[int(k)] for k in probs.argmax(axis=1)]
