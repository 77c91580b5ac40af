"""Slips from phones, many at once: group commit.

Each request queues its slip; whichever request thread gets the game's writer lock takes every queued slip and
hands them all in inside one journal transaction (one commit, one disk flush), each checked on its own by the
format's session (a refused slip stores nothing and does not stop the others). Every slip is committed before
its receipt is sent, so an acknowledged slip survives a crash of the server at any later moment. The session
checks each slip on the state with the batch's earlier slips folded in, so a player's burst stores no more than
his :data:`~arbitru.formats.receipt.MAX_SLIPS_PER_MOVE` for the move.

The batch's appends go to the journal together (one ``executemany``), each slip checked by the session before
its event is queued; a slip the session refuses queues nothing and is answered alone. On PostgreSQL, while this
worker alone writes the game (it has heard of no other worker's commit to it), the batch is decided on the
worker's state and sent as one statement, one round trip (:meth:`Journal.at_once`): the database stores it only
if the game still ends where that state does and no sender's throttle key waits, else nothing is stored, what the
batch folded in is taken back and it goes the ordinary way. The ordinary way is a pipelined transaction
(:meth:`Journal.transaction`): two round trips whatever its size, BEGIN with the game's lock, the throttle query
and the read of what other workers appended in the first, the appends, the notice and COMMIT in the second, each
statement prepared. Should anything fail once events are on their way (checked at the
door, nothing should; on PostgreSQL it is learnt at the commit), the whole transaction is rolled back and the
batch handed in again one slip at a time,
each under its own savepoint: the failing one is taken out, answered alone (422 naming the field, or 503), and
the rest committed; no other sender ever sees its error. A slip sent with an idempotency key that is already in the
journal (a retry whose first answer was lost) gets the first receipt again and stores nothing; the key lives in
the slip's event, so it holds across restarts and workers.
"""

from __future__ import annotations

import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from arbitru.errors import ArbitruError, GameNotFound
from arbitru.formats.duplicate.game import Game, GameError, Session
from arbitru.formats.duplicate.seats import SeatClosed
from arbitru.formats.duplicate.slips import Slip, checked
from arbitru.formats.receipt import KEY_REUSED, TooManySlips, check_key
from arbitru.journal.store import Journal, NotAtOnce, check_actor
from arbitru.textinput import InputError
from arbitru.web import i18n, security
from arbitru.web.i18n import Text


class Writers(Protocol):
    """What the intake needs of the app's state (:class:`arbitru.web.house.Web`): its games' writers."""

    def journal(self, actor: str) -> AbstractContextManager[Journal]: ...

    def writer_lock(self, game_id: str) -> threading.Lock: ...

    def is_writer_lock(self, game_id: str, lock: threading.Lock) -> bool: ...

    def writer(self, journal: Journal, game_id: str, locked: bool = False, refresh: bool = True
               ) -> AbstractContextManager[Session]: ...

    def player_for_code(self, game: Game, code: str) -> str | None: ...

    def heard(self, game_id: str) -> int | None: ...


@dataclass
class SlipRequest:
    """One slip as sent: by code (API) or by a signed-in player (``player``); ``claimed``: the player number the
    sender wrote, if any (it must be his own)."""

    move: int
    position: str
    word: str
    score: int | None
    code: str = ""
    player: str = ""
    claimed: str | None = None
    #: the sender's idempotency key (``Idempotency-Key`` header, the phone form's ``key``), or ""
    key: str = ""
    #: True when this is a retry answered with the first receipt
    repeated: bool = False
    #: the throttle keys that must not be waiting (:mod:`arbitru.web.security`), checked with the whole batch's
    #: in one statement, at the throttles' clock ``asked``; ``waited``: how long the refused one must wait
    throttle: list[str] = field(default_factory=list)
    asked: float = 0.0
    waited: float = 0.0
    received: float = field(default_factory=time.time)
    #: the game's language, once the slip reaches its game: its refusals are said in it
    lang: str = ""
    status: int = 0
    body: dict[str, Any] = field(default_factory=dict)
    done: threading.Event = field(default_factory=threading.Event)


def at_the_door(req: SlipRequest) -> SlipRequest:
    """The slip checked completely before it joins a batch, by storage's own limits (:func:`checked`): a position
    or a word written; texts bounded, one line, decodable; numbers in range; the key printable ASCII.

    :raises InputError: naming the field.
    """
    if not req.position.strip() and not req.word.strip():  # the phone's form refuses it too
        raise InputError(Text("write the position and the word"), field="position")
    checked(Slip(max(req.move, 1), req.claimed or req.player, req.position, req.word, req.score))
    check_key(req.key)
    return req


#: a game another worker was heard writing goes the ordinary way in this one for so long (seconds)
SHARED_S = 1.0


