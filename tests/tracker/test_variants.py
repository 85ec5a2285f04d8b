"""Toggles that differ between rule sets: stacking, jump-in, several cards, last card..."""

import pytest

from tests.tracker.helpers import deal, ok, play, refused, state
from tracker import Game, Verdict, preset


@pytest.mark.parametrize(
    ("preset", "first", "answer", "allowed", "pending"),
    [
        ("official", "red-draw2", "blue-draw2", False, 2),
        ("official", "wild-draw4", "wild-draw4", False, 4),
        ("house", "red-draw2", "blue-draw2", True, 4),
        ("house", "red-draw2", "wild-draw4", True, 6),
        ("house", "wild-draw4", "wild-draw4", True, 8),
        ("house", "wild-draw4", "red-draw2", False, 4),
        ("youlerren", "red-draw2", "green-draw2", True, 4),
        ("youlerren", "red-draw2", "wild-draw4", True, 6),
        ("youlerren", "wild-draw4", "wild-draw4", True, 8),
        ("youlerren", "wild-draw4", "red-draw2", False, 4),
    ],
)
def test_stacking(preset: str, first: str, answer: str, allowed: bool, pending: int) -> None:
    game = deal(preset)
    ok(game, {"type": "play", "card": first, "color": "red" if "wild" in first else None})
    v = play(game, answer, "Bob", **({"color": "red"} if "wild" in answer else {}))
    if allowed:
        assert v.ok and (v.state["turn"], v.state["pending_draw"]) == ("Cy", pending)
        v = ok(game, {"type": "draw", "player": "Cy", "count": pending})
        assert v.state["turn"] == "Dee" and v.state["hands"]["Cy"] == 7 + pending
    else:
        refused(v, "penalty-pending")
        assert v.state["pending_draw"] == pending


def test_each_stacking_toggle_alone() -> None:
    game = deal(stack_draw4_on_draw2=True)
    ok(game, {"type": "play", "card": "red-draw2"})
    refused(play(game, "blue-draw2"), "penalty-pending")
    assert (
        ok(game, {"type": "play", "card": "wild-draw4", "color": "red"}).state["pending_draw"] == 6
    )


def test_two_draw_twos_on_a_wild_draw_four() -> None:
    game = deal(multi_play=True, stack_two_draw2_on_draw4=True)
    ok(game, {"type": "play", "card": "wild-draw4", "color": "red"})
    refused(play(game, "red-draw2"), "penalty-pending")  # one is not enough
    mixed = game.apply({"type": "play", "cards": ["red-draw2", "blue-draw2"]})
    refused(mixed, "penalty-pending")  # a pair of one color (000: 一对同色加二)
    v = ok(game, {"type": "play", "cards": ["red-draw2", "red-draw2"]})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Cy", 8)


def test_a_wild_may_answer_a_penalty_where_the_rules_say_so() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "red-draw2"})
    refused(play(game, "wild", color="blue"), "penalty-pending")
    game = deal(wild_answers_penalty=True)
    ok(game, {"type": "play", "card": "red-draw2"})
    v = ok(game, {"type": "play", "card": "wild", "color": "blue"})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Cy", 2)


def test_follow_the_color_after_a_penalty() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "red-draw2"})
    ok(game, {"type": "draw", "count": 2})
    v = play(game, "blue-draw2", "Cy")
    refused(v, "illegal-card")
    assert "must be followed" in v.to_json()["alerts"][0]["message"]
    ok(game, {"type": "play", "card": "red-3", "player": "Cy"})
    # once the color was followed, symbols match again
    ok(game, {"type": "play", "card": "blue-3", "player": "Dee"})


def test_after_a_wild_draw_four_is_taken_the_named_color_is_followed() -> None:
    game = deal("youlerren")
    ok(game, {"type": "play", "card": "wild-draw4", "color": "green"})
    ok(game, {"type": "draw", "count": 4})
    refused(play(game, "red-5", "Cy"), "illegal-card")
    ok(game, {"type": "play", "card": "green-5", "player": "Cy"})


