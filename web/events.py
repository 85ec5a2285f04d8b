"""Check an event posted to ``/api/events`` against the DESIGN.md vocabulary.

The tracker judges whether an event is *legal*; this module only refuses what is not
an event at all (wrong shape, unknown type, a field of the wrong kind, a card name that
does not exist), so that such input gets a 400 and never reaches the game or the log.

>>> validate_event({"type": "play", "card": "red-7"})
{'type': 'play', 'card': 'red-7'}
>>> validate_event({"type": "jump"})
Traceback (most recent call last):
...
web.events.EventError: unknown event type 'jump'; expected one of: catch, challenge, \
color, draw, end-round, flip, pass, play, round, undo, uno
"""

from __future__ import annotations

from typing import Any

from tracker.cards import COLORS as COLORS  # re-exported: the card names live in tracker
from tracker.cards import FACES
from tracker.events import EventError as TrackerEventError
from tracker.events import parse_event

CARDS = frozenset(FACES)
# Keys a client may attach that are not part of the event (kept out of the log).
ENVELOPE = frozenset({"t", "source", "client_id"})


class EventError(ValueError):
    """The posted body is not a DESIGN.md event; the message says why."""


def validate_event(body: Any) -> dict[str, Any]:
    """Return the event (a clean copy) or raise :class:`EventError`."""
    try:
        parse_event(body, strict=True, ignore=ENVELOPE)  # the tracker's parser
    except TrackerEventError as error:
        raise EventError(str(error)) from None
    return {k: v for k, v in body.items() if k not in ENVELOPE}
