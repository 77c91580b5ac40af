"""Issue 29: hard to knock over. The server as shipped (``arbitru serve``, over real HTTP from several loopback
addresses of 127.0.0.0/8, bounded in count and time): nobody locks the arbiter or a player out from elsewhere;
parallel wrong codes get no more looks than serial ones; bodies, headers and connections are limited at the door;
the smaller findings, each with its hostile request."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest

from arbitru.journal import training
from arbitru.journal.store import Journal
from arbitru.web import auth, forms, security
from arbitru.web.routes import season
from web_server import free_port
from web_support import ARBITER_PASSWORD, TEST_LISTS, Site, make_game, make_site

#: the bound of every network wait here (seconds)
WAIT = 30


@contextmanager
def shipped(db: str, *options: str) -> Iterator[int]:
    """``arbitru serve`` itself, as an operator starts it, on a free port; yields the port."""
    port = free_port()
    env = {**os.environ, "ARBITRU_WEB_TEST_LISTS": ",".join(TEST_LISTS)}
    proc = subprocess.Popen([sys.executable, "-m", "arbitru", "serve", "--db", db, "--port", str(port), *options],
                            env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + WAIT
        while True:
            assert proc.poll() is None, "the server exited"
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/static/app.css", timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Door:
    """The module's one ``arbitru serve`` (its default limits) over one site, shared by the tests that need no
    option of their own: each has its own game and loopback addresses, so no throttle of one meets another's."""

    def __init__(self, site: Site, port: int) -> None:
        self.site, self.port = site, port

    @contextmanager
    def serving(self) -> Iterator[int]:
        yield self.port


@pytest.fixture(scope="module")
def door(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Door]:
    site = make_site(tmp_path_factory.mktemp("door"))
    with shipped(site.db) as port:
        yield Door(site, port)


class Browser:
    """One client at one loopback address, keeping its cookies (the session, the device)."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source = port, source
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
                ) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT, source_address=(self.source, 0))
        try:
            sent = dict(headers or {})
            if self.cookies:
                sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            conn.request(method, path, body=body, headers=sent)
            r = conn.getresponse()
            text = r.read().decode("utf-8", "replace")
            for name, value in r.getheaders():
                if name.lower() == "set-cookie":
                    k, _, v = value.split(";", 1)[0].partition("=")
                    self.cookies[k.strip()] = v.strip()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, text
        finally:
            conn.close()

    def form(self, path: str, page: str, fields: dict[str, str]) -> tuple[int, dict[str, str], str]:
        _, _, html = self.request("GET", page)
        token = html.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        body = urllib.parse.urlencode({"csrf": token, **fields}).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def login(self, password: str, name: str = "arbiter") -> int:
        return self.form("/login", "/login", {"name": name, "password": password})[0]


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def server_pid(port: int) -> int:
    """The process listening on ``port`` (the server), from /proc/net/tcp and the processes' sockets."""
    hexport = f"{port:04X}"
    inodes = set()
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            cols = line.split()
            if cols[1].endswith(":" + hexport) and cols[3] == "0A":
                inodes.add(cols[9])
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}").strip("socket:[]") in inodes:
                    return int(pid)
        except OSError:
            continue
    raise AssertionError("no process listens on the port")


def patiently(attempt: Callable[[], tuple[int, str]]) -> int:
    """Fail, waiting out each Retry-After, until the wait is 8 s at least (1 + 2 + 4 s of waiting): the
    patient guesser of the issue, whose wait then outlasts the requests that follow."""
    while True:
        status, wait = attempt()
        if status == 429:
            if int(wait) >= 8:
                return int(wait)
            time.sleep(int(wait))


def wrong_login(b: Browser) -> tuple[int, str]:
    status, headers, _ = b.form("/login", "/login", {"name": "arbiter", "password": "guess"})
    return status, headers.get("retry-after", "")


# --- item 1: throttles nobody can turn against the people they protect ---------------------------------------


