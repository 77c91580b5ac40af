"""The two stores behind :class:`~arbitru.journal.store.Journal`: SQLite (embedded, the default) and PostgreSQL
(several web workers, replicas, backups). Same schema and guarantees; what differs lives here and nowhere else.

- **Append-only**: triggers refuse ``UPDATE`` and ``DELETE`` of events (and ``TRUNCATE`` on PostgreSQL).
- **One writer per game at a time**: SQLite's ``BEGIN IMMEDIATE`` takes the file's write lock; PostgreSQL takes a
  transaction-scoped advisory lock on the game (``pg_advisory_xact_lock``) before anything is read, so writers
  of different games never wait for each other.
- **Order**: events are numbered per game, ``(game_id, seq)`` is the primary key.
- **Durability**: ``synchronous=FULL`` on SQLite, ``synchronous_commit=on`` on PostgreSQL.

A store is named by ``--db``: a path or ``sqlite:///path`` for SQLite, ``postgresql://…`` for PostgreSQL.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import zlib
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from arbitru.errors import JournalError

#: how long a writer waits for another one's transaction before giving up (seconds)
BUSY_TIMEOUT = 30.0

_MESSAGES = {
    "event_update": "journal events are never changed: append a correction instead",
    "event_delete": "journal events are never deleted: append a correction instead",
    "game_update": "a game's settings are fixed when it is created",
}

#: the PostgreSQL channel on which every commit names its game and last event: ``"<game id> <seq>"``
CHANNEL = "arbitru_journal"
#: PostgreSQL: the function that stores a transaction's appends in one statement (:meth:`Journal.at_once`)
APPEND_CURRENT = "arbitru_append_current"
#: the two tables, the same on both stores
TABLES = [
    """CREATE TABLE IF NOT EXISTS game (
    id TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    created TEXT NOT NULL,
    settings TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS event (
    game_id TEXT NOT NULL REFERENCES game(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    recorded TEXT NOT NULL,
    actor TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, seq)
)""",
]

SQLITE_SCHEMA = [
    *TABLES,
    f"""CREATE TRIGGER IF NOT EXISTS event_no_update BEFORE UPDATE ON event
BEGIN SELECT RAISE(ABORT, '{_MESSAGES["event_update"]}'); END""",
    f"""CREATE TRIGGER IF NOT EXISTS event_no_delete BEFORE DELETE ON event
BEGIN SELECT RAISE(ABORT, '{_MESSAGES["event_delete"]}'); END""",
    """CREATE TRIGGER IF NOT EXISTS game_no_update BEFORE UPDATE ON game
BEGIN SELECT RAISE(ABORT, 'a game''s settings are fixed when it is created'); END""",
]

POSTGRES_SCHEMA = [
    *TABLES,
    """CREATE OR REPLACE FUNCTION arbitru_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '%', TG_ARGV[0]; END $$""",
    f"""CREATE OR REPLACE TRIGGER event_no_update BEFORE UPDATE ON event
FOR EACH ROW EXECUTE FUNCTION arbitru_append_only('{_MESSAGES["event_update"]}')""",
    f"""CREATE OR REPLACE TRIGGER event_no_delete BEFORE DELETE ON event
FOR EACH ROW EXECUTE FUNCTION arbitru_append_only('{_MESSAGES["event_delete"]}')""",
    f"""CREATE OR REPLACE TRIGGER event_no_truncate BEFORE TRUNCATE ON event
FOR EACH STATEMENT EXECUTE FUNCTION arbitru_append_only('{_MESSAGES["event_delete"]}')""",
    """CREATE OR REPLACE TRIGGER game_no_update BEFORE UPDATE ON game
FOR EACH ROW EXECUTE FUNCTION arbitru_append_only('a game''s settings are fixed when it is created')""",
    """CREATE OR REPLACE TRIGGER game_no_delete BEFORE DELETE ON game
FOR EACH ROW EXECUTE FUNCTION arbitru_append_only('a game''s settings are fixed when it is created')""",
    # a whole transaction as one statement (Journal.at_once): under the game's lock, the events are stored and
    # announced only if the game still ends at p_last, the seq the caller's state holds; returns the last seq found
    f"""CREATE OR REPLACE FUNCTION {APPEND_CURRENT}(p_game text, p_lock integer, p_last integer, p_rows text,
    p_notice text)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE found integer;
BEGIN
    PERFORM pg_advisory_xact_lock(1, p_lock);
    SELECT COALESCE(MAX(seq), 0) INTO found FROM event WHERE game_id = p_game;
    IF found <> p_last THEN
        RETURN found;
    END IF;
    -- p_rows: a JSON array of [seq, kind, payload, recorded, actor] (one text: psycopg dumps it in C)
    INSERT INTO event (game_id, seq, kind, payload, recorded, actor)
        SELECT p_game, (r->>0)::integer, r->>1, r->>2, r->>3, r->>4 FROM json_array_elements(p_rows::json) AS r;
    PERFORM pg_notify('{CHANNEL}', p_notice);
    RETURN found;
END $$""",
]

_TRIGGERS = {"event_no_update", "event_no_delete", "game_no_update"}
_PG_TRIGGERS = _TRIGGERS | {"event_no_truncate", "game_no_delete"}
#: the advisory lock that serialises schema creation between workers starting at once (:meth:`lock_schema`)
_SCHEMA_LOCK = 0x4A524E4C


class Connection(Protocol):
    def execute(self, sql: Any, params: Sequence[Any] = ...) -> Any: ...

    def cursor(self) -> Any: ...

    def close(self) -> None: ...


class Backend:
    """What one store does its own way. Statements are written with ``?`` placeholders."""

    name = ""
    #: what the database raises: any error, a broken constraint, a lock or connection problem
    Error: tuple[type[Exception], ...] = ()
    IntegrityError: tuple[type[Exception], ...] = ()
    OperationalError: tuple[type[Exception], ...] = ()
    #: a SELECT list that reads an event's text columns (as bytes where the store may hold broken text)
    event_columns = "seq, kind, payload, recorded, actor"
    game_columns = "id, format, created, settings"
    #: after ``FROM event``: read the table itself, not its index (to compare the two)
    table_scan = ""
    #: whether a transaction's appends can be sent as one statement at its end (:meth:`append_at_once`)
    appends_at_once = False

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.display = spec

    def connect(self) -> Connection:
        raise NotImplementedError

    def migrate(self, db: Connection, transaction: Any) -> None:
        raise NotImplementedError

    def begin(self, db: Connection) -> None:
        db.execute("BEGIN")

    def begin_snapshot(self, db: Connection) -> None:
        """A read-only transaction whose statements all see the journal as it stood at its first read."""
        db.execute("BEGIN")  # SQLite in WAL mode: a read transaction keeps the snapshot of its first read

    def lock_game(self, db: Connection, game_id: str) -> None:
        """Inside a transaction: no other writer of this game until it ends."""

    def sql(self, statement: str) -> str:
        return statement

    def notify(self, db: Connection, game_id: str, seq: int, audience: str = "*") -> None:
        """Inside the appending transaction: tell other processes, at commit, that the game has changed."""

    def begin_locked(self, db: Connection, game_id: str) -> None:
        """``begin`` then ``lock_game``."""
        self.begin(db)
        self.lock_game(db, game_id)

    def pipeline(self, db: Connection) -> AbstractContextManager[Any] | None:
        """A block whose statements are sent without waiting for their answers, which come with the next read
        or at its end (where any error of them is raised); None for a store that has none (SQLite: no round
        trips to save)."""
        return None

    def commit(self, db: Connection, announce: dict[str, tuple[int, str]]) -> None:
        """``notify`` each game's last event and its audience, then ``COMMIT``."""
        for game_id, (seq, audience) in announce.items():
            self.notify(db, game_id, seq, audience)
        db.execute("COMMIT")

    def integrity(self, db: Connection, quick: bool = False) -> list[str]:
        return []

    def existing(self, db: Connection, names: Sequence[str]) -> set[str]:
        """Which of these tables, triggers or functions the store has (in the schema it works in)."""
        marks = ", ".join("?" * len(names))
        rows = db.execute(self.sql(f"SELECT name FROM sqlite_master WHERE name IN ({marks})"), tuple(names))
        return {str(r[0]) for r in rows}

    def lock_schema(self, db: Connection) -> None:
        """Inside a transaction: no other process changes the schema until it ends (SQLite: BEGIN IMMEDIATE
        holds the file's write lock already)."""

    def append_at_once(self, db: Connection, game_id: str, last: int, rows: Sequence[tuple[Any, ...]],
                       notice: str, guard: tuple[str, tuple[Any, ...]] | None = None) -> int:
        """Outside a transaction, one statement, one round trip: under the game's lock, store ``rows`` (events
        numbered after ``last``) and send ``notice`` if the game's last event is still ``last``; returns the last
        seq found (``last``: stored; another: nothing stored). ``guard``: a function of the store's schema called
        instead, with its own arguments first, that returns -1 (nothing stored) or calls this one."""
        raise NotImplementedError

    def discard(self, db: Connection, game_ids: Sequence[str]) -> None:
        """Inside a transaction: delete whole games, past the append-only triggers (a training store's pruning
        only: :mod:`arbitru.journal.training`)."""
        raise NotImplementedError

    def _delete(self, db: Connection, game_ids: Sequence[str]) -> None:
        marks = ", ".join("?" * len(game_ids))
        db.execute(self.sql(f"DELETE FROM event WHERE game_id IN ({marks})"), tuple(game_ids))
        db.execute(self.sql(f"DELETE FROM game WHERE id IN ({marks})"), tuple(game_ids))


class SqliteBackend(Backend):
    name = "sqlite"
    Error = (sqlite3.Error,)
    IntegrityError = (sqlite3.IntegrityError,)
    OperationalError = (sqlite3.OperationalError,)
    event_columns = (
        "seq, CAST(kind AS BLOB), CAST(payload AS BLOB), CAST(recorded AS BLOB), CAST(actor AS BLOB)"
    )
    game_columns = "id, format, created, CAST(settings AS BLOB)"
    table_scan = "NOT INDEXED"

    def __init__(self, spec: str) -> None:
        super().__init__(spec)
        self.path = Path(spec)

    def connect(self) -> Connection:
        if str(self.path) != ":memory:" and not self.path.exists():
            # a new journal is its owner's only: it holds the web's password hashes and sessions (SQLite gives
            # its -wal and -shm files the database file's mode)
            with contextlib.suppress(FileExistsError, FileNotFoundError):
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error:
            db.close()
            raise
        return db

    def migrate(self, db: Connection, transaction: Any) -> None:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if {"game", "event", *_TRIGGERS} <= names and self._has_actor(db):
            return
        with transaction():
            for statement in SQLITE_SCHEMA:
                db.execute(statement)
            if not self._has_actor(db):
                db.execute("ALTER TABLE event ADD COLUMN actor TEXT NOT NULL DEFAULT ''")

    @staticmethod
    def _has_actor(db: Connection) -> bool:
        return "actor" in {row[1] for row in db.execute("PRAGMA table_info(event)")}

    def begin(self, db: Connection) -> None:
        db.execute("BEGIN IMMEDIATE")

    def integrity(self, db: Connection, quick: bool = False) -> list[str]:
        try:
            # quick_check skips matching indexes to tables: linear in the file, for a server's start
            rows = db.execute("PRAGMA quick_check" if quick else "PRAGMA integrity_check").fetchall()
        except sqlite3.DatabaseError as e:
            return [str(e)]
        problems = [str(r[0]) for r in rows]
        return [] if problems == ["ok"] else problems

    def discard(self, db: Connection, game_ids: Sequence[str]) -> None:
        # DDL is transactional in SQLite: no other connection ever sees the table without its trigger
        db.execute("DROP TRIGGER IF EXISTS event_no_delete")
        self._delete(db, game_ids)
        db.execute(next(s for s in SQLITE_SCHEMA if "event_no_delete" in s))


class PostgresBackend(Backend):
    name = "postgresql"

    def __init__(self, spec: str) -> None:
        super().__init__(spec)
        import psycopg

        self.psycopg = psycopg
        self.Error = (psycopg.Error,)
        self.IntegrityError = (psycopg.IntegrityError,)
        self.OperationalError = (psycopg.OperationalError,)
        parts = urlsplit(spec)
        # never print a password
        netloc = parts.netloc.rsplit("@", 1)
        if len(netloc) == 2:
            user = netloc[0].split(":", 1)[0]
            netloc = [f"{user}@{netloc[1]}"]
        self.display = urlunsplit(parts._replace(netloc=netloc[0]))

    def connect(self) -> Connection:
        db = self.psycopg.connect(self.spec, autocommit=True, connect_timeout=int(BUSY_TIMEOUT))
        try:
            db.execute("SET synchronous_commit = on")
            db.execute(f"SET lock_timeout = '{int(BUSY_TIMEOUT)}s'")
        except self.psycopg.Error:
            db.close()
            raise
        return db

    def migrate(self, db: Connection, transaction: Any) -> None:
        if self._current(db):
            return
        with transaction():
            self.lock_schema(db)
            for statement in POSTGRES_SCHEMA:
                db.execute(statement)
            db.execute("ALTER TABLE event ADD COLUMN IF NOT EXISTS actor TEXT NOT NULL DEFAULT ''")

    @staticmethod
    def _current(db: Connection) -> bool:
        tables = {r[0] for r in db.execute(
            "SELECT table_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'event' AND column_name = 'actor'"
        )}
        if "event" not in tables:
            return False
        triggers = {r[0] for r in db.execute(
            "SELECT tgname FROM pg_trigger WHERE tgrelid IN ('event'::regclass, 'game'::regclass) UNION ALL "
            "SELECT proname FROM pg_proc WHERE proname = %s AND pronamespace = current_schema()::regnamespace",
            (APPEND_CURRENT,),
        )}
        return triggers >= _PG_TRIGGERS | {APPEND_CURRENT}

    def begin_snapshot(self, db: Connection) -> None:
        db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def existing(self, db: Connection, names: Sequence[str]) -> set[str]:
        rows = db.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = ANY(%s) UNION ALL "
            "SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace AND proname = ANY(%s)",
            (list(names), list(names)),
        )
        return {str(r[0]) for r in rows}

    def lock_schema(self, db: Connection) -> None:
        db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))

    def lock_game(self, db: Connection, game_id: str) -> None:
        db.execute("SELECT pg_advisory_xact_lock(%s, %s)", (1, _game_lock(game_id)))

    # a transaction is BEGIN, the lock, its statements, the notices and COMMIT. Outside a pipeline the first two
    # and the last ones go as one string each (psycopg sends a string of statements without parameters in one
    # round trip), its values quoted by psycopg; in a pipeline (a group commit) each is a statement of its own,
    # prepared, sent with the reads that follow (BEGIN, lock) or with the appends and the pipeline's end
    def begin_locked(self, db: Connection, game_id: str) -> None:
        from psycopg import sql

        if _pipelined(db):
            db.execute("BEGIN")
            self.lock_game(db, game_id)
            return
        db.execute(sql.SQL("BEGIN; SELECT pg_advisory_xact_lock(1, {})").format(_game_lock(game_id)))

    def commit(self, db: Connection, announce: dict[str, tuple[int, str]]) -> None:
        from psycopg import sql

        if _pipelined(db):
            for game_id, (seq, audience) in announce.items():
                self.notify(db, game_id, seq, audience)
            db.execute("COMMIT")
            return
        notices = [sql.SQL("SELECT pg_notify({}, {}); ").format(CHANNEL, f"{gid} {seq} {audience}")
                   for gid, (seq, audience) in announce.items()]
        db.execute(sql.Composed([*notices, sql.SQL("COMMIT")]))

    def pipeline(self, db: Connection) -> AbstractContextManager[Any] | None:
        return cast(AbstractContextManager[Any], db.pipeline())  # type: ignore[attr-defined]

    appends_at_once = True

    def append_at_once(self, db: Connection, game_id: str, last: int, rows: Sequence[tuple[Any, ...]],
                       notice: str, guard: tuple[str, tuple[Any, ...]] | None = None) -> int:
        function, first = guard or (APPEND_CURRENT, ())
        if not function.isidentifier():
            raise ValueError(f"not a function's name: {function!r}")
        # rows are (game, seq, kind, payload, recorded, actor), as _INSERT_EVENT takes them
        args = (*first, game_id, _game_lock(game_id), last, json.dumps([row[1:] for row in rows]), notice)
        marks = ", ".join(["%s"] * len(first) + list(_AT_ONCE_TYPES))
        (found,) = db.execute(f"SELECT {function}({marks})", args).fetchone()
        return int(found)

    def sql(self, statement: str) -> str:
        return statement.replace("?", "%s")

    def discard(self, db: Connection, game_ids: Sequence[str]) -> None:
        # transactional too; ALTER TABLE holds the tables' lock until COMMIT
        for table, trigger in (("event", "event_no_delete"), ("game", "game_no_delete")):
            db.execute(f"ALTER TABLE {table} DISABLE TRIGGER {trigger}")
        self._delete(db, game_ids)
        for table, trigger in (("event", "event_no_delete"), ("game", "game_no_delete")):
            db.execute(f"ALTER TABLE {table} ENABLE TRIGGER {trigger}")

    def create_schema(self) -> None:
        """Create the schema the URL's ``options=-csearch_path=…`` names, when missing (a training store's)."""
        schema = search_path(self.spec)
        if not schema:
            return
        with self.psycopg.connect(_without_search_path(self.spec), autocommit=True,
                                  connect_timeout=int(BUSY_TIMEOUT)) as db:
            if db.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone() is None:
                db.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')

    def notify(self, db: Connection, game_id: str, seq: int, audience: str = "*") -> None:
        # delivered to every LISTENer when the transaction commits, never if it rolls back
        db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id} {seq} {audience}"))


