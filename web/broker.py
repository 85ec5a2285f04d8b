"""Fan-out of live messages to every Server-Sent Events client.

Each client gets its own bounded queue; a client too slow to keep up loses its oldest
messages rather than slowing the game (it still gets the full state with the next one).

>>> broker = Broker()
>>> sub = broker.subscribe()
>>> broker.publish("verdict", {"seq": 1})
1
>>> sub.get(timeout=1).encode()
b'id: 1\\nevent: verdict\\ndata: {"seq": 1}\\n\\n'
>>> broker.unsubscribe(sub)
"""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import threading
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Message:
    """One SSE message."""

    id: int
    event: str
    data: str

    def encode(self) -> bytes:
        # A lone surrogate (only from a database written before they were refused) goes
        # out as its JSON escape instead of cutting every client off.
        text = f"id: {self.id}\nevent: {self.event}\ndata: {self.data}\n\n"
        return text.encode("utf-8", "backslashreplace")


class Subscription:
    """One client's queue."""

    def __init__(self, maxsize: int) -> None:
        self._queue: queue.Queue[Message] = queue.Queue(maxsize)

    def put(self, message: Message) -> None:
        while True:
            try:
                self._queue.put_nowait(message)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._queue.get_nowait()  # drop the oldest

    def get(self, timeout: float) -> Message | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None


class Broker:
    """Publish a message to every current subscriber."""

    def __init__(self, maxsize: int = 256) -> None:
        self._subs: set[Subscription] = set()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.maxsize = maxsize

    def subscribe(self) -> Subscription:
        sub = Subscription(self.maxsize)
        with self._lock:
            self._subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subs.discard(sub)

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subs)

    def publish(self, event: str, data: Any) -> int:
        """Send ``data`` (JSON-encoded) to all; returns how many clients got it."""
        message = Message(next(self._ids), event, json.dumps(data, ensure_ascii=False))
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub.put(message)
        return len(subs)
