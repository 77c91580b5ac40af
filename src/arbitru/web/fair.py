"""What the pages and the API say of a game's draws (:mod:`arbitru.formats.drawcheck`)."""

from __future__ import annotations

from arbitru.errors import ArbitruError
from arbitru.formats import drawcheck
from arbitru.journal.store import Journal


def shown(j: Journal, gid: str) -> drawcheck.Account | None:
    """What the results page and the API say of the game's draws (its secret once the results are final)."""
    try:
        return drawcheck.account(j, gid)
    except ArbitruError:
        return None


def said(j: Journal, gid: str) -> drawcheck.Account | None:
    """What the console and the projection say (never the secret: they show a running game)."""
    try:
        return drawcheck.account_of(j.game(gid))
    except ArbitruError:
        return None
