"""Live updates: after each committed append, "game G changed, seq N" reaches the open pages of G it concerns (SSE).

Only that notice travels; each page then fetches again what it shows, so a page that reconnects, or a page served
by another worker, misses nothing: the journal stays the only source of truth. :class:`LocalPublisher` serves one
process; :class:`PostgresPublisher` serves several workers over PostgreSQL ``LISTEN/NOTIFY``.

Thousands of phones listen to one game, so a notice is cheap to deliver and wakes only the pages it concerns:

- each notice carries its commit's *audience* (:func:`arbitru.journal.store.audience`): every page, or, for a
  hand-in, the staff's pages (arbiter, desks) and the phone of the player whose slip it is. A slip changes nothing
  the other phones show, so it wakes none of them;
- a page is told at most once per :data:`INTERVAL` (the last seq wins): a storm of slips is a trickle of refetches
  on the arbiter's pages.
"""

from __future__ import annotations

import asyncio
import heapq
import threading
import time
from collections.abc import Callable
from typing import Protocol

from arbitru.journal.store import EVERYONE, SLIPS

#: at most one notice per page per this many seconds
INTERVAL = 1.0
#: the longest an arbiter's action keeps its game's notices back while its answer is sent
HOLD_S = 5.0
#: how often a worker's event loop looks for the pages whose wait ended with nothing to tell (one look for all
#: its pages: ten thousand open streams arm no timer each at every wait)
SWEEP_S = 0.25


class Subscription(Protocol):
    async def next(self, timeout: float) -> int | None:
        """The seq of the game's latest change since the last one returned (at most one per :data:`INTERVAL`),
        or None when ``timeout`` seconds pass first."""

    def close(self) -> None: ...


class Publisher(Protocol):
    def publish(self, game_id: str, seq: int, audience: str = EVERYONE) -> None:
        """Tell the game's subscribers it changed (callable from any thread)."""

    def subscribe(self, game_id: str, player: str = "", staff: bool = False) -> Subscription:
        """The game's changes from now on that concern the page of ``player`` (a phone) or of the staff
        (``staff``: every change), else the public's (called in the event loop)."""

    def heard(self, game_id: str) -> int | None:
        """The last seq of the game that any process's commit announced since this one listens (0: none yet);
        None where nothing is heard of other processes (SQLite: one process writes)."""

    def hold(self, game_id: str) -> Callable[[], None]:
        """From now on the game's notices reach this process's pages only once the returned release is called
        (once; later calls do nothing), or after :data:`HOLD_S` seconds at the latest."""


