"""The app's error pages, for every route: a refusal of the HTTP layer (:class:`HTTPException`) as a page in the
asked-for language or as JSON under ``/api/``, an unknown game as 404, a journal that cannot be read as 503 with
the damage banner. Part of the web's house: it imports no route.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from arbitru.errors import ArbitruError, GameNotFound, JournalError
from arbitru.journal.store import GameDamage
from arbitru.web import i18n
from arbitru.web.damage import refusal
from arbitru.web.house import game_language, identity, web
from arbitru.web.i18n import Text

log = logging.getLogger(__name__)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    gid = request.path_params.get("gid")
    what = web(request).damage.known(gid) if isinstance(gid, str) else None
    if what is not None:
        # whatever went wrong on a damaged game's page, the damage is what the reader must learn
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": refusal(what), "stored": False}, status_code=503)
        return web(request).damage_page(request.scope, what)
    if request.url.path.startswith("/api/"):
        # a slip (the API's only POST) refused before its door, e.g. for no such game: it says it is not stored
        stored = {"stored": False} if request.method == "POST" else {}
        return JSONResponse({"error": exc.detail, **stored}, status_code=exc.status_code)
    if exc.status_code == 401 and request.method in ("GET", "HEAD"):
        return await to_login(request, gid if isinstance(gid, str) else None, exc.detail)
    lang = await page_language(request, gid if isinstance(gid, str) else None)
    html = web(request).templates.get_template("error.html").render(
        request=request, me=identity(request), status=exc.status_code, message=exc.detail, lang=lang,
        _=i18n.gettext_for(lang)
    )
    return HTMLResponse(html, status_code=exc.status_code)


async def to_login(request: Request, gid: str | None, why: str) -> Response:
    """A page that needs a login, asked for by a visitor who has none (the console address ``serve`` printed):
    still a 401, but its body is the login form, in the game's language, that comes back here once he is in."""
    w = web(request)
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return w.render(request, "login.html", status=401, back=here, lang=await page_language(request, gid),
                    errors={"form": why})


async def page_language(request: Request, gid: str | None) -> str:
    """The language of an error page: the asked-for one (``?lang=``), else the game's, else English."""
    lang = request.query_params.get("lang")
    if lang not in i18n.LANGUAGES and gid is not None:
        try:
            lang = await run_in_threadpool(game_language, web(request), gid)
        except (ArbitruError, sqlite3.Error):
            lang = None  # an unknown or unreadable game: the asked-for language, else English
    return i18n.pick(lang, "en")


async def library_error(request: Request, exc: Exception) -> Response:
    """An unknown game is a 404; a game whose journal fails is checked again (a damaged one answers 503 with
    the damage banner); any other refusal of the library a 400 with its message."""
    gid = request.path_params.get("gid")
    unknown = isinstance(exc, GameNotFound)
    if isinstance(gid, str) and not unknown and isinstance(exc, JournalError | sqlite3.Error):
        w = web(request)

        def recheck() -> GameDamage | None:
            with w.journal("") as j:
                return w.damage.recheck(j, gid)

        await run_in_threadpool(recheck)
    if isinstance(exc, GameNotFound):
        return await http_error(request, HTTPException(404, i18n.no_game(exc.game or str(gid))))
    if isinstance(exc, sqlite3.Error | JournalError):
        # the journal's own message names its file: the server's log has it, the page says what to do
        log.warning("the journal failed on %s: %s", request.url.path, exc)
        return await http_error(request, HTTPException(503, Text("the journal cannot be read now: try again")))
    return await http_error(request, HTTPException(400, str(exc)))


async def client_gone(request: Request, exc: Exception) -> Response:
    """The sender went away in the middle of his request (a phone losing the hall's Wi-Fi, a load generator
    stopping): nothing of it was read or stored, and nobody is left to answer; no traceback in the log."""
    return Response(status_code=400)


exception_handlers: dict[Any, Any] = {
    ClientDisconnect: client_gone,
    HTTPException: http_error,
    ArbitruError: library_error,
    sqlite3.Error: library_error,  # a page SQLite cannot read, outside the journal's own wrapping
}
