"""The JSON API under ``/api`` (documented by ``/api/openapi.json``): the public state of a game, and slips from
players' phones or other tools with the player's code as a Bearer token.

``POST /api/games/{id}/slips`` answers 201 with the receipt of a slip stored in time; 409 with the receipt of a
slip stored but late (the move's time is up or its master move placed: FISE-5, FISE-6), or 409 without one when
the move is not open; 400 naming the field for a slip that is not one; 422 naming the field for a slip that cannot
be read (a position that is none, no word, a character that is no letter, a score below 0), why said in the game's
language (or ``?lang=``), nothing stored; 401 without a valid code; 403 for a slip in another player's name. A
slip sent again with the same ``Idempotency-Key`` gets its first receipt and is not stored twice; another slip sent
with the key of a stored one is refused, 422 naming the field ``key``, why said as for an unreadable slip, nothing
stored (a retry sends the same slip again; a new slip needs a new key). A player hands
in at most ``MAX_SLIPS_PER_MOVE`` slips for a move or turn (replacements and late ones counted): the next is
refused, 409 with ``stored: false``, ``field`` ``move`` (``turn``) and ``limit``, why said as a 422's is, nothing
stored; the slip counted so far stays, a change is the arbiter's. 409, not 429: waiting does not help (the count is the
move's, not a rate), so there is no ``Retry-After`` for a client to wait and try again. Every answer to a slip
says whether it is stored: the receipt's ``stored``, and ``"stored": false`` in every refusal (a late slip's 409
carries its receipt, ``"stored": true``).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from arbitru.errors import ArbitruError, GameNotFound
from arbitru.formats import ANTICIPATION
from arbitru.formats.anticipation.variants import TURNS
from arbitru.formats.receipt import KEY_FORM, MAX_SLIPS_PER_MOVE, KeyReused, TooManySlips, check_key
from arbitru.journal.store import Journal
from arbitru.textinput import LIMITS, MAX_INT, InputError, check_whole
from arbitru.web import auth, fair, i18n, security, views
from arbitru.web.anticipation_pages import clock_view, grid_rows, hand_in, light, open_game
from arbitru.web.house import client, web
from arbitru.web.intake import SlipRequest, at_the_door

MAX_BODY = 4096
#: the most characters of a text field of an anticipation slip
FIELD = 200
#: the header a sender puts its idempotency key in: a retry with the same key gets the first receipt
KEY_HEADER = "Idempotency-Key"


def sent_key(request: Request) -> str:
    """The sender's ``Idempotency-Key``, checked (:func:`~arbitru.formats.receipt.check_key`); "" without the
    header. The header sent empty (or blank: HTTP strips its spaces) is refused: its sender believes a retry safe,
    yet a slip sent twice without a key is two slips.

    :raises InputError: naming the field ``key``.
    """
    if KEY_HEADER not in request.headers:
        return ""
    key = request.headers[KEY_HEADER].strip()
    if not key:
        raise InputError(f"{KEY_HEADER} is empty: {KEY_FORM % {'n': LIMITS['key']}}; without the header, a slip "
                         "sent twice is two slips", field="key")
    return check_key(key)


def _refused(status: int, message: str, **extra: Any) -> JSONResponse:
    """A slip the API's door refused: why, and ``"stored": false`` (its sender must know it is not in, whatever
    refused it)."""
    return JSONResponse({"error": message, **extra, "stored": False}, status_code=status)


async def bearer_json(request: Request, shape: str) -> tuple[str, dict[str, Any]] | Response:
    """The sender's player code (its Bearer token) and the JSON object it sent, or the refusal to answer: 401
    without a code, 413 for a body larger than a slip, 400 for a body that is not a JSON object (``shape``)."""
    scheme, _, code = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not code.strip():
        return _refused(401, "send your player code as 'Authorization: Bearer CODE'")
    declared = security.declared_length(request.scope)
    if declared is not None and declared > MAX_BODY:  # refused unread
        return _refused(413, f"the slip is larger than {MAX_BODY} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():  # read no further than a slip
        size += len(chunk)
        if size > MAX_BODY:
            return _refused(413, f"the slip is larger than {MAX_BODY} bytes")
        chunks.append(chunk)
    body = b"".join(chunks)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return _refused(400, "the body is not JSON in UTF-8")
    if not isinstance(data, dict):
        return _refused(400, f"the body is a JSON object: {shape}")
    return code, data


def _answer(fixed: bytes, clock: dict[str, Any]) -> Response:
    """A game's state as JSON: what is kept for its journal position, with the clock as it is this moment."""
    return Response(fixed[:-1] + b', "clock": ' + json.dumps(clock).encode() + b"}", media_type="application/json")


