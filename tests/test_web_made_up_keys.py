"""Hard to knock over: what a client sends (a game id in the address, a cookie, a query's value) keys no memory
of the server and no work of its threads unless it is one of a small known set. A stranger sending a thousand
made-up values leaves nothing behind per value, and queues nothing ahead of the hall."""

from __future__ import annotations

from time import time as real_time
from typing import Any

from starlette.routing import Route

from arbitru.journal.store import Journal
from arbitru.season import csvfile, tournament
from arbitru.season.tournament import Event
from arbitru.web import anticipation_pages, documents, house
from arbitru.web.app import route_table
from web_support import document, make_game, make_site

MADE_UP = "made-up-"


def _names_made_up(key: Any) -> bool:
    if isinstance(key, str):
        return MADE_UP in key
    if isinstance(key, tuple):
        return any(_names_made_up(k) for k in key)
    return False


def _kept_made_up(app: Any) -> list[tuple[str, str, Any]]:
    """Every key naming a made-up value in the app's per-game and per-value stores: the house's (:class:`Web`, its
    damage watch, intake and publisher), every middleware's, and the modules' own."""
    w = app.state.web
    roots: list[tuple[str, Any]] = [("web", w), ("damage", w.damage), ("intake", w.intake), ("publisher", w.publisher)]
    layer = app.middleware_stack
    while hasattr(layer, "__dict__"):
        roots.append((type(layer).__name__, layer))
        layer = getattr(layer, "app", None)
    stores = [(name, attr, value) for name, root in roots for attr, value in vars(root).items()]
    stores += [("house", "_formats", house._formats), ("anticipation_pages", "_states", anticipation_pages._states),
               ("anticipation_pages", "_lights", anticipation_pages._lights),
               ("anticipation_pages", "_makers", anticipation_pages._makers)]
    found = []
    for name, attr, value in stores:
        if hasattr(value, "keys"):
            found += [(name, attr, k) for k in list(value.keys()) if _names_made_up(k)]
    return found


def test_a_stranger_naming_made_up_games_at_every_address_leaves_no_state_per_game_id(tmp_path):
    """Every address that names a game (its pages, forms, live parts, API, files, training games), asked for with
    game ids that name no game: each answers (404, 401, 403), and no lock, memo slot, damage-watch entry or
    subscription is left behind per made-up id (the damage guard remembered each one: a lock and an answer per id,
    as long as the address, for ever). A game that exists is watched as before."""
    site = make_site(tmp_path)
    gid = make_game(site)
    stranger = site.client()
    app: Any = site.client_factory
    asked = 0
    for route in route_table():
        if not isinstance(route, Route) or "{" not in route.path:
            continue
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            for i in range(3):
                path = (route.path.replace("{gid}", f"{MADE_UP}{i}-{route.path}").replace("{tid}", f"{MADE_UP}t{i}")
                        .replace("{cid}", f"{MADE_UP}c{i}").replace("{pid}", f"{MADE_UP}p{i}")
                        .replace("{player}", "1").replace("{what}", "results.pdf"))
                r = stranger.request(method, path, data={"csrf": "x"} if method == "POST" else None)
                assert r.status_code in (401, 403, 404), (method, path, r.status_code)
                asked += 1
    assert asked > 150
    assert _kept_made_up(app) == []
    assert stranger.get(f"/games/{gid}/screen").status_code == 200
    assert gid in app.state.web.damage._known  # a real game's damage is still watched


