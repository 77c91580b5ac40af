"""The game journal: an append-only log of referee events in SQLite, from which every state is replayed.

Nothing is ever overwritten: a correction is a new event. Triggers make the database itself refuse updates and
deletes of events. Every event carries its ``actor`` (who did it: ``cli:<user>``, ``arbiter``, ``desk:<name>``,
``player:<number>``) and the server time it was recorded.

Writers: an action that reads the game's state and then appends does both inside one
:meth:`Journal.transaction` (``BEGIN IMMEDIATE``): a second writer, in this process or another, waits for the
first to commit, then sees its events before it checks anything. So two desks, or two ``duplicate next``, can
never both act on the same state. Commits use ``synchronous=FULL``: an acknowledged entry survives a crash.

Readers get :class:`~arbitru.errors.JournalError` naming the game and event for any damage (a corrupt page, a
payload that is not UTF-8 or not a JSON object), never a traceback; other games stay readable.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.db"
>>> with Journal(path, actor="arbiter") as j:
...     game = j.create_game("duplicate", {"lang": "es"})
...     j.append(game, "rack", {"tiles": "ABC"})
...     [(e.kind, e.actor) for e in j.events(game)]
1
[('rack', 'arbiter')]
"""

from __future__ import annotations

import functools
import getpass
import json
import os
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar, cast

from arbitru.errors import GameNotFound, JournalError
from arbitru.journal.backends import Backend, Connection, backend_for
from arbitru.textinput import check_payload, check_text

#: the longest actor name stored (a desk's or player's label, not free text)
MAX_ACTOR = 80
#: a deep damage check (:meth:`Journal.game_damage`) calls its ``pace`` after every this many events read
PACE_EVENTS = 500


@dataclass(frozen=True)
class Event:
    """One journal entry: ``seq`` counts from 1 within a game; ``payload`` is plain JSON data."""

    seq: int
    kind: str
    payload: dict[str, Any]
    recorded: str
    actor: str = ""


@dataclass(frozen=True)
class GameDamage:
    """What is damaged in one game's stored events: how many cannot be read of how many (when counted), or the
    library's account of where reading fails (``detail``)."""

    game_id: str
    missing: int = 0
    total: int = 0
    detail: str = ""

    def __str__(self) -> str:
        return self.detail or f"game {self.game_id}: {self.missing} of its {self.total} events cannot be read"


@dataclass(frozen=True)
class GameInfo:
    id: str
    format: str
    created: str
    settings: dict[str, Any]


def default_actor() -> str:
    """Who acts from a terminal: ``$ARBITRU_ACTOR``, else ``cli:`` and the OS user."""
    actor = os.environ.get("ARBITRU_ACTOR")
    if actor:
        return actor
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid()) if hasattr(os, "getuid") else "unknown"
    return f"cli:{user}"


#: a commit's audience, carried by its notice to the live pages: every page, or (a hand-in) the staff's pages and
#: the phones of the players listed after ``slip:`` (a slip changes nothing the other phones show)
EVERYONE = "*"
SLIPS = "slip:"
MAX_AUDIENCE = 50


def audience(events: Iterable[tuple[str, dict[str, Any]]], before: str = "") -> str:
    """Who the commit of ``events`` (joined to a transaction's ``before``) concerns: :data:`EVERYONE`, or
    ``slip:P1,P2`` when every event is a slip (``slip:`` alone past :data:`MAX_AUDIENCE` players: staff only)."""
    if before == EVERYONE:
        return EVERYONE
    players = [p for p in before.removeprefix(SLIPS).split(",") if p] if before else []
    for kind, payload in events:
        player = str(payload.get("player") or "")
        if kind != "slip" or not player or any(c in player for c in ", \n"):
            return EVERYONE
        if player not in players:
            players.append(player)
    return SLIPS + (",".join(players) if len(players) <= MAX_AUDIENCE else "")


def new_game_id() -> str:
    """A fresh game id (12 hex digits), for a game whose id is needed before it is created (its draw secret's
    commitment names it, :mod:`arbitru.formats.fairness`)."""
    return uuid.uuid4().hex[:12]


