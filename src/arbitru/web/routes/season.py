"""The season's pages, thin over :mod:`arbitru.season`: the public registry, a player's history, tournaments'
general tables, championships and the rating list; the arbiter alone registers and corrects players.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from arbitru.engine.tiles import UNKNOWN_LANGUAGE
from arbitru.errors import ArbitruError
from arbitru.formats import ANTICIPATION, DUPLICATE, Format, by_name, format_of
from arbitru.season import championship, csvfile, ratings, registry, tournament
from arbitru.season.registry import REGISTRY_ID, Entry
from arbitru.season.table import TIE_ORDER, Row, general_table, table_csv
from arbitru.season.tournament import METHODS, Event, Tournament, TournamentError
from arbitru.textinput import REASONS, ascii_number
from arbitru.web import auth, confirm, documents, i18n, security
from arbitru.web.forms import FORM_BYTES_PER_CHAR, Refused, form_budget, need, read_form
from arbitru.web.house import Web, attachment, identity, web
from arbitru.web.i18n import Text
from arbitru.web.season_context import season_language, tournament_language, tournament_of

T = TypeVar("T")
#: the most bytes of a CSV file uploaded (or characters pasted) into the import form
MAX_CSV = 2_000_000
#: the most characters of a game's result typed as CSV (a line per player)
MAX_RESULT = 50_000
#: the most registry records offered at once to enrol (a search narrows them)
MAX_OFFERED = 60
#: the refusal of a general table's PDF for a category or a club none of its players is in
NO_ONE_IN_VIEW = "no player of the table is in this category or club: nothing to print"
#: where a tournament's next game is created, by the tournament's format
NEW_GAME = {DUPLICATE: "/games/new", ANTICIPATION: "/anticipation/new"}


def _csv(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers=attachment(name))


#: registry records, or rating list rows, shown on one page (``?page=N``)
PAGE = 100


def paged(request: Request, rows: Sequence[T]) -> tuple[Sequence[T], dict[str, int]]:
    """The rows of the page asked for (``?page=``, 1 by default; beyond the last, the last) and where it is."""
    pages = max(1, -(-len(rows) // PAGE))
    asked = ascii_number(request.query_params.get("page", "")[:12]) or 1
    n = min(max(asked, 1), pages)
    return rows[(n - 1) * PAGE:n * PAGE], {"page": n, "pages": pages, "count": len(rows)}


def kept_registry(w: Web, j: Any) -> tuple[registry.Registry, list[registry.Record], list[str]]:
    """The registry, its active records and their rating systems, read once per registry position in this
    worker and kept (28,500 records take seconds to read)."""
    seq = j.last_seq(REGISTRY_ID)

    def load() -> tuple[registry.Registry, list[registry.Record], list[str]]:
        reg = registry.load(j)
        active = reg.active()
        return reg, active, sorted({s for r in active for s in r.ratings})

    return w.at_seq(REGISTRY_ID, seq, "registry", load)


def _registry_context(w: Web, request: Request) -> dict[str, Any]:
    with w.journal("") as j:
        _, active, systems = kept_registry(w, j)
        lang = season_language(request, j)
    records, pages = paged(request, active)
    return {"records": records, "systems": systems, "lang": lang, "paging": pages}


async def registry_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/registry.html", **await run_in_threadpool(_registry_context, w, request))


async def registry_csv(request: Request) -> Response:
    w = web(request)

    def load() -> str:
        with w.journal("") as j:
            reg = kept_registry(w, j)[0]
            text: str = w.at_seq(REGISTRY_ID, j.last_seq(REGISTRY_ID), "registry.csv",
                                 lambda: csvfile.write_players(reg))
            return text

    return _csv(await run_in_threadpool(load), "registry.csv")


@dataclass
class RatingList:
    """The rating list at one position of the season, kept: its rows, by player, and as CSV (made once)."""

    rows: list[ratings.PlayerRating]
    by_player: dict[str, ratings.PlayerRating]
    csv: str | None = None


#: rating lists by (journal, the last date that counts, the season's position): the least recently asked goes
_ratings_kept: OrderedDict[tuple[Any, ...], RatingList] = OrderedDict()
_ratings_lock = threading.Lock()
#: one rating list computed at a time in this worker: who asks meanwhile waits and takes it from what is kept
_ratings_making = threading.Lock()
MAX_RATING_LISTS = 8


def kept_rating_list(w: Web, j: Any, as_of: str | None = None) -> RatingList:
    """The rating list as of ``as_of``, computed once per position of what it depends on (the registry, every
    tournament, every game of theirs) and kept. A date is taken as the last tournament's date on or before it
    (the same games count), so no date a visitor types makes a new list."""
    tids = tournament.tournaments(j)
    ts = [tournament.replay(j, tid) for tid in tids]
    reg = kept_registry(w, j)[0]
    # the dates that change the list: the tournaments' and the federations' rating lists' (FISE-21, as of a date)
    dates = sorted({t.event.date for t in ts} | {x.date for x in reg.lists})
    if as_of is not None:
        before = [d for d in dates if d <= as_of]
        as_of = None if len(before) == len(dates) else (before[-1] if before else "0000-00-00")
    games = [slot.game_id for t in ts for slot in t.games if slot.result is None]
    position = tuple((i, j.last_seq(i)) for i in (REGISTRY_ID, *tids, *games))
    key = (w.db, as_of, position)
    with _ratings_making:
        with _ratings_lock:
            known = _ratings_kept.get(key)
            if known is not None:
                _ratings_kept.move_to_end(key)
                return known
        rows = ratings.rating_list(j, as_of, registry=reg)
        made = RatingList(rows, {r.player: r for r in rows})
        with _ratings_lock:
            _ratings_kept[key] = made
            while len(_ratings_kept) > MAX_RATING_LISTS:
                _ratings_kept.popitem(last=False)
    return made


def entry_from(f: dict[str, str]) -> Entry:
    """A player to register, from the registration fields (``season/_player_fields.html``)."""
    born = f.get("born", "")
    year = ascii_number(born) if born else None
    if born and year is None:
        raise registry.RegistryError(Text("birth year %(year)s is not a number", year=repr(born)))
    return Entry(f.get("name", ""), f.get("licence", ""), f.get("federation", ""), f.get("club", ""), year,
                 tuple(c for c in f.get("categories", "").split(";") if c.strip()))


async def registry_add(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    try:
        f = await read_form(request)
        entry = entry_from(f)

        def add() -> None:
            with w.journal("arbiter") as j:
                registry.register(j, [entry])

        await run_in_threadpool(add)
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_registry_context, w, request)
        return w.render(request, "season/registry.html", status=422, errors={"add": str(e)}, **ctx)
    return RedirectResponse("/registry" + i18n.keep(request.query_params.get("lang")), 303)


async def read_upload(request: Request) -> tuple[dict[str, str], bytes]:
    """The import form: its fields (the CSRF token checked) and the bytes of the file uploaded (multipart), at
    most :data:`MAX_CSV` bytes; the encoding is the reader's (:func:`csvfile.decode`)."""
    w = web(request)
    # as every form (forms.read_form): a body larger than the import can need is refused from its Content-Length,
    # unread; a field past its longest possible size stops the reading
    declared = security.declared_length(request.scope)
    if declared is not None and declared > form_budget({"csv": MAX_CSV}):
        raise Refused("import", Text("the form is too large: at most %(n)s characters in a field", n=MAX_CSV), 413)
    try:
        form = await request.form(max_files=1, max_fields=20, max_part_size=FORM_BYTES_PER_CHAR * MAX_CSV)
    except security.BodyTooLarge:  # the server's limit on any body
        raise
    except Exception as e:  # a malformed body is the sender's fault, said plainly
        if "maximum size" in str(getattr(e, "detail", e)):
            raise Refused("import", Text(REASONS[0], n=MAX_CSV), 400) from None
        raise Refused("import", Text("the form could not be read: %(why)s", why=str(e)), 400) from None
    fields: dict[str, str] = {}
    data = b""
    for key, value in form.multi_items():
        if isinstance(value, str):
            if len(value) > MAX_CSV:  # what the docs say the import takes, and not a character more
                raise Refused("import", Text(REASONS[0], n=MAX_CSV), 400)
            if "\x00" in value:
                raise Refused("import", Text("the field %(name)s cannot be read", name=repr(key)), 400)
            fields[key] = value.strip() if key != "csv" else value
        else:
            data = await value.read(MAX_CSV + 1)
            if len(data) > MAX_CSV:
                raise Refused("import", Text("the file is larger than %(n)s bytes", n=MAX_CSV), 413)
    if not auth.check_csrf(w.secret, identity(request), fields.get("csrf", "")):
        raise HTTPException(403, Text("the form's security token is missing or stale: reload the page and try again"))
    return fields, data


