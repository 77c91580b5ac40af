"""Live pages at scale: a slip wakes only the pages it concerns, an unknown game's
live events answer 404, and pages read the game from a state kept by journal position (no replay per request)."""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from arbitru.formats.duplicate.game import Session
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from web_server import free_port, running_server
from web_support import (
    LEXICON,
    PLAYERS,
    Site,
    csrf,
    login,
    make_game,
    make_site,
    own_lines,
    phone_after_a_close,
    post,
)


def _client(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, follow_redirects=False, timeout=20)


def _join(c: httpx.Client, gid: str, code: str) -> None:
    token = csrf(c.get(f"/games/{gid}/play").text)
    assert c.post(f"/games/{gid}/join", data={"csrf": token, "code": code}).status_code == 303


@contextmanager
def _listening(c: httpx.Client, gid: str) -> Iterator[queue.Queue[int]]:
    """The seqs of the ``changed`` notices this client's page receives, as they come (a real SSE stream)."""
    seqs: queue.Queue[int] = queue.Queue()
    opened = threading.Event()

    def read() -> None:
        try:
            with c.stream("GET", f"/games/{gid}/events", timeout=None) as r:
                assert r.status_code == 200
                opened.set()
                for line in r.iter_lines():
                    if line.startswith("data: "):
                        seqs.put(int(line[6:]))
        except httpx.HTTPError:
            pass  # the server stops at the end of the test

    threading.Thread(target=read, daemon=True).start()
    assert opened.wait(20)
    yield seqs


def _post(c: httpx.Client, page: str, url: str, data: dict[str, str]) -> None:
    r = c.post(url, data={"csrf": csrf(c.get(page).text), **data})
    assert r.status_code == 303, r.text


