"""A damaged journal is never served as if whole: which games' events cannot all be read, remembered per game in
this process, and the door that keeps writes off them.

The server's start compares the event index with the event table (an index page cut short hides events without
any error) and runs SQLite's ``quick_check``; when that fails, every game is checked at once. A game is checked
deeply (every event read) the first time a request names it, when a request on it fails with a journal error,
every :data:`RECHECK_S` seconds while it is known damaged (against the table too) and every
:data:`RECHECK_SOUND_S` seconds while sound (that one aside, in a thread of its own that no request waits for,
paced to :data:`RECHECK_SHARE` of the worker's time: a national game's 150,000 events take most of a second of
Python, which ten thousand phones waiting for their verdict must not lose); besides, a read or a write walks its index
(:meth:`~arbitru.journal.store.Journal.game_damage`) at most every :data:`LOOK_S` seconds per game: the walk
grows with the game (150,000 events in a national game of 10,000 phones), and thousands of phones refetching a
page or handing in their slips in the same second must not walk it each. A damaged game's pages carry the banner
of :func:`banner`; its writes answer 503 with the same words, and nothing is stored.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

from starlette.concurrency import run_in_threadpool
from starlette.responses import HTMLResponse, JSONResponse

from arbitru.errors import GameNotFound, JournalError
from arbitru.journal.store import GameDamage, Journal
from arbitru.web import i18n
from arbitru.web.security import ASGIApp, Receive, Scope, Send

log = logging.getLogger("arbitru.web")

RECHECK_S = 10.0
#: a sound game is read through again this often (damage that appears while the server runs)
RECHECK_SOUND_S = 60.0
#: the share of the worker's time a sound game's read-through takes at most (it sleeps between its stretches)
RECHECK_SHARE = 0.1
#: a request on a game found sound by its index walk less than this ago walks it no more
LOOK_S = 1.0
#: the paths that name one game: its pages, its forms, its API
GAME_PATH = re.compile(r"^/(?:api/)?(?:games|train/anticipation|train)/(?P<gid>[^/]+)")
NOT_GAMES = {"new", "anticipation"}
READS = {"GET", "HEAD"}
#: what a game serves as a file, where no banner can be shown
FILES = re.compile(r"/download/|/forms/|\.pdf$")

REPAIR = (
    "Nothing can be entered into this game until it is repaired. On the server, run 'arbitru journal check' on "
    "the journal file to see what is damaged, then move the sound games to a new journal with 'arbitru journal "
    "copy' and bring this game back from a copy or an export ('arbitru journal import')."
)
TITLE = "This game's journal is damaged"


class DamageWatch:
    """Per game of the journal at ``address``: (when checked, what is damaged or None), in this process."""

    def __init__(self, address: str) -> None:
        self.address = address
        self._known: dict[str, tuple[float, GameDamage | None]] = {}
        #: per sound game: when its index was last walked without finding anything
        self._looked: dict[str, float] = {}
        self._lock = threading.Lock()
        #: per game: held by the one thread reading it through (:meth:`of`)
        self._readers: dict[str, threading.Lock] = {}
        #: per game: its last read-through aside (:meth:`_read_through_aside`)
        self._aside: dict[str, threading.Thread] = {}
        #: per game: set when a request waits for its last read-through aside, which then sleeps no more
        self._hurry: dict[str, threading.Event] = {}
        #: per game: when its last read-through aside failed (its journal would not open)
        self._failed: dict[str, float] = {}
        #: held by the one read-through aside under way in this process, whatever its game
        self._one_aside = threading.Lock()

    def startup(self, journal: Journal) -> None:
        """At the server's start: the event index against the event table (an index page cut short hides the
        tail of a game without an error), then SQLite's quick check; when it fails, every game is checked now
        rather than on its first request."""
        short = journal.games_short_of_their_table()
        with self._lock:
            self._known.update({gid: (time.monotonic(), what) for gid, what in short.items()})
        if journal.integrity(quick=True):
            for gid in journal.game_ids():
                if gid not in short:
                    self.check(journal, gid)

    def check(self, journal: Journal, gid: str, *, against_table: bool = False,
              pace: Callable[[], None] | None = None) -> GameDamage | None:
        """Check the game deeply now and remember the answer; ``against_table``: its index against the table
        too (a pass over the whole table, so only for a game already suspected); ``pace``: as
        :meth:`Journal.game_damage`'s."""
        started = time.monotonic()
        found = journal.game_damage(gid, deep=True, pace=pace)
        if found is None and against_table:
            found = journal.games_short_of_their_table().get(gid)
        with self._lock:
            known = self._known.get(gid)
            if found is None and known is not None and known[1] is not None and known[0] >= started:
                # damage another look found while this one read (a paced read-through's snapshot is seconds
                # old): the older snapshot's "sound" does not clear it
                return known[1]
            self._known[gid] = (time.monotonic(), found)
        return found

    def of(self, journal: Journal, gid: str) -> GameDamage | None:
        """What is damaged in the game, or None: the remembered answer, checked again when due. One thread at a
        time reads a game through (it takes seconds for a national game's 150,000 events): a request that finds
        it under way waits for its answer when none is known yet, else goes on with the last answer."""
        with self._lock:
            known = self._known.get(gid)
        if known is None:
            if not _held(journal, gid):  # an address's made-up game: nothing to watch, nothing remembered
                return None
            with self._reading(gid):
                with self._lock:
                    known = self._known.get(gid)
                return self.check(journal, gid) if known is None else known[1]
        age = time.monotonic() - known[0]
        if known[1] is not None:
            if age > RECHECK_S:
                with self._alone(gid) as mine:
                    if mine:
                        return self.check(journal, gid, against_table=True)
            return known[1]
        if age > RECHECK_SOUND_S:
            self._read_through_aside(gid)
        walked = journal.game_damage(gid)
        if walked is not None:
            with self._alone(gid) as mine:
                if mine:
                    return self.check(journal, gid)
            # another thread reads it through (a paced read-through takes seconds): the walk's answer meanwhile
            with self._lock:
                self._known[gid] = (time.monotonic(), walked)
            return walked
        with self._lock:
            self._looked[gid] = time.monotonic()
        return None

    def _read_through_aside(self, gid: str) -> None:
        """A sound game's read-through, due: in a thread of its own over its own connection, paced
        (:class:`_Paced`); unless one is under way (of any game: one at a time per process, so that their shares
        do not add up). What it finds counts from its end; meanwhile the game's
        requests go on with their index walk, as those did that met another's read-through."""
        with self._lock:
            if time.monotonic() - self._failed.get(gid, -RECHECK_SOUND_S) < RECHECK_SOUND_S:
                return  # its last one could not open the journal: a minute later, not at every look
        if not self._one_aside.acquire(blocking=False):
            return  # another game's is under way: their shares would add up; a later look reads this one
        lock = self._reading(gid)
        if not lock.acquire(blocking=False):
            self._one_aside.release()
            return
        hurry = threading.Event()

        def read() -> None:
            try:
                with Journal(self.address, actor="") as j:
                    self.check(j, gid, pace=_Paced(RECHECK_SHARE, hurry))
            except Exception:  # the journal would not open: the next request past the minute tries again
                log.exception("the read-through of game %s failed", gid)
                with self._lock:
                    self._failed[gid] = time.monotonic()
            finally:
                lock.release()
                self._one_aside.release()

        thread = threading.Thread(target=read, name=f"arbitru-read-through-{gid}", daemon=True)
        with self._lock:
            self._aside[gid] = thread
            self._hurry[gid] = hurry
        try:
            thread.start()
        except RuntimeError:  # no thread to be had: the lock its end would release is released now
            log.exception("the read-through of game %s could not start", gid)
            with self._lock:
                self._aside.pop(gid, None)
                self._failed[gid] = time.monotonic()
            lock.release()
            self._one_aside.release()

    def read_through_ended(self, gid: str, timeout: float | None = None) -> bool:
        """Whether no read-through of the game is under way aside (waiting for it up to ``timeout`` seconds)."""
        with self._lock:
            thread = self._aside.get(gid)
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def recheck(self, journal: Journal, gid: str) -> GameDamage | None:
        """After a request on the game failed with a journal error: read it through, against the table too (one
        thread; those failing meanwhile wait for its answer)."""
        if not _held(journal, gid):
            return None
        with self._alone(gid) as mine:
            if mine:
                return self.check(journal, gid, against_table=True)
        with self._lock:
            hurry = self._hurry.get(gid)
        if hurry is not None:
            hurry.set()  # a read-through aside under way reads on unpaced: this request waits for it
        with self._reading(gid):
            return self.known(gid)

    def _reading(self, gid: str) -> threading.Lock:
        """The game's lock for reading it through."""
        with self._lock:
            return self._readers.setdefault(gid, threading.Lock())

    @contextmanager
    def _alone(self, gid: str) -> Iterator[bool]:
        """Whether this thread has the game's reading-through (False: another thread is at it), held for the
        block."""
        lock = self._reading(gid)
        mine = lock.acquire(blocking=False)
        try:
            yield mine
        finally:
            if mine:
                lock.release()

    def sound_lately(self, gid: str) -> bool:
        """Whether the game was found sound less than :data:`LOOK_S` ago (a request needs no look now)."""
        with self._lock:
            known, looked = self._known.get(gid), self._looked.get(gid, 0.0)
        return known is not None and known[1] is None and time.monotonic() - max(known[0], looked) < LOOK_S

    def sound_when_last_looked(self, gid: str) -> bool:
        """Whether the game's last known answer is that it is sound (however long ago)."""
        with self._lock:
            known = self._known.get(gid)
        return known is not None and known[1] is None

    def known(self, gid: str) -> GameDamage | None:
        """The damage remembered for the game, without checking."""
        with self._lock:
            known = self._known.get(gid)
        return known[1] if known else None