class Intake:
    """The queue of slips waiting to be handed in, per game."""

    def __init__(self, web: Writers) -> None:
        self.web = web
        self._lock = threading.Lock()
        self._queued: dict[str, list[SlipRequest]] = {}
        #: when another worker was last heard writing each game (:meth:`_at_once`)
        self._shared: dict[str, float] = {}

    def hand_in(self, game_id: str, request: SlipRequest) -> SlipRequest:
        """Queue the slip and return once it is decided (stored and committed, or refused): ``status`` and
        ``body`` say how (201 stored in time; 409 stored late, or refused: the move not open, or the player's
        :data:`~arbitru.formats.receipt.MAX_SLIPS_PER_MOVE` for it handed in already, ``field`` ``move``; 401, 403,
        404)."""
        with self._lock:
            self._queued.setdefault(game_id, []).append(request)
        lock = self.web.writer_lock(game_id)
        while not request.done.is_set():
            if not lock.acquire(timeout=0.02):
                continue
            current = self.web.is_writer_lock(game_id, lock)
            try:
                if current:
                    with self._lock:
                        batch = self._queued.pop(game_id, [])
                    if batch:
                        self._run(game_id, batch)
            finally:
                lock.release()
            if not current:  # the game was forgotten meanwhile (Web.forget): its new lock
                lock = self.web.writer_lock(game_id)
        return request

    def _run(self, game_id: str, batch: list[SlipRequest]) -> None:
        w = self.web
        try:
            with w.journal("") as j:
                try:
                    try:
                        if not self._at_once(j, game_id, batch):
                            self._together(j, game_id, batch)
                    except _Retry:
                        self._one_by_one(j, game_id, batch)
                except ArbitruError as e:
                    for req in batch:
                        unknown = isinstance(e, GameNotFound)
                        said = i18n.no_game(game_id) if unknown else str(e)
                        _decide(req, 404 if unknown else 503, {"error": said, "stored": False})
                    return
        finally:
            for req in batch:
                req.done.set()

    def _at_once(self, j: Journal, game_id: str, batch: list[SlipRequest]) -> bool:
        """PostgreSQL, when this worker's state of the game is the latest it has heard of: the batch decided on
        that state, then stored in one statement, one round trip (:meth:`Journal.at_once`), which stores it only if
        the game has not moved on meanwhile and no sender's throttle key waits. False when it was not stored, or
        not tried because another worker writes the game too (for :data:`SHARED_S` after its last commit heard
        of): what the batch folded into the state is taken back, and its slips are decided again the ordinary way,
        the game's lock held from the read of what others appended to the commit (two workers trying at once on
        one game would mostly find the other got in first)."""
        if not j.backend.appends_at_once:
            return False
        heard = self.web.heard(game_id)
        if heard is None or time.monotonic() - self._shared.get(game_id, -SHARED_S) < SHARED_S:
            return False
        with self.web.writer(j, game_id, locked=True, refresh=False) as s:
            if s.game.last_seq < heard:  # another worker appended
                self._shared[game_id] = time.monotonic()
                return False
            keys = [k for req in batch for k in req.throttle]
            s.game.fold_tentatively()
            try:
                with j.at_once(game_id, s.game.last_seq,
                               guard=security.hand_in_guard(keys, min(req.asked for req in batch))):
                    self._decide_each(j, s, batch)
            except NotAtOnce as e:
                s.game.take_back()
                for req in batch:
                    req.status, req.body = 0, {}
                if e.found is not None and e.found >= 0:  # another writer got in first
                    self._shared[game_id] = time.monotonic()
                return False
            s.game.keep()
        return True

    def _decide_each(self, j: Journal, s: Session, batch: list[SlipRequest]) -> None:
        """Each slip checked by the session and its event queued; one it refuses is answered and queues nothing."""
        for req in batch:
            try:
                self._one(j, s, req)
            except InputError as e:  # raised before its event is sent
                _decide(req, 422, {"error": e.said(), "field": e.field, "stored": False})

    def _together(self, j: Any, game_id: str, batch: list[SlipRequest]) -> None:
        """The batch in one transaction whose appends are sent together. A slip the session refuses appends
        nothing; anything else failing once the appends are on their way (up to the commit, where a pipelined
        transaction learns of their failure) rolls the whole transaction back (:class:`_Retry`).

        On PostgreSQL two round trips whatever the batch's size: BEGIN, the game's lock, the throttle query and
        the refresh's read; then the appends, the notice and COMMIT."""
        sending = False
        with self.web.writer(j, game_id, locked=True, refresh=False) as s:
            try:
                with j.transaction(game_id, pipelined=True):
                    # first: a raw statement makes the journal forget its last seq
                    waits = security.ask_waits(j, [k for req in batch for k in req.throttle])
                    s.refresh()
                    free = self._not_throttled(batch, waits())
                    sending = True
                    with j.deferred():
                        self._decide_each(j, s, free)
            except Exception as e:  # the transaction and the writer's state go; the batch is handed in again
                if sending:
                    raise _Retry from e
                raise

    def _one_by_one(self, j: Any, game_id: str, batch: list[SlipRequest]) -> None:
        """The batch again, each slip under its own savepoint."""
        with self.web.writer(j, game_id, locked=True, refresh=False) as s, j.transaction(game_id):
            waits = security.waits_until(j, [k for req in batch for k in req.throttle])
            s.refresh()
            for req in self._not_throttled(batch, waits):
                self._alone(j, s, req)

    @staticmethod
    def _not_throttled(batch: list[SlipRequest], until: dict[str, float]) -> list[SlipRequest]:
        """The batch without the slips whose sender must wait after failed codes (answered 429), ``until``: when
        each throttle key that has failed may try again."""
        free = []
        for req in batch:
            req.waited = max([0.0, *(until.get(k, 0.0) - req.asked for k in req.throttle)])
            if req.waited > 0:
                _decide(req, 429, {"error": str(security.Throttled(req.waited)), "stored": False})
            else:
                free.append(req)
        return free

    def _alone(self, j: Any, s: Session, req: SlipRequest) -> bool:
        """One slip under its own savepoint: its failure undoes its event only and is answered to it alone."""
        try:
            with j.savepoint():
                return self._one(j, s, req)
        except InputError as e:
            _decide(req, 422, {"error": e.said(), "field": e.field, "stored": False})
        except Exception as e:
            _decide(req, 503, {"error": Text("this slip could not be stored (%(why)s): send it again", why=str(e)),
                               "stored": False})
        s.reload()  # its events were rolled back: the state comes from the journal again
        return False

    def _one(self, j: Any, s: Session, req: SlipRequest) -> bool:
        req.lang = s.game.settings.lang
        number = req.player or self.web.player_for_code(s.game, req.code)
        if not number:
            _decide(req, 401, {"error": Text("this code is not one of this game's players' codes")})
            return False
        if req.claimed is not None and req.claimed != number:
            mine = Text("this code is player %(n)s's: a player sends only his own slip", n=number)
            _decide(req, 403, {"error": mine})
            return False
        first = s.game.slip_keys.get((number, req.key)) if req.key else None
        if first is not None:
            self._repeat(j, s, req, first)
            return False
        j.actor = check_actor(f"player:{number}")
        try:
            receipt = s.hand_in(Slip(req.move, number, req.position, req.word, req.score), req.received, req.key)
            slip, seq = receipt.slip, receipt.seq
        except SeatClosed as e:  # withdrawn, disqualified, or not entered yet: his phone is told, nothing stored
            _decide(req, 403, {"error": e.args[0], "stored": False})
            return False
        except TooManySlips as e:  # his slips for the move, this batch's before it included: nothing stored
            _decide(req, 409, {"error": str(e), "field": "move", "limit": e.limit, "stored": False})
            return False
        except GameError as e:
            _decide(req, 409, {"error": str(e), "stored": False})
            return False
        body = {"stored": True, "seq": seq, **slip.to_payload(), "received": j.recorded}
        if slip.late:
            _decide(req, 409, {"error": Text("late: stored and flagged (FISE-6)"), **body})
        else:
            _decide(req, 201, body)
        return True


    def _repeat(self, j: Any, s: Session, req: SlipRequest, seq: int) -> None:
        """A retry: the receipt of the slip first stored with this key, as it was sent then; another slip sent with
        that key is refused (422, nothing stored: the sender learns his new slip was not taken)."""
        event = next(e for e in j.iter_events(s.id, after=seq - 1) if e.seq == seq)
        slip = Slip.from_payload(event.payload)
        # the move counts when the sender names it (the API); a phone's move is the open one when it arrives
        sent = (req.move if req.code else slip.move, req.position, req.word, req.score)
        if sent != (slip.move, slip.position, slip.word, slip.score):
            _decide(req, 422, {"error": Text(KEY_REUSED, seq=seq), "field": "key", "stored": False})
            return
        body = {"stored": True, "seq": seq, **slip.to_payload(), "received": event.recorded}
        req.repeated = True
        if slip.late:
            _decide(req, 409, {"error": Text("late: stored and flagged (FISE-6)"), **body})
        else:
            _decide(req, 201, body)


class _Retry(Exception):
    """The batch sent together failed as a whole: hand it in again one slip at a time."""


def _decide(req: SlipRequest, status: int, body: dict[str, Any]) -> None:
    req.status = status
    req.body = body
