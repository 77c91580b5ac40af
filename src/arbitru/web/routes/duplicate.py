"""Duplicate pages: the arbiter's console, the desk's slip form, the projection screen, the player's phone.

Every action is a form POST with the session's CSRF token; it runs one library call in one journal connection
with the actor of who asks. A refusal is shown beside the field it concerns, never as a server error page.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import segno
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from arbitru.errors import ArbitruError, GameNotFound, JournalError
from arbitru.formats.duplicate import racks
from arbitru.formats.duplicate.game import (
    ENGINES,
    SOURCES,
    VARIANTS,
    Game,
    GameError,
    Player,
    Session,
    Settings,
    Step,
    read_players_csv,
)
from arbitru.formats.duplicate.rulesets import BONUS_MODES, RULESETS, ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import GameDamage, Journal
from arbitru.season import tournament
from arbitru.textinput import (
    MAX_DIGITS,
    MAX_INT,
    REASONS,
    InputError,
    check_whole,
    number_order,
    parse_signed,
)
from arbitru.web import asks, assets, auth, confirm, i18n, security, views
from arbitru.web.app import Web, client, identity, login_as, web
from arbitru.web.damage import refusal
from arbitru.web.intake import SlipRequest, at_the_door
from arbitru.web.routes import results as results_routes

MAX_FIELD = 200
MAX_CSV = 20_000
LANG_BY_RULES = {"fise": "es", "greek": "el", "romanian": "ro"}


class Refused(Exception):
    """A form refused: the field it concerns and the message shown beside it."""

    def __init__(self, field: str, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.status = status


# --- forms ---------------------------------------------------------------------------------------------


async def read_form(request: Request, limits: dict[str, int] | None = None) -> dict[str, str]:
    """The form's fields as text, its CSRF token checked; too long or undecodable fields are refused."""
    limits = limits or {}
    try:
        form = await request.form(max_files=0, max_fields=100, max_part_size=64 * 1024)
    except Exception as e:  # a malformed body is the sender's fault, said plainly
        raise Refused("form", f"the form could not be read: {e}", 400) from None
    fields: dict[str, str] = {}
    for key, value in form.multi_items():
        if not isinstance(value, str):
            raise Refused(key, "no files here", 400)
        if "\ufffd" in value or "\x00" in value:
            raise Refused(key, "this field is not valid text (UTF-8)", 400)
        if len(value) > limits.get(key, MAX_FIELD):
            raise Refused(key, f"too long: at most {limits.get(key, MAX_FIELD)} characters", 400)
        fields[key] = value.strip()
    w = web(request)
    if not auth.check_csrf(w.secret, identity(request), fields.get("csrf", "")):
        raise HTTPException(403, "the form's security token is missing or stale: reload the page and try again")
    return fields


def need(request: Request, role: str) -> auth.Identity:
    """The identity, when it may do ``role``'s work (``arbiter``, ``desk``: arbiter or desk)."""
    me = identity(request)
    ok = me.can_run() if role == "arbiter" else me.can_enter_slips()
    if not ok:
        raise HTTPException(403 if me.role != "public" else 401, f"this needs the {role}: log in")
    return me


def _int(fields: dict[str, str], name: str, default: int | None = None) -> int | None:
    """A whole number typed in a form: ASCII digits (``²`` and ``١٢`` are not numbers), within storage's range."""
    text = fields.get(name, "")
    if not text:
        return default
    try:
        return check_whole(parse_signed(text, name) if len(text) <= MAX_DIGITS + 1 else None, name)
    except InputError:
        e = InputError(text, field=name, reason=REASONS[3], text=repr(text), low=-MAX_INT, high=MAX_INT)
        raise Refused(name, i18n.refusal(e)) from None


def refused(e: InputError, field: str) -> Refused:
    """A door's refusal beside its field (``field`` when it names none), in the page's language."""
    return Refused(e.field or field, i18n.refusal(e))


