"""Property tests: random event streams never raise; cards are conserved; replay is exact."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker import ALL_CARDS, COLORS, DECK_SIZE, PRESETS, Game, RuleSet, preset
from tracker.simulate import simulate

NAMES = ["Ann", "Bob", "Cy", "Dee"]
players = st.sampled_from([*NAMES, "Zed", None])
cards = st.sampled_from([c.name for c in ALL_CARDS] + ["back", "purple-3", "", None])
colors = st.sampled_from([*COLORS, "pink", None])
counts = st.one_of(st.integers(-1, 9), st.sampled_from([None, "2", True, 1.5]))


def _drop_none(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if v is not None}


events = st.one_of(
    st.builds(
        lambda c, p, col: _drop_none({"type": "play", "card": c, "player": p, "color": col}),
        cards,
        players,
        colors,
    ),
    st.builds(
        lambda cs, p: _drop_none({"type": "play", "cards": cs, "player": p}),
        st.lists(cards, min_size=1, max_size=3),
        players,
    ),
    st.builds(lambda c, col: _drop_none({"type": "flip", "card": c, "color": col}), cards, colors),
    st.builds(lambda col: _drop_none({"type": "color", "color": col}), colors),
    st.builds(lambda p, n: _drop_none({"type": "draw", "player": p, "count": n}), players, counts),
    st.builds(lambda p: _drop_none({"type": "pass", "player": p}), players),
    st.builds(lambda p: _drop_none({"type": "uno", "player": p}), players),
    st.builds(lambda p, b: _drop_none({"type": "catch", "player": p, "by": b}), players, players),
    st.builds(
        lambda p, g: _drop_none({"type": "challenge", "player": p, "guilty": g}),
        players,
        st.sampled_from([True, False, None, "yes"]),
    ),
    st.just({"type": "undo"}),
    st.builds(
        lambda n, d, size: _drop_none(
            {"type": "round", "players": NAMES[:n] if n else None, "dealer": d, "hand_size": size}
        ),
        st.integers(0, 4),
        players,
        st.sampled_from([None, 1, 2, 7, 30]),
    ),
    st.builds(
        lambda hands: {"type": "end-round", "hands": hands},
        st.dictionaries(st.sampled_from([*NAMES, "Zed"]), st.lists(cards, max_size=3)),
    ),
    st.sampled_from(["junk", None, 3, [], {"type": "shuffle"}, {"no": "type"}]),
)
opening = [
    {"type": "round", "players": NAMES, "dealer": "Dee", "hand_size": 3},
    {"type": "flip", "card": "red-5"},
]
rule_sets = st.sampled_from(sorted(PRESETS))


def _conserved(game: Game) -> bool:
    s = game.state_json()
    if not s["in_round"]:
        return True
    return s["draw_pile"] + s["discard_pile"] + sum(s["hands"].values()) == DECK_SIZE


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_sets, st.booleans(), st.lists(events, max_size=60))
def test_random_event_streams_never_raise_and_conserve_cards(
    rules_name: str, start: bool, stream: list[Any]
) -> None:
    rules = preset(rules_name)
    game = Game(rules)
    log = [*opening, *stream] if start else stream
    for index, event in enumerate(log, start=1):
        verdict = game.apply(event)
        assert verdict.seq == index
        assert verdict.ok or verdict.alerts, event
        assert all(
            a.code != "bad-event" or a.params.get("reason") != "internal" for a in verdict.alerts
        ), verdict.to_json()
        assert json.loads(verdict.dumps()) == verdict.to_json()
        assert _conserved(game), (event, game.state_json())
    # replaying the same stream gives the same game; undo everything gives a fresh one
    replayed, _ = Game.replay(log, rules)
    assert replayed.state_json() == game.state_json()
    again, _ = Game.replay(game.events, rules)
    assert again.state_json() == game.state_json()


@settings(max_examples=25, deadline=None)
@given(rule_sets, st.integers(2, 10), st.integers(0, 10_000), st.sampled_from([0.0, 0.05, 0.2]))
def test_simulated_games_get_the_expected_alerts_and_conserve_cards(
    rules_name: str, n: int, seed: int, mistakes: float
) -> None:
    rules = preset(rules_name)
    game = Game(rules)
    for event in simulate(rules, players=n, seed=seed, mistakes=mistakes, rounds=1):
        expect = event.pop("expect")
        verdict = game.apply(event)
        assert verdict.codes == expect, (event, verdict.to_json())
        assert _conserved(game)
    assert not game.state_json()["in_round"]


def _rules_with(base: str, data: dict[str, Any]) -> RuleSet:
    rules = preset(base).with_(**data)
    return rules


toggled_rules = st.builds(
    _rules_with,
    rule_sets,
    st.fixed_dictionaries(
        {
            "multi_play": st.booleans(),
            "jump_in": st.booleans(),
            "wild_answers_penalty": st.booleans(),
            "play_drawn_card": st.booleans(),
            "draw_until_playable": st.booleans(),
            "stack_draw2_on_draw2": st.booleans(),
            "stack_draw4_on_draw2": st.booleans(),
            "stack_draw4_on_draw4": st.booleans(),
            "stack_two_draw2_on_draw4": st.booleans(),
            "draw2_pair_needs_pair": st.booleans(),
            "draw4_free_on_penalty": st.booleans(),
            "winner_deals": st.booleans(),
            "follow_color_after_penalty": st.booleans(),
            "first_wild": st.sampled_from(["first-player-names", "turn-again"]),
            "first_card_actions": st.booleans(),
            "first_reverse": st.sampled_from(["dealer", "right-of-dealer"]),
            "reverse_skips_two_players": st.booleans(),
            "challenge_guilty_victim_loses_turn": st.booleans(),
            "draw4_restricted": st.booleans(),
            "wrong_card_penalty": st.integers(0, 2),
            "false_uno_penalty": st.sampled_from([0, 2]),
            "uno_penalty": st.integers(1, 4),
            "last_card_draw_applies": st.booleans(),
            "last_card_values": st.sampled_from([None, frozenset({"1", "2", "3", "draw2"})]),
            "empty_draw_pile": st.sampled_from(["reshuffle", "end-round"]),
            "scoring": st.sampled_from(["winner-takes", "own-points", "pairwise"]),
        }
    ),
)


@settings(max_examples=25, deadline=None)
@given(toggled_rules, st.integers(2, 10), st.integers(0, 10_000))
def test_any_toggle_combination_agrees_with_the_simulator(
    rules: RuleSet, n: int, seed: int
) -> None:
    game = Game(rules)
    for event in simulate(rules, players=n, seed=seed, mistakes=0.1, rounds=1):
        expect = event.pop("expect")
        assert game.apply(event).codes == expect, event
        assert _conserved(game)