class _Holds:
    """Games whose notices are kept back (an arbiter's action being answered), and what was kept: one for each
    publisher, under its lock."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.kept: dict[str, list[tuple[str, int, str]]] = {}

    def keep(self, note: tuple[str, int, str]) -> bool:
        """Whether ``note`` is kept back (its game is held)."""
        if note[0] not in self.count:
            return False
        self.kept.setdefault(note[0], []).append(note)
        return True

    def hold(self, lock: threading.Lock, game_id: str, tell: Callable[[str, int, str], None]) -> Callable[[], None]:
        with lock:
            self.count[game_id] = self.count.get(game_id, 0) + 1
        released = False

        def release() -> None:
            nonlocal released
            with lock:
                if released:
                    return
                released = True
                left = self.count[game_id] - 1
                if left:
                    self.count[game_id] = left
                    notes = []
                else:
                    del self.count[game_id]
                    notes = self.kept.pop(game_id, [])
            timer.cancel()  # its thread ends with the answer, not HOLD_S later
            for note in notes:
                tell(*note)

        # a response that was never sent must not silence the game's pages
        timer = threading.Timer(HOLD_S, release)
        timer.daemon = True
        timer.start()
        return release


class _LocalSubscription:
    """One page: the latest seq not yet told, and when it was last told (coalescing)."""

    def __init__(self, publisher: LocalPublisher, game_id: str, player: str, staff: bool, interval: float) -> None:
        self.publisher = publisher
        self.game_id = game_id
        self.player = player
        self.staff = staff
        self.interval = interval
        self.loop = asyncio.get_running_loop()
        self.latest = 0
        self.told = 0
        self.last_told = 0.0
        self.ready = asyncio.Event()
        #: when the wait under way ends with nothing to tell (monotonic; the loop's sweep wakes it then)
        self.deadline = 0.0

    def offer(self, seq: int) -> None:
        if seq > self.latest:
            self.latest = seq
            self.ready.set()

    async def next(self, timeout: float) -> int | None:
        """The latest seq not yet told, or None once ``timeout`` seconds passed first (to within :data:`SWEEP_S`)."""
        if self.latest <= self.told:
            self.ready.clear()
            self.deadline = time.monotonic() + timeout
            self.publisher._due(self)
            await self.ready.wait()  # a change's offer, or the loop's sweep past the deadline
            if self.latest <= self.told:
                return None
        wait = self.last_told + self.interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)  # what arrives meanwhile joins this notice
        self.told, self.last_told = self.latest, time.monotonic()
        return self.told

    def close(self) -> None:
        self.deadline = 0.0
        self.publisher._remove(self)

    def __lt__(self, other: _LocalSubscription) -> bool:  # equal deadlines in a loop's heap: any order
        return id(self) < id(other)


class _Channel:
    """A game's pages by what wakes them."""

    def __init__(self) -> None:
        self.staff: set[_LocalSubscription] = set()
        self.public: set[_LocalSubscription] = set()
        self.players: dict[str, set[_LocalSubscription]] = {}

    def __len__(self) -> int:
        return len(self.staff) + len(self.public) + sum(len(s) for s in self.players.values())

    def concerned(self, audience: str) -> list[_LocalSubscription]:
        if audience == EVERYONE or not audience.startswith(SLIPS):
            return [*self.staff, *self.public, *(s for subs in self.players.values() for s in subs)]
        out = list(self.staff)
        for player in audience.removeprefix(SLIPS).split(","):
            out.extend(self.players.get(player, ()))
        return out


