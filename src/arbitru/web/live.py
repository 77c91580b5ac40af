"""Live updates: after each committed append, "game G changed, seq N" reaches every open page of G (SSE).

Only that notice travels; each page then fetches again what it shows, so a page that reconnects, or a page served
by another worker, misses nothing: the journal stays the only source of truth. :class:`LocalPublisher` serves one
process; :class:`PostgresPublisher` serves several workers over PostgreSQL ``LISTEN/NOTIFY``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Protocol


class Subscription(Protocol):
    async def next(self, timeout: float) -> int | None:
        """The seq of the game's next change, or None when ``timeout`` seconds pass first."""

    def close(self) -> None: ...


class Publisher(Protocol):
    def publish(self, game_id: str, seq: int) -> None:
        """Tell the game's subscribers it changed (callable from any thread)."""

    def subscribe(self, game_id: str) -> Subscription:
        """The game's changes from now on (called in the event loop)."""


class _LocalSubscription:
    def __init__(self, publisher: LocalPublisher, game_id: str, queue_size: int) -> None:
        self.publisher = publisher
        self.game_id = game_id
        self.queue: asyncio.Queue[int] = asyncio.Queue(queue_size)
        self.entry = (asyncio.get_running_loop(), self.queue)

    async def next(self, timeout: float) -> int | None:
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None

    def close(self) -> None:
        with self.publisher._lock:
            self.publisher._subscribers.get(self.game_id, set()).discard(self.entry)


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

    def subscribe(self, game_id: str) -> Subscription:
        sub = _LocalSubscription(self, game_id, self.queue_size)
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add(sub.entry)
        return sub


def _offer(queue: asyncio.Queue[int], seq: int) -> None:
    # a slow page only needs the latest notice: it refetches everything anyway
    if queue.full():
        queue.get_nowait()
    queue.put_nowait(seq)


class PostgresPublisher:
    """Several workers over one PostgreSQL journal: each commit already sends ``NOTIFY`` (the journal does it
    inside the appending transaction, :mod:`arbitru.journal.backends`), so publishing here does nothing; one
    listener thread per worker turns the notices of every worker's commits into local subscribers' updates."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.local = LocalPublisher()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    def publish(self, game_id: str, seq: int) -> None:
        """Nothing to do: the commit announced itself to every worker."""

    def subscribers(self, game_id: str) -> int:
        return self.local.subscribers(game_id)

    def start(self) -> None:
        """Start listening (once per process); returns when the listener is connected or gave up waiting."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._listen, name="arbitru-listen", daemon=True)
                self._thread.start()
        self._ready.wait(10)

    def subscribe(self, game_id: str) -> Subscription:
        self.start()
        return self.local.subscribe(game_id)

    def _listen(self) -> None:
        import psycopg

        from arbitru.journal.backends import listen

        while True:
            try:
                for note in listen(self.dsn, timeout=1.0):
                    self._ready.set()
                    if note is not None:
                        self.local.publish(*note)
            except psycopg.Error:
                # the database restarted or failed over: pages refetch on the next notice, so just reconnect
                time.sleep(1.0)


def publisher_for(db: str) -> Publisher:
    """The publisher that fits the journal's store: in-process for SQLite, LISTEN/NOTIFY for PostgreSQL."""
    from arbitru.journal.backends import PostgresBackend, backend_for

    if isinstance(backend_for(db), PostgresBackend):
        return PostgresPublisher(db)
    return LocalPublisher()
