"""Duplicate pages: the arbiter's console, the desk's slip form, the projection screen, the player's phone.

Every action is a form POST with the session's CSRF token; it runs one library call in one journal connection
with the actor of who asks. A refusal is shown beside the field it concerns, never as a server error page.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import segno
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from arbitru.errors import ArbitruError, JournalError
from arbitru.formats import DUPLICATE
from arbitru.formats.duplicate import decisions, racks, results, seats
from arbitru.formats.duplicate.announce import NEW_ORDERS
from arbitru.formats.duplicate.game import (
    ENGINES,
    SOURCES,
    VARIANTS,
    Game,
    GameError,
    OrderError,
    Player,
    Session,
    Settings,
    Step,
    read_players_csv,
)
from arbitru.formats.duplicate.order import Window
from arbitru.formats.duplicate.rulesets import BONUS_MODES, RULESETS, RuleSetError, ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.formats.receipt import KEY_REUSED
from arbitru.journal.store import Journal
from arbitru.season import tournament
from arbitru.textinput import MAX_INT, InputError, ascii_number, number_order
from arbitru.web import asks, auth, confirm, fair, i18n, notices, phone_lines, views, wordlists
from arbitru.web.acting import Confirming, Page, Perform, act
from arbitru.web.forms import (
    FORM_OF_A_CLOSED_MOVE,
    FORM_OF_A_REPLACED_RACK,
    LANG_BY_RULES,
    MAX_CSV,
    MAX_TYPED,
    STALE_FORM,
    Refused,
    declared,
    need,
    new_slip_key,
    own_player,
    player_of_code,
    read_form,
    refused,
    sign_in_player,
    whole,
    whole_in,
)
from arbitru.web.house import TOLD, Endpoint, LivePart, Ready, Web, attachment, base_url, identity, rack_shown, web
from arbitru.web.i18n import Text
from arbitru.web.intake import SlipRequest, at_the_door
from arbitru.web.pdf import pdf_of
from arbitru.web.season_context import absent_from, tournament_game_form

# --- creating a game ---------------------------------------------------------------------------------------


def read_players(text: str) -> list[Player]:
    """Players from CSV (:func:`~arbitru.formats.duplicate.game.read_players_csv`), refused beside the field."""
    try:
        return read_players_csv(text)
    except GameError as e:
        raise Refused("players", str(e)) from None


def settings_from(f: dict[str, str]) -> tuple[Settings, list[Player]]:
    rules_name = f.get("rules") or "fise"
    if rules_name not in RULESETS:
        raise Refused("rules", Text("unknown rule set %(name)s; known: %(known)s", name=repr(rules_name[:20]),
                                      known=", ".join(sorted(RULESETS))))
    lang = f.get("lang") or LANG_BY_RULES[rules_name]
    bonus = f.get("bonus") or None
    if bonus is not None and bonus not in BONUS_MODES:
        raise Refused("bonus", Text("bonus mode: one of %(names)s", names=", ".join(BONUS_MODES)))
    # each number beside its own field, in the page's language (the rule set's refusal named neither)
    moves, seconds = whole_in(f, "moves", 1, MAX_INT), whole_in(f, "seconds", 1, MAX_INT)
    try:
        rs = ruleset(rules_name, moves=moves, seconds=seconds, bonus_mode=bonus)
    except RuleSetError as e:  # beside the setting it concerns (GR-5C: the seconds)
        raise Refused(e.field, str(e)) from None
    source = f.get("racks") or "seed"
    if source not in SOURCES or source == "prepared":
        raise Refused("racks", Text("racks: from the seed or drawn by hand in the hall"))
    variant = f.get("variant") or "standard"
    engine = f.get("engine") or "compiled"
    if variant not in VARIANTS or engine not in ENGINES:
        raise Refused("variant", Text("unknown variant or engine"))
    new_order = f.get("new_order") or "draw"
    if new_order not in NEW_ORDERS:
        raise Refused("new_order", Text("one of %(names)s", names=", ".join(NEW_ORDERS)))
    try:
        settings = Settings(
            rs,
            lang,
            f.get("lexicon", ""),
            seed=(f.get("seed") or "").strip(),
            racks=source,
            variant=variant,
            engine=engine,
            new_order=new_order,
            title=f.get("title", ""),
        )
    except ArbitruError as e:
        raise Refused("lang", str(e)) from None
    return settings, read_players(f.get("players", ""))


async def new_game_page(request: Request) -> Response:
    need(request, "arbiter")
    w = web(request)
    return w.render(request, "duplicate/new.html", rulesets=sorted(RULESETS),
                    word_lists=wordlists.offered_by_language(w),
                    **await _in_tournament(request, request.query_params.get("tournament", "")))


async def _in_tournament(request: Request, tid: str) -> dict[str, Any]:
    """A tournament's next game: its players and rule set filled in."""
    return await run_in_threadpool(tournament_game_form, web(request), request, tid, DUPLICATE) if tid else {
        "form": {}}


