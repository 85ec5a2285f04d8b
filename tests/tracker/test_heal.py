"""Self-healing (tracker.heal): each kind of camera miss costs at most one alert."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker import Game, preset
from tracker.heal import ASK, Healed, Healer
from tracker.simulate import simulate

Event = dict[str, Any]
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def healer(rules: str = "official", flip: str | None = "red-5", players: int = 4) -> Healer:
    """A dealt round (dealer: the last player, so Ann plays first)."""
    h = Healer(Game(preset(rules)))
    names = NAMES[:players]
    clean(h, {"type": "round", "players": names, "dealer": names[-1]})
    if flip is not None:
        clean(h, {"type": "flip", "card": flip})
    return h


def clean(h: Healer, event: Event) -> Healed:
    """An event applied as it is, with no alert and nothing inferred."""
    healed = h.apply(event)
    assert healed.ok and healed.alerts == [] and healed.inferred == [], healed.to_json()
    return healed


def see(h: Healer, card: str, start: float, seconds: float = 3.0) -> list[Healed]:
    """The camera sees ``card`` on the pile, 10 frames a second."""
    out = []
    for i in range(int(seconds * 10)):
        healed = h.observe_top(card, start + i / 10)
        if healed is not None:
            out.append(healed)
    return out


def hands(h: Healer) -> dict[str, int]:
    return dict(h.game.state_json()["hands"])


def replayed(h: Healer, log: list[Event]) -> Game:
    """A plain game fed the logged steps (the store's view): undos included."""
    game = Game(h.game.rules)
    for event in log:
        game.apply(event)
    return game


# ---------------------------------------------------------------------- each kind of miss


def test_missed_play_seen_by_the_camera_is_inferred_without_an_alert() -> None:
    h = healer()
    see(h, "red-5", 0.0)
    healed = see(h, "red-7", 3.0)  # Ann's red-7: the watcher missed it
    assert len(healed) == 1 and healed[0].alerts == []
    assert healed[0].inferred == [
        {"type": "play", "card": "red-7", "player": "Ann", "inferred": True}
    ]
    clean(h, {"type": "play", "card": "red-3", "player": "Bob"})
    assert h.game.state_json()["turn"] == "Cy"


def test_missed_play_seen_only_as_the_next_card_comes_is_inferred_too() -> None:
    h = healer()
    see(h, "red-5", 0.0)
    see(h, "red-7", 3.0, seconds=1.0)  # seen steadily, but not for long
    healed = h.apply({"type": "play", "card": "blue-7", "player": "Bob"})
    assert healed.ok and healed.alerts == []
    assert [e["card"] for e in healed.inferred] == ["red-7"]
    assert hands(h) == {"Ann": 6, "Bob": 6, "Cy": 7, "Dee": 7}


def test_a_card_seen_after_a_draw_asks_who_played_it() -> None:
    h = healer()
    see(h, "red-5", 0.0)
    clean(h, {"type": "draw", "player": "Ann"})
    healed = see(h, "red-2", 3.0)  # Ann's drawn card, or Bob's after Ann passed?
    assert len(healed) == 1 and healed[0].codes == [ASK]
    message = healed[0].alerts[0].message()
    assert message == "Did Ann play red-2? (Recorded so; tap to correct. Or: Bob played red-2.)"
    assert h.resolve(1).ok and hands(h) == {"Ann": 8, "Bob": 6, "Cy": 7, "Dee": 7}


def test_missed_play_without_the_camera_asks_the_referee_once() -> None:
    h = healer()
    healed = h.apply({"type": "play", "card": "blue-9", "player": "Bob"})
    # Bob's mistake, or a play of Ann's nobody saw? Judged as it is; the referee asked.
    assert not healed.ok and healed.codes == [ASK]
    alert = healed.alerts[0]
    assert alert.message().startswith("Bob played out of turn: it is Ann's turn. (Refused;")
    assert alert.message().endswith("Or: Ann played red-9.)")
    assert "Ann 出了 red-9" in alert.message("zh")
    assert [o["en"] for o in alert.to_json()["params"]["options"]][1] == "Ann played red-9"
    # The next play makes sense only with the miss: taken silently, no cascade.
    revised = h.apply({"type": "play", "card": "blue-3", "player": "Cy"})
    assert revised.ok and revised.alerts == [] and revised.kind == "revised"
    assert [e.get("card") for e in revised.inferred] == ["red-9"]
    clean(h, {"type": "play", "card": "blue-4", "player": "Dee"})
    assert hands(h) == {"Ann": 6, "Bob": 6, "Cy": 6, "Dee": 6}


def test_the_referee_corrects_a_guessed_card_with_one_tap() -> None:
    h = healer()
    log = list(h.game.events)
    log += [e for e, _ in h.apply({"type": "play", "card": "blue-9", "player": "Bob"}).steps]
    log += [e for e, _ in h.apply({"type": "play", "card": "blue-3", "player": "Cy"}).steps]
    fixed = h.resolve(0, card="blue-5")  # "Correct it": Ann played blue-5
    assert fixed.ok and fixed.alerts == [] and h.question is None
    played = [e.get("card") for e in h.game.events if e["type"] == "play"]
    assert played == ["blue-5", "blue-9", "blue-3"]
    assert h.game.state_json()["turn"] == "Dee"
    log += [e for e, _ in fixed.steps]  # undos, then the corrected events: as stored
    assert replayed(h, log).events == h.game.events


def test_the_referee_says_a_play_was_missed() -> None:
    h = healer()
    h.apply({"type": "play", "card": "blue-9", "player": "Bob"})
    answer = h.resolve(1)
    assert answer.ok and answer.codes == [] and h.question is None
    assert [e.get("card") for e in h.game.events[-2:]] == ["red-9", "blue-9"]
    assert h.game.state_json()["turn"] == "Cy"


def test_missed_penalty_draw_is_inferred() -> None:
    h = healer()
    clean(h, {"type": "play", "card": "red-draw2", "player": "Ann"})
    healed = h.apply({"type": "play", "card": "red-4", "player": "Cy"})  # Bob's +2 unseen
    assert healed.ok and healed.alerts == [] and healed.kind == "penalty"
    assert healed.inferred == [{"type": "draw", "player": "Bob", "count": 2, "inferred": True}]
    assert hands(h)["Bob"] == 9


@pytest.mark.parametrize("camera", [True, False])
def test_missed_draw_two_costs_at_most_one_alert(camera: bool) -> None:
    """Issue 21: one missed Draw Two flagged 19 of the next 36 events."""
    h = healer()
    if camera:
        see(h, "red-5", 0.0)
        see(h, "red-draw2", 3.0, seconds=1.0)  # Ann's +2, seen on the pile only
    alerts = []
    for event in [
        {"type": "draw", "player": "Bob", "count": 2},
        {"type": "play", "card": "red-3", "player": "Cy"},
        {"type": "play", "card": "blue-3", "player": "Dee"},
        {"type": "play", "card": "blue-7", "player": "Ann"},
        {"type": "draw", "player": "Bob"},
        {"type": "pass", "player": "Bob"},
    ]:
        alerts += h.apply(event).codes
    assert len(alerts) <= (0 if camera else 1)
    assert hands(h) == {"Ann": 5, "Bob": 10, "Cy": 6, "Dee": 6}
    assert h.game.state_json()["turn"] == "Cy"


def test_a_silent_healing_is_revised_when_a_later_event_needs_another() -> None:
    h = healer("house", flip="yellow-draw2")  # Ann owes two ...
    # ... and stacks a green-draw2 nobody sees; Bob stacks a Wild Draw Four.
    first = h.apply({"type": "play", "card": "wild-draw4", "player": "Bob", "color": "blue"})
    assert first.alerts == [] and first.kind == "penalty"  # read as: Ann took the two
    second = h.apply({"type": "draw", "player": "Cy", "count": 8})  # Cy takes 2 + 2 + 4
    assert second.ok and second.alerts == [] and second.kind == "revised"
    assert hands(h) == {"Ann": 6, "Bob": 6, "Cy": 15, "Dee": 7}
    assert h.game.state_json()["turn"] == "Dee"


def test_missed_draw_before_a_pass_is_inferred() -> None:
    h = healer()
    healed = h.apply({"type": "pass", "player": "Ann"})
    assert healed.ok and healed.alerts == [] and healed.kind == "draw"
    assert hands(h)["Ann"] == 8 and h.game.state_json()["turn"] == "Bob"


def test_a_draw_seen_after_the_pass_that_inferred_it_is_that_draw() -> None:
    # random-7027 seed 803: Bob's arm drew, passed over the discard pile going back,
    # and was judged a draw only after the referee's pass (which inferred the draw):
    # "Bob drew out of turn", an alert for a draw counted already.
    h = healer()
    healed = h.apply({"type": "pass", "player": "Ann"})
    assert healed.ok and healed.kind == "draw"
    before = h.game.state_json()
    late = h.apply({"type": "draw", "player": "Ann"})
    assert not late.ok and late.alerts == [] and late.kind == "seen-late"
    assert late.steps == [] and h.game.state_json() == before
    # It is seen late once: a second draw of Ann's now is out of turn, as before.
    again = h.apply({"type": "draw", "player": "Ann"})
    assert again.alerts and again.kind != "seen-late"


def test_a_draw_out_of_turn_after_a_pass_seen_is_no_late_draw() -> None:
    h = healer()
    clean(h, {"type": "draw", "player": "Ann"})
    clean(h, {"type": "pass", "player": "Ann"})
    late = h.apply({"type": "draw", "player": "Ann"})
    assert late.alerts and late.kind != "seen-late"


def test_missed_draw_before_the_next_players_play_asks_once() -> None:
    h = healer()
    healed = h.apply({"type": "play", "card": "red-9", "player": "Bob"})
    # Ann drew unseen, or Bob played out of turn: the referee is asked, the draw applied.
    assert healed.ok and healed.codes == [ASK]
    assert hands(h) == {"Ann": 8, "Bob": 6, "Cy": 7, "Dee": 7}


def test_misread_wild_color_heals_with_one_question() -> None:
    h = healer()
    clean(h, {"type": "play", "card": "wild", "player": "Ann", "color": "blue"})  # was green
    healed = h.apply({"type": "play", "card": "green-3", "player": "Bob"})
    # Applied as a colour misread; the referee may say Bob's card was illegal instead.
    assert healed.ok and healed.codes == [ASK] and healed.kind == "color"
    assert healed.inferred == [{"type": "color", "color": "green", "inferred": True}]
    assert healed.alerts[0].message().startswith("Was the color named green?")
    clean(h, {"type": "play", "card": "green-8", "player": "Cy"})
    # As judged, Bob's card was illegal: Cy's play, judged again, is out of turn.
    assert h.resolve(1).codes[0] == "illegal-card"
    assert h.game.state_json()["color"] == "blue" and h.game.events[-1]["card"] == "wild"


def test_colour_nobody_saw_named_for_a_missed_wild() -> None:
    h = healer()
    healed = h.apply({"type": "color", "color": "yellow"})  # Ann's wild unseen
    assert healed.ok and healed.codes == [ASK]  # a wild, or a wild draw four?
    assert h.game.state_json()["color"] == "yellow"
    assert h.game.state_json()["top"] in ("wild", "wild-draw4")


def test_misread_starter_seen_by_the_camera_is_corrected() -> None:
    h = healer(flip="red-8")  # the starter is red-6
    healed = see(h, "red-6", 0.0)
    assert len(healed) == 1 and healed[0].alerts == [] and healed[0].kind == "misread"
    # The steps carry the mark and what it was; the game's log keeps the mark alone.
    assert healed[0].steps[-1][0] == {
        "type": "flip",
        "card": "red-6",
        "inferred": True,
        "was": "red-8",
    }
    assert h.game.events[-1] == {"type": "flip", "card": "red-6", "inferred": True}
    clean(h, {"type": "play", "card": "blue-6", "player": "Ann"})


def test_misread_starter_without_the_camera_costs_one_question() -> None:
    h = healer(flip="red-8")
    healed = h.apply({"type": "play", "card": "blue-6", "player": "Ann"})
    assert not healed.ok and healed.codes == [ASK]  # Ann's mistake, or a misread starter?
    revised = h.apply({"type": "play", "card": "blue-2", "player": "Bob"})
    assert revised.ok and revised.alerts == [] and revised.kind == "revised"
    assert h.game.state_json()["top"] == "blue-2" and hands(h)["Ann"] == 6


def test_missed_fan_seen_by_its_top_card_is_offered() -> None:
    h = healer("house")
    see(h, "red-5", 0.0)
    healed = see(h, "blue-5", 3.0)  # Ann laid red-5 + blue-5 (or three fives) unseen
    assert len(healed) == 1 and healed[0].codes == [ASK]
    options = [o["en"] for o in healed[0].alerts[0].params["options"]]
    assert "Ann played red-5 + blue-5" in options
    assert "Ann played red-5 + yellow-5 + blue-5" in options
    clean(h, {"type": "play", "card": "blue-2", "player": "Bob"})


def test_a_fan_whose_lower_card_the_camera_missed_costs_one_question() -> None:
    """Ann laid red-9 + blue-9 on red-5; the camera saw red-5 lie still, then blue-9 alone (the
    watcher missed the lower card). Once: the refusal and the fan offered; Bob's and
    Cy's plays after it follow on the fan, with no alert (they were refused, every one,
    before: a cascade)."""
    h = healer("house")
    see(h, "red-5", 0.0)  # the camera saw the record's top lie still
    healed = h.apply({"type": "play", "card": "blue-9", "player": "Ann"})
    assert not healed.ok and healed.codes == [ASK], healed.to_json()
    options = [o["en"] for o in healed.alerts[0].params["options"]]
    assert "Ann played red-9 + blue-9 together" in options
    after = h.apply({"type": "play", "card": "blue-2", "player": "Bob"})
    assert after.ok and after.alerts == [], after.to_json()
    clean(h, {"type": "play", "card": "blue-7", "player": "Cy"})
    assert h.game.events[-3]["cards"] == ["red-9", "blue-9"]
    assert hands(h)["Ann"] == 5


def test_a_fan_whose_named_colour_nobody_saw_costs_one_question() -> None:
    """Ann laid blue-9, red-9 and green-9 on blue-5 and named red; the camera saw green-9
    alone, uppermost (``player-speeds`` seed 652, tuning, before the watcher's
    twenty-second pass). The fan offered at the refusal had no red card, so no revision
    fitted the red plays after it: each was judged out of turn (18 alerts in that game).
    The fan with a third card and the colour named is a rival kept for revising: the
    next red play takes it, silently, and the question stays open on it."""
    h = healer("house", flip="blue-5")
    see(h, "blue-5", 0.0)
    refused = h.apply({"type": "play", "card": "green-9", "player": "Ann"})
    assert not refused.ok and refused.codes == [ASK], refused.to_json()
    see(h, "green-9", 2.0)  # the fan's top card lies still on the pile
    later = [("Bob", "red-3"), ("Cy", "red-7"), ("Dee", "red-0"), ("Ann", "red-4")]
    revised = h.apply({"type": "play", "card": later[0][1], "player": later[0][0]})
    assert revised.ok and revised.alerts == [] and revised.kind == "revised", revised.to_json()
    for who, card in later[1:]:
        clean(h, {"type": "play", "card": card, "player": who})
    fan = h.game.events[-len(later) - 1]
    assert fan["cards"] == ["blue-9", "red-9", "green-9"] and fan["color"] == "red", fan
    assert h.question is not None
    assert h.question.options[0].texts()[1] == (
        "Ann played blue-9 + red-9 + green-9 together, naming red"
    )
    assert hands(h)["Ann"] == 7 - 3 - 1


def test_a_fan_s_named_colour_is_kept_when_its_unseen_card_is_corrected() -> None:
    h = healer("house", flip="blue-5")
    h.apply({"type": "play", "card": "green-9", "player": "Ann"})
    h.apply({"type": "play", "card": "red-3", "player": "Bob"})  # revised: red named
    assert h.question is not None
    fixed = h.resolve(0, card="blue-9")
    assert fixed.ok and fixed.alerts == [], fixed.to_json()
    fan = next(e for e in h.game.events if "cards" in e)
    assert fan["color"] == "red" and h.game.state_json()["top"] == "red-3"


def test_the_referee_names_a_fan_s_unseen_card_with_one_tap() -> None:
    """ "Correct it" on a fan offered names its lowest card, the one nobody saw (a fan
    was an option that "lays no card")."""
    h = healer("house")
    see(h, "red-5", 0.0)
    healed = h.apply({"type": "play", "card": "blue-9", "player": "Ann"})
    options = [o["en"] for o in healed.alerts[0].params["options"]]
    fixed = h.resolve(options.index("Ann played red-9 + blue-9 together"), card="red-9")
    assert fixed.ok and fixed.alerts == [] and h.question is None
    fan = {"type": "play", "cards": ["red-9", "blue-9"], "player": "Ann", "inferred": True}
    assert h.game.events[-1] == fan


def test_an_open_question_ends_with_its_round() -> None:
    h = healer()
    h.apply({"type": "play", "card": "blue-9", "player": "Bob"})
    assert h.question is not None
    hands_shown = {n: ["red-1"] * count for n, count in hands(h).items()}
    clean(h, {"type": "end-round", "hands": hands_shown})
    assert h.question is None
    with pytest.raises(LookupError):
        h.resolve(0)


def test_a_starter_draw_two_read_as_a_number_costs_one_question() -> None:
    h = healer(flip="red-3")  # the starter is red-draw2: Ann takes two
    healed = h.apply({"type": "draw", "player": "Ann", "count": 2})
    assert healed.ok and healed.codes == [ASK]
    assert healed.alerts[0].message().startswith("Was the card red-draw2, not red-3?")
    clean(h, {"type": "play", "card": "red-5", "player": "Bob"})
    assert hands(h)["Ann"] == 9


def test_duplicated_play_is_ignored_without_an_alert() -> None:
    h = healer("official")
    play = {"type": "play", "card": "red-7", "player": "Ann"}
    clean(h, play)
    before = h.game.state_json()
    twice = h.apply(dict(play))
    assert not twice.ok and twice.alerts == [] and twice.kind == "duplicate"
    assert twice.steps == [] and h.game.state_json() == before


def test_a_starter_seen_before_the_camera_turns_it_up_is_flipped_once() -> None:
    h = healer(flip=None)
    inferred = see(h, "red-4", 0.0)  # a slow hand: the card lies there 2 s and more
    assert len(inferred) == 1 and inferred[0].alerts == []
    assert h.game.events[-1] == {"type": "flip", "card": "red-4", "inferred": True}
    before = h.game.state_json()
    late = h.apply({"type": "flip", "card": "red-4"})  # the watcher judges it at rest
    assert not late.ok and late.alerts == [] and late.kind == "duplicate"
    assert h.game.state_json() == before
    again = h.apply({"type": "flip", "card": "blue-2"})  # another card: no duplicate
    assert not again.ok and again.codes == ["bad-event"]


def test_a_jump_in_with_the_twin_card_is_a_play() -> None:
    h = healer("house")
    clean(h, {"type": "play", "card": "red-7", "player": "Ann"})
    clean(h, {"type": "play", "card": "red-7", "player": "Ann"})  # house: jump-in, legal
    assert hands(h)["Ann"] == 5


def test_another_copy_on_turn_is_no_duplicate() -> None:
    h = healer(players=2)
    clean(h, {"type": "play", "card": "red-skip", "player": "Ann"})  # Bob skipped
    clean(h, {"type": "play", "card": "red-skip", "player": "Ann"})  # the other copy
    assert hands(h)["Ann"] == 5


def test_a_real_illegal_card_is_still_flagged() -> None:
    h = healer()
    see(h, "red-5", 0.0)  # the camera saw the top steadily: nothing was missed
    healed = h.apply({"type": "play", "card": "blue-9", "player": "Ann"})
    assert not healed.ok and healed.codes == ["illegal-card"]


def test_a_refused_card_on_the_pile_is_no_missed_play() -> None:
    h = healer()
    see(h, "red-5", 0.0)
    h.apply({"type": "play", "card": "blue-9", "player": "Ann"})
    assert see(h, "blue-9", 3.0) == []  # lying there until taken back
    assert h.game.state_json()["top"] == "red-5"


# ---------------------------------------------------------------------- undo and the log


def test_inferred_events_undo_like_any_other() -> None:
    h = healer()
    clean(h, {"type": "play", "card": "red-draw2", "player": "Ann"})
    steps = h.apply({"type": "play", "card": "red-4", "player": "Cy"}).steps
    assert steps[0][0] == {"type": "draw", "player": "Bob", "count": 2, "inferred": True}
    assert h.game.events[-2] == steps[0][0]  # the game's log keeps the mark
    assert h.undo().ok and h.game.events[-1]["type"] == "draw"  # Cy's play taken back
    assert h.undo().ok and h.game.events[-1]["card"] == "red-draw2"  # then the inferred draw
    assert h.game.state_json()["pending_draw"] == 2
    clean(h, {"type": "draw", "player": "Bob", "count": 2})  # the mark went with it
    assert "inferred" not in h.game.events[-1]


def test_the_steps_replay_to_the_same_game() -> None:
    h, log = Healer(Game(preset("house"))), []
    for event in [
        {"type": "round", "players": NAMES, "dealer": "Dee"},
        {"type": "flip", "card": "red-8"},
        {"type": "play", "card": "blue-6", "player": "Ann"},
        {"type": "play", "card": "blue-6", "player": "Ann"},
        {"type": "play", "card": "blue-draw2", "player": "Bob"},
        {"type": "play", "card": "blue-1", "player": "Dee"},
    ]:
        log += [e for e, _ in h.apply(event).steps]
    assert h.question is not None
    log += [e for e, _ in h.resolve(0).steps]
    assert replayed(h, log).state_json() == h.game.state_json()
    assert replayed(h, log).events == h.game.events


def test_bad_input_is_judged_as_before() -> None:
    h = healer()
    for bad in [[1], {"type": "shuffle"}, {"type": "play", "card": "purple-3"}]:
        healed = h.apply(bad)
        assert not healed.ok and healed.codes == ["bad-event"]
    with pytest.raises(LookupError):
        h.resolve(0)
    h.apply({"type": "play", "card": "blue-9", "player": "Bob"})
    with pytest.raises(ValueError, match="not a card"):
        h.resolve(0, card="purple-3")
    with pytest.raises(LookupError):
        h.resolve(9)


def test_verdict_json_keeps_the_contract() -> None:
    h = healer()
    h.apply({"type": "play", "card": "red-draw2", "player": "Ann"})
    out = h.apply({"type": "play", "card": "red-4", "player": "Cy"}).to_json("zh")
    assert {"seq", "ok", "alerts", "state"} <= set(out)
    assert out["healed"] == "penalty" and out["inferred"][0]["player"] == "Bob"
    assert set(out["state"]) == {"turn", "direction", "top", "color", "pending_draw", "hands"}
    assert json.loads(h.undo().dumps())["ok"] is True


# ---------------------------------------------------------------------- whole games


def _camera_log(rules: str, seed: int, events: int = 80) -> list[Event]:
    """A clean simulated log with every play and draw naming its player (as the camera)."""
    game, out = Game(preset(rules)), []
    for src in simulate(preset(rules), players=4, seed=seed, rounds=1)[:events]:
        ev = {k: v for k, v in src.items() if k != "expect"}
        if ev["type"] in ("play", "draw", "pass") and "player" not in ev:
            ev["player"] = game.state_json()["turn"]
        game.apply(ev)
        out.append(ev)
    return out


@pytest.mark.parametrize("rules", ["official", "house", "youlerren"])
def test_clean_games_give_no_alert_and_the_same_verdicts(rules: str) -> None:
    for seed in range(6):
        log = _camera_log(rules, seed, events=400)
        h, plain = Healer(Game(preset(rules))), Game(preset(rules))
        for event in log:
            healed, verdict = h.apply(event), plain.apply(event)
            assert healed.to_json() == verdict.to_json(), event
        assert h.game.events == plain.events


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(["official", "house", "youlerren"]),
    seed=st.integers(0, 10_000),
    where=st.floats(0.05, 0.95),
    fault=st.sampled_from(["drop", "duplicate", "drop-referee"]),
)
def test_a_fault_in_a_simulated_game(rules: str, seed: int, where: float, fault: str) -> None:
    """Whatever is dropped or doubled: no exception, the steps replay to the same game,
    a duplicated play or a dropped referee ruling (pass, color) costs no alert, and
    the healer never raises more alerts than the plain tracker."""
    log = _camera_log(rules, seed)
    kinds = {"drop": ("play", "draw", "flip"), "duplicate": ("play",), "drop-referee": ("pass",)}
    spots = [i for i, e in enumerate(log) if e["type"] in kinds[fault]]
    if not spots:
        return
    i = spots[int(where * len(spots))]
    faulty = log[:i] + log[i + 1 :] if fault != "duplicate" else log[: i + 1] + log[i:]
    h, plain, steps = Healer(Game(preset(rules))), Game(preset(rules)), []
    healed_alerts = plain_alerts = 0
    for event in faulty:
        healed = h.apply(event)
        steps += [e for e, _ in healed.steps]
        healed_alerts += len(healed.alerts)
        plain_alerts += len(plain.apply(event).alerts)
    assert replayed(h, steps).state_json() == h.game.state_json()
    if fault == "drop-referee" or (fault == "duplicate" and not preset(rules).jump_in):
        assert healed_alerts == 0
    assert healed_alerts <= max(plain_alerts, 1)