async def game_state(request: Request) -> Response:
    """A duplicate game's public state: made once per journal position from the worker's folded state (never
    replayed per request) and kept; only the running clock is read per request."""
    w = web(request)
    gid = request.path_params["gid"]

    def load() -> Response:
        with w.journal("") as j:
            g = w.session(j, gid, lexicon=False).game
            draw = _draw(j, gid)  # the commitment, the secret once the results are final: as the journal says now

        def made() -> bytes:
            master = views.master_view(g)
            return json.dumps({
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
                "master_total": g.master_total(),
                "last_master": master,
                "players": [{"number": p.number, "name": p.name} for p in g.players.values()],
                "seq": g.last_seq,
                "draw": draw,
            }).encode()

        fixed = w.at_seq(gid, g.last_seq, "api", made)
        return _answer(fixed, {k: v for k, v in views.clock(g).items() if k != "cues"})

    try:
        return await run_in_threadpool(load)
    except GameNotFound as e:  # any other failure: library_error checks the game (a damaged one answers 503)
        return JSONResponse({"error": i18n.no_game(e.game)}, status_code=404)


def _draw(j: Journal, gid: str) -> dict[str, Any] | None:
    """Where the game's draws come from: the commitment, the secret once the results are final."""
    shown = fair.shown(j, gid)
    return None if shown is None else shown.to_dict()


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
    sent = await bearer_json(request, "{move, position, word, score}")
    if isinstance(sent, Response):
        return sent
    code, data = sent
    try:
        req = slip_request(data, code, sent_key(request))
    except InputError as e:
        return _refused(400, str(e), field=e.field)

    # the throttle after failed codes is asked inside the group commit, once for the whole batch
    req.throttle = [k.name for k in security.code_keys(gid, client(request))]
    req.asked = w.limits.clock()
    done = await run_in_threadpool(w.intake.hand_in, gid, req)
    waited = done.waited if done.status == 429 else 0.0
    if done.status == 401:
        # counted in one step with the throttle's check: a wrong code that finds its client waiting already (a
        # burst in parallel) is refused as if it had come after the others, as the same codes one by one would be

        def count() -> float:
            with w.journal("") as j:
                try:
                    security.code_failed(j, w.limits, gid, client(request))
                except security.Throttled as t:
                    return float(t.wait)
                return 0.0

        waited = await run_in_threadpool(count)
    if waited:
        refused = security.Throttled(waited)
        return JSONResponse({"error": str(refused), "stored": False}, status_code=429,
                            headers={"Retry-After": str(refused.wait)})
    # every refusal says whether the slip is in (a late one is, flagged: 409 with "stored": true)
    body = done.body if done.status < 400 else {**done.body, "stored": done.body.get("stored", False)}
    if (done.status == 422 or "limit" in body) and isinstance(body.get("error"), i18n.Text):
        # a slip that cannot be read, or one past the player's slips for the move: why, in the game's language or
        # the one the request asks for (``?lang=``)
        body = {**body, "error": _said(request, done.lang, body["error"])}
    return JSONResponse(body, status_code=done.status)


