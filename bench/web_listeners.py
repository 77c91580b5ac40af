"""Thousands of phones listening: N phones hold the game's live events (SSE) open on a real ``arbitru serve`` on
127.0.0.1; the arbiter closes the move, then draws the next rack; each phone gets its new live part on its stream
(as its page asks: ``events?push=play``), or, told to, fetches it again. Prints, for each of the two changes, the
time from the arbiter's click until every phone has the new state (p50, p99, max), the errors, and the server's
memory per open connection.

    .venv/bin/python bench/web_listeners.py                          # 1,000 phones, SQLite, 1 worker
    .venv/bin/python bench/web_listeners.py --phones 10000
    .venv/bin/python bench/web_listeners.py --db postgresql --workers 2 --phones 10000   # a throw-away server
    .venv/bin/python bench/web_listeners.py --phones 300 --server-src /tmp/old/src       # another version's server
    .venv/bin/python bench/web_listeners.py --phones 10000 --refetch    # told only, every phone refetches

The phones are a few lines of asyncio streams (no HTTP library: 10,000 of them must cost the client little), signed
in with cookies made from the journal's secret (joining is not what is measured). A phone counts when its pushed
part (or its refetch) shows the new state: the master move after the close, the rack of move 2 after the draw. The
bench raises its own file limit, starts its own server over a fresh journal in a temporary folder, and stops by
itself: every phone has a deadline, and so does each round. 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import uvloop

from arbitru.journal.pgserver import PostgresServer
from arbitru.journal.store import Journal
from arbitru.web import auth
from web_capacity import children_of, cpu_each, cpu_since
from web_server import free_port
from web_slips import make_hall, percentile

HOST = "127.0.0.1"
#: fetches under way at once at most (the file limit holds every stream plus these)
FETCHES = 1000
PASSWORD = "bench-arbiter-1"
#: what a phone's page shows once it has the new state, per round
ROUNDS = (("close", "verdict", 'class="master"'), ("draw", "next rack", 'data-move="2"'))


@dataclass
class Round:
    started: float = 0.0
    action: float = 0.0  # the arbiter's own request, click to answer
    cpu: float = 0.0  # the server's CPU seconds (all its processes) from the click until every phone had it
    done: dict[int, float] = field(default_factory=dict)  # phone -> seconds after the click
    errors: list[str] = field(default_factory=list)


@dataclass
class Hall:
    port: int
    gid: str
    cookies: list[str]
    #: the live events' URL, as the phone's page names it (``data-events``)
    events: str = ""
    rounds: list[Round] = field(default_factory=lambda: [Round() for _ in ROUNDS])
    connected: int = 0
    connect_errors: list[str] = field(default_factory=list)
    current: int = -1  # the round under way


async def request(port: int, head: str, body: bytes = b"", timeout: float = 60.0) -> tuple[int, str, bytes]:
    """One HTTP/1.1 request on its own connection: status, headers, body."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), timeout)
    try:
        writer.write(head.encode() + body)
        raw = await asyncio.wait_for(reader.read(-1), timeout)
    finally:
        writer.close()
    headers, _, content = raw.partition(b"\r\n\r\n")
    text = headers.decode("latin-1")
    return int(text.split(" ", 2)[1]), text, content


def get(path: str, cookie: str) -> str:
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nCookie: {auth.COOKIE}={cookie}\r\nConnection: close\r\n\r\n"


async def phone(hall: Hall, i: int, gate: asyncio.Semaphore, fetches: asyncio.Semaphore, deadline: float) -> None:
    """One phone: its live events held open; on each notice, its page fetched again."""
    cookie = hall.cookies[i]
    try:
        async with gate:  # connect a few hundred at a time, as phones arrive in a hall
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, hall.port, limit=2**20), 30)
            writer.write(f"GET {hall.events} HTTP/1.1\r\nHost: {HOST}\r\n"
                         f"Cookie: {auth.COOKIE}={cookie}\r\n\r\n".encode())
            status = await asyncio.wait_for(reader.readline(), 30)
            if b" 200 " not in status:
                raise RuntimeError(f"events answered {status!r}")
            while (await asyncio.wait_for(reader.readline(), 30)) not in (b"\r\n", b""):
                pass
        hall.connected += 1
    except (OSError, RuntimeError, TimeoutError) as e:
        hall.connect_errors.append(f"phone {i}: {e!r}")
        return
    try:
        while time.monotonic() < deadline:
            # a whole event at a time (a pushed part is hundreds of lines: read line by line, the client would cost
            # more than the server)
            try:
                event = await asyncio.wait_for(reader.readuntil(b"\n\n"), max(0.1, deadline - time.monotonic()))
            except asyncio.IncompleteReadError:
                return
            if hall.current < 0 or i in hall.rounds[hall.current].done or b"data: " not in event:
                continue
            at = event.find(b"event: ")  # after the HTTP chunk's size line
            name = event[at + 7:event.index(b"\n", at)].decode() if at >= 0 else ""
            await notice(hall, i, cookie, fetches, name, event)
    except (OSError, TimeoutError):
        pass
    finally:
        writer.close()