def test_jump_in_with_an_identical_card() -> None:
    game = deal("house")
    ok(game, {"type": "play", "card": "red-7"})  # Ann; Bob's turn
    v = ok(game, {"type": "play", "card": "red-7", "player": "Dee"})
    assert v.state["turn"] == "Ann" and v.state["hands"]["Dee"] == 6
    refused(play(game, "blue-7", "Cy"), "out-of-turn")  # not identical


def test_jump_in_is_out_of_turn_under_the_official_rules() -> None:
    game = deal()
    ok(game, {"type": "play", "card": "red-7"})
    refused(play(game, "red-7", "Dee"), "out-of-turn")


def test_jump_in_on_a_draw_two_passes_the_stack_on() -> None:
    game = deal("house")
    ok(game, {"type": "play", "card": "red-draw2"})  # Bob faces 2
    v = ok(game, {"type": "play", "card": "red-draw2", "player": "Cy"})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Dee", 4)


def test_several_cards_of_one_value() -> None:
    game = deal("house")
    v = ok(game, {"type": "play", "cards": ["red-9", "blue-9", "green-9"]})
    assert (v.state["top"], v.state["color"], v.state["hands"]["Ann"]) == ("green-9", "green", 4)
    v = ok(game, {"type": "play", "cards": ["blue-3", "green-3"], "color": "blue"})
    assert (v.state["top"], v.state["color"]) == ("blue-3", "blue")


def test_several_skips_skip_as_many_players() -> None:
    game = deal("house", players=5)
    v = ok(game, {"type": "play", "cards": ["red-skip", "blue-skip"]})
    assert v.state["turn"] == "Dee"


def test_several_draw_twos_add_up() -> None:
    game = deal("house")
    v = ok(game, {"type": "play", "cards": ["red-draw2", "yellow-draw2"]})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Bob", 4)


def test_two_reverses_keep_the_direction() -> None:
    game = deal("house")
    v = ok(game, {"type": "play", "cards": ["red-reverse", "blue-reverse"]})
    assert (v.state["turn"], v.state["direction"]) == ("Bob", "clockwise")


def test_several_cards_need_the_toggle_and_one_value() -> None:
    game = deal()
    refused(game.apply({"type": "play", "cards": ["red-9", "blue-9"]}), "illegal-card")
    game = deal("house")
    v = game.apply({"type": "play", "cards": ["red-9", "red-8"]})
    refused(v, "illegal-card")
    assert v.state["hands"]["Ann"] == 8  # wrong card penalty
    v = game.apply({"type": "play", "cards": ["blue-9", "green-9"]})
    refused(v, "illegal-card")  # none matches red or 5


def test_color_of_several_cards_must_be_one_played() -> None:
    game = deal("house")
    v = game.apply({"type": "play", "cards": ["red-9", "blue-9"], "color": "green"})
    assert v.codes == ["bad-event"]


def test_wrong_card_penalty() -> None:
    game = deal("house")
    v = play(game, "blue-7")
    refused(v, "illegal-card")
    assert v.alerts[0].params["penalty"] == 1
    assert (v.state["hands"]["Ann"], v.state["turn"], v.state["top"]) == (8, "Ann", "red-5")
    game = deal("house")
    ok(game, {"type": "play", "card": "red-draw2"})
    v = play(game, "red-3")
    refused(v, "penalty-pending")
    assert v.state["hands"]["Bob"] == 8 and v.state["pending_draw"] == 2


def test_last_card_restriction() -> None:
    for card in ("red-0", "red-skip", "red-reverse", "wild"):
        game = deal("youlerren", players=2, hand_size=1)
        v = play(game, card, color="red") if card == "wild" else play(game, card)
        refused(v, "illegal-last-card")
        assert v.state["hands"]["Ann"] == 1 and state(game)["phase"] == "play"
        assert "1-9" in v.to_json()["alerts"][0]["message"]
    for card in ("red-1", "red-9", "red-draw2", "wild-draw4"):
        game = deal("youlerren", players=2, hand_size=1)
        assert play(game, card, color="red" if "wild" in card else None).ok
        assert state(game)["phase"] == "round-over"