def test_doctests() -> None:
    import doctest

    import tracker.heal
    import tracker.heal_options

    assert doctest.testmod(tracker.heal).failed == 0
    assert doctest.testmod(tracker.heal_options).failed == 0


# ---------------------------------------------------------------------- a returned starter


def test_a_wild_draw_four_starter_nobody_heard_costs_no_alert() -> None:
    """The camera saw a Wild Draw Four turned up (it goes back into the deck), the
    tracker never heard of that flip, and the watcher took the next card turned up for
    a play: it is the starter, and every event after it is legal."""
    h = healer("house", flip=None, players=3)  # Cy deals: Ann plays first
    see(h, "wild-draw4", 0.0)
    healed = h.apply({"type": "play", "card": "green-7", "player": "Bob"})
    assert healed.ok and healed.alerts == [], healed.to_json()
    assert healed.inferred == [
        {"type": "flip", "card": "wild-draw4", "inferred": True},
        {"type": "flip", "card": "green-7", "inferred": True, "read_as": "play"},
    ]
    state = h.game.state_json()
    assert (state["top"], state["turn"], hands(h)) == ("green-7", "Ann", {n: 7 for n in NAMES[:3]})
    clean(h, {"type": "draw", "player": "Ann"})
    clean(h, {"type": "play", "card": "green-2", "player": "Ann"})
    clean(h, {"type": "play", "card": "green-9", "player": "Bob"})


