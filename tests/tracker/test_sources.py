"""One scenario per rule of the two source texts (``shared/seeds/``), named after it.

``test_000_*`` come from ``000_516b91311c06a306.txt`` (the published rules and house
variants), ``test_004_*`` from ``004_27489acd585d8d05.txt`` (the youlerren platform).
docs/rules.md quotes the sentence each test was written from; the presets named here are
the ones docs/rules.md says follow that text.
"""

from __future__ import annotations

from tests.tracker.helpers import deal, ok, play, refused, state
from tracker import Game, card_points, full_deck, parse_card, preset, round_deltas

# ---------------------------------------------------------------- 000: the cards


def test_000_deck_108_cards_76_numbers_24_actions_8_wilds() -> None:
    deck = full_deck()
    numbers = [c for c in deck if c.is_number]
    actions = [c for c in deck if not c.is_number and not c.is_wild]
    assert (len(deck), len(numbers), len(actions), len(deck) - 76 - 24) == (108, 76, 24, 8)
    assert sum(c.name == "red-0" for c in deck) == 1 and sum(c.name == "red-9" for c in deck) == 2
    assert sum(c.name == "wild" for c in deck) == sum(c.name == "wild-draw4" for c in deck) == 4


def test_000_card_points_face_20_50() -> None:
    faces = ["red-7", "red-0", "blue-skip", "green-reverse", "yellow-draw2", "wild", "wild-draw4"]
    assert [card_points(parse_card(n)) for n in faces] == [7, 0, 20, 20, 20, 50, 50]


# ---------------------------------------------------------------- 000: the action cards


def test_000_skip_skips_the_next_player() -> None:
    game = deal("official")
    assert ok(game, {"type": "play", "card": "red-skip"}).state["turn"] == "Cy"


def test_000_reverse_turns_the_direction() -> None:
    game = deal("official")
    v = ok(game, {"type": "play", "card": "red-reverse"})
    assert (v.state["turn"], v.state["direction"]) == ("Dee", "counterclockwise")


def test_000_draw_two_draws_two_and_skips() -> None:
    game = deal("official")
    ok(game, {"type": "play", "card": "red-draw2"})
    v = ok(game, {"type": "draw", "player": "Bob", "count": 2})
    assert (v.state["turn"], v.state["hands"]["Bob"]) == ("Cy", 9)


def test_000_wild_names_the_color_to_follow() -> None:
    game = deal("official")
    ok(game, {"type": "play", "card": "wild", "color": "blue"})
    refused(play(game, "red-7"), "illegal-card")
    ok(game, {"type": "play", "card": "blue-7"})
    game = deal("official")
    ok(game, {"type": "play", "card": "wild", "color": "blue"})
    ok(game, {"type": "play", "card": "wild-draw4", "color": "green"})  # unless a black card


def test_000_wild_draw_four_draws_four_skips_and_names_the_color() -> None:
    game = deal("official")
    ok(game, {"type": "play", "card": "wild-draw4", "color": "green"})
    v = ok(game, {"type": "draw", "player": "Bob", "count": 4})
    assert (v.state["turn"], v.state["hands"]["Bob"], v.state["color"]) == ("Cy", 11, "green")
    refused(play(game, "red-5", "Cy"), "illegal-card")


def test_000_wild_not_on_a_pending_penalty() -> None:
    for rules in ("official", "house"):
        game = deal(rules)
        ok(game, {"type": "play", "card": "red-draw2"})
        refused(play(game, "wild", color="blue"), "penalty-pending")


# ---------------------------------------------------------------- 000: the Wild Draw Four challenge


def test_000_wrong_challenge_costs_six() -> None:
    game = deal("official")
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    v = ok(game, {"type": "challenge", "player": "Bob", "guilty": False})
    assert (v.state["hands"]["Bob"], v.state["turn"], v.state["pending_draw"]) == (13, "Cy", 0)


def test_000_guilty_draws_four_and_the_victim_still_misses_the_turn() -> None:
    for rules in ("official", "house"):
        game = deal(rules)
        ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
        v = game.apply({"type": "challenge", "player": "Bob", "guilty": True})
        assert v.ok and v.codes == ["wild-draw4-bluff"]
        assert (v.state["hands"]["Ann"], v.state["hands"]["Bob"]) == (10, 7)
        assert (v.state["turn"], v.state["pending_draw"], v.state["color"]) == ("Cy", 0, "blue")