# --- index, login, desks ---------------------------------------------------------------------------------


async def index(request: Request) -> Response:
    w = web(request)

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            games = j.games("duplicate")
            return {"games": games, "desks": auth.desks(j) if identity(request).can_run() else []}

    return w.render(request, "index.html", **(await run_in_threadpool(load)))


async def login_page(request: Request) -> Response:
    return web(request).render(request, "login.html")


async def login(request: Request) -> Response:
    w = web(request)
    try:
        f = await read_form(request)
        name = f.get("name") or auth.ARBITER

        def check() -> str:
            with w.journal("") as j:
                return security.try_login(j, w.limits, name, f.get("password", ""), client(request))

        role = await run_in_threadpool(check)
    except (Refused, auth.AuthError) as e:
        field = e.field if isinstance(e, Refused) else "password"
        throttled = isinstance(e, security.Throttled)
        refused = w.render(request, "login.html", status=429 if throttled else 401, errors={field: str(e)})
        if isinstance(e, security.Throttled):
            refused.headers["Retry-After"] = str(e.wait)
        return refused
    response = RedirectResponse("/", 303)
    await run_in_threadpool(login_as, request, response, auth.Identity(auth.new_sid(), role, name))
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
            return {"attempts": security.attempts(j), "waiting": security.waiting(j, w.limits.clock()),
                    "limits": w.limits}

    return w.render(request, "security.html", **(await run_in_threadpool(load)))


