"""The season's pages, thin over :mod:`arbitru.season`: the public registry, a player's history, tournaments'
general tables, championships and the rating list; the arbiter alone registers and corrects players.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from arbitru.errors import ArbitruError
from arbitru.season import championship, csvfile, ratings, registry, tournament
from arbitru.season.registry import Entry
from arbitru.season.table import METHODS, TIE_ORDER, Row, general_table, table_csv
from arbitru.textinput import ascii_number
from arbitru.web.app import Web, web
from arbitru.web.routes.duplicate import Refused, need, read_form
from arbitru.web.routes.results import pdf_of

#: the most characters of a CSV file pasted into the import form
MAX_CSV = 2_000_000


def _csv(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _registry_context(w: Web) -> dict[str, Any]:
    with w.journal("") as j:
        reg = registry.load(j)
    return {"records": reg.active(), "systems": sorted({s for r in reg.active() for s in r.ratings})}


async def registry_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/registry.html", **await run_in_threadpool(_registry_context, w))


async def registry_csv(request: Request) -> Response:
    w = web(request)

    def load() -> str:
        with w.journal("") as j:
            return csvfile.write_players(registry.load(j))

    return _csv(await run_in_threadpool(load), "registry.csv")


async def registry_add(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    try:
        f = await read_form(request)
        born = f.get("born", "")
        year = ascii_number(born) if born else None
        if born and year is None:
            raise Refused("add", f"birth year {born!r} is not a number")
        entry = Entry(f.get("name", ""), f.get("licence", ""), f.get("federation", ""), f.get("club", ""), year,
                      tuple(c for c in f.get("categories", "").split(";") if c.strip()))

        def add() -> None:
            with w.journal("arbiter") as j:
                registry.register(j, [entry])

        await run_in_threadpool(add)
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_registry_context, w)
        return w.render(request, "season/registry.html", status=422, errors={"add": str(e)}, **ctx)
    return RedirectResponse("/registry", 303)


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
        ctx = await run_in_threadpool(_registry_context, w)
        return w.render(request, "season/registry.html", status=422, errors={"import": str(e)}, **ctx)
    return RedirectResponse("/registry", 303)


def _player_context(w: Web, pid: str) -> dict[str, Any]:
    with w.journal("") as j:
        reg = registry.load(j)
        try:
            record = reg.get(pid)
        except ArbitruError:
            raise HTTPException(404, f"no player {pid!r}") from None
        rated = next((r for r in ratings.rating_list(j, registry=reg) if r.player == record.id), None)
    return {"record": record, "rated": rated}


async def player_page(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_player_context, w, request.path_params["pid"])
    return w.render(request, "season/player.html", **ctx)


async def player_correct(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    pid = request.path_params["pid"]
    try:
        f = await read_form(request)
        fields: dict[str, Any] = {k: f[k] for k in ("name", "club", "licence", "federation") if f.get(k)}
        if not fields:
            raise Refused("correct", "nothing to correct")

        def correct() -> None:
            with w.journal("arbiter") as j:
                registry.correct(j, pid, fields, f.get("reason", ""))

        await run_in_threadpool(correct)
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_player_context, w, pid)
        return w.render(request, "season/player.html", status=422, errors={"correct": str(e)}, **ctx)
    return RedirectResponse(f"/players/{pid}", 303)


async def tournaments_page(request: Request) -> Response:
    w = web(request)

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            return {"tournaments": [tournament.replay(j, t) for t in tournament.tournaments(j)],
                    "championships": [championship.replay(j, g.id) for g in j.games(championship.FORMAT)]}

    return w.render(request, "season/tournaments.html", **await run_in_threadpool(load))


def _table(w: Web, request: Request) -> dict[str, Any]:
    q = request.query_params
    method = q.get("method") or None
    if method is not None and method not in METHODS:
        raise HTTPException(400, f"table method: one of {', '.join(METHODS)}")
    with w.journal("") as j:
        try:
            t = tournament.replay(j, request.path_params["tid"])
        except ArbitruError:
            raise HTTPException(404, f"no tournament {request.path_params['tid']!r}") from None
        results = tournament.outcomes(j, t)
        rows = general_table(t, registry.load(j), results, method, category=q.get("category") or None,
                             club=q.get("club") or None)
    chosen = method or t.event.table_method
    return {"t": t, "rows": rows, "games": len(results), "method": chosen, "tie_order": TIE_ORDER[chosen],
            "category": q.get("category", ""), "club": q.get("club", "")}


async def tournament_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/table.html", **await run_in_threadpool(_table, w, request))


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
    raise HTTPException(404, f"no download {what!r}")


async def championship_page(request: Request) -> Response:
    w = web(request)

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            reg = registry.load(j)
            try:
                c = championship.replay(j, request.path_params["cid"])
            except ArbitruError:
                raise HTTPException(404, f"no championship {request.path_params['cid']!r}") from None

            def table_of(tid: str) -> list[Row]:
                t = tournament.replay(j, tid)
                return general_table(t, reg, tournament.outcomes(j, t))

            return {"c": c, "rows": championship.compute(j, c.id, table_of)}

    return w.render(request, "season/championship.html", **await run_in_threadpool(load))


def _ratings(w: Web, request: Request) -> dict[str, Any]:
    as_of = request.query_params.get("as_of") or None
    if as_of is not None:
        try:
            registry.check_date(as_of, "date")
        except ArbitruError as e:
            raise HTTPException(400, str(e)) from None
    with w.journal("") as j:
        return {"rows": ratings.rating_list(j, as_of), "as_of": as_of or ""}


async def ratings_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/ratings.html", **await run_in_threadpool(_ratings, w, request))


async def ratings_csv(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_ratings, w, request)
    return _csv(ratings.rating_list_csv(ctx["rows"]), "ratings.csv")


routes = [
    Route("/registry", registry_page),
    Route("/registry.csv", registry_csv),
    Route("/registry/add", registry_add, methods=["POST"]),
    Route("/registry/import", registry_import, methods=["POST"]),
    Route("/players/{pid}", player_page),
    Route("/players/{pid}/correct", player_correct, methods=["POST"]),
    Route("/tournaments", tournaments_page),
    Route("/tournaments/{tid}", tournament_page),
    Route("/tournaments/{tid}/download/{what}", tournament_download),
    Route("/championships/{cid}", championship_page),
    Route("/ratings", ratings_page),
    Route("/ratings.csv", ratings_csv),
]