def test_any_last_card_under_the_official_rules() -> None:
    game = deal(players=2, hand_size=1)
    ok(game, {"type": "play", "card": "wild", "color": "red"})
    assert state(game)["phase"] == "round-over"


def test_a_last_draw_card_still_makes_the_next_player_draw() -> None:
    game = deal(players=3, hand_size=1)
    v = ok(game, {"type": "play", "card": "red-draw2"})
    assert (v.state["turn"], v.state["pending_draw"]) == ("Bob", 2)
    refused(play(game, "red-3", "Bob"), "bad-event")
    v = ok(game, {"type": "draw", "player": "Bob", "count": 2})
    assert (v.state["turn"], v.state["hands"]["Bob"]) == (None, 3)
    game = deal(players=3, hand_size=1, last_card_draw_applies=False)
    v = ok(game, {"type": "play", "card": "red-draw2"})
    assert (v.state["turn"], v.state["pending_draw"]) == (None, 0)


def test_hand_size_toggle_deals_that_many() -> None:
    game = Game(preset("official").with_(hand_size=5))
    v = ok(game, {"type": "round", "players": ["Ann", "Bob", "Cy"]})
    assert v.state["hands"] == {"Ann": 5, "Bob": 5, "Cy": 5}
    assert state(game)["draw_pile"] == 108 - 15


def test_an_unrestricted_wild_draw_four_cannot_be_challenged() -> None:
    game = deal(draw4_restricted=False)
    ok(game, {"type": "play", "card": "wild-draw4", "color": "green"})
    v = game.apply({"type": "challenge", "guilty": True})
    assert v.codes == ["bad-event"] and v.state["pending_draw"] == 4


def ignored(verdict: Verdict, reason: str) -> None:
    """A malformed or impossible event: ignored with a bad-event alert for this reason."""
    assert not verdict.ok and verdict.codes == ["bad-event"], verdict.to_json()
    assert verdict.alerts[0].params["reason"] == reason, verdict.to_json()


def test_a_color_event_after_several_cards_says_which_ends_on_top() -> None:
    # The camera sees red-5 and blue-5 go down together; the referee names blue.
    game = deal(multi_play=True)
    v = ok(game, {"type": "play", "cards": ["red-5", "blue-5"]})
    assert (v.state["top"], v.state["color"]) == ("blue-5", "blue")
    v = ok(game, {"type": "color", "color": "red"})
    assert (v.state["top"], v.state["color"], v.state["turn"]) == ("red-5", "red", "Bob")
    # Named once: a second color event is for a wild only.
    ignored(game.apply({"type": "color", "color": "blue"}), "no-wild")
    refused(play(game, "blue-7", "Bob"), "illegal-card")
    # Undo takes the named color back too.
    game.undo()
    assert (state(game)["top"], state(game)["color"]) == ("blue-5", "blue")


def test_a_color_after_several_cards_must_be_one_of_them() -> None:
    game = deal(multi_play=True)
    ok(game, {"type": "play", "cards": ["red-5", "blue-5"]})
    ignored(game.apply({"type": "color", "color": "green"}), "bad-field")
    # Once the next player acts, the choice is gone.
    ok(game, {"type": "play", "card": "blue-9", "player": "Bob"})
    ignored(game.apply({"type": "color", "color": "red"}), "no-wild")
    # A play that already named its color leaves nothing to name.
    game = deal(multi_play=True)
    ok(game, {"type": "play", "cards": ["red-5", "blue-5"], "color": "red"})
    ignored(game.apply({"type": "color", "color": "blue"}), "no-wild")