#: the placeholders of :data:`APPEND_CURRENT`'s arguments, typed (psycopg would pick an integer's width)
_AT_ONCE_TYPES = ("%s", "%s::integer", "%s::integer", "%s", "%s")


def _pipelined(db: Connection) -> bool:
    return bool(db.pgconn.pipeline_status)  # type: ignore[attr-defined]


def _game_lock(game_id: str) -> int:
    """A game's advisory lock: a stable key, crc32 of the id, kept apart from the schema lock by its class 1."""
    return zlib.crc32(game_id.encode()) & 0x7FFFFFFF


_SEARCH_PATH = re.compile(r"-c\s*search_path=([A-Za-z0-9_]+)")


def search_path(url: str) -> str:
    """The schema a PostgreSQL URL's ``options=-csearch_path=…`` names ('' for none)."""
    for key, value in parse_qsl(urlsplit(url).query):
        if key == "options":
            m = _SEARCH_PATH.search(value)
            if m:
                return m.group(1)
    return ""


def _without_search_path(url: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "options" or not _SEARCH_PATH.search(v)]
    return urlunsplit(parts._replace(query=urlencode(query)))


def with_search_path(url: str, schema: str) -> str:
    """The same PostgreSQL server and database, with its tables in ``schema``."""
    parts = urlsplit(_without_search_path(url))
    query = [*parse_qsl(parts.query), ("options", f"-csearch_path={schema}")]
    return urlunsplit(parts._replace(query=urlencode(query)))