# ---------------------------------------------------------------- 000: dealing and the first card


def test_000_seven_cards_each_the_rest_is_the_draw_pile() -> None:
    game = deal("official", flip=None)
    s = state(game)
    assert s["hands"] == {"Ann": 7, "Bob": 7, "Cy": 7, "Dee": 7}
    assert s["draw_pile"] == 108 - 28


def test_000_first_wild_draw_four_turned_again_first_wild_named() -> None:
    game = deal("official", flip=None)
    v = ok(game, {"type": "flip", "card": "wild-draw4"})
    assert v.state["top"] is None and state(game)["phase"] == "flip"
    v = ok(game, {"type": "flip", "card": "wild", "color": "green"})
    assert (v.state["top"], v.state["color"], v.state["turn"]) == ("wild", "green", "Ann")


def test_000_first_reverse_the_dealer_plays_counterclockwise() -> None:
    game = deal("official", flip="red-reverse")
    s = state(game)
    assert (s["turn"], s["direction"]) == ("Dee", "counterclockwise")  # Dee dealt
    game = deal("official", flip="red-4")
    assert (state(game)["turn"], state(game)["direction"]) == ("Ann", "clockwise")  # the left


# ---------------------------------------------------------------- 000: playing


def test_000_match_color_number_or_symbol_wilds_always() -> None:
    game = deal("official")
    ok(game, {"type": "play", "card": "red-8"})  # color
    ok(game, {"type": "play", "card": "blue-8"})  # number
    refused(play(game, "green-3"), "illegal-card")
    ok(game, {"type": "play", "card": "wild", "color": "yellow"})


def test_000_action_card_by_color_or_same_symbol() -> None:
    game = deal("official")
    ok(game, {"type": "play", "card": "red-skip"})  # same color
    ok(game, {"type": "play", "card": "blue-skip"})  # same symbol, other color
    refused(play(game, "green-reverse"), "illegal-card")  # neither


def test_000_same_number_other_color_changes_the_color() -> None:
    game = deal("official")
    assert ok(game, {"type": "play", "card": "blue-5"}).state["color"] == "blue"


def test_000_draw_one_then_play_it_or_pass() -> None:
    game = deal("official")
    ok(game, {"type": "draw"})
    ok(game, {"type": "play", "card": "red-2"})  # the card just drawn, at once
    ok(game, {"type": "draw"})
    v = ok(game, {"type": "pass"})
    assert (v.state["turn"], v.state["hands"]["Bob"]) == ("Cy", 8)
    assert game.apply({"type": "pass"}).codes == ["bad-event"]  # no pass without a draw


def test_000_may_draw_though_able_to_play() -> None:
    game = deal("official")
    ok(game, {"type": "draw"})  # the tracker cannot see the hand: a draw is always allowed
    assert state(game)["hands"]["Ann"] == 8


# ---------------------------------------------------------------- 000: penalties


def test_000_missed_uno_caught_costs_two_not_after_the_next_play() -> None:
    game = deal("official", hand_size=2)
    ok(game, {"type": "play", "card": "red-7"})
    v = game.apply({"type": "catch", "player": "Ann", "by": "Cy"})
    assert v.ok and v.codes == ["missed-uno"] and v.state["hands"]["Ann"] == 3
    game = deal("official", hand_size=2)
    ok(game, {"type": "play", "card": "red-7"})
    ok(game, {"type": "play", "card": "red-8"})  # the next player has played
    assert game.apply({"type": "catch", "player": "Ann", "by": "Cy"}).codes == ["bad-event"]


def test_000_false_uno_call_costs_two() -> None:
    game = deal("house")
    v = game.apply({"type": "uno", "player": "Bob"})
    assert (v.ok, v.codes, v.state["hands"]["Bob"]) == (False, ["false-uno"], 9)
    assert deal("official").apply({"type": "uno", "player": "Bob"}).codes == []