def test_a_play_before_any_starter_without_the_camera_costs_one_question() -> None:
    """From events alone a play before any starter may be a play after a missed flip,
    or the starter itself: one question, and the events after it settle it silently."""
    h = healer("house", flip=None, players=3)
    first = h.apply({"type": "play", "card": "green-7", "player": "Bob"})
    assert first.codes == [ASK]
    assert any("starter card was green-7" in o["en"] for o in first.alerts[0].params["options"])
    later = [
        {"type": "draw", "player": "Ann"},
        {"type": "play", "card": "green-2", "player": "Ann"},
        {"type": "play", "card": "green-9", "player": "Bob"},
        {"type": "play", "card": "green-3", "player": "Cy"},
    ]
    assert [a for e in later for a in h.apply(e).alerts] == []
    state = h.game.state_json()
    assert (state["top"], state["turn"], hands(h)) == (
        "green-3",
        "Ann",
        {"Ann": 7, "Bob": 6, "Cy": 6},
    )


# ---------------------------------------------------------------------- a missed draw


def test_a_fan_the_record_says_a_player_cannot_hold_infers_the_missed_draw() -> None:
    """Ann's draw was missed and she played the drawn card at once (nothing refused);
    later she goes out with a fan of two cards the record says she does not hold."""
    h = Healer(Game(preset("house")))
    clean(h, {"type": "round", "players": NAMES[:3], "dealer": "Cy", "hand_size": 2})
    clean(h, {"type": "flip", "card": "red-5"})
    clean(h, {"type": "play", "card": "red-7", "player": "Ann"})  # her draw before: missed
    clean(h, {"type": "play", "card": "red-9", "player": "Bob"})
    clean(h, {"type": "play", "card": "red-2", "player": "Cy"})
    healed = h.apply({"type": "play", "cards": ["red-3", "blue-3"], "player": "Ann"})
    assert healed.ok and healed.alerts == [], healed.to_json()
    assert healed.kind == "draw"
    assert [(e["type"], e.get("player")) for e in healed.inferred] == [("draw", "Ann")]
    state = h.game.state_json()
    assert (state["phase"], hands(h)) == ("round-over", {"Ann": 0, "Bob": 1, "Cy": 1})