def test_issue_29_a_stranger_elsewhere_locks_out_neither_the_arbiter_nor_a_player(door):
    site = door.site
    gid = make_game(site)
    with door.serving() as port:
        stranger = Browser(port, "127.0.0.5")

        def api(b: Browser, code: str) -> tuple[int, str]:
            slip = json.dumps({"move": 1, "position": "H8", "word": "AB", "score": 4}).encode()
            status, headers, _ = b.request("POST", f"/api/games/{gid}/slips", slip,
                                           {"Authorization": f"Bearer {code}", "Content-Type": "application/json"})
            return status, headers.get("retry-after", "")

        # the stranger, waiting, gets nothing even with the right password or a right code
        patiently(lambda: wrong_login(stranger))
        assert stranger.login(ARBITER_PASSWORD) == 429
        patiently(lambda: api(stranger, "WRONG123"))
        assert api(stranger, site.code(gid, "3"))[0] == 429
        assert stranger.form(f"/games/{gid}/join", f"/games/{gid}/play", {"code": site.code(gid, "3")})[0] == 429
        # the arbiter, from his own address, with the right password, gets in at once
        arbiter = Browser(port, "127.0.0.9")
        assert arbiter.login(ARBITER_PASSWORD) == 303
        # a player, from another, joins with his code; the API takes another's slip with his
        player = Browser(port, "127.0.0.10")
        assert player.form(f"/games/{gid}/join", f"/games/{gid}/play", {"code": site.code(gid, "2")})[0] == 303
        assert api(Browser(port, "127.0.0.11"), site.code(gid, "1"))[0] == 201
        # the arbiter sees who tried and who waits
        _, _, page = arbiter.request("GET", "/security")
        assert "127.0.0.5" in page and "login:arbiter@127.0.0.5" in page and f"code:{gid}@127.0.0.5" in page
        assert not re.search(r"127\.0\.0\.(9|10)\b", page)


def test_issue_29_a_device_that_got_in_before_is_not_locked_out_from_its_own_network(door):
    with door.serving() as port:
        arbiter = Browser(port, "127.0.0.20")
        assert arbiter.login(ARBITER_PASSWORD) == 303
        assert auth.DEVICE_COOKIE in arbiter.cookies
        arbiter.form("/logout", "/", {})
        # a stranger behind the same address (the hall's NAT) fails until the address must wait
        stranger = Browser(port, "127.0.0.20")
        patiently(lambda: wrong_login(stranger))
        # the arbiter's browser, remembered, still gets in; a new browser at that address waits
        assert arbiter.login(ARBITER_PASSWORD) == 303
        assert Browser(port, "127.0.0.20").login(ARBITER_PASSWORD) == 429
        # a forged device cookie is a new browser
        forged = Browser(port, "127.0.0.20")
        forged.cookies[auth.DEVICE_COOKIE] = arbiter.cookies[auth.DEVICE_COOKIE][:-3] + "AAA"
        assert forged.login(ARBITER_PASSWORD) == 429


def test_issue_29_parallel_wrong_codes_from_one_address_get_no_more_looks_than_serial_ones(door):
    site = door.site
    gid = make_game(site)
    free = security.Limits().free
    with door.serving() as port:
        slip = json.dumps({"move": 1, "position": "H8", "word": "AB", "score": 4}).encode()

        def api(i: int, source: str) -> int:
            return Browser(port, source).request(
                "POST", f"/api/games/{gid}/slips", slip,
                {"Authorization": f"Bearer WRONG{i:03d}", "Content-Type": "application/json"})[0]

        def ready(source: str) -> Callable[[int], int]:
            """A join form fetched (its session and token), to be sent later."""
            b = Browser(port, source)
            page = b.request("GET", f"/games/{gid}/play")[2]
            token = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]

            def send(i: int) -> int:
                body = urllib.parse.urlencode({"csrf": token, "code": f"WRONG{i:03d}"}).encode()
                return b.request("POST", f"/games/{gid}/join", body,
                                 {"Content-Type": "application/x-www-form-urlencoded"})[0]

            return send

        def looks(statuses: list[int], seconds: float) -> int:
            """The codes looked at (401); refused unseen (429) the others. The first ``free`` failures cost
            nothing, the next earns a 1 s wait: a burst within that second gets ``free + 1`` looks, whether sent
            one by one or all at once; a longer one at most one more per second waited out."""
            assert set(statuses) == {401, 429}, statuses
            n = statuses.count(401)
            assert n == free + 1 if seconds < 1 else free + 1 <= n <= free + 1 + int(seconds), (n, seconds)
            return n

        start = time.monotonic()
        serial = [api(i, "127.0.0.30") for i in range(40)]
        counted = {"127.0.0.30": looks(serial, time.monotonic() - start)}
        with ThreadPoolExecutor(40) as pool:
            start = time.monotonic()
            parallel_api = list(pool.map(lambda i: api(i, "127.0.0.31"), range(40)))
            counted["127.0.0.31"] = looks(parallel_api, time.monotonic() - start)
            sends = [ready("127.0.0.32") for _ in range(40)]
            start = time.monotonic()
            parallel_join = list(pool.map(lambda i: sends[i](i), range(40)))
            counted["127.0.0.32"] = looks(parallel_join, time.monotonic() - start)
        with Journal(site.db) as j:
            assert dict(j.execute("SELECT client, count(*) FROM web_attempt WHERE client LIKE '127.0.0.3_' "
                                  "GROUP BY client")) == counted


