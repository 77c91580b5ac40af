"""Where training games live: a store of their own beside the hall's journal, never in it.

A training game (``/train``, ``/train/anticipation``) is a visitor's scratch pad, not a referee's record: it is
kept out of the hall's index, standings, results, exports and copies by living in another store, and it is thrown
away when old. The store is:

- SQLite: the file ``<journal>.training.sqlite`` beside the hall's journal file;
- PostgreSQL: the schema ``<hall's schema>_training`` (``arbitru_training`` when the URL names none) of the same
  database, created on first use.

Both are shared by every ``serve --workers N`` process, like the hall's journal. The store is an ordinary journal
(the same tables and append-only triggers) opened as *disposable*: :func:`prune` alone deletes whole games.

Starts are counted per client (:func:`admit`): at most :data:`LIMIT` training games per :data:`WINDOW` seconds from
one address, counted in the store (so across workers). Kept: the games of the last :data:`KEEP_DAYS` days, at most
:data:`KEEP_GAMES` of them (the oldest go first); :func:`admit` prunes as it admits.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime, timedelta
from pathlib import Path

from arbitru.errors import ArbitruError
from arbitru.journal import sealed
from arbitru.journal.backends import PostgresBackend, SqliteBackend, backend_for, search_path, with_search_path
from arbitru.journal.store import Journal

#: training games one client address may start in :data:`WINDOW` seconds
LIMIT = 10
WINDOW = 600
#: how long a training game is kept, and how many at most
KEEP_DAYS = 7
KEEP_GAMES = 2000
SUFFIX = ".training.sqlite"
SCHEMA = "arbitru_training"

_QUOTA = """CREATE TABLE IF NOT EXISTS training_start (
    client TEXT NOT NULL,
    at BIGINT NOT NULL
)"""


class TooManyStarts(ArbitruError):
    """A client has started its :data:`LIMIT` training games of the window already."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"too many training games started from this address: try again in {wait} s")
        self.wait = wait


def store_address(hall: Path | str) -> str:
    """The training store beside the hall's journal ``hall`` (a path, ``sqlite:///…`` or ``postgresql://…``)."""
    backend = backend_for(hall)
    if isinstance(backend, PostgresBackend):
        schema = search_path(backend.spec)
        return with_search_path(backend.spec, f"{schema}_training" if schema else SCHEMA)
    assert isinstance(backend, SqliteBackend)
    if str(backend.path) == ":memory:":
        return ":memory:"
    return str(backend.path) + SUFFIX


def open_store(address: str, actor: str) -> Journal:
    """The training store at ``address`` (:func:`store_address`), created when missing."""
    backend = backend_for(address)
    if isinstance(backend, PostgresBackend):
        backend.create_schema()
    j = Journal(address, actor=actor, disposable=True)
    j.ensure([("training_start", _QUOTA)])
    return j


def client_key(secret: bytes, address: str) -> str:
    """A client address as counted: keyed by the server's secret, so the store holds no address in clear."""
    return hmac.new(secret, address.encode("utf-8", "backslashreplace"), hashlib.sha256).hexdigest()[:32]


def admit(j: Journal, client: str, now: float, *, limit: int = LIMIT, window: int = WINDOW) -> None:
    """Count one training start for ``client`` (:func:`client_key`), and prune the store.

    :raises TooManyStarts: when ``client`` has started ``limit`` games in the last ``window`` seconds already
        (nothing counted then).
    """
    since = int(now) - window
    with j.transaction(f"training-start:{client}"):
        rows = j.execute("SELECT COUNT(*), MIN(at) FROM training_start WHERE client = ? AND at > ?",
                         (client, since))
        count, first = rows[0]
        if int(count) >= limit:
            raise TooManyStarts(max(1, int(first) - since))
        j.execute("INSERT INTO training_start (client, at) VALUES (?, ?)", (client, int(now)))
        j.execute("DELETE FROM training_start WHERE at <= ?", (since,))
    prune(j, now)


def prune(j: Journal, now: float, *, keep_days: int = KEEP_DAYS, keep_games: int = KEEP_GAMES) -> list[str]:
    """Delete the training games older than ``keep_days`` days, and the oldest beyond ``keep_games``; returns
    their ids."""
    cutoff = (datetime.fromtimestamp(now, UTC) - timedelta(days=keep_days)).isoformat(timespec="microseconds")
    old = [str(r[0]) for r in j.execute("SELECT id FROM game WHERE created < ?", (cutoff,))]
    over = j.execute("SELECT id FROM game WHERE created >= ? ORDER BY created DESC, id DESC LIMIT 1000000 OFFSET ?",
                     (cutoff, keep_games))
    old += [str(r[0]) for r in over]
    with j.transaction():
        j.discard_games(old)
        sealed.forget(j, old)  # their draw secrets go with them
    return old
