"""Sessions ended on the server, the secret out of the journal, throttled
doors with their attempts listed for the arbiter, security headers on every route, the proxy setting, bounded
live connections. Each test is named after the finding it reproduces."""

from __future__ import annotations

import http.client
import os
import re
import socket
import stat
import warnings
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.routing import Mount, Route

from arbitru.cli import cli
from arbitru.formats.duplicate.game import Session
from arbitru.journal.store import Journal
from arbitru.web import auth, security
from arbitru.web.app import create_app
from web_server import running_server
from web_support import ARBITER_PASSWORD, csrf, login, make_game, make_site, post

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


class Clock:
    """The throttles' clock, moved by the test instead of waiting."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def throttled_site(tmp_path: Path, clock: Clock, **limits: float) -> TestClient:
    site = make_site(tmp_path)
    app = create_app(site.db, limits=security.Limits(clock=clock, **limits))  # type: ignore[arg-type]
    return TestClient(app, follow_redirects=False)


def try_login(c: TestClient, password: str, name: str = "arbiter") -> tuple[int, str, str]:
    r = c.post("/login", data={"csrf": csrf(c.get("/login").text), "name": name, "password": password})
    return r.status_code, r.headers.get("retry-after", ""), r.text


# --- sessions ---------------------------------------------------------------------------------------------


def test_finding_session_cookie_still_works_after_logout(tmp_path):
    site = make_site(tmp_path)
    c = site.client()
    login(c)
    stolen = c.cookies.get(auth.COOKIE)
    assert c.get("/games/new").status_code == 200
    post(c, "/logout", {}, "/")
    thief = TestClient(site.client_factory, follow_redirects=False, cookies={auth.COOKIE: stolen})  # type: ignore[arg-type]
    assert thief.get("/games/new").status_code == 401


def test_finding_session_cookie_still_works_after_the_arbiters_password_is_reset(tmp_path):
    site = make_site(tmp_path)
    c = site.client()
    login(c)
    assert c.get("/games/new").status_code == 200
    out = CliRunner().invoke(cli, ["arbiter", "password", "--db", site.db])
    assert out.exit_code == 0, out.output
    assert c.get("/games/new").status_code == 401
    login(c, password=out.output.strip())
    assert c.get("/games/new").status_code == 200


def test_login_issues_a_new_session_id_and_sessions_expire(tmp_path):
    site = make_site(tmp_path)
    c = site.client()
    c.get("/login")
    before = auth.unsign(site.secret, c.cookies.get(auth.COOKIE))
    login(c)
    after = auth.unsign(site.secret, c.cookies.get(auth.COOKIE))
    assert before is not None and after is not None and before.sid != after.sid and after.role == "arbiter"
    with Journal(site.db) as j:
        assert auth.live_session(j, after)
        assert not auth.live_session(j, after, now=10**10)  # past the absolute limit: ended, and forgotten
        assert not auth.live_session(j, after)


# --- the secret -------------------------------------------------------------------------------------------


def test_finding_secret_lies_in_the_journal_readable_by_every_user(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    path = Path(site.db + ".secret")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert bytes.fromhex(path.read_text().strip()) == site.secret
    with Journal(site.db) as j:
        assert j.execute("SELECT * FROM web_secret") == []
    assert site.secret.hex().encode() not in Path(site.db).read_bytes()
    out = CliRunner().invoke(cli, ["journal", "export", site.db, "--game", gid])
    assert out.exit_code == 0, out.output
    assert site.secret.hex() not in out.output
    target = str(tmp_path / "copy.db")
    out = CliRunner().invoke(cli, ["journal", "copy", site.db, target])
    assert out.exit_code == 0, out.output
    assert not Path(target + ".secret").exists()
    assert site.secret.hex().encode() not in Path(target).read_bytes()


def test_a_journal_made_by_the_old_code_keeps_its_secret_and_its_players_codes(tmp_path):
    db = str(tmp_path / "old.db")
    old = os.urandom(32)
    with Journal(db) as j:
        auth.ensure_schema(j)
        j.execute("INSERT INTO web_secret (name, value) VALUES ('server', ?)", (old.hex(),))
    with Journal(db) as j:
        assert auth.server_secret(j) == old
        assert j.execute("SELECT * FROM web_secret") == []
    assert stat.S_IMODE(Path(db + ".secret").stat().st_mode) == 0o600
    with Journal(db) as j:
        assert auth.server_secret(j) == old


def test_rotating_the_secret_is_refused_while_codes_are_in_use_and_ends_every_session(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    c = site.client()
    login(c)
    out = CliRunner().invoke(cli, ["arbiter", "rotate-secret", "--db", site.db])
    assert out.exit_code == 2 and "error:" in out.output and gid in out.output
    with Journal(site.db) as j:
        assert auth.server_secret(j) == site.secret
    assert c.get("/games/new").status_code == 200
    out = CliRunner().invoke(cli, ["arbiter", "rotate-secret", "--db", site.db, "--force"])
    assert out.exit_code == 0, out.output
    with Journal(site.db) as j:
        new = auth.server_secret(j)
    assert new != site.secret and auth.player_code(new, gid, "1") != site.code(gid, "1")
    assert stat.S_IMODE(Path(site.db + ".secret").stat().st_mode) == 0o600
    assert c.get("/games/new").status_code == 401  # the server still signs with the old one: its sessions ended
    with Journal(site.db, actor="arbiter") as j:
        Session(j, gid).end_game("the players' wish")
    out = CliRunner().invoke(cli, ["arbiter", "rotate-secret", "--db", site.db])
    assert out.exit_code == 0, out.output  # every game is over: no code in use


# --- throttles --------------------------------------------------------------------------------------------


def test_finding_logins_can_be_tried_as_fast_as_the_server_answers(tmp_path):
    clock = Clock()
    c = throttled_site(tmp_path, clock, free=3, lock_after=8, delay=2.0, max_delay=30.0, lock=600.0)
    burst = [try_login(c, f"guess-{i}") for i in range(50)]
    assert [s for s, _, _ in burst[:4]] == [401] * 4
    assert {(s, wait) for s, wait, _ in burst[4:]} == {(429, "2")}  # slowed: refused unseen
    # the patient guesser, waiting each time: the delay grows, then the account and the address lock
    waits = []
    while True:
        status, wait, _ = try_login(c, "another-guess")
        if status == 429:
            waits.append(int(wait))
            if int(wait) >= 600:
                break
            clock.now += int(wait)
    assert waits == [2, 4, 8, 16, 600]
    # locked: the right password too, and another account from the same address; one message for all
    status, _, text = try_login(c, ARBITER_PASSWORD)
    assert status == 429 and "too many failed attempts" in text
    assert try_login(c, "x" * 9, name="nobody")[0] == 429
    # a wrong account and a wrong password say the same before the lock
    other = TestClient(c.app, follow_redirects=False, client=("192.0.2.7", 1))
    assert try_login(other, "wrong-pass", name="nobody")[2].count("wrong name or password") == 1
    # issue 29: the lock is this client's, never the account's: from elsewhere the arbiter still gets in
    assert try_login(other, "wrong-pass", name="arbiter")[0] == 401
    assert try_login(other, ARBITER_PASSWORD)[0] == 303
    clock.now += 600
    assert try_login(c, ARBITER_PASSWORD)[0] == 303
    page = c.get("/security")
    assert page.status_code == 200
    assert page.text.count('<tr class="attempt">') == 8 + 2  # the failures looked at; refusals unseen are not
    assert "testclient" in page.text and "192.0.2.7" in page.text and "locked for 600 s" in page.text
    # the account's count alerts
    assert re.search(r'<tr class="alert"><td[^>]*>login:arbiter</td><td[^>]*>9</td>', page.text)
    assert 'href="/security"' in c.get("/").text


def test_finding_player_codes_can_be_tried_as_fast_as_the_server_answers(tmp_path):
    clock = Clock()
    site = make_site(tmp_path)
    gid = make_game(site)
    app = create_app(site.db, limits=security.Limits(clock=clock, free=3, lock_after=6, lock=300.0))
    c = TestClient(app, follow_redirects=False)
    page = c.get(f"/games/{gid}/play").text
    statuses = [c.post(f"/games/{gid}/join", data={"csrf": csrf(page), "code": f"WRONG{i}"}).status_code
                for i in range(10)]
    assert statuses[:4] == [401] * 4 and set(statuses[4:]) == {429}
    api = TestClient(app, follow_redirects=False, client=("198.51.100.4", 1))
    bearer = [api.post(f"/api/games/{gid}/slips", json={"move": 1, "position": "H8", "word": "AB", "score": 4},
                       headers={"Authorization": f"Bearer WRONG{i}"}) for i in range(6)]
    assert [r.status_code for r in bearer[:4]] == [401] * 4 and bearer[5].status_code == 429
    assert bearer[5].headers["retry-after"]
    clock.now += 300
    right = site.code(gid, "1")
    assert c.post(f"/games/{gid}/join", data={"csrf": csrf(page), "code": right}).status_code == 303
    login(c)
    text = c.get("/security").text
    assert "not a player&#39;s code" in text and "198.51.100.4" in text and f"game {gid}" in text


def test_finding_forty_logins_at_once_hash_a_bounded_number_at_a_time(tmp_path, monkeypatch):
    import threading

    running = [0, 0]
    lock = threading.Lock()
    real = auth.hashlib.scrypt

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        try:
            return real(*args, **kwargs)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(auth.hashlib, "scrypt", counting)
    site = make_site(tmp_path)
    threads = [threading.Thread(target=lambda: try_login(site.client(), "wrong-pass")) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert 1 <= running[1] <= auth.HASHERS


# --- headers, proxies, live connections --------------------------------------------------------------------


def test_security_headers_on_every_route(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    c = TestClient(site.client_factory, follow_redirects=False, raise_server_exceptions=False)  # type: ignore[arg-type]
    login(c)
    seen = 0
    for route in c.app.routes:  # type: ignore[attr-defined]
        assert isinstance(route, Route | Mount)
        if route.path.endswith("/events"):
            continue  # a stream: checked with the live limit below
        values = defaultdict(lambda: "x", gid=gid, player="1", what="slips")  # other ids: an unknown one
        url = route.path.format_map(values) + ("/app.css" if isinstance(route, Mount) else "")
        methods = getattr(route, "methods", None) or {"GET"}
        r = c.post(url, data={}) if "GET" not in methods else c.get(url)
        seen += 1
        policy = dict(d.strip().split(" ", 1) for d in r.headers["content-security-policy"].split(";"))
        assert policy["script-src"] == "'self'" and policy["frame-ancestors"] == "'none'", url
        assert r.headers["x-content-type-options"] == "nosniff", url
        assert r.headers["referrer-policy"] == "same-origin", url
    assert seen > 30
    assert "content-security-policy" in c.get("/no/such/page").headers


def test_the_proxy_header_is_ignored_unless_the_proxy_is_trusted(tmp_path):
    site = make_site(tmp_path)
    for trusted, shown in (((), "203.0.113.1"), (("203.0.113.0/24",), "192.0.2.44")):
        app = create_app(site.db, limits=security.Limits(trusted_proxies=trusted))
        c = TestClient(app, follow_redirects=False, client=("203.0.113.1", 4000))
        r = c.post("/login", data={"csrf": csrf(c.get("/login").text), "password": f"wrong {trusted}"},
                   headers={"X-Forwarded-For": "10.9.9.9, 192.0.2.44"})
        assert r.status_code == 401
        with Journal(site.db) as j:
            assert security.attempts(j, 1)[0]["client"] == shown
    scope = {"client": ("10.0.0.1", 1), "headers": [(b"x-forwarded-for", b"1.2.3.4, 10.0.0.2")]}
    assert security.client_address(scope, security.Limits(trusted_proxies=("10.0.0.0/8",))) == "1.2.3.4"
    assert security.client_address(scope, security.Limits()) == "10.0.0.1"
    out = CliRunner().invoke(cli, ["serve", "--db", site.db, "--trust-proxy", "not-an-address"])
    assert out.exit_code == 2 and "--trust-proxy" in out.output


def test_a_forwarded_hop_too_long_for_an_address_is_answered_never_remembered():
    """The answers about client addresses are remembered (16,384 of them): a hop of ``X-Forwarded-For`` is any text
    up to ``--max-header``, so 16,384 hops of 16 KB each would have held 256 MB a worker, twice over. A text longer
    than any address is answered (no address: the proxy's own is kept) and not remembered; addresses still are."""
    limits = security.Limits(trusted_proxies=("10.0.0.0/8",))
    garbage = "9" * 16_000
    before = security._parsed.cache_info().currsize
    for hops in (garbage, f"{garbage}, 10.0.0.2", f"1.2.3.4, {garbage}"):
        scope = {"client": ("10.0.0.1", 1), "headers": [(b"x-forwarded-for", hops.encode())]}
        assert security.client_address(scope, limits) == "10.0.0.1"
    assert garbage not in limits._trusted
    assert all(len(a) <= 64 for a in limits._trusted)
    assert security._parsed.cache_info().currsize == before
    scope = {"client": ("10.0.0.1", 1), "headers": [(b"x-forwarded-for", b"2001:db8:0:0:0:0:0:1, 10.0.0.2")]}
    assert security.client_address(scope, limits) == "2001:db8::1"
    assert limits._trusted == {"10.0.0.1": True, "10.0.0.2": True, "2001:db8:0:0:0:0:0:1": False}


def test_finding_the_session_cookie_is_sent_over_plain_http_behind_a_tls_proxy(tmp_path):
    """Behind nginx with TLS the session cookie lacked ``Secure``: a browser would send it over plain HTTP too."""
    site = make_site(tmp_path)
    proxied = {"X-Forwarded-Proto": "https"}

    def cookie(trusted=(), base_url="", client_url="http://testserver", headers=None):
        """The visitor's first cookie and, when the client talks HTTPS itself, the arbiter's after his login."""
        app = create_app(site.db, base_url=base_url, limits=security.Limits(trusted_proxies=trusted))
        c = TestClient(app, base_url=client_url, follow_redirects=False, client=("203.0.113.1", 4000))
        page = c.get("/login", headers=headers or {})
        cookies = [page.headers["set-cookie"].lower()]
        if client_url.startswith("https"):  # a Secure cookie comes back only over HTTPS
            r = c.post("/login", data={"csrf": csrf(page.text), "password": ARBITER_PASSWORD})
            assert r.status_code == 303
            cookies.append(r.headers["set-cookie"].lower())
        return cookies

    secure = [cookie(client_url="https://testserver"), cookie(("203.0.113.0/24",), headers=proxied)]
    assert len(secure[0]) == 2 and all("; secure" in c and "httponly" in c for cs in secure for c in cs)
    # plain HTTP; the header from a peer that is no proxy; the arbiter at the server itself, reaching a worker
    # over plain HTTP while the phones use the published HTTPS address
    for plain in (cookie(), cookie(headers=proxied), cookie(base_url="https://scrabble.example.org")):
        assert "; secure" not in plain[0]


def test_one_client_cannot_hold_every_live_connection(tmp_path):
    site = make_site(tmp_path)
    gid = make_game(site)
    limit = security.Limits().live_per_client
    with running_server(site.db) as base:
        port = int(base.rsplit(":", 1)[1])
        held = []

        def open_live(source: str) -> http.client.HTTPResponse:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
            conn.request("GET", f"/games/{gid}/events")
            held.append(conn)
            return conn.getresponse()

        try:
            for _ in range(limit):
                r = open_live("127.0.0.1")
                assert r.status == 200 and r.readline().startswith(b"retry:")
            refused = open_live("127.0.0.1")
            assert refused.status == 429 and refused.getheader("retry-after")
            other = open_live("127.0.0.2")  # another address still gets in
            assert other.status == 200
        finally:
            for conn in held:
                if conn.sock is not None:
                    conn.sock.shutdown(socket.SHUT_RDWR)
                conn.close()


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore", DeprecationWarning)


def test_the_main_pages_report_no_content_security_policy_violation(tmp_path):
    """Every script is a file (no inline <script>, no on*= handler): htmx, the clock, the phone's live grid and
    the language choice work under the policy, and the browser reports no violation."""
    from playwright.sync_api import sync_playwright

    from test_web_browser import ARGS, CHROMIUM, OUTPUT
    from web_anticipation_support import create_game

    site = make_site(tmp_path)
    gid = make_game(site)
    setup = site.client()
    login(setup)
    ant = create_game(site, setup)
    pages = ["/", "/login", f"/games/{gid}", f"/games/{gid}/screen", f"/games/{gid}/results", "/security",
             f"/games/{ant}", f"/games/{ant}/slips", f"/games/{ant}/screen", "/train", "/api", "/anticipation"]
    phone_pages = [f"/games/{gid}/play", f"/games/{ant}/play"]
    with running_server(site.db) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            ctx = browser.new_context(base_url=base)
            ctx.add_init_script(
                "window.__csp = []; document.addEventListener('securitypolicyviolation',"
                " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
            page = ctx.new_page()
            console: list[str] = []
            page.on("console", lambda m: console.append(m.text))
            page.goto("/login")
            page.fill("input[name=password]", "a-wrong-guess")
            page.click("form[action='/login'] button")
            page.wait_for_selector("#password-error")
            page.fill("input[name=password]", ARBITER_PASSWORD)
            page.click("button[type=submit], form[action='/login'] button")
            page.wait_for_url(base + "/")
            seen = {}
            for url in pages:
                page.goto(url)
                page.wait_for_load_state("networkidle")
                seen[url] = page.evaluate("window.__csp")
                if url == "/security":
                    OUTPUT.mkdir(exist_ok=True)
                    page.screenshot(path=str(OUTPUT / "security.png"), full_page=True)
            phone = browser.new_context(base_url=base, viewport={"width": 360, "height": 740})
            phone.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation',"
                                  " e => window.__csp.push(e.violatedDirective));")
            tab = phone.new_page()
            tab.on("console", lambda m: console.append(m.text))
            for url, code in zip(phone_pages, (site.code(gid, "1"), site.code(ant, "Ana")), strict=True):
                tab.goto(url)
                tab.fill("input[name=code]", code)
                tab.locator("input[name=code]").press("Enter")
                tab.wait_for_url(re.compile(r"/play"))
                tab.wait_for_load_state("networkidle")
                seen[url] = tab.evaluate("window.__csp")
                assert tab.evaluate("typeof htmx") == "object", url
            tab.goto(f"/games/{ant}/play")
            tab.select_option("select[name=lang]", "ro")  # the language choice submits itself (no onchange=)
            tab.wait_for_url(re.compile(r"lang=ro"))
        finally:
            browser.close()
    assert {url: v for url, v in seen.items() if v} == {}
    assert [m for m in console if "Content Security Policy" in m] == []


def test_sessions_throttles_and_the_secret_on_postgresql(pg_server):
    """The same tables on PostgreSQL (several workers share them): the secret in its table, never in a file,
    a session ended by logout, a throttle counted and locked."""
    dsn = pg_server.new_database()
    clock = Clock()
    app = create_app(dsn, limits=security.Limits(clock=clock, free=1, lock_after=3, lock=100.0))
    with Journal(dsn, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        secret = auth.server_secret(j)
        assert auth.secret_file(j) is None
        assert j.execute("SELECT value FROM web_secret") == [(secret.hex(),)]
    c = TestClient(app, follow_redirects=False)
    login(c)
    kept = c.cookies.get(auth.COOKIE)
    assert c.get("/security").status_code == 200
    post(c, "/logout", {}, "/")
    thief = TestClient(app, follow_redirects=False, cookies={auth.COOKIE: kept})
    assert thief.get("/security").status_code == 401
    statuses = []
    for _ in range(3):
        clock.now += 10  # past each delay: counted, not refused unseen
        statuses.append(try_login(c, "wrong-pass")[0])
    assert statuses == [401, 401, 401] and try_login(c, ARBITER_PASSWORD)[:2] == (429, "100")
    clock.now += 100
    login(c)
    with Journal(dsn, actor="arbiter") as j:
        assert len(security.attempts(j)) == 3
        new = auth.rotate_secret(j)  # no game: no code in use
        assert new != secret and j.execute("SELECT count(*) FROM web_session") == [(0,)]


#: the month of 27 November 2026 as each language's page writes it (never the ISO "2026-11-27")
NOVEMBER = {"ro": "nov.", "en": "Nov", "el": "Νοε", "fr": "nov."}


@pytest.mark.parametrize("lang", ["ro", "en", "el", "fr"])
def test_security_page_times_in_the_pages_language(tmp_path, lang):
    """The failed attempts' and the alerts' times were written "2026-11-27 12:05:12" on every page: each is written
    as the page's language writes a day and its time (Babel's, by the project's ``moment`` filter), to the second."""
    import datetime

    from arbitru import figures

    clock = Clock()
    clock.now = datetime.datetime(2026, 11, 27, 12, 5, 12, tzinfo=datetime.UTC).timestamp()
    c = throttled_site(tmp_path, clock, free=5, lock_after=10)
    for i in range(10):  # an account's failures over every client alert the arbiter (Limits.alert_at)
        other = TestClient(c.app, follow_redirects=False, client=(f"192.0.2.{i + 1}", 1))
        assert try_login(other, f"guess-{i}")[0] == 401
    login(c)
    page = c.get(f"/security?lang={lang}").text
    assert f'<html lang="{lang}">' in page
    local = datetime.datetime.fromtimestamp(clock.now)  # the server's clock, as the page reads it
    written = figures.moment(local, lang, seconds=True)
    assert NOVEMBER[lang] in written and local.strftime("%M:%S") in written and "2026-11-27" not in written
    times = re.findall(r'<tr class="attempt"><td class="when"[^>]*>([^<]*)</td>', page)
    assert len(times) == 10 and {html_text(t) for t in times} == {written}, times[:2]
    (last,) = re.findall(r'<tr class="alert"><td[^>]*>login:arbiter</td><td[^>]*>10</td>'
                         r'<td class="when"[^>]*>([^<]*)</td>', page)
    assert html_text(last) == written
    assert "2026-11-27" not in page


def html_text(text: str) -> str:
    import html

    return html.unescape(text)