# --- item 3: limits at the door ----------------------------------------------------------------------------


def test_issue_29_a_200_mb_body_is_refused_before_it_is_read(door):
    site = door.site
    gid = make_game(site)
    with door.serving() as port:
        pid = server_pid(port)
        before = rss_kb(pid)

        def send(path: str, declared: bool) -> tuple[int, int]:
            """200 MB streamed in 1 MB chunks; how much went before the answer, and its status."""
            sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=("127.0.0.40", 0))
            kind = "application/json" if path.startswith("/api/") else "application/x-www-form-urlencoded"
            head = (f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {kind}\r\n"
                    + ("Content-Length: 209715200\r\n" if declared else "Transfer-Encoding: chunked\r\n")
                    + "Authorization: Bearer X\r\n\r\n")
            sock.sendall(head.encode())
            chunk = b"x" * (1 << 20)
            sent = 0
            try:
                for _ in range(200):
                    sock.sendall(chunk if declared else b"100000\r\n" + chunk + b"\r\n")
                    sent += 1
            except OSError:  # the server closed: it read no further
                pass
            answer = sock.recv(4096).decode("latin-1")
            sock.close()
            return int(answer.split()[1]), sent

        for path in (f"/api/games/{gid}/slips", "/login", f"/games/{gid}/join"):
            for declared in (True, False):
                status, sent = send(path, declared)
                # declared: 413 unread; chunked: 413 at the server's limit, or the form's field past its longest
                assert status in ((413,) if declared or path.startswith("/api/") else (400, 413)), (path, status)
                assert sent < 200, (path, declared, status, sent)
        grown = rss_kb(pid) - before
        assert grown < 40 * 1024, f"the server grew by {grown} kB"  # flat: not the 1.2 GB it was sent


def test_issue_29_a_2_mb_header_is_refused_and_trickled_headers_are_cut(tmp_path):
    site = make_site(tmp_path)
    with shipped(site.db, "--header-timeout", "2") as port:
        sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=("127.0.0.50", 0))
        # header lines in 1 MB sends, up to 200 MB: the kernel's buffers (tcp_rmem reaches 32 MB) take some
        # megabytes whatever the server does, so only a server that stopped reading ends it well before 200
        lines = (b"X-Big: " + b"a" * 1016 + b"\r\n") * 1024
        sent = 0
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            for _ in range(200):
                sock.sendall(lines)
                sent += 1
        except OSError:  # the server closed: it read no further
            pass
        answer = sock.recv(4096)
        sock.close()
        assert answer.startswith(b"HTTP/1.1 431") and sent < 200, sent
        # 30 connections trickling a byte a second: all closed within the header timeout
        trickling = []
        for _ in range(30):
            s = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=("127.0.0.51", 0))
            s.sendall(b"GET / HTTP/1.1\r\n")
            trickling.append(s)
        start = time.monotonic()
        closed: set[int] = set()
        while len(closed) < len(trickling) and time.monotonic() - start < 10:
            for i, s in enumerate(trickling):
                if i in closed:
                    continue
                try:
                    s.sendall(b"X")
                except OSError:
                    closed.add(i)
            time.sleep(0.5)
        assert len(closed) == len(trickling) and time.monotonic() - start < 6
        for s in trickling:
            s.close()
        # a normal request still gets its answer
        assert Browser(port, "127.0.0.52").request("GET", "/")[0] == 200


def test_issue_29_open_connections_per_client_address_are_capped(tmp_path):
    site = make_site(tmp_path)
    with shipped(site.db, "--connections-per-client", "40") as port:
        held = []
        try:
            for _ in range(40):
                s = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=("127.0.0.60", 0))
                held.append(s)
            time.sleep(0.3)
            extra = socket.create_connection(("127.0.0.1", port), timeout=WAIT, source_address=("127.0.0.60", 0))
            assert extra.recv(4096).startswith(b"HTTP/1.1 503")
            extra.close()
            # another address is served meanwhile
            assert Browser(port, "127.0.0.61").request("GET", "/")[0] == 200
        finally:
            for s in held:
                s.close()
        time.sleep(0.3)
        assert Browser(port, "127.0.0.60").request("GET", "/")[0] == 200  # freed when they close