class LocalPublisher:
    """In-process publisher: each page's subscription is told in its event loop, one wake-up per loop per
    notice, fed thread-safely."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, _Channel] = {}
        self.interval = interval
        #: each event loop's pages, swept every :data:`SWEEP_S` while it has any (:meth:`_sweep`)
        self._loops: dict[asyncio.AbstractEventLoop, set[_LocalSubscription]] = {}
        #: each event loop's waits by deadline (a heap, touched only in its loop): a sweep looks at those due,
        #: not at ten thousand pages
        self._deadlines: dict[asyncio.AbstractEventLoop, list[tuple[float, _LocalSubscription]]] = {}
        self._holds = _Holds()

    def heard(self, game_id: str) -> int | None:
        return None

    def hold(self, game_id: str) -> Callable[[], None]:
        return self._holds.hold(self._lock, game_id, self.publish)

    def publish(self, game_id: str, seq: int, audience: str = EVERYONE) -> None:
        with self._lock:
            if self._holds.keep((game_id, seq, audience)):
                return
        self._deliver(game_id, seq, audience)

    def _deliver(self, game_id: str, seq: int, audience: str) -> None:
        """The notice offered to the pages it concerns, in their event loops."""
        with self._lock:
            channel = self._games.get(game_id)
            targets = channel.concerned(audience) if channel is not None else []
        by_loop: dict[asyncio.AbstractEventLoop, list[_LocalSubscription]] = {}
        for sub in targets:
            by_loop.setdefault(sub.loop, []).append(sub)
        for loop, subs in by_loop.items():
            loop.call_soon_threadsafe(_offer, subs, seq)

    def subscribers(self, game_id: str) -> int:
        with self._lock:
            channel = self._games.get(game_id)
            return len(channel) if channel is not None else 0

    def subscribe(self, game_id: str, player: str = "", staff: bool = False) -> Subscription:
        sub = _LocalSubscription(self, game_id, player, staff, self.interval)
        with self._lock:
            mine = self._loops.get(sub.loop)
            if mine is None:
                mine = self._loops[sub.loop] = set()
                sub.loop.call_later(SWEEP_S, self._sweep, sub.loop)
            mine.add(sub)
            channel = self._games.setdefault(game_id, _Channel())
            if staff:
                channel.staff.add(sub)
            elif player:
                channel.players.setdefault(player, set()).add(sub)
            else:
                channel.public.add(sub)
        return sub

    def _due(self, sub: _LocalSubscription) -> None:
        """In its loop: ``sub`` waits until its deadline (a wait that ends earlier leaves its entry, passed over)."""
        heapq.heappush(self._deadlines.setdefault(sub.loop, []), (sub.deadline, sub))

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        """In ``loop``: its pages whose wait passed its deadline are woken (they tell nothing); again in
        :data:`SWEEP_S` while the loop has pages."""
        now = time.monotonic()
        with self._lock:
            if not self._loops.get(loop):
                self._loops.pop(loop, None)
                self._deadlines.pop(loop, None)
                return
        heap = self._deadlines.get(loop, [])
        while heap and heap[0][0] <= now:
            deadline, sub = heapq.heappop(heap)
            if sub.deadline == deadline:  # still that wait (not told since, nor closed)
                sub.deadline = 0.0
                sub.ready.set()
        loop.call_later(SWEEP_S, self._sweep, loop)

    def _remove(self, sub: _LocalSubscription) -> None:
        with self._lock:
            mine = self._loops.get(sub.loop)
            if mine is not None:
                mine.discard(sub)
            channel = self._games.get(sub.game_id)
            if channel is None:
                return
            channel.staff.discard(sub)
            channel.public.discard(sub)
            mine = channel.players.get(sub.player)
            if mine is not None:
                mine.discard(sub)
                if not mine:
                    del channel.players[sub.player]
            if not len(channel):
                del self._games[sub.game_id]


def _offer(subs: list[_LocalSubscription], seq: int) -> None:
    for sub in subs:
        sub.offer(seq)


class PostgresPublisher:
    """Several workers over one PostgreSQL journal: each commit already sends ``NOTIFY`` with its audience (the
    journal does it inside the appending transaction, :mod:`arbitru.journal.backends`), so publishing here does
    nothing; one listener thread per worker turns the notices of every worker's commits into local
    subscribers' updates."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.local = LocalPublisher()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        #: each game's last seq announced by any worker's commit (a group commit goes at once when it is current)
        self._heard: dict[str, int] = {}
        self._holds = _Holds()

    def publish(self, game_id: str, seq: int, audience: str = EVERYONE) -> None:
        """Nothing to do: the commit announced itself to every worker."""

    def heard(self, game_id: str) -> int | None:
        self._begin()
        if not self._ready.is_set():  # not listening (yet): nothing known, and no waiting for it here
            return None
        with self._lock:
            return self._heard.get(game_id, 0)

    def subscribers(self, game_id: str) -> int:
        return self.local.subscribers(game_id)

    def hold(self, game_id: str) -> Callable[[], None]:
        # the commit's own NOTIFY may reach the listener before the committing thread returns: held from before
        return self._holds.hold(self._lock, game_id, self.local.publish)

    def start(self) -> None:
        """Start listening (once per process); returns when the listener is connected or gave up waiting."""
        self._begin()
        self._ready.wait(10)

    def _begin(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._listen, name="arbitru-listen", daemon=True)
                self._thread.start()

    def subscribe(self, game_id: str, player: str = "", staff: bool = False) -> Subscription:
        self.start()
        return self.local.subscribe(game_id, player, staff)

    def _hear(self, note: tuple[str, int, str]) -> None:
        """A commit's notice (any worker's), handed on to this worker's pages unless its game is held."""
        with self._lock:
            self._heard[note[0]] = max(note[1], self._heard.get(note[0], 0))
            if self._holds.keep(note):
                return
        self.local.publish(*note)

    def _listen(self) -> None:
        import psycopg

        from arbitru.journal.backends import listen

        while True:
            try:
                for note in listen(self.dsn, timeout=1.0):
                    self._ready.set()
                    if note is not None:
                        self._hear(note)
            except psycopg.Error:
                # the database restarted or failed over: pages refetch on the next notice, so just reconnect
                time.sleep(1.0)


def publisher_for(db: str) -> Publisher:
    """The publisher that fits the journal's store: in-process for SQLite, LISTEN/NOTIFY for PostgreSQL."""
    from arbitru.journal.backends import PostgresBackend, backend_for

    if isinstance(backend_for(db), PostgresBackend):
        return PostgresPublisher(db)
    return LocalPublisher()
