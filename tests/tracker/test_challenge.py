"""The Wild Draw Four restriction, judged by a challenge."""

from tests.tracker.helpers import deal, ok


def test_a_guilty_player_draws_four_and_the_challenger_still_loses_the_turn() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    v = game.apply({"type": "challenge", "player": "Bob", "guilty": True})
    assert v.ok and v.codes == ["wild-draw4-bluff"] and v.alerts[0].player == "Ann"
    assert v.state["hands"] == {"Ann": 10, "Bob": 7, "Cy": 7, "Dee": 7}
    assert (v.state["turn"], v.state["pending_draw"], v.state["color"]) == ("Cy", 0, "blue")


def test_the_challenger_may_play_instead() -> None:
    game = deal(challenge_guilty_victim_loses_turn=False)
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    v = game.apply({"type": "challenge", "guilty": True})
    assert (v.state["turn"], v.state["hands"]["Bob"]) == ("Bob", 7)


def test_a_wrong_challenger_draws_six_and_loses_the_turn() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    v = game.apply({"type": "challenge", "player": "Bob", "guilty": False})
    assert v.ok and v.alerts == []
    assert (v.state["turn"], v.state["hands"]["Bob"], v.state["pending_draw"]) == ("Cy", 13, 0)


def test_challenge_penalties_are_toggles() -> None:
    game = deal(challenge_guilty_draw=2, challenge_wrong_draw=8)
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    assert game.apply({"type": "challenge", "guilty": True}).state["hands"]["Ann"] == 8
    game = deal(challenge_guilty_draw=2, challenge_wrong_draw=8)
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    assert game.apply({"type": "challenge", "guilty": False}).state["hands"]["Bob"] == 15


def test_only_the_victim_challenges_and_only_before_acting() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    assert game.apply({"type": "challenge", "player": "Cy", "guilty": True}).codes == ["bad-event"]
    ok(game, {"type": "draw", "count": 4})
    v = game.apply({"type": "challenge", "player": "Bob", "guilty": True})
    assert v.codes == ["bad-event"] and v.state["hands"]["Ann"] == 6


def test_no_challenge_without_a_wild_draw_four() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "red-draw2"})
    assert game.apply({"type": "challenge", "guilty": True}).codes == ["bad-event"]


def test_guilty_must_be_a_boolean() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    assert game.apply({"type": "challenge", "guilty": "yes"}).codes == ["bad-event"]


def test_no_challenge_where_the_wild_draw_four_is_unrestricted() -> None:
    game = deal(draw4_restricted=False)
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    v = game.apply({"type": "challenge", "guilty": True})
    assert v.codes == ["bad-event"] and v.state["pending_draw"] == 4
    game = deal(draw4_challenge=False)
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    assert game.apply({"type": "challenge", "guilty": True}).codes == ["bad-event"]
