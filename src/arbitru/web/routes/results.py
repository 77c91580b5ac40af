"""Results: the live ranking (FISE-15, FISE-17), the master moves, downloads (CSV, GCG), multi-game standings.

Public pages: results are published as the game goes (closed moves only).
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arbitru.errors import ArbitruError
from arbitru.formats import DUPLICATE
from arbitru.formats.duplicate import export, gcg, results
from arbitru.season import tournament
from arbitru.web import i18n, views
from arbitru.web.house import Web, web
from arbitru.web.pdf import pdf_of


def _load(w: Web, gid: str) -> dict[str, Any]:
    with w.journal("") as j:
        s = w.session(j, gid)
        return {"game": s.game, "result": views.result(s), "percent": results.percent}


async def page(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_load, w, request.path_params["gid"])
    return w.render(request, "duplicate/results.html", **ctx)


async def live(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_load, w, request.path_params["gid"])
    return w.render(request, "duplicate/_results.html", **ctx)


async def download(request: Request) -> Response:
    w = web(request)
    gid, what = request.path_params["gid"], request.path_params["what"]
    ctx = await run_in_threadpool(_load, w, gid)
    result = ctx["result"]
    if what == "game.gcg":
        return Response(gcg.write(ctx["game"]), media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{gid}.gcg"'})
    if result is None:
        raise HTTPException(404, "no move is closed yet")
    if what == "results.pdf":
        _ = i18n.gettext_for(ctx["game"].settings.lang)
        html = w.templates.get_template("duplicate/print.html").render(_=_, **ctx)
        pdf = await run_in_threadpool(pdf_of, html)
        return Response(pdf, media_type="application/pdf",
                        headers={"Content-Disposition": f'attachment; filename="{gid}-results.pdf"'})
    makers = {"results.csv": export.summary_csv, "moves.csv": export.moves_csv}
    if what not in makers:
        raise HTTPException(404, f"no download {what!r}")
    return Response(makers[what](result), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{gid}-{what}"'})


async def standings(request: Request) -> Response:
    w = web(request)
    method = request.query_params.get("method", "mean-place")
    if method not in results.STANDING_METHODS:
        raise HTTPException(400, f"standings method: one of {', '.join(results.STANDING_METHODS)}")
    wanted = [g for g in request.query_params.getlist("game") if g][:100]

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            ids = wanted or [g.id for g in j.games(DUPLICATE.name)]
            done, played = [], []
            langs = set()
            for gid in ids:
                try:
                    s = w.session(j, gid)
                    r = views.result(s)
                except ArbitruError:
                    continue
                if r is not None:
                    done.append(r)
                    played.append(gid)
                    langs.add(s.game.settings.lang)
            registered = tournament.registered_players(j, played)
            # the games' language when they share one (a tournament's), else the one asked for
            lang = i18n.pick(request.query_params.get("lang"), langs.pop() if len(langs) == 1 else "en")
            rows = results.standings(done, method, registered) if done else []
            return {"results": done, "rows": rows, "method": method, "lang": lang}

    return w.render(request, "duplicate/standings.html", percent=results.percent, **(await run_in_threadpool(load)))


routes = [
    Route("/games/{gid}/results", page),
    Route("/games/{gid}/results/live", live),
    Route("/games/{gid}/download/{what}", download),
    Route("/standings", standings),
]