#: the import form's separators: its choice -> the character ("" : the header line's)
SEPARATORS = {"": "", "comma": ",", "semicolon": ";", "tab": "\t"}


async def registry_import(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    try:
        f, data = await read_upload(request)
        if f.get("delimiter", "") not in SEPARATORS:
            raise Refused("import", Text("separator %(name)s; known: %(known)s", name=repr(f["delimiter"]),
                                         known=", ".join(k for k in SEPARATORS if k)))
        text = f.get("csv", "")
        if data:
            try:
                text = csvfile.decode(data, f.get("encoding", ""))
            except ArbitruError as e:
                raise Refused("import", str(e)) from None
        if not text.strip():
            raise Refused("import", Text("choose the file to import"))

        def add() -> None:
            with w.journal("arbiter") as j:
                csvfile.import_players(j, text, delimiter=SEPARATORS[f.get("delimiter", "")])

        await run_in_threadpool(add)
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_registry_context, w, request)
        status, said = (e.status, e.message) if isinstance(e, Refused) else (422, str(e))
        return w.render(request, "season/registry.html", status=status, errors={"import": said}, **ctx)
    return RedirectResponse("/registry" + i18n.keep(request.query_params.get("lang")), 303)


#: tournaments' game results by (journal, tournament, its position with its games' and the registry's)
_outcomes_kept: OrderedDict[tuple[Any, ...], list[Any]] = OrderedDict()
MAX_OUTCOMES = 32


