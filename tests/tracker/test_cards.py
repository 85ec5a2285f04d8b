from collections import Counter

import pytest

from tracker import ALL_CARDS, DECK_SIZE, CardError, card_points, full_deck, hand_points, parse_card


def test_deck_has_108_cards_with_the_published_composition() -> None:
    deck = full_deck()
    assert len(deck) == DECK_SIZE == 108
    counts = Counter(card.name for card in deck)
    for color in ("red", "yellow", "green", "blue"):
        assert counts[f"{color}-0"] == 1
        for value in [*map(str, range(1, 10)), "skip", "reverse", "draw2"]:
            assert counts[f"{color}-{value}"] == 2
        assert sum(n for name, n in counts.items() if name.startswith(color)) == 25
    assert counts["wild"] == 4
    assert counts["wild-draw4"] == 4
    assert len(ALL_CARDS) == 54


@pytest.mark.parametrize("card", ALL_CARDS)
def test_every_canonical_name_round_trips(card: object) -> None:
    parsed = parse_card(card.name)  # type: ignore[attr-defined]
    assert parsed is card
    assert parsed.name == str(parsed)


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("purple-3", "unknown color 'purple'"),
        ("red-10", "unknown value '10'"),
        ("Red-7", "lower case: 'red-7'"),
        ("back", "face-down"),
        ("wild-draw2", "unknown color 'wild'"),
        ("redseven", "expected <color>-<value>"),
        ("", "unknown card ''"),
        (7, "must be a string, not int"),
        (None, "must be a string, not NoneType"),
    ],
)
def test_a_bad_name_raises_a_specific_error(name: object, fragment: str) -> None:
    with pytest.raises(CardError, match=fragment.replace("(", r"\(")):
        parse_card(name)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


def test_properties_of_cards() -> None:
    assert parse_card("wild").is_wild and parse_card("wild-draw4").is_wild
    assert not parse_card("red-draw2").is_wild
    assert parse_card("blue-0").is_number and not parse_card("blue-skip").is_number
    assert parse_card("green-draw2").draw_amount == 2
    assert parse_card("wild-draw4").draw_amount == 4
    assert parse_card("wild").draw_amount == 0


@pytest.mark.parametrize(
    ("name", "face", "youlerren"),
    [
        ("red-0", 0, 1),
        ("red-7", 7, 1),
        ("blue-9", 9, 1),
        ("green-skip", 20, 2),
        ("yellow-reverse", 20, 2),
        ("blue-draw2", 20, 2),
        ("wild", 50, 5),
        ("wild-draw4", 50, 5),
    ],
)
def test_points_per_scoring_system(name: str, face: int, youlerren: int) -> None:
    card = parse_card(name)
    assert card_points(card) == card_points(card, "face") == face
    assert card_points(card, "youlerren") == youlerren


def test_hand_points_and_unknown_system() -> None:
    hand = [parse_card(n) for n in ("red-7", "wild", "blue-skip")]
    assert hand_points(hand) == 77
    assert hand_points(hand, "youlerren") == 8
    with pytest.raises(ValueError, match="unknown point system"):
        card_points(hand[0], "chips")


def test_whole_deck_is_worth_the_published_total() -> None:
    # Per color: 2 * (1 + ... + 9) = 90 plus 6 action cards * 20 = 120; wilds 8 * 50.
    assert hand_points(full_deck()) == 4 * (90 + 120) + 8 * 50
