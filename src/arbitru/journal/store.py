"""The game journal: an append-only log of referee events in SQLite, from which every state is replayed.

Nothing is ever overwritten: a correction is a new event. Each append is its own transaction, committed with
``synchronous=FULL`` before the call returns, so a slip that was entered survives a crash at any later moment.
Triggers make the database itself refuse updates and deletes of events.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.db"
>>> with Journal(path) as j:
...     game = j.create_game("duplicate", {"lang": "es"})
...     j.append(game, "rack", {"tiles": "ABC"})
...     [e.kind for e in j.events(game)]
1
['rack']
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arbitru.errors import JournalError
from arbitru.textinput import InputError, check_payload, check_text

SCHEMA = """
CREATE TABLE IF NOT EXISTS game (
    id TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    created TEXT NOT NULL,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS event (
    game_id TEXT NOT NULL REFERENCES game(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    recorded TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TRIGGER IF NOT EXISTS event_no_update BEFORE UPDATE ON event
BEGIN SELECT RAISE(ABORT, 'journal events are never changed: append a correction instead'); END;
CREATE TRIGGER IF NOT EXISTS event_no_delete BEFORE DELETE ON event
BEGIN SELECT RAISE(ABORT, 'journal events are never deleted: append a correction instead'); END;
CREATE TRIGGER IF NOT EXISTS game_no_update BEFORE UPDATE ON game
BEGIN SELECT RAISE(ABORT, 'a game''s settings are fixed when it is created'); END;
"""


@dataclass(frozen=True)
class Event:
    """One journal entry: ``seq`` counts from 1 within a game; ``payload`` is plain JSON data."""

    seq: int
    kind: str
    payload: dict[str, Any]
    recorded: str


@dataclass(frozen=True)
class GameInfo:
    id: str
    format: str
    created: str
    settings: dict[str, Any]


class Journal:
    """A journal database holding any number of games (anticipation, duplicate)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            raise JournalError(f"cannot open journal {self.path}: {e}") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing -------------------------------------------------------------------------------------------

    def create_game(self, format: str, settings: dict[str, Any], game_id: str | None = None) -> str:
        """Register a game with its settings (fixed for its life, FISE-3); returns its id."""
        game_id = game_id or uuid.uuid4().hex[:12]
        check_text(game_id, "game id", "number")
        check_payload(settings, "settings")
        try:
            with self._transaction():
                self.db.execute(
                    "INSERT INTO game (id, format, created, settings) VALUES (?, ?, ?, ?)",
                    (game_id, format, _now(), json.dumps(settings, ensure_ascii=False, sort_keys=True)),
                )
        except sqlite3.IntegrityError:
            raise JournalError(f"a game {game_id!r} exists already") from None
        return game_id

    def append(self, game_id: str, kind: str, payload: dict[str, Any]) -> int:
        """Append one event and commit it; returns its sequence number."""
        return self.append_many(game_id, [(kind, payload)])[0]

    def append_many(self, game_id: str, events: Iterable[tuple[str, dict[str, Any]]]) -> list[int]:
        """Append events in one transaction: all are stored or none (a bulk slip file).

        :raises InputError: when a payload could not be replayed (:func:`arbitru.textinput.check_payload`).
        """
        events = list(events)
        for kind, payload in events:
            check_payload(payload, kind)
        with self._transaction():
            self.game(game_id)
            sql = "SELECT COALESCE(MAX(seq), 0) FROM event WHERE game_id = ?"
            (last,) = self.db.execute(sql, (game_id,)).fetchone()
            seqs = []
            now = _now()
            for kind, payload in events:
                last += 1
                self.db.execute(
                    "INSERT INTO event (game_id, seq, kind, payload, recorded) VALUES (?, ?, ?, ?, ?)",
                    (game_id, last, kind, json.dumps(payload, ensure_ascii=False, sort_keys=True), now),
                )
                seqs.append(last)
        return seqs

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)

    # --- reading -------------------------------------------------------------------------------------------

    def game(self, game_id: str) -> GameInfo:
        try:
            check_text(game_id, "game id", "number")
        except InputError as e:
            raise JournalError(str(e)) from None
        row = self.db.execute("SELECT id, format, created, settings FROM game WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id!r} in {self.path}")
        return GameInfo(row[0], row[1], row[2], json.loads(row[3]))

    def games(self, format: str | None = None) -> list[GameInfo]:
        sql = "SELECT id, format, created, settings FROM game"
        rows = self.db.execute(sql + (" WHERE format = ?" if format else "") + " ORDER BY created, id",
                               (format,) if format else ()).fetchall()
        return [GameInfo(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    def events(self, game_id: str, kind: str | None = None) -> list[Event]:
        return list(self.iter_events(game_id, kind))

    def iter_events(self, game_id: str, kind: str | None = None) -> Iterator[Event]:
        self.game(game_id)
        sql = "SELECT seq, kind, payload, recorded FROM event WHERE game_id = ?"
        args: tuple[Any, ...] = (game_id,)
        if kind:
            sql += " AND kind = ?"
            args += (kind,)
        for seq, k, payload, recorded in self.db.execute(sql + " ORDER BY seq", args):
            yield Event(seq, k, json.loads(payload), recorded)


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT``: one writer at a time, whole or nothing."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")