def test_000_false_uno_before_several_cards_is_judged_by_the_play() -> None:
    game = deal("house")
    ok(game, {"type": "uno", "player": "Ann"})  # 7 cards: it depends on the play
    v = game.apply({"type": "play", "cards": ["red-7", "blue-7"]})
    assert v.ok and v.codes == ["false-uno"] and v.state["hands"]["Ann"] == 5 + 2
    game = deal("house", hand_size=3)
    ok(game, {"type": "uno", "player": "Ann"})
    v = ok(game, {"type": "play", "cards": ["red-7", "blue-7"]})  # down to one: a true call
    assert game.apply({"type": "catch", "player": "Ann", "by": "Bob"}).codes == ["bad-event"]
    game = deal("house")
    ok(game, {"type": "uno", "player": "Ann"})
    v = game.apply({"type": "draw"})  # called, then drew: false
    assert v.ok and v.codes == ["false-uno"] and v.state["hands"]["Ann"] == 7 + 1 + 2


def test_000_wrong_card_costs_one() -> None:
    game = deal("house")
    v = play(game, "blue-3")
    refused(v, "illegal-card")
    assert (v.state["hands"]["Ann"], v.state["top"]) == (8, "red-5")
    assert play(deal("official"), "blue-3").state["hands"]["Ann"] == 7


# ---------------------------------------------------------------- 000: winning and scoring


def test_000_first_out_wins_and_scores_the_others_cards() -> None:
    game = deal("official", hand_size=1)
    v = ok(game, {"type": "play", "card": "red-7"})
    assert state(game)["phase"] == "round-over" and v.state["turn"] is None
    hands = {"Bob": ["wild"], "Cy": ["red-7"], "Dee": ["blue-reverse"]}
    j = ok(game, {"type": "end-round", "hands": hands}).to_json()
    assert (j["round"]["winner"], j["round"]["points"]["Ann"]) == ("Ann", 77)
    rules = preset("official")
    assert (rules.scoring, rules.target_score) == ("winner-takes", 500)


def test_000_own_points_lowest_wins_at_500() -> None:
    game = deal("official", hand_size=1, scoring="own-points")
    ok(game, {"type": "play", "card": "red-7"})
    hands = {"Bob": ["wild"] * 4, "Cy": ["wild-draw4"] * 4, "Dee": ["wild", "red-9"]}
    v = game.apply({"type": "end-round", "hands": hands})  # long hands: scored as shown
    j = v.to_json()
    assert v.ok and j["totals"] == {"Ann": 0, "Bob": 200, "Cy": 200, "Dee": 59}
    assert j["match_winner"] is None


def test_000_chips_no_target() -> None:
    game = deal("official", hand_size=1, target_score=None)
    ok(game, {"type": "play", "card": "red-7"})
    v = game.apply({"type": "end-round", "hands": {"Bob": ["wild"] * 12}})
    j = v.to_json()
    assert v.ok and j["totals"]["Ann"] == 600 and j["match_winner"] is None


def _cy_goes_out_first(rules: str) -> Game:
    """Ann deals two cards each; Cy (not the dealer's left, Bob) goes out first."""
    game = deal(rules, hand_size=2, dealer="Ann")
    ok(game, {"type": "draw", "player": "Bob"})
    ok(game, {"type": "pass", "player": "Bob"})
    ok(game, {"type": "uno", "player": "Cy"})
    ok(game, {"type": "play", "card": "red-7", "player": "Cy"})
    for player in ("Dee", "Ann", "Bob"):
        ok(game, {"type": "draw", "player": player})
        ok(game, {"type": "pass", "player": player})
    ok(game, {"type": "play", "card": "red-8", "player": "Cy"})
    return game


def test_000_winner_deals_the_next_round() -> None:
    for rules in ("official", "house"):
        game = _cy_goes_out_first(rules)
        hands = {"Ann": ["red-1"] * 3, "Bob": ["red-2"] * 4, "Dee": ["red-3"] * 3}
        ok(game, {"type": "end-round", "hands": hands})
        assert state(game)["dealer"] == "Cy", rules
        assert ok(game, {"type": "round"}).state["turn"] == "Dee"


def test_000_last_card_draw_still_applies() -> None:
    game = deal("official", hand_size=1)
    v = ok(game, {"type": "play", "card": "red-draw2"})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Bob", 2)
    ok(game, {"type": "draw", "player": "Bob", "count": 2})
    hands = {"Bob": ["red-1", "red-2", "red-3"]}
    j = game.apply({"type": "end-round", "hands": hands}).to_json()
    assert j["round"]["points"]["Ann"] == 6