def kept_outcomes(w: Web, j: Any, t: Tournament) -> list[Any]:
    """Every game's result of tournament ``t`` (:func:`tournament.outcomes`, which reads each game), computed
    once per position of the tournament, its games and the registry, and kept: a tournament's page asked again
    reads no game."""
    games = [slot.game_id for slot in t.games if slot.result is None]
    key = (w.db, t.id, tuple((i, j.last_seq(i)) for i in (REGISTRY_ID, t.id, *games)))
    with _ratings_lock:
        known = _outcomes_kept.get(key)
        if known is not None:
            _outcomes_kept.move_to_end(key)
            return known
    made = tournament.outcomes(j, t)
    with _ratings_lock:
        _outcomes_kept[key] = made
        while len(_outcomes_kept) > MAX_OUTCOMES:
            _outcomes_kept.popitem(last=False)
    return made


def _player_context(w: Web, pid: str, request: Request) -> dict[str, Any]:
    with w.journal("") as j:
        lang = season_language(request, j)
        reg = kept_registry(w, j)[0]
        try:
            record = reg.get(pid)
        except ArbitruError:
            raise HTTPException(404, Text("no player %(player)s in the registry", player=repr(pid))) from None
        rated = kept_rating_list(w, j).by_player.get(record.id)
        merged = [r for r in reg.records.values() if r.merged_into == record.id]
    return {"record": record, "rated": rated, "lang": lang, "changes": [_change(c, reg) for c in record.history],
            "merged": merged, "records": [r for r in reg.active() if r.id != record.id]}


