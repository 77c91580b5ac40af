"""Training alone (``/train``): a duplicate game against the program. Each rack, the player's move, then the
master move and his percentage so far, as the desktop arbiters' solo mode. It is an ordinary duplicate game with
one player, stored in the training store (:mod:`arbitru.journal.training`), never in the hall's journal; the
library judges and places everything."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from arbitru.engine.tiles import LANGUAGES, UNKNOWN_LANGUAGE
from arbitru.errors import ArbitruError
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import RULESETS, ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.web import views, wordlists
from arbitru.web.forms import LANG_BY_RULES, Refused, count_start, declared, not_yours, read_form, sign_in_player, whole
from arbitru.web.house import Web, identity, web
from arbitru.web.i18n import Text

TRAINEE = "1"


def _start_page(request: Request, status: int = 200, form: dict[str, str] | None = None,
                errors: dict[str, str] | None = None) -> Response:
    w = web(request)
    return w.render(request, "train/start.html", status=status, rulesets=sorted(RULESETS), form=form or {},
                    errors=errors or {}, word_lists=wordlists.offered_by_language(w))


async def start_page(request: Request) -> Response:
    return await run_in_threadpool(_start_page, request)


async def start(request: Request) -> Response:
    w = web(request)
    f: dict[str, str] = {}
    try:
        f = await read_form(request)
        rules_name = f.get("rules") or "fise"
        if rules_name not in RULESETS:
            raise Refused("rules", Text("unknown rule set %(name)s; known: %(known)s", name=repr(rules_name[:20]),
                                                known=", ".join(sorted(RULESETS))))
        lang = f.get("lang") or LANG_BY_RULES[rules_name]
        if lang not in LANGUAGES:
            raise Refused("lang", Text(UNKNOWN_LANGUAGE, lang=repr(lang[:8]), known=", ".join(LANGUAGES)))
        moves = whole(f, "moves", 10)

        def create() -> str:
            name = wordlists.chosen(w, f.get("lexicon", ""), lang)
            try:
                lex = w.lexicon(name, lang)
                rs = ruleset(rules_name, moves=moves)
                settings = Settings(rs, lang, name, seed="", title="Training")
            except ArbitruError as e:
                raise Refused("lexicon", str(e)) from None
            with w.training(f"player:{TRAINEE}") as j:
                count_start(request, j)
                s = Session.create(j, settings, lex, [Player(TRAINEE, "trainee")])
                s.draw()
                return s.id

        gid = await run_in_threadpool(create)
    except Refused as e:
        return await run_in_threadpool(_start_page, request, e.status, f, {e.field: e.message})
    response = RedirectResponse(f"/train/{gid}", 303)
    sign_in_player(request, response, gid, TRAINEE)
    return response


def _trainee(request: Request) -> str:
    me = identity(request)
    gid = str(request.path_params["gid"])
    if me.role != "player" or me.game != gid:
        raise not_yours("/train")
    return gid


def _context(w: Web, gid: str) -> dict[str, Any]:
    with w.training("", gid) as j:
        s = w.session(j, gid)
        g = s.game
        res = views.result(s)
        line = res.line(TRAINEE) if res is not None else None
        return {
            "game": g,
            "board": views.board_rows(g),
            "rows": views.row_letters(),
            "rack": views.rack_tiles(g),
            "master": views.master_view(g),
            "result": res,
            "line": line,
        }


async def play(request: Request) -> Response:
    w = web(request)
    gid = _trainee(request)
    return w.render(request, "train/play.html", **(await run_in_threadpool(_context, w, gid)))


async def move(request: Request) -> Response:
    """The trainee's move, then the master move and the next rack."""
    w = web(request)
    gid = _trainee(request)
    try:
        f = await read_form(request)

        def run() -> None:
            with w.training(f"player:{TRAINEE}", gid) as j, w.writer(j, gid) as s:
                s.lexicon = w.lexicon(s.settings.lexicon, s.settings.lang)
                if s.game.phase != "play":
                    raise Refused("move", Text("the game is over"))
                slip = Slip(s.game.move, TRAINEE, f.get("position", ""), f.get("word", ""), declared(f))
                s.store_slips([slip], replace=True)
                step = s.place_master()
                if step.kind == "master":
                    s.draw()

        await run_in_threadpool(run)
    except (Refused, ArbitruError) as e:
        field, text = (e.field, e.message) if isinstance(e, Refused) else ("move", str(e))
        ctx = await run_in_threadpool(_context, w, gid)
        return w.render(request, "train/play.html", status=422, errors={field: text}, **ctx)
    return RedirectResponse(f"/train/{gid}", 303)