def test_000_empty_pile_reshuffles_under_the_top_card() -> None:
    game = deal("official", players=10, hand_size=10)  # 108 - 100 - 1 = 7 left
    for _ in range(7):
        ok(game, {"type": "draw"})
        ok(game, {"type": "pass"})
    s = state(game)
    assert (s["draw_pile"], s["discard_pile"]) == (0, 1)
    ok(game, {"type": "play", "card": "red-6"})
    ok(game, {"type": "draw"})  # the discard pile but its top card becomes the pile
    s = state(game)
    assert (s["draw_pile"], s["discard_pile"], s["top"]) == (0, 1, "red-6")


# ---------------------------------------------------------------- 000: two players, teams


def test_000_two_players_reverse_is_a_skip() -> None:
    game = deal("official", players=2)
    assert ok(game, {"type": "play", "card": "red-reverse"}).state["turn"] == "Ann"


def test_000_two_players_skip_plays_again() -> None:
    game = deal("official", players=2)
    assert ok(game, {"type": "play", "card": "red-skip"}).state["turn"] == "Ann"


def test_000_teams_sit_apart_and_score_together() -> None:
    game = deal("official", hand_size=1, scoring="partners")
    ok(game, {"type": "play", "card": "red-7"})  # Ann (partner Cy) goes out
    hands = {"Bob": ["red-9"], "Cy": ["wild"], "Dee": ["blue-3"]}
    j = ok(game, {"type": "end-round", "hands": hands}).to_json()
    assert j["round"]["points"] == {"Ann": 12, "Bob": 0, "Cy": 12, "Dee": 0}


# ---------------------------------------------------------------- 000: house variants


def test_000_jump_in_with_the_identical_colored_card() -> None:
    game = deal("house")
    ok(game, {"type": "play", "card": "red-8"})
    v = ok(game, {"type": "play", "card": "red-8", "player": "Dee"})  # Bob loses his chance
    assert v.state["turn"] == "Ann"
    refused(play(game, "blue-8", "Cy"), "out-of-turn")  # identical only
    ok(game, {"type": "play", "card": "wild", "color": "green", "player": "Ann"})
    refused(play(game, "wild", "Cy", color="red"), "out-of-turn")  # colored cards only


def test_000_several_cards_of_one_value_skips_as_many() -> None:
    game = deal("house")
    v = ok(game, {"type": "play", "cards": ["red-skip", "blue-skip"]})
    assert v.state["turn"] == "Dee"  # Bob and Cy skipped (a pair skips two)
    refused(deal("official").apply({"type": "play", "cards": ["red-5", "blue-5"]}), "illegal-card")


def test_000_several_colors_the_player_names_the_color() -> None:
    game = deal("house")
    v = ok(game, {"type": "play", "cards": ["red-3", "green-3"], "color": "green"})
    assert (v.state["top"], v.state["color"]) == ("green-3", "green")


def test_000_stacking_wild_draw_fours_eight() -> None:
    game = deal("house")
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    v = ok(game, {"type": "play", "card": "wild-draw4", "color": "red"})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Cy", 8)


def test_000_only_a_wild_draw_four_answers_a_wild_draw_four() -> None:
    game = deal("house")
    ok(game, {"type": "play", "card": "red-draw2"})
    ok(game, {"type": "play", "card": "blue-draw2"})  # Draw Twos add up
    v = ok(game, {"type": "play", "card": "wild-draw4", "color": "red"})  # a +4 ranks higher
    assert v.state["pending_draw"] == 8
    refused(play(game, "red-draw2"), "penalty-pending")


def test_000_same_colour_draw2_pair_covers_a_draw4() -> None:
    game = deal("house")
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    refused(game.apply({"type": "play", "cards": ["red-draw2", "blue-draw2"]}), "penalty-pending")
    v = ok(game, {"type": "play", "cards": ["blue-draw2", "blue-draw2"]})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Cy", 8)


def test_000_no_single_draw2_on_a_draw2_pair() -> None:
    game = deal("house")
    ok(game, {"type": "play", "cards": ["red-draw2", "red-draw2"]})
    v = play(game, "blue-draw2")
    refused(v, "penalty-pending")
    assert v.state["pending_draw"] == 4
    v = ok(game, {"type": "play", "cards": ["green-draw2", "blue-draw2"]})  # a pair may
    assert v.state["pending_draw"] == 8