def test_a_slip_from_one_phone_wakes_the_arbiter_and_no_other_phone(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    with running_server(site.db) as base:
        arbiter, one, two = _client(base), _client(base), _client(base)
        login(arbiter)  # type: ignore[arg-type]
        _join(one, gid, site.code(gid, "1"))
        _join(two, gid, site.code(gid, "2"))
        with _listening(arbiter, gid) as staff, _listening(one, gid) as own, _listening(two, gid) as other:
            _post(one, f"/games/{gid}/play", f"/games/{gid}/slip", {"position": "H8", "word": "ABC", "score": "7"})
            slip = site.events(gid, "slip")[-1].seq
            assert staff.get(timeout=20) == slip  # the arbiter's page is told of the hand-in …
            assert own.get(timeout=20) == slip  # … and so is the phone whose slip it is
            _post(arbiter, f"/games/{gid}", f"/games/{gid}/clock", {"action": "start"})
            clock = site.events(gid, "clock")[-1].seq
            # the other phone's first notice is the clock's: the slip, told to the others before, never reached it
            assert other.get(timeout=20) == clock > slip
            assert staff.get(timeout=20) == clock


def test_live_events_of_an_unknown_game_answer_404_without_holding_a_connection(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    with running_server(site.db) as base, _client(base) as c:
        r = c.get("/games/no-such-game/events")
        assert r.status_code == 404
        with c.stream("GET", f"/games/{gid}/events") as live:
            assert live.status_code == 200 and live.headers["content-type"].startswith("text/event-stream")


def test_standings_reloaded_without_a_change_replay_no_game(tmp_path, monkeypatch):
    from arbitru.formats.duplicate import game as game_module

    site = make_site(tmp_path)
    gids = [make_game(site, moves=2) for _ in range(3)]
    c = site.client()
    login(c)
    for gid in gids:  # one move closed in each game (slips missing: confirmed), so each has results
        assert post(c, f"/games/{gid}/close", {}, f"/games/{gid}").status_code == 303  # type: ignore[attr-defined]
    replays: list[str] = []
    real = game_module.replay
    monkeypatch.setattr(game_module, "replay", lambda gid, *a, **k: replays.append(gid) or real(gid, *a, **k))
    first = c.get("/standings")
    assert first.status_code == 200 and "Ana" in first.text
    replays.clear()
    assert c.get("/standings").text == first.text
    assert c.get(f"/games/{gids[0]}/results/live").status_code == 200
    assert replays == []
    # a new event in one game: that game is folded forward from its kept state, still no replay
    token = csrf(c.get(f"/games/{gids[0]}").text)
    assert c.post(f"/games/{gids[0]}/draw", data={"csrf": token}).status_code == 303
    assert c.get("/standings").status_code == 200
    assert replays == []


def test_phone_fragments_draw_the_hall_once_per_journal_position_and_each_player_once(tmp_path, monkeypatch):
    from arbitru.web.house import Web

    site = make_site(tmp_path)
    gid = make_game(site)
    phones = {}
    for n in ("1", "2"):
        phones[n] = site.client()
        token = csrf(phones[n].get(f"/games/{gid}/play").text)
        r = phones[n].post(f"/games/{gid}/join", data={"csrf": token, "code": site.code(gid, n)})
        assert r.status_code == 303
    from arbitru.web import phone_lines

    rendered: list[str] = []
    own: list[str] = []
    real, real_own = Web.render_text, phone_lines.own_html
    monkeypatch.setattr(Web, "render_text",
                        lambda self, r, name, **k: rendered.append(name) or real(self, r, name, **k))
    monkeypatch.setattr(phone_lines, "own_html",
                        lambda words, game, lines, drawn=None: own.append(lines["player"].number)
                        or real_own(words, game, lines, drawn))
    first = phones["1"].get(f"/games/{gid}/play/live").text
    assert phones["1"].get(f"/games/{gid}/play/live").text == first  # the same position: the same part
    other = phones["2"].get(f"/games/{gid}/play/live").text
    assert "Ana" in first and "Bo" in other and 'class="rack' in other
    # the hall drawn once for every phone; per phone only its own lines, drawn from memory (not kept: each phone
    # asks once per change, and ten thousand kept parts would each hold the hall)
    assert rendered == ["duplicate/_play_hall.html"] and own == ["1", "1", "2"]


@contextmanager
def _stream(c: httpx.Client, url: str) -> Iterator[queue.Queue[tuple[str, str]]]:
    """The events a page's stream receives at ``url``, as (name, data: its lines joined) when each ends."""
    got: queue.Queue[tuple[str, str]] = queue.Queue()
    opened = threading.Event()

    def read() -> None:
        try:
            with c.stream("GET", url, timeout=None) as r:
                assert r.status_code == 200
                opened.set()
                name, data = "message", []
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("data: "):
                        data.append(line[6:])
                    elif not line and data:
                        got.put((name, "\n".join(data)))
                        name, data = "message", []
        except httpx.HTTPError:
            pass

    threading.Thread(target=read, daemon=True).start()
    assert opened.wait(20)
    yield got


def test_a_phone_asking_for_pushes_gets_its_own_live_part_on_its_stream_and_no_other_refetch(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    with running_server(site.db) as base:
        arbiter, one, two, visitor = _client(base), _client(base), _client(base), _client(base)
        login(arbiter)  # type: ignore[arg-type]
        _join(one, gid, site.code(gid, "1"))
        _join(two, gid, site.code(gid, "2"))
        page = one.get(f"/games/{gid}/play").text
        assert f'data-events="/games/{gid}/events?push=play&amp;lang=' in page and "data-pushed" in page
        url = f"/games/{gid}/events?push=play&lang=es"
        with _stream(one, url) as first, _stream(two, url) as second, _stream(visitor, url) as public, \
                _stream(one, f"/games/{gid}/events?push=nothing") as unknown:
            _post(arbiter, f"/games/{gid}", f"/games/{gid}/clock", {"action": "start"})
            seq = site.events(gid, "clock")[-1].seq
            name, html = first.get(timeout=20)
            # the fragment the refetch would have fetched, in the language the stream asked for
            assert name == "live" and html == one.get(f"/games/{gid}/play/live?lang=es").text.replace("\r", "")
            assert "Ana" in html and "Bo" not in html
            name, html = second.get(timeout=20)
            assert name == "live" and "Bo" in html and "Ana" not in html  # each phone its own part
            # a page that is no phone of this game, or names no known fragment, is told to refetch
            assert public.get(timeout=20) == ("changed", str(seq))
            assert unknown.get(timeout=20) == ("changed", str(seq))


def _close(arbiter: httpx.Client, gid: str) -> None:
    """The arbiter closes the move, confirming it when slips are missing (web/confirm.py)."""
    data = {"csrf": csrf(arbiter.get(f"/games/{gid}").text)}
    r = arbiter.post(f"/games/{gid}/close", data=data)
    offered = re.search(r'name="confirm" value="([A-Za-z0-9_-]{20,})"', r.text) if r.status_code == 200 else None
    if offered is not None:
        r = arbiter.post(f"/games/{gid}/close", data={**data, "confirm": offered.group(1)})
    assert r.status_code == 303, r.text


def _slips(site: Site, gid: str) -> dict[str, tuple[str, str]]:
    """Two phones' slips for the open move, as they write them: Ana one of the rack's legal moves, Bo a word off
    his rack at another square (position, word)."""
    with Journal(site.db) as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(LEXICON, "en")
        best = s.candidates()[0].describe(s.game.rules.notation).split(" ")
    return {"1": (best[0], best[1]), "2": ("A1" if best[0] != "A1" else "O15", "ZZZZ")}


def test_fise_5_each_phone_gets_its_own_verdict_pushed_and_no_other_players_slip(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    slips = _slips(site, gid)
    with running_server(site.db) as base:
        arbiter, one, two = _client(base), _client(base), _client(base)
        login(arbiter)  # type: ignore[arg-type]
        _join(one, gid, site.code(gid, "1"))
        _join(two, gid, site.code(gid, "2"))
        for n, (position, word) in slips.items():
            r = httpx.post(f"{base}/api/games/{gid}/slips", json={"move": 1, "position": position, "word": word},
                           headers={"Authorization": f"Bearer {site.code(gid, n)}"}, timeout=20)
            assert r.status_code == 201 and r.json()["stored"], r.text
        url = f"/games/{gid}/events?push=play&lang=en"
        with _stream(one, url) as first, _stream(two, url) as second:
            _close(arbiter, gid)  # Cleo has no slip: the close is confirmed
            seq = site.events(gid, "master")[-1].seq
            for stream, me, other in ((first, "1", "2"), (second, "2", "1")):
                name, html = stream.get(timeout=20)
                while name == "live" and 'class="master"' not in html:  # a part of an earlier position
                    name, html = stream.get(timeout=20)
                assert name == "live", (name, html)
                mine, theirs = slips[me], slips[other]
                assert 'id="verdicts"' in html, html
                verdicts = html[html.index('id="verdicts"'):]
                assert f"<tr><td>1</td><td>{mine[0]} {mine[1]}" in verdicts  # its own line on the move
                assert f"{theirs[0]} {theirs[1]}" not in html and theirs[1] not in verdicts
                # the same part its refetch gets, at the close's position
                assert html == (one if me == "1" else two).get(f"/games/{gid}/play/live?lang=en").text.replace("\r", "")
            assert int(site.events(gid)[-1].seq) >= seq


@contextmanager
def _serving(app: Any) -> Iterator[str]:
    """The app served by uvicorn in a thread of this process (what the test changes in the app, it serves)."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_phone_whose_pushed_part_fails_is_told_to_refetch_and_keeps_listening(tmp_path, monkeypatch):
    from arbitru.web.routes import duplicate

    site = make_site(tmp_path)
    gid = make_game(site)
    failed: list[str] = []
    real = duplicate.Phones.part

    def part(self: duplicate.Phones, player: str) -> str:
        if player == "2" and not failed:  # Bo's part fails once (a fault of its drawing)
            failed.append(player)
            raise RuntimeError("drawing Bo's part failed")
        return real(self, player)

    monkeypatch.setattr(duplicate.Phones, "part", part)
    with _serving(site.client_factory) as base:
        arbiter, one, two = _client(base), _client(base), _client(base)
        login(arbiter)  # type: ignore[arg-type]
        _join(one, gid, site.code(gid, "1"))
        _join(two, gid, site.code(gid, "2"))
        url = f"/games/{gid}/events?push=play&lang=en"
        with _stream(one, url) as first, _stream(two, url) as second:
            _post(arbiter, f"/games/{gid}", f"/games/{gid}/clock", {"action": "start"})
            seq = site.events(gid, "clock")[-1].seq
            assert first.get(timeout=20)[0] == "live"
            assert second.get(timeout=20) == ("changed", str(seq))  # told to fetch it again
            assert failed == ["2"]
            refetched = two.get(f"/games/{gid}/play/live?lang=en")
            assert refetched.status_code == 200 and "Bo" in refetched.text
            # its stream is still open: the next change is pushed to it as to the others
            _post(arbiter, f"/games/{gid}", f"/games/{gid}/clock", {"action": "pause"})
            name, html = second.get(timeout=20)
            assert name == "live" and "Bo" in html and "Ana" not in html


def test_fise_5_a_phones_page_and_its_live_part_draw_the_same_own_lines_escaped(tmp_path):
    """The own lines are drawn once in Python for both the page and the pushed/refetched part
    (:mod:`arbitru.web.phone_lines`): the same receipt and verdicts in both, a player's name written as text."""
    site = make_site(tmp_path)
    gid, phone, written = phone_after_a_close(site, "Ana <b>&amp;</b>")
    page = phone.get(f"/games/{gid}/play").text
    live = phone.get(f"/games/{gid}/play/live").text
    assert own_lines(page) == live.strip()
    assert "Ana &lt;b&gt;&amp;amp;&lt;/b&gt;" in live and "<b>&amp;</b>" not in live
    assert written in live and 'id="verdicts"' in live and 'id="receipt"' in live
    assert "ZZ" not in live  # the other phone's slip is never in this one's lines


def test_a_crowd_of_phones_after_a_quiet_minute_asks_for_its_games_sessions_once(tmp_path, monkeypatch):
    """Phones refetching once their worker's trust ran out: one question for every open session of the game (not
    one read and one write per phone); a session closed on the server is not believed."""
    from arbitru.web import auth

    site = make_site(tmp_path)
    gid = make_game(site, players=(("1", "Ana"), ("2", "Bo"), ("3", "Cleo")))
    phones = {}
    for n in ("1", "2", "3"):
        phones[n] = site.client()
        token = csrf(phones[n].get(f"/games/{gid}/play").text)
        assert phones[n].post(f"/games/{gid}/join", data={"csrf": token, "code": site.code(gid, n)}).status_code == 303
    web = site.client_factory.state.web
    asked: list[str] = []
    real = auth.live_player_sessions
    monkeypatch.setattr(auth, "live_player_sessions",
                        lambda j, game, now=None: asked.append(game) or real(j, game, now))
    # the third phone's session ends on the server (another device took its place, say)
    cookie = phones["3"].cookies.get(auth.COOKIE)
    assert cookie
    third = auth.unsign(site.secret, cookie)
    assert third is not None
    with Journal(site.db, actor="arbiter") as j:
        auth.close_session(j, third)
    web.players_seen.clear()  # a quiet minute: the worker believes no session any more
    for n, name in (("1", "Ana"), ("2", "Bo")):
        live = phones[n].get(f"/games/{gid}/play/live")
        assert live.status_code == 200 and name in live.text
    assert asked == [gid]
    assert "Cleo" not in phones["3"].get(f"/games/{gid}/play/live").text


async def _asgi_get(app: Any, path: str, cookie: str = "") -> tuple[int, str]:
    """A GET straight into the app in this event loop (many at once, as a crowd of phones sends them)."""
    headers = [(b"host", b"testserver")] + ([(b"cookie", cookie.encode())] if cookie else [])
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.5", 5000), "server": ("testserver", 80), "state": {}}
    sent: list[Any] = []

    async def receive() -> Any:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return int(sent[0]["status"]), b"".join(m.get("body", b"") for m in sent[1:]).decode()


def test_a_crowd_of_requests_on_a_game_whose_damage_look_is_due_shares_one_look(tmp_path, monkeypatch):
    """A thousand phones refetching at once, a second after the game was last looked at: one look at its
    journal for damage (:class:`arbitru.web.damage.DamageGuard`), not one per request in the worker threads."""
    import asyncio

    from arbitru.web import damage

    site = make_site(tmp_path)
    gid = make_game(site)
    app: Any = site.client_factory
    watch = app.state.web.damage
    with Journal(site.db) as j:
        assert watch.of(j, gid) is None  # found sound once
    monkeypatch.setattr(damage, "LOOK_S", 0.0)  # every request finds the look due
    looks: list[str] = []
    real = watch.of

    def slow_look(j: Journal, game: str) -> Any:
        looks.append(game)
        time.sleep(0.3)  # a national game's index walk: the crowd arrives while it is under way
        return real(j, game)

    monkeypatch.setattr(watch, "of", slow_look)

    async def crowd() -> list[tuple[int, str]]:
        return await asyncio.gather(*(_asgi_get(app, f"/games/{gid}/play") for _ in range(50)))

    assert [status for status, _ in asyncio.run(crowd())] == [200] * 50
    assert looks == [gid]


def test_a_pages_wait_ends_at_its_deadline_and_a_change_wakes_it_before(monkeypatch):
    """Each open stream waits for the game's next change or its keep-alive deadline; the deadlines are kept in
    a heap per event loop, so the loop's sweep wakes only the waits that are due."""
    import asyncio

    from arbitru.web import live

    monkeypatch.setattr(live, "SWEEP_S", 0.05)

    async def run() -> None:
        pub = live.LocalPublisher(interval=0.0)
        quiet, told, gone = pub.subscribe("h"), pub.subscribe("g"), pub.subscribe("g")
        t0 = time.monotonic()
        waits = [asyncio.create_task(s.next(t)) for s, t in ((quiet, 0.3), (told, 5.0), (gone, 0.2))]
        await asyncio.sleep(0.1)
        gone.close()
        pub.publish("other", 3)  # another game's change wakes none of them
        await asyncio.sleep(0.05)
        assert not any(w.done() for w in waits)
        pub.publish("g", 7)
        assert await waits[1] == 7 and time.monotonic() - t0 < 1.0
        assert await waits[0] is None and 0.3 <= time.monotonic() - t0 < 1.0
        assert not waits[2].done()  # a closed page's wait is nobody's to end
        waits[2].cancel()
        quiet.close()
        told.close()

    asyncio.run(run())


def test_fise_5_a_crowd_of_phones_refetching_after_the_position_went_stale_asks_the_journal_once(tmp_path,
                                                                                            monkeypatch):
    """Phones refetching their live part when the worker's knowledge of the game's position is older than
    POSITION_S: one question to the journal for all of them, each then answered its own verdict from memory
    (no draw in a request thread per phone)."""
    import asyncio

    from arbitru.web import auth
    from arbitru.web.routes import duplicate

    site = make_site(tmp_path)
    gid = make_game(site)
    app: Any = site.client_factory
    web = app.state.web
    cookies = {}
    for n in ("1", "2", "3"):
        phone = site.client()
        token = csrf(phone.get(f"/games/{gid}/play").text)
        assert phone.post(f"/games/{gid}/join", data={"csrf": token, "code": site.code(gid, n)}).status_code == 303
        cookies[n] = f"{auth.COOKIE}={phone.cookies.get(auth.COOKIE)}"
        assert phone.get(f"/games/{gid}/play/live").status_code == 200  # the shared part is computed
    asked: list[str] = []
    real = Journal.last_seq
    monkeypatch.setattr(Journal, "last_seq", lambda j, game: asked.append(game) or real(j, game))
    web._positions.clear()  # the position is older than POSITION_S
    drawn: list[str] = []
    monkeypatch.setattr(duplicate.phone_live, "draw",
                        lambda request: drawn.append("x") or duplicate.phone_draw(request))

    async def crowd() -> list[tuple[int, str]]:
        return await asyncio.gather(*(_asgi_get(app, f"/games/{gid}/play/live", cookies[n])
                                      for n in ("1", "2", "3") * 10))

    answers = asyncio.run(crowd())
    assert [status for status, _ in answers] == [200] * 30
    for (_, html), n in zip(answers, ("1", "2", "3") * 10, strict=True):
        name = dict(PLAYERS)[n]
        assert name in html and not any(other in html for other in dict(PLAYERS).values() if other != name)
    assert asked == [gid] and drawn == []


def test_fise_5_the_consoles_grid_judges_a_slip_many_players_wrote_once(tmp_path, monkeypatch):
    """The arbiter's grid of a 10,000-player game is drawn at each change: the same move written by many
    players is judged once (a hall's phones write the same few moves), each row keeping its own slip, the rows
    written alike reading one verdict (``Game.judged``: no copy a row)."""
    from arbitru.formats.duplicate import game as game_module
    from arbitru.formats.duplicate.slips import Slip
    from arbitru.web import views

    site = make_site(tmp_path)
    gid = make_game(site)
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(LEXICON, "en")
        best = s.candidates()[0].describe(s.game.rules.notation).split(" ")
        s.add_slips([Slip(1, n, best[0], best[1], int(best[2])) for n in ("1", "2")]
                    + [Slip(1, "3", best[0], best[1], int(best[2]) + 1)])
        judged: list[str] = []
        real = game_module.judge
        monkeypatch.setattr(game_module, "judge",
                            lambda slip, *a, **k: judged.append(slip.player) or real(slip, *a, **k))
        rows = views.grid(s, views.slips_entered(site.client_factory.state.web, j, gid, s.game.last_seq,
                                                 s.game.move))
    assert judged == ["1", "3"]  # player 2 wrote what player 1 wrote; player 3 another score
    assert [r["slip"].player for r in rows] == ["1", "2", "3"]
    assert rows[1]["verdict"] is rows[0]["verdict"] and rows[2]["verdict"] is not rows[0]["verdict"]
    # a wrong declared score is noted, the engine's counts (FISE-6)
    assert [r["verdict"].score for r in rows] == [int(best[2])] * 3 and rows[2]["verdict"].notes


def test_fise_5_the_slips_entered_are_kept_for_the_open_move_only_and_show_its_replacements(tmp_path):
    """The receipts and the console's grid show the open (or last) move's slips, each with those it replaced
    (FISE-5): what the worker keeps of the slips entered is that move's, not every move's (late in a national game,
    eleven moves of ten thousand slips copied at each position), and it still shows every replacement, read on
    from the position before or from the start."""
    from arbitru.formats.duplicate.slips import Slip
    from arbitru.web import views
    from arbitru.web.app import create_app
    from web_support import TEST_LISTS

    site = make_site(tmp_path)
    gid = make_game(site, draw=False)
    web = site.client_factory.state.web  # type: ignore[attr-defined]
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(LEXICON, "en")
        for _ in range(3):
            s.draw()
            position, word, score = s.candidates()[0].describe(s.game.rules.notation).split(" ")
            move = s.game.move
            s.add_slips([Slip(move, n, "A1", "ZZ", 3) for n in ("1", "2")])
            s.add_slips([Slip(move, "1", position, word, int(score))], replace=True)
            seen = views.slips_entered(web, j, gid, s.game.last_seq, move)  # read on from the move before's
            s.place_master()
            s.close_collection()
        g = s.game
        for entered in (seen, views.slips_entered(web, j, gid, g.last_seq, g.move)):
            events, history = entered
            assert {m for m, _ in events} == {m for m, _ in history} == {3}
            assert [slip.word for _, slip in history[(3, "1")]] == ["ZZ", word]
            assert [slip.word for _, slip in history[(3, "2")]] == ["ZZ"]
        # read from the start, as another worker does
        fresh = create_app(site.db, test_lists=TEST_LISTS).state.web
        assert views.slips_entered(fresh, j, gid, g.last_seq, g.move) == entered
        rows = views.grid(s, views.slips_entered(web, j, gid, g.last_seq, g.move))
    assert [(r["slip"].word, [o.word for o in r["others"]]) for r in rows[:2]] == [(word, ["ZZ"]), ("ZZ", [])]


def test_fise_5_a_phone_asking_the_position_just_after_the_crowds_answer_takes_it_not_a_new_question(tmp_path,
                                                                                                 monkeypatch):
    """A phone of a refetching crowd that found the position unknown just before the crowd's one question was
    answered, and asks just after: it takes that answer (the crowd's test above asked the journal twice now and
    then on a loaded machine)."""
    site = make_site(tmp_path)
    gid = make_game(site)
    web = site.client_factory.state.web  # type: ignore[attr-defined]
    asked: list[str] = []
    real = Journal.last_seq
    monkeypatch.setattr(Journal, "last_seq", lambda j, game: asked.append(game) or real(j, game))
    web._positions.clear()  # the position is older than POSITION_S
    assert web.known_position(gid) is None  # the late phone looks: unknown
    first = web.asked_position(gid).result(timeout=10)  # the crowd's question, answered meanwhile
    assert web.asked_position(gid).result(timeout=10) == first  # the late phone asks
    assert asked == [gid]


def test_a_worker_ready_to_serve_compiles_no_template_at_its_first_close(tmp_path):
    """A server's worker is made ready before its first request (:func:`arbitru.web.app.ready_to_serve`): no
    template is compiled, and no language's catalog or figure signs read, while a close's phones wait (a national
    game's worker paid about half a second of them at its first close); the garbage collector walks less."""
    import gc

    from arbitru import figures
    from arbitru.web.app import SERVING_GC, create_app, ready_to_serve

    app = create_app(tmp_path / "warm.db")
    w = app.state.web
    figures.symbols.cache_clear()
    thresholds = gc.get_threshold()
    try:
        ready_to_serve(app)
        # what the worker loaded is out of the collector's walks, and it collects less often while serving
        assert gc.get_freeze_count() > 0 and gc.get_threshold() == SERVING_GC
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    compiled: list[str] = []
    original = w.templates.compile
    w.templates.compile = lambda source, name=None, *a, **k: compiled.append(name) or original(source, name, *a, **k)
    names = w.templates.list_templates(extensions=["html"])
    for name in names:
        w.templates.get_template(name)
    assert "duplicate/_play_hall.html" in names and "duplicate/_grid.html" in names
    assert compiled == []
    assert figures.symbols.cache_info().currsize == len(figures.LANGUAGES)


def test_a_phone_sending_any_language_value_starts_no_more_shared_work_than_the_languages_spoken(tmp_path):
    """The phones' shared part is a job per position and language the pages speak: a phone sending a thousand
    made-up ``?lang=`` values queues no thousand jobs ahead of the hall's phones (nor keeps a thousand answers)."""
    from arbitru.web.i18n import LANGUAGES

    site = make_site(tmp_path)
    gid, phone, _ = phone_after_a_close(site, "Ana")
    web = site.client_factory.state.web  # type: ignore[attr-defined]
    ran: list[object] = []
    real = web.started

    def started(game_id, seq, key, job):  # type: ignore[no-untyped-def]
        ran.append(key)
        return real(game_id, seq, key, job)

    web.started = started
    asked = [f"x{i}" for i in range(200)] + [*LANGUAGES, "", "EN", "en-GB"]
    for lang in asked:
        assert phone.get(f"/games/{gid}/play/live", params={"lang": lang}).status_code == 200
    kept = {key for seq, memo in web._memo.values() for key in memo if isinstance(key, tuple) and key[0] == "phones"}
    assert {k[1] for k in ran} <= {*LANGUAGES, None}, set(ran)
    assert len(kept) <= 2 * (len(LANGUAGES) + 1), kept  # the started jobs and the parts they made, per language


def test_fise_18_a_state_folded_forward_owns_its_players_the_kept_one_is_unchanged(tmp_path):
    """The worker folds a kept state forward on a copy (``house._copy_state``): a seat changed in the copy (a
    withdrawal, FISE-18) leaves the state kept for the earlier position as it was; slips are shared (frozen)."""
    from arbitru.web.house import _copy_state

    site = make_site(tmp_path)
    gid = make_game(site, players=(("1", "Ana"), ("2", "Bo")))
    with Journal(site.db) as j:
        kept = Session(j, gid).game
    folded = _copy_state(kept)
    assert folded.players == kept.players and type(folded.players["1"]) is type(kept.players["1"])
    folded.players["1"].withdrawn_after = 1
    folded.players["2"].name = "Bo Changed"
    assert kept.players["1"].withdrawn_after is None and kept.players["2"].name == "Bo"
    assert folded.slips is not kept.slips and all(folded.slips[k] is kept.slips[k] for k in kept.slips)


def _opening(c: httpx.Client, url: str, last: str | bytes | None, wait: float) -> str:
    """What a stream sends within ``wait`` seconds of opening, reconnecting with ``last`` as its Last-Event-ID."""
    got: list[str] = []

    def read() -> None:
        try:
            with c.stream("GET", url, headers={} if last is None else {"Last-Event-ID": last}, timeout=None) as r:
                assert r.status_code == 200
                for text in r.iter_text():
                    got.append(text)
        except httpx.HTTPError:
            pass

    threading.Thread(target=read, daemon=True).start()
    time.sleep(wait)
    return "".join(got)


def test_fise_5_a_phone_reconnecting_after_a_change_gets_its_part_at_once_and_none_when_nothing_changed(tmp_path):
    """A stream opens with the game's position as its id and every event carries its seq as its id: a phone whose
    stream was lost (a network blip) reconnects with the last as Last-Event-ID and gets its own part pushed at once
    when the game moved on meanwhile (no refetch, no second connection), nothing when it did not; a page with no
    pushed part is told ``changed``; a Last-Event-ID that is no seq is a first opening."""
    site = make_site(tmp_path)
    gid = make_game(site, players=(("1", "Ana"), ("2", "Bo")))
    with running_server(site.db) as base:
        arbiter, one = _client(base), _client(base)
        login(arbiter)  # type: ignore[arg-type]
        _join(one, gid, site.code(gid, "1"))
        url = f"/games/{gid}/events?push=play&lang=en"
        before = site.events(gid)[-1].seq
        assert _opening(one, url, None, 1.0) == f"retry: 2000\nid: {before}\n\n"
        with _stream(one, url) as stream:  # told while listening: the event's id is its seq
            _post(arbiter, f"/games/{gid}", f"/games/{gid}/clock", {"action": "start"})
            now = site.events(gid)[-1].seq
            name, html = stream.get(timeout=20)
            assert name == "live" and "Ana" in html
        # the blip: the clock paused while the phone was away
        _post(arbiter, f"/games/{gid}", f"/games/{gid}/clock", {"action": "pause"})
        paused = site.events(gid)[-1].seq
        assert paused > now
        resumed = _opening(one, url, str(now), 2.0)
        assert resumed.startswith(f"retry: 2000\nevent: live\nid: {paused}\ndata: "), resumed[:200]
        assert "Ana" in resumed and "Bo" not in resumed
        assert resumed.replace("\ndata: ", "\n").split("\n", 3)[3].rstrip("\n") == \
            one.get(f"/games/{gid}/play/live?lang=en").text.replace("\r", "").rstrip("\n")
        # nothing changed since: nothing told, the position to resume from
        assert _opening(one, url, str(paused), 1.0) == f"retry: 2000\nid: {paused}\n\n"
        # a page with no pushed part (a spectator's) is told to refetch, also when it left the game further on (a
        # journal brought back from a copy); an id that is no seq resumes nothing
        visitor = _client(base)
        for left in (before, paused + 100):
            assert _opening(visitor, f"/games/{gid}/events", str(left), 1.0) == \
                f"retry: 2000\nevent: changed\nid: {paused}\ndata: {paused}\n\n"
        for hostile in ("x", "-1", "9" * 40, "١٢".encode(), "1e3", ""):
            assert _opening(visitor, f"/games/{gid}/events", hostile, 0.5) == f"retry: 2000\nid: {paused}\n\n"
