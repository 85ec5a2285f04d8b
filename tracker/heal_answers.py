"""What the healer answers: :class:`Healed` (what one input did: the events applied,
inferred ones included, and the verdict-like answer) and :class:`AskReferee` (the one
alert that asks the referee which explanation is right). Used by :mod:`tracker.heal`.

>>> from tracker.heal_options import Option
>>> ask = AskReferee("Bob", [Option("pass", [{"type": "pass", "player": "Ann"}], 0.25)], 1)
>>> ask.code, ask.params["statement"], ask.params["others"]
('ask-referee', 'Ann passed', '')
"""

from __future__ import annotations

import json
from typing import Any, Final

from tracker.heal_options import Option
from tracker.messages import Alert
from tracker.verdict import Verdict

Event = dict[str, Any]

#: The code of the alert that asks the referee.
ASK: Final = "ask-referee"


class AskReferee(Alert):
    """The alert that asks the referee: a :class:`tracker.messages.Alert` of code
    ``ask-referee``, its sentence from the templates of :mod:`tracker.messages`.

    ``params``: ``question`` (an id, for :meth:`tracker.heal.Healer.resolve`) and ``options``
    (``index``, ``en``, ``zh``: what each option says happened; 0 is the one applied),
    plus the template's texts (``question_text``, ``statement``, ``others``, each with
    its ``_zh``).
    """

    def __init__(self, player: str | None, options: list[Option], question_id: int) -> None:
        texts = [o.texts() for o in options]
        en_others = "; ".join(t[1] for t in texts[1:])
        zh_others = "；".join(t[3] for t in texts[1:])
        labels = [{"index": i, "en": t[1], "zh": t[3]} for i, t in enumerate(texts)]
        params: dict[str, Any] = {
            "question": question_id,
            "options": labels,
            "question_text": texts[0][0],
            "question_text_zh": texts[0][2],
            "statement": texts[0][1],
            "statement_zh": texts[0][3],
            "others": f" Or: {en_others}." if en_others else "",
            "others_zh": f"也可能：{zh_others}。" if zh_others else "",
            # True: option 0 is the refusal as judged (nothing was applied for it).
            "refused": options[0].as_judged is not None,
        }
        # Refused as judged, unless the referee says otherwise.
        variant = "as-judged" if options[0].as_judged is not None else None
        super().__init__(ASK, player, params, variant)

    def __repr__(self) -> str:
        return f"AskReferee({self.player!r}, {self.params['options']!r})"


class Healed:
    """What one input did: ``steps`` (each event applied to the game, with its verdict,
    in order: store them all) and the verdict-like answer for the input itself."""

    def __init__(self, steps: list[tuple[Event, Verdict]], final: Verdict, ok: bool) -> None:
        self.steps = steps
        self.ok = ok
        self.seq = final.seq
        self.state = final.state
        self.alerts: list[Any] = list(final.alerts)
        self.extra = final.extra  # what an end-round verdict adds
        self.kind: str | None = None  # the explanation applied, when one was

    @property
    def inferred(self) -> list[Event]:
        return [e for e, _ in self.steps if e.get("inferred")]

    @property
    def codes(self) -> list[str]:
        return [a.code for a in self.alerts]

    def to_json(self, language: str = "en") -> dict[str, Any]:
        out = {
            "seq": self.seq,
            "ok": self.ok,
            "alerts": [a.to_json(language) for a in self.alerts],
            "state": self.state,
        }
        if self.extra:
            out.update(self.extra)
        if self.kind is not None:
            out["healed"] = self.kind
            out["inferred"] = self.inferred
        return out

    def dumps(self, language: str = "en") -> str:
        """The verdict as one JSON line (like :meth:`Verdict.dumps`)."""
        return json.dumps(self.to_json(language), ensure_ascii=False)

    def __repr__(self) -> str:
        return f"Healed(ok={self.ok}, alerts={self.codes}, inferred={self.inferred})"


__all__ = ["ASK", "AskReferee", "Healed"]
