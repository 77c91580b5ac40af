"""The games' draw secrets (:mod:`arbitru.formats.fairness`), kept in the journal's store apart from its public
record.

A game's settings and events are what the pages, the API, the exports and ``journal export`` show; its secret
is not among them. It lives in a table of its own, ``draw_secret``, written in the transaction that creates the
game and read only by the actions that draw (and, once the results are final, by what reveals it: the results
page, the API, ``journal export``, ``journal verify-draw``). ``journal copy`` carries it to the new store, so a
game moved mid-way still draws from the secret it committed to.
"""

from __future__ import annotations

from collections.abc import Sequence

from arbitru.errors import JournalError
from arbitru.journal.store import Journal

TABLE = "draw_secret"
SCHEMA = [(TABLE, f"""CREATE TABLE IF NOT EXISTS {TABLE} (
    game_id TEXT PRIMARY KEY,
    secret TEXT NOT NULL
)""")]


def keep(journal: Journal, game_id: str, secret: str) -> None:
    """Store a game's secret (once: a game has one secret for its life).

    :raises JournalError: when the game has one already.
    """
    journal.ensure(SCHEMA)
    if secret_of(journal, game_id) is not None:
        raise JournalError(f"game {game_id} has its draw secret already")
    journal.execute(f"INSERT INTO {TABLE} (game_id, secret) VALUES (?, ?)", (game_id, secret))


def forget(journal: Journal, game_ids: Sequence[str]) -> None:
    """Delete the secrets of games deleted whole (a training store's pruning: :meth:`Journal.discard_games`)."""
    if not game_ids:
        return
    journal.ensure(SCHEMA)
    marks = ", ".join("?" * len(game_ids))
    journal.execute(f"DELETE FROM {TABLE} WHERE game_id IN ({marks})", tuple(game_ids))


def secret_of(journal: Journal, game_id: str) -> str | None:
    """The secret of a game (None: it has none in this store)."""
    journal.ensure(SCHEMA)
    rows = journal.execute(f"SELECT secret FROM {TABLE} WHERE game_id = ?", (game_id,))
    return str(rows[0][0]) if rows else None
