"""Live updates: after each committed append, "game G changed, seq N" reaches every open page of G (SSE).

Only that notice travels; each page then fetches again what it shows, so a page that reconnects, or a page served
by another worker, misses nothing: the journal stays the only source of truth. :class:`LocalPublisher` serves one
process; a publisher over PostgreSQL ``LISTEN/NOTIFY`` can take its place with the same two methods.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import Protocol


class Publisher(Protocol):
    def publish(self, game_id: str, seq: int) -> None:
        """Tell the game's subscribers it changed (callable from any thread)."""

    def subscribe(self, game_id: str) -> AsyncIterator[int]:
        """The seqs of the game's changes from now on (in the event loop)."""


class LocalPublisher:
    """In-process publisher: one asyncio queue per subscriber, fed thread-safely."""

    def __init__(self, queue_size: int = 64) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]]] = {}
        self.queue_size = queue_size

    def publish(self, game_id: str, seq: int) -> None:
        with self._lock:
            targets = list(self._subscribers.get(game_id, ()))
        for loop, queue in targets:
            loop.call_soon_threadsafe(_offer, queue, seq)

    def subscribers(self, game_id: str) -> int:
        with self._lock:
            return len(self._subscribers.get(game_id, ()))

    async def subscribe(self, game_id: str) -> AsyncIterator[int]:
        queue: asyncio.Queue[int] = asyncio.Queue(self.queue_size)
        entry = (asyncio.get_running_loop(), queue)
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add(entry)
        try:
            while True:
                yield await queue.get()
        finally:
            with self._lock:
                self._subscribers.get(game_id, set()).discard(entry)


def _offer(queue: asyncio.Queue[int], seq: int) -> None:
    # a slow page only needs the latest notice: it refetches everything anyway
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(seq)