def test_a_stranger_sending_made_up_session_cookies_fills_no_memory_with_them(tmp_path):
    """The session cookies this server signed are remembered once read (a hall's phones send theirs at every
    change); a forged one is checked each time and kept nowhere: a stranger's made-up cookies were each kept whole
    (up to the 16 KB a request's headers may take: 16,384 of them, 256 MB in every worker), pushing the hall's own
    out."""
    import gc
    import tracemalloc

    from arbitru.web import auth

    site = make_site(tmp_path)
    gid = make_game(site)
    stranger = site.client()
    for _ in range(3):  # the page and its caches warm
        stranger.cookies.clear()
        assert stranger.get(f"/games/{gid}/screen", headers={"cookie": f"{auth.COOKIE}=warm.up"}).status_code == 200
    gc.collect()
    tracemalloc.start()
    # what the test client's event loops allocate is not the server's: an asyncio loop made during the window (its
    # selector, 1.9 MB in a process that has opened many files) is left out, by the line that allocated it
    not_loops = [tracemalloc.Filter(False, "*/asyncio/*"), tracemalloc.Filter(False, "*/selectors.py")]
    try:
        before = tracemalloc.take_snapshot().filter_traces(not_loops)
        for i in range(200):
            stranger.cookies.clear()  # each time a stranger of no session of ours
            forged = f"{MADE_UP}{i}-" + "x" * 15_000 + ".mac"
            r = stranger.get(f"/games/{gid}/screen", headers={"cookie": f"{auth.COOKIE}={forged}"})
            assert r.status_code == 200  # the page, for a visitor of no session (given a new cookie of ours)
        gc.collect()
        after = tracemalloc.take_snapshot().filter_traces(not_loops)
    finally:
        tracemalloc.stop()
    kept = sum(d.size_diff for d in after.compare_to(before, "filename"))
    assert kept < 1_000_000, kept  # 200 cookies of 15 KB: 3 MB when each was kept
    # a cookie of ours is still read once and answered from memory after
    phone = site.client()
    assert phone.get("/").status_code == 200
    cookie = phone.cookies[auth.COOKIE]
    from arbitru.web import app as web_app

    assert web_app._unsigned(site.secret, cookie) == web_app._unsigned(site.secret, cookie) is not None
    assert web_app._unsigned(site.secret, "forged.mac") is None


def test_FISE_15_a_table_pdf_is_made_only_for_a_view_of_the_tables_players(tmp_path, monkeypatch):
    """A tournament's general table as PDF (FISE-15) is made in the background, once per content (issue 29): a
    stranger asking it with a hundred made-up clubs and categories started a hundred WeasyPrint jobs in the two
    makers (each removing the table's real PDF, the older version of the same document) and held the queue of
    documents the hall waits for. A view no player of the table is in is refused (404, in the page's language),
    nothing made; a club's view is made as before."""
    site = make_site(tmp_path)
    with Journal(site.db, actor="arbiter") as j:
        csvfile.import_players(j, "licence,name,club,rating,categories\nL1,Ana Pop,Arad,1800,junior\n"
                                  "L2,Dan Ene,Iasi,1600,senior\n")
        tournament.create(j, Event("Cupa", "2026-03-01", lang="en"), "t1")
        tournament.enrol(j, "t1", ["A1", "A2"])
        tournament.record(j, "t1", {"A1": [10, 30], "A2": [20, 0]}, [30, 30])
    started: list[object] = []
    real = documents.start

    def start(where, doc):  # type: ignore[no-untyped-def]
        started.append(where)
        return real(where, doc)

    monkeypatch.setattr(documents, "start", start)
    c = site.client()
    for i in range(50):
        for view in ({"club": f"{MADE_UP}{i}"}, {"category": f"{MADE_UP}{i}"}, {"club": "Arad", "category": "senior"}):
            r = c.get("/tournaments/t1/download/table.pdf", params={**view, "lang": "fr"})
            assert r.status_code == 404, (view, r.status_code)
            assert "aucun joueur du classement" in r.text
    assert started == []
    pdf = document(c, "/tournaments/t1/download/table.pdf?club=Arad")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert len(started) == 1


class _Later:
    """A module's ``time`` whose clock moves a second on at each look (a visitor asking once a second)."""

    def __init__(self, ahead: float = 0.0) -> None:
        self.looks, self.ahead = 0, ahead

    def time(self) -> float:
        self.looks += 1
        return real_time() + self.ahead + self.looks


def _kept_fragments(app: Any, gid: str, name: str) -> list[Any]:
    _seq, memo = app.state.web._memo[gid]
    return [k for k in memo if isinstance(k, tuple) and k[:2] == ("fragment", name)]


