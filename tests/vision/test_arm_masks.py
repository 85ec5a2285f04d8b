"""What marks an arm (vision.hands.ArmConfig.mask): motion against the still table,
skin colour, or both; measured in docs/watcher.md ("Skin or motion")."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import TableLayout
from vision.hands import ArmConfig, ArmWatch, skin_mask

SKIN_BGR = (120, 150, 210)  # a light skin tone
WOOD_BGR = (70, 120, 170)  # a warm wooden table: its colour is in the skin box too
GREY_BGR = (120, 120, 120)


def _arm_seats(mask: str, table_bgr: tuple[int, int, int]) -> list[int]:
    layout = TableLayout.default(320, 240, 4)  # seat 0 at the bottom edge
    arms = ArmWatch(layout, ArmConfig(mask=mask))
    table = np.full((240, 320, 3), table_bgr, np.uint8)
    arms.update(table, 0.0)
    arm = table.copy()
    arm[120:240, 150:170] = SKIN_BGR  # from the bottom edge up to the discard pile
    return [s.seat for s in arms.update(arm, 0.1) + arms.update(arm, 0.2)]


def test_the_skin_box_holds_skin_and_a_wooden_table_not_grey() -> None:
    patch = np.zeros((2, 3, 3), np.uint8)
    patch[0, :] = SKIN_BGR
    patch[1, :] = GREY_BGR
    assert skin_mask(patch).tolist() == [[1, 1, 1], [0, 0, 0]]
    assert skin_mask(np.full((1, 1, 3), WOOD_BGR, np.uint8)).item() == 1


@pytest.mark.parametrize("mask", ["motion", "skin", "both"])
def test_every_mask_finds_an_arm_on_a_grey_table(mask: str) -> None:
    assert _arm_seats(mask, GREY_BGR) == [0, 0]


def test_skin_alone_cannot_tell_an_arm_from_a_wooden_table() -> None:
    """The whole table is skin-coloured: one blob over the whole picture, no arm."""
    assert _arm_seats("skin", WOOD_BGR) == []
    assert _arm_seats("motion", WOOD_BGR) == [0, 0]
    assert _arm_seats("both", WOOD_BGR) == [0, 0]


def test_an_unknown_mask_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown arm mask 'colour'"):
        ArmWatch(TableLayout.default(320, 240, 4), ArmConfig(mask="colour"))


def test_in_half_the_light_an_arm_is_found_with_the_light_passed() -> None:
    # A dark sleeve over a dark table in half the light: 8 grey levels apart, under
    # the house light's 12 (StillTableConfig.diff); measured on the covering-half-light
    # tuning style, where arms at the draw pile went unseen and draws were lost.
    layout = TableLayout.default(320, 240, 4)
    table = np.full((240, 320, 3), (40, 42, 45), np.uint8)
    arm = table.copy()
    arm[120:240, 150:170] = (48, 50, 53)

    def seats(light: float) -> list[int]:
        arms = ArmWatch(layout)
        arms.update(table, 0.0, light=light)
        return [
            s.seat for s in arms.update(arm, 0.1, light=light) + arms.update(arm, 0.2, light=light)
        ]

    assert seats(1.0) == []
    assert seats(0.5) == [0, 0]