def check_actor(actor: str) -> str:
    """An actor name as stored: printable, at most :data:`MAX_ACTOR` characters.

    :raises JournalError: for anything else.
    """
    if not isinstance(actor, str) or len(actor) > MAX_ACTOR:
        raise JournalError(f"an actor is a name of at most {MAX_ACTOR} characters")
    if any(not ch.isprintable() for ch in actor) or _undecodable(actor):
        raise JournalError(f"the actor {actor!r} has characters that cannot be stored")
    return actor


def _undecodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class NotAtOnce(JournalError):
    """A transaction could not be sent as one statement (:meth:`Journal.at_once`): nothing was stored. ``found``:
    the game's last seq, when that was why (another writer appended); -1 when the guard refused; else None."""

    def __init__(self, message: str, found: int | None = None) -> None:
        super().__init__(message)
        self.found = found


class Journal:
    """A journal holding any number of games (anticipation, duplicate), in SQLite or PostgreSQL
    (:mod:`arbitru.journal.backends`): ``Journal("games.db")``, ``Journal("postgresql://…")``.

    One connection per thread: open a ``Journal`` in each thread or request that writes.
    """

    def __init__(self, path: Path | str, actor: str | None = None, *, disposable: bool = False) -> None:
        self.backend: Backend = backend_for(path)
        #: a store whose whole games may be deleted (training games, :mod:`arbitru.journal.training`); never
        #: the hall's journal, whose events are never deleted
        self.disposable = disposable
        self.path = self.backend.display
        self.actor = check_actor(default_actor() if actor is None else actor)
        self._depth = 0
        #: inside a transaction: the games locked, each game's last seq as this transaction knows it, and the
        #: games whose commit is to be announced (one notice per game per transaction, sent just before COMMIT)
        self._locked: set[str] = set()
        self._last: dict[str, int] = {}
        self._announce: dict[str, tuple[int, str]] = {}
        #: called after each COMMIT with (game, last seq, audience) per game changed (the web's live pages)
        self.on_commit: Callable[[str, int, str], None] | None = None
        #: the server time the last append of this connection was recorded with (the receipt's time, known
        #: without reading the event back)
        self.recorded = ""
        #: a game's record never changes (FISE-3) and, outside a disposable store, never goes: read once per
        #: connection
        self._infos: dict[str, GameInfo] = {}
        #: inside :meth:`deferred`: the appends not sent yet
        self._deferring = False
        self._pending: list[tuple[Any, ...]] = []
        #: the names :meth:`ensure` found or made on this connection
        self._ensured: set[str] = set()
        #: inside :meth:`at_once`: the appends wait for the block's end, and a read of them is refused
        self._at_once = False
        #: inside a pipelined transaction: the store's pipeline block, and the pipeline (:meth:`transaction`)
        self._pipe: Any = None
        self._piped: Any = None
        try:
            self.db: Connection = self.backend.connect()
        except self.backend.Error as e:
            raise JournalError(f"cannot open journal {self.path}: {e}") from None
        try:
            self.backend.migrate(self.db, self.transaction)
        except Exception as e:
            if not isinstance(e, (JournalError, *self.backend.Error)):
                raise
            self.db.close()
            raise JournalError(f"cannot open journal {self.path}: {e}") from None

    @property
    def store(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.backend.name

    def execute(self, statement: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one SQL statement (``?`` placeholders) and return its rows: for tools and tests. The database
        still refuses changes to events.

        :raises JournalError: with the database's own message.
        """
        self._raw_allowed()
        self._last.clear()  # a raw statement may have appended behind the journal's back
        self._flush()
        try:
            cursor = self.db.execute(self.backend.sql(statement), args)
            if self._pipe is not None:
                self._piped.sync()  # its answer, to know whether it has rows
            return list(cursor.fetchall()) if cursor.description else []
        except self.backend.Error as e:
            raise JournalError(f"{self.path}: {e}") from None

    def ask(self, statement: str, args: tuple[Any, ...] = ()) -> Callable[[], list[tuple[Any, ...]]]:
        """A query (``SELECT``, ``?`` placeholders) sent now, its rows read when the returned function is called:
        in a pipelined transaction its answer comes in the same round trip as the next read's (a group commit's
        throttle query travels with its refresh).

        :raises JournalError: with the database's own message (when sending, or when reading).
        """
        self._raw_allowed()
        self._last.clear()  # as :meth:`execute`
        self._flush()
        try:
            cursor = self.db.execute(self.backend.sql(statement), args)
        except self.backend.Error as e:
            raise JournalError(f"{self.path}: {e}") from None

        def rows() -> list[tuple[Any, ...]]:
            try:
                return list(cursor.fetchall())
            except self.backend.Error as e:
                raise JournalError(f"{self.path}: {e}") from None

        return rows

    def ensure(self, made: Sequence[tuple[str, str]]) -> None:
        """Make the tables and functions of a layer above the journal (the web's) that the store lacks: each
        ``(name, statement)`` whose name it has is left alone, so that once the owner made them a role with no
        CREATE right serves (docs/deploy.md). One transaction; processes starting at once queue on the schema's
        lock. Looked for once per connection.

        :raises JournalError: with the database's own message.
        """
        wanted = [(name, statement) for name, statement in made if name not in self._ensured]
        if not wanted:
            return
        try:
            with self.transaction():
                self.backend.lock_schema(self.db)
                found = self.backend.existing(self.db, [name for name, _ in wanted])
                for name, statement in wanted:
                    if name not in found:
                        self.db.execute(statement)
        except self.backend.Error as e:
            raise JournalError(f"{self.path}: {e}") from None
        self._ensured.update(name for name, _ in wanted)

    def _raw_allowed(self) -> None:
        if self._at_once:  # it might append behind the block's back, or need what the block appended
            raise NotAtOnce("a statement of its own inside a transaction sent at once")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- transactions --------------------------------------------------------------------------------------

    @contextmanager
    def transaction(self, game_id: str | None = None, *, pipelined: bool = False) -> Iterator[None]:
        """One writer at a time, whole or nothing: the outermost level is ``BEGIN`` … ``COMMIT`` (``ROLLBACK``
        on any exception); nested levels join it. With ``game_id``, no other writer of that game runs until it
        ends (SQLite: the whole file), so reads inside see every committed event.

        ``pipelined`` (a group commit; PostgreSQL only, nothing on SQLite): statements are sent without waiting
        for their answers. ``BEGIN`` and the lock go with the block's first read (see :meth:`ask`), and the
        block's appends (:meth:`deferred`), the notices and ``COMMIT`` go together at its end, where any failure
        of them is raised (:class:`JournalError`, the transaction rolled back): two round trips in all. No
        savepoint inside."""
        if self._depth:
            self._depth += 1
            try:
                if game_id is not None:
                    self._lock(game_id)
                yield
            finally:
                self._depth -= 1
            return
        b = self.backend
        self._forget()
        self._pipe = b.pipeline(self.db) if pipelined else None
        try:
            if self._pipe is not None:
                self._piped = self._pipe.__enter__()
            if game_id is None:
                b.begin(self.db)
            else:
                b.begin_locked(self.db, game_id)
                self._locked.add(game_id)
            self._depth = 1
        except b.Error as e:
            self._depth = 0
            self._rollback()
            if isinstance(e, b.OperationalError):
                raise JournalError(f"the journal {self.path} is busy or locked ({e}): try again") from None
            raise JournalError(f"the journal {self.path} is damaged: {e}") from None
        try:
            yield
        except BaseException:
            self._depth = 0
            self._forget()
            self._rollback()
            raise
        self._depth = 0
        announced = list(self._announce.items())
        try:
            announce = dict(self._announce)
            self._forget()
            b.commit(self.db, announce)
            self._end_pipeline()
        except b.Error as e:
            self._forget()
            self._rollback()
            raise JournalError(f"the journal {self.path} could not commit: {e}") from None
        if self.on_commit is not None:
            for gid, (seq, audience) in announced:
                self.on_commit(gid, seq, audience)

    def _end_pipeline(self) -> None:
        """Leave the pipeline, waiting for every answer: an error of any statement sent is raised here."""
        pipe, self._pipe, self._piped = self._pipe, None, None
        if pipe is not None:
            pipe.__exit__(None, None, None)

    @contextmanager
    def at_once(self, game_id: str, last: int, *, guard: tuple[str, tuple[Any, ...]] | None = None
                ) -> Iterator[None]:
        """A transaction of appends to one game sent as one statement when the block ends: one round trip
        (PostgreSQL only: :attr:`Backend.appends_at_once`). The block's appends are numbered after ``last``, the
        seq the caller's state of the game ends at, without asking the journal; at the end, under the game's lock,
        they are stored only if the game still ends at ``last``. If it does not (another writer got in first), if
        ``guard`` refuses (see :meth:`Backend.append_at_once`), or if the block reads what it appended,
        :class:`NotAtOnce` is raised and nothing is stored: the caller takes back what it decided on that state
        and goes the ordinary way (:meth:`transaction`). Reads of what is committed go on meanwhile.
        """
        b = self.backend
        if not b.appends_at_once or self._depth:
            raise JournalError("appends go at once outside a transaction, on PostgreSQL")
        self._forget()
        self._depth = 1
        self._locked.add(game_id)
        self._last[game_id] = last
        self._deferring = self._at_once = True
        try:
            yield
            rows, announce = self._pending, dict(self._announce)
        finally:
            self._depth = 0
            self._deferring = self._at_once = False
            self._pending = []
            self._forget()
        if not rows:
            return
        seq, audience = announce[game_id]
        try:
            found = b.append_at_once(self.db, game_id, last, rows, f"{game_id} {seq} {audience}", guard)
        except b.Error as e:
            raise NotAtOnce(f"the journal {self.path} could not store the appends at once: {e}") from None
        if found != last:
            raise NotAtOnce(f"game {game_id} ends at event {found}, not {last}" if found >= 0 else
                            f"game {game_id}: the guard {guard[0] if guard else ''} refused the appends", found)
        if self.on_commit is not None:
            self.on_commit(game_id, seq, audience)

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """The block's reads see one state of the journal, whatever other connections commit meanwhile (two
        counts compared must not straddle another writer's commit). Inside a transaction: that transaction."""
        if self._depth:
            yield
            return
        try:
            self.backend.begin_snapshot(self.db)
        except self.backend.Error as e:
            raise JournalError(f"the journal {self.path} cannot be read: {e}") from None
        try:
            yield
        finally:
            with suppress(*self.backend.Error):
                self.db.execute("ROLLBACK")

    def _rollback(self) -> None:
        with suppress(*self.backend.Error):
            self._end_pipeline()  # its error is the one being handled
        with suppress(*self.backend.Error):
            self.db.execute("ROLLBACK")

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Inside a transaction: the block's appends are queued and sent together when it ends, as one
        ``executemany`` (on PostgreSQL one round trip for a group commit's slips, not one per slip), or before
        any other statement of the block, so that its reads see them. A failure of any of them is raised when
        they are sent (:class:`JournalError`); the transaction is then to be rolled back. In a pipelined
        transaction they are sent without waiting: their failure is raised at the next read or at the commit."""
        if not self._depth:
            raise JournalError("appends are deferred inside a transaction")
        self._deferring = True
        try:
            yield
            self._flush()
        finally:
            self._deferring = False
            self._pending.clear()

    def _flush(self) -> None:
        """Send the queued appends."""
        if self._at_once and self._pending:
            raise NotAtOnce("a read of what the block appended: the appends cannot wait for its end")
        rows, self._pending = self._pending, []
        if not rows:
            return
        cursor = self.db.cursor()
        try:
            if len(rows) == 1:  # psycopg's executemany costs more than a plain statement for a single row
                cursor.execute(self.backend.sql(_INSERT_EVENT), rows[0])
            else:
                cursor.executemany(self.backend.sql(_INSERT_EVENT), rows)
        except self.backend.IntegrityError as e:
            raise JournalError(f"a game changed while appending ({e}): try again") from None
        except self.backend.Error as e:
            raise JournalError(f"cannot write to the journal {self.path}: {e}") from None
        finally:
            cursor.close()

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """Inside a transaction: if the block fails, what it appended is undone and the rest of the transaction
        kept (one slip of a group commit fails alone). Both stores know ``SAVEPOINT``."""
        if not self._depth or self._pipe is not None:
            raise JournalError("a savepoint is taken inside a transaction that is not pipelined")
        last, announce = dict(self._last), dict(self._announce)
        self._q("SAVEPOINT item")
        try:
            yield
        except BaseException:
            with suppress(*self.backend.Error):
                self.db.execute(self.backend.sql("ROLLBACK TO SAVEPOINT item"))
                self.db.execute(self.backend.sql("RELEASE SAVEPOINT item"))
            self._last.clear()
            self._last.update(last)
            self._announce.clear()
            self._announce.update(announce)
            raise
        self._q("RELEASE SAVEPOINT item")

    def _lock(self, game_id: str) -> None:
        if game_id not in self._locked:
            self.backend.lock_game(self.db, game_id)
            self._locked.add(game_id)

    def _forget(self) -> None:
        self._locked.clear()
        self._last.clear()
        self._announce.clear()

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    # --- writing -------------------------------------------------------------------------------------------

    def create_game(self, format: str, settings: dict[str, Any], game_id: str | None = None) -> str:
        """Register a game with its settings (fixed for its life, FISE-3); returns its id."""
        game_id = game_id or new_game_id()
        _check_game_id(game_id)
        check_payload(settings, "settings")  # nothing stored that replay cannot read
        try:
            with self.transaction(game_id):
                self._q(
                    "INSERT INTO game (id, format, created, settings) VALUES (?, ?, ?, ?)",
                    (game_id, format, _now(), _dumps(settings)),
                )
        except self.backend.IntegrityError:
            raise JournalError(f"a game {game_id!r} exists already") from None
        except self.backend.Error as e:
            raise JournalError(f"cannot write to the journal {self.path}: {e}") from None
        return game_id

    def append(self, game_id: str, kind: str, payload: dict[str, Any]) -> int:
        """Append one event and commit it (or join the transaction under way); returns its sequence number."""
        return self.append_many(game_id, [(kind, payload)])[0]

    def append_many(
        self, game_id: str, events: Iterable[tuple[str, dict[str, Any]]], *, expected_last: int | None = None
    ) -> list[int]:
        """Append events in one transaction: all are stored or none (a bulk slip file).

        ``expected_last``: the sequence number the caller's checks were made on; when another writer has
        appended since, nothing is stored (optimistic concurrency for callers outside :meth:`transaction`).

        :raises InputError: when a payload could not be replayed (:func:`arbitru.textinput.check_payload`):
            a text over its field's limit, undecodable bytes, a number of more than 9 digits.
        """
        events = list(events)
        for kind, payload in events:
            check_payload(payload, kind)
        try:
            with self.transaction(game_id):
                # the game's lock is held: what this transaction learnt of its last seq stays true
                last = self._last.get(game_id, -1)
                if last < 0:
                    self.game(game_id)
                    last = self.last_seq(game_id)
                if expected_last is not None and last != expected_last:
                    raise JournalError(
                        f"game {game_id} changed (event {last}, not {expected_last}): try again"
                    )
                seqs = []
                now = _now()
                for kind, payload in events:
                    last += 1
                    row = (game_id, last, kind, _dumps(payload), now, self.actor)
                    if self._deferring:
                        self._pending.append(row)
                    else:
                        self._q(_INSERT_EVENT, row)
                    seqs.append(last)
                self._last[game_id] = last
                self.recorded = now
                if seqs:
                    before = self._announce.get(game_id, (0, ""))[1]
                    self._announce[game_id] = (last, audience(events, before))
        except self.backend.IntegrityError as e:
            raise JournalError(f"game {game_id} changed while appending ({e}): try again") from None
        except self.backend.Error as e:
            raise JournalError(f"cannot write to the journal {self.path}: {e}") from None
        return seqs

    def import_game(self, info: GameInfo, events: Iterable[Event]) -> None:
        """Store a whole game as it was exported (ids, times, actors kept), in one transaction.

        :raises JournalError: when the game exists already or the events are not numbered 1, 2, 3...
        """
        _check_game_id(info.id)
        events = list(events)
        # the door's limits hold for an imported game as for one played here: nothing stored replay cannot read
        check_payload(info.settings, "settings")
        for e in events:
            check_text(e.kind, f"event {e.seq}", "kind")
            check_text(e.recorded, f"event {e.seq}", "recorded")
            check_payload(e.payload, f"event {e.seq} ({e.kind})")
        try:
            with self.transaction(info.id):
                if self._game_row(info.id) is not None:
                    raise JournalError(f"a game {info.id!r} exists already in {self.path}")
                self._q(
                    "INSERT INTO game (id, format, created, settings) VALUES (?, ?, ?, ?)",
                    (info.id, info.format, info.created, _dumps(info.settings)),
                )
                for expected, e in enumerate(events, 1):
                    if e.seq != expected:
                        raise JournalError(f"game {info.id}: event {e.seq} where event {expected} was due")
                    self._q(
                        "INSERT INTO event (game_id, seq, kind, payload, recorded, actor) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (info.id, e.seq, e.kind, _dumps(e.payload), e.recorded, check_actor(e.actor)),
                    )
        except self.backend.Error as e:
            raise JournalError(f"cannot write to the journal {self.path}: {e}") from None

    def discard_games(self, game_ids: Iterable[str]) -> None:
        """Delete whole games, in one transaction: only from a disposable store (old training games).

        :raises JournalError: on any other journal.
        """
        ids = list(game_ids)
        if not self.disposable:
            raise JournalError(f"the journal {self.path} keeps every game: games are never deleted from it")
        if not ids:
            return
        try:
            with self.transaction():
                self.backend.discard(self.db, ids)
        except self.backend.Error as e:
            raise JournalError(f"cannot write to the journal {self.path}: {e}") from None

    # --- reading -------------------------------------------------------------------------------------------

    def _game_row(self, game_id: str) -> tuple[Any, ...] | None:
        if _undecodable(game_id):  # an id typed with bytes that are not UTF-8 cannot even be looked up
            shown = game_id.encode("utf-8", "backslashreplace").decode()
            raise JournalError(f"game id {shown!r} holds bytes that are not UTF-8")
        try:
            row: tuple[Any, ...] | None = self._q(
                f"SELECT {self.backend.game_columns} FROM game WHERE id = ?", (game_id,)
            ).fetchone()
        except self.backend.Error as e:
            raise JournalError(f"the journal {self.path} is damaged (game {game_id}): {e}") from None
        return row

    def game(self, game_id: str) -> GameInfo:
        known = self._infos.get(game_id)
        if known is not None:
            return known
        row = self._game_row(game_id)
        if row is None:
            raise GameNotFound(f"no game {game_id!r} in {self.path}", game_id)
        info = _game_info(row)
        if not self.disposable:
            self._infos[game_id] = info
        return info

    def games(self, format: str | None = None) -> list[GameInfo]:
        return [_game_info(row) for row in self._game_rows(format)]

    def game_ids(self, format: str | None = None) -> list[str]:
        """Every game's id, even where a game's own record is damaged (``journal check`` reads on)."""
        return [str(row[0]) for row in self._game_rows(format)]

    def _game_rows(self, format: str | None) -> list[tuple[Any, ...]]:
        sql = f"SELECT {self.backend.game_columns} FROM game"
        try:
            rows: list[tuple[Any, ...]] = self._q(
                sql + (" WHERE format = ?" if format else "") + " ORDER BY created, id",
                (format,) if format else (),
            ).fetchall()
        except self.backend.Error as e:
            raise JournalError(f"the journal {self.path} is damaged (list of games): {e}") from None
        return rows

    def last_seq(self, game_id: str) -> int:
        try:
            (last,) = self._q(
                "SELECT COALESCE(MAX(seq), 0) FROM event WHERE game_id = ?", (game_id,)
            ).fetchone()
        except self.backend.Error as e:
            raise JournalError(f"the journal {self.path} is damaged (game {game_id}): {e}") from None
        return int(last)

    def events(self, game_id: str, kind: str | None = None) -> list[Event]:
        return list(self.iter_events(game_id, kind))

    def iter_events(self, game_id: str, kind: str | None = None, after: int = 0) -> Iterator[Event]:
        """The game's events in order (only ``kind``, only those after seq ``after``).

        :raises JournalError: naming the game and event when one cannot be read.
        """
        self.game(game_id)
        sql = f"SELECT {self.backend.event_columns} FROM event WHERE game_id = ? AND seq > ?"
        args: tuple[Any, ...] = (game_id, after)
        if kind:
            sql += " AND kind = ?"
            args += (kind,)
        seq: Any = after
        cursor = None
        try:
            cursor = self._q(sql + " ORDER BY seq", args)
            for row in cursor:
                seq = row[0]
                yield _event(game_id, row)
        except self.backend.Error as e:
            raise JournalError(f"game {game_id}: the journal is damaged after event {seq}: {e}") from None
        finally:
            # a read cut short (damage, or a caller that stops early) must not leave its statement open: on a
            # reused connection it would pin an old snapshot under the next write
            if cursor is not None:
                with suppress(*self.backend.Error):  # a generator dropped in another thread: SQLite's own cleanup
                    cursor.close()
        if not kind and game_id in self._locked:
            # read to the end under the game's lock: the next append need not ask for the last seq again
            self._last[game_id] = int(seq)

    # --- checking ------------------------------------------------------------------------------------------

    def integrity(self, quick: bool = False) -> list[str]:
        """The store's own integrity check (SQLite's ``integrity_check``, ``quick_check`` when ``quick``): empty
        when sound."""
        return self.backend.integrity(self.db, quick)

    def game_damage(self, game_id: str, *, deep: bool = False, pace: Callable[[], None] | None = None
                    ) -> GameDamage | None:
        """What is damaged in the game's stored events, or None when nothing is seen (nor for an unknown game).

        Always: the event numbers run 1..last with none missing (an index walk, cheap). ``deep``: besides, every
        event of the game is read and decoded, as a replay does; ``pace`` is called after every
        :data:`PACE_EVENTS` of them (a reader sharing its process with others may sleep there).
        """
        try:
            if _undecodable(game_id):
                return None
            # a game's row never changes: a look reads it once per connection, a deep check every time
            if (deep or game_id not in self._infos) and self._game_row(game_id) is None:
                return None
            with self.snapshot():  # another writer's commit between the two reads is no damage
                count, last = self._q(
                    "SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM event WHERE game_id = ?", (game_id,)
                ).fetchone()
                if count != last:
                    return GameDamage(game_id, last - count, last)
                if deep:
                    seen = 0
                    for _ in self.iter_events(game_id):
                        seen += 1
                        if pace is not None and not seen % PACE_EVENTS:
                            pace()
                    if seen != last:
                        return GameDamage(game_id, last - seen, last)
        except JournalError as e:
            return GameDamage(game_id, detail=str(e))
        except self.backend.Error as e:
            return GameDamage(game_id, detail=f"game {game_id}: the journal is damaged: {e}")
        return None

    def games_short_of_their_table(self) -> dict[str, GameDamage]:
        """Per game whose index of events and table of events disagree (an index page cut short drops events
        without any error): what is missing. One pass over each; empty when they agree, or when the table
        cannot be read through (its damaged pages are then found game by game, by :meth:`game_damage`)."""
        count = "SELECT game_id, COUNT(*), MAX(seq) FROM event {} GROUP BY game_id"
        failed: tuple[type[Exception], ...] = (*self.backend.Error, JournalError)
        try:
            with self.snapshot():  # a worker started while others write: their commits between the passes
                table = {g: (n, last) for g, n, last in self._all(count.format(self.backend.table_scan))}
                index = {g: (n, last) for g, n, last in self._all(count.format(""))}
        except failed:
            return {}
        out = {}
        for gid, (n, last) in table.items():
            seen, _ = index.get(gid, (0, 0))
            if seen != n:
                out[gid] = GameDamage(gid, n - seen, last)
        return out

    def _q(self, statement: str, args: tuple[Any, ...] = ()) -> Any:
        if self._pending:  # what the block appended goes first: every read sees it
            self._flush()
        return self.db.execute(self.backend.sql(statement), args)

    def _all(self, statement: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """Every row, the statement closed even when reading fails half-way (see :meth:`iter_events`)."""
        cursor = self._q(statement, args)
        try:
            return list(cursor.fetchall())
        finally:
            cursor.close()


class _Acting(Protocol):
    journal: Journal

    @property
    def id(self) -> str: ...

    def refresh(self) -> None: ...

    def reload(self) -> None: ...


_P = ParamSpec("_P")
_R = TypeVar("_R")
_S = TypeVar("_S", bound=_Acting)


def action(method: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
    """A format session's action (check the state, then append) as one journal transaction.

    Inside it the session first folds in what other writers appended (``refresh``), so its checks see the
    latest state; if the action fails, everything it appended is rolled back and the session rebuilds its
    state from the journal (``reload``). Actions called from actions join the outer transaction.
    """

    @functools.wraps(method)
    def run(self: _S, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if self.journal.in_transaction:
            return method(self, *args, **kwargs)
        try:
            with self.journal.transaction(self.id):
                self.refresh()
                return method(self, *args, **kwargs)
        except BaseException:
            self.reload()
            raise

    return cast(Callable[Concatenate[_S, _P], _R], run)


_INSERT_EVENT = "INSERT INTO event (game_id, seq, kind, payload, recorded, actor) VALUES (?, ?, ?, ?, ?, ?)"


def _check_game_id(game_id: str) -> None:
    if not isinstance(game_id, str) or not 1 <= len(game_id) <= 64:
        raise JournalError("a game id has 1 to 64 characters")
    if any(not (ch.isascii() and (ch.isalnum() or ch in "-_.")) for ch in game_id):
        raise JournalError(f"game id {game_id!r}: use ASCII letters, digits, '-', '_' and '.' only")


def _dumps(payload: dict[str, Any]) -> str:
    try:
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        raise JournalError(f"an event that cannot be stored as JSON: {e}") from None
    if _undecodable(text):  # a lone surrogate from undecodable input bytes
        raise JournalError("an event with text that is not valid Unicode cannot be stored")
    return text


def _text(game: str, what: str, raw: Any) -> str:
    if isinstance(raw, str):
        return raw
    if not isinstance(raw, bytes | bytearray):
        raise JournalError(f"game {game}: {what} is damaged (not text)")
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise JournalError(f"game {game}: {what} is damaged (not UTF-8)") from None


def _json_object(game: str, what: str, raw: Any) -> dict[str, Any]:
    text = _text(game, what, raw)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise JournalError(f"game {game}: {what} is damaged (not JSON: {e.msg})") from None
    except RecursionError:
        raise JournalError(f"game {game}: {what} is damaged (nested too deep)") from None
    if not isinstance(value, dict):
        raise JournalError(f"game {game}: {what} is damaged (not a JSON object)")
    return value


def _game_info(row: tuple[Any, ...]) -> GameInfo:
    game = _text("?", "a game id", row[0])
    return GameInfo(
        game,
        _text(game, "the game's format", row[1]),
        _text(game, "the game's creation time", row[2]),
        _json_object(game, "the game's settings", row[3]),
    )


def _event(game: str, row: tuple[Any, ...]) -> Event:
    seq = row[0]
    if not isinstance(seq, int):
        raise JournalError(f"game {game}: an event number is damaged ({seq!r})")
    what = f"event {seq}"
    return Event(
        seq,
        _text(game, f"{what}'s kind", row[1]),
        _json_object(game, f"{what}'s payload", row[2]),
        _text(game, f"{what}'s time", row[3]),
        _text(game, f"{what}'s actor", row[4] if row[4] is not None else b""),
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")
