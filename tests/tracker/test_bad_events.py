"""Bad input gets a `bad-event` verdict, never an exception, and changes nothing."""

import json

import pytest

from tests.tracker.helpers import deal, ok
from tracker import CODES, TEMPLATES, Alert, Game


@pytest.mark.parametrize(
    "event",
    [
        "play red-7",
        None,
        ["play"],
        {},
        {"type": None},
        {"type": "shuffle"},
        {"type": "play"},
        {"type": "play", "card": "purple-3"},
        {"type": "play", "card": "back"},
        {"type": "play", "card": 7},
        {"type": "play", "card": "red-7", "cards": ["red-7"]},
        {"type": "play", "cards": []},
        {"type": "play", "cards": "red-7"},
        {"type": "play", "card": "red-7", "player": "Zed"},
        {"type": "play", "card": "red-7", "player": ["Ann"]},
        {"type": "play", "card": "red-7", "color": "pink"},
        {"type": "play", "card": "red-7", "color": "blue"},
        {"type": "flip", "card": "red-1"},
        {"type": "draw", "count": 0},
        {"type": "draw", "count": "1"},
        {"type": "draw", "count": True},
        {"type": "draw", "count": 2.5},
        {"type": "color"},
        {"type": "catch", "player": "Ann"},
        {"type": "catch", "by": "Ann"},
        {"type": "catch", "player": "Ann", "by": "Zed"},
        {"type": "challenge"},
        {"type": "end-round"},
        {"type": "end-round", "hands": []},
    ],
)
def test_bad_events_change_nothing(event: object) -> None:
    game = deal()
    before = game.state_json()
    v = game.apply(event)
    assert not v.ok and v.codes == ["bad-event"]
    assert game.state_json() == before
    text = json.dumps(v.to_json(), ensure_ascii=False)
    assert json.loads(v.dumps()) == json.loads(text)
    assert v.to_json()["alerts"][0]["message"].startswith("Event ignored: ")


@pytest.mark.parametrize("event_type", ["play", "draw", "pass", "uno", "color", "catch"])
def test_events_before_any_round_are_bad(event_type: str) -> None:
    game = Game()
    v = game.apply({"type": event_type, "card": "red-1", "player": "Ann", "color": "red"})
    assert v.codes == ["bad-event"] and v.state["hands"] == {}


def test_not_json_lines() -> None:
    game = Game()
    for line in ("{oops", "", b"\xff\xfe", "[1, 2"):
        v = game.apply_json(line)
        assert v.codes == ["bad-event"] and v.alerts[0].params["reason"] == "not-json"
    assert game.apply_json('{"type": "round", "players": ["A", "B"]}').ok
    assert game.seq == 5


def test_the_game_carries_on_after_bad_events() -> None:
    game = deal()
    game.apply({"type": "play", "card": "purple-3"})
    game.apply("garbage")
    ok(game, {"type": "play", "card": "red-3"})
    assert game.state_json()["turn"] == "Bob"


def test_every_code_has_english_and_chinese_templates() -> None:
    for code in CODES:
        en, zh = TEMPLATES[code]
        assert en and zh and en != zh
    for key, (en, zh) in TEMPLATES.items():
        assert key.split("/")[0] in CODES
        assert set(_fields(en)) == set(_fields(zh)), key


def _fields(template: str) -> list[str]:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def test_alert_messages_fill_every_parameter() -> None:
    alert = Alert("missed-uno", "Ann", {"by": "Bob", "count": 2})
    assert alert.message() == "Ann did not call UNO (caught by Bob): Ann draws 2."
    assert alert.message("zh") == "Ann 没有喊 UNO（被 Bob 抓到）：Ann 罚摸 2 张。"
    assert (
        Alert("missed-uno", "Ann").message() == "Ann did not call UNO (caught by ?): Ann draws ?."
    )


def test_a_line_nested_too_deep_is_not_json() -> None:
    game = Game()
    v = game.apply_json("[" * 100_000 + "]" * 100_000)
    assert v.codes == ["bad-event"] and v.alerts[0].params["reason"] == "not-json"


def test_an_internal_error_is_a_bad_event_and_the_state_is_restored() -> None:
    game = deal()
    before = game.state_json()

    def broken(state: object, event: object) -> object:
        game._s.hands[0] = 99  # half-way through a change...
        raise RuntimeError("boom")  # ...a bug

    game._handlers["pass"] = broken  # type: ignore[assignment]
    v = game.apply({"type": "pass"})
    assert v.codes == ["bad-event"] and v.alerts[0].params["reason"] == "internal"
    assert game.state_json() == before
