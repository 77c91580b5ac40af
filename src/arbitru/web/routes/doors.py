"""The doors of the hall, for every format: the index of games and desks, logging in and out, the arbiter's view of
the doors (security), the desks' accounts, the live updates of a game's pages (Server-Sent Events) and htmx."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response, StreamingResponse

from arbitru.errors import ArbitruError, JournalError
from arbitru.formats import DUPLICATE
from arbitru.messages import Text
from arbitru.textinput import ascii_number
from arbitru.web import assets, auth, i18n, security
from arbitru.web.forms import Refused, need, read_form
from arbitru.web.house import TOLD, Endpoint, client, device, identity, login_as, remember_device, web

log = logging.getLogger("arbitru.web")


async def index(request: Request) -> Response:
    w = web(request)

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            games = j.games(DUPLICATE.name)
            return {"games": games, "desks": auth.desks(j) if identity(request).can_run() else []}

    return w.render(request, "index.html", **(await run_in_threadpool(load)))


async def login_page(request: Request) -> Response:
    return web(request).render(request, "login.html", back=back_to(request.query_params.get("next")))


def back_to(page: str | None) -> str | None:
    """The page a login came from (``?next=``), when it is a path of this site: never another site's address
    (``//host``, ``https://…``, a backslash browsers read as a slash) nor a header-splitting line end."""
    if not page or not page.startswith("/") or page.startswith("//") or "\\" in page:
        return None
    if any(ord(c) < 32 or ord(c) == 127 for c in page):
        return None
    return page


async def login(request: Request) -> Response:
    w = web(request)
    try:
        f = await read_form(request)
        name = f.get("name") or auth.ARBITER
        door = f"{security.LOGIN}:{name[: auth.MAX_NAME]}"

        def check() -> str:
            with w.journal("") as j:
                return security.try_login(j, w.limits, name, f.get("password", ""), client(request),
                                          device(request, door))

        role = await run_in_threadpool(check)
    except (Refused, auth.AuthError) as e:
        field = e.field if isinstance(e, Refused) else "password"
        throttled = isinstance(e, security.Throttled)
        status = 429 if throttled else e.status if isinstance(e, Refused) else 401
        back = back_to(f.get("next")) if isinstance(e, auth.AuthError) else None
        refused = w.render(request, "login.html", status=status, back=back,
                           errors={field: e.message if isinstance(e, Refused) else str(e)})
        if isinstance(e, security.Throttled):
            refused.headers["Retry-After"] = str(e.wait)
        return refused
    back = back_to(f.get("next") or request.query_params.get("next"))
    response = RedirectResponse(back or "/" + i18n.keep(request.query_params.get("lang")), 303)
    await run_in_threadpool(login_as, request, response, auth.Identity(auth.new_sid(), role, name))
    remember_device(request, response, door)
    return response


async def logout(request: Request) -> Response:
    """The session ends on the server: its cookie, kept or copied, no longer opens anything."""
    await read_form(request)
    response = RedirectResponse("/", 303)
    await run_in_threadpool(login_as, request, response, auth.Identity(auth.new_sid()))
    return response


async def security_page(request: Request) -> Response:
    """The arbiter's view of the doors: failed attempts (who, from where, when, what) and who must wait now."""
    w = web(request)
    need(request, "arbiter")

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            auth.ensure_schema(j)
            now = w.limits.clock()
            return {"attempts": security.attempts(j), "waiting": security.waiting(j, now),
                    "alerts": security.alerts(j, w.limits, now), "limits": w.limits}

    return w.render(request, "security.html", **(await run_in_threadpool(load)))


async def add_desk(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    try:
        f = await read_form(request)

        def add() -> None:
            with w.journal("arbiter") as j:
                if f.get("name") == auth.ARBITER:
                    raise auth.AuthError(Text("that name is the arbiter's"))
                auth.set_password(j, f.get("name", ""), f.get("password", ""), "desk")

        await run_in_threadpool(add)
    except (Refused, auth.AuthError) as e:
        with w.journal("") as j:
            games, desks = j.games(DUPLICATE.name), auth.desks(j)
        return w.render(request, "index.html", status=422, games=games, desks=desks, errors={"desk": str(e)})
    return RedirectResponse("/" + i18n.keep(request.query_params.get("lang")), 303)


def events(pushed: Mapping[str, Callable[[Request], str]]) -> Endpoint:
    """The live events of a game's pages (Server-Sent Events), with the fragments ``pushed`` by name.

    A page is told at most once a second, and only of changes that concern it: the staff's pages (arbiter,
    desks) of every change, a player's phone of all but the other players' slips, any other page of all but
    slips (:mod:`arbitru.web.live`). A game that does not exist answers 404 (no connection held open).

    Told of a change, a page gets ``changed`` with the game's latest seq and fetches again what it shows; or, when
    it names one of ``pushed`` (``?push=play``: the phone's live part, the same endpoint as its refetch URL, with
    the same query), the fragment itself as ``live``, rendered on the open stream: ten thousand phones told of a
    close are ten thousand writes on connections already open, not ten thousand requests. Should the fragment
    fail, the page is told ``changed`` and refetches. A comment every 15 s keeps the stream open.

    Every event carries the seq it tells of as its ``id``, and the stream opens with the game's position as one:
    a browser that lost its stream reconnects with the last as ``Last-Event-ID``, and is told at once when the game
    is not where it left it (moved on meanwhile; a journal brought back from a copy): its part pushed, or
    ``changed``; else nothing. So a hall's phones reconnecting after a network blip cost a stream each, not a
    stream and a refetch; the page refetches by itself only when its stream never opened (no id to resume from)."""

    async def endpoint(request: Request) -> Response:
        w = web(request)
        gid = request.path_params["gid"]
        me = identity(request)

        def position() -> int | None:
            """The game's position (None: no such game)."""
            with w.journal("") as j:
                try:
                    j.game(gid)
                except JournalError:
                    return None
                return w.position(j, gid)

        # a game this worker saw lately at a position above 0 has events, so it exists: a hall's phones reconnecting
        # at once ask the journal nothing
        at = w.known_position(gid) or await run_in_threadpool(position)
        if at is None:
            raise HTTPException(404, i18n.no_game(gid))
        player = me.player if me.role == "player" and me.game == gid else ""
        page = pushed.get(request.query_params.get("push", ""))
        resumed = ascii_number(request.headers.get("last-event-id", "")[:20])

        async def told(seq: int) -> str:
            w.saw(gid, seq)  # the fragment (pushed or refetched) reads that position at least
            request.scope[TOLD] = seq
            html = await _fragment(page, request) if page is not None else None
            return f"event: changed\nid: {seq}\ndata: {seq}\n\n" if html is None else _event("live", html, seq)

        async def stream() -> AsyncIterator[str]:
            sub = w.publisher.subscribe(gid, player=player, staff=me.can_enter_slips())
            # a change between the position's look and the subscription: known here, or heard of another worker
            now = max(at, w.known_position(gid) or 0, w.publisher.heard(gid) or 0)
            try:
                # what changed while the browser was away, told now; else the position to resume from
                away = resumed is not None and resumed != now
                yield "retry: 2000\n" + (await told(now) if away else f"id: {now}\n\n")
                while True:  # a phone gone cancels this stream (the response listens for its disconnect)
                    seq = await sub.next(15)
                    if seq is None:
                        yield ": keep-alive\n\n"
                        continue
                    yield await told(seq)
            finally:
                sub.close()

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )

    return endpoint


async def _fragment(part: Callable[[Request], str], request: Request) -> str | None:
    """``part`` for this stream's request (its path and query, who asks), or None when it refuses or fails: the
    page is then told to fetch it again (a failure is logged; the stream stays open)."""
    try:
        return await web(request).push(part, request)
    except (HTTPException, ArbitruError):
        return None
    except Exception:
        log.exception("a pushed live part failed: %s", request.url.path)
        return None


def _event(name: str, text: str, seq: int) -> str:
    """One Server-Sent Event carrying ``text`` (a ``data:`` line per line: a CR would end a line too), its id the
    seq it tells of."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    return f"event: {name}\nid: {seq}\ndata: " + lines.replace("\n", "\ndata: ") + "\n\n"


async def htmx_js(request: Request) -> Response:
    path = assets.htmx_path()
    if path is None:
        return Response("/* htmx is not installed: run ./arbitru once */", media_type="text/javascript")
    return FileResponse(path, media_type="text/javascript")
