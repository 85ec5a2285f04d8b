"""An empty draw pile: reshuffle the discard pile, or end the round (youlerren)."""

from tests.tracker.helpers import deal, ok


def crowded(rules: str = "official", **toggles: object):  # type: ignore[no-untyped-def]
    """7 players with 15 cards each: 3 cards left, 2 after the starter."""
    return deal(rules, players=7, hand_size=15, **toggles)


def test_reshuffle_the_discard_pile_under_its_top_card() -> None:
    game = crowded()
    s = game.state_json()
    assert (s["draw_pile"], s["discard_pile"]) == (2, 1)
    ok(game, {"type": "play", "card": "red-1"})
    ok(game, {"type": "play", "card": "red-2"})
    ok(game, {"type": "play", "card": "red-3"})
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})  # Eve faces 4
    v = ok(game, {"type": "draw", "count": 4})
    s = game.state_json()
    assert v.state["hands"]["Eve"] == 19
    # 2 from the pile, then the 4 discards under the Wild Draw Four were shuffled in
    assert (s["draw_pile"], s["discard_pile"]) == (2, 1)
    assert s["draw_pile"] + s["discard_pile"] + sum(s["hands"].values()) == 108


def test_a_draw_larger_than_every_card_left_is_refused() -> None:
    game = crowded()
    ok(game, {"type": "play", "card": "wild-draw4", "color": "blue"})
    v = game.apply({"type": "draw", "count": 4})  # 2 in the pile + 1 under the top
    assert v.codes == ["bad-event"] and v.alerts[0].params["reason"] == "empty-pile"


def test_the_round_ends_when_the_draw_pile_runs_out() -> None:
    game = crowded("youlerren")
    ok(game, {"type": "draw"})
    assert game.state_json()["phase"] == "play"
    ok(game, {"type": "pass"})
    v = ok(game, {"type": "draw", "player": "Bob"})
    s = game.state_json()
    assert s["phase"] == "round-over" and v.state["turn"] is None and s["draw_pile"] == 0
    hands: dict[str, list[str]] = {name: [] for name in s["players"]}
    v = game.apply({"type": "end-round", "hands": hands})
    assert v.ok and v.to_json()["round"]["winner"] is None


def test_end_round_mode_refuses_a_draw_beyond_the_pile() -> None:
    game = crowded("youlerren")
    ok(game, {"type": "play", "card": "red-draw2"})
    ok(game, {"type": "play", "card": "blue-draw2", "player": "Bob"})  # Cy faces 4
    v = game.apply({"type": "draw", "count": 4})
    assert v.codes == ["bad-event"] and game.state_json()["draw_pile"] == 2


def test_with_nothing_left_to_draw_a_player_passes_without_drawing() -> None:
    game = crowded()
    assert game.apply({"type": "pass"}).codes == ["bad-event"]  # there is a card to draw
    ok(game, {"type": "draw"})
    ok(game, {"type": "pass"})
    ok(game, {"type": "draw", "player": "Bob"})
    ok(game, {"type": "pass", "player": "Bob"})
    v = game.apply({"type": "draw", "player": "Cy"})  # pile empty, only the top card left
    assert v.codes == ["bad-event"] and v.alerts[0].params["reason"] == "empty-pile"
    assert ok(game, {"type": "pass", "player": "Cy"}).state["turn"] == "Dee"