async def notice(hall: Hall, i: int, cookie: str, fetches: asyncio.Semaphore, name: str, data: bytes) -> None:
    """A phone's event: its live part pushed (it counts if it shows the new state), or a notice to refetch it."""
    r = hall.rounds[hall.current]
    want = ROUNDS[hall.current][2]
    if name == "live":
        if want in data.decode("utf-8", "replace"):
            r.done[i] = time.monotonic() - r.started
        return
    try:
        async with fetches:
            status, _, body = await request(hall.port, get(f"/games/{hall.gid}/play/live", cookie))
    except (OSError, TimeoutError) as e:
        r.errors.append(f"phone {i}: fetch {e!r}")
        return
    if status != 200:
        r.errors.append(f"phone {i}: fetch answered {status}")
    elif want in body.decode("utf-8", "replace"):
        r.done[i] = time.monotonic() - r.started


async def arbiter(port: int, cookie: str, gid: str, action: str) -> None:
    # any page has the arbiter's CSRF token (its log-out form): the index, not the console's grid of every player
    status, _, body = await request(port, get("/", cookie))
    token = re.search(rb'name="csrf" value="([^"]+)"', body)
    if status != 200 or token is None:
        raise RuntimeError(f"the index answered {status}")
    form = b"csrf=" + token.group(1)
    for _ in range(2):  # a move closed with slips missing is confirmed by a second request (web/confirm.py)
        status, _, body = await request(port, (
            f"POST /games/{gid}/{action} HTTP/1.1\r\nHost: {HOST}\r\nCookie: {auth.COOKIE}={cookie}\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\n"
            "Connection: close\r\n\r\n"
        ), form)
        offered = re.search(rb'name="confirm" value="([A-Za-z0-9_-]{20,})"', body) if status == 200 else None
        if offered is None:
            break
        form += b"&confirm=" + offered.group(1)
    if status != 303:
        raise RuntimeError(f"{action} answered {status}")


async def login(port: int) -> str:
    # the login form needs the visitor's own cookie and its CSRF token
    _, head, body = await request(port, f"GET /login HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n")
    visitor = re.search(rf"{auth.COOKIE}=([^;]+)", head)
    token = re.search(rb'name="csrf" value="([^"]+)"', body)
    assert visitor and token
    form = b"csrf=" + token.group(1) + f"&name=arbiter&password={PASSWORD}".encode()
    status, head, _ = await request(port, (
        f"POST /login HTTP/1.1\r\nHost: {HOST}\r\nCookie: {auth.COOKIE}={visitor.group(1)}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\nConnection: close\r\n\r\n"
    ), form)
    signed = re.search(rf"{auth.COOKIE}=([^;]+)", head)
    if status != 303 or signed is None:
        raise RuntimeError(f"login answered {status}")
    return signed.group(1)


