"""UNO calls and catches: the call window and the catch window."""

from tests.tracker.helpers import deal, ok, play, refused, state


def test_a_catch_stands_until_the_next_player_acts() -> None:
    game = deal(hand_size=2)
    ok(game, {"type": "play", "card": "red-7"})  # Ann: 1 card, no call
    v = game.apply({"type": "catch", "player": "Ann", "by": "Cy"})
    assert v.ok and v.codes == ["missed-uno"]
    assert v.alerts[0].params == {"by": "Cy", "count": 2}
    assert v.state["hands"]["Ann"] == 3 and v.state["turn"] == "Bob"
    # caught once: a second catch does not stand
    assert game.apply({"type": "catch", "player": "Ann", "by": "Dee"}).codes == ["bad-event"]


def test_the_catch_window_closes_when_the_next_player_acts() -> None:
    game = deal(hand_size=2)
    ok(game, {"type": "play", "card": "red-7"})
    ok(game, {"type": "draw", "player": "Bob"})
    v = game.apply({"type": "catch", "player": "Ann", "by": "Cy"})
    assert not v.ok and v.codes == ["bad-event"]
    assert "too late" in v.alerts[0].params["detail"]
    assert v.state["hands"]["Ann"] == 1


def test_a_call_just_before_the_next_to_last_card_counts() -> None:
    game = deal(hand_size=2)
    ok(game, {"type": "uno", "player": "Ann"})
    ok(game, {"type": "play", "card": "red-7"})
    assert game.apply({"type": "catch", "player": "Ann", "by": "Cy"}).codes == ["bad-event"]
    assert state(game)["uno_called"] == ["Ann"]


def test_a_call_just_after_the_next_to_last_card_counts() -> None:
    game = deal(hand_size=2)
    ok(game, {"type": "play", "card": "red-7"})
    ok(game, {"type": "uno", "player": "Ann"})
    v = game.apply({"type": "catch", "player": "Ann", "by": "Cy"})
    assert v.codes == ["bad-event"] and "called UNO" in v.alerts[0].params["detail"]


def test_a_catch_of_a_player_with_several_cards_does_not_stand() -> None:
    game = deal()
    v = game.apply({"type": "catch", "player": "Bob", "by": "Ann"})
    assert v.codes == ["bad-event"] and v.state["hands"]["Bob"] == 7


def test_a_call_is_forgotten_once_the_player_draws() -> None:
    game = deal(hand_size=2)
    ok(game, {"type": "uno", "player": "Ann"})
    ok(game, {"type": "draw", "player": "Ann"})  # 3 cards now
    ok(game, {"type": "play", "card": "red-7", "player": "Ann"})
    ok(game, {"type": "play", "card": "red-8", "player": "Bob"})
    ok(game, {"type": "play", "card": "red-9", "player": "Cy"})
    ok(game, {"type": "play", "card": "red-1", "player": "Dee"})
    ok(game, {"type": "play", "card": "red-2", "player": "Ann"})  # down to one, no new call
    assert game.apply({"type": "catch", "player": "Ann", "by": "Bob"}).codes == ["missed-uno"]


def test_the_uno_penalty_is_a_toggle() -> None:
    game = deal(hand_size=2, uno_penalty=4)
    ok(game, {"type": "play", "card": "red-7"})
    assert game.apply({"type": "catch", "player": "Ann", "by": "Bob"}).state["hands"]["Ann"] == 5


def test_nobody_catches_themselves() -> None:
    game = deal(hand_size=2)
    ok(game, {"type": "play", "card": "red-7"})
    assert game.apply({"type": "catch", "player": "Ann", "by": "Ann"}).codes == ["bad-event"]


def test_a_false_call_costs_nothing_under_the_official_rules() -> None:
    game = deal()
    v = game.apply({"type": "uno", "player": "Bob"})
    assert v.ok and v.alerts == [] and v.state["hands"]["Bob"] == 7


def test_a_false_call_costs_two_cards_under_house_rules() -> None:
    game = deal("house")
    v = game.apply({"type": "uno", "player": "Bob"})
    assert not v.ok and v.codes == ["false-uno"]
    assert v.alerts[0].params == {"hand": 7, "count": 2}
    assert v.state["hands"]["Bob"] == 9


def test_uno_needs_a_player() -> None:
    assert deal().apply({"type": "uno"}).codes == ["bad-event"]


def test_going_out_without_a_catch_window() -> None:
    game = deal(hand_size=1, players=2)
    v = ok(game, {"type": "play", "card": "red-7"})
    assert state(game)["phase"] == "round-over" and v.state["turn"] is None
    refused(play(game, "red-8", "Bob"), "bad-event")
