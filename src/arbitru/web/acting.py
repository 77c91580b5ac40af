"""The one way a page performs a library action (:func:`act`): the form read and its sender checked, one library
call in one journal connection with the actor of who asks, then back to the page (or the page again, with the
refusal beside the field it concerns). Both formats' consoles, desks and reviews act through it. Part of the web's
house: it imports no route.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from arbitru.errors import ArbitruError, GameNotFound
from arbitru.journal.store import Journal
from arbitru.textinput import InputError
from arbitru.web import auth, confirm, i18n, notices
from arbitru.web.forms import Refused, need, read_form, refused
from arbitru.web.house import Endpoint, Web, game_language, web


@dataclass(frozen=True)
class Page:
    """The page an action comes from: its template, what it shows again after a refusal (``context(w, gid, me,
    request, form)``: ``form``, the fields sent, for what of them the page keeps beyond the refused form itself),
    the address it goes back to after the action (``back(gid, form)``, without the ``done`` message) and from a
    confirmation page (``home``, with ``{gid}``); ``beside(field, name, form)``: where a page of several forms whose
    fields share names shows the refusal of field ``name`` of action ``field``'s form, ``form`` its fields as sent
    (its ``errors`` key; None: ``name``)."""

    template: str
    context: Callable[[Web, str, auth.Identity, Request, dict[str, str]], dict[str, Any]]
    back: Callable[[str, dict[str, str]], str]
    home: str = "/games/{gid}"
    beside: Callable[[str, str, dict[str, str]], str] | None = None


#: before an action that cannot be undone: ``confirming(seq, what)`` returns when the request confirms ``what``
#: (what the action will do, at journal position ``seq``; nothing asked when empty), else raises
#: :class:`arbitru.web.confirm.Needed` (the confirmation page is shown)
Confirming = Callable[[int, list[Any]], None]
#: the library call: ``perform(w, journal, game_id, form, confirming)`` returns what the page says was done
Perform = Callable[[Web, Journal, str, dict[str, str], Confirming], str]


def act(role: str, field: str, perform: Perform, page: Page, limits: dict[str, int] | None = None,
        doors: bool = True) -> Endpoint:
    """An action sent by ``role`` (``arbiter``, ``desk``) from ``page``; a refusal is shown beside ``field`` when
    it names none (``doors``: a refusal of an input's door is said in the page's language, beside its own field).
    The action's message goes back as its code and values (:mod:`arbitru.web.notices`): the page says it in its
    language. A page asked in another language is gone back to in it.
    The live pages learn of what it appended from its commit (:attr:`Journal.on_commit`)."""

    async def endpoint(request: Request) -> Response:
        w = web(request)
        me = need(request, role)  # a stranger's POST holds nothing back (a flood of them would mute the game)
        # the arbiter's answer before the pages his action wakes
        with w.answered_first(request.path_params["gid"]) as answer:
            return answer(await answered(request, w, me))

    async def answered(request: Request, w: Web, me: auth.Identity) -> Response:
        gid = request.path_params["gid"]
        asked = request.query_params.get("lang")  # the page's reader asked for another language: kept
        f: dict[str, str] = {}
        try:
            f = await read_form(request, limits)

            def run() -> str:  # its commit tells the live pages (Journal.on_commit)
                with w.journal(me.actor) as j:

                    def confirming(seq: int, what: list[Any]) -> None:
                        confirm.check(j, me, gid, field, seq, f, what)

                    return perform(w, j, gid, f, confirming)

            message = await run_in_threadpool(run)
        except confirm.Needed as e:
            home = page.home.format(gid=gid) + i18n.keep(asked)
            lang = asked if asked in i18n.LANGUAGES else await run_in_threadpool(game_language, w, gid)
            return await run_in_threadpool(confirm.page, request, e, home, lang)
        except (Refused, ArbitruError) as e:
            if isinstance(e, GameNotFound):
                raise HTTPException(404, i18n.no_game(gid)) from None
            if doors and isinstance(e, InputError):
                e = refused(e, field)
            if isinstance(e, Refused) and e.typed is not None:
                f = e.typed  # refused at the door: the fields as typed, shown again to be corrected
            where, text, status = (e.field, e.message, e.status) if isinstance(e, Refused) else (field, str(e), 422)
            if page.beside is not None:
                where = page.beside(field, where, f)
            problems = list(getattr(e, "problems", []))

            def again() -> Response:  # the page again (a console of thousands of rows: drawn in a thread)
                ctx = page.context(w, gid, me, request, f)
                return w.render(request, page.template, status=status, errors={where: text}, form=f, done="",
                                problems=problems, **ctx)

            return await run_in_threadpool(again)
        back = page.back(gid, f)
        if asked in i18n.LANGUAGES:
            back += ("&" if "?" in back else "?") + f"lang={asked}"
        sep = "&" if "?" in back else "?"
        done = f"{sep}done={quote(notices.carry(message)[:notices.MAX])}" if message else ""
        return RedirectResponse(f"{back}{done}#{field}", 303)

    return endpoint