def _change(c: registry.Change, reg: registry.Registry) -> Text:
    """A correction, merge or undone merge of a record, said in the page's words (no Python dict)."""
    f = c.fields

    def who(pid: str) -> str:
        return f"{pid} {reg.records[pid].name}" if pid in reg.records else pid

    if c.kind == "merged":
        said = Text("%(player)s merged into %(into)s", player=who(f["player"]), into=who(f["into"]))
        kept = [Text("game %(game)s: the line of %(player)s stands", game=g, player=who(p))
                for g, p in f.get("kept", {}).items()]
        return Text("%(said)s (%(kept)s)", said=said, kept=kept) if kept else said
    if c.kind == "unmerged":
        return Text("the merge of %(player)s into %(into)s undone", player=who(f["player"]), into=who(f["into"]))
    parts = []
    for key, value in f.items():
        if key == "ratings":
            value = ", ".join(f"{k} {v:g}" for k, v in value.items())
        elif key == "categories":
            value = ", ".join(value)
        parts.append(Text("%(field)s: %(value)s", field=Text(FIELD_NAMES.get(key, key)), value=value))
    return Text("corrected: %(fields)s", fields=parts)


#: a record's fields as a correction names them
FIELD_NAMES = {"name": "Name", "club": "club", "licence": "licence", "federation": "federation",
               "birth_year": "birth year", "categories": "categories", "ratings": "rating"}


async def player_page(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_player_context, w, request.path_params["pid"], request)
    return w.render(request, "season/player.html", **ctx)


async def player_correct(request: Request) -> Response:
    w = web(request)
    need(request, "arbiter")
    pid = request.path_params["pid"]
    try:
        f = await read_form(request)
        fields: dict[str, Any] = {k: f[k] for k in ("name", "club", "licence", "federation") if f.get(k)}
        if not fields:
            raise Refused("correct", Text("nothing to correct"))

        def correct() -> None:
            with w.journal("arbiter") as j:
                registry.correct(j, pid, fields, f.get("reason", ""))

        await run_in_threadpool(correct)
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_player_context, w, pid, request)
        return w.render(request, "season/player.html", status=422, errors={"correct": str(e)}, **ctx)
    return RedirectResponse(f"/players/{pid}" + i18n.keep(request.query_params.get("lang")), 303)


async def player_merge(request: Request) -> Response:
    """The arbiter merges this record into another (two records of one person). Where both have a result in one
    game, the page names the games and asks whose line stands in each (a radio per game); the merge is stored
    only with a decision for every such game, kept in the history. It can be undone."""
    w = web(request)
    need(request, "arbiter")
    pid = request.path_params["pid"]
    shared: list[tournament.SharedGame] = []
    f: dict[str, str] = {}
    into = ""
    try:
        f = await read_form(request)
        into = f.get("into", "")

        def merge() -> list[tournament.SharedGame]:
            with w.journal("arbiter") as j:
                reg = registry.load(j)
                a, b = reg.get(pid).id, reg.get(into).id
                games = tournament.shared_games(j, a, b)
                kept = {g.game_id: f[f"keep:{g.game_id}"] for g in games if f.get(f"keep:{g.game_id}")}
                if len(kept) < len(games):
                    return games
                tournament.merge(j, a, b, f.get("reason", ""), kept)
                return []

        shared = await run_in_threadpool(merge)
        if shared:
            raise Refused("merge", Text("both records have a result in %(games)s: choose whose line stands in each",
                                        games=[g.said() for g in shared]))
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_player_context, w, pid, request)
        said = e.message if isinstance(e, Refused) else str(e)
        return w.render(request, "season/player.html", status=422, errors={"merge": said}, shared=shared,
                        merge_form=f, **ctx)
    return RedirectResponse(f"/players/{into}" + i18n.keep(request.query_params.get("lang")), 303)


async def player_unmerge(request: Request) -> Response:
    """The arbiter undoes a merge: the record merged stands for itself again, in every table."""
    w = web(request)
    need(request, "arbiter")
    pid = request.path_params["pid"]
    try:
        f = await read_form(request)

        def unmerge() -> None:
            with w.journal("arbiter") as j:
                registry.unmerge(j, f.get("player", ""), f.get("reason", ""))

        await run_in_threadpool(unmerge)
    except (Refused, ArbitruError) as e:
        ctx = await run_in_threadpool(_player_context, w, pid, request)
        return w.render(request, "season/player.html", status=422, errors={"unmerge": str(e)}, **ctx)
    return RedirectResponse(f"/players/{pid}" + i18n.keep(request.query_params.get("lang")), 303)


