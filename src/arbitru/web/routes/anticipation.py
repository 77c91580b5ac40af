"""Anticipation pages (RO-*): the arbiter's console (draw, reading of the groups, lots, timers, sealed groups), the
projection screen, the slip desk, the correction review, results and forms, the player's browser, the JSON API.

Every action is one :class:`~arbitru.formats.anticipation.game.AnticipationGame` call in one journal connection
with the actor of who asks: the web adds no rule. Pages shared with the duplicate format (``/games/{id}``, its
screen, phone, results, codes, API) dispatch on the game's format: an anticipation game gets these pages, any other
game the duplicate ones. A refusal is shown beside the field it concerns.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import segno
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from arbitru.errors import ArbitruError
from arbitru.formats import ANTICIPATION
from arbitru.formats.anticipation import forms
from arbitru.formats.anticipation.clock import ANALYSIS, turn_timer
from arbitru.formats.anticipation.draw import (
    GroupRules,
    GroupsError,
    draw_groups,
    manual_draw,
    parse_groups,
    read_sealed_groups_csv,
)
from arbitru.formats.anticipation.game import (
    RESULT_TARGETS,
    AnticipationGame,
    read_seating_csv,
    resolve_lexicon,
    secret_draw,
)
from arbitru.formats.anticipation.hints import slip_hints
from arbitru.formats.anticipation.notices import arbiter_tables, notices
from arbitru.formats.anticipation.order import Action, Change, why_not_change
from arbitru.formats.anticipation.seating import read_entrants_csv, seat
from arbitru.formats.anticipation.slips import Slip, SlipRow, check_row
from arbitru.formats.anticipation.turns import TURN_MINUTES, drawer
from arbitru.formats.anticipation.variants import BLANK_COUNTS, GROUPS, TURNS, VARIANT_RULES, VARIANTS, Settings
from arbitru.formats.anticipation.verdicts import PlayerResult, SlipVerdict, Verdict
from arbitru.formats.receipt import KeyReused, check_key
from arbitru.journal.store import Journal
from arbitru.season import tournament
from arbitru.textinput import InputError, ascii_number, is_ascii_number
from arbitru.web import asks, auth, confirm, documents, fair, i18n, wordlists
from arbitru.web import notices as done_notices
from arbitru.web.acting import Confirming, Page, Perform, act
from arbitru.web.anticipation_pages import (
    LANG,
    board_cells,
    clock_view,
    grid_rows,
    groups_of,
    hand_in,
    light,
    open_game,
    phone_language,
    replayed,
    script_steps,
    ticking,
)
from arbitru.web.forms import (
    MAX_CSV,
    MAX_TYPED,
    STALE_FORM,
    Refused,
    need,
    new_slip_key,
    own_player,
    player_of_code,
    read_form,
    refused,
    sign_in_player,
    whole_in,
)
from arbitru.web.house import Endpoint, Web, base_url, identity, web
from arbitru.web.i18n import Text
from arbitru.web.season_context import absent_from, tournament_game_form

FILTERS = ("all", "invalid", "penalties", "warnings", "cascades")
#: the decisions a later decision may revoke (RO-6.5): those that change a result, and ranking points
DECISION_REVOCABLE = (*RESULT_TARGETS, "points")
#: the library's words these pages say in the page's language (``_(v.status)``…): a verdict's status, the
#: results' stage, the review's filters, a timer's state, a decision's target, a sanction's kind
WORDS = ("valid", "corrected", "invalid", "cancelled", "void", "missing", "in play", "provisional", "final", *FILTERS,
         "idle", "running", "paused", "stopped", "placement", "warning", "penalty", "discipline", "total",
         "disciplinary", "cheating", "analysis", "slip", "points", "publication", "decision", "replace", "withdraw",
         "revoke", "set", "accept", "refuse", "as", "cancel", "adjust", "chief arbiter")


# --- creating a game ---------------------------------------------------------------------------------------


def settings_from(w: Web, f: dict[str, str]) -> Settings:
    variant = f.get("variant") or "classic"
    if variant not in VARIANTS:
        raise Refused("variant", Text("variant: one of %(names)s", names=", ".join(VARIANTS)))
    blank = f.get("blank_counts") or "neither"
    if blank not in BLANK_COUNTS:
        raise Refused("blank_counts", Text("one of %(names)s", names=", ".join(BLANK_COUNTS)))
    seed: int | None = None
    text = (f.get("seed") or "").strip()
    if f.get("source", "seed") == "seed" and variant != "blind" and text:  # left empty: drawn from a secret
        if not re.fullmatch(r"[0-9]{1,12}", text):
            raise Refused("seed", Text("the seed is a whole number (at most 12 digits)"))
        seed = int(text)
    lexicon = wordlists.chosen(w, f.get("lexicon", ""), LANG)
    return Settings(variant=variant, lexicon=lexicon, blank_counts=blank, seed=seed,
                    clock_visible=f.get("no_clock") != "1")


def seating_from(f: dict[str, str]) -> list[tuple[str, int, str]]:
    text = f.get("players", "")
    if not text.strip():
        return []
    try:
        if f.get("seating") == "ratings":
            return seat(read_entrants_csv(text))  # RO-5.1: by rating, late entries last, clubs apart
        return read_seating_csv(text)
    except ArbitruError as e:
        raise Refused("players", str(e)) from None


async def index_page(request: Request) -> Response:
    w = web(request)

    def load() -> list[Any]:
        with w.journal("") as j:
            return j.games(ANTICIPATION.name)

    return w.render(request, "anticipation/index.html", games=await run_in_threadpool(load),
                    lang=i18n.pick(request.query_params.get("lang"), LANG))


async def new_page(request: Request) -> Response:
    need(request, "arbiter")
    w = web(request)
    return w.render(request, "anticipation/new.html", variants=VARIANT_RULES, blank_counts=BLANK_COUNTS,
                    problems=[], word_lists=wordlists.offered(w, LANG),
                    **await _in_tournament(request, request.query_params.get("tournament", "")))


async def _in_tournament(request: Request, tid: str) -> dict[str, Any]:
    """A tournament's next game: its players seated by rating (RO-5.1)."""
    if not tid:
        return {"form": {}, "lang": i18n.pick(request.query_params.get("lang"), LANG)}
    return await run_in_threadpool(tournament_game_form, web(request), request, tid, ANTICIPATION)


