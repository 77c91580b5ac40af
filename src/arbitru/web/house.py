"""The web's house: what every page needs and no page owns — the app's state (:class:`Web`: the journal's
address, the secret, the publisher, word lists, the games' writers), who asks (:func:`identity`, :func:`client`,
:func:`login_as`) and the dispatch of one URL to each format's page (:func:`by_format`). It imports no route.

Each request opens its own :class:`~arbitru.journal.store.Journal` connection with the actor of who asks
(``arbiter``, ``desk:<name>``, ``player:<number>``); every action goes through the formats' sessions, so the web
adds no rule of its own. After a committed append, :mod:`arbitru.web.live` tells the game's open pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
import re
import secrets
import threading
import time
import unicodedata
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from arbitru import figures, formats
from arbitru.engine.lexicon import Lexicon
from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.game import forget_game as forget_anticipation_game
from arbitru.formats.duplicate.game import Game, Player, Session
from arbitru.journal.store import GameDamage, Journal, check_actor
from arbitru.journal.training import open_store, store_address
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import BEFORE_COLON
from arbitru.textinput import shown_raw
from arbitru.web import auth, i18n, phone_lines, security
from arbitru.web.damage import DamageWatch, banner, game_of
from arbitru.web.intake import Intake
from arbitru.web.live import Publisher
from arbitru.web.security import Scope

Endpoint = Callable[[Request], Awaitable[Response]]
#: what a live part may answer from memory, in the event loop: its HTML; a computation under way that it waits
#: for (then asks again); or None (drawn in a worker thread)
Ready = str | Future[Any] | None


class LivePart:
    """A page's live part: its HTML for this request (who asks, its query), drawn in a worker thread (``draw``);
    it refuses with :class:`HTTPException`. Refetched at its own URL (:func:`live_endpoint`) or pushed on the page's
    open stream (:meth:`Web.push`). ``ready``: the same HTML when what it is drawn from is in memory already (no
    journal, no waiting), answered in the event loop: ten thousand phones told of one change then cost no trip to
    a thread each, and none queues behind another's drawing."""

    def __init__(self, draw: Callable[[Request], str], ready: Callable[[Request], Ready] | None = None) -> None:
        self.draw = draw
        self.ready = ready

    def __call__(self, request: Request) -> str:
        return self.draw(request)


#: seconds a reader's journal position is taken without asking the journal again (see Web.position)
POSITION_S = 0.5

#: the training games (``/train``, ``/train/anticipation``) a worker keeps in memory at most (their states, parts,
#: results): beyond it, the least recently used one's are forgotten (:meth:`Web.used_training`), and replayed from
#: the training store on its next request. Anyone may start training games (10 per address every 10 minutes, so
#: many addresses are many games): kept for ever, every game a worker ever served stayed in its memory (56 KB of
#: RSS per game after one move, bench/web_training_memory.py; more with its parts). 200 is 20 addresses' whole share
#: of a window, more trainees than play at one moment in a club; 200 games after one move are about 11 MB; a
#: forgotten game's next request replays its few dozen events (milliseconds). The hall's games are never forgotten
#: so.
TRAINING_KEPT = 200
#: the scope key of the seq a page's stream was last told (its pushed part is drawn at that position at least)
TOLD = "arbitru.told"
T = TypeVar("T")


def _recent(known: tuple[float, int], now: float | None = None) -> bool:
    """Whether a position taken at ``known[0]`` (monotonic) is still taken as it is (:data:`POSITION_S`)."""
    return (time.monotonic() if now is None else now) - known[0] < POSITION_S


HERE = Path(__file__).parent
#: where a kept public page has its visitor's CSRF token (:meth:`Web.public_page`): no page holds it otherwise
_CSRF_SLOT = "csrf-slot-" + secrets.token_hex(16)