def _tournaments_context(w: Web, request: Request) -> dict[str, Any]:
    with w.journal("") as j:
        return {"tournaments": [tournament.replay(j, t) for t in tournament.tournaments(j)],
                "championships": [championship.replay(j, g.id) for g in j.games(championship.FORMAT)],
                "rule_sets": tournament.RULE_SETS, "languages": i18n.LANGUAGES, "methods": METHODS,
                "lang": season_language(request, j)}


async def tournaments_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/tournaments.html", **await run_in_threadpool(_tournaments_context, w, request))


def _event_from(f: dict[str, str]) -> Event:
    """A tournament's description from the creation form, each refusal beside its field."""
    for key, what in (("start", "start date"), ("end", "end date")):
        if f.get(key) or key == "start":
            try:
                registry.check_date(f.get(key, ""), what)
            except ArbitruError as e:
                raise Refused(key, str(e)) from None
    rules = f.get("rules") or "fise"
    if rules not in tournament.RULE_SETS:
        raise Refused("rules", Text("unknown rule set %(name)s; known: %(known)s", name=repr(rules),
                                      known=", ".join(tournament.RULE_SETS)))
    if f.get("lang") and f["lang"] not in i18n.LANGUAGES:
        raise Refused("rules", Text(UNKNOWN_LANGUAGE, lang=repr(f["lang"][:8]), known=", ".join(i18n.LANGUAGES)))
    try:
        return Event(f.get("name", ""), f["start"], f.get("end", ""), f.get("place", ""), f.get("organiser", ""),
                     rules, (ANTICIPATION if rules == "ro-anticipation" else DUPLICATE).name, f.get("method", ""),
                     lang=f.get("lang", ""))
    except ArbitruError as e:
        where = next((k for k in ("name", "end", "place", "organiser") if k in str(e)), "rules")
        raise Refused("tournament" if where in ("place", "organiser") else where, str(e)) from None


def creation(page: str, prefix: str, store: Any) -> Any:
    """The arbiter creates a tournament or a championship (``page``) from the form on ``/tournaments``:
    ``store(journal, form)`` returns its id; a refusal is shown beside its field (``prefix`` + field), with the
    form as it was filled in, nothing stored."""

    async def endpoint(request: Request) -> Response:
        w = web(request)
        need(request, "arbiter")
        f: dict[str, str] = {}
        try:
            f = await read_form(request)

            def create() -> str:
                with w.journal("arbiter") as j:
                    made: str = store(j, f)
                    return made

            made = await run_in_threadpool(create)
        except Refused as e:
            ctx = await run_in_threadpool(_tournaments_context, w, request)
            return w.render(request, "season/tournaments.html", status=e.status,
                            errors={prefix + e.field: e.message}, **{prefix.strip("-") + "_form": f}, **ctx)
        return RedirectResponse(f"/{page}s/{made}" + i18n.keep(request.query_params.get("lang")), 303)

    return endpoint


def store_tournament(j: Any, f: dict[str, str]) -> str:
    return tournament.create(j, _event_from(f))


def _matches(record: registry.Record, query: str) -> bool:
    q = query.casefold()
    return not q or q in record.name.casefold() or q in record.licence.casefold() or q == record.id.casefold()


def _game_link(game_id: str, fmt: Format | None) -> str:
    """Where a tournament's game is followed: a duplicate game's results page, an anticipation game's page."""
    return f"/games/{game_id}/results" if fmt is DUPLICATE else f"/games/{game_id}"


