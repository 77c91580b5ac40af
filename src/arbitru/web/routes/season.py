"""The season's pages, thin over :mod:`arbitru.season`: the public registry, a player's history, tournaments'
general tables, championships and the rating list; the arbiter alone registers and corrects players.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from arbitru.engine.tiles import UNKNOWN_LANGUAGE
from arbitru.errors import ArbitruError
from arbitru.formats import ANTICIPATION, DUPLICATE, Format, by_name, format_of
from arbitru.season import championship, csvfile, ratings, registry, tournament
from arbitru.season.registry import Entry
from arbitru.season.table import TIE_ORDER, Row, general_table, table_csv
from arbitru.season.tournament import METHODS, Event, Tournament, TournamentError
from arbitru.textinput import ascii_number
from arbitru.web import confirm, i18n
from arbitru.web.forms import Refused, need, read_form
from arbitru.web.house import Web, web
from arbitru.web.i18n import Text
from arbitru.web.pdf import pdf_of
from arbitru.web.season_context import season_language, tournament_language, tournament_of

#: the most characters of a CSV file pasted into the import form
MAX_CSV = 2_000_000
#: the most characters of a game's result typed as CSV (a line per player)
MAX_RESULT = 50_000
#: the most registry records offered at once to enrol (a search narrows them)
MAX_OFFERED = 60
#: where a tournament's next game is created, by the tournament's format
NEW_GAME = {DUPLICATE: "/games/new", ANTICIPATION: "/anticipation/new"}


def _csv(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _registry_context(w: Web, request: Request) -> dict[str, Any]:
    with w.journal("") as j:
        reg = registry.load(j)
        lang = season_language(request, j)
    return {"records": reg.active(), "systems": sorted({s for r in reg.active() for s in r.ratings}), "lang": lang}


async def registry_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/registry.html", **await run_in_threadpool(_registry_context, w, request))


async def registry_csv(request: Request) -> Response:
    w = web(request)

    def load() -> str:
        with w.journal("") as j:
            return csvfile.write_players(registry.load(j))

    return _csv(await run_in_threadpool(load), "registry.csv")


def entry_from(f: dict[str, str]) -> Entry:
    """A player to register, from the registration fields (``season/_player_fields.html``)."""
    born = f.get("born", "")
    year = ascii_number(born) if born else None
    if born and year is None:
        raise registry.RegistryError(Text("birth year %(year)s is not a number", year=repr(born)))
    return Entry(f.get("name", ""), f.get("licence", ""), f.get("federation", ""), f.get("club", ""), year,
                 tuple(c for c in f.get("categories", "").split(";") if c.strip()))


async def registry_add(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    try:
        f = await read_form(request)
        entry = entry_from(f)

        def add() -> None:
            with w.journal("arbiter") as j:
                registry.register(j, [entry])

        await run_in_threadpool(add)
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_registry_context, w, request)
        return w.render(request, "season/registry.html", status=422, errors={"add": str(e)}, **ctx)
    return RedirectResponse("/registry" + i18n.keep(request.query_params.get("lang")), 303)


async def registry_import(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    try:
        f = await read_form(request, {"csv": MAX_CSV})

        def add() -> None:
            with w.journal("arbiter") as j:
                csvfile.import_players(j, f.get("csv", ""))

        await run_in_threadpool(add)
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_registry_context, w, request)
        said = e.message if isinstance(e, Refused) else str(e)  # a refusal at the door, in the page's language
        return w.render(request, "season/registry.html", status=e.status if isinstance(e, Refused) else 422,
                        errors={"import": said}, **ctx)
    return RedirectResponse("/registry" + i18n.keep(request.query_params.get("lang")), 303)


def _player_context(w: Web, pid: str, request: Request) -> dict[str, Any]:
    with w.journal("") as j:
        lang = season_language(request, j)
        reg = registry.load(j)
        try:
            record = reg.get(pid)
        except ArbitruError:
            raise HTTPException(404, Text("no player %(player)s in the registry", player=repr(pid))) from None
        rated = next((r for r in ratings.rating_list(j, registry=reg) if r.player == record.id), None)
    return {"record": record, "rated": rated, "lang": lang}


async def player_page(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_player_context, w, request.path_params["pid"], request)
    return w.render(request, "season/player.html", **ctx)


async def player_correct(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    pid = request.path_params["pid"]
    try:
        f = await read_form(request)
        fields: dict[str, Any] = {k: f[k] for k in ("name", "club", "licence", "federation") if f.get(k)}
        if not fields:
            raise Refused("correct", Text("nothing to correct"))

        def correct() -> None:
            with w.journal("arbiter") as j:
                registry.correct(j, pid, fields, f.get("reason", ""))

        await run_in_threadpool(correct)
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_player_context, w, pid, request)
        return w.render(request, "season/player.html", status=422, errors={"correct": str(e)}, **ctx)
    return RedirectResponse(f"/players/{pid}" + i18n.keep(request.query_params.get("lang")), 303)


def _tournaments_context(w: Web, request: Request) -> dict[str, Any]:
    with w.journal("") as j:
        return {"tournaments": [tournament.replay(j, t) for t in tournament.tournaments(j)],
                "championships": [championship.replay(j, g.id) for g in j.games(championship.FORMAT)],
                "rule_sets": tournament.RULE_SETS, "languages": i18n.LANGUAGES, "methods": METHODS,
                "lang": season_language(request, j)}


async def tournaments_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/tournaments.html", **await run_in_threadpool(_tournaments_context, w, request))


def _event_from(f: dict[str, str]) -> Event:
    """A tournament's description from the creation form, each refusal beside its field."""
    for key, what in (("start", "start date"), ("end", "end date")):
        if f.get(key) or key == "start":
            try:
                registry.check_date(f.get(key, ""), what)
            except ArbitruError as e:
                raise Refused(key, str(e)) from None
    rules = f.get("rules") or "fise"
    if rules not in tournament.RULE_SETS:
        raise Refused("rules", Text("unknown rule set %(name)s; known: %(known)s", name=repr(rules),
                                      known=", ".join(tournament.RULE_SETS)))
    if f.get("lang") and f["lang"] not in i18n.LANGUAGES:
        raise Refused("rules", Text(UNKNOWN_LANGUAGE, lang=repr(f["lang"][:8]), known=", ".join(i18n.LANGUAGES)))
    try:
        return Event(f.get("name", ""), f["start"], f.get("end", ""), f.get("place", ""), f.get("organiser", ""),
                     rules, (ANTICIPATION if rules == "ro-anticipation" else DUPLICATE).name, f.get("method", ""),
                     lang=f.get("lang", ""))
    except ArbitruError as e:
        where = next((k for k in ("name", "end", "place", "organiser") if k in str(e)), "rules")
        raise Refused("tournament" if where in ("place", "organiser") else where, str(e)) from None


