"""Matching, turns, action cards, drawing and passing (the published rules unless said)."""

from tests.tracker.helpers import deal, ok, play, refused, state


def test_first_player_is_left_of_the_dealer() -> None:
    game = deal(dealer="Bob")
    assert state(game)["turn"] == "Cy"
    assert state(game)["hands"] == {"Ann": 7, "Bob": 7, "Cy": 7, "Dee": 7}


def test_a_card_matching_color_or_value_is_played() -> None:
    game = deal()
    v = ok(game, {"type": "play", "card": "red-9"})  # color
    assert v.state["top"] == "red-9" and v.state["turn"] == "Bob"
    v = ok(game, {"type": "play", "card": "blue-9", "player": "Bob"})  # value
    assert (v.state["top"], v.state["color"], v.state["turn"]) == ("blue-9", "blue", "Cy")
    assert v.state["hands"] == {"Ann": 6, "Bob": 6, "Cy": 7, "Dee": 7}


def test_an_illegal_card_is_flagged_and_not_applied() -> None:
    game = deal()
    before = state(game)
    v = play(game, "blue-7", "Ann")
    refused(v, "illegal-card")
    assert v.alerts[0].player == "Ann"
    assert v.alerts[0].params == {"card": "blue-7", "top": "red-5", "color": "red"}
    assert "matches neither" in v.to_json()["alerts"][0]["message"]
    assert state(game) == before
    assert v.state == {k: before[k] for k in v.state}


def test_a_play_out_of_turn_is_flagged_and_not_applied() -> None:
    game = deal()
    v = play(game, "red-7", "Cy")
    refused(v, "out-of-turn")
    assert v.alerts[0].params["turn"] == "Ann"
    assert v.state["hands"]["Cy"] == 7 and v.state["turn"] == "Ann"


def test_player_absent_means_whoever_is_on_turn() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "red-1"})
    assert state(game)["hands"]["Ann"] == 6


def test_skip_skips_the_next_player() -> None:
    game = deal()
    assert ok(game, {"type": "play", "card": "red-skip"}).state["turn"] == "Cy"


def test_reverse_changes_direction() -> None:
    game = deal()
    v = ok(game, {"type": "play", "card": "red-reverse"})
    assert (v.state["turn"], v.state["direction"]) == ("Dee", "counterclockwise")
    v = ok(game, {"type": "play", "card": "red-3", "player": "Dee"})
    assert v.state["turn"] == "Cy"
    v = ok(game, {"type": "play", "card": "red-reverse", "player": "Cy"})
    assert (v.state["turn"], v.state["direction"]) == ("Dee", "clockwise")


def test_reverse_acts_as_skip_with_two_players() -> None:
    game = deal(players=2)
    assert ok(game, {"type": "play", "card": "red-reverse"}).state["turn"] == "Ann"
    game = deal(players=2, reverse_skips_two_players=False)
    assert ok(game, {"type": "play", "card": "red-reverse"}).state["turn"] == "Bob"


def test_skip_with_two_players_lets_the_same_player_play_again() -> None:
    game = deal(players=2)
    assert ok(game, {"type": "play", "card": "red-skip"}).state["turn"] == "Ann"


def test_draw_two_makes_the_next_player_draw_and_lose_the_turn() -> None:
    game = deal()
    v = ok(game, {"type": "play", "card": "red-draw2"})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Bob", 2)
    refused(play(game, "red-3", "Bob"), "penalty-pending")
    refused(play(game, "blue-draw2", "Bob"), "penalty-pending")  # no stacking
    v = ok(game, {"type": "draw", "player": "Bob", "count": 2})
    assert (v.state["turn"], v.state["pending_draw"], v.state["hands"]["Bob"]) == ("Cy", 0, 9)
    # the Draw Two on top now matches by symbol again
    ok(game, {"type": "play", "card": "blue-draw2", "player": "Cy"})


def test_a_penalty_may_be_drawn_in_parts_but_not_passed() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "red-draw2"})
    assert game.apply({"type": "pass", "player": "Bob"}).codes == ["bad-event"]
    assert game.apply({"type": "draw", "player": "Bob", "count": 3}).codes == ["bad-event"]
    v = ok(game, {"type": "draw", "player": "Bob"})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Bob", 1)
    v = ok(game, {"type": "draw", "player": "Bob"})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Cy", 0)


def test_wild_goes_on_anything_and_names_the_color() -> None:
    game = deal()
    v = ok(game, {"type": "play", "card": "wild", "color": "green"})
    assert (v.state["top"], v.state["color"], v.state["turn"]) == ("wild", "green", "Bob")
    refused(play(game, "red-1", "Bob"), "illegal-card")
    ok(game, {"type": "play", "card": "green-1", "player": "Bob"})


