"""Fan-out of board changes to every open league page (Server-Sent Events).

Each subscriber gets its own bounded queue; a page that stops reading loses old
messages (it re-reads the board when it reconnects) rather than slowing the pushes.

>>> b = Broker(); q = b.subscribe(); b.publish({"table": "t1"}); q.get_nowait()
{'table': 't1'}
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Final

QUEUE_SIZE: Final = 1000


class Broker:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queues: set[queue.Queue[dict[str, Any]]] = set()

    def subscribe(self) -> queue.Queue[dict[str, Any]]:
        q: queue.Queue[dict[str, Any]] = queue.Queue(QUEUE_SIZE)
        with self.lock:
            self.queues.add(q)
        return q

    def unsubscribe(self, q: queue.Queue[dict[str, Any]]) -> None:
        with self.lock:
            self.queues.discard(q)

    def publish(self, message: dict[str, Any]) -> None:
        with self.lock:
            targets = list(self.queues)
        for q in targets:
            try:
                q.put_nowait(message)
            except queue.Full:
                try:  # drop the oldest, keep the newest
                    q.get_nowait()
                    q.put_nowait(message)
                except (queue.Empty, queue.Full):
                    pass

    def __len__(self) -> int:
        with self.lock:
            return len(self.queues)