def test_a_fan_one_missed_draw_does_not_explain_is_still_refused() -> None:
    """Four cards from a hand of two by the record: one missed draw is not enough."""
    h = Healer(Game(preset("house")))
    clean(h, {"type": "round", "players": NAMES[:3], "dealer": "Cy", "hand_size": 2})
    clean(h, {"type": "flip", "card": "red-5"})
    fan = ["red-3", "blue-3", "green-3", "yellow-3"]
    healed = h.apply({"type": "play", "cards": fan, "player": "Ann"})
    assert not healed.ok and healed.inferred == []
    assert [a.params.get("reason") for a in healed.alerts] == ["not-enough-cards"]


def test_correcting_a_starter_read_from_a_play_names_the_starter_not_the_returned_card() -> None:
    from tracker.heal_options import Option, with_card

    returned = {"type": "flip", "card": "wild-draw4"}
    starter = {"type": "flip", "card": "green-7", "inferred": True, "read_as": "play"}
    option = Option("flip", [returned, starter], 0.5, instead=True)
    fixed = with_card(option, "green-8", None)
    assert [e["card"] for e in fixed.events] == ["wild-draw4", "green-8"]
    assert [e["card"] for e in option.events] == ["wild-draw4", "green-7"]  # unchanged


def test_a_take_back_question_names_the_card_taken_back() -> None:
    """Offered after a refusal or a steady top, "was taken back" names the last play's
    card (it read "? was taken back", or named the card the camera saw under it)."""
    from tracker.heal_catalogue import Catalogue

    h = healer()
    clean(h, {"type": "play", "card": "red-9", "player": "Ann"})
    catalogue = Catalogue(h.game, h.settings, {}, True, "red-9")
    refused = catalogue.candidates({"type": "play", "card": "blue-5", "player": "Cy"})
    after_top = catalogue.top_options("red-5")
    for options in (refused, after_top):
        retract = next(o for o in options if o.kind == "retract")
        assert retract.texts()[:2] == ("Was red-9 taken back?", "red-9 was taken back")