class _Paced:
    """A read-through's pace: called between its stretches, sleeps so that its thread's time spent reading is at
    most ``share`` of the time (Python holds one thread at a time: the event loop gets the rest)."""

    def __init__(self, share: float, hurry: threading.Event | None = None) -> None:
        self.rest = 1 / share - 1
        self.since = time.thread_time()
        #: once set (a request waits for this read), no more sleep
        self.hurry = hurry

    def __call__(self) -> None:
        rest = (time.thread_time() - self.since) * self.rest
        if self.hurry is None:
            time.sleep(rest)
        elif not self.hurry.is_set():
            self.hurry.wait(rest)
        self.since = time.thread_time()


def _held(journal: Journal, gid: str) -> bool:
    """Whether the journal holds game ``gid`` (its row, damaged or not): a game id any address may name is watched
    only once it names a game, so a stranger's made-up ids leave no lock or answer behind each."""
    try:
        journal.game(gid)
    except GameNotFound:
        return False
    except JournalError:
        return True  # its row cannot be read: a game to check
    return True


def game_of(path: str) -> str | None:
    m = GAME_PATH.match(path)
    return m["gid"] if m and m["gid"] not in NOT_GAMES else None


def banner(what: GameDamage, _: i18n.Gettext) -> dict[str, str]:
    """The banner's words in the page's language: what is damaged (a count, or where reading fails in the
    library's own words, SQLite's error included) and how to repair it."""
    if what.detail:
        said = _("its events cannot all be read: %(detail)s", detail=what.detail)
    else:
        said = _("%(missing)s of its %(total)s events cannot be read", missing=what.missing, total=what.total)
    return {"title": _(TITLE), "what": said, "repair": _(REPAIR)}


