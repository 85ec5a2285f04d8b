"""The healer's explanations: their costs (:class:`HealSettings`), one explanation
(:class:`Option`: the missed events it infers and what it costs), the cards it may
guess, and how it reads to the referee (English and Chinese). Used by
:mod:`tracker.heal`.

>>> bridges(parse_card("blue-7"), parse_card("red-5"), "red")[:3]
['red-5', 'red-7', 'red-skip']
>>> option_texts(Option("play", [{"type": "play", "player": "Ann", "card": "red-9"}], 2.0))
('Did Ann play red-9?', 'Ann played red-9', 'Ann 出了 red-9吗？', 'Ann 出了 red-9')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from tracker.cards import COLORS, Card, CardError, parse_card
from tracker.game import Verdict

Event = dict[str, Any]

WILDS: Final = frozenset({"wild", "wild-draw4"})


@dataclass(frozen=True)
class HealSettings:
    """Costs of the explanations (lower is likelier) and how the camera's view counts.

    An explanation within ``margin`` of the best one that leaves another state is a
    rival: the referee is asked. A play of a card nobody saw is a guess: always asked.
    """

    seen_play: float = 0.5  # a play of the card the camera saw on top
    misread: float = 0.75  # the last card read wrong; the camera shows the right one
    penalty: float = 0.75  # a pending draw penalty taken: it was owed
    draw: float = 1.25  # a turn's draw (its pass is implied by the next play)
    passed: float = 0.25
    color: float = 1.25  # the colour named for the wild on top was another
    retract: float = 1.25  # the last play was taken back
    duplicate: float = 1.0  # a play taken twice (a jump-in with the twin) was reported twice
    guess: float = 2.0  # a card nobody saw
    named: float = 0.25  # added for a fan's card nobody saw more, or another colour named
    as_judged: float = 2.0  # no miss: the event is the player's own mistake
    contradicted: float = 1.5  # added where the camera's view says otherwise
    margin: float = 1.0
    top_sightings: int = 3  # sightings in a row that make a seen top steady ...
    top_steady_s: float = 0.4  # ... over at least this long
    top_patience_s: float = 2.0  # a steady top unlike the record's this long: heal
    rewrite_depth: int = 4  # a misread card is looked for this far back in the log
    max_options: int = 4  # options offered to the referee
    remember_refused: int = 3  # refused events tried again with a later explanation
    earlier: float = 0.25  # added per event back, for a miss before events that were legal
    max_recounts: int = 6  # other readings tried per copy of a card the deck has no more of


@dataclass
class Option:
    """One explanation: inferred events (after rewriting one past event) and its cost."""

    kind: str
    events: list[Event]
    cost: float
    guessed: bool = False
    rewrite: tuple[int, list[Event]] | None = None  # (index in the log, events put instead)
    seen: str | None = None  # the camera-seen card it accounts for
    state: tuple[Any, ...] = ()
    as_judged: Verdict | None = None
    applied: list[Event] = field(default_factory=list)  # the inferred events, as tried
    replayed: list[Event] = field(default_factory=list)  # refused events it makes legal
    instead: bool = False  # its events are what the real event was (not applied itself)
    about: str | None = None  # the card(s) its question names where its events name none
    # An alternative only the events after it can tell (a fan's third card, its named
    # colour): never asked about, nor a rival; tried when a later event needs it.
    hidden: bool = False

    def base(self, at: int) -> int:
        """How far back in a log of ``at`` events this explanation reaches."""
        undos = sum(1 for e in self.events if e["type"] == "undo")
        return min(at - undos, self.rewrite[0] if self.rewrite is not None else at)

    def texts(self) -> tuple[str, str, str, str]:
        """(question, statement) in English, then in Chinese."""
        return option_texts(self)


def drawn_count(event: Event) -> int:
    """The cards a ``draw`` event takes (0 for another event)."""
    count = event.get("count", 1)
    ok = event.get("type") == "draw" and isinstance(count, int) and not isinstance(count, bool)
    return count if ok else 0


def card_or_none(name: object) -> Card | None:
    try:
        return parse_card(name)
    except CardError:
        return None


def event_cards(event: Event) -> list[Card]:
    names = event.get("cards") if event.get("cards") is not None else [event.get("card")]
    if not isinstance(names, list):
        return []
    cards = [card_or_none(n) for n in names]
    return [c for c in cards if c is not None] if all(cards) else []


def bridges(
    real: Card | None, top: Card | None, color: str | None, misread: bool = False
) -> list[str]:
    """Cards that may lie between ``top`` (of ``color``) and the card ``real`` played
    next: one per kind of effect (number, skip, reverse, draw2, wild, wild-draw4).

    With ``misread``, the cards ``top`` may have been misread from: its value in the
    real card's colour, or its colour with the real card's value.
    """
    colors = [c for c in (color, real.color if real else None, top.color if top else None) if c]
    values = [v for v in (top.value if top else None, real.value if real else None) if v]
    if misread:
        if real is None or top is None or top.color is None or real.color is None:
            return []
        return list(dict.fromkeys([f"{real.color}-{top.value}", f"{top.color}-{real.value}"]))
    out = [
        f"{c}-{v}"
        for c in colors
        for v in [*values, "skip", "reverse", "draw2", "5"]
        if c in COLORS
    ]
    if top is not None and top.color is not None:
        out += [f"{c}-{top.value}" for c in COLORS]  # the top's value, in any colour
    out = [n for n in dict.fromkeys(out) if card_or_none(n) is not None]
    return [*out, "wild", "wild-draw4"]


def with_card(option: Option, card: str, color: str | None) -> Option:
    """The option with ``card`` (and ``color``) for the card it lays (a correction)."""
    if card_or_none(card) is None:
        raise ValueError(f"{card!r} is not a card")
    if color is not None and color not in COLORS:
        raise ValueError(f"{color!r} is not a color")
    events = [dict(e) for e in option.events]
    rewrite = (option.rewrite[0], [dict(e) for e in option.rewrite[1]]) if option.rewrite else None
    laid = [e for e in [*events, *(rewrite[1] if rewrite else [])] if "card" in e or "cards" in e]
    if not laid:
        raise ValueError(f"the option '{option.texts()[1]}' lays no card")
    # The card in question: the first laid, or the event read instead of the real one
    # (a "play" read as the starter, after a returned Wild Draw Four); of a fan, its
    # lowest card (the one nobody saw).
    fixed = laid[-1] if option.instead else laid[0]
    if "cards" in fixed:
        fixed["cards"] = [card, *fixed["cards"][1:]]
    else:
        fixed["card"] = card
    colors = {c.color for c in map(card_or_none, fixed.get("cards", [])) if c is not None}
    if color is not None or fixed.get("color") not in colors:  # a fan keeps its named one
        fixed.pop("color", None)
    if color is not None:
        fixed["color"] = color
    return replace(option, events=events, rewrite=rewrite, guessed=False)


def laid_fields(cards: list[str]) -> Event:
    """The ``card`` or ``cards`` field of a play."""
    return {"card": cards[0]} if len(cards) == 1 else {"cards": list(cards)}


def plays_card(option: Option, top: str | None) -> bool:
    """Does the option play a card identical to ``top`` (which the camera sees the same)?"""
    return any(e.get("card") == top for e in option.events)


QUESTIONS: Final = {
    "play": ("Did {p} play {card}?", "{p} played {card}", "{p} 出了 {card}"),
    "draw": ("Did {p} draw a card?", "{p} drew a card", "{p} 摸了一张牌"),
    "seat": (
        "Did {p} play {card}, not {was}?",
        "{p} played {card}, not {was}",
        "是 {p} 出的 {card}，不是 {was}",
    ),
    "seat-draw": ("Did {p} draw, not {was}?", "{p} drew, not {was}", "是 {p} 摸的牌，不是 {was}"),
    "penalty": ("Did {p} take the penalty cards?", "{p} took the penalty cards", "{p} 摸了罚牌"),
    "pass": ("Did {p} pass?", "{p} passed", "{p} 过牌"),
    "color": (
        "Was the color named {color}?",
        "the color named was {color}",
        "叫的颜色是 {color}",
    ),
    "retract": ("Was {card} taken back?", "{card} was taken back", "{card} 被收回了"),
    "misread": (
        "Was the card {card}, not {was}?",
        "the card was {card}, not {was}",
        "那张牌是 {card}，不是 {was}",
    ),
    "fewer": ("Did {p} play only {card}?", "{p} played only {card}", "{p} 只出了 {card}"),
    "late-draw": (
        "Did {p} draw a card before going out?",
        "{p} drew a card before going out",
        "{p} 出完之前摸过一张牌",
    ),
    "duplicate": ("Was {card} reported twice?", "{card} was reported twice", "{card} 被重复记录了"),
    "flip": ("Was the starter card {card}?", "the starter card was {card}", "第一张牌是 {card}"),
    "fan": (
        "Did {p} play {card} together?",
        "{p} played {card} together",
        "{p} 一起出了 {card}",
    ),
    "fan-named": (
        "Did {p} play {card} together, naming {color}?",
        "{p} played {card} together, naming {color}",
        "{p} 一起出了 {card}，叫 {color}",
    ),
}


def option_texts(option: Option) -> tuple[str, str, str, str]:
    """(question, statement) in English, then in Chinese."""
    if option.as_judged is not None:
        alert = option.as_judged.alerts[0]
        en, zh = alert.message("en").rstrip("."), alert.message("zh").rstrip("。")
        return f"Or is it as judged: {en}?", en, f"还是按原判：{zh}？", zh
    laid = option.applied or option.events or (option.rewrite or (0, [{}]))[1] or [{}]
    first = laid[-1]
    if option.kind == "draw" and len(option.events) > 1:
        texts = (
            "Did {p} draw a card and pass?",
            "{p} drew a card and passed",
            "{p} 摸了一张牌并过牌",
        )
    elif option.kind == "fan" and "color" in first:
        texts = QUESTIONS["fan-named"]
    elif option.kind == "seat" and first.get("type") == "draw":
        texts = QUESTIONS["seat-draw"]
    else:
        texts = QUESTIONS[option.kind]
    if option.kind == "penalty":
        first = laid[0]
    if option.kind in ("misread", "fewer"):
        first = next((e for e in laid if "was" in e), first)
    values = {
        "p": first.get("player", "?"),
        "card": first.get("card")
        or " + ".join(first.get("cards") or [option.about or option.seen or "?"]),
        "was": first.get("was", "?"),
        "color": first.get("color", "?"),
    }
    en_q, en, zh = (text.format(**values) for text in texts)
    return en_q, en, f"{zh}吗？", zh


__all__ = [
    "QUESTIONS",
    "WILDS",
    "HealSettings",
    "Option",
    "bridges",
    "card_or_none",
    "drawn_count",
    "event_cards",
    "laid_fields",
    "option_texts",
    "plays_card",
    "with_card",
]
