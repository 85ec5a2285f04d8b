"""Which picture of the pile a fan's lower cards are told from, and which new ink is a
card: a sliver of the old top's colour along the new card's edge is none, and a hand
held still over the pile (lost by the arm probe, which sees arms move) is no clear
picture. Same made-up table as ``test_watcher.py``; the pictures and arms are scripted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.vision.test_watcher import (
    CENTER,
    FPS,
    LAYOUT,
    PLAYERS,
    SEAT_EDGE,
    PictureSays,
    feed,
    ink,
    kinds,
    started,
)
from vision.arm_probe import DISCARD, ArmSighting
from vision.pile_probe import ColorPatch
from vision.watcher import Watcher


class ArmsAt:
    """An arm probe that saw ``player``'s arm at the discard pile in ``frames``."""

    def __init__(self, frames: list[int], player: str = "Ann") -> None:
        seat = PLAYERS.index(player)
        self.seen = [
            ArmSighting(i / FPS, seat, SEAT_EDGE[player], CENTER, DISCARD, True, to_discard=0.3)
            for i in frames
        ]

    def seat_for(self, first_t: float) -> int | None:
        return None

    def sightings_since(self, t: float) -> Sequence[ArmSighting]:
        return [s for s in self.seen if s.t >= t]


#: The new ink in the middle of a card: the starter's, then the red 9's.
MIDDLE = [ink("yellow", 0.4), ink("red", 0.4)]


def red_on_yellow(
    picture: PictureSays, arm_frames: list[int] | None = None
) -> list[dict[str, object]]:
    """Ann puts a red 9 on the yellow 9 (Ann's arm seen at the pile in ``arm_frames``);
    the recogniser sees only the red 9. The events after the flip."""
    table = started("yellow-9")
    table.still(30)
    table.bring(["red-9"], SEAT_EDGE["Ann"])
    table.still(20)
    w = Watcher(LAYOUT, PLAYERS, pile_colors=picture)
    if arm_frames is not None:
        w.arms = ArmsAt(arm_frames)
    return kinds(feed(table, w))[1:]


SINGLE = [{"type": "play", "card": "red-9", "player": "Ann"}]
FAN = [{"type": "play", "cards": ["yellow-9", "red-9"], "player": "Ann"}]


def test_a_sliver_of_the_old_top_s_colour_is_no_lower_card() -> None:
    # dusk-drop-cool held-out 710, opened: Cy's red 9 dropped on Bob's yellow 9.
    red = [ink("red", 0.4)]
    xy = (CENTER[0] - 25.0, CENTER[1] - 25.0)
    strip = ColorPatch("yellow", 0.06, xy)
    sliver = ColorPatch("yellow", 0.06, xy, sliver=True)
    assert red_on_yellow(PictureSays(MIDDLE, [*red, strip])) == FAN
    assert red_on_yellow(PictureSays(MIDDLE, [*red, sliver])) == SINGLE
    # Of another colour than the old top's, a sliver as large is a card's strip still
    # (the old top's colour is the one its own edge shows).
    blue = ColorPatch("blue", 0.08, xy, sliver=True)
    assert red_on_yellow(PictureSays(MIDDLE, [*red, blue])) == [
        {"type": "play", "cards": ["blue-9", "red-9"], "player": "Ann"}
    ]


class StripsAsked(PictureSays):
    """:class:`PictureSays`, noting the ``before`` of each question about what lies
    around a card (a fan's strips: hands left out)."""

    def __init__(self) -> None:
        super().__init__(MIDDLE, [ink("red", 0.4)])
        self.strip_befores: list[float] = []

    def new_colors(  # type: ignore[override]
        self, near: tuple[float, float], radius: float, **kw: Any
    ) -> list[ColorPatch] | None:
        if kw.get("hands", True):
            self.strip_befores.append(kw["before"])
        return super().new_colors(near, radius, **kw)


def strip_befores(arm_frames: list[int]) -> list[float]:
    """The ``before`` of each question about a fan's strips for :func:`red_on_yellow`,
    Ann's arm seen at the pile in ``arm_frames``."""
    picture = StripsAsked()
    assert red_on_yellow(picture, arm_frames) == SINGLE
    return picture.strip_befores


def test_a_fan_s_strips_are_told_from_a_picture_before_the_hand_came() -> None:
    # shaky-covering-messy-26fps held-out 710, opened: Ann's arm came over the pile,
    # held still (unseen by the arm probe) and left; the still picture with her hand
    # in it showed the wild's green as new beside her blue 6.
    came = 5 + 15 + 10 + 10  # 20 frames before the red 9 is first seen
    arm = [*range(came, came + 6), *range(came + 35, came + 45)]  # unseen 1 s at most
    strips = strip_befores(arm)
    assert strips and all(b < came / FPS for b in strips)
    # Unseen longer than strip_hand_gap_s: two visits, the picture between them clear.
    arm = [*range(came, came + 6), *range(came + 45, came + 55)]
    strips = strip_befores(arm)
    assert strips and all(b > (came + 6) / FPS for b in strips)


class StillOnlySince(PictureSays):
    """:class:`PictureSays` with a strip beside the red 9, for a pile that lay still only
    from ``since`` on: asked of an earlier picture, it cannot tell."""

    def __init__(self, since: float, strip: ColorPatch) -> None:
        super().__init__(MIDDLE, [ink("red", 0.4), strip])
        self.since = since

    def new_colors(  # type: ignore[override]
        self, near: tuple[float, float], radius: float, **kw: Any
    ) -> list[ColorPatch] | None:
        said = super().new_colors(near, radius, **kw)
        return None if kw.get("hands", True) and kw["before"] < self.since else said


def test_with_no_still_picture_before_the_hand_came_the_one_before_the_card_is_asked() -> None:
    # house tuning 615: Cy's yellow 7 under his green 7; an arm at the pile before and
    # after the last still picture, the pile never still before it came: the strip was
    # lost, and the play reported with a red 7 the fan's colour rules guessed.
    came = 5 + 15 + 10 + 10
    arm = [*range(came, came + 6), *range(came + 35, came + 45)]
    strip = ColorPatch("yellow", 0.2, (CENTER[0] - 35.0, CENTER[1]))
    picture = StillOnlySince((came + 10) / FPS, strip)
    assert red_on_yellow(picture, arm) == FAN