def test_issue_29_limits_that_disagree_are_refused_at_start(tmp_path):
    site = make_site(tmp_path)
    out = subprocess.run([sys.executable, "-m", "arbitru", "serve", "--db", site.db, "--port", str(free_port()),
                          "--live-per-client", "64", "--connections-per-client", "64"],
                         capture_output=True, text=True, timeout=WAIT)
    assert out.returncode != 0 and "--live-per-client 64 must be below --connections-per-client 64" in out.stderr


def test_issue_29_the_registry_import_takes_what_the_docs_say_and_refuses_more_in_the_pages_language(tmp_path):
    # the limits agree: the largest import fits the form's budget, the budget the server's body limit
    assert forms.form_budget({"csv": season.MAX_CSV}) <= security.Limits().max_body
    site = make_site(tmp_path)
    with shipped(site.db) as port:
        arbiter = Browser(port, "127.0.0.70")
        assert arbiter.login(ARBITER_PASSWORD) == 303
        rows = ["name,club"] + [f"Jucător Ștefănescu {i},Clubul Științific" for i in range(1, 100_000)]
        text = "\n".join(rows)
        text = text[: season.MAX_CSV].rsplit("\n", 1)[0]
        assert season.MAX_CSV - 100 < len(text) <= season.MAX_CSV
        status, _, page = arbiter.form("/registry/import?lang=ro", "/registry?lang=ro", {"csv": text + "x" * 200})
        assert status == 400 and "prea lung: cel mult 2000000 caractere" in page.split("import-error")[-1]
        # a body larger than the form can need: refused from its Content-Length, unread, in the page's language
        _, _, html = arbiter.request("GET", "/registry?lang=ro")
        token = html.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT, source_address=("127.0.0.70", 0))
        conn.putrequest("POST", "/registry/import?lang=ro")
        conn.putheader("Cookie", "; ".join(f"{k}={v}" for k, v in arbiter.cookies.items()))
        conn.putheader("Content-Type", "application/x-www-form-urlencoded")
        conn.putheader("Content-Length", str(forms.form_budget({"csv": season.MAX_CSV}) + 1))
        conn.endheaders(f"csrf={token}&csv=".encode())  # the rest never sent: the answer comes without it
        r = conn.getresponse()
        page = r.read().decode()
        conn.close()
        assert r.status == 413 and "formularul este prea mare" in page.split("import-error")[-1], r.status
        status, _, page = arbiter.form("/registry/import", "/registry", {"csv": text})
        assert status == 303, page.split("import-error")[-1][:600]
        with Journal(site.db) as j:
            registered = j.execute("SELECT payload FROM event WHERE kind = 'registered'")
        assert sum(len(json.loads(p)["players"]) for (p,) in registered) == len(text.splitlines()) - 1


# --- item 4: the smaller findings -----------------------------------------------------------------------------