# ---------------------------------------------------------------- 004: youlerren


def test_004_deck_108_with_76_numbers_and_32_others() -> None:
    deck = full_deck()
    assert (len(deck), sum(c.is_number for c in deck), sum(not c.is_number for c in deck)) == (
        108,
        76,
        32,
    )


def test_004_follow_the_color_or_the_same_number() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "red-skip"})  # same color, an action card
    ok(game, {"type": "play", "card": "red-9", "player": "Cy"})
    ok(game, {"type": "play", "card": "blue-9"})  # yellow 9 -> blue 9 or red 9
    refused(play(game, "red-1"), "illegal-card")


def test_004_skip_and_reverse() -> None:
    game = deal("youlerren")
    assert ok(game, {"type": "play", "card": "red-skip"}).state["turn"] == "Cy"
    v = ok(game, {"type": "play", "card": "red-reverse"})
    assert (v.state["turn"], v.state["direction"]) == ("Bob", "counterclockwise")


def test_004_draw2_answered_only_by_draw2_or_draw4() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "red-draw2"})
    refused(play(game, "red-3"), "penalty-pending")
    refused(play(game, "wild", color="red"), "penalty-pending")
    assert (
        ok(game, {"type": "play", "card": "wild-draw4", "color": "red"}).state["pending_draw"] == 6
    )


def test_004_three_draw2_in_a_row_the_fourth_draws_six() -> None:
    game = deal("youlerren")
    for card in ("red-draw2", "blue-draw2", "green-draw2"):
        ok(game, {"type": "play", "card": card})
    v = ok(game, {"type": "draw", "player": "Dee", "count": 6})
    assert (v.state["turn"], v.state["hands"]["Dee"]) == ("Ann", 13)


def test_004_after_a_draw2_is_taken_follow_its_color() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "red-draw2"})
    ok(game, {"type": "draw", "count": 2})
    refused(play(game, "blue-draw2"), "illegal-card")  # same symbol, other color
    ok(game, {"type": "play", "card": "red-skip"})  # same color: a number or action card


def test_004_a_wild_on_a_wild() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "wild", "color": "green"})
    v = ok(game, {"type": "play", "card": "wild", "color": "yellow"})
    assert v.state["color"] == "yellow"


def test_004_only_a_draw4_on_a_draw4_and_the_last_names_the_color() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "wild-draw4", "color": "green"})
    refused(play(game, "green-draw2"), "penalty-pending")
    v = ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    assert (v.state["pending_draw"], v.state["color"]) == (8, "blue")
    v = ok(game, {"type": "draw", "player": "Cy", "count": 8})
    assert (v.state["turn"], v.state["color"]) == ("Dee", "blue")


def test_004_wrong_report_costs_six() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "wild-draw4", "color": "green"})
    v = ok(game, {"type": "challenge", "player": "Bob", "guilty": False})
    assert (v.state["hands"]["Bob"], v.state["turn"]) == (13, "Cy")


def test_004_guilty_draws_four_and_the_victim_follows_the_named_color() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "wild-draw4", "color": "green"})
    v = game.apply({"type": "challenge", "player": "Bob", "guilty": True})
    assert v.ok and v.codes == ["wild-draw4-bluff"]
    assert (v.state["hands"]["Ann"], v.state["hands"]["Bob"]) == (10, 7)
    assert (v.state["turn"], v.state["color"], v.state["pending_draw"]) == ("Bob", "green", 0)


def test_004_draw4_on_a_penalty_is_always_legal() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "red-draw2"})
    ok(game, {"type": "play", "card": "wild-draw4", "color": "green"})
    v = game.apply({"type": "challenge", "player": "Cy", "guilty": True})
    assert (v.ok, v.codes, v.state["pending_draw"]) == (False, ["bad-event"], 6)


def test_004_draw_one_then_pass() -> None:
    game = deal("youlerren")
    ok(game, {"type": "draw"})
    v = ok(game, {"type": "pass"})
    assert (v.state["turn"], v.state["hands"]["Ann"]) == ("Bob", 8)