def journal_exists(spec: Path | str) -> bool:
    """Whether a journal is there to open: a SQLite file that exists; a PostgreSQL URL always (connecting tells)."""
    backend = backend_for(spec)
    return not isinstance(backend, SqliteBackend) or backend.path.exists() or str(backend.path) == ":memory:"


def backend_for(spec: Path | str) -> Backend:
    """The store a ``--db`` value names.

    :raises JournalError: for a URL of another database.
    """
    text = str(spec)
    if text.startswith(("postgresql://", "postgres://")):
        try:
            return PostgresBackend(text)
        except ImportError:
            raise JournalError("PostgreSQL needs the psycopg package: pip install 'psycopg[binary]'") from None
    if text.startswith("sqlite:///"):
        return SqliteBackend(text[len("sqlite:///"):])  # sqlite:///rel/path, sqlite:////abs/path
    if "://" in text:
        raise JournalError(f"unknown journal store {text.split('://', 1)[0]!r}: a path, sqlite:///… or postgresql://…")
    return SqliteBackend(text)


def listen(spec: str, timeout: float = 1.0) -> Any:
    """PostgreSQL: a generator of ``(game id, seq, audience)`` for every commit of any writer, in any process, from now
    on; it yields ``None`` every ``timeout`` seconds without news, so the caller can stop. For live pages (SSE)
    served by several workers."""
    import psycopg

    db = psycopg.connect(spec, autocommit=True)
    try:
        db.execute(f"LISTEN {CHANNEL}")
        while True:
            got = False
            for note in db.notifies(timeout=timeout):
                game, seq, *rest = note.payload.rsplit(" ", 2)
                got = True
                yield game, int(seq), rest[0] if rest else "*"
            if not got:
                yield None
    finally:
        db.close()