async def add_desk(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    try:
        f = await read_form(request)

        def add() -> None:
            with w.journal("arbiter") as j:
                if f.get("name") == auth.ARBITER:
                    raise auth.AuthError("that name is the arbiter's")
                auth.set_password(j, f.get("name", ""), f.get("password", ""), "desk")

        await run_in_threadpool(add)
    except (Refused, auth.AuthError) as e:
        with w.journal("") as j:
            games, desks = j.games("duplicate"), auth.desks(j)
        return w.render(request, "index.html", status=422, games=games, desks=desks, errors={"desk": str(e)})
    return RedirectResponse("/", 303)


# --- creating a game ---------------------------------------------------------------------------------------


def read_players(text: str) -> list[Player]:
    """Players from CSV (:func:`~arbitru.formats.duplicate.game.read_players_csv`), refused beside the field."""
    try:
        return read_players_csv(text)
    except GameError as e:
        raise Refused("players", str(e)) from None


def settings_from(f: dict[str, str]) -> tuple[Settings, list[Player]]:
    rules_name = f.get("rules") or "fise"
    if rules_name not in RULESETS:
        raise Refused("rules", f"unknown rule set {rules_name!r}")
    lang = f.get("lang") or LANG_BY_RULES[rules_name]
    bonus = f.get("bonus") or None
    if bonus is not None and bonus not in BONUS_MODES:
        raise Refused("bonus", f"bonus mode: one of {', '.join(BONUS_MODES)}")
    try:
        rs = ruleset(rules_name, moves=_int(f, "moves"), seconds=_int(f, "seconds"), bonus_mode=bonus)
    except ArbitruError as e:
        raise Refused("rules", str(e)) from None
    source = f.get("racks") or "seed"
    if source not in SOURCES or source == "prepared":
        raise Refused("racks", "racks: from the seed or drawn by hand in the hall")
    variant = f.get("variant") or "standard"
    engine = f.get("engine") or "compiled"
    if variant not in VARIANTS or engine not in ENGINES:
        raise Refused("variant", "unknown variant or engine")
    try:
        settings = Settings(
            rs,
            lang,
            f.get("lexicon", ""),
            seed=f.get("seed") or __import__("secrets").token_hex(4),
            racks=source,
            variant=variant,
            engine=engine,
            new_order=f.get("new_order") or "draw",
            title=f.get("title", ""),
        )
    except ArbitruError as e:
        raise Refused("lang", str(e)) from None
    return settings, read_players(f.get("players", ""))


async def new_game_page(request: Request) -> Response:
    from arbitru.web import wordlists  # it refuses with this module's Refused

    need(request, "arbiter")
    w = web(request)
    return w.render(request, "duplicate/new.html", rulesets=sorted(RULESETS),
                    word_lists=wordlists.offered_by_language(w),
                    **await _in_tournament(request, request.query_params.get("tournament", "")))


async def _in_tournament(request: Request, tid: str) -> dict[str, Any]:
    """A tournament's next game: its players and rule set filled in (:mod:`arbitru.web.routes.season`)."""
    from arbitru.web.routes.season import tournament_game_form

    return await run_in_threadpool(tournament_game_form, web(request), request, tid, "duplicate") if tid else {
        "form": {}}


async def new_game(request: Request) -> Response:
    from arbitru.web import wordlists

    w = web(request)
    need(request, "arbiter")
    f: dict[str, str] = {}
    try:
        f = await read_form(request, {"players": MAX_CSV})
        settings, players = settings_from(f)

        def create() -> str:
            name = wordlists.chosen(w, settings.lexicon, settings.lang)
            try:
                lex = w.lexicon(name, settings.lang)
            except ArbitruError as e:
                raise Refused("lexicon", str(e)) from None
            final = _with_lexicon(settings, name)
            with w.journal("arbiter") as j:
                if f.get("tournament"):  # its players are the tournament's entries
                    try:
                        return tournament.create_duplicate_game(j, f["tournament"], final, lex)
                    except ArbitruError as e:
                        raise Refused("players", str(e)) from None
                return Session.create(j, final, lex, players).id

        gid = await run_in_threadpool(create)
    except Refused as e:
        return w.render(
            request, "duplicate/new.html", status=e.status, rulesets=sorted(RULESETS),
            **(await _in_tournament(request, f.get("tournament", ""))) | {"form": f}, errors={e.field: e.message},
            word_lists=wordlists.offered_by_language(w),
        )
    return RedirectResponse(f"/games/{gid}", 303)


def _with_lexicon(settings: Settings, name: str) -> Settings:
    import dataclasses

    return dataclasses.replace(settings, lexicon=name)


# --- the console -------------------------------------------------------------------------------------------


def console_context(w: Web, j: Journal, gid: str, me: auth.Identity) -> dict[str, Any]:
    s = w.session(j, gid)
    g = s.game
    cands = []
    if g.phase == "play" and me.can_run():
        try:
            cands = s.candidates()
        except ArbitruError:
            cands = []
    _ = i18n.gettext_for(g.settings.lang)
    return {
        "session": s,
        "game": g,
        "lang": g.settings.lang,
        "_": _,
        "cands": cands,
        "alpha": g.alphabet,
        "grid": views.grid(s, j),
        "clock": views.clock(g, _=_),
        "rack": views.rack_tiles(g),
        "master": views.master_view(g),
        "cues": views.rack_cues(g, _=_),
        "notation": g.rules.notation,
    }


async def console(request: Request) -> Response:
    w = web(request)
    me = need(request, "desk")
    gid = request.path_params["gid"]

    def load() -> dict[str, Any]:
        with w.journal(me.actor) as j:
            return console_context(w, j, gid, me)

    ctx = await run_in_threadpool(load)
    ctx["done"] = request.query_params.get("done", "")[:300]
    return w.render(request, "duplicate/console.html", **ctx)


async def grid_fragment(request: Request) -> Response:
    w = web(request)
    me = need(request, "desk")
    gid = request.path_params["gid"]

    def load() -> Response:
        with w.journal(me.actor) as j:
            s = w.session(j, gid)
            return w.fragment(request, gid, s.game.last_seq, "", "duplicate/_grid.html",
                              lambda: {"game": s.game, "grid": views.grid(s, j)})

    return await run_in_threadpool(load)


def act(
    role: str, field: str, action: Callable[[Session, dict[str, str]], str], limits: dict[str, int] | None = None,
    ask: Callable[[Session, dict[str, str]], list[Any]] | None = None,
) -> Callable[[Request], Any]:
    """A console action: the form read and checked, one library call, then back to the console (or the
    console again with the refusal beside ``field``). ``ask``: what the action will do when it cannot be undone;
    it then acts only on a second request confirming it (:mod:`arbitru.web.confirm`)."""

    async def endpoint(request: Request) -> Response:
        w = web(request)
        me = need(request, role)
        gid = request.path_params["gid"]
        f: dict[str, str] = {}
        try:
            f = await read_form(request, limits)

            def run() -> str:  # its commit tells the live pages (Journal.on_commit)
                with w.journal(me.actor) as j, w.writer(j, gid) as s:
                    s.lexicon = w.lexicon(s.settings.lexicon, s.settings.lang)
                    if ask is not None:  # an action that cannot be undone acts on its confirmation only
                        confirm.check(j, me, gid, field, s.game.last_seq, f, ask(s, f))
                    return action(s, f)

            message = await run_in_threadpool(run)
        except confirm.Needed as e:
            return await run_in_threadpool(confirm.page, request, e, f"/games/{gid}", game_lang(w, gid))
        except (Refused, ArbitruError) as e:
            if isinstance(e, InputError):
                e = refused(e, field)
            where, text, status = (e.field, e.message, e.status) if isinstance(e, Refused) else (field, str(e), 422)
            if isinstance(e, GameNotFound):
                raise HTTPException(404, text) from None

            def again() -> dict[str, Any]:
                with w.journal(me.actor) as j:
                    return console_context(w, j, gid, me)

            ctx = await run_in_threadpool(again)
            return w.render(
                request, "duplicate/console.html", status=status, errors={where: text}, form=f, done="", **ctx
            )
        url = f"/games/{gid}" + (f"?done={_quote(message)}" if message else "")
        return RedirectResponse(url + f"#{field}", 303)

    return endpoint


def game_lang(w: Web, gid: str) -> str:
    with w.journal("") as j:
        return str(j.game(gid).settings.get("lang") or "en")


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text[:300])