def _said(request: Request, game_lang: str, text: str) -> str:
    """A refusal (a message: :class:`~arbitru.web.i18n.Text`) in the language the request asks for (``?lang=``),
    else the game's."""
    return i18n.gettext_for(i18n.pick(request.query_params.get("lang"), game_lang or "en"))(text)



# --- anticipation (RO-4.4: online simultaneous games) --------------------------------------------------------


async def api_state(request: Request) -> Response:
    """An anticipation game's public state: made once per journal position and kept; the clock per request."""
    w = web(request)
    gid = request.path_params["gid"]

    def load() -> Response:
        with w.journal("") as j:
            game = open_game(j, gid)
            lt = light(j, game)
            draw = _draw(j, gid)

        def made() -> bytes:
            return json.dumps({
                "id": gid, "format": ANTICIPATION.name, "variant": game.settings.variant,
                "groups": [{"group": r["number"], "letters": "".join(r["letters"])}
                           for r in grid_rows(lt) if r["shown"]],
                "lots": [lt.lots[t] for t in sorted(lt.lots)], "turn": lt.current_turn,
                "stage": lt.stage, "deadline": lt.deadline,
                "players": [{"player": p, "table": lt.seating[p], "name": lt.names.get(p, p)} for p in lt.players()],
                "seq": lt.last_seq, "draw": draw}).encode()

        fixed = w.at_seq(gid, lt.last_seq, "api", made)
        return _answer(fixed, {k: v for k, v in clock_view(lt).items() if k != "cues"})

    return await run_in_threadpool(load)


async def api_slip(request: Request) -> Response:
    """``POST /api/games/{id}/slips``: ``{turn, placements: [{position, word, score}], turn_total, note}`` with
    the player's code as Bearer token → 201 receipt (``late`` flagged by the server clock; sent again with the same
    ``Idempotency-Key``, the first receipt, nothing stored again); 422 ``field`` ``key`` for another slip sent with
    the key of a stored one (why in the game's language or ``?lang=``): nothing stored; 401 without a valid code;
    403 for another player's slip; 409 for a turn whose lot is not drawn, or once results are published
    (RO-5.5.j), or past the player's ``MAX_SLIPS_PER_MOVE`` slips for the turn (``field`` ``turn``, why in the
    game's language or ``?lang=``): nothing stored."""
    w = web(request)
    gid = request.path_params["gid"]
    sent = await bearer_json(request, "{turn, placements, turn_total, note}")
    if isinstance(sent, Response):
        return sent
    code, data = sent
    turn = data.get("turn")
    if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= TURNS:
        return _refused(400, f"turn is a whole number from 1 to {TURNS}")
    raw = data.get("placements", [])
    if not isinstance(raw, list) or len(raw) > 2 or not all(isinstance(p, dict) for p in raw):
        return _refused(400, "placements: a list of at most 2 objects {position, word, score}")
    places: list[tuple[str, str, str]] = []
    for p in raw:
        cells = [p.get("position", ""), p.get("word", ""), p.get("score", "")]
        cells = ["" if c is None else str(c) if isinstance(c, int) and not isinstance(c, bool) else c for c in cells]
        if not all(isinstance(c, str) and len(c) <= FIELD for c in cells):
            return _refused(400, f"position, word and score are text (or a number) of at most {FIELD} characters")
        places.append((cells[0], cells[1], cells[2]))
    try:
        key = sent_key(request)
    except InputError as e:
        return _refused(400, str(e), field="key")
    total, note = data.get("turn_total", ""), data.get("note", "")
    total = str(total) if isinstance(total, int) and not isinstance(total, bool) else ("" if total is None else total)
    if not isinstance(total, str) or not isinstance(note, str) or len(total) > FIELD or len(note) > FIELD:
        return _refused(400, f"turn_total and note are text of at most {FIELD} characters")

    def run() -> Response:
        with w.journal("") as j:
            lt = light(j, open_game(j, gid))
            try:
                player = security.try_code(j, w.limits, gid, client(request),
                                           lambda: auth.player_for_code(w.secret, gid, lt.players(), code))
            except security.Throttled as t:
                refused = _refused(429, str(t))
                refused.headers["Retry-After"] = str(t.wait)
                return refused
        if player is None:
            return _refused(401, "this code is not one of this game's players' codes")
        if "player" in data and str(data["player"]) != player:
            return _refused(403, f"this code is {player}'s: a player sends only his own slip")
        try:
            receipt = hand_in(w, gid, player, turn, places, total, note, key)
        except KeyReused as e:  # another slip with the key of a stored one: the sender learns it is not in
            return _refused(422, _said(request, lt.game.settings.lang, str(e)), field=e.field)
        except InputError as e:  # storage's door (check_row): the field named
            return _refused(400, str(e), field=e.field)
        except TooManySlips as e:
            return _refused(409, _said(request, lt.game.settings.lang, str(e)), field="turn", limit=e.limit)
        except ArbitruError as e:
            return _refused(409, str(e))
        return JSONResponse(receipt, status_code=201)

    return await run_in_threadpool(run)


