"""Finding: a damaged journal served as if whole. With one page of the SQLite file damaged, ``serve``
showed a truncated game without a word and accepted new events onto it. Now the damaged game's pages carry a
banner saying what is damaged and how to repair it, in the game's language; its writes answer 503 and store
nothing; every other game keeps working. Real SQLite file, real damage, real HTTP against uvicorn.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from web_server import running_server
from web_support import ARBITER_PASSWORD, LEXICON, PLAYERS, Site, make_game, make_site

PAGE = 4096
BANNER_ES = "El registro de esta partida está dañado"
REPAIR = "arbitru journal check"


@dataclass
class Hall:
    site: Site
    url: str
    damaged: str  # a Spanish game with one page of its events overwritten
    whole: str  # an English game in the same file


def spanish_game(site: Site) -> str:
    settings = Settings(ruleset("fise", moves=5, seconds=60), "es", LEXICON, seed="7")
    players = [Player(n, name) for n, name in PLAYERS]
    with Journal(site.db, actor="arbiter") as j:
        # its id sorts after the other game's: the last pages of the event index hold its events alone
        s = Session.create(j, settings, load_lexicon(LEXICON, "es"), players, game_id="zz-damaged")
        s.draw()
        return s.id


def pages_of(data: bytes, gid: str, spare: str, *, marker: bytes | None) -> list[int]:
    """The pages that hold the game's entries and not the other game's: table pages (with the slips' marker)
    or, without a marker, pages of the event index (game id and number only)."""
    out = []
    for p in range(len(data) // PAGE):
        chunk = data[p * PAGE:(p + 1) * PAGE]
        if gid.encode() not in chunk or spare.encode() in chunk:
            continue
        if (marker is None and b"QQQQ" not in chunk and chunk.count(gid.encode()) > 20) or (
            marker is not None and chunk.count(marker) > 5
        ):
            out.append(p)
    assert out, "no page holds the game's events alone"
    return out


def garbage_over_a_table_page(db: Path, gid: str, spare: str) -> None:
    """Garbage over one page of the game's events in the middle: SQLite reports it when read."""
    data = bytearray(db.read_bytes())
    pages = pages_of(data, gid, spare, marker=b"Q" * 10)
    assert len(pages) > 2
    target = pages[len(pages) // 2]
    for k in range(PAGE):
        data[target * PAGE + k] = (k * 151 + 7) % 256
    db.write_bytes(bytes(data))


def index_page_cut_short(db: Path, gid: str, spare: str) -> None:
    """The index page of the game's last events says it holds one entry: the game reads back shorter, events
    numbered 1..n with none missing, and SQLite reports nothing (the finding's truncated game)."""
    data = bytearray(db.read_bytes())
    for target in reversed(pages_of(data, gid, spare, marker=None)):
        cut = bytearray(data)
        cut[target * PAGE + 3:target * PAGE + 5] = (1).to_bytes(2, "big")
        db.write_bytes(bytes(cut))
        con = sqlite3.connect(db)
        try:
            n, last = con.execute("SELECT COUNT(*), MAX(seq) FROM event WHERE game_id = ?", (gid,)).fetchone()
        finally:
            con.close()
        if n == last < 300:
            return
    raise AssertionError("no index page holds the game's last events alone")


def stored_events(db: str, gid: str) -> int:
    """The game's events by the index (whose pages are sound), so a damaged game can still be counted."""
    con = sqlite3.connect(db)
    try:
        (n,) = con.execute("SELECT COUNT(*) FROM event WHERE game_id = ?", (gid,)).fetchone()
    finally:
        con.close()
    return int(n)


def csrf(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, "the page has no form with a CSRF token"
    return m.group(1)


def arbiter(url: str) -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=30)
    r = c.post("/login", data={"csrf": csrf(c.get("/login").text), "name": "arbiter", "password": ARBITER_PASSWORD})
    assert r.status_code == 303, r.text
    return c


@pytest.fixture(scope="module", params=[garbage_over_a_table_page, index_page_cut_short])
def hall(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    site = make_site(tmp_path_factory.mktemp("damaged"))
    damaged = spanish_game(site)
    whole = make_game(site)
    with Journal(site.db, actor="desk:a") as j:
        s = Session(j, damaged)
        for n in range(300):
            s.store_slips([Slip(1, str(n + 100), "H8", "Q" * 50, n)])
        j.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    request.param(Path(site.db), damaged, whole)
    with running_server(site.db) as url:
        yield Hall(site, url, damaged, whole)


def api_slip(hall: Hall, gid: str, player: str, word: str) -> httpx.Response:
    """The player's slip for move 1 at H8, handed in through the API with his code."""
    return httpx.post(
        f"{hall.url}/api/games/{gid}/slips",
        json={"move": 1, "position": "H8", "word": word, "score": 4},
        headers={"Authorization": f"Bearer {hall.site.code(gid, player)}"},
        timeout=30,
    )


def test_damaged_journal_pages_show_the_banner_in_the_games_language_not_a_truncated_game(hall: Hall) -> None:
    with closing(arbiter(hall.url)) as c:
        # the pages (their live fragments are swapped in under the page's banner)
        for page in ("", "/screen", "/play", "/results"):
            r = c.get(f"/games/{hall.damaged}{page}")
            # drawn under the banner when what can be read replays, else the banner alone
            assert r.status_code in (200, 503), (page, r.status_code)
            assert 'class="damage"' in r.text and BANNER_ES in r.text and REPAIR in r.text, page
            # what is damaged, in Spanish: where reading fails (SQLite's own words), or how many events are missing
            said = r"no se pueden leer todos sus eventos: game zz-damaged: the journal is damaged after event \d+"
            assert re.search(f"{said}|\\d+ de sus \\d+ eventos no se pueden leer", r.text), page
            assert 'lang="es"' in r.text
        r = c.get(f"/api/games/{hall.damaged}")
        assert r.status_code == 503 and REPAIR in r.json()["error"]
        for download in ("game.gcg", "results.csv", "moves.csv"):  # files: no banner, so nothing
            r = c.get(f"/games/{hall.damaged}/download/{download}")
            assert r.status_code == 503 and BANNER_ES in r.text, download


def test_damaged_journal_writes_answer_503_and_store_nothing(hall: Hall) -> None:
    before = stored_events(hall.site.db, hall.damaged)
    with closing(arbiter(hall.url)) as c:
        token = csrf(c.get(f"/games/{hall.whole}").text)
        slip = {"csrf": token, "move": "1", "player": "1", "position": "H8", "word": "AB", "score": "4"}
        for action, form in (("desk", slip), ("clock", {"csrf": token, "action": "start"}),
                             ("draw", {"csrf": token}), ("end", {"csrf": token})):
            r = c.post(f"/games/{hall.damaged}/{action}", data=form)
            assert r.status_code == 503, (action, r.status_code)
            assert BANNER_ES in r.text and REPAIR in r.text
    api = api_slip(hall, hall.damaged, "1", "AB")
    assert api.status_code == 503 and api.json()["stored"] is False and REPAIR in api.json()["error"]
    assert stored_events(hall.site.db, hall.damaged) == before


def test_damaged_journal_the_other_game_keeps_working_reads_and_writes(hall: Hall) -> None:
    before = stored_events(hall.site.db, hall.whole)
    with closing(arbiter(hall.url)) as c:
        page = c.get(f"/games/{hall.whole}")
        assert page.status_code == 200 and 'class="damage"' not in page.text
        slip = {"csrf": csrf(page.text), "move": "1", "player": "1", "position": "H8", "word": "AB", "score": "4"}
        assert c.post(f"/games/{hall.whole}/desk", data=slip).status_code == 303
        assert c.get("/").status_code == 200
    api = api_slip(hall, hall.whole, "2", "BA")
    assert api.status_code < 300, api.text
    # committed: another connection, in another process, reads both
    assert stored_events(hall.site.db, hall.whole) == before + 2


def test_damaged_journal_a_lost_event_without_an_sqlite_error_is_seen_by_the_count(tmp_path: Path) -> None:
    """An event gone without SQLite noticing (its row removed behind the journal's back): the game replays
    shorter without an error, and only the count against the last event number shows it."""
    site = make_site(tmp_path)
    gid = make_game(site)
    with Journal(site.db, actor="desk:a") as j:
        Session(j, gid).store_slips([Slip(1, "1", "H8", "AB", 4)])
        Session(j, gid).store_slips([Slip(1, "2", "H8", "BA", 4)])
    con = sqlite3.connect(site.db)
    con.execute("DROP TRIGGER event_no_delete")
    (last,) = con.execute("SELECT MAX(seq) FROM event WHERE game_id = ?", (gid,)).fetchone()
    con.execute("DELETE FROM event WHERE game_id = ? AND seq = ?", (gid, last - 1))
    con.commit()
    con.close()
    with running_server(site.db) as url, closing(arbiter(url)) as c:
        r = c.get(f"/games/{gid}")
        assert r.status_code == 200 and 'class="damage"' in r.text  # the readable part, flagged
        assert f"1 of its {last} events cannot be read" in r.text and REPAIR in r.text
        token = csrf(r.text)
        slip = {"csrf": token, "move": "1", "player": "3", "position": "H8", "word": "AB", "score": "4"}
        assert c.post(f"/games/{gid}/desk", data=slip).status_code == 503
    assert stored_events(site.db, gid) == last - 1


def test_slips_handed_in_within_a_second_walk_the_games_index_once_not_each(tmp_path: Path, monkeypatch) -> None:
    """The index walk grows with the game (150,000 events in a national game): a wave of slips must not walk it
    once each, only once per LOOK_S per game; what a write meets still answers 503 (the tests above)."""
    from arbitru.web import damage

    monkeypatch.setattr(damage, "LOOK_S", 3600.0)  # every slip of this test within one look's time
    site = make_site(tmp_path)
    gid = make_game(site)
    walks: list[str] = []
    real = Journal.game_damage
    monkeypatch.setattr(Journal, "game_damage", lambda self, g, **k: walks.append(g) or real(self, g, **k))
    c = site.client()
    for n, _name in PLAYERS:
        r = c.post(f"/api/games/{gid}/slips", json={"move": 1, "position": "H8", "word": "AB", "score": 4},
                   headers={"Authorization": f"Bearer {site.code(gid, n)}"})
        assert r.status_code == 201, r.text
    assert walks == [gid]  # the game's first request reads it through; the slips after it walk nothing


def test_finding_every_request_reads_a_national_game_through_when_its_minute_recheck_is_due(tmp_path: Path,
                                                                                           monkeypatch) -> None:
    """Once a minute a sound game is read through again (most of a second of Python for 150,000 events); every
    request arriving meanwhile read it through too, and a national move's slips waited 5-8 s; then the request
    that found it due read it, and the writes arriving meanwhile waited for that one. Now it is read aside, once,
    and no request waits for it; a first look, with no answer yet, waits for the one under way."""
    import threading
    import time

    from arbitru.web import damage

    site = make_site(tmp_path)
    gid = make_game(site)
    deep: list[str] = []
    paces: list[object] = []
    real = Journal.game_damage
    held, release = threading.Event(), threading.Event()

    def slow(self, g, **kw):
        if kw.get("deep"):
            deep.append(g)
            if kw.get("pace") is None:  # the first look
                time.sleep(0.3)
            else:  # the read-through aside, held until the requests are answered
                paces.append(kw["pace"])
                held.set()
                assert release.wait(30)
        return real(self, g, **kw)

    monkeypatch.setattr(Journal, "game_damage", slow)
    watch = damage.DamageWatch(site.db)

    def look(out: list[object]) -> None:
        with Journal(site.db) as j:
            out.append(watch.of(j, gid))

    def together(n: int) -> list[object]:
        out: list[object] = []
        threads = [threading.Thread(target=look, args=(out,)) for _ in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return out

    assert together(8) == [None] * 8 and deep == [gid]  # the first look: one reads, seven wait for its answer
    monkeypatch.setattr(damage, "RECHECK_SOUND_S", 0.0)  # the recheck is due
    assert together(8) == [None] * 8  # answered while the read-through is held: none waited for it
    assert held.wait(30) and not watch.read_through_ended(gid, 0)
    release.set()
    assert watch.read_through_ended(gid, 30)
    assert deep == [gid, gid]  # eight requests found it due: one read-through
    assert [type(p).__name__ for p in paces] == ["_Paced"]


def test_damaged_journal_found_by_the_read_through_aside_counts_from_its_end(tmp_path: Path, monkeypatch) -> None:
    """A sound game's minute read-through runs aside; the damage it finds is the game's answer once it ends: the
    next request is told, and a write would answer 503."""
    from arbitru.journal.store import GameDamage
    from arbitru.web import damage

    site = make_site(tmp_path)
    gid = make_game(site)
    watch = damage.DamageWatch(site.db)
    with Journal(site.db) as j:
        assert watch.of(j, gid) is None  # found sound once
        found = GameDamage(gid, detail="event 3's payload is damaged (not JSON)")
        real = Journal.game_damage
        monkeypatch.setattr(Journal, "game_damage",
                            lambda self, g, **kw: found if kw.get("deep") else real(self, g, **kw))
        monkeypatch.setattr(damage, "RECHECK_SOUND_S", 0.0)
        assert watch.of(j, gid) is None  # the request that found it due went on with its index walk
        assert watch.read_through_ended(gid, 30)
        monkeypatch.setattr(damage, "RECHECK_SOUND_S", 60.0)
        assert watch.of(j, gid) == found and watch.known(gid) == found


def test_damaged_journal_an_index_walk_finding_damage_during_a_read_through_answers_at_once(tmp_path: Path,
                                                                                           monkeypatch) -> None:
    """A request whose index walk finds the game damaged while a paced read-through (seconds) holds the game's
    reading is answered with the walk's damage at once, and remembered: a write then answers 503."""
    import threading

    from arbitru.journal.store import GameDamage
    from arbitru.web import damage

    site = make_site(tmp_path)
    gid = make_game(site)
    watch = damage.DamageWatch(site.db)
    found = GameDamage(gid, 1, 9)
    out: list[object] = []

    def look() -> None:
        with Journal(site.db) as j:
            out.append(watch.of(j, gid))

    with Journal(site.db) as j:
        assert watch.of(j, gid) is None  # found sound once
    monkeypatch.setattr(damage, "LOOK_S", 0.0)
    monkeypatch.setattr(Journal, "game_damage", lambda self, g, **kw: found)
    with watch._reading(gid):  # a read-through under way
        t = threading.Thread(target=look)
        t.start()
        t.join(30)
        assert not t.is_alive() and out == [found] and watch.known(gid) == found


def test_a_read_through_is_paced_to_its_share_of_the_worker(monkeypatch) -> None:
    """The read-through aside sleeps between its stretches (time.sleep lets the event loop run): RECHECK_SHARE
    of 0.1 is 9 s asleep for each second spent reading."""
    import types

    from arbitru.web import damage

    clock = iter([10.0, 10.2, 10.2, 10.25, 10.25])
    slept: list[float] = []
    monkeypatch.setattr(damage, "time", types.SimpleNamespace(thread_time=lambda: next(clock), sleep=slept.append))
    pace = damage._Paced(0.1)  # read starts at 10.0
    pace()  # 0.2 s read
    pace()  # 0.05 s read
    assert slept == pytest.approx([1.8, 0.45])


def test_damaged_journal_a_write_waits_for_the_look_under_way_never_goes_on_with_an_old_sound_answer(
        tmp_path: Path, monkeypatch) -> None:
    """A crowd of page reads shares one damage look and goes on with the game's last sound answer meanwhile; a
    write that arrives while that look is under way must wait for it: the look finds the game damaged, so the
    write answers 503 and stores nothing (it went on with the old answer and stored its slip)."""
    import asyncio
    import json
    import time

    from arbitru.web import damage

    site = make_site(tmp_path)
    gid = make_game(site)
    app = site.client_factory
    watch = app.state.web.damage  # type: ignore[attr-defined]
    with Journal(site.db, actor="desk:a") as j:
        Session(j, gid).store_slips([Slip(1, "1", "H8", "AB", 4)])
        Session(j, gid).store_slips([Slip(1, "2", "H8", "BA", 4)])
        assert watch.of(j, gid) is None  # found sound once
    con = sqlite3.connect(site.db)  # then an event is lost behind the server's back
    con.execute("DROP TRIGGER event_no_delete")
    (last,) = con.execute("SELECT MAX(seq) FROM event WHERE game_id = ?", (gid,)).fetchone()
    con.execute("DELETE FROM event WHERE game_id = ? AND seq = ?", (gid, last - 1))
    con.commit()
    con.close()
    monkeypatch.setattr(damage, "LOOK_S", 0.0)  # every request finds the look due
    real = watch.of

    def slow_look(j: Journal, game: str) -> object:
        time.sleep(0.4)  # a national game's index walk: the write arrives while it is under way
        return real(j, game)

    monkeypatch.setattr(watch, "of", slow_look)

    async def request(method: str, path: str, body: bytes = b"", headers: tuple[tuple[bytes, bytes], ...] = ()
                      ) -> int:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": [(b"host", b"testserver"), (b"content-length", str(len(body)).encode()), *headers],
                 "client": ("127.0.0.5", 5000), "server": ("testserver", 80), "state": {}}
        sent: list[dict[str, object]] = []

        async def receive() -> object:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, object]) -> None:
            sent.append(message)

        await app(scope, receive, send)  # type: ignore[operator]
        return int(sent[0]["status"])  # type: ignore[call-overload]

    async def read_then_write() -> tuple[int, int]:
        page = asyncio.ensure_future(request("GET", f"/games/{gid}/play"))  # starts the look
        await asyncio.sleep(0.1)
        slip = json.dumps({"move": 1, "position": "H8", "word": "AB", "score": 4}).encode()
        wrote = await request("POST", f"/api/games/{gid}/slips", slip,
                              ((b"authorization", f"Bearer {site.code(gid, '3')}".encode()),
                               (b"content-type", b"application/json")))
        return await page, wrote

    read, wrote = asyncio.run(read_then_write())
    assert read == 200  # a page is drawn under the banner
    assert wrote == 503
    assert stored_events(site.db, gid) == last - 1


def _paced_read_through_held(monkeypatch, reading: object, go_on: object) -> None:
    """The read-through aside pauses at its first pace (after its first event, its snapshot taken) until
    ``go_on`` is set; ``reading`` is set once it is there."""
    import threading

    from arbitru.journal import store
    from arbitru.web import damage

    assert isinstance(reading, threading.Event) and isinstance(go_on, threading.Event)
    real = damage._Paced
    monkeypatch.setattr(store, "PACE_EVENTS", 1)

    class Held(real):  # type: ignore[misc, valid-type]
        def __call__(self) -> None:
            reading.set()
            assert go_on.wait(30)

    monkeypatch.setattr(damage, "_Paced", Held)


def test_damaged_journal_found_by_an_index_walk_during_a_read_through_stays_found_when_that_read_ends(
        tmp_path: Path, monkeypatch) -> None:
    """An event deleted while a paced read-through reads the game (seconds; its snapshot taken before): a request's
    index walk finds it and the game answers 503; then the read-through ended, sound by its old snapshot, and put
    'sound' back over the walk's answer: for LOOK_S a write was stored into the damaged game without a look."""
    import threading

    from arbitru.web import damage

    site = make_site(tmp_path)
    gid = make_game(site)
    watch = damage.DamageWatch(site.db)
    reading, go_on = threading.Event(), threading.Event()
    with Journal(site.db) as j:
        assert watch.of(j, gid) is None  # found sound once
        _paced_read_through_held(monkeypatch, reading, go_on)
        monkeypatch.setattr(damage, "RECHECK_SOUND_S", 0.0)
        monkeypatch.setattr(damage, "LOOK_S", 0.0)
        assert watch.of(j, gid) is None  # starts the read-through aside; nothing damaged yet
        assert reading.wait(30)
        with closing(sqlite3.connect(site.db)) as con:
            con.execute("DROP TRIGGER event_no_delete")
            con.execute("DELETE FROM event WHERE game_id = ? AND seq = 2", (gid,))
            con.commit()
        found = watch.of(j, gid)  # the walk finds it while the read-through holds the game
        assert found is not None and found.missing == 1
        go_on.set()
        assert watch.read_through_ended(gid, 30)
        monkeypatch.setattr(damage, "LOOK_S", 60.0)
        monkeypatch.setattr(damage, "RECHECK_SOUND_S", 60.0)
        assert watch.known(gid) == found and not watch.sound_lately(gid)


def test_damaged_journal_a_failing_request_waits_no_paced_read_through(tmp_path: Path, monkeypatch) -> None:
    """A request failing with a journal error rechecks the game, or waits for the read-through under way: that one
    is now paced to a tenth of the worker (a national game: about ten seconds), and every failing request held a
    worker thread that long (forty of them: the worker's pool). A read-through someone waits for reads on unpaced."""
    import threading
    import time

    from arbitru.web import damage

    site = make_site(tmp_path)
    gid = make_game(site)
    watch = damage.DamageWatch(site.db)
    with Journal(site.db) as j:
        assert watch.of(j, gid) is None
        monkeypatch.setattr(damage, "RECHECK_SHARE", 1e-7)  # a pace that would sleep for ages
        from arbitru.journal import store
        monkeypatch.setattr(store, "PACE_EVENTS", 1)
        monkeypatch.setattr(damage, "RECHECK_SOUND_S", 0.0)
        assert watch.of(j, gid) is None  # the read-through aside starts
        time.sleep(0.2)
        assert not watch.read_through_ended(gid, 0)
        out: list[object] = []
        t = threading.Thread(target=lambda: out.append(watch.recheck(Journal(site.db), gid)), daemon=True)
        t.start()
        t.join(10)
        assert not t.is_alive() and out == [None]
        assert watch.read_through_ended(gid, 10)


def test_damaged_journal_a_read_through_whose_journal_will_not_open_is_tried_again_a_minute_later_not_every_look(
        tmp_path: Path, monkeypatch, caplog) -> None:
    """The read-through aside opens its own connection; when that fails (file permissions, no file descriptor
    left) it is logged and the game stays as last found. It was tried again at every look (every LOOK_S per game):
    a thread and a traceback in the log per game each second. Now a minute later (RECHECK_SOUND_S), as said."""
    import logging
    import time

    from arbitru.errors import JournalError
    from arbitru.web import damage

    site = make_site(tmp_path)
    gid = make_game(site)
    watch = damage.DamageWatch(site.db)
    opened: list[str] = []

    def refused(address: str, actor: str | None = None) -> Journal:
        opened.append(address)
        raise JournalError(f"cannot open journal {address}: permission denied")

    with Journal(site.db) as j:
        assert watch.of(j, gid) is None
        monkeypatch.setattr(damage, "Journal", refused)
        monkeypatch.setattr(damage, "LOOK_S", 0.0)
        monkeypatch.setattr(damage, "RECHECK_SOUND_S", 0.3)
        time.sleep(0.4)
        with caplog.at_level(logging.ERROR, "arbitru.web"):
            for _ in range(5):
                assert watch.of(j, gid) is None  # the requests go on, the game as last found
                assert watch.read_through_ended(gid, 10)
            assert len(opened) == 1 and "the read-through of game" in caplog.text
            time.sleep(0.4)
            assert watch.of(j, gid) is None and watch.read_through_ended(gid, 10)
            assert len(opened) == 2  # tried again, not fatal


def test_damaged_journal_a_read_through_that_cannot_start_its_thread_leaves_the_game_unlocked(
        tmp_path: Path, monkeypatch) -> None:
    """A worker out of threads ("can't start new thread"): the read-through took the game's reading lock, then
    never started the thread that releases it. The request failed, and from then on every request failing with a
    journal error on that game waited for the lock for ever (a worker thread lost each), and no read-through of
    the game ran again. Now the lock is given back and the next look tries again."""
    import threading
    import time

    from arbitru.web import damage

    site = make_site(tmp_path)
    gid = make_game(site)
    watch = damage.DamageWatch(site.db)
    real = threading.Thread

    class NoThread(real):  # type: ignore[misc, valid-type]
        def start(self) -> None:
            raise RuntimeError("can't start new thread")

    with Journal(site.db) as j:
        assert watch.of(j, gid) is None
        monkeypatch.setattr(damage, "RECHECK_SOUND_S", 0.0)
        monkeypatch.setattr(damage.threading, "Thread", NoThread)
        assert watch.of(j, gid) is None  # the request goes on, the game as last found
        monkeypatch.setattr(damage.threading, "Thread", real)
        assert watch.read_through_ended(gid, 10)
        out: list[object] = []
        t = real(target=lambda: out.append(watch.recheck(Journal(site.db), gid)), daemon=True)
        t.start()
        t.join(10)
        assert not t.is_alive() and out == [None]
        time.sleep(0.01)
        assert watch.of(j, gid) is None and watch.read_through_ended(gid, 10)


def test_read_throughs_aside_of_several_games_run_one_at_a_time_within_the_workers_tenth(tmp_path: Path,
                                                                                        monkeypatch) -> None:
    """Each game's read-through aside was paced to a tenth of the worker, and those of several games ran at once:
    ten games due in the same minute (or a stranger fetching a page of each listed game) took the whole worker.
    Now one read-through aside at a time per worker; a game found due meanwhile is read at a later look."""
    import threading

    from arbitru.web import damage

    site = make_site(tmp_path)
    first, second = make_game(site), make_game(site)
    watch = damage.DamageWatch(site.db)
    reading, go_on = threading.Event(), threading.Event()
    paced: list[str] = []
    real = Journal.game_damage

    def counted(self, g, **kw):
        if kw.get("pace") is not None:
            paced.append(g)
        return real(self, g, **kw)

    with Journal(site.db) as j:
        assert watch.of(j, first) is None and watch.of(j, second) is None
        _paced_read_through_held(monkeypatch, reading, go_on)
        monkeypatch.setattr(Journal, "game_damage", counted)
        monkeypatch.setattr(damage, "RECHECK_SOUND_S", 0.0)
        assert watch.of(j, first) is None and reading.wait(30)
        assert watch.of(j, second) is None  # due too, while the first game's read-through is under way
        assert watch.read_through_ended(second, 0) and paced == [first]
        go_on.set()
        assert watch.read_through_ended(first, 30)
        assert watch.of(j, second) is None and watch.read_through_ended(second, 30)
        assert paced == [first, second]