def test_fise_5_a_projection_whose_clock_ran_out_is_drawn_once_not_once_a_second(tmp_path, monkeypatch):
    """While a move's clock counts down (FISE-5), the projection's live part is drawn once per second (its
    countdown starts there); once the time is up it shows 0:00 whatever the second: a stranger asking it once a
    second while the clock, run out, waited for the arbiter's close (lunch, a claim) kept a part per second, for
    as long as it waited. Kept once now; while it counts down, once per second as before."""
    from arbitru.formats.duplicate.game import Session
    from arbitru.web.routes import duplicate

    site = make_site(tmp_path)
    gid = make_game(site, seconds=60)
    with Journal(site.db, actor="arbiter") as j:
        Session(j, gid).clock("start", real_time() - 3600)  # started an hour ago: its 60 seconds are up
    app: Any = site.client_factory
    stranger = site.client()
    monkeypatch.setattr(duplicate, "time", _Later())
    for _ in range(60):
        r = stranger.get(f"/games/{gid}/screen/live")
        assert r.status_code == 200 and 'data-remaining="0.0"' in r.text
    assert len(_kept_fragments(app, gid, "duplicate/_screen.html")) == 1
    # a clock counting down: a part per second still (each starts its countdown from its own second)
    gid = make_game(site, seconds=600)
    with Journal(site.db, actor="arbiter") as j:
        Session(j, gid).clock("start", real_time())
    monkeypatch.setattr(duplicate, "time", _Later())
    for _ in range(5):
        assert stranger.get(f"/games/{gid}/screen/live").status_code == 200
    assert len(_kept_fragments(app, gid, "duplicate/_screen.html")) == 5


def test_ro_4_3_a_projection_whose_turn_timer_ran_out_is_drawn_once_per_language_not_once_a_second(
        tmp_path, monkeypatch):
    """The anticipation projection's live part (RO-4.3's turn timers, in any of the pages' languages: ``?lang=``)
    is kept per second while the turn's timer counts down; once its time is up, once per language: a stranger
    asking it in each language once a second kept six parts a second for as long as the timer, run out, stayed."""
    from arbitru.web.i18n import LANGUAGES
    from web_anticipation_support import create_game, form, imported_words
    from web_support import login

    imported_words(tmp_path, monkeypatch)
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    for _ in range(16):  # the 15 groups read out, then again (RO-5.2.f-g)
        assert form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}").status_code == 303
    r = form(arbiter, f"/games/{gid}/lot", {"turn": "1", "group": "2", "by": "table", "table": "1"}, f"/games/{gid}")
    assert r.status_code == 303, r.text
    r = form(arbiter, f"/games/{gid}/clock", {"timer": "turn 1", "action": "start"}, f"/games/{gid}")
    assert r.status_code == 303, r.text
    app: Any = site.client_factory
    stranger = site.client()
    monkeypatch.setattr(anticipation_pages, "time", _Later(ahead=3600))  # an hour on: turn 1's 8 minutes are up
    for _ in range(20):
        for lang in LANGUAGES:
            assert stranger.get(f"/games/{gid}/screen/live", params={"lang": lang}).status_code == 200
    assert len(_kept_fragments(app, gid, "anticipation/_screen.html")) == len(LANGUAGES)


class _Clock:
    """The throttles' clock, moved by the test instead of waiting."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_stranger_typing_made_up_account_names_leaves_no_throttle_row_past_its_window(tmp_path):
    """The login door counts failures per account tried from a client, and per account over every client: a row
    of the throttles' table per name typed. A row whose last failure is older than the window and whose wait is
    over counts for nothing, yet it was kept for ever: every made-up name a stranger typed stayed in the journal's
    database. Such rows go with the next failure; the counts within the window are as before."""
    from starlette.testclient import TestClient

    from arbitru.web import security
    from arbitru.web.app import create_app
    from web_support import csrf

    site = make_site(tmp_path)
    clock = _Clock()
    limits = security.Limits(clock=clock, window=3600.0, lock=900.0)
    c = TestClient(create_app(site.db, limits=limits), follow_redirects=False)

    def try_login(name: str) -> int:
        r = c.post("/login", data={"csrf": csrf(c.get("/login").text), "name": name, "password": "wrong"})
        return r.status_code

    def keys() -> list[str]:
        with Journal(site.db) as j:
            return sorted(str(k) for (k,) in j.execute("SELECT key FROM web_throttle"))

    for i in range(5):
        assert try_login(f"{MADE_UP}{i}") == 401
    assert len([k for k in keys() if MADE_UP in k]) == 10  # each name from this client, each over every client
    clock.now += 60
    assert try_login("arbiter") == 401
    assert len([k for k in keys() if MADE_UP in k]) == 10  # within the window: counted as before
    clock.now += limits.window + 1
    assert try_login("arbiter") == 401
    assert keys() == ["login:arbiter", "login:arbiter@testclient", "login@testclient"]
