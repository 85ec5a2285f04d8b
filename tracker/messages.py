"""Alerts and their messages: one template per code (or ``code/variant``), English and Chinese.

The tracker keeps the code and its parameters; the sentence is made from a template,
so the dashboard can show either language.

>>> alert = Alert("illegal-card", "Ann", {"card": "red-7", "top": "blue-3", "color": "blue"})
>>> alert.message()
'Ann played red-7 on blue-3: it matches neither the color (blue) nor the value.'
>>> alert.message("zh")
'Ann 在 blue-3 上出了 red-7：颜色（blue）和数字/符号都不符。'

A parameter may carry its Chinese as ``<name>_zh`` (the ``ask-referee`` options):

>>> ask = Alert("ask-referee", "Bob", {"question_text": "Did Bob play blue-8?", "others": "",
...             "question_text_zh": "Bob 出了 blue-8吗？", "others_zh": ""})
>>> print(ask.message()); print(ask.message("zh"))
Did Bob play blue-8? (Recorded so; tap to correct.)
Bob 出了 blue-8吗？（已这样记录；可一键更正。）
"""

from __future__ import annotations

from typing import Any, Final

LANGUAGES: Final = ("en", "zh")

#: Alert codes of the DESIGN contract, plus ``false-uno`` (the house rule that penalises
#: a false UNO call) and ``ask-referee`` (:mod:`tracker.heal`: a missed event was
#: inferred, or a refusal may be one; the referee confirms or corrects with one tap).
CODES: Final = (
    "illegal-card",
    "out-of-turn",
    "penalty-pending",
    "illegal-last-card",
    "wild-draw4-bluff",
    "missed-uno",
    "false-uno",
    "bad-event",
    "ask-referee",
)

# Keys: the code, or "code/variant" when one code needs several sentences. The
# parameters in braces come from the alert's params (plus {player}).
TEMPLATES: Final[dict[str, tuple[str, str]]] = {
    "illegal-card": (
        "{player} played {card} on {top}: it matches neither the color ({color}) nor the value.",
        "{player} 在 {top} 上出了 {card}：颜色（{color}）和数字/符号都不符。",
    ),
    "illegal-card/follow-color": (
        "{player} played {card} on {top}: after a penalty the color {color} must be followed.",
        "{player} 在 {top} 上出了 {card}：罚牌之后必须跟颜色 {color}。",
    ),
    "illegal-card/single": (
        "{player} put down {count} cards at once: only one card per turn under these rules.",
        "{player} 一次出了 {count} 张牌：本规则每回合只能出一张。",
    ),
    "illegal-card/mixed": (
        "{player} put down {cards} together: cards played at once must have the same value.",
        "{player} 同时出了 {cards}：一次出多张牌必须数字/符号相同。",
    ),
    "out-of-turn": (
        "{player} played out of turn: it is {turn}'s turn.",
        "{player} 不按顺序出牌：现在轮到 {turn}。",
    ),
    "out-of-turn/draw": (
        "{player} drew out of turn: it is {turn}'s turn.",
        "{player} 不按顺序摸牌：现在轮到 {turn}。",
    ),
    "out-of-turn/pass": (
        "{player} passed out of turn: it is {turn}'s turn.",
        "{player} 不按顺序过牌：现在轮到 {turn}。",
    ),
    "penalty-pending": (
        "{player} must take {pending} cards or answer with an allowed card; {card} does not "
        "answer the penalty.",
        "{player} 需要摸 {pending} 张牌或用允许的牌接罚；{card} 不能接罚。",
    ),
    "penalty-pending/take": (
        "{player} must take the {pending} penalty cards: no card may be played on it "
        "under these rules ({card}).",
        "{player} 必须摸 {pending} 张罚牌：本规则不能接罚（{card}）。",
    ),
    "illegal-last-card": (
        "{player} may not go out with {card}: the last card must be {allowed}.",
        "{player} 不能用 {card} 出完最后一张：最后一张必须是 {allowed}。",
    ),
    "wild-draw4-bluff": (
        "{player} played Wild Draw Four while holding a matching color: {player} draws {count}.",
        "{player} 有同色牌却出了 +4 王牌：{player} 罚摸 {count} 张。",
    ),
    "missed-uno": (
        "{player} did not call UNO (caught by {by}): {player} draws {count}.",
        "{player} 没有喊 UNO（被 {by} 抓到）：{player} 罚摸 {count} 张。",
    ),
    "false-uno": (
        "{player} called UNO with {hand} cards: {player} draws {count}.",
        "{player} 手里有 {hand} 张牌却喊 UNO：{player} 罚摸 {count} 张。",
    ),
    "bad-event": ("Event ignored: {detail}", "事件已忽略：{detail}"),
    "bad-event/hand-mismatch": (
        "{player}'s hand shows {shown} cards; the record says {expected}. Scored as shown.",
        "{player} 手里亮出 {shown} 张牌；记录为 {expected} 张。按亮出的牌计分。",
    ),
    # ask-referee: {question_text} / {statement} are the option applied, as a question and
    # as a statement; {others} the other options (" Or: ...", or ""). Each parameter
    # has its Chinese in ``<name>_zh`` (see :meth:`Alert.message`).
    "ask-referee": (
        "{question_text} (Recorded so; tap to correct.{others})",
        "{question_text}（已这样记录；可一键更正。{others}）",
    ),
    "ask-referee/as-judged": (
        "{statement}. (Refused; tap to correct.{others})",
        "{statement}。（未记录；可一键更正。{others}）",
    ),
}