def creation(page: str, prefix: str, store: Any) -> Any:
    """The arbiter creates a tournament or a championship (``page``) from the form on ``/tournaments``:
    ``store(journal, form)`` returns its id; a refusal is shown beside its field (``prefix`` + field), with the
    form as it was filled in, nothing stored."""

    async def endpoint(request: Request) -> Response:
        w = web(request)
        need(request, "arbiter")
        f: dict[str, str] = {}
        try:
            f = await read_form(request)

            def create() -> str:
                with w.journal("arbiter") as j:
                    made: str = store(j, f)
                    return made

            made = await run_in_threadpool(create)
        except Refused as e:
            ctx = await run_in_threadpool(_tournaments_context, w, request)
            return w.render(request, "season/tournaments.html", status=e.status,
                            errors={prefix + e.field: e.message}, **{prefix.strip("-") + "_form": f}, **ctx)
        return RedirectResponse(f"/{page}s/{made}" + i18n.keep(request.query_params.get("lang")), 303)

    return endpoint


def store_tournament(j: Any, f: dict[str, str]) -> str:
    return tournament.create(j, _event_from(f))


def _matches(record: registry.Record, query: str) -> bool:
    q = query.casefold()
    return not q or q in record.name.casefold() or q in record.licence.casefold() or q == record.id.casefold()


def _game_link(game_id: str, fmt: Format | None) -> str:
    """Where a tournament's game is followed: a duplicate game's results page, an anticipation game's page."""
    return f"/games/{game_id}/results" if fmt is DUPLICATE else f"/games/{game_id}"


