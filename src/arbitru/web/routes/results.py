"""Results: the live ranking (FISE-15, FISE-17), the master moves, downloads (CSV, GCG), multi-game standings.

Public pages: results are published as the game goes (closed moves only).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from arbitru.errors import ArbitruError
from arbitru.formats import DUPLICATE
from arbitru.formats.duplicate import export, gcg, results
from arbitru.journal.store import Journal
from arbitru.season import tournament
from arbitru.season.registry import REGISTRY_ID
from arbitru.web import documents, fair, i18n
from arbitru.web.house import Web, attachment, web
from arbitru.web.i18n import Text
from arbitru.web.views import result_at


def _load(w: Web, gid: str) -> dict[str, Any]:
    with w.journal("") as j:
        s = w.session(j, gid)
        return {"game": s.game, "result": result_at(w, s),
                "fair": fair.shown(j, gid)}


async def page(request: Request) -> Response:
    """The results page: for the public, drawn once per journal position and kept (:meth:`Web.public_page`)."""
    w = web(request)
    gid = request.path_params["gid"]

    def load() -> Response:
        ctx = _load(w, gid)
        return w.public_page(request, gid, ctx["game"].last_seq, "duplicate/results.html", lambda: ctx)

    return await run_in_threadpool(load)


async def live(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]

    def load() -> Response:
        with w.journal("") as j:
            s = w.session(j, gid)
            return w.fragment(request, gid, s.game.last_seq, "", "duplicate/_results.html",
                              lambda: {"game": s.game, "result": result_at(w, s)})

    return await run_in_threadpool(load)


async def download(request: Request) -> Response:
    """A game's downloads, each made once per journal position and kept (every visitor after the first gets the
    kept text); the PDF in the background (web/documents.py)."""
    w = web(request)
    gid, what = request.path_params["gid"], request.path_params["what"]
    if what not in ("game.gcg", "results.pdf", *CSV):
        raise HTTPException(404, Text("no download %(what)s", what=repr(what)))
    ctx = await run_in_threadpool(_load, w, gid)
    game, result = ctx["game"], ctx["result"]
    if what == "game.gcg":
        text = await run_in_threadpool(w.at_seq, gid, game.last_seq, ("download", what), lambda: gcg.write(game))
        return Response(text, media_type="text/plain; charset=utf-8",
                        headers=attachment(f"{gid}.gcg"))
    if result is None:
        raise HTTPException(404, Text("no move is closed yet"))
    if what == "results.pdf":
        lang = game.settings.lang

        def parts() -> list[str]:
            return [w.templates.get_template("duplicate/print.html").render(_=i18n.gettext_for(lang), lang=lang, **ctx)]

        return await documents.serve(request, gid, game.last_seq, what, f"{gid}-results.pdf", lang, parts)
    text = await run_in_threadpool(w.at_seq, gid, game.last_seq, ("download", what), lambda: CSV[what](result))
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers=attachment(f"{gid}-{what}"))


#: the CSV downloads of a game's results
CSV = {"results.csv": export.summary_csv, "moves.csv": export.moves_csv}


async def standings(request: Request) -> Response:
    w = web(request)
    method = request.query_params.get("method", "mean-place")
    if method not in results.STANDING_METHODS:
        raise HTTPException(400, Text("standings method: one of %(names)s", names=", ".join(results.STANDING_METHODS)))
    asked = list(dict.fromkeys(g for g in request.query_params.getlist("game") if g))[:100]

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            every = j.games(DUPLICATE.name)
            # an id that is no duplicate game is left out before the cache is asked: it cannot make a new key; the
            # games chosen are taken in the journal's order, whatever the address's order: one key per choice
            wanted = set(asked)
            ids = [g.id for g in every if not asked or g.id in wanted]
            # the journal's position of every game: unchanged positions, the same standings (no replay, no sum)
            positions = tuple((gid, j.last_seq(gid)) for gid in ids)
            # and of the season's records, which say who each game's registered players are
            season = tuple((sid, j.last_seq(sid)) for sid in (REGISTRY_ID, *tournament.tournaments(j)))
            key = (w.db, method, positions + season)
            with _lock:
                kept = _standings.get(key)
                if kept is not None:
                    _standings.move_to_end(key)
            if kept is None:
                with _making:  # one computation at a time: who asks meanwhile takes what it kept
                    with _lock:
                        kept = _standings.get(key)
                    if kept is None:
                        kept = _standings_of(w, j, ids, method)
                        with _lock:
                            _standings[key] = kept
                            while len(_standings) > MAX_STANDINGS:  # the least recently asked goes
                                _standings.popitem(last=False)
        # the games' language when they share one (a tournament's), else the one asked for
        langs = kept["langs"]
        lang = i18n.pick(request.query_params.get("lang"), next(iter(langs)) if len(langs) == 1 else "en")
        # the chooser: every duplicate game, those ranked ticked
        chosen = set(ids)
        games = [{"id": g.id, "title": str(g.settings.get("title") or g.id), "created": g.created[:10],
                  "chosen": g.id in chosen} for g in every]
        return {"results": kept["results"], "rows": kept["rows"], "method": method, "lang": lang,
                "games": games, "methods": results.STANDING_METHODS}

    return w.render(request, "duplicate/standings.html", **(await run_in_threadpool(load)))


#: standings by (journal, method, every game's position): a reload while no game moved costs a lookup
_standings: OrderedDict[tuple[str, str, tuple[tuple[str, int], ...]], dict[str, Any]] = OrderedDict()
_lock = threading.Lock()
_making = threading.Lock()
MAX_STANDINGS = 64


def _standings_of(w: Web, j: Journal, ids: list[str], method: str) -> dict[str, Any]:
    done, played = [], []
    langs = set()
    for gid in ids:
        try:
            s = w.session(j, gid)
            r = result_at(w, s)
        except ArbitruError:
            continue
        if r is not None:
            done.append(r)
            played.append(gid)
            langs.add(s.game.settings.lang)
    # registered players matched by registry id, never by spelling
    registered = tournament.registered_players(j, played)
    rows = results.standings(done, method, registered) if done else []
    return {"results": done, "rows": rows, "langs": langs}