async def new_game(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    f: dict[str, str] = {}
    try:
        f = await read_form(request, {"players": MAX_CSV})
        settings, players = settings_from(f)

        def create() -> str:
            name = wordlists.chosen(w, settings.lexicon, settings.lang)
            try:
                lex = w.lexicon(name, settings.lang)
            except ArbitruError as e:
                raise Refused("lexicon", str(e)) from None
            final = _with_lexicon(settings, name)
            with w.journal("arbiter") as j:
                if f.get("tournament"):  # its players are the tournament's entries
                    try:
                        return tournament.create_duplicate_game(j, f["tournament"], final, lex,
                                                                absent=absent_from(f))
                    except ArbitruError as e:
                        raise Refused("players", str(e)) from None
                return Session.create(j, final, lex, players).id

        gid = await run_in_threadpool(create)
    except Refused as e:
        if e.typed is not None:
            f = e.typed  # refused at the form's door (a field too long): every field shown again as typed
        return w.render(
            request, "duplicate/new.html", status=e.status, rulesets=sorted(RULESETS),
            **(await _in_tournament(request, f.get("tournament", ""))) | {"form": f}, errors={e.field: e.message},
            word_lists=wordlists.offered_by_language(w),
        )
    return RedirectResponse(f"/games/{gid}", 303)


def _with_lexicon(settings: Settings, name: str) -> Settings:
    return dataclasses.replace(settings, lexicon=name)


# --- the console -------------------------------------------------------------------------------------------


def console_context(w: Web, j: Journal, gid: str, me: auth.Identity, find: str = "") -> dict[str, Any]:
    """The console's page; ``find``: the find box's text (the grid draws the players it finds)."""
    s = w.session(j, gid)
    g = s.game
    cands = []
    if g.phase == "play" and me.can_run():
        try:
            cands = s.candidates()
        except ArbitruError:
            cands = []
    _ = i18n.gettext_for(g.settings.lang)
    rows = views.grid_at(w, s, views.slips_entered(w, j, s.id, s.game.last_seq, s.game.move))
    find = find[: views.FIND_LONGEST]
    # a game of more players than the grid draws: its find box asks the server (the rows it finds are drawn); a
    # smaller game's page draws every row and its own find hides the others
    capped = len(rows) > views.GRID_ROWS
    return {
        "session": s,
        "game": g,
        "lang": g.settings.lang,
        "_": _,
        "cands": cands,
        "alpha": g.alphabet,
        "grid": rows,
        "view": views.grid_view(rows, find if capped else "", _("table")),
        "capped": capped,
        "find": find,
        "find_longest": views.FIND_LONGEST,
        "clock": views.clock(g, _=_),
        "rack": views.rack_tiles(g),
        "master": views.master_view(g),
        "cues": views.rack_cues(g, _=_),
        "notation": g.rules.notation,
        "fair": fair.said(j, gid),
        "collecting": g.collecting,
        # the slips in for the move whose slips the desks type (FISE-8: move N's while move N+1 is played)
        "typed_in": sum(1 for (m, p) in g.slips if m == g.collecting and p in g.players),
        "typing": g.collecting is not None and g.slip_order(g.collecting).window is Window.TYPING,
        "written": decisions.written,
        # the errors key of each listed decision's reverse form (a reversal refused is shown beside its own form)
        "reverse_at": {d.seq: f"{REVERSE}{d.seq}" for d in g.decisions},
        "reverse_prefix": REVERSE,
        "decision_rules": decisions.RULES,
        "seat_changes": SEAT_CHANGES,
    }


async def console(request: Request) -> Response:
    w = web(request)
    me = need(request, "desk")
    gid = request.path_params["gid"]

    def load() -> Response:  # drawn in a thread too: a 10,000-player grid would hold up every phone's stream
        with w.journal(me.actor) as j:
            ctx = console_context(w, j, gid, me, request.query_params.get("find", ""))
        ctx["done"] = notices.said(request.query_params.get("done", ""), DONE)
        g, rows, view = ctx["game"], ctx["grid"], ctx["view"]
        # the grid as its own refetch draws it at this position: drawn once for the page and its refetch (what a
        # find found is drawn for its asker alone: any text may be asked, none is kept)
        ctx["grid_html"] = _Markup(
            w.render_text(request, GRID, game=g, grid=rows, view=view) if ctx["capped"] and ctx["find"].strip()
            else w.fragment_text(request, gid, g.last_seq, "", GRID, lambda: {"game": g, "grid": rows, "view": view}))
        return w.render(request, "duplicate/console.html", **ctx)

    return await run_in_threadpool(load)


#: the console's grid of every player's slip for the move (its own fragment, refetched on each notice; at most
#: :data:`views.GRID_ROWS` rows)
GRID = "duplicate/_grid.html"


async def grid_fragment(request: Request) -> Response:
    """The console's grid; ``?find=``: the rows of the players the find box's text finds (:func:`views.found`),
    drawn for this request alone (never kept: any text may be asked)."""
    w = web(request)
    me = need(request, "desk")
    gid = request.path_params["gid"]
    find = request.query_params.get("find", "")[: views.FIND_LONGEST]

    def load() -> Response:
        with w.journal(me.actor) as j:
            s = w.session(j, gid)
            slips = views.slips_entered(w, j, s.id, s.game.last_seq, s.game.move)
            if find.strip():
                rows = views.grid_at(w, s, slips)
                table = i18n.gettext_for(s.game.settings.lang)("table")
                return HTMLResponse(w.render_text(request, GRID, game=s.game, grid=rows,
                                                  view=views.grid_view(rows, find, table)))

            def drawn() -> dict[str, Any]:
                rows = views.grid_at(w, s, slips)
                return {"game": s.game, "grid": rows, "view": views.grid_view(rows)}

            return w.fragment(request, gid, s.game.last_seq, "", GRID, drawn)

    return await run_in_threadpool(load)


Ask = Callable[[Session, dict[str, str]], list[Any]]
#: a form's fields checked before anything is asked or done (:func:`in_session`); raises :class:`Refused`
Check = Callable[[Session, dict[str, str]], object]


def in_session(action: Callable[[Session, dict[str, str]], str], ask: Ask | None = None,
               check: Check | None = None) -> Perform:
    """A console action on the game's writer session (one writer of a game at a time); ``check``: the form's
    fields checked first, each refused beside its own (nothing is asked of a form that will be refused); ``ask``:
    what the action will do when it cannot be undone: it then acts only on a second request confirming it
    (:mod:`arbitru.web.confirm`)."""

    def perform(w: Web, j: Journal, gid: str, f: dict[str, str], confirming: Confirming) -> str:
        with w.writer(j, gid) as s:
            s.lexicon = w.lexicon(s.settings.lexicon, s.settings.lang)
            if check is not None:
                check(s, f)
            if ask is not None:
                confirming(s.game.last_seq, ask(s, f))
            return action(s, f)

    return perform


def _console_again(w: Web, gid: str, me: auth.Identity, request: Request, f: dict[str, str]) -> dict[str, Any]:
    """The console again after a refused action: the grid finds what its find box held when the form was sent
    (app.js sends it as ``find`` with every console form)."""
    with w.journal(me.actor) as j:
        return console_context(w, j, gid, me, f.get("find", ""))


def _console_back(gid: str, f: dict[str, str]) -> str:
    """The console after an action: its find box still finding what it found."""
    find = f.get("find", "")[: views.FIND_LONGEST].strip()
    return f"/games/{gid}" + (f"?find={quote(find, safe='')}" if find else "")


#: the refusals each console form shows beside its own fields, by its action; any other refusal of the form (a
#: field of a name another form shares: move, player, reason...) is shown beside the form itself, by its action
OWN_FIELDS = {
    "desk": frozenset({"player", "move", "position", "word", "score"}),
    "draw": frozenset({"tiles"}),
    "seat": frozenset({"from"}),
    "withdraw": frozenset({"from"}),
}


def beside(action: str, name: str, form: dict[str, str]) -> str:
    """Where the console shows the refusal of field ``name`` of the form of ``action`` (:attr:`Page.beside`); a
    reversal's, whatever its field, beside the reverse form of the decision it names (:func:`reversal_at`)."""
    if action == "decide" and form.get("action") == "reverse":
        at = reversal_at(form)
        if at is not None:
            return at
    return name if name in OWN_FIELDS.get(action, ()) else action


def reversal_at(form: dict[str, str]) -> str | None:
    """The ``errors`` key of the reverse form that sent ``form`` (``reverse-N``: the reverse form of the decision of
    event N, in the console's list of decisions); None: the form names no decision (refused beside the decision
    form). The console shows a refusal keyed so beside decision N when it lists it, else beside the decision form."""
    seq = ascii_number(form.get("reverses", ""))
    return f"{REVERSE}{seq}" if seq is not None else None


#: the ``errors`` key of a decision's reverse form, before its event's number (:func:`reversal_at`)
REVERSE = "reverse-"


CONSOLE = Page("duplicate/console.html", _console_again, _console_back, beside=beside)


def console_action(role: str, field: str, action: Callable[[Session, dict[str, str]], str],
                   ask: Ask | None = None, check: Check | None = None,
                   limits: dict[str, int] | None = None) -> Endpoint:
    """A console action (:func:`arbitru.web.acting.act`) on the game's writer session; ``limits``: its fields'
    longest, past the forms' default (:func:`arbitru.web.forms.read_form`)."""
    return act(role, field, in_session(action, ask, check), CONSOLE, limits)


#: what the console says once an action is done: the redirect carries its code (:mod:`arbitru.web.notices`); an old
#: link's English text is read as the message it was made from
RACK_DRAWN = "move %(move)s: rack drawn"
MOVE_CLOSED = "move %(move)s closed: %(points)s points"
CLOCK_RUNS = "the clock runs"
CLOCK_PAUSED = "the clock is paused"
SLIP_STORED = "slip of player %(player)s for move %(move)s stored"
RULING_STORED = "ruling on %(word)s stored"
WITHDRAWN = "player %(player)s withdrawn"
GAME_OVER = "game over"
COLLECTED = "the collection of move %(move)s is closed: its slips change only by a decision"
DECIDED = "decision on move %(move)s, player %(player)s stored"
SEAT_CHANGED = "player %(player)s: %(change)s"
DONE = (RACK_DRAWN, MOVE_CLOSED, CLOCK_RUNS, CLOCK_PAUSED, SLIP_STORED, RULING_STORED, WITHDRAWN, GAME_OVER, COLLECTED,
        DECIDED, SEAT_CHANGED)
#: the seats card's changes as its choice says them, and the notice of a change done (:data:`SEAT_CHANGED`)
SEAT_CHANGES = {"enter": Text("Late entry"), "rename": Text("New name"), "withdraw": Text("Withdrawal"),
                "disqualify": Text("Disqualification (FISE-18)"), "reinstate": Text("Reinstatement")}


def _step_message(step: Step) -> str:
    if step.kind == "illegal-rack":
        raise GameError(step.message)
    if step.kind == "rack":
        return Text(RACK_DRAWN, move=step.move)
    if step.kind == "master" and step.master is not None:
        return Text(MOVE_CLOSED, move=step.move, points=step.master.score)
    return step.message or step.kind


def do_draw(s: Session, f: dict[str, str]) -> str:
    tiles = None
    if f.get("tiles"):
        try:
            tiles = racks.parse_tiles(s.game.alphabet, f["tiles"])
        except ArbitruError as e:
            raise Refused("tiles", str(e)) from None
    if f.get("new") == "1":
        return _step_message(s.new_rack(tiles))
    step = s.draw(tiles)
    if step.kind == "illegal-rack":
        raise Refused("tiles", step.message)
    return _step_message(step)


def do_clock(s: Session, f: dict[str, str]) -> str:
    c = s.clock(f.get("action", ""), time.time())
    return Text(CLOCK_RUNS if c.state == "running" else CLOCK_PAUSED) if c.state in ("running", "paused") else c.state


def master_choice(s: Session, f: dict[str, str]) -> int | None:
    """The tied top move the console chose (1-based; None: the first, or the move typed instead), checked before
    the close is asked: a choice that is no tied move is refused beside the card, in the game's language."""
    text = f.get("choice", "")
    if f.get("move_text") or not text:
        return None
    choice = ascii_number(text)
    if choice == 1 or s.game.phase != "play":
        return choice  # the first is always there; a close with no rack on the stand is refused as it is
    tied = len(s.candidates())
    if not tied:
        return None  # no move with this rack: the close draws again or ends the game (FISE-10, FISE-13)
    if choice is None or not 1 <= choice <= tied:
        raise Refused("close", Text("choose a tied move between 1 and %(n)s", n=tied))
    return choice


def do_close(s: Session, f: dict[str, str]) -> str:
    return _step_message(s.place_master(master_choice(s, f), f.get("move_text") or None))


def desk_slip_of(s: Session, f: dict[str, str]) -> Slip:
    """The desk's paper slip as the clerk typed it, checked before anything is asked or stored, each field
    refused beside its own: the player's number, the move (a whole number; FISE-8: one whose rack was shown,
    whose collection is open), the declared score (from 0), and no slip typed over one stored for a closed move
    (after the close a result changes only by the arbiter's decision, FISE-17). The position and word are stored
    as written: a paper slip that cannot be read is judged 0 (FISE-14)."""
    player = f.get("player", "")
    if not player:
        raise Refused("player", Text("the player's number"))
    try:
        player = s.seat(player).number  # a number, or a name that is one player's alone
    except GameError as e:
        raise Refused("player", str(e)) from None
    # the move the slip belongs to, as the desk typed it (FISE-8: move N's slips are typed while move N+1 is
    # played); by default the move the form showed large (asks.desk_move)
    move = whole_in(f, "move", 1, MAX_INT) if f.get("move") else asks.desk_move(s.game, f)
    if move is None:
        raise Refused("move", Text("no move's slips are being collected: a change is the arbiter's decision"))
    slip = Slip(move, player, f.get("position", ""), f.get("word", ""), declared(f),
                late=f.get("late") == "1", illegible=f.get("illegible") == "1")
    try:
        s.check_slips([slip], replace=True)  # a second slip in an open move is asked first (asks.replace_slip)
    except OrderError as e:  # a move not shown yet, closed and its slip stored, or whose collection is closed
        raise Refused("move", str(e)) from None
    except InputError as e:
        raise refused(e, "score") from None
    except GameError as e:
        raise Refused("player", str(e)) from None
    if asks.unshown_closed_move(s.game, f, move):  # a closed move's slip is asked first, naming the move shown
        raise Refused("desk", Text("this form does not say which move it showed: the page is stale or the form "
                                   "incomplete; reload the page and type the slip again"))
    return slip


def do_slip(s: Session, f: dict[str, str]) -> str:
    slip = desk_slip_of(s, f)
    try:
        # a slip already stored is replaced only once the replacement is confirmed (asks.replace_slip)
        s.store_slips([slip], replace=f.get("replace") == "1" or bool(f.get(confirm.FIELD)))
    except OrderError as e:  # a move not shown yet, or whose collection is closed
        raise Refused("move", str(e)) from None
    except GameError as e:
        raise Refused("player", str(e)) from None
    return Text(SLIP_STORED, player=slip.player, move=slip.move)


def do_collected(s: Session, f: dict[str, str]) -> str:
    move = s.close_collection(whole(f, "move"))
    return Text(COLLECTED, move=move)


@dataclasses.dataclass(frozen=True)
class DecisionForm:
    """The decision form's fields as :meth:`Session.decide` takes them."""

    act: str
    rule: str
    reason: str
    move: int
    player: str
    slip: Slip | None
    reverses: int | None


def decision_of(s: Session, f: dict[str, str]) -> DecisionForm:
    """The decision form read, before anything is asked of it: each refusal beside this form (not beside the desk
    form's fields of the same names), a slip's score read as the desk's form and the phone's read it (from 0)."""
    act = f.get("action") or "slip"
    try:
        move, reverses = whole(f, "move"), whole(f, "reverses")
        score = declared(f) if act == "slip" else None
    except Refused as e:
        raise Refused("decide", e.message, e.status) from None
    form = DecisionForm(act, f.get("rule") or "FISE-17", f.get("reason", ""), move or 0, f.get("player", ""), None,
                        reverses)
    if act != "reverse":
        if move is None:
            raise Refused("decide", Text("the move the decision is about"))
        if not form.player:
            raise Refused("decide", Text("the player's number"))
    if act == "slip":
        if not f.get("position") and not f.get("word"):
            raise Refused("decide", Text("write the position and the word"))
        form = dataclasses.replace(form, slip=Slip(form.move, form.player, f.get("position", ""), f.get("word", ""),
                                                   score))
    # all the session would refuse (a later decision standing on the slip reversed, a reason it cannot keep, a slip
    # it cannot read...), refused before a confirmation is asked
    try:
        s.decision_event(form.move, form.player, form.act, form.reason, form.rule, form.slip, form.reverses)
    except InputError as e:  # the reason's own refusal, said beside this form (it has no field of its own)
        raise Refused("decide", i18n.refusal(e)) from None
    return form


def do_decide(s: Session, f: dict[str, str]) -> str:
    """The arbiter's decision on a closed move's slip (FISE-17, GR-5D): the slip as it is to be read, struck out,
    or an earlier decision reversed; always with a reason."""
    form = decision_of(s, f)
    if form.act == "reverse":
        d = s.decide(0, "", "reverse", form.reason, form.rule, reverses=form.reverses)
    else:
        d = s.decide(form.move, form.player, form.act, form.reason, form.rule, form.slip)
    return Text(DECIDED, move=d.move, player=d.player)


def do_rule(s: Session, f: dict[str, str]) -> str:
    word = f.get("word", "")
    if not word:
        raise Refused("ruling", Text("the word ruled on"))
    s.rule(word, f.get("valid") == "1", f.get("reason", ""))
    return Text(RULING_STORED, word=word.upper())


def seat_form(s: Session, f: dict[str, str], dry: bool = False) -> Player:
    """The seats card's change (:func:`arbitru.formats.duplicate.seats.change`): a refusal beside its field."""
    what = f.get("change", "")
    if not f.get("player", "").strip():
        raise Refused("seat", Text("the player's number"))
    try:
        return seats.change(s, what, f.get("player", ""), name=f.get("name", ""), table=f.get("table", ""),
                            move=whole(f, "from"), reason=f.get("reason", ""), dry=dry)
    except InputError as e:
        raise Refused("seat", i18n.refusal(e)) from None


def do_seat(s: Session, f: dict[str, str]) -> str:
    p = seat_form(s, f)
    change = f.get("change", "")
    return Text(SEAT_CHANGED, player=p.number, change=SEAT_CHANGES.get(change, change))


def do_withdraw(s: Session, f: dict[str, str]) -> str:
    """The withdrawal alone (GR-7), as the seats card's (kept for the forms and scripts that post it)."""
    return do_seat(s, {**f, "change": "withdraw"})


def do_end(s: Session, f: dict[str, str]) -> str:
    # stored in English like every sentence of the journal; read back as its message, said in the page's language
    s.end_game(f.get("reason") or Text("ended by the arbiter"))
    return Text(GAME_OVER)


# --- player codes ---------------------------------------------------------------------------------------------


async def codes_sheet(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    gid = request.path_params["gid"]

    def load() -> tuple[list[dict[str, Any]], str]:
        with w.journal("arbiter") as j:
            s = Session(j, gid)
            rows = []
            for number, p in sorted(s.game.players.items(), key=lambda kv: number_order(kv[0])):
                code = auth.player_code(w.secret, gid, number)
                url = f"{base_url(request)}/games/{gid}/play?code={code}"
                qr = segno.make(url, error="m")
                rows.append({"player": p, "code": code, "url": url, "svg": qr.svg_inline(scale=3),
                             "img": qr.svg_data_uri(scale=3)})
            return rows, s.game.settings.lang

    rows, lang = await run_in_threadpool(load)
    if request.url.path.endswith(".pdf"):
        # the sheet to print and cut, one player per strip
        html = w.templates.get_template("duplicate/codes_print.html").render(
            gid=gid, rows=rows, lang=lang, _=i18n.gettext_for(lang))
        pdf = await run_in_threadpool(pdf_of, html)
        return Response(pdf, media_type="application/pdf",
                        headers=attachment(f"{gid}-codes.pdf"))
    return w.render(request, "duplicate/codes.html", gid=gid, rows=rows, qr=_Markup, lang=lang)


def _Markup(svg: str) -> Any:
    return Markup(svg)  # segno's own SVG of a URL we built: no user text inside


# --- the projection screen ----------------------------------------------------------------------------------


def public_context(w: Web, j: Journal, gid: str, lang: str | None = None) -> dict[str, Any]:
    """What the hall sees, in the game's language (or ``lang``, a phone's choice)."""
    s = w.session(j, gid)
    g = s.game
    shown = i18n.pick(lang, g.settings.lang)
    _ = i18n.gettext_for(shown)
    return {
        "lang": shown,
        "_": _,
        "languages": i18n.LANGUAGES,
        "game": g,
        "board": views.board_rows(g),
        "rows": views.row_letters(),
        "rack": views.rack_tiles(g),
        "clock": views.clock(g, _=_),
        "cues": views.rack_cues(g, _),
        "master": views.master_view(g),
        "total": g.master_total(),
        "fair": fair.said(j, gid),
    }


async def screen(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]
    ctx = await run_in_threadpool(_public, w, gid)
    return w.render(request, "duplicate/screen.html", **ctx)


async def screen_fragment(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]

    def load() -> Response:
        with w.journal("") as j:
            s = _reading(w, j, gid)
            return w.fragment(request, gid, s.game.last_seq, ("", ticking(s.game)), "duplicate/_screen.html",
                              lambda: public_context(w, j, gid))

    return await run_in_threadpool(load)


def ticking(game: Game) -> int:
    """While the clock counts down, the second a fragment was drawn in (its countdown starts from there): a
    fragment kept for a journal position serves one second at most; else 0 (it serves until the next change): a
    clock whose time is up shows 0:00 whatever the second, and is kept once, not once a second until the close."""
    now = time.time()
    clock = game.clock_for(game.move)
    return int(now) if game.phase == "play" and clock.state == "running" and not clock.over(now) else 0


def _reading(w: Web, j: Journal, gid: str) -> Session:
    """The game for a live fragment or a join: read at the position the worker knows (:meth:`Web.position`)."""
    try:
        return w.session(j, gid, recent=True)
    except JournalError as e:
        raise HTTPException(404, i18n.unreadable(e, gid)) from None


def _public(w: Web, gid: str) -> dict[str, Any]:
    with w.journal("") as j:
        try:
            return public_context(w, j, gid)
        except JournalError as e:
            raise HTTPException(404, i18n.unreadable(e, gid)) from None


# --- the player's phone -----------------------------------------------------------------------------------


def player_context(w: Web, j: Journal, gid: str, me: auth.Identity, lang: str | None = None) -> dict[str, Any]:
    ctx = public_context(w, j, gid, lang)
    ctx.update(own_context(w, j, w.session(j, gid), me))
    return ctx


def slips_entered(w: Web, j: Journal, g: Game) -> views.Entered | None:
    """The open move's slips as the journal stored them (each one's event, the others a player handed in)
    (:func:`views.slips_entered`); None when the move has none."""
    if not g.move or not any(move == g.move for move, _ in g.slips):
        return None
    return views.slips_entered(w, j, g.id, g.last_seq, g.move)


def own_context(w: Web, j: Journal, s: Session, me: auth.Identity) -> dict[str, Any]:
    """What only this phone's player sees: who he is, his slip's receipt, his verdicts."""
    player = me.player if me.role == "player" and me.game == s.id else ""
    if not player:
        return own_lines(s.game, "", None, None)
    return own_lines(s.game, player, views.result_at(w, s), slips_entered(w, j, s.game))


def own_lines(g: Game, player: str, res: results.GameResult | None, entered: views.Entered | None) -> dict[str, Any]:
    """A player's own lines from what every phone shares (the results, the open move's slips): his receipt and
    his verdicts, nothing of any other player's; a seat that is out (withdrawn, disqualified, or a late entry
    before his first move) says so on his phone."""
    ctx: dict[str, Any] = {"player": g.players.get(player), "receipt": None, "own": [], "seat_closed": None}
    if not player:
        return ctx
    seat = g.players.get(player)
    if seat is not None:
        ctx["seat_closed"] = seats.refusal(seat, g.move if g.phase == "play" else g.move + 1)
    slip = g.slips.get((g.move, player)) if g.move else None
    if slip is not None and entered is not None:
        events, history = entered
        seq, recorded, _actor = events.get((g.move, player), (0, "", ""))
        counted = g.slip_seqs.get((g.move, player))
        others = [o for q, o in history.get((g.move, player), []) if q != counted]
        ctx["receipt"] = {"slip": slip, "seq": seq, "recorded": recorded, "others": others}
    if res is not None:
        try:
            line = res.line(player)
            ctx["own"] = [(m, res.masters[m.move - 1]) for m in line.moves]
            ctx["line"] = line
        except KeyError:
            pass
    return ctx


async def play(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]
    me = identity(request)

    def load() -> dict[str, Any]:
        with w.journal("") as j:
            try:
                return player_context(w, j, gid, me, request.query_params.get("lang"))
            except JournalError as e:
                raise HTTPException(404, i18n.unreadable(e, gid)) from None

    ctx = await run_in_threadpool(load)
    ctx["code"] = auth.normalise_code(request.query_params.get("code", ""))
    return w.render(request, "duplicate/play.html", slip_key=new_slip_key(), **ctx)


@dataclasses.dataclass(frozen=True)
class Phones:
    """What every phone's live part shares at one journal position, language and clock second, computed once in
    this worker: the hall drawn (clock, rack, board, master move), the results (every slip's verdict, the
    ranking) and the open move's receipts; what differs per phone, its player's own lines, is drawn from these
    in memory (:meth:`part`): no journal, no thread, so from the event loop itself."""

    game: Game
    words: phone_lines.Words
    hall: str
    result: results.GameResult | None
    entered: views.Entered | None
    #: the rows of each phone's moves as last drawn in this language, kept from one position to the next
    drawn: phone_lines.Drawn

    def part(self, player: str) -> str:
        """The live part of ``player``'s phone: the hall around his own lines (drawn by
        :func:`phone_lines.own_html`, as the page's template draws them)."""
        head, tail = phone_lines.own_html(self.words, self.game,
                                          own_lines(self.game, player, self.result, self.entered), self.drawn)
        return "".join((head, "\n", self.hall, "\n", tail))


def _phones_key(game: Game, lang: str | None) -> tuple[str, str, int]:
    return ("phones", i18n.pick(lang, game.settings.lang), ticking(game))


def phones_at(w: Web, j: Journal, gid: str, request: Request) -> Phones:
    """The phones' shared part at the position the worker knows (:meth:`Web.position`), computed once."""
    try:
        game = w.state(j, gid, recent=True)
    except JournalError as e:
        raise HTTPException(404, str(e)) from None
    lang = request.query_params.get("lang")
    key = _phones_key(game, lang)

    def compute() -> Phones:
        s = w.reader(j, gid, game)
        hall = w.at_seq(gid, game.last_seq, ("play-hall", key[1], key[2]), lambda: _Markup(
            w.render_text(request, "duplicate/_play_hall.html", **public_context(w, j, gid, lang))))
        words = phone_lines.Words(i18n.gettext_for(key[1]), key[1])
        # one per game and language, for as long as the worker keeps the game: a row is reused only when drawn
        # from the very results' line it shows, so no event needs to empty it
        drawn: phone_lines.Drawn = w.kept(gid, ("own rows", key[1]), 0, dict)
        return Phones(game, words, str(hall), views.result_at(w, s), slips_entered(w, j, game), drawn)

    return w.at_seq(gid, game.last_seq, key, compute)


def phone_draw(request: Request) -> str:
    """A phone's live part, drawn in a worker thread: the phones' shared part at the game's position (computed
    here by the first phone to ask), then this player's own lines."""
    w = web(request)
    gid = request.path_params["gid"]
    me = own_player(request, gid)
    with w.journal("") as j:
        return phones_at(w, j, gid, request).part(me.player)


def phone_ready(request: Request) -> Ready:
    """A phone's live part from memory, when the phones' shared part at the position the worker knows is
    computed (or the computation under way that it waits for); None: it is drawn (:func:`phone_draw`)."""
    w = web(request)
    gid = request.path_params["gid"]
    me = identity(request)
    if me.role != "player" or me.game != gid:
        return None
    at = w.known_position(gid)
    if at is None:  # a stream's part drawn after the shared work of a close: at the position its notice told
        at = request.scope.get(TOLD)
    if at is None:  # a refetch when the worker's knowledge of the position is old: one question for all
        return w.asked_position(gid)
    asked = request.query_params.get("lang")
    lang = asked if asked in i18n.LANGUAGES else None  # a job per language the pages speak, not per value sent

    def shared() -> Phones:  # the first phone of a position and language starts it, once, for all
        with w.journal("") as j:
            return phones_at(w, j, gid, request)

    state = w.computed(gid, at, "state")
    if state is None or not state.done():
        return w.started(gid, at, ("phones", lang), shared)
    if state.exception() is not None:
        return None
    game: Game = state.result()
    phones = w.computed(gid, game.last_seq, _phones_key(game, lang))
    if phones is None or not phones.done():
        return phones if phones is not None else w.started(gid, game.last_seq, ("phones", lang), shared)
    if phones.exception() is not None:
        return None
    view: Phones = phones.result()
    return view.part(me.player)


#: a phone's live part: what the hall sees, drawn once per journal position and language for every phone, around
#: what only this player sees
phone_live = LivePart(phone_draw, phone_ready)


async def join(request: Request) -> Response:
    w = web(request)
    gid = request.path_params["gid"]
    try:
        def players(j: Journal) -> Callable[[str], str | None]:
            game = _reading(w, j, gid).game
            return lambda code: w.player_for_code(game, code)

        number = await player_of_code(request, gid, players)
    except Refused as e:
        ctx = await run_in_threadpool(_public, w, gid)
        return w.render(
            request, "duplicate/play.html", status=e.status, errors={e.field: e.message}, player=None, code="",
            **ctx,
        )
    response = RedirectResponse(f"/games/{gid}/play", 303)
    await run_in_threadpool(sign_in_player, request, response, gid, number)
    return response


async def player_slip(request: Request) -> Response:
    """A slip from the phone: always the signed-in player's own, for the open move; late by the server clock."""
    w = web(request)
    gid = request.path_params["gid"]
    me = own_player(request, gid)
    f: dict[str, str] = {}
    try:
        f = await read_form(request)

        if not f.get("position") and not f.get("word"):
            raise Refused("slip", Text("write the position and the word"))
        req = SlipRequest(0, f.get("position", ""), f.get("word", ""), declared(f), player=me.player,
                          key=f.get("key", ""))
        try:
            at_the_door(req)
        except InputError as e:
            raise refused(e, "slip") from None

        def hand_in() -> SlipRequest:
            with w.journal("") as j:
                s = w.session(j, gid)
                if s.game.phase != "play":  # a page left open: the game moved on since it was drawn
                    over = s.game.phase == "over"
                    raise Refused("slip", Text("the game is over") if over else Text("no move is open"))
                shown = f.get("move")  # the move the page showed when he pressed (a page without it: the open one)
                n = None if shown is None else ascii_number(shown)  # a number: "02" names move 2
                if shown is not None and n != s.game.move:
                    raise Refused("slip", Text(FORM_OF_A_CLOSED_MOVE, n="?" if n is None else n, m=s.game.move), 409)
                rack = f.get("rack")  # the rack the page showed (FISE-16: one replaced since is not this move's)
                if rack is not None and rack != rack_shown(s.game.rack):
                    raise Refused("slip", Text(FORM_OF_A_REPLACED_RACK), 409)
                req.move = s.game.move
            return w.intake.hand_in(gid, req)

        done = await run_in_threadpool(hand_in)
        if done.status not in (201, 409) or not done.body.get("stored"):
            said = done.body.get("error")  # a message (Text) stays one: the page says it in its language
            if isinstance(said, Text) and said.message == KEY_REUSED:  # the stale form: said as a player reads it
                said = Text(STALE_FORM, seq=said.values["seq"])
            raise Refused(str(done.body.get("field") or "slip"), said if isinstance(said, str) else "", done.status)
    except Refused as e:

        def again() -> dict[str, Any]:
            with w.journal("") as j:
                return player_context(w, j, gid, me, request.query_params.get("lang"))

        ctx = await run_in_threadpool(again)
        # what the player typed stays in the form: a phone against the clock corrects one field, not three
        typed = {k: f.get(k, "")[:MAX_TYPED] for k in ("position", "word", "score")}
        return w.render(request, "duplicate/play.html", status=e.status, errors={e.field: e.message}, code="",
                        slip_key=new_slip_key(), typed=typed, **ctx)
    return RedirectResponse(f"/games/{gid}/play{i18n.keep(request.query_params.get('lang'))}#receipt", 303)


# --- the console's actions ----------------------------------------------------------------------------------

draw = console_action("arbiter", "draw", do_draw, ask=asks.new_rack)
clock = console_action("arbiter", "clock", do_clock)
close = console_action("arbiter", "close", do_close, ask=asks.close_move, check=master_choice)
desk_slip = console_action("desk", "desk", do_slip, ask=asks.desk_slip, check=desk_slip_of)
collected = console_action("arbiter", "decide", do_collected)
decide = console_action("arbiter", "decide", do_decide, ask=asks.decide, check=decision_of,
                        limits={"reason": decisions.MAX_REASON})
rule = console_action("arbiter", "ruling", do_rule)
withdraw = console_action("arbiter", "withdraw", do_withdraw, ask=lambda s, f: asks.seat_change(
    s, {**f, "change": "withdraw"}))
seat = console_action("arbiter", "seat", do_seat, ask=asks.seat_change)
end = console_action("arbiter", "end", do_end, ask=asks.end_game)
