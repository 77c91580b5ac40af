"""The game's journal for anyone to check its draws once the results are final (``journal verify-draw``)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from arbitru.formats import format_of
from arbitru.web.house import attachment, web
from arbitru.web.i18n import Text


async def journal_export(request: Request) -> Response:
    """``GET /games/{id}/journal.jsonl``: the game's journal (``journal export``), its secret included, once the
    results are final; 404 before."""
    from arbitru.cli.journal import export_lines

    w = web(request)
    gid = request.path_params["gid"]

    def load() -> str | None:
        with w.journal("") as j:
            info = j.game(gid)
            fmt = format_of(info)
            if fmt is None or not fmt.over(j, gid):
                return None
            return "\n".join(export_lines(j, gid)) + "\n"

    text = await run_in_threadpool(load)
    if text is None:
        raise HTTPException(404, Text("the game's journal is published once the results are final"))
    return Response(text, media_type="application/x-ndjson; charset=utf-8",
                    headers=attachment(f"{gid}.jsonl"))