def test_004_call_uno_before_or_after_the_next_to_last_card() -> None:
    for before in (True, False):
        game = deal("youlerren", hand_size=2)
        if before:
            ok(game, {"type": "uno", "player": "Ann"})
        ok(game, {"type": "play", "card": "red-7"})
        if not before:
            ok(game, {"type": "uno", "player": "Ann"})
        assert game.apply({"type": "catch", "player": "Ann", "by": "Bob"}).codes == ["bad-event"]


def test_004_caught_draws_two_unless_the_next_player_has_played() -> None:
    game = deal("youlerren", hand_size=2)
    ok(game, {"type": "play", "card": "red-7"})
    v = game.apply({"type": "catch", "player": "Ann", "by": "Dee"})
    assert v.codes == ["missed-uno"] and v.state["hands"]["Ann"] == 3
    game = deal("youlerren", hand_size=2)
    ok(game, {"type": "play", "card": "red-7"})
    ok(game, {"type": "play", "card": "red-1"})
    assert game.apply({"type": "catch", "player": "Ann", "by": "Dee"}).codes == ["bad-event"]


def test_004_last_card_a_number_1_to_9_a_draw2_or_a_draw4() -> None:
    last_cards = [("red-1", True), ("red-draw2", True), ("wild-draw4", True), ("red-0", False)]
    last_cards += [("red-skip", False), ("red-reverse", False), ("wild", False)]
    for card, allowed in last_cards:
        game = deal("youlerren", hand_size=1)
        v = game.apply({"type": "play", "card": card, "color": "red" if "wild" in card else None})
        assert v.ok is allowed, card
        if not allowed:
            refused(v, "illegal-last-card")
            assert v.state["hands"]["Ann"] == 1  # the card stays; the turn's draw follows
            ok(game, {"type": "draw"})


def test_004_last_draw2_makes_the_next_draw_and_counts() -> None:
    game = deal("youlerren", hand_size=1)
    ok(game, {"type": "play", "card": "red-draw2"})
    v = ok(game, {"type": "draw", "player": "Bob", "count": 2})
    assert v.state["hands"]["Bob"] == 3
    hands = {"Bob": ["red-1", "red-2", "red-skip"], "Cy": ["blue-1"], "Dee": ["blue-2"]}
    j = ok(game, {"type": "end-round", "hands": hands}).to_json()
    assert j["round"]["hand_points"]["Bob"] == 4


def test_004_empty_draw_pile_ends_the_round() -> None:
    game = deal("youlerren", players=4, hand_size=15)  # 108 - 60 - 1 = 47 left
    for n in range(47):
        ok(game, {"type": "draw"})
        if n < 46:
            ok(game, {"type": "pass"})
    s = state(game)
    assert (s["draw_pile"], s["phase"], s["turn"]) == (0, "round-over", None)


def test_004_winner_deals_next() -> None:
    game = _cy_goes_out_first("youlerren")
    hands = {"Ann": ["red-1"] * 3, "Bob": ["red-2"] * 4, "Dee": ["red-3"] * 3}
    ok(game, {"type": "end-round", "hands": hands})
    assert state(game)["dealer"] == "Cy"


def test_004_points_1_2_5() -> None:
    faces = ["red-7", "red-0", "red-reverse", "red-skip", "red-draw2", "wild-draw4", "wild"]
    assert [card_points(parse_card(n), "youlerren") for n in faces] == [1, 1, 2, 2, 2, 5, 5]


def test_004_pairwise_settlement_worked_example() -> None:
    assert round_deltas("pairwise", [0, 10, 20, 30], winner=0) == [60, 20, -20, -60]
    assert round_deltas("pairwise", [0, 10, 20, 30], winner=0, stake=10) == [600, 200, -200, -600]
    game = Game(preset("youlerren").with_(stake=10))
    ok(game, {"type": "round", "players": ["A", "B", "C", "D"], "dealer": "D", "hand_size": 3})
    ok(game, {"type": "flip", "card": "red-5"})
    hands = {"B": ["wild", "wild-draw4"], "C": ["red-skip"] * 2, "D": ["red-1", "wild"]}
    j = game.apply({"type": "end-round", "hands": hands}).to_json()
    # hand points 0, 10, 4, 6 (a short hand is reported, scored as shown)
    assert j["round"]["hand_points"] == {"A": 0, "B": 10, "C": 4, "D": 6}
    assert sum(j["round"]["points"].values()) == 0 and j["round"]["points"]["A"] == 200