def server_rss(pid: int) -> int:
    """Resident memory (bytes) of the server: its process and every process of its group (the workers)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(stat[2]) == pid:  # process group
                total += int(stat[21]) * resource.getpagesize()
    return total


async def run_hall(hall: Hall, phones: int, pid: int, limit: float) -> tuple[int, int]:
    cookie = await login(hall.port)
    deadline = time.monotonic() + limit
    gate = asyncio.Semaphore(200)
    # the phones loaded their page before they listen: the server has read the game once
    await request(hall.port, get(f"/games/{hall.gid}/play/live", hall.cookies[0]), timeout=limit)
    status, _, page = await request(hall.port, get(f"/games/{hall.gid}/play", hall.cookies[0]), timeout=limit)
    found = re.search(rb'data-events="([^"]+)"', page)
    if status != 200 or found is None:
        raise RuntimeError(f"the phone's page answered {status} without its live events' URL")
    if not hall.events:
        hall.events = html.unescape(found.group(1).decode())
    before = server_rss(pid)
    fetches = asyncio.Semaphore(FETCHES)
    tasks = [asyncio.create_task(phone(hall, i, gate, fetches, deadline)) for i in range(phones)]
    while hall.connected + len(hall.connect_errors) < phones and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)
    after = server_rss(pid)
    for n, (action, _, _) in enumerate(ROUNDS):
        r = hall.rounds[n]
        hall.current = n
        cpu0 = cpu_each(children_of(pid))
        r.started = time.monotonic()
        await arbiter(hall.port, cookie, hall.gid, action)
        r.action = time.monotonic() - r.started
        round_end = min(deadline, time.monotonic() + limit / 3)
        while len(r.done) < hall.connected and time.monotonic() < round_end:
            await asyncio.sleep(0.05)
        r.cpu = cpu_since(pid, cpu0)
        await asyncio.sleep(1.5)  # past the coalescing second: the next notice is not merged into this one
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return before, after


def serve(db: str, port: int, workers: int, phones: int, src: str | None) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    proc = subprocess.Popen(
        # every phone comes from 127.0.0.1 here: lift the per-client cap on live connections to the hall's size
        [sys.executable, "-m", "arbitru", "serve", "--db", db, "--port", str(port), "--workers", str(workers),
         "--live-per-client", str(min(10_000, max(32, phones)))],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 1):
            return proc
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise RuntimeError("the server did not start within 60 s")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--phones", type=int, default=1000)
    p.add_argument("--db", help="a PostgreSQL URL, or 'postgresql' for a throw-away server (default: SQLite)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--limit", type=float, default=300.0, help="seconds for the whole run (default 300)")
    p.add_argument("--server-src", help="run the server from this source folder (PYTHONPATH): a before/after")
    p.add_argument("--refetch", action="store_true",
                   help="listen without pushes (every phone told, then fetching its live part again)")
    a = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = a.phones + FETCHES + 256
    if hard != resource.RLIM_INFINITY and hard < need:
        print(f"error: the file limit is {hard}, {need} are needed for {a.phones} phones", file=sys.stderr)
        return 2
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, need), hard))  # the server inherits it
    pg = None
    with tempfile.TemporaryDirectory() as tmp:
        db = a.db or str(Path(tmp) / "listeners.db")
        if db == "postgresql":
            pg = PostgresServer().start()
            db = pg.new_database()
        try:
            gid, _codes = make_hall(db, a.phones)
            with Journal(db, actor="arbiter") as j:
                auth.set_password(j, auth.ARBITER, PASSWORD, auth.ARBITER)
                secret = auth.server_secret(j)
                idents = [auth.Identity(auth.new_sid(), "player", "", gid, str(i + 1)) for i in range(a.phones)]
                with j.transaction():  # each phone's session, as its join would have opened it
                    for ident in idents:
                        auth.open_session(j, ident)
            cookies = [auth.sign(secret, ident) for ident in idents]
            port = free_port()
            proc = serve(db, port, a.workers, a.phones, a.server_src)
            try:
                hall = Hall(port, gid, cookies, events=f"/games/{gid}/events" if a.refetch else "")
                cpu0 = time.process_time()
                with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:  # a cheap client
                    before, after = runner.run(run_hall(hall, a.phones, proc.pid, a.limit))
                client_cpu = time.process_time() - cpu0
            finally:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(20)
        finally:
            if pg is not None:
                pg.stop()
    store = "PostgreSQL" if a.db else "SQLite"
    print(f"{a.phones} phones listening at {hall.events}, {store}, {a.workers} worker(s)"
          f"{', server from ' + a.server_src if a.server_src else ''}; load average {os.getloadavg()[0]:.1f}")
    print(f"  connected {hall.connected}, connection errors {len(hall.connect_errors)}")
    conns = max(1, hall.connected)
    print(f"  server memory: {before / 2**20:.0f} MB before, {after / 2**20:.0f} MB with the phones: "
          f"{(after - before) / conns / 1024:.1f} KB per connection")
    ok = not hall.connect_errors
    for r, (_, what, _) in zip(hall.rounds, ROUNDS, strict=True):
        times = sorted(r.done.values())
        missing = hall.connected - len(times)
        if times:
            print(f"  {what} (the arbiter's {ROUNDS[hall.rounds.index(r)][0]} answered in {r.action:.2f} s): "
                  f"{len(times)} phones fetched it; p50 {percentile(times, 0.5):.2f} s, "
                  f"p99 {percentile(times, 0.99):.2f} s, max {times[-1]:.2f} s; errors {len(r.errors)}, "
                  f"not fetched {missing}; server CPU {r.cpu:.1f} s, {r.cpu / len(times) * 1000:.2f} ms per phone")
        else:
            print(f"  {what}: no phone fetched it; errors {len(r.errors)}")
        ok = ok and not r.errors and missing == 0 and bool(times) and percentile(times, 0.99) < 5.0
        for e in (r.errors + hall.connect_errors)[:3]:
            print(f"    {e}")
    print(f"  client CPU {client_cpu:.1f} s; target p99 < 5 s, 0 errors: {'PASS' if ok else 'over'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
