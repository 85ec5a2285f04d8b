"""Typed events (tracker.events) and judging without applying (Game.judge)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.tracker.helpers import deal, ok
from tracker import Game, parse_card
from tracker.events import (
    EVENT_TYPES,
    FIELDS,
    Catch,
    Draw,
    EndRound,
    EventError,
    Play,
    Round,
    Undo,
    parse_event,
)
from tracker.rules import preset
from tracker.simulate import simulate

EVENTS: list[dict[str, Any]] = [
    {"type": "round", "players": ["Ann", "Bob"], "dealer": "Bob", "hand_size": 5},
    {"type": "round"},
    {"type": "flip", "card": "wild", "color": "red"},
    {"type": "play", "card": "red-7", "player": "Ann"},
    {"type": "play", "cards": ["red-7", "blue-7"], "color": "blue"},
    {"type": "color", "color": "green"},
    {"type": "draw", "player": "Bob", "count": 2},
    {"type": "draw"},
    {"type": "pass", "player": "Bob"},
    {"type": "uno", "player": "Ann"},
    {"type": "catch", "player": "Ann", "by": "Bob"},
    {"type": "challenge", "player": "Bob", "guilty": False},
    {"type": "undo"},
    {"type": "end-round", "hands": {"Ann": [], "Bob": ["wild", "red-1"]}},
]


@pytest.mark.parametrize("data", EVENTS, ids=lambda d: d["type"])
def test_every_event_parses_to_its_class_and_back(data: dict[str, Any]) -> None:
    event = parse_event(data)
    assert isinstance(event, EVENT_TYPES[data["type"]])
    assert event.to_json() == data
    assert parse_event(event.to_json()) == event  # values compare by content


def test_events_are_immutable_and_hashable() -> None:
    event = parse_event({"type": "play", "card": "red-7"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.player = "Ann"  # type: ignore[misc]
    assert len({event, parse_event({"type": "play", "card": "red-7"})}) == 1


def test_the_types_are_design_md_s_table() -> None:
    assert set(EVENT_TYPES) == set(FIELDS)


@pytest.mark.parametrize(
    ("data", "reason", "message"),
    [
        (["play"], "not-an-object", "expected a JSON object, got list"),
        ({"type": "shuffle"}, "unknown-type", "unknown event type 'shuffle'"),
        ({"type": "play"}, "bad-field", "a 'play' needs a 'card' (or 'cards')"),
        ({"type": "play", "card": "purple-3"}, "unknown-card", "unknown color 'purple'"),
        ({"type": "play", "card": "red-7", "cards": ["red-7"]}, "bad-field", "not both"),
        ({"type": "play", "card": "red-7", "color": "blue"}, "bad-field", "not the color"),
        ({"type": "play", "card": "red-7", "player": 3}, "unknown-player", "unknown player 3"),
        ({"type": "draw", "count": True}, "bad-field", "whole number >= 1"),
        ({"type": "color", "color": "pink"}, "bad-field", "unknown color 'pink'"),
        ({"type": "uno"}, "bad-field", "needs the 'player' who called"),
        ({"type": "catch", "player": "Ann"}, "bad-field", "needs a 'by'"),
        ({"type": "challenge", "guilty": "yes"}, "bad-field", "true or false"),
        ({"type": "end-round", "hands": {"Ann": "red-1"}}, "bad-field", "list of card names"),
        ({"type": "round", "players": ["A", "A"]}, "bad-field", "distinct names"),
        ({"type": "flip", "card": "red-1", "color": "blue"}, "bad-field", "red-1 is red"),
    ],
)
def test_bad_input_raises_a_specific_error(data: object, reason: str, message: str) -> None:
    with pytest.raises(EventError) as caught:
        parse_event(data)
    assert caught.value.reason == reason
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "missing 'type'"),
        ({"type": "round", "players": ["Ann", "Bob"]}, "'round' needs 'dealer'"),
        ({"type": "play", "card": "red-1", "colour": "red"}, "has no field 'colour'"),
        ({"type": "play", "card": "back"}, "not a card name"),
        ({"type": "play", "card": "wild", "color": "black"}, "'color' must be one of"),
        ({"type": "uno", "player": ""}, "player's name"),
        ({"type": "round", "players": ["Ann"], "dealer": "Ann"}, "at least 2 distinct"),
        ({"type": "play"}, "exactly one of 'card' or 'cards'"),
    ],
)
def test_strict_parsing_is_the_design_table_as_it_stands(data: object, message: str) -> None:
    parse_event({"type": "round"})  # lenient: a later round may omit players and dealer
    with pytest.raises(EventError) as caught:
        parse_event(data, strict=True)
    assert message in str(caught.value)


def test_strict_parsing_ignores_the_named_envelope_keys() -> None:
    data = {"type": "undo", "t": 3.2}
    assert parse_event(data, strict=True, ignore={"t"}) == Undo()
    with pytest.raises(EventError, match="has no field 't'"):
        parse_event(data, strict=True)


def test_game_takes_typed_events_and_dicts_alike() -> None:
    game = Game()
    ok(game, {"type": "round", "players": ["Ann", "Bob", "Cy"], "dealer": "Cy"})
    typed = game.apply(parse_event({"type": "flip", "card": "red-5"}))
    assert typed.ok and typed.state["top"] == "red-5"
    v = game.apply(Play((parse_card("red-9"),)))
    assert v.ok and v.state["turn"] == "Bob"
    assert game.events[-1] == {"type": "play", "card": "red-9"}
    assert isinstance(game.history[0], Round)


def _snapshot(game: Game) -> tuple[object, ...]:
    return (game.seq, game.state_json(), game.events, sorted(game._checkpoints))


def test_judge_has_no_side_effect() -> None:
    game = deal("house")
    ok(game, {"type": "play", "card": "red-draw2"})
    before = _snapshot(game)
    for event in [
        {"type": "play", "card": "blue-draw2"},
        {"type": "draw", "count": 2},
        {"type": "play", "card": "green-3"},
        {"type": "uno", "player": "Dee"},  # a false call: 2 cards in `house`
        {"type": "undo"},
        {"type": "end-round", "hands": {}},
        {"type": "oops"},
    ]:
        judged = game.judge(event)
        assert _snapshot(game) == before, event
        applied = deal("house")
        ok(applied, {"type": "play", "card": "red-draw2"})
        assert applied.apply(event).to_json() == judged.to_json(), event


def test_judge_of_an_undo_and_across_a_checkpoint() -> None:
    rules = preset("official")
    log = simulate(rules, players=3, seed=5, rounds=4)
    game = Game(rules)
    for event in log:  # until a checkpoint was just taken
        event.pop("expect")
        game.apply(event)
        if len(game.events) == Game.CHECKPOINT_EVERY:
            break
    assert Game.CHECKPOINT_EVERY in game._checkpoints
    before = _snapshot(game)
    again = Game.replay(game.events[:-1], rules)[0]
    assert game.judge(Undo()).to_json()["state"] == {
        k: again.state_json()[k]
        for k in ("turn", "direction", "top", "color", "pending_draw", "hands")
    }
    assert _snapshot(game) == before
    assert game.undo().ok and len(game.events) == Game.CHECKPOINT_EVERY - 1


def test_typed_values_of_note() -> None:
    assert parse_event({"type": "draw"}) == Draw()
    assert parse_event({"type": "catch", "player": "A", "by": "B"}) == Catch("A", "B")
    hands = parse_event({"type": "end-round", "hands": {"A": ["wild"]}})
    assert isinstance(hands, EndRound) and hands.hands[0][1][0].is_wild