def test_another_card_of_the_last_play_seen_on_top_is_no_missed_play() -> None:
    """Bob put a yellow 7 and a blue 7 down and named yellow: the record's top is the
    yellow 7, the blue one lies uppermost. Seen steadily it is Bob's play, not a blue 7
    of Cy's the camera missed; a card no play laid still is."""
    h = Healer(Game(preset("house")))
    clean(h, {"type": "round", "players": NAMES[:3], "dealer": "Cy"})
    clean(h, {"type": "flip", "card": "yellow-5"})
    clean(h, {"type": "play", "card": "yellow-3", "player": "Ann"})
    clean(h, {"type": "play", "cards": ["yellow-7", "blue-7"], "player": "Bob", "color": "yellow"})
    assert h.game.state_json()["top"] == "yellow-7"
    assert see(h, "blue-7", 10.0, seconds=6.0) == []
    assert h.game.state_json()["turn"] == "Cy"
    healed = see(h, "yellow-1", 20.0, seconds=6.0)
    assert healed and healed[0].inferred[0]["card"] == "yellow-1", [x.to_json() for x in healed]


def test_the_card_under_the_top_seen_steadily_is_no_misread_of_the_top() -> None:
    """Bob fanned a blue 1, a yellow 1 and a green 1 and named blue; Cy put a blue Draw
    Two down beside them on an untidy pile, and the camera read the green 1 under it,
    steadily (``covering-untidy-25fps`` seed 780, plays of three, trained recogniser).
    That is the old card in view, not Cy's card misread as the green 1's twin: the
    record keeps the Draw Two, Dee's penalty draws are taken, no alert."""
    h = healer("house", flip="blue-5")
    clean(h, {"type": "play", "card": "blue-9", "player": "Ann"})
    fan = {"type": "play", "cards": ["blue-1", "yellow-1", "green-1"], "player": "Bob"}
    clean(h, {**fan, "color": "blue"})
    see(h, "green-1", 0.0)
    clean(h, {"type": "play", "card": "blue-draw2", "player": "Cy"})
    assert see(h, "green-1", 3.0, seconds=6.0) == []
    assert h.game.state_json()["top"] == "blue-draw2"
    clean(h, {"type": "draw", "player": "Dee"})
    clean(h, {"type": "draw", "player": "Dee"})
    clean(h, {"type": "play", "card": "blue-3", "player": "Ann"})