def _table(w: Web, request: Request) -> dict[str, Any]:
    q = request.query_params
    method = q.get("method") or None
    if method is not None and method not in METHODS:
        raise HTTPException(400, Text("table method: one of %(names)s", names=", ".join(METHODS)))
    with w.journal("") as j:
        t = tournament_of(j, request.path_params["tid"])
        reg, active, _ = kept_registry(w, j)
        results = kept_outcomes(w, j, t)
        rows = general_table(t, reg, results, method, category=q.get("category") or None,
                             club=q.get("club") or None)
        games = [(slot, "" if slot.recorded else _game_link(slot.game_id, format_of(j.game(slot.game_id))))
                 for slot in t.games]
    chosen = method or t.event.table_method
    view = {k: v for k, v in (("method", method or ""), ("category", q.get("category", "")),
                              ("club", q.get("club", "")), ("lang", q.get("lang", ""))) if v}
    absences = [(slot.number, p, reg.name(p), why) for slot in t.games for p, why in slot.absent.items()]
    enrolled = {e.player for e in t.enrolments}
    search = q.get("q", "")[:100]
    offered = [r for r in active if r.id not in enrolled and _matches(r, search)]
    return {"t": t, "rows": rows, "games": len(results), "results": results, "method": chosen,
            "method_asked": method or "", "tie_order": TIE_ORDER[chosen],
            "unreadable": [s for s in t.games if s.unreadable],
            "category": q.get("category", ""), "club": q.get("club", ""), "lang": tournament_language(request, t),
            "slots": games, "entrants": [(e, reg.get(e.player)) for e in t.enrolments],
            "offered": offered[:MAX_OFFERED], "more_offered": max(0, len(offered) - MAX_OFFERED), "search": search,
            "next_game": len(t.games) + 1, "new_game": NEW_GAME[by_name(t.event.format)],
            "view_query": ("?" + urlencode(view)) if view else "", "methods": METHODS, "absences": absences,
            "method_labels": {m: TIE_ORDER[m][0] for m in METHODS},
            "homonyms": homonyms(r.name for r in rows)}


def homonyms(names: Iterable[str]) -> set[str]:
    """The names two or more records share on a page: the page writes their licence (or id) and club beside."""
    seen: set[str] = set()
    twice: set[str] = set()
    for n in names:
        key = n.casefold()
        (twice if key in seen else seen).add(key)
    return twice


async def tournament_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/table.html", **await run_in_threadpool(_table, w, request))


#: the page an arbiter's action on a tournament or a championship comes from: its template, its context
PAGES: dict[str, tuple[str, str, Any]] = {}


def arbiter_action(page: str, field: str, action: Any, question: Any = None) -> Any:
    """An arbiter's POST on a tournament or a championship (``page``): ``action(journal, id, form, ticked)``
    stores it; a refusal is shown beside the form ``field``, nothing stored. With ``question``, the action
    cannot be undone: the first request asks ``question(journal, id, form)`` and stores nothing, with a one-time
    token (:mod:`arbitru.web.confirm`, bound to the session, the tournament's journal position and the form);
    only a second request carrying that token stores."""

    async def endpoint(request: Request) -> Response:
        w = web(request)
        me = need(request, "arbiter")
        key, template, context = PAGES[page]
        owner = request.path_params[key]
        try:
            f = await read_form(request, {"result": MAX_RESULT})
            form = await request.form()  # the ticked players: one field each

            def run() -> dict[str, Any] | None:
                with w.journal("arbiter") as j:
                    try:
                        if question is not None:
                            what = question(j, owner, f)
                            try:
                                confirm.check(j, me, owner, field, j.last_seq(owner), f, [what])
                            except confirm.Needed as e:
                                return {"field": field, "question": what, "fields": e.fields, "token": e.token}
                        action(j, owner, f, [v for v in form.getlist("player") if isinstance(v, str)])
                    except ArbitruError as e:
                        raise Refused(field, str(e)) from None
                return None

            asked = await run_in_threadpool(run)
        except Refused as e:
            ctx = await run_in_threadpool(context, w, request)
            return w.render(request, template, status=e.status, errors={e.field: e.message}, **ctx)
        if asked is not None:
            ctx = await run_in_threadpool(context, w, request)
            return w.render(request, template, confirm=asked, **ctx)
        return RedirectResponse(f"/{page}s/{owner}" + i18n.keep(request.query_params.get("lang")), 303)

    return endpoint


def _late(f: dict[str, str], t: Tournament) -> bool:
    """RO-5.1: a player enrolled once a game is created is a late entry, unless the arbiter says otherwise."""
    return f.get("late") == "1" or (f.get("late") != "0" and bool(t.games))


