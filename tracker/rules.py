"""Rule sets: every rule that differs between sources is a toggle with a documented default.

A rule set is plain data, like a python-chess variant: a frozen dataclass. The defaults
are the published rules (the ``official`` preset); the other presets change a few
toggles.

>>> official = preset("official")
>>> official.stack_draw2_on_draw2, official.uno_penalty, official.target_score
(False, 2, 500)
>>> house = official.with_(jump_in=True)
>>> house.jump_in, official.jump_in
(True, False)
>>> preset("poker")
Traceback (most recent call last):
...
tracker.rules.UnknownPresetError: unknown rule preset 'poker' (known: official, house, youlerren)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Final

from tracker.cards import COLORED_VALUES, POINT_SYSTEMS, WILD_VALUES


class UnknownPresetError(ValueError):
    """A preset name that is not one of :data:`PRESETS`."""


class RuleError(ValueError):
    """A toggle set to a value it cannot take."""


SCORING_SYSTEMS: Final = ("winner-takes", "own-points", "pairwise", "partners")
EMPTY_PILE_CHOICES: Final = ("reshuffle", "end-round")
FIRST_WILD_CHOICES: Final = ("first-player-names", "turn-again")
FIRST_REVERSE_CHOICES: Final = ("dealer", "right-of-dealer")
_CARD_VALUES: Final = frozenset(COLORED_VALUES + WILD_VALUES)


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class RuleSet:
    """The toggles of a game; see ``docs/rules.md`` for the table of presets."""

    name: str = field(default="official", metadata=_doc("Preset this rule set started from."))
    # Stacking: answering a pending draw penalty with another draw card.
    stack_draw2_on_draw2: bool = field(
        default=False, metadata=_doc("A Draw Two may answer a pending Draw Two (adds 2).")
    )
    stack_draw4_on_draw2: bool = field(
        default=False, metadata=_doc("A Wild Draw Four may answer a pending Draw Two (adds 4).")
    )
    stack_draw4_on_draw4: bool = field(
        default=False,
        metadata=_doc("A Wild Draw Four may answer a pending Wild Draw Four (adds 4)."),
    )
    stack_two_draw2_on_draw4: bool = field(
        default=False,
        metadata=_doc(
            "A pair of Draw Twos of one color played at once may answer a pending Wild "
            "Draw Four (needs `multi_play`; 000: 一对同色加二可以盖在+4上)."
        ),
    )
    draw2_pair_needs_pair: bool = field(
        default=False,
        metadata=_doc(
            "A penalty made by two or more Draw Twos played at once may not be answered "
            "by a single Draw Two (000: 单张Draw 2不能压在2*（Draw 2）上); a pair, or a "
            "Wild Draw Four where stacking allows, still may."
        ),
    )
    wild_answers_penalty: bool = field(
        default=False,
        metadata=_doc(
            "A plain Wild may answer a pending penalty: it passes the penalty on, "
            "unchanged, to the next player."
        ),
    )
    follow_color_after_penalty: bool = field(
        default=False,
        metadata=_doc(
            "Once a draw penalty has been taken, the next player must follow the color "
            "(the Draw Two / Wild Draw Four on top no longer matches by symbol)."
        ),
    )
    jump_in: bool = field(
        default=False,
        metadata=_doc(
            "Anyone may play, out of turn, a card identical (color and value) to the top "
            "card; play continues from them."
        ),
    )
    multi_play: bool = field(
        default=False,
        metadata=_doc(
            "Several cards of one value may be played at once; each acts (n Skips skip n "
            "players, n Draw Twos add 2n); the player names which played color ends on top."
        ),
    )
    reverse_skips_two_players: bool = field(
        default=True, metadata=_doc("With two players a Reverse acts as a Skip.")
    )
    draw4_restricted: bool = field(
        default=True,
        metadata=_doc(
            "A Wild Draw Four may only be played without a card of the current color "
            "(the tracker cannot see hands: this is judged by a challenge)."
        ),
    )
    draw4_challenge: bool = field(
        default=True,
        metadata=_doc("The victim of a Wild Draw Four may challenge it (needs the restriction)."),
    )
    draw4_free_on_penalty: bool = field(
        default=False,
        metadata=_doc(
            "A Wild Draw Four answering a pending draw penalty is always legal, so it "
            "cannot be challenged (004: 罚四牌只能跟在罚二牌或罚四牌后面，或者在没有与上家"
            "颜色一样的牌时才可出)."
        ),
    )
    challenge_guilty_draw: int = field(
        default=4, metadata=_doc("Cards a player found guilty by a challenge draws.")
    )
    challenge_wrong_draw: int = field(
        default=6,
        metadata=_doc("Cards a wrong challenger draws (the 4 of the penalty plus 2 more)."),
    )
    challenge_guilty_victim_loses_turn: bool = field(
        default=True,
        metadata=_doc(
            "After a successful challenge the challenger still loses their turn (000: "
            "下家还是要停止出牌); off: the challenger then plays, following the named "
            "color (004: 再由被罚者的下家...跟牌)."
        ),
    )
    uno_penalty: int = field(
        default=2,
        metadata=_doc("Cards drawn by a player caught with one card who did not call UNO."),
    )
    false_uno_penalty: int = field(
        default=0,
        metadata=_doc(
            "Cards drawn for calling UNO when not down to one or two cards (0: none). With "
            "`multi_play` a call by the player on turn holding more is judged by their "
            "next move: false unless a play leaves them one card (or none)."
        ),
    )
    wrong_card_penalty: int = field(
        default=0,
        metadata=_doc(
            "Cards drawn for putting down a card that may not be played (illegal card, "
            "pending penalty, forbidden last card); the card goes back to the hand."
        ),
    )
    last_card_values: frozenset[str] | None = field(
        default=None,
        metadata=_doc(
            "Card values a player may go out with (`None`: any card). youlerren: "
            "a number 1-9, a Draw Two or a Wild Draw Four."
        ),
    )
    last_card_draw_applies: bool = field(
        default=True,
        metadata=_doc(
            "A Draw Two / Wild Draw Four played as the last card still makes the next "
            "player draw (those cards count in the scoring)."
        ),
    )
    first_card_actions: bool = field(
        default=True,
        metadata=_doc(
            "A Skip, Reverse or Draw Two turned up as the first card acts: Skip skips the "
            "first player, Reverse sends play to the right (`first_reverse` says who "
            "starts), Draw Two makes "
            "the first player draw 2 and lose the turn. A Wild Draw Four is always turned "
            "back into the pile and another card turned up."
        ),
    )
    first_reverse: str = field(
        default="dealer",
        metadata=_doc(
            "Who plays first after a Reverse turned up first (with `first_card_actions`): "
            "`dealer` (older printed rules), or `right-of-dealer` (newer printed rules); "
            "either way play then goes to the right."
        ),
    )
    first_wild: str = field(
        default="first-player-names",
        metadata=_doc(
            "A Wild turned up first: `first-player-names` (the first player names the "
            "color, then plays) or `turn-again` (returned, another card turned up)."
        ),
    )
    play_drawn_card: bool = field(
        default=True,
        metadata=_doc(
            "After drawing on their turn a player may play (the card just drawn); "
            "otherwise drawing ends the turn."
        ),
    )
    draw_until_playable: bool = field(
        default=False,
        metadata=_doc(
            "A player who draws keeps drawing until they can play (several draws per "
            "turn are allowed); default: exactly one card."
        ),
    )
    empty_draw_pile: str = field(
        default="reshuffle",
        metadata=_doc(
            "When the draw pile runs out: `reshuffle` the discard pile under its top card, "
            "or `end-round` (the round ends and the hands are scored)."
        ),
    )
    hand_size: int = field(default=7, metadata=_doc("Cards dealt to each player."))
    target_score: int | None = field(
        default=500,
        metadata=_doc("Match ends when a total reaches this (`None`: the match never ends)."),
    )
    scoring: str = field(
        default="winner-takes",
        metadata=_doc(
            "`winner-takes`: the round winner scores the others' cards, highest total wins; "
            "`own-points`: each keeps their own points, lowest total wins when someone "
            "reaches the target; `pairwise`: each scores the sum over the others of (their "
            "points - own points) times `stake`; `partners`: players opposite each other "
            "are a team and the team going out scores the opponents' cards."
        ),
    )
    points: str = field(
        default="face",
        metadata=_doc(
            "Card points: `face` (number = face value, Skip/Reverse/Draw Two 20, wilds 50) "
            "or `youlerren` (number 1, Skip/Reverse/Draw Two 2, wilds 5)."
        ),
    )
    stake: int = field(default=1, metadata=_doc("Multiplier of the `pairwise` scoring."))
    winner_deals: bool = field(
        default=True,
        metadata=_doc(
            "The round winner deals the next round (000: 本局赢家为下一局的庄家; 004: "
            "可以在下一局游戏中做庄家); off, or when nobody won: the deal passes to the "
            "left, i.e. to the next player clockwise."
        ),
    )

    def __post_init__(self) -> None:
        checks: list[tuple[bool, str]] = [
            (self.scoring in SCORING_SYSTEMS, f"scoring must be one of {SCORING_SYSTEMS}"),
            (self.points in POINT_SYSTEMS, f"points must be one of {POINT_SYSTEMS}"),
            (
                self.empty_draw_pile in EMPTY_PILE_CHOICES,
                f"empty_draw_pile must be one of {EMPTY_PILE_CHOICES}",
            ),
            (
                self.first_wild in FIRST_WILD_CHOICES,
                f"first_wild must be one of {FIRST_WILD_CHOICES}",
            ),
            (
                self.first_reverse in FIRST_REVERSE_CHOICES,
                f"first_reverse must be one of {FIRST_REVERSE_CHOICES}",
            ),
            (1 <= self.hand_size <= 15, "hand_size must be 1..15"),
            (self.target_score is None or self.target_score > 0, "target_score must be > 0"),
            (self.stake >= 1, "stake must be >= 1"),
            (self.challenge_wrong_draw >= 4, "challenge_wrong_draw must be >= 4"),
        ]
        for name in (
            "challenge_guilty_draw",
            "uno_penalty",
            "false_uno_penalty",
            "wrong_card_penalty",
        ):
            checks.append((0 <= getattr(self, name) <= 20, f"{name} must be 0..20"))
        if self.last_card_values is not None:
            unknown = set(self.last_card_values) - _CARD_VALUES
            checks.append((not unknown, f"last_card_values: unknown values {sorted(unknown)}"))
        for ok, message in checks:
            if not ok:
                raise RuleError(message)

    def with_(self, **changes: Any) -> RuleSet:
        """A copy with some toggles changed (like :func:`dataclasses.replace`).

        >>> preset("official").with_(hand_size=5).hand_size
        5
        """
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RuleError(f"unknown toggle(s): {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def with_text(self, assignment: str) -> RuleSet:
        """A copy with one toggle set from text ``NAME=VALUE`` (for the command line).

        >>> preset("official").with_text("stack_draw2_on_draw2=yes").stack_draw2_on_draw2
        True
        >>> preset("official").with_text("target_score=none").target_score is None
        True
        >>> sorted(preset("official").with_text("last_card_values=1,2,draw2").last_card_values)
        ['1', '2', 'draw2']
        """
        name, sep, text = assignment.partition("=")
        name, text = name.strip().replace("-", "_"), text.strip()
        fields = {f.name: f for f in dataclasses.fields(self)}
        if not sep or name not in fields:
            known = ", ".join(fields)
            raise RuleError(f"expected NAME=VALUE with NAME one of: {known}; got {assignment!r}")
        current = getattr(self, name)
        value: object
        lowered = text.lower()
        if name == "last_card_values":
            value = None if lowered in ("none", "any", "") else frozenset(text.split(","))
        elif name == "target_score":
            value = None if lowered in ("none", "") else _int(name, text)
        elif isinstance(current, bool):
            if lowered in ("1", "true", "yes", "on"):
                value = True
            elif lowered in ("0", "false", "no", "off"):
                value = False
            else:
                raise RuleError(f"{name} takes true/false, not {text!r}")
        elif isinstance(current, int):
            value = _int(name, text)
        else:
            value = text
        return self.with_(**{name: value})

    def toggles(self) -> dict[str, object]:
        """The toggles as JSON-ready data.

        >>> preset("youlerren").toggles()["scoring"]
        'pairwise'
        """
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = sorted(value, key=_value_order) if isinstance(value, frozenset) else value
        return out


def _int(name: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RuleError(f"{name} takes a whole number, not {text!r}") from None


def _value_order(value: str) -> tuple[int, str]:
    return (0, value) if value.isdigit() else (1, value)


OFFICIAL: Final = RuleSet()

HOUSE: Final = OFFICIAL.with_(
    name="house",
    stack_draw2_on_draw2=True,
    stack_draw4_on_draw2=True,
    stack_draw4_on_draw4=True,
    stack_two_draw2_on_draw4=True,
    draw2_pair_needs_pair=True,
    jump_in=True,
    multi_play=True,
    false_uno_penalty=2,
    wrong_card_penalty=1,
)

YOULERREN: Final = OFFICIAL.with_(
    name="youlerren",
    stack_draw2_on_draw2=True,
    stack_draw4_on_draw2=True,
    stack_draw4_on_draw4=True,
    follow_color_after_penalty=True,
    draw4_free_on_penalty=True,
    challenge_guilty_victim_loses_turn=False,
    last_card_values=frozenset({*map(str, range(1, 10)), "draw2", "wild-draw4"}),
    empty_draw_pile="end-round",
    target_score=None,
    scoring="pairwise",
    points="youlerren",
)

PRESETS: Final[dict[str, RuleSet]] = {
    "official": OFFICIAL,
    "house": HOUSE,
    "youlerren": YOULERREN,
}


def preset(name: str) -> RuleSet:
    """The rule set of a preset name (``official``, ``house``, ``youlerren``)."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        known = ", ".join(PRESETS)
        raise UnknownPresetError(f"unknown rule preset {name!r} (known: {known})") from None


def toggle_table() -> str:
    """A Markdown table: every toggle, what it means, what each preset sets."""
    names = list(PRESETS)
    lines = [
        "| toggle | " + " | ".join(f"`{n}`" for n in names) + " | meaning |",
        "|---|" + "---|" * len(names) + "---|",
    ]
    for f in dataclasses.fields(RuleSet):
        if f.name == "name":
            continue
        cells = [_cell(PRESETS[n].toggles()[f.name]) for n in names]
        lines.append(f"| `{f.name}` | " + " | ".join(cells) + f" | {f.metadata['doc']} |")
    return "\n".join(lines) + "\n"


def _cell(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(value)
    return str(value)
