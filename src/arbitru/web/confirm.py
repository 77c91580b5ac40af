"""Actions that cannot be undone, confirmed by a second request (a new rack, ending a game, drawing every lot,
closing a move with slips missing, replacing a stored slip, publishing the final ranking before the deadline).

The first request acts on nothing: it answers with a page saying what will happen and a one-time token. Only a
second request carrying that token acts. The token is single-use and bound to the session, the game, the action,
the game's journal position and the form's fields; it lives in the ``web_confirm`` table beside the journal's
events (never among them), so every worker honours it once. A double tap, a form sent again, or a token offered
before the game moved on finds no token and gets a fresh confirmation page: nothing acts twice or by accident.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from arbitru.journal.store import Journal
from arbitru.messages import Text
from arbitru.web import auth
from arbitru.web.house import web
from arbitru.web.i18n import keep

SCHEMA = (
    ("web_confirm", "CREATE TABLE IF NOT EXISTS web_confirm (token TEXT PRIMARY KEY, sid TEXT NOT NULL, "
     "game TEXT NOT NULL, action TEXT NOT NULL, seq INTEGER NOT NULL, fields TEXT NOT NULL, "
     "created DOUBLE PRECISION NOT NULL)"),
)
#: an offered confirmation unused this long is gone (seconds): the arbiter decides now, or asks again
TOKEN_LIFE = 600
#: the form field carrying the token; never part of the fields it binds
FIELD = "confirm"
_NOT_BOUND = (FIELD, "csrf")


@dataclass
class Needed(Exception):
    """The action waits for its confirmation: what will happen (messages in the page's language) and the token
    the confirming request must carry."""

    action: str
    what: Sequence[Text]
    token: str
    fields: dict[str, str]

    def __str__(self) -> str:
        return "; ".join(t.message for t in self.what)


def _key(text: str) -> str:
    # stored hashed, as sessions are: reading the database gives no usable token
    return hashlib.sha256(text.encode()).hexdigest()


def _bound(fields: dict[str, str]) -> str:
    return json.dumps({k: v for k, v in sorted(fields.items()) if k not in _NOT_BOUND}, ensure_ascii=False)


def ensure_schema(journal: Journal) -> None:
    journal.ensure(SCHEMA)


def offer(journal: Journal, ident: auth.Identity, game: str, action: str, seq: int, fields: dict[str, str],
          now: float | None = None) -> str:
    """A new one-time token for ``action`` on ``game`` at journal position ``seq`` with these ``fields``."""
    now = time.time() if now is None else now
    token = secrets.token_urlsafe(24)
    ensure_schema(journal)
    with journal.transaction():
        journal.execute("DELETE FROM web_confirm WHERE created < ?", (now - TOKEN_LIFE,))
        journal.execute(
            "INSERT INTO web_confirm (token, sid, game, action, seq, fields, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (_key(token), _key(ident.sid), game, action, seq, _bound(fields), now),
        )
    return token


def redeem(journal: Journal, ident: auth.Identity, game: str, action: str, seq: int, fields: dict[str, str],
           now: float | None = None) -> bool:
    """Whether ``fields`` carry a live token for exactly this: the token is spent whatever the answer (a token
    shown once is never good twice)."""
    token = fields.get(FIELD, "")
    if not token:
        return False
    now = time.time() if now is None else now
    ensure_schema(journal)
    with journal.transaction(game):
        rows = journal.execute("SELECT sid, action, seq, fields, created FROM web_confirm WHERE token = ?",
                               (_key(token),))
        journal.execute("DELETE FROM web_confirm WHERE token = ?", (_key(token),))
    if not rows:
        return False
    sid, was_action, was_seq, was_fields, created = rows[0]
    return (sid == _key(ident.sid) and was_action == action and int(was_seq) == seq
            and was_fields == _bound(fields) and now - float(created) <= TOKEN_LIFE)


def check(journal: Journal, ident: auth.Identity, game: str, action: str, seq: int, fields: dict[str, str],
          what: Sequence[Text] | None) -> None:
    """Let the action go on when it needs no confirmation (``what`` is empty) or ``fields`` carry its live token;
    else raise :class:`Needed` with a new token (the old one, if any, is spent)."""
    if not what:
        return
    if redeem(journal, ident, game, action, seq, fields):
        return
    token = offer(journal, ident, game, action, seq, fields)
    raise Needed(action, list(what), token, {k: v for k, v in fields.items() if k not in _NOT_BOUND})


def page(request: Request, needed: Needed, back: str, lang: str) -> Response:
    """The confirmation page: what will happen, the same form again with its token, and the way back."""
    return web(request).render(request, "confirm.html", status=200, lang=lang, what=needed.what,
                               fields=needed.fields, token=needed.token,
                               action_url=request.url.path + keep(request.query_params.get("lang")), back=back,
                               title=title(needed.action, needed.fields))


def title(action: str, fields: dict[str, str]) -> Text:
    """The confirmation page's title: the action's, or what its form says it is (a duplicate draw that ends the
    game, a provisional publication that ends the game, a slip typed after the results that is the chief
    arbiter's decision)."""
    # a duplicate draw asks only when it is a new rack, or when it ends the game (the planned moves played)
    if action == "draw" and fields.get("new") != "1":
        return TITLES["end"]
    if action == "publish" and fields.get("stage") == "provisional":
        return Text("End the game and publish the provisional results?")
    if action == "table" and fields.get("reason", "").strip():
        return Text("Record the chief arbiter's decision (RO-6.5)?")
    return TITLES.get(action, Text("Confirm"))


#: the confirmation page's title for each action (the action's form field)
TITLES = {
    "draw": Text("A new rack (FISE-16)?"),
    "end": Text("End the game?"),
    "close": Text("Close the move now?"),
    "desk": Text("Store this slip so?"),
    "decide": Text("Take this decision?"),
    "table": Text("Replace a stored slip?"),
    "lot": Text("Draw every remaining lot (RO-4.4)?"),
    "publish": Text("Publish the final ranking before the deadline?"),
    "seat": Text("Change a player's seat?"),
    "withdraw": Text("Change a player's seat?"),
    "late": Text("A late entry (RO-5.1)?"),
}