def _table(w: Web, request: Request) -> dict[str, Any]:
    q = request.query_params
    method = q.get("method") or None
    if method is not None and method not in METHODS:
        raise HTTPException(400, Text("table method: one of %(names)s", names=", ".join(METHODS)))
    with w.journal("") as j:
        t = tournament_of(j, request.path_params["tid"])
        reg = registry.load(j)
        results = tournament.outcomes(j, t)
        rows = general_table(t, reg, results, method, category=q.get("category") or None,
                             club=q.get("club") or None)
        games = [(slot, _game_link(slot.game_id, format_of(j.game(slot.game_id))) if slot.result is None else "")
                 for slot in t.games]
    chosen = method or t.event.table_method
    enrolled = {e.player for e in t.enrolments}
    search = q.get("q", "")[:100]
    offered = [r for r in reg.active() if r.id not in enrolled and _matches(r, search)]
    return {"t": t, "rows": rows, "games": len(results), "method": chosen, "tie_order": TIE_ORDER[chosen],
            "category": q.get("category", ""), "club": q.get("club", ""), "lang": tournament_language(request, t),
            "slots": games, "entrants": [(e, reg.get(e.player)) for e in t.enrolments],
            "offered": offered[:MAX_OFFERED], "more_offered": max(0, len(offered) - MAX_OFFERED), "search": search,
            "next_game": len(t.games) + 1, "new_game": NEW_GAME[by_name(t.event.format)]}


async def tournament_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/table.html", **await run_in_threadpool(_table, w, request))


#: the page an arbiter's action on a tournament or a championship comes from: its template, its context
PAGES: dict[str, tuple[str, str, Any]] = {}


def arbiter_action(page: str, field: str, action: Any, question: Any = None) -> Any:
    """An arbiter's POST on a tournament or a championship (``page``): ``action(journal, id, form, ticked)``
    stores it; a refusal is shown beside the form ``field``, nothing stored. With ``question``, the action
    cannot be undone: the first request asks ``question(journal, id, form)`` and stores nothing, with a one-time
    token (:mod:`arbitru.web.confirm`, bound to the session, the tournament's journal position and the form);
    only a second request carrying that token stores."""

    async def endpoint(request: Request) -> Response:
        w = web(request)
        me = need(request, "arbiter")
        key, template, context = PAGES[page]
        owner = request.path_params[key]
        try:
            f = await read_form(request, {"result": MAX_RESULT})
            form = await request.form()  # the ticked players: one field each

            def run() -> dict[str, Any] | None:
                with w.journal("arbiter") as j:
                    try:
                        if question is not None:
                            what = question(j, owner, f)
                            try:
                                confirm.check(j, me, owner, field, j.last_seq(owner), f, [what])
                            except confirm.Needed as e:
                                return {"field": field, "question": what, "fields": e.fields, "token": e.token}
                        action(j, owner, f, [v for v in form.getlist("player") if isinstance(v, str)])
                    except ArbitruError as e:
                        raise Refused(field, str(e)) from None
                return None

            asked = await run_in_threadpool(run)
        except Refused as e:
            ctx = await run_in_threadpool(context, w, request)
            return w.render(request, template, status=e.status, errors={e.field: e.message}, **ctx)
        if asked is not None:
            ctx = await run_in_threadpool(context, w, request)
            return w.render(request, template, confirm=asked, **ctx)
        return RedirectResponse(f"/{page}s/{owner}" + i18n.keep(request.query_params.get("lang")), 303)

    return endpoint


def _late(f: dict[str, str], t: Tournament) -> bool:
    """RO-5.1: a player enrolled once a game is created is a late entry, unless the arbiter says otherwise."""
    return f.get("late") == "1" or (f.get("late") != "0" and bool(t.games))