def test_wild_without_color_leaves_it_pending_until_the_color_event() -> None:
    game = deal()
    v = ok(game, {"type": "play", "card": "wild"})
    assert v.state["color"] is None
    v = ok(game, {"type": "color", "color": "blue"})
    assert v.state["color"] == "blue"
    refused(play(game, "red-1", "Bob"), "illegal-card")


def test_while_the_color_is_pending_the_next_card_names_it() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "wild"})
    v = ok(game, {"type": "play", "card": "yellow-4", "player": "Bob"})
    assert v.state["color"] == "yellow"


def test_color_event_needs_a_wild_on_top() -> None:
    game = deal()
    v = game.apply({"type": "color", "color": "blue"})
    assert v.codes == ["bad-event"] and not v.ok
    ok(game, {"type": "play", "card": "wild-draw4"})
    assert game.apply({"type": "color", "color": "pink"}).codes == ["bad-event"]
    assert ok(game, {"type": "color", "color": "yellow"}).state["color"] == "yellow"


def test_wild_draw_four_makes_the_next_player_draw_four() -> None:
    game = deal()
    v = ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Bob", 4)
    v = ok(game, {"type": "draw", "count": 4})
    assert (v.state["turn"], v.state["hands"]["Bob"], v.state["color"]) == ("Cy", 11, "blue")


def test_draw_then_play_the_drawn_card() -> None:
    game = deal()
    v = ok(game, {"type": "draw", "player": "Ann"})
    assert (v.state["turn"], v.state["hands"]["Ann"]) == ("Ann", 8)
    v = ok(game, {"type": "play", "card": "red-8", "player": "Ann"})
    assert v.state["turn"] == "Bob"


def test_draw_then_pass() -> None:
    game = deal()
    ok(game, {"type": "draw"})
    assert ok(game, {"type": "pass"}).state["turn"] == "Bob"


def test_pass_without_drawing_is_refused() -> None:
    game = deal()
    v = game.apply({"type": "pass", "player": "Ann"})
    assert v.codes == ["bad-event"] and v.state["turn"] == "Ann"


def test_only_one_card_is_drawn_per_turn() -> None:
    game = deal()
    ok(game, {"type": "draw"})
    assert game.apply({"type": "draw"}).codes == ["bad-event"]
    assert state(game)["hands"]["Ann"] == 8
    game = deal()
    assert game.apply({"type": "draw", "count": 2}).codes == ["bad-event"]


def test_draw_until_playable_allows_several_draws() -> None:
    game = deal(draw_until_playable=True)
    ok(game, {"type": "draw"})
    ok(game, {"type": "draw", "count": 2})
    assert state(game)["hands"]["Ann"] == 10
    assert state(game)["turn"] == "Ann"


def test_a_play_by_the_next_player_after_a_draw_implies_a_pass() -> None:
    game = deal()
    ok(game, {"type": "draw", "player": "Ann"})
    v = ok(game, {"type": "play", "card": "red-2", "player": "Bob"})
    assert v.state["turn"] == "Cy" and v.state["hands"] == {"Ann": 8, "Bob": 6, "Cy": 7, "Dee": 7}


def test_a_draw_by_the_next_player_after_a_draw_implies_a_pass() -> None:
    game = deal()
    ok(game, {"type": "draw", "player": "Ann"})
    v = ok(game, {"type": "draw", "player": "Bob"})
    assert v.state["turn"] == "Bob" and v.state["hands"]["Bob"] == 8


def test_no_implied_pass_without_a_draw() -> None:
    game = deal()
    refused(play(game, "red-2", "Bob"), "out-of-turn")
    assert game.apply({"type": "draw", "player": "Bob"}).codes == ["out-of-turn"]
    assert game.apply({"type": "pass", "player": "Bob"}).codes == ["out-of-turn"]


def test_playing_the_drawn_card_can_be_switched_off() -> None:
    game = deal(play_drawn_card=False)
    v = ok(game, {"type": "draw", "player": "Ann"})
    assert v.state["turn"] == "Bob"
    v = game.apply({"type": "pass", "player": "Ann"})  # the pass a table still says aloud
    assert v.ok and v.state["turn"] == "Bob"
    refused(play(game, "red-3", "Ann"), "out-of-turn")


def test_the_same_card_cannot_lie_on_the_pile_more_often_than_the_deck_holds() -> None:
    game = deal(flip="red-0")
    ok(game, {"type": "play", "card": "blue-0"})
    ok(game, {"type": "play", "card": "green-0"})
    v = play(game, "red-0")
    assert v.codes == ["bad-event"] and v.alerts[0].params["reason"] == "too-many-copies"


def test_a_player_cannot_play_more_cards_than_they_hold() -> None:
    game = deal(hand_size=1, players=2)
    v = game.apply({"type": "play", "cards": ["red-7", "blue-7"]})
    assert v.codes == ["bad-event"]