def test_issue_29_the_journal_is_created_readable_by_its_owner_only(tmp_path):
    db = tmp_path / "fresh.sqlite"
    with Journal(str(db), actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    for side in tmp_path.glob("fresh.sqlite-*"):
        assert stat.S_IMODE(side.stat().st_mode) & 0o077 == 0, side


def test_issue_29_the_api_refuses_an_empty_slip_and_a_reused_key_with_another_slip(door):
    site = door.site
    gid = make_game(site)
    with door.serving() as port:
        b = Browser(port, "127.0.0.80")

        def send(data: dict[str, object], key: str = "") -> tuple[int, dict[str, object]]:
            headers = {"Authorization": f"Bearer {site.code(gid, '1')}", "Content-Type": "application/json"}
            if key:
                headers["Idempotency-Key"] = key
            status, _, text = b.request("POST", f"/api/games/{gid}/slips", json.dumps(data).encode(), headers)
            return status, json.loads(text)

        status, body = send({"move": 1, "position": "", "word": "", "score": 4})
        assert status == 400 and body["field"] == "position" and "write the position and the word" in str(body)
        first, body = send({"move": 1, "position": "H8", "word": "AB", "score": 4}, "k-1")
        assert first == 201
        again, same = send({"move": 1, "position": "H8", "word": "AB", "score": 4}, "k-1")
        assert again == 201 and same["seq"] == body["seq"]  # a retry: the first receipt
        other, refused = send({"move": 1, "position": "H8", "word": "ABC", "score": 9}, "k-1")
        assert other == 422 and refused["field"] == "key" and refused["stored"] is False
        assert "another slip" in str(refused["error"])
    slips = [e for e in site.events(gid, "slip")]
    assert len(slips) == 1


def test_issue_29_bidi_and_line_separators_are_refused_at_the_door(door):
    site = door.site
    gid = make_game(site)
    with door.serving() as port:
        b = Browser(port, "127.0.0.81")
        for word in ("AB\u202eBA", "AB\u2028", "A\u2066B\u2069"):
            data = json.dumps({"move": 1, "position": "H8", "word": word, "score": 4}).encode()
            status, _, text = b.request("POST", f"/api/games/{gid}/slips", data,
                                        {"Authorization": f"Bearer {site.code(gid, '1')}"})
            assert status == 400 and json.loads(text)["field"] == "word", text
        # the registry's names too (they reach the exports)
        arbiter = Browser(port, "127.0.0.82")
        assert arbiter.login(ARBITER_PASSWORD) == 303
        status, _, _ = arbiter.form("/registry/import", "/registry",
                                    {"csv": "name,club\nAna\u202eLUC,Club\u2028X\n"})
        assert status == 422
    assert site.events(gid, "slip") == []
    with Journal(site.db) as j:
        assert not [r for r in j.execute("SELECT payload FROM event") if "\u202e" in str(r[0])]


def test_issue_29_no_page_shows_the_journals_path(door):
    site = door.site
    folder = os.path.dirname(site.db)  # the journal's folder, never to be shown
    with door.serving() as port:
        b = Browser(port, "127.0.0.90")
        found = []
        for path in ("/games/ANT1", "/games/ANT1/play", "/games/ANT1/screen", "/games/ANT1/results",
                     "/api/games/ANT1", "/games/ANT1/events", "/train/ANT1", "/train/anticipation/ANT1",
                     "/games/ANT1/results.pdf", "/tournaments/ANT1"):
            status, _, text = b.request("GET", path)
            if folder in text or ".sqlite" in text or "web.db" in text:
                found.append((path, status, text[:200]))
        # a visitor's own training game, gone from the training store (kept 7 days): no path either
        status, headers, _ = b.form("/train/anticipation", "/train/anticipation", {"variant": "classic"})
        assert status == 303
        gid = headers["location"].split("?")[0].rsplit("/", 1)[1]
        with training.open_store(training.store_address(site.db), "arbiter") as store:
            assert training.prune(store, time.time() + 30 * 86400) == [gid]
        status, _, text = b.request("GET", f"/train/anticipation/{gid}")
        assert status == 404 and f"no game &#39;{gid}&#39;" in text
        if folder in text or ".sqlite" in text:
            found.append((gid, status, text[:200]))
        assert found == []


def test_issue_29_a_player_door_in_the_arbiters_browser_keeps_his_session(door):
    site = door.site
    gid = make_game(site)
    with door.serving() as port:
        arbiter = Browser(port, "127.0.0.100")
        assert arbiter.login(ARBITER_PASSWORD) == 303
        status, _, page = arbiter.form(f"/games/{gid}/join", f"/games/{gid}/play", {"code": site.code(gid, "1")})
        assert status == 409 and "log out first" in page
        status, _, page = arbiter.form("/train", "/train", {"rules": "fise", "moves": "5"})
        assert status == 409 and "log out first" in page
        assert arbiter.request("GET", "/security")[0] == 200  # still the arbiter


def test_issue_29_one_code_opens_a_bounded_number_of_sessions(door):
    site = door.site
    gid = make_game(site)
    most = auth.SESSIONS_PER_PLAYER
    with door.serving() as port:
        code = site.code(gid, "1")
        phones = [Browser(port, f"127.0.1.{i % 50 + 1}") for i in range(most + 5)]
        for phone in phones:
            assert phone.form(f"/games/{gid}/join", f"/games/{gid}/play", {"code": code})[0] == 303
        with Journal(site.db) as j:
            open_ = j.execute("SELECT count(*) FROM web_session WHERE game = ? AND player = '1'", (gid,))[0][0]
        assert open_ == most
        # the latest phones are in, the oldest were let go
        assert "name=\"position\"" in phones[-1].request("GET", f"/games/{gid}/play")[2]
