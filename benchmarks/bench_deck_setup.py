"""The tablet's deck setup as a user goes through it, on real photos of a deck never seen.

One source of ``shared/data/more-cards`` plays the user's deck: its photos are laid
four to a "table photo" (2 x 2, the way cards lie on a table), uploaded through the
deck setup's HTTP API (``/deck/api/photos``) with the real recogniser, every card the
recogniser misnames is corrected (``/deck/api/label``) as the user would by a tap,
then ``/deck/api/calibrate`` runs and its held-back check is read back.

Prints: cards boxed per card laid out, names right as proposed (the taps a user
saves), the held-back cards right before and after calibration, seconds.

    python benchmarks/bench_deck_setup.py [--source soloskino] [--per-photo 24]
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from uno_table.deck_setup import DeckSetup  # noqa: E402
from web import create_app  # noqa: E402
from web.deck import session_of  # noqa: E402

MORE = ROOT.parent / "shared" / "data" / "more-cards"
TOKEN = "bench"
AUTH = {"X-Referee-Token": TOKEN}
CARDS_PER_TABLE = 4


def table_photo(paths: list[Path]) -> bytes:
    images: list[Any] = [cv2.imread(str(p)) for p in paths]
    h = max(i.shape[0] for i in images)
    w = max(i.shape[1] for i in images)
    images = [
        cv2.copyMakeBorder(i, 0, h - i.shape[0], 0, w - i.shape[1], cv2.BORDER_REPLICATE)
        for i in images
    ]
    while len(images) < CARDS_PER_TABLE:
        images.append(np.full_like(images[0], 60))  # an empty stretch of table
    grid = np.vstack([np.hstack(images[0:2]), np.hstack(images[2:4])])
    return bytes(cv2.imencode(".jpg", grid, [cv2.IMWRITE_JPEG_QUALITY, 92])[1])


def where(photo: dict[str, Any], card: dict[str, Any]) -> int:
    x1, y1, x2, y2 = card["box"]
    return 2 * int((y1 + y2) / 2 > photo["height"] / 2) + int((x1 + x2) / 2 > photo["width"] / 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", default="soloskino")
    parser.add_argument("--per-photo", type=int, default=24)
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    args = parser.parse_args()
    photos = sorted((MORE / args.source).glob("*/*.jpg"))
    if not photos:
        print(f"no photos in {MORE / args.source}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        models = Path(tmp) / "models"
        models.mkdir()
        for f in args.models.iterdir():
            if f.is_file() and f.name != "deck.npz":
                (models / f.name).symlink_to(f.resolve())
        app = create_app(
            {
                "DATABASE": str(Path(tmp) / "bench.db"),
                "REFEREE_TOKEN": TOKEN,
                "DECK": DeckSetup(models),
                "DECK_PER_PHOTO": args.per_photo,
            }
        )
        client = app.test_client()
        tables = [photos[i : i + CARDS_PER_TABLE] for i in range(0, len(photos), CARDS_PER_TABLE)]
        started = time.monotonic()
        boxes = right = laid = 0
        for n, group in enumerate(tables):
            r = client.post(
                "/deck/api/photos",
                data={"photo": [(io.BytesIO(table_photo(group)), f"table-{n}.jpg")]},
                content_type="multipart/form-data",
                headers=AUTH,
            )
            laid += len(group)
            answer: dict[str, Any] = r.get_json()
            if r.status_code != 201:
                print(f"table {n}: {answer}")
                continue
            photo = answer["photos"][-1]
            faces = [p.parent.name for p in group]
            seen: set[int] = set()
            for card in photo["cards"]:
                boxes += 1
                k = where(photo, card)
                face = faces[k] if k < len(faces) and k not in seen else None
                seen.add(k)
                right += card["proposed"] == face
                if card["label"] != face:
                    client.post(
                        "/deck/api/label",
                        json={"photo": photo["id"], "card": card["id"], "face": face},
                        headers=AUTH,
                    )
        read_s = time.monotonic() - started
        r = client.post("/deck/api/calibrate", headers=AUTH)
        if r.status_code != 202:
            print(r.json)
            return 1
        session_of(app).wait()
        body: dict[str, Any] = client.get("/deck/api/job").get_json()
        result = body["result"]
        if result is None:
            print(body["job"])
            return 1
    n = result["held_back"]
    print(f"source {args.source}: {len(photos)} cards on {len(tables)} table photos")
    print(f"  boxes per card laid out      {boxes / laid:.2f} ({boxes} boxes)")
    print(f"  names right as proposed      {right} of {laid} ({100 * right / laid:.1f}%)")
    print(f"  reading the photos           {read_s:.1f} s")
    if n:
        print(
            f"  held-back cards right        {result['before']} of {n} before, "
            f"{result['after']} of {n} after"
        )
    else:
        print("  held-back cards              none (each face photographed once)")
    then = ", then all" if n else ""
    print(
        f"  calibration                  {result['seconds']:.1f} s "
        f"({result['trained']} cards fitted, {args.per_photo} crops each{then})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