#: one line of text: no control characters (the door's rule, :func:`arbitru.textinput.check_text`)
ONE_LINE = "^[^\\x00-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]*$"
SLIP_SCHEMA = {
    "title": "duplicate slip",
    "description": "a duplicate game's slip: the player's placement for the open move",
    "type": "object",
    "required": ["move"],
    "properties": {
        "move": {"type": "integer", "minimum": 1, "maximum": MAX_INT},
        "position": {"type": "string", "maxLength": LIMITS["position"], "pattern": ONE_LINE, "example": "H8"},
        "word": {"type": "string", "maxLength": LIMITS["word"], "pattern": ONE_LINE,
                 "description": "a blank in lower case"},
        "score": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_INT},
        "player": {"type": "string", "maxLength": LIMITS["player"], "pattern": "^[^\\x00-\\x1f]*$",
                   "description": "optional: the sender's own player number"},
    },
}
PLACEMENT = {
    "type": "object",
    "properties": {name: {"type": ["string", "integer", "null"], "maxLength": FIELD}
                   for name in ("position", "word", "score")},
}
ANTICIPATION_SLIP_SCHEMA = {
    "title": "anticipation slip",
    "description": "an anticipation game's slip (RO-4.4, online games): a turn's placements as written, with the "
                   "turn's total and a note; late by the server's clock",
    "type": "object",
    "required": ["turn"],
    "properties": {
        "turn": {"type": "integer", "minimum": 1, "maximum": TURNS},
        "placements": {"type": "array", "maxItems": 2, "items": PLACEMENT},
        "turn_total": {"type": ["string", "integer", "null"], "maxLength": FIELD},
        "note": {"type": ["string", "null"], "maxLength": FIELD},
        "player": {"type": "string", "description": "optional: the sender's own player"},
    },
}
#: a slip of either format: the game's format says which
ANY_SLIP = {"description": "the slip of the game's format", "oneOf": [SLIP_SCHEMA, ANTICIPATION_SLIP_SCHEMA]}
REFUSAL = {
    "type": "object",
    "properties": {
        "error": {"type": "string"},
        "field": {"type": "string", "description": "the field refused, when one is"},
        "stored": {"type": "boolean", "description": "false: nothing of the slip is stored (every refusal says "
                                                     "so)"},
        "limit": {"type": "integer", "description": "409 past the slips a player may hand in for a move or turn: "
                                                    "how many that is"},
    },
}
RECEIPT = {
    "type": "object",
    "properties": {
        "stored": {"type": "boolean"},
        "seq": {"type": "integer"},
        "received": {"type": "string", "format": "date-time"},
        "late": {"type": "boolean"},
        "move": {"type": "integer", "description": "duplicate: the move"},
        "turn": {"type": "integer", "description": "anticipation: the turn"},
        "player": {"type": "string"},
        "replaces": {"type": ["integer", "null"], "description": "the seq of the earlier slip this one replaces"},
        "kept_apart": {"type": "boolean", "description": "a late slip that does not replace the one in time"},
    },
}
OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "arbitru", "version": "1", "description": __doc__},
    "components": {"securitySchemes": {"playerCode": {"type": "http", "scheme": "bearer"}}},
    "paths": {
        "/api/games/{id}": {
            "get": {
                "summary": "Public state of a game, as its format has it (duplicate: board, rack, move, clock, "
                           "master total; anticipation: groups read out, lots, turn, clock, stage, players); both: "
                           "`draw`, where the draws come from (`kind` secret, known-seed, hall or prepared; the "
                           "`commitment` to the secret from the start, the `secret` once the results are final, "
                           "the `verify` command; docs/fairness.md)",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "the state"}, "404": {"description": "no such game"}},
            }
        },
        "/api/games/{id}/slips": {
            "post": {
                "summary": "Hand in the player's slip (duplicate: for the open move; anticipation: for a turn)",
                "security": [{"playerCode": []}],
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "lang", "in": "query", "required": False,
                     "schema": {"type": "string", "enum": sorted(i18n.LANGUAGES)},
                     "description": "the language a refusal is said in (else the game's)"},
                    {"name": KEY_HEADER, "in": "header", "required": False,
                     "schema": {"type": "string", "minLength": 1, "maxLength": LIMITS["key"],
                                "pattern": "^[\\x21-\\x7e]+$"},
                     "description": "a key the sender makes up for this slip (a UUID, say): sent again with the "
                                    "same key (its first answer was lost), the slip gets its first receipt "
                                    "again and nothing is stored; another slip sent with that key is refused "
                                    "(422, `field` `key`); the header sent empty is refused (400, `field` "
                                    "`key`): without it, a slip sent twice is two slips"},
                ],
                "requestBody": {"required": True, "content": {"application/json": {"schema": ANY_SLIP}}},
                "responses": {
                    "201": {"description": "stored in time", "content": {"application/json": {"schema": RECEIPT}}},
                    "400": {"description": "not a slip: the field refused is named",
                            "content": {"application/json": {"schema": REFUSAL}}},
                    "422": {"description": "duplicate: a slip that cannot be read (a position that is none, "
                                           "no word, a character that is no letter of the tile set, a score "
                                           "below 0): the field refused is named, why in the game's language "
                                           "(or the `lang` query parameter's); nothing stored. A slip that reads "
                                           "but is wrong is stored and judged. Either format: a slip sent with "
                                           "the `Idempotency-Key` of another slip the sender handed in (another "
                                           "move or turn, placement, total or note): `field` `key`, why said "
                                           "likewise, nothing stored",
                            "content": {"application/json": {"schema": REFUSAL}}},
                    "401": {"description": "no code, or not a code of this game"},
                    "403": {"description": "a slip in another player's name"},
                    "409": {"description": "stored but late (receipt given), or refused with `stored: false`, "
                                           "nothing stored: the move is not open (an anticipation turn whose lot "
                                           "is not drawn, or a game whose results are published); or the player "
                                           f"has handed in {MAX_SLIPS_PER_MOVE} slips for this move (turn) "
                                           "already, replacements and late ones counted, the most a player may: "
                                           "`field` `move` (`turn`), `limit`, why in the game's language (or the "
                                           "`lang` query parameter's); the slip counted so far stays, a change is the "
                                           "arbiter's. Not 429: waiting does not help, there is nothing to retry "
                                           "(a retry with the stored slip's `Idempotency-Key` still gets its "
                                           "receipt)",
                            "content": {"application/json": {"schema": {"anyOf": [RECEIPT, REFUSAL]}}}},
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