#: Chinese for the free-text details of ``bad-event`` (keyed by the ``reason`` param).
_DETAIL_ZH: Final[dict[str, str]] = {
    "not-an-object": "每行必须是一个 JSON 对象",
    "not-json": "这一行不是 JSON",
    "unknown-type": "未知的事件类型",
    "bad-field": "字段无效",
    "unknown-player": "未知的玩家",
    "unknown-card": "未知的牌",
    "no-round": "还没有开始一局",
    "round-in-progress": "这一局还没有结束",
    "round-over": "这一局已经结束",
    "need-flip": "请先翻开第一张牌",
    "already-flipped": "第一张牌已经翻开",
    "too-many-copies": "这张牌的数量超过一副牌",
    "not-enough-cards": "手牌不够",
    "empty-pile": "摸牌堆里的牌不够",
    "no-wild": "牌堆顶不是王牌",
    "already-drew": "这回合已经摸过牌",
    "must-draw-penalty": "必须先摸罚牌",
    "must-draw": "过牌前必须先摸牌",
    "catch-rejected": "抓 UNO 不成立",
    "no-challenge": "现在不能质疑",
    "nothing-to-undo": "没有可撤销的事件",
    "internal": "内部错误，状态未改变",
}


class Alert:
    """One flagged problem: ``code``, the ``player`` concerned and the template's ``params``."""

    __slots__ = ("code", "params", "player", "variant")

    def __init__(
        self,
        code: str,
        player: str | None,
        params: dict[str, Any] | None = None,
        variant: str | None = None,
    ) -> None:
        self.code = code
        self.player = player
        self.params: dict[str, Any] = params or {}
        self.variant = variant

    def message(self, language: str = "en") -> str:
        """The sentence a referee reads, in ``en`` or ``zh``."""
        key = f"{self.code}/{self.variant}" if self.variant else self.code
        template = TEMPLATES.get(key) or TEMPLATES[self.code]
        values = {"player": self.player or "?", **self.params}
        if language == "zh":  # a parameter's Chinese, where the alert carries one
            values.update({k[:-3]: v for k, v in self.params.items() if k.endswith("_zh")})
        if language == "zh" and "detail" in values:
            reason = str(self.params.get("reason", ""))
            zh = _DETAIL_ZH.get(reason)
            if zh:
                values["detail"] = f"{zh}（{values['detail']}）"
        return template[1 if language == "zh" else 0].format_map(_Blank(values))

    def to_json(self, language: str = "en") -> dict[str, Any]:
        """``{"code", "player", "message", "params", "messages": {"en", "zh"}}``.

        ``message`` is in ``language``; ``messages`` has every language.
        """
        messages = {lang: self.message(lang) for lang in LANGUAGES}
        return {
            "code": self.code,
            "player": self.player,
            "message": messages.get(language, messages["en"]),
            "params": dict(self.params),
            "messages": messages,
        }

    def __repr__(self) -> str:
        return f"Alert({self.code!r}, {self.player!r}, {self.params!r})"


class _Blank(dict[str, Any]):
    """format_map values where a missing parameter shows as '?' rather than raising."""

    def __missing__(self, key: str) -> str:
        return "?"