def test_the_card_under_the_top_seen_steadily_after_a_play_asks_if_it_was_taken_back() -> None:
    """The card under the top seen again after the new one was seen may be a take-back
    the watcher missed, or the old card's twin played since: asked, the new card not
    read as the old one's twin."""
    h = healer("house")
    clean(h, {"type": "play", "card": "red-9", "player": "Ann"})
    see(h, "red-9", 0.0)
    clean(h, {"type": "play", "card": "blue-9", "player": "Bob"})
    see(h, "blue-9", 3.0, seconds=1.0)
    healed = see(h, "red-9", 4.0)
    assert len(healed) == 1 and healed[0].codes == [ASK], [x.to_json() for x in healed]
    options = [o["en"] for o in healed[0].alerts[0].params["options"]]
    assert "blue-9 was taken back" in options
    assert not any(o.startswith("the card was") for o in options), options


def test_a_fan_naming_the_starter_s_face_is_the_play_seen_on_top() -> None:
    """The starter is a red 4; Ann puts a red 4 and a yellow 4 down and names red, the
    yellow one uppermost (``quick-untidy-26fps`` seed 713, plays of three). The record's
    top keeps its name, but it is Ann's card now: the yellow 4 seen steadily is her
    play, not a missed yellow 4 of Bob's (which then made Bob's own play refused)."""
    h = healer("house", flip="red-4")
    see(h, "red-4", 0.0)
    fan = {"type": "play", "cards": ["red-4", "yellow-4"], "player": "Ann", "color": "red"}
    clean(h, fan)
    assert see(h, "yellow-4", 3.0, seconds=6.0) == []
    clean(h, {"type": "play", "card": "red-3", "player": "Bob"})


