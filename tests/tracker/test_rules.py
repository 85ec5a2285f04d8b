import dataclasses
from pathlib import Path

import pytest

from tracker import PRESETS, RuleError, RuleSet, UnknownPresetError, preset, tables, toggle_table

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_three_presets_at_least() -> None:
    assert {"official", "house", "youlerren"} <= set(PRESETS)
    for name, rules in PRESETS.items():
        assert preset(name) is rules
        assert rules.name == name


def test_unknown_preset_is_a_specific_value_error() -> None:
    with pytest.raises(UnknownPresetError, match="unknown rule preset 'poker'"):
        preset("poker")
    assert issubclass(UnknownPresetError, ValueError)


def test_rule_set_is_frozen_data() -> None:
    rules = preset("official")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.jump_in = True  # type: ignore[misc]
    assert hash(rules) == hash(RuleSet())


def test_official_preset_is_the_published_rules() -> None:
    r = preset("official")
    assert not (r.stack_draw2_on_draw2 or r.stack_draw4_on_draw2 or r.stack_draw4_on_draw4)
    assert r.draw4_restricted and r.draw4_challenge
    assert (r.challenge_guilty_draw, r.challenge_wrong_draw) == (4, 6)
    assert r.uno_penalty == 2 and r.reverse_skips_two_players
    assert (r.scoring, r.points, r.target_score, r.hand_size) == ("winner-takes", "face", 500, 7)
    assert not r.jump_in and not r.multi_play and r.last_card_values is None


def test_house_preset() -> None:
    r = preset("house")
    assert r.stack_draw2_on_draw2 and r.stack_draw4_on_draw2 and r.stack_draw4_on_draw4
    assert r.jump_in and r.multi_play
    assert (r.false_uno_penalty, r.wrong_card_penalty) == (2, 1)


def test_youlerren_preset() -> None:
    r = preset("youlerren")
    assert r.stack_draw2_on_draw2 and r.stack_draw4_on_draw2 and r.stack_draw4_on_draw4
    assert not r.stack_two_draw2_on_draw4  # after a +4 only a +4
    assert r.follow_color_after_penalty
    assert r.last_card_values == frozenset({*map(str, range(1, 10)), "draw2", "wild-draw4"})
    assert r.empty_draw_pile == "end-round"
    assert (r.scoring, r.points, r.stake) == ("pairwise", "youlerren", 1)


def test_with_changes_a_copy_and_validates() -> None:
    official = preset("official")
    changed = official.with_(jump_in=True, hand_size=5)
    assert changed.jump_in and changed.hand_size == 5 and not official.jump_in
    with pytest.raises(RuleError, match="unknown toggle"):
        official.with_(stacking=True)
    with pytest.raises(RuleError, match="scoring"):
        official.with_(scoring="chips")
    with pytest.raises(RuleError, match="hand_size"):
        official.with_(hand_size=0)
    with pytest.raises(RuleError, match="last_card_values"):
        official.with_(last_card_values=frozenset({"11"}))


@pytest.mark.parametrize(
    ("text", "name", "value"),
    [
        ("jump_in=yes", "jump_in", True),
        ("jump-in=off", "jump_in", False),
        ("uno_penalty=4", "uno_penalty", 4),
        ("target_score=none", "target_score", None),
        ("empty_draw_pile=end-round", "empty_draw_pile", "end-round"),
        ("last_card_values=any", "last_card_values", None),
    ],
)
def test_with_text_parses_command_line_values(text: str, name: str, value: object) -> None:
    assert getattr(preset("official").with_text(text), name) == value


@pytest.mark.parametrize("text", ["jump_in", "jump_in=maybe", "uno_penalty=two", "nope=1"])
def test_with_text_rejects_bad_input(text: str) -> None:
    with pytest.raises(RuleError):
        preset("official").with_text(text)


def test_every_toggle_is_documented_and_the_docs_table_is_current() -> None:
    for f in dataclasses.fields(RuleSet):
        assert f.metadata.get("doc"), f"toggle {f.name} has no documentation"
    table = toggle_table()
    assert DOCS.read_text(encoding="utf-8").count(table) == 1, (
        "docs/rules.md is out of date: paste tracker.toggle_table() between the markers"
    )


def test_the_readme_copy_of_the_table_is_current_where_there_is_one() -> None:
    readme = DOCS.parents[1] / "README.md"
    text = readme.read_text(encoding="utf-8") if readme.exists() else ""
    start, end = "<!-- rules-table:start -->", "<!-- rules-table:end -->"
    if start in text and end in text:
        section = text.split(start, 1)[1].split(end, 1)[0]
        if "|" in section:  # a copied table (a link to docs/rules.md is fine too)
            assert toggle_table() in section, "README rules table is out of date"


def test_the_table_writer_rewrites_a_stale_copy_and_checks_current_ones(tmp_path: Path) -> None:
    root = DOCS.parents[1]
    assert tables.main(["--check", "--root", str(root)]) == 0
    (tmp_path / "docs").mkdir()
    stale = f"intro\n{tables.START}\n| old |\n{tables.END}\nrest\n"
    for name in tables.DOCUMENTS:
        (tmp_path / name).write_text(stale, encoding="utf-8")
    assert tables.main(["--check", "--root", str(tmp_path)]) == 1
    assert tables.main(["--root", str(tmp_path)]) == 0
    text = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert toggle_table() in text and text.startswith("intro\n") and text.endswith("rest\n")
    assert tables.main(["--check", "--root", str(tmp_path)]) == 0