@dataclass
class Web:
    """What every request needs: the journal's address, the secret, the publisher, loaded word lists."""

    db: str
    secret: bytes
    publisher: Publisher
    base_url: str = ""
    #: stand-in word lists the pages offer besides the installed ones (``synthetic:N``): a test switch only
    test_lists: tuple[str, ...] = ()
    limits: security.Limits = field(default_factory=security.Limits)
    #: the hall's language the server was started with (``arbitru --lang ro serve``): the pages no game fixes the
    #: language of are in it; None: in the visitor's browser's (:func:`page_language`)
    lang: str | None = None
    #: the training games this worker keeps in memory at most (:data:`TRAINING_KEPT`)
    training_kept: int = TRAINING_KEPT
    templates: Environment = field(init=False)
    intake: Intake = field(init=False)
    _lexicons: dict[tuple[str, str], Lexicon] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    #: the threads that draw the live parts pushed on open streams when memory cannot answer them (the first of a
    #: journal position computes what all share; the others wait for it, then answer from memory in the event
    #: loop): apart from the request threads, so ten thousand phones told of a change never hold up a request
    _pusher: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1),
                                                   thread_name_prefix="arbitru-push"))
    _local: threading.local = field(default_factory=threading.local)
    #: per game: the writers' lock and the state they last left (folded forward, never replayed per request)
    _writers: dict[str, tuple[threading.Lock, list[Game | None]]] = field(default_factory=dict)
    #: per game: player code -> number
    _codes: dict[str, dict[str, str]] = field(default_factory=dict)
    #: players' sessions found open on the server, and until when (monotonic) this worker believes them
    players_seen: dict[str, float] = field(default_factory=dict)
    #: which games' events cannot all be read (their pages carry a banner, their writes answer 503)
    damage: DamageWatch = field(init=False)
    #: per game: what its pages computed at one journal position (seq -> key -> value), the latest seq only
    _memo: dict[str, tuple[int, dict[Hashable, Future[Any]]]] = field(default_factory=dict)
    #: per game and key: a value and the version it was computed at (:meth:`kept`)
    _kept: dict[tuple[str, Hashable], tuple[int, Any]] = field(default_factory=dict)
    #: the computations under way that pages wait for, each awaitable once in the event loop (:meth:`_awaited`)
    _waits: weakref.WeakKeyDictionary[Future[Any], asyncio.Future[Any]] = field(
        default_factory=weakref.WeakKeyDictionary)
    #: per game and key: a value folded forward to a journal position, and that seq (:meth:`forward`)
    _forward: dict[tuple[str, Hashable], tuple[int, Any]] = field(default_factory=dict)
    #: per game: its journal position as readers last took it (monotonic time, seq): :meth:`position`
    _positions: dict[str, tuple[float, int]] = field(default_factory=dict)
    #: per game: the question of its position under way (:meth:`asked_position`)
    _asking: dict[str, Future[int]] = field(default_factory=dict)
    #: per game: the latest state folded for readers (copied before folding further: readers share each one)
    _read: dict[str, Game] = field(default_factory=dict)
    #: the training games this worker keeps something of, least recently used first (:meth:`used_training`)
    _training: OrderedDict[str, None] = field(default_factory=OrderedDict)
    #: the training store's journal as its connections name it (the anticipation games' memory is kept under it)
    _training_path: str = ""

    def __post_init__(self) -> None:
        self.intake = Intake(self)
        self.damage = DamageWatch(self.db)
        self.training_store = store_address(self.db)
        self.templates = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(default=True),
            auto_reload=False,  # templates do not change under a running server: no stat of the file per render
            finalize=said_in_page_language,
        )
        self.templates.filters["said"] = said_each
        self.templates.filters["rack_shown"] = rack_shown
        self.templates.globals["own_html"] = own_lines_html
        self.templates.filters["cues_said"] = cues_said
        self.templates.filters["actor"] = i18n.actor
        # figures as the page's language writes them (arbitru.figures): {{ n|number }}, {{ x|percent }}, {{ d|date }}
        self.templates.filters["number"] = number_in_page_language
        self.templates.filters["percent"] = percent_in_page_language
        self.templates.filters["date"] = date_in_page_language
        self.templates.filters["moment"] = moment_in_page_language
        # a label and its colon as the page's language writes them ("Fin de la partie : …"): {{ _('Game over')|colon }}
        self.templates.filters["colon"] = colon_in_page_language
        self.templates.globals["option"] = i18n.option
        self.templates.globals["keep"] = i18n.keep  # a form keeps the language its reader asked for (?lang=)

    def warm(self) -> None:
        """What a server's worker would otherwise pay at its first close, while ten thousand phones wait: every
        template compiled, every language's catalog and figure signs read (about 1.7 s at the worker's start)."""
        for name in self.templates.list_templates(extensions=["html"]):
            self.templates.get_template(name)
        for lang in i18n.LANGUAGES:
            i18n.gettext_for(lang)("move")
            figures.number(1234, lang)

    @contextmanager
    def journal(self, actor: str) -> Iterator[Journal]:
        """The connection of this request: each worker thread has its own (SQLite connections are not shared
        between threads), reused by the requests it serves one after another, with the actor of who asks."""
        j: Journal | None = getattr(self._local, "journal", None)
        if j is None or j.in_transaction:
            j = Journal(self.db, actor=actor)
            self._local.journal = j
        j.actor = check_actor(actor)
        j.on_commit = self._committed
        yield j

    def _committed(self, game_id: str, seq: int, audience: str) -> None:
        self.saw(game_id, seq)
        self.publisher.publish(game_id, seq, audience)

    @contextmanager
    def answered_first(self, game_id: str) -> Iterator[Callable[[Response], Response]]:
        """Within the block, the game's notices are held (:meth:`Publisher.hold`: its commits', and on
        PostgreSQL those any worker's commits announce); ``answer(response)`` sends the response, then tells the
        pages (however the sending ends); if no answer was handed one, they are told at the block's end. A close
        wakes ten thousand phones, whose shared work would otherwise delay the arbiter's own answer."""
        release = self.publisher.hold(game_id)
        answered = False

        def answer(response: Response) -> Response:
            nonlocal answered
            answered = True
            return _ThenTell(response, release)

        try:
            yield answer
        finally:
            if not answered:
                release()

    def position(self, journal: Journal, game_id: str) -> int:
        """The game's journal position (its last seq) as readers take it: asked of the journal at most every
        :data:`POSITION_S` seconds per game in this worker, and moved on at once by every commit and notice this
        worker sees (:meth:`saw`), so a page told of a change always reads it."""
        now = time.monotonic()
        with self._lock:
            known = self._positions.get(game_id)
        if known is not None and _recent(known, now):
            return known[1]
        seq = journal.last_seq(game_id)
        self.saw(game_id, seq, now)
        return seq

    def saw(self, game_id: str, seq: int, now: float | None = None) -> None:
        """The game is at ``seq`` at least (a commit, a notice from another worker, a look at the journal)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            known = self._positions.get(game_id)
            if known is None or known[1] <= seq:
                self._positions[game_id] = (now, seq)

    @contextmanager
    def training(self, actor: str, game_id: str = "") -> Iterator[Journal]:
        """The training games' store (:mod:`arbitru.journal.training`), never the hall's journal: a connection
        per worker thread, as :meth:`journal`. ``game_id``: the training game the block reads or writes, which
        is then this worker's most recently used (:meth:`used_training`): every use of a training game's state
        in this worker is inside such a block."""
        j: Journal | None = getattr(self._local, "training", None)
        if j is None or j.in_transaction:
            j = open_store(self.training_store, actor)
            self._local.training = j
            self._training_path = j.path
        j.actor = check_actor(actor)
        try:
            yield j
        finally:
            if game_id:  # at the block's end: whatever it put in memory is counted (even if it was forgotten meanwhile)
                self.used_training(game_id)

    def used_training(self, game_id: str) -> None:
        """Training game ``game_id`` was just used: it is this worker's most recently used; beyond
        :attr:`training_kept` of them, the least recently used are forgotten (:meth:`forget`), but never one a
        writer holds (skipped: in use, it is kept). Called at the end of each use (:meth:`training`), after what
        the use put in memory: a game forgotten meanwhile is counted again, so nothing it keeps escapes the bound.
        The hall's games are never counted here, so never forgotten so."""
        forgotten = []
        with self._lock:
            self._training[game_id] = None
            self._training.move_to_end(game_id)
            excess = len(self._training) - self.training_kept
            if excess > 0:
                for gid in list(self._training):  # the least recently used first
                    if excess <= 0 or gid == game_id:
                        break
                    if self._forget_locked(gid):
                        forgotten.append(gid)
                        excess -= 1
        for gid in forgotten:
            forget_anticipation_game(self._training_path, gid)

    def forget(self, game_id: str) -> bool:
        """Forget everything this worker keeps of game ``game_id`` (its writers' lock and state, its readers'
        state, what its pages computed, its position, its players' codes): its next request replays it from the
        journal, as a restarted worker's first request would. Not while a writer holds the game's lock: False,
        nothing forgotten."""
        with self._lock:
            if not self._forget_locked(game_id):
                return False
        forget_anticipation_game(self._training_path, game_id)
        return True

    def _forget_locked(self, game_id: str) -> bool:
        """:meth:`forget` under :attr:`_lock`.

        The invariant that makes forgetting safe: a game's entry in :attr:`_writers` is removed only by a thread
        that holds the entry's lock (taken here without waiting: a writer holding it, the game is skipped), and
        a writer acts only once it holds the lock that is the game's entry's *at that moment*
        (:meth:`writing`, :meth:`is_writer_lock`): one who took a lock forgotten meanwhile lets it go and takes
        the game's new one. So two writers of a game never hold two different locks, and a writer's game is never
        forgotten under it."""
        entry = self._writers.get(game_id)
        if entry is not None:
            if not entry[0].acquire(blocking=False):
                return False  # a writer holds it: in use
            del self._writers[game_id]
            entry[0].release()  # a writer waiting for it finds it is no longer the game's (writing())
        for kept in (self._read, self._memo, self._positions, self._codes, self._asking):
            kept.pop(game_id, None)
        for keyed in (self._kept, self._forward):
            for key in [k for k in keyed if k[0] == game_id]:
                del keyed[key]
        self._training.pop(game_id, None)
        return True

    def lexicon(self, spec: str, lang: str) -> Lexicon:
        key = (spec, lang)
        with self._lock:
            if key not in self._lexicons:
                self._lexicons[key] = load_lexicon(spec, lang)
            return self._lexicons[key]

    def session(self, journal: Journal, game_id: str, *, recent: bool = False, lexicon: bool = True) -> Session:
        """A session for reading: the game at the journal's latest position, folded forward from the state the
        last reader of this worker left (never replayed per request); shared by the readers of that position,
        so it is only to read. ``recent``: the position as :meth:`position` takes it (a live fragment that a
        crowd of phones refetches), else asked of the journal."""
        return self.reader(journal, game_id, self.state(journal, game_id, recent=recent), lexicon=lexicon)

    def reader(self, journal: Journal, game_id: str, state: Game, *, lexicon: bool = True) -> Session:
        """A session only to read ``state`` (a state :meth:`state` gave), with its word list (``lexicon=False``:
        a reader that judges nothing, the JSON API, loads none)."""
        s = Session(journal, game_id, state=state, fold=False)
        if lexicon:
            s.lexicon = self.lexicon(s.settings.lexicon, s.settings.lang)
        return s

    def state(self, journal: Journal, game_id: str, *, recent: bool = False) -> Game:
        """The game at the journal's latest position, as :meth:`session` reads it (shared by its readers: only to
        read), without a session's settings parsed for each reader."""
        if recent:
            seq = self.position(journal, game_id)
        else:
            seq = journal.last_seq(game_id)
            self.saw(game_id, seq)
        return self.at_seq(game_id, seq, "state", lambda: self._folded(journal, game_id, seq))

    def known_position(self, game_id: str) -> int | None:
        """The game's position as :meth:`position` takes it, when that needs no question to the journal (seen
        within :data:`POSITION_S` seconds), else None."""
        with self._lock:
            known = self._positions.get(game_id)
        return known[1] if known is not None and _recent(known) else None

    def asked_position(self, game_id: str) -> Future[int]:
        """The game's journal position asked of the journal once for all who need it meanwhile (in a pushing
        thread): a thousand phones refetching when this worker's knowledge of it is older than
        :data:`POSITION_S` ask one question, then read from memory."""
        with self._lock:
            asking = self._asking.get(game_id)
            if asking is not None and not asking.done():
                return asking
            known = self._positions.get(game_id)
            if known is not None and _recent(known):
                # a phone that found it unknown just before the crowd's question was answered: that answer
                answered: Future[int] = Future()
                answered.set_result(known[1])
                return answered
            asking = self._asking[game_id] = Future()

        def run() -> None:
            try:
                with self.journal("") as j:
                    seq = j.last_seq(game_id)
                self.saw(game_id, seq)
                asking.set_result(seq)
            except BaseException as e:
                asking.set_exception(e)

        try:
            self._pusher.submit(run)
        except BaseException as e:  # the pool shut down: a question never asked must not keep the crowd waiting
            asking.set_exception(e)
        return asking

    def started(self, game_id: str, seq: int, key: Hashable, job: Callable[[], Any]) -> Future[Any]:
        """``job`` handed to the pushing threads once for ``key`` at journal position ``seq`` (as :meth:`at_seq`
        keeps values): its future, which every asker meanwhile waits for; a job that failed is not kept."""
        with self._lock:
            slot = self._memo.get(game_id)
            if slot is None or slot[0] < seq:
                slot = (seq, {})
                self._memo[game_id] = slot
            known = slot[1] if slot[0] == seq else {}
            future = known.get(key)
            if future is not None:
                return future
            future = Future()
            known[key] = future

        def run() -> None:
            try:
                future.set_result(job())
            except BaseException as e:
                with self._lock:
                    known.pop(key, None)
                future.set_exception(e)

        try:
            self._pusher.submit(run)
        except BaseException as e:  # the pool shut down: a job never started must not keep its askers waiting
            with self._lock:
                known.pop(key, None)
            future.set_exception(e)
        return future

    def computed(self, game_id: str, seq: int, key: Hashable) -> Future[Any] | None:
        """What :meth:`at_seq` computes for ``key`` at ``seq``: done, or under way; None while nobody asked."""
        with self._lock:
            slot = self._memo.get(game_id)
            return slot[1].get(key) if slot is not None and slot[0] == seq else None

    def _folded(self, journal: Journal, game_id: str, seq: int) -> Game:
        with self._lock:
            base = self._read.get(game_id)
        if base is None or base.last_seq > seq:
            game = Session(journal, game_id).game
        else:
            game = _copy_state(base)
            for event in journal.iter_events(game_id, after=base.last_seq):
                game.apply(event)
        with self._lock:
            known = self._read.get(game_id)
            if known is None or known.last_seq < game.last_seq:
                self._read[game_id] = game
        return game

    def at_seq(self, game_id: str, seq: int, key: Hashable, make: Callable[[], T]) -> T:
        """What ``make`` computes from the game at journal position ``seq``, computed once in this worker (the
        first asker computes, those asking meanwhile wait for it); a newer seq of the game forgets the older."""
        with self._lock:
            slot = self._memo.get(game_id)
            if slot is None or slot[0] < seq:
                slot = (seq, {})
                self._memo[game_id] = slot
            known = slot[1] if slot[0] == seq else {}  # an older position asked late: computed, not kept
            future = known.get(key)
            mine = future is None
            if future is None:
                future = Future()
                known[key] = future
        if not mine:
            value: T = future.result()
            return value
        try:
            value = make()
        except BaseException as e:
            with self._lock:
                known.pop(key, None)  # a failure is not remembered: the next asker tries again
            future.set_exception(e)
            raise
        future.set_result(value)
        return value

    def writer_lock(self, game_id: str) -> threading.Lock:
        """The game's writers' lock as it stands (made at its first use). Who acquires it then checks that it is
        still the game's (:meth:`is_writer_lock`): a training game forgotten meanwhile (:meth:`forget`) has a new
        one."""
        with self._lock:
            return self._writer_entry(game_id)[0]

    def _writer_entry(self, game_id: str) -> tuple[threading.Lock, list[Game | None]]:
        """The game's entry in :attr:`_writers`, made when missing (under :attr:`_lock`)."""
        entry = self._writers.get(game_id)
        if entry is None:
            entry = self._writers[game_id] = (threading.Lock(), [None])
        return entry

    def is_writer_lock(self, game_id: str, lock: threading.Lock) -> bool:
        """Whether ``lock`` (held by the caller) is the game's writers' lock: then it stays so while held."""
        with self._lock:
            entry = self._writers.get(game_id)
            return entry is not None and entry[0] is lock

    @contextmanager
    def writing(self, game_id: str) -> Iterator[None]:
        """The game's writers' lock held for the block: the lock that is the game's while held (one taken just as
        the game was forgotten is let go, and the game's new one taken)."""
        while True:
            lock = self.writer_lock(game_id)
            lock.acquire()
            if self.is_writer_lock(game_id, lock):
                break
            lock.release()
        try:
            yield
        finally:
            lock.release()

    @contextmanager
    def writer(self, journal: Journal, game_id: str, locked: bool = False, refresh: bool = True
               ) -> Iterator[Session]:
        """A session for acting: one writer of a game at a time in this process, starting from the state the
        last one left (its action still folds in, inside its transaction, whatever other processes appended).
        ``locked``: the caller holds the game's :meth:`writer_lock` already (checked with :meth:`is_writer_lock`);
        ``refresh=False``: the caller folds in the latest events itself, inside its transaction
        (:meth:`Session.refresh`). After a failure the state is dropped (the next writer replays the journal)."""
        with contextlib.nullcontext() if locked else self.writing(game_id):
            with self._lock:  # the game's lock is held: its entry stays (made here for a caller that took none)
                slot = self._writer_entry(game_id)[1]
            state = slot[0]
            if state is None:  # the first writer since the worker began (or since one failed): from the readers'
                with self._lock:  # latest state, copied, rather than the whole journal replayed
                    read = self._read.get(game_id)
                state = _copy_state(read) if read is not None else None
            s = Session(journal, game_id, state=state, refresh=refresh)
            slot[0] = None  # until this writer is done, no other may start from it
            yield s
            slot[0] = s.game

    def heard(self, game_id: str) -> int | None:
        """The game's last seq announced by any worker's commit (:meth:`Publisher.heard`)."""
        return self.publisher.heard(game_id)

    def player_for_code(self, game: Game, code: str) -> str | None:
        typed = auth.normalise_code(code)
        with self._lock:
            known = self._codes.get(game.id)
        if known is None or (typed not in known and len(known) != len(game.players)):
            known = {auth.player_code(self.secret, game.id, n): n for n in game.players}
            with self._lock:
                self._codes[game.id] = known
        return known.get(typed)

    def render(self, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        response = HTMLResponse(self.render_text(request, name, **context), status_code=status)
        if self.lang is None and "lang" not in request.query_params:
            response.headers["Vary"] = "Accept-Language"  # the page may be in the browser's language
        return response

    def kept(self, game_id: str, key: Hashable, version: int, make: Callable[[], T]) -> T:
        """What ``make`` computes from the game as long as ``version`` (the seq of the last event that changes
        it) stays: kept across journal positions, unlike :meth:`at_seq`; the latest version only."""
        with self._lock:
            known = self._kept.get((game_id, key))
        if known is not None and known[0] == version:
            value: T = known[1]
            return value
        value = make()
        with self._lock:
            if (game_id, key) not in self._kept or self._kept[(game_id, key)][0] < version:
                self._kept[(game_id, key)] = (version, value)
        return value

    def last_kept(self, game_id: str, key: Hashable) -> Any:
        """The value :meth:`kept` holds for ``key``, whatever its version (None: none)."""
        with self._lock:
            known = self._kept.get((game_id, key))
        return None if known is None else known[1]

    def forward(self, game_id: str, key: Hashable, seq: int, advance: Callable[[int, Any], T]) -> T:
        """What ``advance(after, value)`` folds forward to journal position ``seq`` from the ``value`` it left at
        an earlier position ``after`` (0 and None: from the start), kept per game and key, the latest only: a
        crowd's pages never read the whole journal again at each change. ``advance`` returns a new value (the
        one it starts from is shared with its readers)."""
        with self._lock:
            known = self._forward.get((game_id, key))
        if known is not None and known[0] == seq:
            kept: T = known[1]
            return kept
        after, value = known if known is not None and known[0] < seq else (0, None)
        value = advance(after, value)
        with self._lock:
            latest = self._forward.get((game_id, key))
            if latest is None or latest[0] < seq:
                self._forward[(game_id, key)] = (seq, value)
        return value

    def fragment(self, request: Request, game_id: str, seq: int, key: Hashable, name: str,
                 context: Callable[[], dict[str, Any]]) -> HTMLResponse:
        """A live fragment (what a page refetches on each notice), rendered once per journal position and
        ``key`` (page kind, language, player; a running clock's second) in this worker. Fragments carry no form
        (no CSRF token) and nothing of who asks but what ``key`` says."""
        return HTMLResponse(self.fragment_text(request, game_id, seq, key, name, context))

    def fragment_text(self, request: Request, game_id: str, seq: int, key: Hashable, name: str,
                      context: Callable[[], dict[str, Any]]) -> str:
        """:meth:`fragment`'s HTML."""
        return self.at_seq(game_id, seq, ("fragment", name, key), lambda: self.render_text(request, name, **context()))

    async def push(self, part: Callable[[Request], str], request: Request) -> str:
        """``part`` for a page's open stream: from memory when it is ready there (:meth:`from_memory`), else drawn
        in a pushing thread."""
        got = await self.from_memory(part, request)
        return got if got is not None else await asyncio.wrap_future(self._pusher.submit(part, request))

    async def from_memory(self, part: Callable[[Request], str], request: Request) -> str | None:
        """``part``'s HTML answered in the event loop when what it is drawn from is in memory
        (:attr:`LivePart.ready`), once the computation it waits for is done; None: it must be drawn."""
        ready = part.ready if isinstance(part, LivePart) else None
        if ready is None:
            return None
        for _ in range(4):  # the position, the state, the shared part, then the phone's own
            got = ready(request)
            if got is None or isinstance(got, str):
                return got
            with contextlib.suppress(Exception):  # its failure is the drawing's to say
                await self._awaited(got)
        return None

    def _awaited(self, future: Future[Any]) -> asyncio.Future[Any]:
        """``future`` awaitable in this event loop, one wrapper for all who wait for it: ten thousand phones
        waiting for one close are woken by one call from the thread that computed it, not ten thousand."""
        loop = asyncio.get_running_loop()
        with self._lock:
            waited = self._waits.get(future)
        if waited is None or waited.get_loop() is not loop:
            waited = asyncio.wrap_future(future, loop=loop)
            with self._lock:
                self._waits[future] = waited
        return waited

    def render_text(self, request: Request, name: str, **context: Any) -> str:
        ident = identity(request)
        context.setdefault("errors", {})
        lang = page_language(request, context)
        context.setdefault("lang", lang)
        context.setdefault("_", i18n.gettext_for(lang))
        gid = request.path_params.get("gid")
        what = self.damage.known(gid) if isinstance(gid, str) else None
        if what is not None:
            context.setdefault("damage", banner(what, context["_"]))
        context["errors"] = {k: i18n.shown(v, context["_"]) for k, v in context["errors"].items()}
        context.setdefault("csrf", auth.csrf_token(self.secret, ident))
        return self.templates.get_template(name).render(request=request, me=ident, now=time.time(), **context)

    def public_page(self, request: Request, game_id: str, seq: int, name: str,
                    context: Callable[[], dict[str, Any]], key: Hashable = "") -> HTMLResponse:
        """A public page (the same for every anonymous visitor) drawn once per journal position ``seq`` of
        ``game_id`` (and ``key``, the asked-for language) in this worker and kept: each visitor's answer is the
        kept HTML with his own CSRF token put in. Staff and players get theirs drawn for them. Called in a
        worker thread."""
        ident = identity(request)
        if ident.role != "public":
            return HTMLResponse(self.render_text(request, name, **context()))
        asked = request.query_params.get("lang")
        lang = asked if asked in i18n.LANGUAGES else None
        html = self.at_seq(game_id, seq, ("page", name, key, lang),
                           lambda: self.render_text(request, name, csrf=_CSRF_SLOT, **context()))
        return HTMLResponse(html.replace(_CSRF_SLOT, auth.csrf_token(self.secret, ident)))

    def damage_page(self, scope: Scope, what: GameDamage) -> HTMLResponse:
        """The 503 page of a damaged game: the banner alone, in the game's language."""
        request = Request(scope)
        gid = game_of(request.url.path) or ""
        lang = i18n.pick(request.query_params.get("lang"), "en")
        try:
            with self.journal("") as j:
                lang = str(j.game(gid).settings.get("lang") or lang)
        except ArbitruError:
            pass  # the game's row itself cannot be read: the asked-for language
        lang = lang if lang in i18n.LANGUAGES else "en"
        _ = i18n.gettext_for(lang)
        html = self.templates.get_template("error.html").render(
            request=request, me=identity(request), status=503, message="", lang=lang, _=_,
            damage=banner(what, _),
        )
        return HTMLResponse(html, status_code=503)



def _copy_state(game: Game) -> Game:
    """A copy to fold further, sharing what never changes (rules, alphabet, layout)."""
    board = game.board
    memo: dict[int, Any] = {id(x): x for x in (game.settings, game.rules, game.alphabet, board.alphabet,
                                               board.layout)}
    # the slips' tables hold frozen slips, texts and numbers only: a table copied shallow (in C) is a copy of its
    # own, where a deep copy looked at each entry: a national game's fifteen moves of ten thousand slips took
    # 0.6-1.2 s at every position a close folds
    for table in (game.slips, game.slip_seqs, game.slip_keys, game.late_apart, game.set_aside, game.handed_in):
        memo[id(table)] = table.copy()
    # a player's fields are immutable values: a shallow copy is his own
    players = {number: _own_copy(p) for number, p in game.players.items()}
    memo.update((id(p), players[number]) for number, p in game.players.items())
    memo[id(game.players)] = players
    copied: Game = copy.deepcopy(game, memo)
    return copied


def _own_copy(player: Player) -> Player:
    """A shallow copy of a player, made directly: through ``copy.copy`` (copyreg's slow path) a state copy of
    10,000 players took 125-135 ms, this way 80 ms, at every position a close folds."""
    own: Player = object.__new__(type(player))
    own.__dict__.update(player.__dict__)
    return own


def _shown(value: Any) -> Any:
    """Every value a page shows: a stored text holding a NUL or another control character (an older journal's)
    is shown raw and flagged, never passed into the page."""
    if isinstance(value, Markup):
        return Markup(shown_raw(str(value)))
    return shown_raw(value) if isinstance(value, str) else value


@pass_context
def said_in_page_language(context: Context, value: Any) -> Any:
    """Every ``{{ … }}`` that is a library's message (a verdict's reason, a note, a refusal) is said in the
    page's language: the templates print them as they are; then shown as :func:`_shown` says."""
    if isinstance(value, i18n.Text) and "_" in context:
        value = context["_"](value)
    return _shown(value)


@pass_context
def said_each(context: Context, values: Any, separator: str | None = None) -> str:
    """``{{ codes|said }}``: a list of messages (or message codes) said one by one in the page's language,
    separated as the language separates a list (or by ``separator``)."""
    return phone_lines.Words(context["_"], context.get("lang", "en")).each(values, separator)


@pass_context
def own_lines_html(context: Context) -> tuple[Markup, Markup]:
    """``{% set head, tail = own_html() %}``: a duplicate phone's own lines around the hall, drawn as its live part
    draws them (:mod:`arbitru.web.phone_lines`)."""
    words = phone_lines.Words(context["_"], context.get("lang", "en"))
    return phone_lines.own_html(words, context["game"], {k: context.get(k) for k in phone_lines.LINES})


@pass_context
def cues_said(context: Context, cues: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``{{ clock.cues|cues_said|tojson }}``: a clock's cues with their words said in the page's language (the
    browser shows and speaks them as they are)."""
    _ = context["_"]
    return [{**c, "text": _(c["text"]) if isinstance(c.get("text"), i18n.Text) else c.get("text")} for c in cues]


def _language(context: Context) -> str:
    lang = context.get("lang")
    return lang if isinstance(lang, str) else "en"


@pass_context
def number_in_page_language(context: Context, value: Any, digits: int = 0) -> str:
    """``{{ line.total|number }}``: a figure as the page's language writes it ("1.234", "1 234")."""
    return figures.number(value, _language(context), digits)


@pass_context
def percent_in_page_language(context: Context, value: Fraction, digits: int = 2) -> str:
    """``{{ line.percentage|percent }}``: a fraction as a percentage as the page's language writes it ("66,67")."""
    return figures.percentage(value, _language(context), digits)


@pass_context
def date_in_page_language(context: Context, value: Any) -> str:
    """``{{ g.created|date }}``: a day as the page's language writes it ("26 nov. 2026")."""
    return figures.date(value, _language(context))


@pass_context
def moment_in_page_language(context: Context, value: Any, seconds: bool = False) -> str:
    """``{{ g.created|moment }}``: a day and its time as the page's language writes them (``moment(seconds=True)``:
    to the second)."""
    return figures.moment(value, _language(context), seconds)


@pass_context
def colon_in_page_language(context: Context, label: Any) -> Any:
    """``{{ _('Game over')|colon }}``: a label followed by its colon as the page's language writes it (French puts a
    no-break space before it, :data:`arbitru.messages.BEFORE_COLON`)."""
    said = said_in_page_language(context, label)
    colon = BEFORE_COLON.get(_language(context), "") + ":"
    if isinstance(said, Markup):  # a stored text shown raw and flagged (:func:`_shown`) stays so
        return said + colon
    return f"{'' if said is None else said}{colon}"


def page_language(request: Request, context: dict[str, Any]) -> str:
    """A page is in its game's language (a game's page), else in the one asked for (``?lang=``), else in the
    hall's (the server's, :attr:`Web.lang`), else in the first of the browser's (``Accept-Language``) the pages
    speak, else in English."""
    given = context.get("lang")
    if isinstance(given, str) and given in i18n.LANGUAGES:
        return given
    game = context.get("game")
    settings = getattr(game, "settings", None)
    if settings is not None and getattr(settings, "lang", None) in i18n.LANGUAGES:
        return str(settings.lang)
    return visitor_language(request)


def visitor_language(request: Request) -> str:
    """The language of a page no game fixes the language of: the one asked for (``?lang=``), else the server's
    (``arbitru --lang ro serve``), else the browser's first the pages speak (``Accept-Language``), else English."""
    asked = request.query_params.get("lang")
    if asked in i18n.LANGUAGES:
        return str(asked)
    server = getattr(request.app.state, "web", None) if "app" in request.scope else None
    if server is not None and server.lang in i18n.LANGUAGES:
        return str(server.lang)
    return i18n.accepted(request.headers.get("accept-language", ""))


class _ThenTell(Response):
    """A response sent, then its action's pages told (:meth:`Web.answered_first`)."""

    def __init__(self, response: Response, tell: Callable[[], None]) -> None:
        self.response, self.tell = response, tell
        self.status_code = response.status_code

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        try:
            await self.response(scope, receive, send)
        finally:
            self.tell()


def web(request: Request) -> Web:
    w: Web = request.app.state.web
    return w


def identity(request: Request) -> auth.Identity:
    ident: auth.Identity = request.scope["arbitru.identity"]
    return ident


def client(request: Request) -> str:
    """The client's address (the socket's peer, or what a trusted proxy says: :func:`security.client_address`)."""
    return str(request.scope.get("arbitru.client") or security.client_address(request.scope, web(request).limits))


def device(request: Request, door: str) -> str:
    """The id of this browser when it got in at ``door`` before (its signed device cookie), else ""."""
    return auth.known_device(web(request).secret, request.cookies.get(auth.DEVICE_COOKIE, ""), door)


def remember_device(request: Request, response: Response, door: str) -> None:
    """This browser got in at ``door``: its device cookie says so from now on (a new device gets an id)."""
    w = web(request)
    known, doors = auth.read_device(w.secret, request.cookies.get(auth.DEVICE_COOKIE, ""))
    doors = [d for d in doors if d != door] + [door]
    response.set_cookie(auth.DEVICE_COOKIE, auth.device_cookie(w.secret, known or auth.new_sid(), doors),
                        httponly=True, samesite="lax", max_age=auth.DEVICE_MAX, path="/",
                        secure=security.over_https(request.scope, w.limits))


def login_as(request: Request, response: Response, ident: auth.Identity) -> None:
    """Replace the session cookie (a new session id at every login: no fixation) and open the session on the
    server; the session it replaces ends."""
    w = web(request)
    with w.journal("") as j:
        old = identity(request)
        if old.role != "public":
            w.players_seen.pop(auth.trusted_as(old), None)
            auth.close_session(j, old)
        if ident.role != "public":
            auth.open_session(j, ident)
    set_cookie(response, auth.sign(w.secret, ident), security.over_https(request.scope, w.limits))


def attachment(filename: str) -> dict[str, str]:
    """The header that hands a download over as ``filename``, whatever it holds (a club's ``Brașov``, a quote): an
    ASCII name for old browsers, accents dropped and anything else ``_``, and the name itself in UTF-8 (RFC 6266).

    >>> print(attachment('t1-table-Brașov "A".csv')["Content-Disposition"])
    attachment; filename="t1-table-Brasov__A_.csv"; filename*=UTF-8''t1-table-Bra%C8%99ov%20%22A%22.csv
    """
    plain = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode()
    plain = re.sub(r"[^A-Za-z0-9._-]", "_", plain) or "download"
    return {"Content-Disposition": f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"}


def set_cookie(response: Response, value: str, secure: bool) -> None:
    """The session cookie: never read by scripts, not sent by other sites' forms, and over HTTPS only once the
    app is reached so (a cookie sent over plain HTTP could be read on the hall's Wi-Fi)."""
    response.set_cookie(auth.COOKIE, value, httponly=True, samesite="lax", max_age=auth.SESSION_MAX, path="/",
                        secure=secure)


def game_language(w: Web, gid: str) -> str:
    """The language of game ``gid``'s pages (its settings'), English when it names none."""
    with w.journal("") as j:
        return str(j.game(gid).settings.get("lang") or "en")


def base_url(request: Request) -> str:
    """The address players' codes and QR codes point to: the configured one, else the request's."""
    configured = web(request).base_url
    return configured.rstrip("/") if configured else str(request.base_url).rstrip("/")


_formats: dict[tuple[str, str], formats.Format] = {}
_formats_lock = threading.Lock()


def game_format(w: Web, gid: str) -> formats.Format | None:
    """The format of game ``gid`` in the formats' registry (None: a journal game of no playable format, such as a
    tournament); a game's format never changes, so it is remembered. :raises GameNotFound: no such game."""
    key = (w.db, gid)
    with _formats_lock:
        if key in _formats:
            return _formats[key]
    with w.journal("") as j:
        found = formats.format_of(j.game(gid))
    if found is not None:
        with _formats_lock:
            _formats[key] = found
    return found


def by_format(pages: dict[formats.Format, Endpoint]) -> Endpoint:
    """One URL, each format's page: the game's format looked up in the formats' registry, then its page; a game
    whose format has no such page is not found (404)."""

    async def endpoint(request: Request) -> Response:
        w, gid = web(request), request.path_params["gid"]
        with _formats_lock:  # known already (a game's format never changes): no trip to a worker thread
            fmt = _formats.get((w.db, gid))
        if fmt is None:
            fmt = await run_in_threadpool(game_format, w, gid)
        page = pages.get(fmt) if fmt is not None else None
        if page is None:
            raise HTTPException(404, i18n.no_game(gid))
        return await page(request)

    return endpoint


def rack_shown(rack: Iterable[int]) -> str:
    """The rack a phone's page shows, as its slip form sends it back (its tiles sorted): the page's live part and
    form write it (the template filter ``rack_shown``), the phone's slip door compares it with the open rack."""
    return ".".join(str(t) for t in sorted(rack))


def live_part_by_format(parts: dict[formats.Format, Callable[[Request], str]]) -> LivePart:
    """One live part, each format's: as :func:`by_format`, in the thread that draws it (and from memory, when the
    format's part is a :class:`LivePart` that can answer so and the game's format is known already)."""

    def draw(request: Request) -> str:
        gid = request.path_params["gid"]
        try:
            fmt = game_format(web(request), gid)
        except ArbitruError:
            raise HTTPException(404, i18n.no_game(gid)) from None
        part = parts.get(fmt) if fmt is not None else None
        if part is None:
            raise HTTPException(404, i18n.no_game(gid))
        return part(request)

    def ready(request: Request) -> Ready:
        with _formats_lock:
            fmt = _formats.get((web(request).db, request.path_params["gid"]))
        part = parts.get(fmt) if fmt is not None else None
        return part.ready(request) if isinstance(part, LivePart) and part.ready is not None else None

    return LivePart(draw, ready)


def live_endpoint(part: Callable[[Request], str]) -> Endpoint:
    """The URL a page refetches its live part at (on a ``changed`` notice, or after its stream was lost)."""

    async def endpoint(request: Request) -> Response:
        got = await web(request).from_memory(part, request)
        return HTMLResponse(got if got is not None else await run_in_threadpool(part, request))

    return endpoint
