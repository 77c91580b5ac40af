"""Several web workers over one PostgreSQL journal (`arbitru serve --workers 2 --db postgresql://…`): a slip sent
to one worker reaches the live pages served by the other through LISTEN/NOTIFY, and no state lives only in one
worker (a worker killed and replaced loses nothing acknowledged). A real server, real HTTP, real processes.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from arbitru.journal.store import Journal
from arbitru.web import auth
from web_support import Site, make_game


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def two_workers(pg_server):
    dsn = pg_server.new_database()
    with Journal(dsn, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, "arbiter-pass-1", auth.ARBITER)
        secret = auth.server_secret(j)
    site = Site(dsn, secret, None)
    gid = make_game(site, seconds=600)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "arbitru", "serve", "--workers", "2", "--db", dsn, "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/games/{gid}", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        server.kill()
        pytest.fail(f"the workers did not start: {server.stdout.read() if server.stdout else ''}")
    yield base, site, gid, server
    os.killpg(server.pid, signal.SIGKILL)  # open SSE streams would hold a graceful stop for its full timeout
    server.wait(20)


def _listen(base: str, gid: str, found: queue.Queue, stop: threading.Event, cookie: str) -> None:
    """One page's SSE stream (player 1's phone: his own slip concerns it): report which worker serves it, then
    every 'changed' notice (until the test stops the server)."""
    url = f"{base}/games/{gid}/events"
    with contextlib.suppress(httpx.HTTPError), httpx.stream("GET", url, timeout=httpx.Timeout(5, read=30),
                                                            cookies={auth.COOKIE: cookie}) as response:
        worker = response.headers["x-arbitru-worker"]
        found.put(("open", worker))
        for line in response.iter_lines():
            if stop.is_set():
                return
            if line.startswith("event: changed"):
                found.put(("changed", worker))


def test_journal_several_workers_share_live_updates_through_postgresql(two_workers):
    base, site, gid, _server = two_workers
    found: queue.Queue = queue.Queue()
    stop = threading.Event()
    workers: set[str] = set()
    streams = 0
    ident = auth.Identity(auth.new_sid(), "player", "", gid, "1")
    with Journal(site.db) as j:
        auth.open_session(j, ident)  # as his join would have
    phone = auth.sign(site.secret, ident)
    # open pages until both workers serve at least one (the kernel spreads connections between them)
    while len(workers) < 2 and streams < 24:
        threading.Thread(target=_listen, args=(base, gid, found, stop, phone), daemon=True).start()
        streams += 1
        kind, worker = found.get(timeout=10)
        assert kind == "open"
        workers.add(worker)
    assert len(workers) == 2, "every page landed on one worker"
    time.sleep(1.0)  # both listeners are connected before the slip is sent
    code = site.code(gid, "1")
    r = httpx.post(f"{base}/api/games/{gid}/slips", headers={"Authorization": f"Bearer {code}"},
                   json={"move": 1, "position": "H8", "word": "ABC", "score": 10}, timeout=10)
    assert r.status_code == 201, r.text
    sent_by = r.headers["x-arbitru-worker"]
    told: set[str] = set()
    deadline = time.monotonic() + 15
    while len(told) < 2 and time.monotonic() < deadline:
        try:
            kind, worker = found.get(timeout=1)
        except queue.Empty:
            continue
        if kind == "changed":
            told.add(worker)
    stop.set()
    assert told == workers, f"the slip went through worker {sent_by}; pages told: {told} of {workers}"


def test_journal_a_killed_worker_loses_nothing_acknowledged(two_workers):
    base, site, gid, _server = two_workers
    acknowledged = []
    pids: set[str] = set()
    killed = False
    for n in range(1, 41):
        code = site.code(gid, str(1 + n % 3))
        try:
            r = httpx.post(f"{base}/api/games/{gid}/slips", headers={"Authorization": f"Bearer {code}"},
                           # a word of letters for each slip (one with digits cannot be read: refused, 422)
                           json={"move": 1, "position": "H8", "word": "W" + "".join("ABCDEFGHIJ"[int(d)] for d in
                                                                                    str(n)), "score": n},
                           timeout=10)
        except httpx.HTTPError:
            continue  # the request died with its worker: not acknowledged
        if r.status_code == 201:
            acknowledged.append(r.json())
            pids.add(r.headers["x-arbitru-worker"])
        if n == 15 and not killed:
            os.kill(int(r.headers["x-arbitru-worker"]), signal.SIGKILL)  # uvicorn starts another
            killed = True
    assert killed and len(acknowledged) >= 20
    with Journal(site.db) as j:
        stored = {e.seq for e in j.events(gid, "slip")}
    assert {a["seq"] for a in acknowledged} <= stored


def test_workers_sockets_are_tcp_so_every_connection_gets_nodelay_and_each_worker_has_its_own():
    """``serve --workers N`` binds the workers' sockets itself: with protocol 0 (uvicorn's own), asyncio never set
    TCP_NODELAY on their connections, and each answer of a worker waited ~40 ms for the client's delayed ACK; and
    one shared socket let one worker take most connections, so each worker gets its own on the port."""
    import asyncio
    import pickle

    from arbitru.cli.web import listening_socket

    supervisor = listening_socket("127.0.0.1", 0)
    port = supervisor.getsockname()[1]
    # what a worker process receives from uvicorn's supervisor (the socket pickled): a socket of its own, same port
    workers = [pickle.loads(pickle.dumps(supervisor)) for _ in range(2)]
    assert all(w.getsockname()[1] == port and w.fileno() != supervisor.fileno() for w in workers)
    for w in workers:
        w.close()
    supervisor.close()

    async def nodelay_of_accepted() -> int:
        got: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                got.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Probe, sock=listening_socket("127.0.0.1", 0))
        port = server.sockets[0].getsockname()[1]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            return await asyncio.wait_for(got, 10)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(nodelay_of_accepted()) != 0