def refusal(what: GameDamage) -> str:
    """The 503 message of a write to a damaged game (the API's, in English like its other errors)."""
    return f"{TITLE}: {what}. {REPAIR}"


class Guarded(Protocol):
    """What the guard needs of the app's state (:class:`arbitru.web.house.Web`)."""

    damage: DamageWatch

    def journal(self, actor: str) -> AbstractContextManager[Journal]: ...

    def damage_page(self, scope: Scope, what: GameDamage) -> HTMLResponse: ...


class DamageGuard:
    """Before a request that names a game: look at its damage; a write to a damaged game, any API request on it
    and any file of it answer 503 and reach nothing else."""

    def __init__(self, app: ASGIApp, web: Guarded) -> None:
        self.app = app
        self.web = web
        #: per game: the look under way in this worker's event loop, which every request meanwhile shares
        self._looks: dict[str, asyncio.Future[GameDamage | None]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        gid = game_of(scope["path"]) if scope["type"] == "http" else None
        if gid is None:
            await self.app(scope, receive, send)
            return

        watch = self.web.damage
        if watch.sound_lately(gid):
            await self.app(scope, receive, send)
            return
        under_way = self._looks.get(gid)
        if under_way is not None and under_way.get_loop() is not asyncio.get_running_loop():
            under_way = None
        api = scope["path"].startswith("/api/")
        # a page can be drawn under the banner; the API and files (GCG, CSV, PDF) have none: nothing of them
        page = scope["method"] in READS and not api and not FILES.search(scope["path"])
        if page and under_way is not None and watch.sound_when_last_looked(gid):
            # a thousand phones refetching at once wait for no look: one is under way, the last found it sound (a
            # page is drawn under a damaged game's banner anyway); a write, the API and a file wait for its answer
            await self.app(scope, receive, send)
            return
        what = await asyncio.shield(under_way if under_way is not None else self._look(gid))
        if what is None or page:
            await self.app(scope, receive, send)
            return
        if api:
            response: JSONResponse | HTMLResponse = JSONResponse(
                {"error": refusal(what), "stored": False}, status_code=503
            )
        else:
            response = self.web.damage_page(scope, what)
        await response(scope, receive, send)

    def _look(self, gid: str) -> asyncio.Future[GameDamage | None]:
        """The game's look (:meth:`DamageWatch.of`) in a worker thread, kept as under way until it ends."""

        def look() -> GameDamage | None:
            with self.web.journal("") as j:
                return self.web.damage.of(j, gid)

        task = asyncio.ensure_future(run_in_threadpool(look))
        self._looks[gid] = task

        def ended(done: asyncio.Future[GameDamage | None]) -> None:
            if self._looks.get(gid) is done:
                self._looks.pop(gid, None)  # another loop's thread may have taken its place meanwhile
            if not done.cancelled():
                done.exception()  # its failure is the waiting request's to raise, not the loop's to log

        task.add_done_callback(ended)
        return task