async def new_game(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    f: dict[str, str] = {}
    problems: list[str] = []
    try:
        f = await read_form(request, {"players": MAX_CSV, "groups": 2000})
        settings = settings_from(w, f)
        seating = seating_from(f)

        def create() -> str:
            try:
                lex = resolve_lexicon(settings.lexicon)
            except ArbitruError as e:
                raise Refused("lexicon", str(e)) from None
            rules = GroupRules.for_settings(settings, lex.alphabet, lex)
            draw = None
            seal = None
            if settings.variant != "blind":
                if f.get("source", "seed") == "seed" and settings.seed is None:
                    seal, draw = secret_draw(rules)  # RO-5.3: nobody can foresee the lots
                elif settings.seed is None:
                    try:
                        draw = manual_draw(rules, parse_groups(lex.alphabet, f.get("groups", "")))
                    except GroupsError as e:
                        problems.extend(e.problems)
                        raise Refused("groups", Text("%(n)s problem(s) with these groups", n=len(e.problems))) from None
                else:
                    draw = draw_groups(rules, settings.seed)
            with w.journal("arbiter") as j:
                try:
                    if f.get("tournament"):  # seated from the tournament's entries by rating (RO-5.1)
                        return tournament.create_anticipation_game(j, f["tournament"], settings, draw, lexicon=lex,
                                                                   absent=absent_from(f), seal=seal)
                    return AnticipationGame.create(j, settings, draw, lexicon=lex, seating=seating, seal=seal).id
                except GroupsError as e:
                    problems.extend(e.problems)
                    raise Refused("groups", Text("%(n)s problem(s) with these groups", n=len(e.problems))) from None
                except ArbitruError as e:
                    raise Refused("players", str(e)) from None

        gid = await run_in_threadpool(create)
    except (Refused, ArbitruError) as e:
        if isinstance(e, Refused) and e.typed is not None:
            f = e.typed  # refused at the form's door (a field too long): every field shown again as typed
        where, text, status = (e.field, e.message, e.status) if isinstance(e, Refused) else ("variant", str(e), 422)
        return w.render(request, "anticipation/new.html", status=status, variants=VARIANT_RULES,
                        blank_counts=BLANK_COUNTS, errors={where: text}, problems=problems,
                        word_lists=wordlists.offered(w, LANG),
                        **(await _in_tournament(request, f.get("tournament", ""))) | {"form": f})
    return RedirectResponse(f"/games/{gid}", 303)


# --- the console -------------------------------------------------------------------------------------------


def console_context(w: Web, j: Journal, gid: str) -> dict[str, Any]:
    game = open_game(j, gid)
    lt = light(j, game)
    turn = lt.current_turn
    return {
        "lt": lt,
        "game": game,
        "settings": game.settings,
        "steps": script_steps(lt),
        "grid": grid_rows(lt, show_all=True),
        "clock": clock_view(lt),
        "analysis": clock_view(lt, ANALYSIS),
        "turn_clock": clock_view(lt, turn_timer(turn)) if turn else None,
        "turn": turn,
        "next_turn": next((t for t in range(1, TURNS + 1) if t not in lt.lots), None),
        "remaining_groups": [g for g in range(2, GROUPS + 1)
                             if g not in {int(x["group"]) for x in lt.lots.values()}],
        "minutes": TURN_MINUTES,
        "rule": VARIANT_RULES[game.settings.variant],
        "fair": fair.said(j, gid),
        # every lot at once only where the order allows it (a game without timers, RO-4.4): never offered, then refused
        "all_lots": lt.order().why_not(Action.ALL_LOTS) is None,
    }


async def console(request: Request) -> Response:
    w = web(request)
    me = need(request, "desk")
    gid = request.path_params["gid"]

    def load() -> dict[str, Any]:
        with w.journal(me.actor) as j:
            return console_context(w, j, gid)

    ctx = await run_in_threadpool(load)
    ctx.update(staff_language(request, ctx["game"]))
    return w.render(request, "anticipation/console.html", done=done_notices.said(request.query_params.get("done", "")),
                    form={}, **ctx)


Action_ = Callable[[AnticipationGame, dict[str, str], Journal], str]
Ask = Callable[[AnticipationGame, dict[str, str], Journal], list[Any]]


def on_game(action: Action_, ask: Ask | None = None) -> Perform:
    """An action on the game, its message said in the language of the page it goes back to (:func:`act`,
    :mod:`arbitru.web.notices`); ``ask``: what the action will do when it cannot be undone: it then acts only on a
    second request confirming it (:mod:`arbitru.web.confirm`)."""

    def perform(w: Web, j: Journal, gid: str, f: dict[str, str], confirming: Confirming) -> str:
        game = open_game(j, gid)
        if ask is not None:
            confirming(j.last_seq(gid), ask(game, f, j))
        return action(game, f, j)

    return perform


def do_announce(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    if f.get("all") == "1":  # RO-4.4: the groups sent ahead to an online game, all at once
        with j.transaction(game.id):
            while not game.announced()[1]:
                game.announce_next()
        return Text("every group is out")
    step = game.announce_next()
    if step["step"] == "recap":
        return Text("second reading done: start the analysis")
    return Text("group %(n)s read out", n=step["group"])


def do_clock(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    timer = f.get("timer", "")
    t = game.clock(timer, f.get("action", ""), time.time())
    return Text("%(timer)s: %(state)s", timer=timer_label(timer), state=Text(t.state))


def timer_label(timer: str) -> Text:
    """A timer's name as a page says it: the analysis, or a turn's."""
    number = timer.rsplit(" ", 1)[-1]
    return Text("turn %(n)s", n=number) if timer.startswith("turn ") and is_ascii_number(number) else Text(timer)


def do_lot(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    if f.get("all") == "1":
        lots = game.draw_all_lots("arbiter")
        return Text("%(n)s lots drawn (RO-4.4)", n=len(lots))
    turn = whole_in(f, "turn", 1, TURNS)
    group = whole_in(f, "group", 2, GROUPS)
    by = "arbiter" if f.get("by") == "arbiter" else None
    table = whole_in(f, "table", 1, 10_000)
    if by is None and table is not None:
        by = f"table {table}"
    lot = game.draw_lot(turn, group, by)
    return Text("turn %(turn)s: group %(group)s (drawn by %(by)s)", turn=lot.turn, group=lot.group,
                by=drawer(lot.drawn_by))


def do_blind(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    sets = read_sealed_groups_csv(game.alpha, f.get("sets", ""), "sealed groups")
    game.hand_in_blind_groups(sets)
    return Text("sealed groups of %(n)s player(s) stored (RO-8.4)", n=len(sets))


def do_late_entry(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    _player, table, name = game.enter_late(f.get("player", ""), f.get("name", ""))
    return Text("%(name)s seated at table %(table)s (RO-5.1)", name=name, table=table)


def do_seating(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    seating = seating_from(f)
    if not seating:
        raise Refused("players", Text("no player given"))
    game.add_seating(seating)
    return Text("%(n)s players seated", n=len(seating))


# --- the projection screen ----------------------------------------------------------------------------------


def screen_context(w: Web, gid: str, me: auth.Identity, request: Request | None = None) -> dict[str, Any]:
    with w.journal("") as j:
        game = open_game(j, gid)
        lt = light(j, game)
        drawn = fair.said(j, gid)
    turn = lt.current_turn
    grid = grid_rows(lt)
    latest = next((r for r in reversed(grid) if r["shown"]), None)
    return {"lt": lt, "game": game, "grid": grid, "turn": turn, "clock": clock_view(lt),
            "turn_groups": groups_of(lt, turn), "latest": latest if not lt.recap else None, "fair": drawn}


async def screen(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(screen_context, w, request.path_params["gid"], identity(request))
    return w.render(request, "anticipation/screen.html", **ctx, lang=screen_language(request, ctx["game"]))


def screen_language(request: Request, game: AnticipationGame) -> str:
    """The projection speaks the game's language, or the one its address asks for (``?lang=``)."""
    return i18n.pick(request.query_params.get("lang"), game.settings.lang)


def staff_language(request: Request | None, game: AnticipationGame) -> dict[str, str]:
    """The console, the desks, the review and the boards speak the game's language, or the one their address
    asks for (``?lang=``: an arbiter or a clerk from abroad); ``stay``: what their forms and links add to stay in
    it."""
    asked = request.query_params.get("lang") if request is not None else None
    return {"lang": i18n.pick(asked, game.settings.lang), "stay": i18n.keep(asked)}


async def screen_live(request: Request) -> Response:
    w = web(request)
    gid, me = request.path_params["gid"], identity(request)

    def load() -> Response:
        ctx = screen_context(w, gid, me)
        lt, lang = ctx["lt"], screen_language(request, ctx["game"])
        return w.fragment(request, gid, lt.last_seq, (lang, ticking(lt)), "anticipation/_screen.html",
                          lambda: {**ctx, "lang": lang})

    return await run_in_threadpool(load)


# --- the slip desk ------------------------------------------------------------------------------------------


def desk_context(w: Web, gid: str, me: auth.Identity, request: Request | None = None) -> dict[str, Any]:
    with w.journal(me.actor) as j:
        game = open_game(j, gid)
        lt = light(j, game)
    asked = request.query_params.get("turn", "") if request is not None else ""
    turn = asked_turn if (asked_turn := ascii_number(asked)) and asked_turn <= TURNS else (lt.current_turn or 1)
    search = (request.query_params.get("q", "") if request is not None else "").strip()[:40]
    missing = [(lt.seating[p], lt.label(p)) for p in lt.players() if (p, turn) not in lt.slips]
    entered = sorted(((k[0], v) for k, v in lt.slips.items() if k[1] == turn), key=lambda x: -x[1]["seq"])
    rows = []
    for player, info in entered:  # every slip of the turn, the last typed first; the search narrows them
        if search and not desk_match(search, player, lt.label(player), lt.seating.get(player)):
            continue
        slip = Slip.from_payload(info["payload"])
        rows.append({"player": lt.label(player), "table": lt.seating.get(player), "info": info, "slip": slip,
                     "hints": slip_hints(slip, turn)})
    return {"lt": lt, "game": game, "turn": turn, "missing": missing, "entered": rows, "search": search,
            "lot_drawn": turn in lt.lots, "count": sum(1 for k in lt.slips if k[1] == turn),
            "closed": why_not_change(lt.stage, Change.SLIP), **staff_language(request, game)}


def desk_match(search: str, player: str, label: str, table: int | None) -> bool:
    """Whether a desk row is the one searched: a table's number (``7``, ``masa 7``), or part of the name or id."""
    number = search.rsplit(" ", 1)[-1]
    if is_ascii_number(number):
        return table == int(number)
    folded = search.casefold()
    return folded in label.casefold() or folded in player.casefold()


async def desk(request: Request) -> Response:
    w = web(request)
    me = need(request, "desk")
    ctx = await run_in_threadpool(desk_context, w, request.path_params["gid"], me, request)
    return w.render(request, "anticipation/desk.html", done=done_notices.said(request.query_params.get("done", "")),
                    form={}, problems=[], **ctx)


def desk_slip(game: AnticipationGame, f: dict[str, str], j: Journal) -> Slip:
    """The paper slip as typed: exactly what was written, attributed by its table (or the player field).

    Like a slip file, each placement line carries the slip's table, turn, total and note; the turn it was
    collected in may be unknown (``?``), and the slip is then kept unattributed to a turn (RO-6.2b).
    """
    collected_text = f.get("collected", "")
    collected = None if collected_text in ("", "?") else whole_in(f, "collected", 1, TURNS)
    seating = {t: p for p, t in light(j, game).seating.items()}  # table -> player, as the hall sees it
    table = f.get("table", "")
    player = f.get("player", "")
    if not player:
        if ascii_number(table) not in seating:
            raise Refused("table", Text("no player at table %(table)s: type the table, or the player in 'player'",
                                        table=repr(table)))
        player = seating[int(table.strip())]
    elif player not in seating.values():
        raise Refused("player", Text("%(player)s is not in the seating", player=repr(player)))
    rows = []
    for i in (1, 2):
        pos, word, score = f.get(f"position{i}", ""), f.get(f"word{i}", ""), f.get(f"score{i}", "")
        if pos or word or score:
            rows.append((pos, word, score))
    if not rows:
        rows = [("", "", "")]
    written = f.get("turn", "")
    # RO-6.2a: the name as written on the turn-1 slip, when the desk types it (or ticks that it is missing)
    name = "" if f.get("no_name") == "1" else (f.get("name", "").strip() or None)
    slip_rows = [
        SlipRow(line=i, table=table, turn=written, position=pos, word=word, score=score,
                turn_total=f.get("total", ""), note=f.get("note", ""), name=name)
        for i, (pos, word, score) in enumerate(rows, 1)
    ]
    return Slip(player, collected, slip_rows, source=f.get("desk_name", "desk")[:40], written_turn=written)


#: the desk form's field of each field of a slip's placement line (``%s``: the line's number)
DESK_FIELDS = {"position": "position%s", "word": "word%s", "score": "score%s", "turn_total": "total"}


def do_desk_slip(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    slip = desk_slip(game, f, j)
    for i, row in enumerate(slip.rows, 1):
        try:
            check_row(row)
        except InputError as e:
            where = DESK_FIELDS.get(e.field, e.field or "table")
            raise Refused(where.replace("%s", str(i)), i18n.refusal(e)) from None
    closed = why_not_change(game.published().stage, Change.SLIP)
    if closed is not None:  # RO-6.5: after the results, a slip typed again is the chief arbiter's decision
        if j.actor != "arbiter":
            raise Refused("table", str(closed), 409)
        if not f.get("reason", "").strip():
            raise Refused("reason", Text("give the reason of the chief arbiter's decision (RO-6.5)"))
        if slip.turn is None:
            raise Refused("collected", Text("the turn"))
        seq = game.decide_slip(slip, f["reason"], by=f.get("by") or "chief arbiter")
        return Text("decision #%(n)s stored (RO-6.5)", n=seq)
    if slip.turn is not None and game.hall().why_not(Action.HAND_IN, turn_timer(slip.turn)) is not None:
        raise Refused("collected", Text("the lot of turn %(n)s is not drawn yet (RO-5.3)", n=slip.turn))
    try:
        game.enter_slips([slip], replace=f.get("replace") == "1")
    except ArbitruError as e:
        said = str(e)
        if isinstance(said, Text) and "how" in said.values:  # the page's way to re-enter a slip, not the CLI's
            said = Text(said.message, **(said.values | {"how": Text("tick 'replace' to re-enter it")}))
        raise Refused("table", said) from None
    hints = slip_hints(slip, slip.turn)
    if hints:
        return Text("slip of %(player)s, turn %(turn)s stored — check: %(hints)s", player=slip.player,
                    turn=slip.turn or "?", hints=hints)
    return Text("slip of %(player)s, turn %(turn)s stored", player=slip.player, turn=slip.turn or "?")


# --- the correction review ------------------------------------------------------------------------------------


def _filter(v: Verdict, sv: SlipVerdict, what: str) -> bool:
    if what == "invalid":
        return v.status in ("invalid", "void")
    if what == "penalties":
        return v.penalty > 0 or bool(v.penalty_rule)
    if what == "warnings":
        return sv.warning is not None
    if what == "cascades":
        return v.status == "cancelled" or bool(sv.cancellations) or (v.points != v.score and v.on_board)
    return True


def review_context(w: Web, gid: str, me: auth.Identity, request: Request | None = None) -> dict[str, Any]:
    with w.journal(me.actor) as j:
        game = open_game(j, gid)
        lt = light(j, game)
        state = replayed(w, j, game)
        effects = game.effects(state)
    q = request.query_params if request is not None else {}
    asked = q.get("turn", "")
    turn = asked_turn if (asked_turn := ascii_number(asked)) and asked_turn <= TURNS else (lt.current_turn or 1)
    what = q.get("filter", "all")
    what = what if what in FILTERS else "all"
    language = staff_language(request, game)
    said = i18n.gettext_for(language["lang"])
    # RO-5.5.g: the arbiters, in the order of the tables they take (as announced before the game)
    arbiters = [a.strip()[:40] for a in str(q.get("arbiters", "")).split(",") if a.strip()][:20]
    by_arbiter = arbiter_tables(list(lt.seating.values()), arbiters)
    verifications = []
    rows = []
    for r in sorted(state.ranking, key=lambda r: (r.table or 10**9, r.player)):
        sv = r.slips.get(turn)
        if sv is None:
            continue
        for ver in sv.verifications:
            verifications.append({"player": lt.label(r.player), "table": r.table,
                                  "arbiter": by_arbiter.get(r.table or 0, ""), **ver})
        for v in sv.placements:
            if _filter(v, sv, what):
                rows.append({"r": r, "sv": sv, "v": v, "who": lt.label(r.player)})
        if not sv.placements and what in ("all", "warnings") and (sv.warning or sv.status != "corrected"
                                                                   or sv.passed):
            rows.append({"r": r, "sv": sv, "v": None, "who": lt.label(r.player)})
    # the verification answers are said once, in their own card above (RO-5.5.h); the rest split by arbiter
    told: dict[str, list[dict[str, Any]]] = {}
    for n in notices(state, turn, arbiters):
        if n.rule != "RO-5.5.h":
            told.setdefault(n.arbiter, []).append(n.to_dict() | {"text": said(n.text)})
    return {"lt": lt, "game": game, "state": state, "turn": turn, "filter": what, "filters": FILTERS,
            "verifications": verifications, "rows": rows, "arbiters": ", ".join(arbiters),
            "notices": [n for group in told.values() for n in group], "told": list(told.items()),
            "effects": effects, "revocable": DECISION_REVOCABLE,
            "gaps": game.unfinished() if lt.stage == "in play" else [], **language}


async def review(request: Request) -> Response:
    w = web(request)
    me = need(request, "desk")
    ctx = await run_in_threadpool(review_context, w, request.path_params["gid"], me, request)
    return w.render(request, "anticipation/review.html", done=done_notices.said(request.query_params.get("done", "")),
                    form={}, problems=[], **ctx)


def do_decide(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    seq = game.decide(
        f.get("player", ""), f.get("target", ""), f.get("action", ""), f.get("reason", ""),
        by=f.get("by") or "chief arbiter", turn=whole_in(f, "turn", 1, TURNS), index=whole_in(f, "index", 1, 2),
        position=f.get("position") or None, word=f.get("word") or None,
        points=whole_in(f, "points", 0, 10_000), event=whole_in(f, "event", 1, 10**9),
    )
    if f.get("target") == "publication":
        return Text("the provisional results are withdrawn (decision #%(n)s): the game goes on", n=seq)
    return Text("decision #%(n)s stored (RO-6.5)", n=seq)


def do_sanction(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    seq = game.sanction(f.get("player", ""), f.get("kind", ""), f.get("reason", ""), whole_in(f, "turn", 1, TURNS))
    return Text("sanction #%(n)s stored", n=seq)


def points_scale(text: str) -> list[int]:
    """The organiser's ranking points by place, ``25, 20, 16`` (RO-5.5.j)."""
    scale = []
    for cell in text.replace(";", ",").split(",") if text.strip() else []:
        number = ascii_number(cell.strip())
        if number is None:
            raise Refused("points", Text("%(text)s is not a number of points", text=repr(cell.strip())))
        scale.append(number)
    return scale


def do_publish(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    # asked first (asks.publish): a game not over (it ends now, RO-5.5.j), the final ranking before the deadline
    seq = game.publish(f.get("stage", ""), f.get("deadline", ""), title=f.get("title", "").strip()[:120],
                       date=f.get("date", "").strip()[:40], points=points_scale(f.get("points", "")),
                       confirmed=bool(f.get(confirm.FIELD)))
    if f.get("stage") == "provisional":
        return Text("provisional results published (#%(n)s)", n=seq)
    return Text("final results published (#%(n)s)", n=seq)


def do_maximum(game: AnticipationGame, f: dict[str, str], j: Journal) -> str:
    """The maximum the groups and lots allowed (a beam search), stored so the results show it."""
    from arbitru.formats.anticipation.maximum import game_inputs, maximum
    from arbitru.textinput import parse_number

    beam = parse_number(f.get("beam", "") or "100", "beam", low=1, high=1000)
    groups, lots, use_all = game_inputs(game.replay())
    result = maximum(game.lexicon, groups, lots, beam=beam, seed=0, use_all=use_all)
    seq = game.record_maximum(result.to_payload())
    return Text("maximum %(total)s stored (#%(n)s, beam %(beam)s, %(s)s s)", total=result.total, n=seq, beam=beam,
                s=f"{result.seconds:.1f}")


# --- boards, results, sheets, forms ---------------------------------------------------------------------------


async def board_page(request: Request) -> Response:
    w = web(request)
    me = identity(request)
    gid, player = request.path_params["gid"], request.path_params["player"]

    def load() -> dict[str, Any]:
        with w.journal(me.actor) as j:
            game = open_game(j, gid)
            state = replayed(w, j, game)
        if player not in state.results:
            raise HTTPException(404, Text("no player %(player)s in this game", player=repr(player)))
        own = me.role == "player" and me.game == gid and me.player == player
        if not ((me.can_enter_slips() or own) and state.results_shown(staff=me.can_enter_slips())):
            raise HTTPException(403 if me.role != "public" else 401, Text("a player's board is his and the arbiter's"))
        r = state.results[player]
        verdicts = r.verdicts()
        return {"game": game, "state": state, "r": r, "cells": board_cells(r), "pname": state.names.get(player, player),
                "on_board": [v for v in verdicts if v.on_board],
                "invalid": [v for v in verdicts if v.status in ("invalid", "void")],
                "cancelled": [v for v in verdicts if v.status == "cancelled"], "rows": "ABCDEFGHIJKLMNO",
                **staff_language(request, game)}

    return w.render(request, "anticipation/board.html", **(await run_in_threadpool(load)))


async def results_page(request: Request) -> Response:
    w = web(request)
    me = identity(request)
    gid = request.path_params["gid"]

    def load() -> Response:
        with w.journal("") as j:
            game = open_game(j, gid)
            state = replayed(w, j, game)
            drawn = fair.shown(j, gid)
            shown = state.results_shown(staff=me.can_enter_slips())

            lang = i18n.pick(request.query_params.get("lang"), game.settings.lang)

            def context() -> dict[str, Any]:  # drawn once per position and language for every anonymous visitor
                return {"game": game, "state": state, "shown": shown,
                        "effects": game.effects(state) if shown else {}, "points": state.ranking_points(),
                        "last": state.publications[-1] if state.publications else None, "fair": drawn,
                        "lang": lang}

            return w.public_page(request, gid, state.last_seq, "anticipation/results.html", context, key=lang)

    return await run_in_threadpool(load)


async def sheet(request: Request) -> Response:
    """A player's results sheet (Annex 3), printable: public once results are published."""
    w = web(request)
    me = identity(request)
    gid, player = request.path_params["gid"], request.path_params["player"]

    def load() -> str:
        with w.journal("") as j:
            game = open_game(j, gid)
            state = replayed(w, j, game)
        if player not in state.results:
            raise HTTPException(404, Text("no player %(player)s in this game", player=repr(player)))
        if not state.results_shown(staff=me.can_enter_slips()):
            raise HTTPException(403, Text("results are not published yet (RO-5.5.j)"))
        return forms.printable(f"Rezultate {player}", forms.results_page(state, state.results[player]))

    return HTMLResponse(await run_in_threadpool(load))


async def form_page(request: Request) -> Response:
    """The Annex 3 forms as printable pages and PDF: blank slips, the annotation form, the ranking (and its CSV),
    the results sheets (``slips.html`` or ``slips.pdf``...). Each is made once per journal position and kept;
    the PDFs once per content, in the background (web/documents.py): the blank forms once per game."""
    w = web(request)
    me = identity(request)
    gid, what = request.path_params["gid"], request.path_params["what"]
    name, _, kind = what.rpartition(".")
    if name not in FORMS or kind not in ("html", "pdf", "csv") or (kind == "csv" and name != "ranking"):
        raise HTTPException(404, Text("no form %(what)s", what=repr(what)))

    def load() -> tuple[int, list[str] | str]:
        """The form's journal position and its parts (a CSV's text), kept for that position."""
        with w.journal("") as j:
            game = open_game(j, gid)
            lt = light(j, game)
            if name in ("ranking", "results") and not lt.results_shown(staff=me.can_enter_slips()):
                raise HTTPException(403, Text("results are not published yet (RO-5.5.j)"))
            made: list[str] | str = w.at_seq(gid, lt.last_seq, ("form", name, kind),
                                             lambda: _form_parts(w, j, game, lt, name, kind))
            return lt.last_seq, made

    seq, made = await run_in_threadpool(load)
    if isinstance(made, str):
        return Response(made, media_type="text/csv; charset=utf-8")
    if kind == "html":
        return HTMLResponse(made[0] if len(made) == 1 else _joined(made))
    return await documents.serve(request, gid, seq, what, f"{gid}-{what}", LANG, lambda: made)


#: the forms of an anticipation game, and their titles
FORMS = {"slips": "Fluturași", "annotation": "Formular de adnotare", "ranking": "Clasament", "results": "Rezultate"}
#: Annex 3 sheets (or a player's blank forms) per part of a background PDF: the progress moves every few seconds
SHEETS_PER_PART = 5


def _form_parts(w: Web, j: Journal, game: AnticipationGame, lt: Any, name: str, kind: str) -> list[str] | str:
    """A form's printable pages, a few sheets each (or the ranking's CSV)."""
    if name in ("ranking", "results"):
        state = replayed(w, j, game)
        if kind == "csv":
            return forms.ranking_csv(state)
        if name == "ranking":
            return [forms.printable(FORMS[name], forms.ranking_page(state))]
        sheets = [forms.results_page(state, r) for r in state.ranking]
    else:
        players = lt.players()
        if name == "slips":
            sheets = [forms.slips_page(lt.names.get(p, p), lt.seating.get(p)) for p in players] or [forms.slips_page()]
        else:
            groups = lt.groups if lt.recap else None
            sheets = ([forms.annotation_page(lt.names.get(p, p), lt.seating.get(p), groups) for p in players]
                      or [forms.annotation_page()])
    return [forms.printable(FORMS[name], "\n".join(sheets[i:i + SHEETS_PER_PART]))
            for i in range(0, max(len(sheets), 1), SHEETS_PER_PART)]


def _joined(parts: list[str]) -> str:
    """The parts of a printable form as one page (their bodies one after another)."""
    head, _, rest = parts[0].partition("<body>")
    bodies = [p.partition("<body>")[2].rpartition("</body>")[0] for p in parts]
    return head + "<body>" + "".join(bodies) + "</body>" + rest.rpartition("</body>")[2]


async def codes_sheet(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    gid = request.path_params["gid"]

    def load() -> list[dict[str, Any]]:
        with w.journal("arbiter") as j:
            lt = light(j, open_game(j, gid))
        rows = []
        for p in lt.players():
            code = auth.player_code(w.secret, gid, p)
            url = f"{base_url(request)}/games/{gid}/play?code={code}"
            rows.append({"label": lt.label(p), "table": lt.seating[p], "code": code, "url": url,
                         "svg": Markup(segno.make(url, error="m").svg_inline(scale=3))})
        return rows

    return w.render(request, "anticipation/codes.html", gid=gid, rows=await run_in_threadpool(load), lang=LANG)


# --- the player's browser (online simultaneous games, RO-4.4) ----------------------------------------------


def play_context(w: Web, gid: str, me: auth.Identity, request: Request | None = None) -> dict[str, Any]:
    with w.journal("") as j:
        game = open_game(j, gid)
        lt = light(j, game)
        player = me.player if me.role == "player" and me.game == gid and me.player in lt.seating else ""
        own: PlayerResult | None = None
        if player and lt.results_shown(staff=False):
            own = replayed(w, j, game).results.get(player)
        told = told_now(w, j, game, lt, player)
    turn = lt.current_turn
    receipts = {t: lt.slips[(player, t)] for t in range(1, TURNS + 1) if (player, t) in lt.slips} if player else {}
    return {"lt": lt, "game": game, "grid": grid_rows(lt), "turn": turn, "turn_groups": groups_of(lt, turn),
            "clock": clock_view(lt), "player": player, "label": lt.label(player) if player else "",
            "receipts": receipts, "own": own, "cells": board_cells(own) if own else [], "code": "",
            "told": told}


def told_now(w: Web, j: Journal, game: AnticipationGame, lt: Any, player: str) -> list[Any]:
    """What the arbiters tell a remote player during the turn after his slip (RO-5.5.f, h, i): his own notices
    of the previous turn, while the game is in play."""
    if not player or lt.stage != "in play" or (lt.current_turn or 0) < 2:
        return []
    table = lt.seating.get(player)  # a notice names its player as the hall does (his name) and his table
    return [n for n in notices(replayed(w, j, game), lt.current_turn - 1)
            if n.table == table and n.player in (player, lt.names.get(player, player))]


async def play(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(play_context, w, request.path_params["gid"], identity(request))
    ctx["code"] = auth.normalise_code(request.query_params.get("code", ""))
    return w.render(request, "anticipation/play.html", slip_key=new_slip_key(), **ctx,
                    **phone_language(request, ctx["game"]))


def phone_live(request: Request) -> str:
    """A phone's live part: the turn, its group and the clock above the slip form; the groups and the board below."""
    w, gid = web(request), request.path_params["gid"]
    ctx = play_context(w, gid, identity(request))
    ctx.update(phone_language(request, ctx["game"]))
    lt = ctx["lt"]
    return w.fragment_text(request, gid, lt.last_seq, (ctx["lang"], ctx["player"], ticking(lt)),
                           "anticipation/_play.html", lambda: ctx)


async def join(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]
    try:
        def players(j: Journal) -> Callable[[str], str | None]:
            lt = light(j, open_game(j, gid))
            return lambda code: auth.player_for_code(w.secret, gid, lt.players(), code)

        player = await player_of_code(request, gid, players)
    except Refused as e:
        ctx = await run_in_threadpool(play_context, w, gid, identity(request))
        return w.render(request, "anticipation/play.html", status=e.status, errors={e.field: e.message}, **ctx,
                        **phone_language(request, ctx["game"]))
    response = RedirectResponse(f"/games/{gid}/play{i18n.keep(request.query_params.get('lang'))}", 303)
    await run_in_threadpool(sign_in_player, request, response, gid, player)
    return response


#: the fields of the phone's slip form shown again after a refusal (turn 1: two placements)
SLIP_FIELDS = ("position1", "word1", "score1", "position2", "word2", "score2", "total", "note")


async def player_slip(request: Request) -> Response:
    """A slip from the phone for the turn its form showed; late by the server clock. The form's ``key`` (one per
    rendering, :func:`new_slip_key`) makes the form sent twice (a double tap, a resend after its answer was lost)
    one slip; that form sent again with other fields is refused beside it, nothing stored."""
    w = web(request)
    gid = request.path_params["gid"]
    me = own_player(request, gid)
    f: dict[str, str] = {}
    try:
        f = await read_form(request)
        key = f.get("key", "")
        try:
            check_key(key)  # the server made it: one that is none was made up or altered
        except InputError as e:
            raise refused(e, "key") from None
        turn = whole_in(f, "turn", 1, TURNS)
        if turn is None:
            raise Refused("slip", Text("the turn"))
        places = [(f.get(f"position{i}", ""), f.get(f"word{i}", ""), f.get(f"score{i}", "")) for i in (1, 2)]
        places = [p for p in places if any(p)]
        try:
            await run_in_threadpool(hand_in, w, gid, me.player, turn, places, f.get("total", ""), f.get("note", ""),
                                    key)
        except KeyReused as e:  # the form of a stored slip sent again with other fields: this one is not in
            raise Refused("key", Text(STALE_FORM, seq=e.seq)) from None
        except InputError as e:  # storage's door (check_row), said beside the slip with the field it concerns
            raise Refused("slip", Text("%(field)s: %(why)s", field=e.field, why=i18n.refusal(e))) from None
        except ArbitruError as e:
            raise Refused("slip", str(e), 409) from None
    except Refused as e:
        ctx = await run_in_threadpool(play_context, w, gid, me)
        # what the player typed stays in the form (with a new key): a phone corrects one field, not the whole slip
        typed = {k: f.get(k, "")[:MAX_TYPED] for k in SLIP_FIELDS}
        return w.render(request, "anticipation/play.html", status=e.status, errors={e.field: e.message},
                        slip_key=new_slip_key(), typed=typed, **ctx, **phone_language(request, ctx["game"]))
    # the page after a stored slip is a new rendering of the form: a new key (the next slip is a new one)
    return RedirectResponse(f"/games/{gid}/play{i18n.keep(request.query_params.get('lang'))}#receipt", 303)


# --- the actions, from the page each comes from ---------------------------------------------------------------


def _console(w: Web, gid: str, me: auth.Identity, request: Request) -> dict[str, Any]:
    with w.journal(me.actor) as j:
        ctx = console_context(w, j, gid)
    return ctx | staff_language(request, ctx["game"])


CONSOLE = Page("anticipation/console.html", lambda w, gid, me, request, f: _console(w, gid, me, request),
               lambda gid, f: f"/games/{gid}")
DESK = Page("anticipation/desk.html", lambda w, gid, me, request, f: desk_context(w, gid, me, request),
            lambda gid, f: f"/games/{gid}/slips?turn={f.get('collected', '')}", "/games/{gid}/slips")
REVIEW = Page("anticipation/review.html", lambda w, gid, me, request, f: review_context(w, gid, me, request),
              lambda gid, f: f"/games/{gid}/review?turn={f.get('view_turn', '')}", "/games/{gid}/review")


def _act(role: str, field: str, action: Action_, page: Page, limits: dict[str, int] | None = None,
         ask: Ask | None = None) -> Endpoint:
    return act(role, field, on_game(action, ask), page, limits, doors=False)


announce = _act("arbiter", "announce", do_announce, CONSOLE)
clock = _act("arbiter", "clock", do_clock, CONSOLE)
lot = _act("arbiter", "lot", do_lot, CONSOLE, ask=asks.all_lots)
blind = _act("arbiter", "blind", do_blind, CONSOLE, limits={"sets": MAX_CSV})
seating = _act("arbiter", "players", do_seating, CONSOLE, limits={"players": MAX_CSV})
late_entry = _act("arbiter", "late", do_late_entry, CONSOLE, ask=asks.late_entry)
desk_slip_entered = _act("desk", "table", do_desk_slip, DESK, ask=asks.anticipation_desk_slip)
decide = _act("arbiter", "decide", do_decide, REVIEW)
sanction = _act("arbiter", "sanction", do_sanction, REVIEW)
publish = _act("arbiter", "publish", do_publish, REVIEW, ask=asks.publish)
record_maximum = _act("arbiter", "maximum", do_maximum, REVIEW)