def _step_message(step: Step) -> str:
    if step.kind == "illegal-rack":
        raise GameError(step.message)
    if step.kind == "rack":
        return f"move {step.move}: rack drawn"
    if step.kind == "master" and step.master is not None:
        return f"move {step.move} closed: {step.master.score} points"
    return step.message or step.kind


def do_draw(s: Session, f: dict[str, str]) -> str:
    tiles = None
    if f.get("tiles"):
        try:
            tiles = racks.parse_tiles(s.game.alphabet, f["tiles"])
        except ArbitruError as e:
            raise Refused("tiles", str(e)) from None
    if f.get("new") == "1":
        return _step_message(s.new_rack(tiles))
    step = s.draw(tiles)
    if step.kind == "illegal-rack":
        raise Refused("tiles", step.message)
    return _step_message(step)


def do_clock(s: Session, f: dict[str, str]) -> str:
    c = s.clock(f.get("action", ""), time.time())
    return f"clock {c.state}"


def do_close(s: Session, f: dict[str, str]) -> str:
    move_text = f.get("move_text") or None
    choice = _int(f, "choice") if not move_text else None
    return _step_message(s.place_master(choice, move_text))


def do_slip(s: Session, f: dict[str, str]) -> str:
    player = f.get("player", "")
    if not player:
        raise Refused("player", "the player's number")
    try:
        player = s.seat(player).number  # a number, or a name that is one player's alone
    except GameError as e:
        raise Refused("player", str(e)) from None
    move = _int(f, "move", s.game.move) or 0
    slip = Slip(
        move,
        player,
        f.get("position", ""),
        f.get("word", ""),
        _int(f, "score"),
        late=f.get("late") == "1",
        illegible=f.get("illegible") == "1",
    )
    try:
        # a slip already stored is replaced only once the replacement is confirmed (asks.replace_slip)
        s.store_slips([slip], replace=f.get("replace") == "1" or bool(f.get(confirm.FIELD)))
    except GameError as e:
        raise Refused("player", str(e)) from None
    return f"slip of player {player} for move {move} stored"


