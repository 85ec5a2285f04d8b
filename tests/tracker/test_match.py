"""Ending rounds, scoring systems, match totals, the dealer, the match winner."""

import pytest

from tests.tracker.helpers import deal, ok, state
from tracker import Game, preset, round_deltas

HANDS_0_10_20_30 = {
    "Ann": [],
    "Bob": ["red-4", "blue-6"],  # 10
    "Cy": ["green-skip"],  # 20
    "Dee": ["yellow-9", "yellow-1", "green-draw2"],  # 30
}


def out_with_one_card(rules: str = "official", **toggles: object) -> Game:
    """Ann goes out at once (one card dealt each)."""
    game = deal(rules, hand_size=1, **toggles)
    ok(game, {"type": "play", "card": "red-7"})
    return game


def test_pairwise_scoring_worked_example() -> None:
    assert round_deltas("pairwise", [0, 10, 20, 30], winner=0) == [60, 20, -20, -60]
    assert round_deltas("pairwise", [0, 10, 20, 30], winner=0, stake=3) == [180, 60, -60, -180]


def test_pairwise_scoring_in_a_game() -> None:
    game = deal("official", scoring="pairwise", target_score=None, hand_size=3)
    v = game.apply({"type": "end-round", "hands": HANDS_0_10_20_30})
    assert v.ok
    j = v.to_json()
    assert j["round"]["points"] == {"Ann": 60, "Bob": 20, "Cy": -20, "Dee": -60}
    assert j["round"]["hand_points"] == {"Ann": 0, "Bob": 10, "Cy": 20, "Dee": 30}
    assert j["totals"] == {"Ann": 60, "Bob": 20, "Cy": -20, "Dee": -60}
    assert j["match_winner"] is None


def test_pairwise_results_always_sum_to_zero() -> None:
    assert sum(round_deltas("pairwise", [3, 0, 17, 50, 8], winner=1)) == 0


def test_youlerren_points_and_pairwise_with_stake() -> None:
    game = Game(preset("youlerren").with_(stake=2))
    ok(game, {"type": "round", "players": ["Ann", "Bob", "Cy"], "dealer": "Cy"})
    ok(game, {"type": "flip", "card": "red-5"})
    hands = {"Ann": [], "Bob": ["red-0", "red-skip"], "Cy": ["wild", "blue-3"]}  # 0, 3, 6
    v = game.apply({"type": "end-round", "hands": hands})
    assert v.to_json()["round"]["hand_points"] == {"Ann": 0, "Bob": 3, "Cy": 6}
    # Ann: (3-0)+(6-0)=9; Bob: (0-3)+(6-3)=0; Cy: (0-6)+(3-6)=-9; times 2
    assert v.to_json()["round"]["points"] == {"Ann": 18, "Bob": 0, "Cy": -18}


def test_winner_takes_the_other_hands() -> None:
    game = out_with_one_card()
    hands = {"Ann": [], "Bob": ["wild"], "Cy": ["red-7"], "Dee": ["blue-reverse"]}
    v = game.apply({"type": "end-round", "hands": hands})
    j = v.to_json()
    assert v.ok and v.alerts == []
    assert j["round"]["winner"] == "Ann" and j["round"]["number"] == 1
    assert j["round"]["points"] == {"Ann": 77, "Bob": 0, "Cy": 0, "Dee": 0}
    assert j["totals"] == {"Ann": 77, "Bob": 0, "Cy": 0, "Dee": 0}
    s = state(game)
    assert s["round_scores"][0]["winner"] == "Ann" and not s["in_round"]


def test_own_points_lowest_total_wins_when_someone_reaches_the_target() -> None:
    game = out_with_one_card(scoring="own-points", target_score=100)
    hands = {"Ann": [], "Bob": ["wild", "wild", "red-1"], "Cy": ["red-7"], "Dee": ["blue-3"]}
    v = game.apply({"type": "end-round", "hands": hands})
    j = v.to_json()
    assert j["totals"] == {"Ann": 0, "Bob": 101, "Cy": 7, "Dee": 3}
    assert j["match_winner"] == "Ann"


def test_partners_score_as_a_team() -> None:
    game = out_with_one_card(scoring="partners")
    hands = {"Ann": [], "Bob": ["red-9"], "Cy": ["wild"], "Dee": ["blue-1"]}
    j = game.apply({"type": "end-round", "hands": hands}).to_json()
    assert j["round"]["points"] == {"Ann": 10, "Bob": 0, "Cy": 10, "Dee": 0}


def test_partners_need_an_even_number_of_players() -> None:
    game = Game(preset("official").with_(scoring="partners"))
    v = game.apply({"type": "round", "players": ["A", "B", "C"]})
    assert v.codes == ["bad-event"]


def test_match_winner_at_the_target_and_a_new_match_after() -> None:
    game = out_with_one_card(target_score=50)
    hands = {"Ann": [], "Bob": ["wild"], "Cy": ["red-0"], "Dee": ["blue-0"]}
    j = game.apply({"type": "end-round", "hands": hands}).to_json()
    assert j["match_winner"] == "Ann"
    assert state(game)["phase"] == "match-over"
    assert game.apply({"type": "end-round", "hands": hands}).codes == ["bad-event"]
    # a round after the match is over starts a new match (the seating may change)
    v = ok(game, {"type": "round", "players": ["Xi", "Yu"], "dealer": "Yu"})
    s = state(game)
    assert s["totals"] == {"Xi": 0, "Yu": 0} and s["round"] == 1 and s["match_winner"] is None
    assert v.state["turn"] == "Xi"