def do_enrol(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    t = tournament.replay(j, tid)
    typed = [p for p in f.get("players", "").replace(",", " ").split() if p]
    if not checked and not typed:
        raise TournamentError(i18n.Text("tick the players to enrol, or type their registry ids"))
    tournament.enrol(j, t.id, checked + typed, late=_late(f, t))


def do_enrol_new(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    tournament.enrol(j, tid, new=[entry_from(f)], late=_late(f, tournament.replay(j, tid)))


def do_record(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    masters, scores = tournament.read_result(f.get("result", ""))
    if not scores:
        raise TournamentError(
            i18n.Text("the result: a line master,… and a line per player (registry id, points per move)"))
    tournament.record(j, tid, scores, masters, title=f.get("title", ""))


def _after(f: dict[str, str], t: Tournament) -> int:
    text = f.get("after_game", "")
    if not text:
        return len(t.games)
    n = ascii_number(text)
    if n is None or n < 0:
        raise TournamentError(i18n.Text("after game %(text)s: a game's number", text=repr(text)))
    return n


def ask_withdraw(j: Any, tid: str, f: dict[str, str]) -> str:
    t, reg = tournament.replay(j, tid), registry.load(j)
    e = t.enrolment(reg.resolve(f.get("player", "")))
    return i18n.Text("Withdraw %(player)s from every game after game %(n)s? It cannot be undone.",
                     player=f"{e.player} {reg.name(e.player)}", n=_after(f, t))


def do_withdraw(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    tournament.withdraw(j, tid, f.get("player", ""), _after(f, tournament.replay(j, tid)))


async def tournament_download(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_table, w, request)
    what = request.path_params["what"]
    if what == "table.csv":
        return _csv(table_csv(ctx["rows"], ctx["games"]), f"{ctx['t'].id}-table.csv")
    if what == "table.pdf":
        html = bytes(w.render(request, "season/table.html", printing=True, **ctx).body).decode()
        pdf = await run_in_threadpool(pdf_of, html)
        return Response(pdf, media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="{ctx["t"].id}-table.pdf"'})
    raise HTTPException(404, Text("no download %(what)s", what=repr(what)))


def _championship_context(w: Web, request: Request) -> dict[str, Any]:
    with w.journal("") as j:
        reg = registry.load(j)
        try:
            c = championship.replay(j, request.path_params["cid"])
        except ArbitruError:
            raise HTTPException(404, Text("no championship %(id)s", id=repr(request.path_params["cid"]))) from None

        def table_of(tid: str) -> list[Row]:
            t = tournament.replay(j, tid)
            return general_table(t, reg, tournament.outcomes(j, t))

        stages = [tournament.replay(j, tid) for tid in c.stages]
        langs = {t.event.language for t in stages}
        return {"c": c, "rows": championship.compute(j, c.id, table_of), "stages": stages,
                "others": [tournament.replay(j, t) for t in tournament.tournaments(j) if t not in c.stages],
                "lang": i18n.pick(request.query_params.get("lang"), langs.pop() if len(langs) == 1
                                  else season_language(request, j))}


async def championship_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/championship.html", **await run_in_threadpool(_championship_context, w, request))


def _points(text: str) -> list[int]:
    cells = [c for c in text.replace(";", ",").replace(" ", ",").split(",") if c]
    numbers = [ascii_number(c) for c in cells]
    if any(n is None for n in numbers):
        raise Refused("points", i18n.Text("points per place: whole numbers separated by commas, not %(text)s",
                                          text=repr(text)))
    return [n for n in numbers if n is not None]


def store_championship(j: Any, f: dict[str, str]) -> str:
    points = _points(f.get("points", "")) or list(championship.DEFAULT_POINTS)
    best = ascii_number(f.get("best") or "0")
    if best is None:
        raise Refused("best", i18n.Text("best N: a whole number, not %(text)s", text=repr(f.get("best"))))
    try:
        return championship.create(j, f.get("name", ""), points, best)
    except ArbitruError as e:
        raise Refused("name" if "name" in str(e) else "points", str(e)) from None


def do_stage(j: Any, cid: str, f: dict[str, str], checked: list[str]) -> None:
    championship.add_stage(j, cid, f.get("tournament", ""))


def _stage(f: dict[str, str]) -> int:
    n = ascii_number(f.get("stage", ""))
    if n is None:
        raise championship.ChampionshipError(i18n.Text("stage %(text)s: a stage's number",
                                                       text=repr(f.get("stage", ""))))
    return n


def ask_eliminate(j: Any, cid: str, f: dict[str, str]) -> str:
    record = registry.load(j).get(championship.eliminable(j, cid, f.get("player", ""), _stage(f)))
    return i18n.Text("Eliminate %(player)s from stage %(n)s? It cannot be undone.",
                     player=f"{record.id} {record.name}", n=_stage(f))


def do_eliminate(j: Any, cid: str, f: dict[str, str], checked: list[str]) -> None:
    championship.eliminate(j, cid, f.get("player", ""), _stage(f), f.get("reason", ""))


def _ratings(w: Web, request: Request) -> dict[str, Any]:
    as_of = request.query_params.get("as_of") or None
    if as_of is not None:
        try:
            registry.check_date(as_of, "date")
        except ArbitruError as e:
            raise HTTPException(400, str(e)) from None
    with w.journal("") as j:
        return {"rows": ratings.rating_list(j, as_of), "as_of": as_of or "", "lang": season_language(request, j)}


async def ratings_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/ratings.html", **await run_in_threadpool(_ratings, w, request))


async def ratings_csv(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_ratings, w, request)
    return _csv(ratings.rating_list_csv(ctx["rows"]), "ratings.csv")


PAGES.update(tournament=("tid", "season/table.html", _table),
             championship=("cid", "season/championship.html", _championship_context))