def do_enrol(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    t = tournament.replay(j, tid)
    typed = [p for p in f.get("players", "").replace(",", " ").split() if p]
    if not checked and not typed:
        raise TournamentError(i18n.Text("tick the players to enrol, or type their registry ids"))
    tournament.enrol(j, t.id, checked + typed, late=_late(f, t))


def do_enrol_new(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    tournament.enrol(j, tid, new=[entry_from(f)], late=_late(f, tournament.replay(j, tid)))


def do_record(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    result = tournament.read_result(f.get("result", ""))
    if not result.scores:
        raise TournamentError(
            i18n.Text("the result: a line master,… and a line per player (registry id, points per move)"))
    tournament.record(j, tid, result.scores, result.masters, title=f.get("title", ""), absent=result.absent,
                      lines=result.lines)


def _after(f: dict[str, str], t: Tournament) -> int:
    text = f.get("after_game", "")
    if not text:
        return len(t.games)
    n = ascii_number(text)
    if n is None or n < 0:
        raise TournamentError(i18n.Text("after game %(text)s: a game's number", text=repr(text)))
    return n


def ask_withdraw(j: Any, tid: str, f: dict[str, str]) -> str:
    t, reg = tournament.replay(j, tid), registry.load(j)
    e = t.enrolment(reg.resolve(f.get("player", "")))
    return i18n.Text("Withdraw %(player)s from every game after game %(n)s?",
                     player=f"{e.player} {reg.name(e.player)}", n=_after(f, t))


def do_withdraw(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    tournament.withdraw(j, tid, f.get("player", ""), _after(f, tournament.replay(j, tid)))


def do_withdraw_undo(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    tournament.undo_withdrawal(j, tid, f.get("player", ""))


def _game(f: dict[str, str]) -> int:
    n = ascii_number(f.get("game", ""))
    if n is None or n < 1:
        raise TournamentError(i18n.Text("game %(text)s: a game's number", text=repr(f.get("game", ""))))
    return n


def do_absent(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    """The secretary marks a player absent from one game (undone by ``do_absent_undo``)."""
    tournament.mark_absent(j, tid, _game(f), f.get("player", ""), f.get("reason", ""))


def do_absent_undo(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    tournament.undo_absence(j, tid, _game(f), f.get("player", ""))


def ask_set_aside(j: Any, tid: str, f: dict[str, str]) -> str:
    t = tournament.replay(j, tid)
    t.slot(_game(f))
    return i18n.Text("Set aside the result of game %(n)s that cannot be read? It cannot be undone.", n=_game(f))


def do_set_aside(j: Any, tid: str, f: dict[str, str], checked: list[str]) -> None:
    tournament.set_aside(j, tid, _game(f), f.get("reason", ""))


async def tournament_download(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_table, w, request)
    what = request.path_params["what"]
    view = "".join(f"-{x}" for x in (ctx["category"], ctx["club"]) if x)
    name = f"{ctx['t'].id}-table{view}-{ctx['method']}"
    if what == "table.csv":
        return _csv(table_csv(ctx["rows"], ctx["results"], ctx["method"], category=ctx["category"] or None,
                              club=ctx["club"] or None), f"{name}.csv")
    if what == "table.pdf":  # made once per content, in the background (web/documents.py)
        if not ctx["rows"] and (ctx["category"] or ctx["club"]):
            # a view no player of the table is in: nothing to print, and no document made per value typed
            raise HTTPException(404, Text(NO_ONE_IN_VIEW))
        html = w.render_text(request, "season/table.html", printing=True, csrf="", **ctx)
        doc = await run_in_threadpool(documents.Document.of, [html])
        return await documents.serve_document(request, ctx["t"].id, what, f"{name}.pdf", ctx["lang"], doc)
    raise HTTPException(404, Text("no download %(what)s", what=repr(what)))


def _championship_context(w: Web, request: Request) -> dict[str, Any]:
    with w.journal("") as j:
        reg = kept_registry(w, j)[0]
        try:
            c = championship.replay(j, request.path_params["cid"])
        except ArbitruError:
            raise HTTPException(404, Text("no championship %(id)s", id=repr(request.path_params["cid"]))) from None

        def table_of(tid: str) -> list[Row]:
            t = tournament.replay(j, tid)
            return general_table(t, reg, kept_outcomes(w, j, t))

        stages = [tournament.replay(j, tid) for tid in c.stages]
        langs = {t.event.language for t in stages}
        standings = championship.compute(j, c.id, table_of)
        return {"c": c, "rows": standings, "stages": stages, "homonyms": homonyms(r.name for r in standings),
                "others": [tournament.replay(j, t) for t in tournament.tournaments(j) if t not in c.stages],
                "lang": i18n.pick(request.query_params.get("lang"), langs.pop() if len(langs) == 1
                                  else season_language(request, j))}


async def championship_page(request: Request) -> Response:
    w = web(request)
    return w.render(request, "season/championship.html", **await run_in_threadpool(_championship_context, w, request))


def _points(text: str) -> list[int]:
    cells = [c for c in text.replace(";", ",").replace(" ", ",").split(",") if c]
    numbers = [ascii_number(c) for c in cells]
    if any(n is None for n in numbers):
        raise Refused("points", i18n.Text("points per place: whole numbers separated by commas, not %(text)s",
                                          text=repr(text)))
    return [n for n in numbers if n is not None]


def store_championship(j: Any, f: dict[str, str]) -> str:
    points = _points(f.get("points", "")) or list(championship.DEFAULT_POINTS)
    best = ascii_number(f.get("best") or "0")
    if best is None:
        raise Refused("best", i18n.Text("best N: a whole number, not %(text)s", text=repr(f.get("best"))))
    try:
        return championship.create(j, f.get("name", ""), points, best)
    except ArbitruError as e:
        raise Refused("name" if "name" in str(e) else "points", str(e)) from None


def do_stage(j: Any, cid: str, f: dict[str, str], checked: list[str]) -> None:
    championship.add_stage(j, cid, f.get("tournament", ""))


def _stage(f: dict[str, str]) -> int:
    n = ascii_number(f.get("stage", ""))
    if n is None:
        raise championship.ChampionshipError(i18n.Text("stage %(text)s: a stage's number",
                                                       text=repr(f.get("stage", ""))))
    return n


def ask_eliminate(j: Any, cid: str, f: dict[str, str]) -> str:
    record = registry.load(j).get(championship.eliminable(j, cid, f.get("player", ""), _stage(f)))
    return i18n.Text("Eliminate %(player)s from stage %(n)s? It cannot be undone.",
                     player=f"{record.id} {record.name}", n=_stage(f))


def do_eliminate(j: Any, cid: str, f: dict[str, str], checked: list[str]) -> None:
    championship.eliminate(j, cid, f.get("player", ""), _stage(f), f.get("reason", ""))


def _ratings(w: Web, request: Request) -> dict[str, Any]:
    as_of = request.query_params.get("as_of") or None
    if as_of is not None:
        try:
            registry.check_date(as_of, "date")
        except ArbitruError as e:
            raise HTTPException(400, str(e)) from None
    with w.journal("") as j:
        kept = kept_rating_list(w, j, as_of)
        return {"kept": kept, "rows": kept.rows, "as_of": as_of or "", "lang": season_language(request, j),
                "homonyms": homonyms(r.name for r in kept.rows)}


async def ratings_page(request: Request) -> Response:
    w = web(request)
    ctx = await run_in_threadpool(_ratings, w, request)
    rows, pages = paged(request, ctx.pop("rows"))
    return w.render(request, "season/ratings.html", rows=rows, paging=pages, **ctx)


async def ratings_csv(request: Request) -> Response:
    w = web(request)
    kept: RatingList = (await run_in_threadpool(_ratings, w, request))["kept"]
    if kept.csv is None:
        kept.csv = await run_in_threadpool(ratings.rating_list_csv, kept.rows)
    return _csv(kept.csv, "ratings.csv")


PAGES.update(tournament=("tid", "season/table.html", _table),
             championship=("cid", "season/championship.html", _championship_context))