def test_totals_add_up_over_rounds_and_the_deal_passes_left() -> None:
    game = out_with_one_card()
    hands = {"Ann": [], "Bob": ["red-1"], "Cy": ["red-0"], "Dee": ["blue-0"]}
    ok(game, {"type": "end-round", "hands": hands})
    assert state(game)["dealer"] == "Ann"  # Dee dealt round 1
    ok(game, {"type": "round", "hand_size": 1})  # dealer and players from the match
    assert state(game)["turn"] == "Bob" and state(game)["round"] == 2
    ok(game, {"type": "flip", "card": "blue-1"})
    ok(game, {"type": "play", "card": "blue-2"})
    hands = {"Ann": ["wild"], "Cy": ["green-0"], "Dee": ["yellow-0"]}
    j = ok(game, {"type": "end-round", "hands": hands}).to_json()
    assert j["round"]["winner"] == "Bob"
    assert j["totals"] == {"Ann": 1, "Bob": 50, "Cy": 0, "Dee": 0}
    assert len(state(game)["round_scores"]) == 2


def test_the_winner_deals_next_where_the_rules_say_so() -> None:
    game = out_with_one_card(winner_deals=True)
    assert game.apply({"type": "end-round", "hands": {}}).ok
    assert state(game)["dealer"] == "Ann"
    game = deal(players=4, hand_size=1, winner_deals=True, dealer="Bob")
    ok(game, {"type": "play", "card": "red-7", "player": "Cy"})
    assert game.apply({"type": "end-round", "hands": {}}).ok
    assert state(game)["dealer"] == "Cy"


def test_a_hand_mismatch_is_reported_not_refused() -> None:
    game = out_with_one_card()
    hands = {"Ann": [], "Bob": ["red-1", "red-2"], "Cy": ["wild"], "Dee": ["blue-1"]}
    v = game.apply({"type": "end-round", "hands": hands})
    assert v.ok and v.codes == ["bad-event"]
    assert v.alerts[0].player == "Bob"
    assert v.alerts[0].params == {"shown": 2, "expected": 1}
    assert v.to_json()["round"]["points"]["Ann"] == 54


def test_end_round_counts_the_last_penalty_whether_drawn_or_not() -> None:
    game = deal(hand_size=1, players=2)
    ok(game, {"type": "play", "card": "red-draw2"})
    hands = {"Bob": ["red-1", "red-2", "red-3"]}  # the 2 penalty cards already taken
    v = game.apply({"type": "end-round", "hands": hands})
    assert v.ok and v.alerts == [] and v.to_json()["round"]["points"]["Ann"] == 6


def test_end_round_without_a_winner_goes_to_the_lowest_hand() -> None:
    game = deal()
    hands = {"Ann": ["red-1"], "Bob": ["red-9"], "Cy": ["wild"], "Dee": ["blue-2"]}
    v = game.apply({"type": "end-round", "hands": hands})
    assert v.codes == ["bad-event"] * 4  # everyone holds 7 by the record
    assert v.to_json()["round"]["winner"] == "Ann"


@pytest.mark.parametrize(
    "hands",
    [
        "Ann: none",
        {"Zed": []},
        {"Ann": "red-1"},
        {"Ann": ["red-11"]},
    ],
)
def test_bad_end_round_hands_are_refused(hands: object) -> None:
    game = out_with_one_card()
    v = game.apply({"type": "end-round", "hands": hands})
    assert not v.ok and v.codes == ["bad-event"]
    assert state(game)["phase"] == "round-over"


def test_a_round_cannot_start_while_one_is_in_progress() -> None:
    game = deal()
    v = game.apply({"type": "round", "players": ["Ann", "Bob", "Cy", "Dee"]})
    assert v.codes == ["bad-event"] and state(game)["round"] == 1


def test_the_first_round_fixes_the_seating() -> None:
    game = out_with_one_card()
    assert game.apply({"type": "end-round", "hands": {}}).ok
    v = game.apply({"type": "round", "players": ["Bob", "Ann", "Cy", "Dee"]})
    assert v.codes == ["bad-event"]


@pytest.mark.parametrize(
    "event",
    [
        {"type": "round"},
        {"type": "round", "players": ["Ann"]},
        {"type": "round", "players": ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"]},
        {"type": "round", "players": ["Ann", "Ann"]},
        {"type": "round", "players": ["Ann", 7]},
        {"type": "round", "players": ["Ann", "Bob"], "dealer": "Cy"},
        {"type": "round", "players": ["Ann", "Bob"], "hand_size": 0},
        {"type": "round", "players": ["Ann", "Bob"], "hand_size": "7"},
    ],
)
def test_bad_round_events(event: dict[str, object]) -> None:
    game = Game()
    v = game.apply(event)
    assert not v.ok and v.codes == ["bad-event"]
    assert state(game)["phase"] == "waiting-round"


def test_round_event_hand_size() -> None:
    game = Game()
    v = ok(game, {"type": "round", "players": ["A", "B", "C"], "hand_size": 5})
    assert v.state["hands"] == {"A": 5, "B": 5, "C": 5}
    assert state(game)["draw_pile"] == 108 - 15


def test_without_a_dealer_the_first_player_listed_plays_first() -> None:
    game = Game()
    v = ok(game, {"type": "round", "players": ["Ann", "Bob", "Cy"]})
    assert v.state["turn"] == "Ann" and state(game)["dealer"] == "Cy"
