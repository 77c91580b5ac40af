"""The JSON API under ``/api`` (documented by ``/api/openapi.json``): the public state of a game, and slips from
players' phones or other tools with the player's code as a Bearer token.

``POST /api/games/{id}/slips`` answers 201 with the receipt of a slip stored in time; 409 with the receipt of a
slip stored but late (the move's time is up or its master move placed: FISE-5, FISE-6), or 409 without one when
the move is not open; 401 without a valid code; 403 for a slip in another player's name.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arbitru.errors import JournalError
from arbitru.formats.duplicate.game import Session
from arbitru.web import security, views
from arbitru.web.app import client, web
from arbitru.web.intake import SlipRequest

MAX_BODY = 4096
FIELD = 200


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


async def game_state(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            s = Session(j, gid)
            g = s.game
            master = views.master_view(g)
            return {
                "id": g.id,
                "title": g.settings.title,
                "rules": g.rules.name,
                "lang": g.settings.lang,
                "move": g.move,
                "phase": g.phase,
                "board": [
                    "".join(c.label or "." for c in row) if all(len(c.label) <= 1 for c in row)
                    else [c.label for c in row]
                    for row in views.board_rows(g)
                ],
                "rack": [t["label"] for t in views.rack_tiles(g)],
                "clock": {k: v for k, v in views.clock(g).items() if k != "cues"},
                "master_total": g.master_total(),
                "last_master": master,
                "players": [{"number": p.number, "name": p.name} for p in g.players.values()],
                "seq": g.last_seq,
            }

    try:
        return JSONResponse(await run_in_threadpool(load))
    except JournalError as e:
        return _error(404, str(e))


async def post_slip(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]
    header = request.headers.get("authorization", "")
    scheme, _, code = header.partition(" ")
    if scheme.lower() != "bearer" or not code.strip():
        return _error(401, "send your player code as 'Authorization: Bearer CODE'")
    body = await request.body()
    if len(body) > MAX_BODY:
        return _error(413, f"the slip is larger than {MAX_BODY} bytes")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return _error(400, "the body is not JSON in UTF-8")
    if not isinstance(data, dict):
        return _error(400, "the body is a JSON object: {move, position, word, score}")
    try:
        move = int(data["move"])
        score = None if data.get("score") in (None, "") else int(data["score"])
    except (KeyError, TypeError, ValueError):
        return _error(400, "move and score are whole numbers")
    texts = {k: data.get(k, "") for k in ("position", "word")}
    if not all(isinstance(v, str) and len(v) <= FIELD for v in texts.values()):
        return _error(400, f"position and word are text of at most {FIELD} characters")

    claimed = str(data["player"]) if "player" in data else None
    req = SlipRequest(move, texts["position"], texts["word"], score, code=code, claimed=claimed)
    keys = security.code_keys(gid, client(request), w.limits)

    def wait() -> float:
        with w.journal("") as j:
            return security.wait_for(j, keys, w.limits.clock())

    waited = await run_in_threadpool(wait)
    if waited > 0:
        refused = security.Throttled(waited)
        return JSONResponse({"error": str(refused)}, status_code=429, headers={"Retry-After": str(refused.wait)})
    done = await run_in_threadpool(w.intake.hand_in, gid, req)
    if done.status == 401:

        def count() -> None:
            with w.journal("") as j:
                security.code_failed(j, w.limits, gid, client(request))

        await run_in_threadpool(count)
    return JSONResponse(done.body, status_code=done.status)


SLIP_SCHEMA = {
    "type": "object",
    "required": ["move"],
    "properties": {
        "move": {"type": "integer"},
        "position": {"type": "string", "maxLength": FIELD, "example": "H8"},
        "word": {"type": "string", "maxLength": FIELD, "description": "a blank in lower case"},
        "score": {"type": ["integer", "null"]},
    },
}
RECEIPT = {
    "type": "object",
    "properties": {
        "stored": {"type": "boolean"},
        "seq": {"type": "integer"},
        "received": {"type": "string", "format": "date-time"},
        "late": {"type": "boolean"},
        "move": {"type": "integer"},
        "player": {"type": "string"},
    },
}
OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "arbitru", "version": "1", "description": __doc__},
    "components": {"securitySchemes": {"playerCode": {"type": "http", "scheme": "bearer"}}},
    "paths": {
        "/api/games/{id}": {
            "get": {
                "summary": "Public state of a game: board, rack, move, clock, master total",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "the state"}, "404": {"description": "no such game"}},
            }
        },
        "/api/games/{id}/slips": {
            "post": {
                "summary": "Hand in the player's slip for the open move",
                "security": [{"playerCode": []}],
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "requestBody": {"required": True, "content": {"application/json": {"schema": SLIP_SCHEMA}}},
                "responses": {
                    "201": {"description": "stored in time", "content": {"application/json": {"schema": RECEIPT}}},
                    "400": {"description": "not a slip"},
                    "401": {"description": "no code, or not a code of this game"},
                    "403": {"description": "a slip in another player's name"},
                    "409": {"description": "stored but late (receipt given), or the move is not open"},
                    "429": {"description": "too many wrong codes from this address or for this game: wait the "
                                           "Retry-After seconds (nothing was checked or stored)"},
                },
            }
        },
    },
}


async def openapi(request: Request) -> Response:
    return JSONResponse(OPENAPI)


async def docs(request: Request) -> Response:
    w = web(request)
    return w.render(request, "api.html", spec=OPENAPI, spec_json=json.dumps(OPENAPI, indent=2))


routes = [
    Route("/api/games/{gid}", game_state),
    Route("/api/games/{gid}/slips", post_slip, methods=["POST"]),
    Route("/api/openapi.json", openapi),
    Route("/api", docs),
]