def do_rule(s: Session, f: dict[str, str]) -> str:
    word = f.get("word", "")
    if not word:
        raise Refused("ruling", "the word ruled on")
    s.rule(word, f.get("valid") == "1", f.get("reason", ""))
    return f"ruling on {word.upper()} stored"


def do_withdraw(s: Session, f: dict[str, str]) -> str:
    s.withdraw(f.get("player", ""))
    return f"player {f.get('player')} withdrawn"


def do_end(s: Session, f: dict[str, str]) -> str:
    s.end_game(f.get("reason") or "ended by the arbiter")
    return "game over"


# --- player codes ---------------------------------------------------------------------------------------------


def base_url(request: Request) -> str:
    configured = web(request).base_url
    return configured.rstrip("/") if configured else str(request.base_url).rstrip("/")


async def codes_sheet(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    gid = request.path_params["gid"]

    def load() -> tuple[list[dict[str, Any]], str]:
        with w.journal("arbiter") as j:
            s = Session(j, gid)
            rows = []
            for number, p in sorted(s.game.players.items(), key=lambda kv: number_order(kv[0])):
                code = auth.player_code(w.secret, gid, number)
                url = f"{base_url(request)}/games/{gid}/play?code={code}"
                qr = segno.make(url, error="m")
                rows.append({"player": p, "code": code, "url": url, "svg": qr.svg_inline(scale=3),
                             "img": qr.svg_data_uri(scale=3)})
            return rows, s.game.settings.lang

    rows, lang = await run_in_threadpool(load)
    if request.url.path.endswith(".pdf"):
        # the sheet to print and cut, one player per strip (item 7)
        html = w.templates.get_template("duplicate/codes_print.html").render(
            gid=gid, rows=rows, lang=lang, _=i18n.gettext_for(lang))
        pdf = await run_in_threadpool(results_routes.pdf_of, html)
        return Response(pdf, media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="{gid}-codes.pdf"'})
    return w.render(request, "duplicate/codes.html", gid=gid, rows=rows, qr=_Markup, lang=lang)


def _Markup(svg: str) -> Any:
    from markupsafe import Markup

    return Markup(svg)  # segno's own SVG of a URL we built: no user text inside


# --- the projection screen ----------------------------------------------------------------------------------


def public_context(w: Web, j: Journal, gid: str, lang: str | None = None) -> dict[str, Any]:
    """What the hall sees, in the game's language (or ``lang``, a phone's choice)."""
    s = w.session(j, gid)
    g = s.game
    shown = i18n.pick(lang, g.settings.lang)
    _ = i18n.gettext_for(shown)
    return {
        "lang": shown,
        "_": _,
        "languages": i18n.LANGUAGES,
        "game": g,
        "board": views.board_rows(g),
        "rows": views.row_letters(),
        "rack": views.rack_tiles(g),
        "clock": views.clock(g, _=_),
        "cues": views.rack_cues(g, _),
        "master": views.master_view(g),
        "total": g.master_total(),
    }


async def screen(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]
    ctx = await run_in_threadpool(_public, w, gid)
    return w.render(request, "duplicate/screen.html", **ctx)


async def screen_fragment(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]

    def load() -> Response:
        with w.journal("") as j:
            s = _reading(w, j, gid)
            return w.fragment(request, gid, s.game.last_seq, ("", ticking(s.game)), "duplicate/_screen.html",
                              lambda: public_context(w, j, gid))

    return await run_in_threadpool(load)


def ticking(game: Game) -> int:
    """While the clock runs, the second a fragment was drawn in (its countdown starts from there): a fragment
    kept for a journal position serves one second at most; else 0 (it serves until the next change)."""
    return int(time.time()) if game.phase == "play" and game.clock_for(game.move).state == "running" else 0


def _reading(w: Web, j: Journal, gid: str) -> Session:
    """The game for a live fragment or a join: read at the position the worker knows (:meth:`Web.position`)."""
    try:
        return w.session(j, gid, recent=True)
    except JournalError as e:
        raise HTTPException(404, str(e)) from None


def _public(w: Web, gid: str) -> dict[str, Any]:
    with w.journal("") as j:
        try:
            return public_context(w, j, gid)
        except JournalError as e:
            raise HTTPException(404, str(e)) from None


# --- the player's phone -----------------------------------------------------------------------------------


def player_context(w: Web, j: Journal, gid: str, me: auth.Identity, lang: str | None = None) -> dict[str, Any]:
    ctx = public_context(w, j, gid, lang)
    ctx.update(own_context(w, j, w.session(j, gid), me))
    return ctx


def own_context(w: Web, j: Journal, s: Session, me: auth.Identity) -> dict[str, Any]:
    """What only this phone's player sees: who he is, his slip's receipt, his verdicts."""
    g, gid = s.game, s.id
    player = me.player if me.role == "player" and me.game == gid else ""
    ctx: dict[str, Any] = {"player": g.players.get(player), "receipt": None, "own": []}
    if player:
        at = g.last_seq
        slip = g.slips.get((g.move, player)) if g.move else None
        if slip is not None:
            entered = w.at_seq(gid, at, "slip_events", lambda: views.slip_events(j, gid))
            seq, recorded, _actor = entered.get((g.move, player), (0, "", ""))
            counted = g.slip_seqs.get((g.move, player))
            history = w.at_seq(gid, at, "slip_history", lambda: views.slip_history(j, gid))
            others = [o for q, o in history.get((g.move, player), []) if q != counted]
            ctx["receipt"] = {"slip": slip, "seq": seq, "recorded": recorded, "others": others}
        res = results_routes.result_at(w, s)
        if res is not None:
            try:
                line = res.line(player)
                ctx["own"] = [(m, res.masters[m.move - 1]) for m in line.moves]
                ctx["line"] = line
            except KeyError:
                pass
    return ctx


async def play(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]
    me = identity(request)

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            try:
                return player_context(w, j, gid, me, request.query_params.get("lang"))
            except JournalError as e:
                raise HTTPException(404, str(e)) from None

    ctx = await run_in_threadpool(load)
    ctx["code"] = auth.normalise_code(request.query_params.get("code", ""))
    return w.render(request, "duplicate/play.html", slip_key=new_slip_key(), **ctx)


def new_slip_key() -> str:
    """The idempotency key of one rendering of the phone's slip form: the form sent twice (its answer lost) is
    one slip."""
    return secrets.token_urlsafe(16)


async def play_fragment(request: Request) -> Response:
    """A phone's live part: what the hall sees (clock, rack, board, master move) drawn once per journal position
    and language for every phone, around what only this player sees (drawn once per position for him)."""
    w = web(request)
    gid = request.path_params["gid"]
    me = identity(request)
    if me.role != "player" or me.game != gid:
        raise HTTPException(403, "join this game with your code first")
    lang = request.query_params.get("lang")
    player = me.player

    def load() -> Response:
        with w.journal("") as j:
            s = _reading(w, j, gid)
            at, tick = s.game.last_seq, ticking(s.game)
            shown = i18n.pick(lang, s.settings.lang)

            def context() -> dict[str, Any]:
                hall = w.at_seq(gid, at, ("play-hall", shown, tick), lambda: _Markup(
                    w.render_text(request, "duplicate/_play_hall.html", **public_context(w, j, gid, lang))))
                return {"game": s.game, "lang": shown, "_": i18n.gettext_for(shown), "hall": hall,
                        **own_context(w, j, s, me)}

            return w.fragment(request, gid, at, (shown, player, tick), "duplicate/_play.html", context)

    return await run_in_threadpool(load)


async def join(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]
    try:
        f = await read_form(request)

        def find() -> str | None:
            with w.journal("") as j:
                s = _reading(w, j, gid)
                return security.try_code(
                    j, w.limits, gid, client(request), lambda: w.player_for_code(s.game, f.get("code", "")))

        try:
            number = await run_in_threadpool(find)
        except security.Throttled as t:
            raise Refused("code", str(t), 429) from None
        if number is None:
            raise Refused("code", "this code is not one of this game's players' codes", 401)
    except Refused as e:
        ctx = await run_in_threadpool(_public, w, gid)
        return w.render(
            request, "duplicate/play.html", status=e.status, errors={e.field: e.message}, player=None, code="",
            **ctx,
        )
    response = RedirectResponse(f"/games/{gid}/play", 303)
    await run_in_threadpool(login_as, request, response, auth.Identity(auth.new_sid(), "player", "", gid, number))
    return response


async def player_slip(request: Request) -> Response:
    """A slip from the phone: always the signed-in player's own, for the open move; late by the server clock."""
    w = web(request)
    gid = request.path_params["gid"]
    me = identity(request)
    if me.role != "player" or me.game != gid:
        raise HTTPException(403, "join this game with your code first")
    try:
        f = await read_form(request)

        if not f.get("position") and not f.get("word"):
            raise Refused("slip", "write the position and the word")
        req = SlipRequest(0, f.get("position", ""), f.get("word", ""), _int(f, "score"), player=me.player,
                          key=f.get("key", ""))
        try:
            at_the_door(req)
        except InputError as e:
            raise refused(e, "slip") from None

        def hand_in() -> SlipRequest:
            with w.journal("") as j:
                s = w.session(j, gid)
                if s.game.phase != "play":
                    raise Refused("slip", "no move is open")
                req.move = s.game.move
            return w.intake.hand_in(gid, req)

        done = await run_in_threadpool(hand_in)
        if done.status not in (201, 409) or not done.body.get("stored"):
            raise Refused(str(done.body.get("field") or "slip"), str(done.body.get("error")), done.status)
    except Refused as e:

        def again() -> dict[str, Any]:
            with w.journal("") as j:
                return player_context(w, j, gid, me, request.query_params.get("lang"))

        ctx = await run_in_threadpool(again)
        return w.render(request, "duplicate/play.html", status=e.status, errors={e.field: e.message}, code="",
                        slip_key=new_slip_key(), **ctx)
    return RedirectResponse(f"/games/{gid}/play{i18n.keep(request.query_params.get('lang'))}#receipt", 303)


# --- live updates ------------------------------------------------------------------------------------------


async def events(request: Request) -> Response:
    """Server-Sent Events: ``changed`` with the game's latest seq, and a comment every 15 s to keep it open.

    A page is told at most once a second, and only of changes that concern it: the staff's pages (arbiter,
    desks) of every change, a player's phone of all but the other players' slips, any other page of all but
    slips (:mod:`arbitru.web.live`). A game that does not exist answers 404 (no connection held open)."""
    w = web(request)
    gid = request.path_params["gid"]
    me = identity(request)

    def exists() -> bool:
        with w.journal("") as j:
            try:
                j.game(gid)
            except JournalError:
                return False
            return True

    if not await run_in_threadpool(exists):
        raise HTTPException(404, f"no game {gid!r}")
    player = me.player if me.role == "player" and me.game == gid else ""

    async def stream() -> AsyncIterator[str]:
        yield "retry: 2000\n\n"
        sub = w.publisher.subscribe(gid, player=player, staff=me.can_enter_slips())
        try:
            while not await request.is_disconnected():
                seq = await sub.next(15)
                if seq is not None:
                    w.saw(gid, seq)  # the page's refetch reads that position at least
                yield ": keep-alive\n\n" if seq is None else f"event: changed\ndata: {seq}\n\n"
        finally:
            sub.close()

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )


async def htmx_js(request: Request) -> Response:
    path = assets.htmx_path()
    if path is None:
        return Response("/* htmx is not installed: run ./arbitru once */", media_type="text/javascript")
    return FileResponse(path, media_type="text/javascript")


# --- errors -----------------------------------------------------------------------------------------------


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
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
    lang = i18n.pick(request.query_params.get("lang"), "en")
    html = web(request).templates.get_template("error.html").render(
        request=request, me=identity(request), status=exc.status_code, message=exc.detail, lang=lang,
        _=i18n.gettext_for(lang)
    )
    return HTMLResponse(html, status_code=exc.status_code)


async def library_error(request: Request, exc: Exception) -> Response:
    """An unknown game is a 404; a game whose journal fails is checked again (a damaged one answers 503 with
    the damage banner); any other refusal of the library a 400 with its message."""
    gid = request.path_params.get("gid")
    unknown = isinstance(exc, GameNotFound)
    if isinstance(gid, str) and not unknown and isinstance(exc, JournalError | sqlite3.Error):
        w = web(request)

        def recheck() -> GameDamage | None:
            with w.journal("") as j:
                return w.damage.check(j, gid, against_table=True)

        await run_in_threadpool(recheck)
    if isinstance(exc, sqlite3.Error):
        return await http_error(request, HTTPException(503, f"the journal cannot be read: {exc}"))
    return await http_error(request, HTTPException(404 if unknown else 400, str(exc)))


exception_handlers: dict[Any, Any] = {
    HTTPException: http_error,
    ArbitruError: library_error,
    sqlite3.Error: library_error,  # a page SQLite cannot read, outside the journal's own wrapping
}

routes = [
    Route("/", index),
    Route("/login", login_page, methods=["GET"]),
    Route("/login", login, methods=["POST"]),
    Route("/logout", logout, methods=["POST"]),
    Route("/security", security_page),
    Route("/desks", add_desk, methods=["POST"]),
    Route("/static/vendor/htmx.min.js", htmx_js),
    Route("/games/new", new_game_page, methods=["GET"]),
    Route("/games/new", new_game, methods=["POST"]),
    Route("/games/{gid}", console),
    Route("/games/{gid}/grid", grid_fragment),
    Route("/games/{gid}/draw", act("arbiter", "draw", do_draw, ask=asks.new_rack), methods=["POST"]),
    Route("/games/{gid}/clock", act("arbiter", "clock", do_clock), methods=["POST"]),
    Route("/games/{gid}/close", act("arbiter", "close", do_close, ask=asks.close_move), methods=["POST"]),
    Route("/games/{gid}/desk", act("desk", "desk", do_slip, ask=asks.replace_slip), methods=["POST"]),
    Route("/games/{gid}/rule", act("arbiter", "ruling", do_rule), methods=["POST"]),
    Route("/games/{gid}/withdraw", act("arbiter", "withdraw", do_withdraw), methods=["POST"]),
    Route("/games/{gid}/end", act("arbiter", "end", do_end, ask=asks.end_game), methods=["POST"]),
    Route("/games/{gid}/codes", codes_sheet),
    Route("/games/{gid}/codes.pdf", codes_sheet),
    Route("/games/{gid}/screen", screen),
    Route("/games/{gid}/screen/live", screen_fragment),
    Route("/games/{gid}/play", play, methods=["GET"]),
    Route("/games/{gid}/play/live", play_fragment),
    Route("/games/{gid}/join", join, methods=["POST"]),
    Route("/games/{gid}/slip", player_slip, methods=["POST"]),
    Route("/games/{gid}/events", events),
]
