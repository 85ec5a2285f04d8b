"""The first card turned up (the starter) and what it does to the first player."""

from tests.tracker.helpers import deal, ok, play, refused, state


def test_skip_turned_up_skips_the_first_player() -> None:
    assert state(deal(flip="blue-skip"))["turn"] == "Bob"


def test_reverse_turned_up_lets_the_dealer_play_first_to_the_right() -> None:
    game = deal(flip="blue-reverse")
    s = state(game)
    assert (s["turn"], s["direction"]) == ("Dee", "counterclockwise")
    assert ok(game, {"type": "play", "card": "blue-1"}).state["turn"] == "Cy"


def test_draw_two_turned_up_makes_the_first_player_draw_two_and_lose_the_turn() -> None:
    game = deal(flip="green-draw2")
    s = state(game)
    assert (s["turn"], s["pending_draw"]) == ("Ann", 2)
    refused(play(game, "green-4"), "penalty-pending")
    v = ok(game, {"type": "draw", "count": 2})
    assert (v.state["turn"], v.state["hands"]["Ann"]) == ("Bob", 9)


def test_actions_turned_up_can_be_switched_off() -> None:
    game = deal(flip="green-draw2", first_card_actions=False)
    s = state(game)
    assert (s["turn"], s["pending_draw"]) == ("Ann", 0)
    assert state(deal(flip="blue-skip", first_card_actions=False))["turn"] == "Ann"


def test_wild_draw_four_turned_up_is_turned_again() -> None:
    game = deal(flip=None)
    v = ok(game, {"type": "flip", "card": "wild-draw4"})
    assert v.state["top"] is None and state(game)["phase"] == "flip"
    assert state(game)["draw_pile"] == 108 - 28  # it went back into the pile
    refused_play = play(game, "red-1")
    assert refused_play.codes == ["bad-event"]
    v = ok(game, {"type": "flip", "card": "yellow-6"})
    assert (v.state["top"], v.state["turn"]) == ("yellow-6", "Ann")
    assert state(game)["draw_pile"] == 108 - 28 - 1


def test_wild_turned_up_the_first_player_names_the_color() -> None:
    game = deal(flip="wild")
    s = state(game)
    assert (s["top"], s["color"], s["turn"]) == ("wild", None, "Ann")
    ok(game, {"type": "color", "color": "green"})
    refused(play(game, "red-2"), "illegal-card")
    ok(game, {"type": "play", "card": "green-2"})


def test_wild_turned_up_with_its_color_in_the_flip_event() -> None:
    game = deal(flip=None)
    assert ok(game, {"type": "flip", "card": "wild", "color": "blue"}).state["color"] == "blue"


def test_wild_turned_up_can_be_turned_again() -> None:
    game = deal(flip=None, first_wild="turn-again")
    assert ok(game, {"type": "flip", "card": "wild"}).state["top"] is None
    assert ok(game, {"type": "flip", "card": "red-1"}).state["top"] == "red-1"


def test_a_second_flip_is_refused() -> None:
    game = deal()
    v = game.apply({"type": "flip", "card": "blue-1"})
    assert v.codes == ["bad-event"] and v.state["top"] == "red-5"


def test_no_play_before_the_starter() -> None:
    game = deal(flip=None)
    v = play(game, "red-1")
    assert v.codes == ["bad-event"] and v.alerts[0].params["reason"] == "need-flip"


def test_reverse_turned_up_can_let_the_dealers_right_play_first() -> None:
    game = deal(flip="blue-reverse", first_reverse="right-of-dealer")
    s = state(game)
    assert (s["turn"], s["direction"]) == ("Cy", "counterclockwise")