def test_a_fan_read_with_a_card_too_many_is_told_by_a_copy_too_many_after_a_take_back() -> None:
    """Cy put a yellow and a green Reverse down; the watcher read a second green one
    under them (``scattered-pile`` seed 609): three Reverses turn the direction, so
    Bob's green 4 after them is out of turn, explained by a draw of Ann's and asked,
    "Cy played only ..." among the options. Bob takes the green 4 back and plays a
    green Reverse: a third green Reverse, which the fan of two explains; the draw
    inferred for the question goes with it, and no alert more (four before: the
    question ended with the take-back, then the copy, a draw and a pass refused)."""
    h = healer("house", players=3)
    clean(h, {"type": "play", "card": "red-reverse", "player": "Ann"})  # to Cy, then Bob
    read = ["yellow-reverse", "green-reverse", "green-reverse"]
    clean(h, {"type": "play", "cards": read, "player": "Cy"})
    asked = h.apply({"type": "play", "card": "green-4", "player": "Bob"})
    assert asked.ok and asked.codes == [ASK], asked.to_json()
    options = [o["en"] for o in asked.alerts[0].params["options"]]
    assert "Cy played only yellow-reverse + green-reverse" in options, options
    clean(h, {"type": "undo"})
    assert h.question is not None  # the healing's other readings still stand
    again = h.apply({"type": "play", "card": "green-reverse", "player": "Bob"})
    assert again.ok and again.alerts == [] and again.kind == "revised", again.to_json()
    fan = [e for e in h.game.events if e.get("player") == "Cy"][-1]
    assert fan["cards"] == ["yellow-reverse", "green-reverse"]
    assert [e["type"] for e in h.game.events].count("draw") == 0
    clean(h, {"type": "play", "card": "green-7", "player": "Cy"})


def test_the_card_under_the_top_seen_all_through_the_play_is_no_evidence() -> None:
    """Ann fanned a blue, a red and a green 9 and named red; the camera saw the green 9
    all through Dee's red 3 after it (the red 3 never in its sight on a covered, untidy
    pile: ``covering-untidy-25fps`` seed 652, plays of three). No play of Cy's inferred
    (a fan of a red and a green 9, which the camera's take-back of Dee's card then
    undid, and two alerts followed)."""
    h = healer("house", flip="blue-reverse")
    fan = {"type": "play", "cards": ["blue-9", "red-9", "green-9"], "player": "Dee"}
    see(h, "green-9", 0.0, seconds=1.0)
    clean(h, {**fan, "color": "red"})
    see(h, "green-9", 1.0, seconds=1.0)
    clean(h, {"type": "play", "card": "red-3", "player": "Cy"})
    assert see(h, "green-9", 2.0, seconds=6.0) == []
    assert h.game.state_json()["top"] == "red-3"


