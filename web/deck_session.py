"""The deck setup's state: photos, the cards found in them, their names, the fit.

The user lays cards out face up, photographs them (or grabs the camera's frame), and
the recogniser proposes a name for every card it boxes. Each box the user keeps is
a labelled card; the user corrects the wrong names (or drops a box) with a tap.
Calibrating holds back part of those cards (:func:`held_back`: second photos of
faces), fits the deck on the rest, reads the held-back cards with the shipped
classifier and with the fitted one, and fits again on every card for use. Any
change to the photos or names after that asks for a new calibration.

The vision work (reading an image, fitting, saving the deck) is done by a
:class:`DeckVision` that the composition root hands the app as ``config["DECK"]``
(``uno_table.deck_setup.DeckSetup``), so this package never imports ``vision``.

The contract with the vision side is :mod:`web.deck_vision`'s; the parts of the state
(photos, cards, the job, :func:`held_back`) are :mod:`web.deck_state`'s.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Sequence
from typing import Any

from web.deck_state import (  # noqa: F401  (re-exported: they lived here)
    HELD_BACK_EVERY,
    STAGES,
    DeckCard,
    DeckPhoto,
    Job,
    held_back,
)
from web.deck_vision import (  # noqa: F401  (re-exported: they lived here)
    DeckError,
    DeckVision,
    Found,
    LabelledCard,
    Progress,
    Quad,
    Reading,
)
from web.events import CARDS

#: Photos one setup may hold (each kept as a JPEG of at most ~1600 px).
MAX_PHOTOS = 80


class DeckSession:
    """The one deck setup of an app (every referee page sees the same)."""

    def __init__(self, vision: DeckVision | None, per_photo: int = 48) -> None:
        self.vision = vision
        self.per_photo = per_photo
        self._lock = threading.RLock()
        self._photos: dict[int, DeckPhoto] = {}
        self._next_id = 1
        self.job = Job()
        self.result: dict[str, Any] | None = None
        self._deck: Any = None  # the fitted deck, until the photos or names change
        self._thread: threading.Thread | None = None

    # -- reading -------------------------------------------------------------------

    def _vision(self) -> DeckVision:
        if self.vision is None:
            raise DeckError(
                "deck setup needs the card recogniser: start the tablet with "
                "`uno-table serve` (this app was created without one)",
                503,
            )
        return self.vision

    def state(self) -> dict[str, Any]:
        with self._lock:
            photos = [p.to_json() for p in self._photos.values()]
            labels = self._labelled()
            held = {labels[i][0] for i in held_back([c.face for _, c in labels])}
            for p in photos:
                for c in p["cards"]:
                    c["held_back"] = f"{p['id']}/{c['id']}" in held
            status: dict[str, Any] = {}
            if self.vision is not None:
                try:
                    status = self.vision.status()
                except Exception as exc:  # the page must load whatever the models do
                    status = {"error": str(exc)}
            return {
                "available": self.vision is not None,
                "photos": photos,
                "labelled": len(labels),
                "held_back": len(held),
                "faces": sorted(CARDS),
                "job": self.job.to_json(),
                "result": self.result,
                "can_use": self._deck is not None,
                "deck": status,
            }

    def photo_jpeg(self, photo_id: int) -> bytes | None:
        with self._lock:
            photo = self._photos.get(photo_id)
            return None if photo is None else photo.reading.jpeg

    def _labelled(self) -> list[tuple[str, LabelledCard]]:
        out = []
        for p in self._photos.values():
            for i, c in enumerate(p.cards):
                if c.label is not None:
                    key = f"{p.id}/{i}"
                    out.append((key, LabelledCard(key, p.reading.jpeg, c.found.quad, c.label)))
        return out

    # -- changing ------------------------------------------------------------------

    def _changing(self) -> None:
        """Refuse a change while a fit runs; otherwise forget the last fit."""
        if self.job.state == "running":
            raise DeckError("calibration is running: wait until it finishes", 409)
        self.result = None
        self._deck = None
        if self.job.state != "idle":
            self.job = Job()

    def add_images(self, images: Sequence[tuple[str, bytes]], source: str) -> list[int]:
        """Read every image first; add them all, or none with the reason."""
        vision = self._vision()
        if not images:
            raise DeckError("no image sent: choose one or more photos of cards")
        with self._lock:
            if self.job.state == "running":
                raise DeckError("calibration is running: wait until it finishes", 409)
            if len(self._photos) + len(images) > MAX_PHOTOS:
                raise DeckError(f"at most {MAX_PHOTOS} photos: remove some first")
        readings = []
        for name, data in images:
            if not data:
                raise DeckError(f"{name}: the file is empty; nothing was added")
            try:
                reading = vision.read(data)
            except DeckError as exc:
                raise DeckError(f"{name}: {exc.message}; nothing was added", exc.status) from exc
            if not reading.cards:
                raise DeckError(
                    f"{name}: no card found; lay the cards face up, apart from one another, "
                    "in good light, and take the photo from above; nothing was added"
                )
            readings.append((name, reading))
        with self._lock:
            self._changing()
            ids = []
            for name, reading in readings:
                cards = [DeckCard(f, None if f.card == "back" else f.card) for f in reading.cards]
                photo = DeckPhoto(self._next_id, name, source, reading, cards)
                self._photos[photo.id] = photo
                ids.append(photo.id)
                self._next_id += 1
            return ids

    def add_camera_frame(self) -> list[int]:
        frame = self._vision().camera_frame()
        if frame is None:
            raise DeckError(
                "no camera frame: the server runs without a camera (--source none) or the "
                "camera has not sent a frame yet; upload photos instead",
                409,
            )
        return self.add_images([(f"camera {time.strftime('%H:%M:%S')}", frame)], "camera")

    def set_label(self, photo_id: Any, card_id: Any, face: Any) -> None:
        if not isinstance(photo_id, int) or not isinstance(card_id, int):
            raise DeckError("send {'photo': <photo id>, 'card': <card id>, 'face': <name|null>}")
        if face is not None and (not isinstance(face, str) or face not in CARDS):
            raise DeckError(
                f"unknown card name {face!r}: expected a face like red-7, blue-skip, "
                "green-draw2, wild or wild-draw4 (null: not a card)"
            )
        with self._lock:
            photo = self._photos.get(photo_id)
            if photo is None:
                raise DeckError(f"no photo {photo_id}", 404)
            if not 0 <= card_id < len(photo.cards):
                raise DeckError(f"photo {photo_id} has no card {card_id}", 404)
            self._changing()
            photo.cards[card_id].label = face

    def remove(self, photo_id: int | None = None) -> None:
        """Remove one photo, or all of them."""
        with self._lock:
            if photo_id is not None and photo_id not in self._photos:
                raise DeckError(f"no photo {photo_id}", 404)
            self._changing()
            if photo_id is None:
                self._photos.clear()
            else:
                del self._photos[photo_id]

    # -- calibrating ---------------------------------------------------------------

    def calibrate(self, per_photo: int | None = None) -> dict[str, Any]:
        """Start the fit in the background; its progress is in :attr:`job`."""
        vision = self._vision()
        per = self.per_photo if per_photo is None else per_photo
        with self._lock:
            if self.job.state == "running":
                raise DeckError("calibration is already running", 409)
            labelled = [c for _, c in self._labelled()]
            if not labelled:
                raise DeckError(
                    "no named card to calibrate on: add photos of your cards, or name the "
                    "cards of the photos (every box is marked 'not a card')"
                )
            held_idx = set(held_back([c.face for c in labelled]))
            train = [c for i, c in enumerate(labelled) if i not in held_idx]
            held = [c for i, c in enumerate(labelled) if i in held_idx]
            self.result = None
            self._deck = None
            stages = STAGES if held else tuple(s for s in STAGES if s != "check")
            self.job = Job("running", stages[0], started=time.monotonic(), stages=stages)
            job = self.job
            self._thread = threading.Thread(
                target=self._run, args=(vision, job, train, held, per), name="deck-fit", daemon=True
            )
            self._thread.start()
            return job.to_json()

    def _run(
        self,
        vision: DeckVision,
        job: Job,
        train: list[LabelledCard],
        held: list[LabelledCard],
        per_photo: int,
    ) -> None:
        def progress(stage: str, done: int, total: int) -> None:
            job.stage, job.done, job.total = stage, done, total

        try:
            before, after, deck = vision.fit(train, held, per_photo, progress)
        except Exception as exc:  # shown on the page; the server goes on
            traceback.print_exc()
            with self._lock:
                job.state, job.error = "failed", f"calibration failed: {exc}"
                job.seconds = time.monotonic() - job.started
            return
        cards = [
            {"key": c.key, "face": c.face, "before": b, "after": a}
            for c, b, a in zip(held, before, after, strict=True)
        ]
        with self._lock:
            job.seconds = time.monotonic() - job.started
            self.result = {
                "held_back": len(held),
                "before": sum(c["face"] == c["before"] for c in cards),
                "after": sum(c["face"] == c["after"] for c in cards),
                "cards": cards,
                "trained": len(train),
                "faces": len({c.face for c in [*train, *held]}),
                "per_photo": per_photo,
                "seconds": round(job.seconds, 1),
            }
            self._deck = deck
            job.state = "done"

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a running fit to finish (tests, scripts)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def use(self) -> dict[str, Any]:
        vision = self._vision()
        with self._lock:
            if self.job.state == "running":
                raise DeckError("calibration is running: wait until it finishes", 409)
            if self._deck is None:
                raise DeckError("nothing to use yet: calibrate first", 409)
            return vision.use(self._deck)

    def forget(self) -> dict[str, Any]:
        vision = self._vision()
        with self._lock:
            if self.job.state == "running":
                raise DeckError("calibration is running: wait until it finishes", 409)
            return vision.forget()
