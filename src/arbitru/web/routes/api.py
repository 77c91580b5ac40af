"""The JSON API under ``/api`` (documented by ``/api/openapi.json``): the public state of a game, and slips from
players' phones or other tools with the player's code as a Bearer token.

``POST /api/games/{id}/slips`` answers 201 with the receipt of a slip stored in time; 409 with the receipt of a
slip stored but late (the move's time is up or its master move placed: FISE-5, FISE-6), or 409 without one when
the move is not open; 400 naming the field for a slip that is not one; 401 without a valid code; 403 for a slip
in another player's name. A slip sent again with the same ``Idempotency-Key`` gets its first receipt and is not
stored twice.
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
from arbitru.textinput import LIMITS, MAX_INT, InputError, check_whole
from arbitru.web import security, views
from arbitru.web.app import client, web
from arbitru.web.intake import SlipRequest, at_the_door

MAX_BODY = 4096
#: the header a sender puts its idempotency key in: a retry with the same key gets the first receipt
KEY_HEADER = "Idempotency-Key"


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
        if "no game" in str(e):
            return _error(404, str(e))
        raise  # library_error checks the game: a damaged one answers 503 with what is damaged


def slip_request(data: dict[str, Any], code: str, key: str) -> SlipRequest:
    """The slip of a JSON body, checked completely before it joins a group commit: JSON types as the schema says
    (``true`` is not 1), then storage's own limits (:func:`~arbitru.web.intake.at_the_door`).

    :raises InputError: naming the field.
    """
    move = check_whole(data.get("move"), "move", low=1)
    score = None if data.get("score") in (None, "") else check_whole(data["score"], "score")
    texts: dict[str, str] = {}
    for name in ("position", "word"):
        value = data.get(name, "")
        if not isinstance(value, str):
            raise InputError(f"{name} is text", field=name)
        texts[name] = value
    claimed = data.get("player")
    if claimed is not None:
        if isinstance(claimed, bool) or not isinstance(claimed, str | int):
            raise InputError("player is the player's number, as text", field="player")
        claimed = str(claimed)
    return at_the_door(SlipRequest(move, texts["position"], texts["word"], score, code=code, claimed=claimed,
                                   key=key.strip()))


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
        req = slip_request(data, code, request.headers.get(KEY_HEADER, ""))
    except InputError as e:
        return _error(400, str(e), field=e.field)

    # the throttle after failed codes is asked inside the group commit, once for the whole batch
    req.throttle = [k.name for k in security.code_keys(gid, client(request), w.limits)]
    req.asked = w.limits.clock()
    done = await run_in_threadpool(w.intake.hand_in, gid, req)
    if done.status == 429:
        refused = security.Throttled(done.waited)
        return JSONResponse({"error": str(refused)}, status_code=429, headers={"Retry-After": str(refused.wait)})
    if done.status == 401:

        def count() -> None:
            with w.journal("") as j:
                security.code_failed(j, w.limits, gid, client(request))

        await run_in_threadpool(count)
    return JSONResponse(done.body, status_code=done.status)


#: one line of text: no control characters (the door's rule, :func:`arbitru.textinput.check_text`)
ONE_LINE = "^[^\\x00-\\x1f\\x7f-\\x9f]*$"
SLIP_SCHEMA = {
    "type": "object",
    "required": ["move"],
    "properties": {
        "move": {"type": "integer", "minimum": 1, "maximum": MAX_INT},
        "position": {"type": "string", "maxLength": LIMITS["position"], "pattern": ONE_LINE, "example": "H8"},
        "word": {"type": "string", "maxLength": LIMITS["word"], "pattern": ONE_LINE,
                 "description": "a blank in lower case"},
        "score": {"type": ["integer", "null"], "minimum": -MAX_INT, "maximum": MAX_INT},
        "player": {"type": "string", "maxLength": LIMITS["player"], "pattern": "^[^\\x00-\\x1f]*$",
                   "description": "optional: the sender's own player number"},
    },
}
REFUSAL = {
    "type": "object",
    "properties": {
        "error": {"type": "string"},
        "field": {"type": "string", "description": "the field refused, when one is"},
        "stored": {"type": "boolean"},
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
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": KEY_HEADER, "in": "header", "required": False,
                     "schema": {"type": "string", "maxLength": LIMITS["key"], "pattern": "^[\\x21-\\x7e]*$"},
                     "description": "a key the sender makes up for this slip (a UUID, say): sent again with the "
                                    "same key (its first answer was lost), the slip gets its first receipt "
                                    "again and nothing is stored"},
                ],
                "requestBody": {"required": True, "content": {"application/json": {"schema": SLIP_SCHEMA}}},
                "responses": {
                    "201": {"description": "stored in time", "content": {"application/json": {"schema": RECEIPT}}},
                    "400": {"description": "not a slip: the field refused is named",
                            "content": {"application/json": {"schema": REFUSAL}}},
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