def test_a_returned_wild_draw_four_left_in_view_is_no_play() -> None:
    """A Wild Draw Four turned up first goes back into the deck and a red 4 is turned
    up; the dealer leaves the Wild Draw Four beside the pile a while, and the camera
    reads it, steadily (``covering-untidy-25fps`` seed 713, plays of three): no Wild
    Draw Four of Ann's inferred (that cost two alerts, Ann's own play then refused)."""
    h = healer("house", flip=None)
    see(h, "wild-draw4", 0.0, seconds=1.0)
    clean(h, {"type": "flip", "card": "wild-draw4"})
    see(h, "wild-draw4", 1.0, seconds=1.0)
    clean(h, {"type": "flip", "card": "red-4"})
    assert see(h, "wild-draw4", 2.0, seconds=6.0) == []
    clean(h, {"type": "play", "cards": ["red-4", "yellow-4"], "player": "Ann", "color": "red"})


def test_a_fan_with_a_face_read_twice_is_taken_as_one_card_fewer_and_asked() -> None:
    """Cy put a red and a green Reverse down, a green Reverse lying on the pile already;
    the watcher read the green one twice: a third green Reverse, which no deck holds.
    Taken as the fan of two (asked once), not refused with every play after it out of
    turn (nine alerts in the healer's bench before)."""
    h = healer("house", players=3, flip="green-5")
    clean(h, {"type": "play", "card": "green-reverse", "player": "Ann"})  # to Cy, then Bob
    read = ["red-reverse", "green-reverse", "green-reverse"]
    healed = h.apply({"type": "play", "cards": read, "player": "Cy", "color": "green"})
    assert healed.ok and healed.codes == [ASK], healed.to_json()
    assert h.game.events[-1]["cards"] == ["red-reverse", "green-reverse"]
    clean(h, {"type": "play", "card": "green-6", "player": "Bob"})  # two Reverses: on to Bob


def test_a_question_s_other_answer_that_lays_the_card_seen_is_taken_silently() -> None:
    """Ann's fan of a blue, a yellow and a green 9, yellow named, was reported as the
    green 9 alone (refused, a fan asked about). The camera then sees the yellow 9
    steadily: of the question's answers, the fan naming yellow lays it, and is taken
    with no second question (one was asked before, for a fan the question held)."""
    h = healer("house", flip="blue-5")
    see(h, "blue-5", 0.0)
    refused = h.apply({"type": "play", "card": "green-9", "player": "Ann"})
    assert refused.codes == [ASK]
    healed = see(h, "yellow-9", 1.0)
    assert len(healed) == 1 and healed[0].alerts == [] and healed[0].kind == "revised"
    assert h.game.state_json()["top"] == "yellow-9"
    clean(h, {"type": "play", "card": "yellow-2", "player": "Bob"})


def test_a_second_draw_tells_a_missed_wild_draw_four_from_a_wild() -> None:
    """Ann's Wild Draw Four was missed; the referee's colour for it is refused and asked
    about (a wild, or a Wild Draw Four?), and Bob's first draw fits a plain wild. His
    second draw, "already drew", is the penalty's: the Wild Draw Four is taken with no
    alert more (``fast-blur-untidy-22fps`` seed 615: two "already drew" alerts before)."""
    h = healer("house")
    asked = h.apply({"type": "color", "color": "red"})
    assert asked.codes == [ASK], asked.to_json()
    h.apply({"type": "draw", "player": "Bob"})
    again = h.apply({"type": "draw", "player": "Bob"})
    assert again.ok and again.alerts == [], again.to_json()
    assert any(e.get("card") == "wild-draw4" for e in h.game.events)
    clean(h, {"type": "draw", "player": "Bob"})
    clean(h, {"type": "draw", "player": "Bob"})
    clean(h, {"type": "play", "card": "red-3", "player": "Cy"})


def test_a_play_given_to_the_wrong_seat_is_asked_and_told_by_the_penalty_draws() -> None:
    """Cy's green Draw Two given to Bob by the watcher (arms crossing over the pile:
    ``warm-drop-untidy-28fps`` seed 625, held out, opened on 5 December 2026) is refused
    as out of turn, "Cy played green-draw2, not Bob" among the options; Dee's two
    penalty draws then take that answer, with no alert more (five alerts before)."""
    h = healer("house", flip="green-5")
    clean(h, {"type": "play", "card": "green-6", "player": "Ann"})
    clean(h, {"type": "play", "card": "green-7", "player": "Bob"})
    see(h, "green-7", 0.0)  # lying there: not taken back
    asked = h.apply({"type": "play", "card": "green-draw2", "player": "Bob"})
    assert not asked.ok and asked.codes == [ASK], asked.to_json()
    options = [o["en"] for o in asked.alerts[0].params["options"]]
    assert "Cy played green-draw2, not Bob" in options, options
    first = h.apply({"type": "draw", "player": "Dee"})
    assert first.ok and first.alerts == [] and first.kind == "revised", first.to_json()
    clean(h, {"type": "draw", "player": "Dee"})
    clean(h, {"type": "play", "card": "green-1", "player": "Ann"})
