"""Training alone at anticipation (``/train/anticipation``): a new draw or a past game's, the groups at
once, the lots one by one with the turn timers of RO-4.3, each slip corrected as soon as it is handed in (the
verdicts and what the group allowed on the trainee's own board), and at the end his game beside the computer
player's and the maximum's, turn by turn. The library (:mod:`arbitru.formats.anticipation.training`) does it all;
these pages read forms and show its records. Training games live in the training store
(:mod:`arbitru.journal.training`); a past game is offered, and accepted, only once it is over.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from arbitru.errors import ArbitruError, JournalError
from arbitru.formats import ANTICIPATION
from arbitru.formats.anticipation import training
from arbitru.formats.anticipation.draw import GroupRules
from arbitru.formats.anticipation.game import AnticipationGame, resolve_lexicon, secret_draw
from arbitru.formats.anticipation.hall import hall_state as light
from arbitru.formats.anticipation.turns import TURN_MINUTES
from arbitru.formats.anticipation.variants import TURNS, Settings
from arbitru.formats.fairness import Seal
from arbitru.journal.store import Journal
from arbitru.web import i18n, wordlists
from arbitru.web.anticipation_pages import (
    LANG,
    board_cells,
    browser_slip,
    clock_view,
    grid_rows,
    groups_of,
    phone_language,
)
from arbitru.web.forms import Refused, count_start, not_yours, read_form, sign_in_player
from arbitru.web.house import Endpoint, Web, identity, web
from arbitru.web.i18n import Text

PREFIX = "/train/anticipation"


def past_games(j: Journal) -> list[dict[str, Any]]:
    """The hall's games a trainee can play again: a common draw, over (:func:`training.over`): never a game in
    progress, whose lots to come would be told."""
    out: list[dict[str, Any]] = []
    for g in reversed(j.games(ANTICIPATION.name)):
        s = g.settings if isinstance(g.settings, dict) else {}
        if s.get("training") or s.get("variant") not in training.TRAINING_VARIANTS:
            continue
        try:
            if not training.over(AnticipationGame(j, g.id)):
                continue
        except ArbitruError:  # a damaged game is not offered
            continue
        out.append({"id": g.id, "created": g.created[:16], "variant": s.get("variant")})
        if len(out) == 50:
            break
    return out


def _start_page(w: Web, request: Request, status: int = 200, form: dict[str, str] | None = None,
                errors: dict[str, str] | None = None) -> Response:
    with w.journal("") as j:
        past = past_games(j)
    return w.render(request, "anticipation/train_start.html", status=status, form=form or {},
                    lang=i18n.pick(request.query_params.get("lang"), LANG), languages=i18n.LANGUAGES,
                    errors=errors or {}, past=past, variants=training.TRAINING_VARIANTS,
                    word_lists=wordlists.offered(w, LANG))


async def start_page(request: Request) -> Response:
    return await run_in_threadpool(_start_page, web(request), request)


async def start(request: Request) -> Response:
    w = web(request)
    f: dict[str, str] = {}
    try:
        f = await read_form(request)

        def create() -> str:
            seal: Seal | None = None
            if f.get("source") == "past":
                past = f.get("past", "").strip()
                if not past:
                    raise Refused("past", Text("choose the past game to play again"))
                try:
                    with w.journal("") as hall:
                        # whatever the form says: a game in progress is refused, its lots to come unsaid
                        if not training.over(AnticipationGame(hall, past)):
                            raise Refused("past", Text("only a game that is over can be played again"))
                        settings, draw = training.past_draw(hall, past)
                    lex = resolve_lexicon(settings.lexicon)
                except ArbitruError as e:
                    raise Refused("past", str(e)) from None
            else:
                variant = f.get("variant") or "classic"
                if variant not in training.TRAINING_VARIANTS:
                    raise Refused("variant", Text("one of %(names)s", names=", ".join(training.TRAINING_VARIANTS)))
                name = wordlists.chosen(w, f.get("lexicon", ""), LANG)
                try:
                    lex = resolve_lexicon(name)
                except ArbitruError as e:
                    raise Refused("lexicon", str(e)) from None
                settings = Settings(variant=variant, lexicon=name, training=True)
                try:  # a new draw from a secret: nobody, the trainee included, can foresee its lots (RO-5.3)
                    seal, draw = secret_draw(GroupRules.for_settings(settings, lex.alphabet, lex))
                except ArbitruError as e:
                    raise Refused("variant", str(e)) from None
            with w.training(f"player:{training.TRAINEE}") as j:
                count_start(request, j)
                try:
                    return training.start(j, settings, draw, lex, time.time(), seal=seal).id
                except ArbitruError as e:  # e.g. a past game's groups the variant's checks no longer pass
                    raise Refused("past" if f.get("source") == "past" else "variant", str(e)) from None

        gid = await run_in_threadpool(create)
    except Refused as e:
        return await run_in_threadpool(_start_page, w, request, e.status, f, {e.field: e.message})
    response = RedirectResponse(f"{PREFIX}/{gid}{i18n.keep(request.query_params.get('lang'))}", 303)
    sign_in_player(request, response, gid, training.TRAINEE)
    return response


def _trainee(request: Request) -> str:
    me = identity(request)
    gid = str(request.path_params["gid"])
    if me.role != "player" or me.game != gid or me.player != training.TRAINEE:
        raise not_yours(PREFIX)
    return gid


def _context(w: Web, gid: str) -> dict[str, Any]:
    with w.training("", gid) as j:
        try:
            game = AnticipationGame(j, gid)
        except JournalError as e:
            raise HTTPException(404, i18n.unreadable(e, gid)) from None
        if not game.settings.training:
            raise HTTPException(404, Text("game %(game)s is not a training game", game=gid))
        lt = light(j, game)
        state = game.replay()
        rep = training.report(game, state)
    turn = lt.current_turn
    own = state.results[training.TRAINEE]
    handed = (training.TRAINEE, turn) in lt.slips
    current = next((t for t in rep.turns if t.turn == turn), None)
    finished = state.stage == "final"
    return {
        "game": game, "lt": lt, "state": state, "report": rep, "turn": turn,
        "turn_groups": [] if finished else groups_of(lt, turn),
        "grid": grid_rows(lt, show_all=True), "clock": clock_view(lt), "cells": board_cells(own), "own": own,
        "finished": finished, "handed": handed, "current": current, "turns": TURNS,
        "next_minutes": TURN_MINUTES.get(turn + 1, 0),
        "late": bool(lt.slips.get((training.TRAINEE, turn), {}).get("late")),
    }


async def play(request: Request) -> Response:
    w = web(request)
    gid = _trainee(request)
    ctx = await run_in_threadpool(_context, w, gid)
    return w.render(request, "anticipation/train.html", **ctx, **phone_language(request, ctx["game"]))


def action(name: str) -> Endpoint:
    """A form action of the trainee's, then the page again (or the page with the refusal beside ``name``)."""

    async def endpoint(request: Request) -> Response:
        w = web(request)
        gid = _trainee(request)
        try:
            f = await read_form(request)

            def run() -> None:
                with w.training(f"player:{training.TRAINEE}", gid) as j:
                    game = AnticipationGame(j, gid)
                    now = time.time()
                    if name == "lot":
                        training.next_lot(game, now)
                    elif name == "finish":
                        training.finish(game)
                    else:
                        _hand_in(j, game, f, now)

            await run_in_threadpool(run)
        except (Refused, ArbitruError) as e:
            field, text = (e.field, e.message) if isinstance(e, Refused) else (name, str(e))
            ctx = await run_in_threadpool(_context, w, gid)
            return w.render(request, "anticipation/train.html", status=422, errors={field: text}, **ctx,
                            **phone_language(request, ctx["game"]))
        anchor = {"lot": "turn", "finish": "report", "slip": "verdict"}[name]
        return RedirectResponse(f"{PREFIX}/{gid}{i18n.keep(request.query_params.get('lang'))}#{anchor}", 303)

    return endpoint


def _hand_in(j: Journal, game: AnticipationGame, f: dict[str, str], now: float) -> None:
    lt = light(j, game)
    turn = training.slip_turn(game, lt)
    if f.get("turn") != str(turn):
        raise Refused("slip", Text("this slip was for turn %(written)s; the game is at turn %(turn)s",
                                   written=f.get("turn", "?")[:3], turn=turn))
    places = [(f.get(f"position{i}", ""), f.get(f"word{i}", ""), f.get(f"score{i}", "")) for i in (1, 2)]
    places = [p for p in places if any(p)]
    note = f.get("note", "")
    if not places and not note:
        raise Refused("slip", Text("write a placement, or PAS in the note to pass the turn"))
    game.hand_in(browser_slip(lt, training.TRAINEE, turn, places, f.get("total", ""), note), now)
