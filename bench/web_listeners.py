"""Thousands of phones listening, each with its own slip: N phones join the game with their code (``POST
/games/{id}/join``), hand in their own slip through the API (valid, invalid, late, a few none), then hold the game's
live events (SSE) open on a real ``arbitru serve``, and so does the arbiter's console (its grid of every player's
slip fetched again on each notice, as the page does); the arbiter closes the move, then draws the next rack. The
paths a page can take are measured, one move each, late in a game (from move 12 of 15 unless ``--from-move`` says
otherwise: the moves before are played in the journal, each phone with its slip): *pushed* (as the phone page
listens, ``events?push=play``: the phone's own live part comes on its stream), then *refetched* (told only, then
``GET /play/live`` as the page asks for it, in its language); when asked (``--paths``), two halls whose Wi-Fi drops
every phone's stream while the arbiter acts, the phones coming back all at once 2 s after his click (the stream's
``retry``): *resumed* (the page now: each stream reopened with its last event's id, the part it missed pushed on it)
and *reconnected* (the page before streams resumed: reopened afresh, then the part fetched). Prints, for each path
and each of the two changes, the time from the arbiter's click (from the phones' return, on the returning paths)
until every phone has the new state (p50, p99, max), the errors, the server's CPU per phone, when the arbiter's
console (the page his action's redirect loads) and its grid had the new state, and the server's memory per open
connection.

    .venv/bin/python bench/web_listeners.py                          # 1,000 phones, SQLite, 1 worker
    .venv/bin/python bench/web_listeners.py --phones 10000
    .venv/bin/python bench/web_listeners.py --db postgresql --workers 2 --phones 10000   # a throw-away server
    .venv/bin/python bench/web_listeners.py --phones 300 --server-src /tmp/old/src       # another version's server
    .venv/bin/python bench/web_listeners.py --paths pushed                               # one path only
    .venv/bin/python bench/web_listeners.py --paths resumed,reconnected                  # the Wi-Fi blip
    .venv/bin/python bench/web_listeners.py --from-move 1            # the first move (the figures before 2026-11-27)
    .venv/bin/python bench/web_listeners.py --no-slips              # phones that handed in nothing (older figures)
    .venv/bin/python bench/web_listeners.py --phones 10000 --proxy nginx   # behind nginx, as docs/deploy.md sets it
    .venv/bin/python bench/web_listeners.py --phones 10000 --read-through-every 1   # a read-through at each close

A phone counts when its live part shows the new state: after the close, the master move and, for a phone that
handed in a slip, its own verdict (its own position and word on the move's line: a part showing the master move
without it counts as *wrong*); after the draw, the clock of the next move. Of every 100 phones, 10 hand in an
invalid slip (a wrong score, or a word off the rack), 5 a late one (after the move's clock ran out: it scores 0),
2 none, the others one of the rack's legal moves. The phones are a few lines of asyncio streams (no HTTP library:
10,000 of them must cost the client little), each from its own loopback address (127.0.x.y: no per-address cap
of the server, nor the client's port range, is what is measured). The bench raises its own file limit, starts its
own server over a fresh journal in a temporary folder, and stops by itself: every phone has a deadline, and so does
each round. Loopback only. With ``--proxy nginx`` every request goes through Debian's nginx set as docs/deploy.md
sets it (plain HTTP), and nginx's CPU and memory per phone are printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import uvloop

from arbitru.formats.duplicate.game import Session
from arbitru.formats.duplicate.slips import Slip as Written
from arbitru.journal.pgserver import PostgresServer
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from web_capacity import children_of, cpu_each, cpu_since
from web_server import free_port
from web_slips import HALL_MOVES, LEXICON, make_hall, percentile

HOST = "127.0.0.1"
#: the first move measured unless told (``--from-move``): late in a hall's game, whose phones' parts carry its
#: history and whose close is the dearest (when a close judged every move's slips again, 1,000 phones had their
#: verdict in 0.4 s at move 1 and in 1.1 s at move 12)
LATE_MOVE = 12
#: fetches (or joins, or slips) under way at once at most (the file limit holds every stream plus these)
FETCHES = 1000
#: joins and slips handed in at once (as a hall's phones would, a few dozen at a time)
HANDING = 64
PASSWORD = "bench-arbiter-1"
#: the move's time: the late slips are handed in once it ran out
SECONDS = 3
PATHS = ("pushed", "refetched", "resumed", "reconnected")
#: the paths whose phones lose their stream (a hall's Wi-Fi blip) while the arbiter acts, and come back
RETURNING = ("resumed", "reconnected")
#: seconds a browser waits before it reconnects a lost stream (the stream's ``retry:``)
RETRY_S = 2.0


def address(i: int) -> str:
    """Phone ``i``'s own loopback address (the arbiter is 127.0.0.1)."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


def kind_of(i: int) -> str:
    """What phone ``i`` hands in: 2 in 100 nothing, 5 a late slip, 10 an invalid one, the others a legal move."""
    if i % 50 == 49:
        return "none"
    if i % 20 == 7:
        return "late"
    if i % 10 == 3:
        return "invalid"
    return "valid"


@dataclass
class Slip:
    position: str
    word: str
    score: int | None
    late: bool


@dataclass
class Round:
    action: str
    what: str
    want: str  # what a phone's live part shows once it has the new state
    started: float = 0.0
    took: float = 0.0  # the arbiter's acting request (confirmed), sent to answered
    cpu: float = 0.0  # the server's CPU seconds (all its processes) from the click until every phone had it
    done: dict[int, float] = field(default_factory=dict)  # phone -> seconds after the click
    wrong: list[int] = field(default_factory=list)  # phones whose part lacked their own verdict
    errors: list[str] = field(default_factory=list)
    told: int = 0  # ``changed`` notices (pushed path: a part that failed, told to refetch)
    page: float = 0.0  # the arbiter's console page after his action (the redirect followed), click to loaded
    grid: float = 0.0  # the console's grid refetched on its notice, click to loaded (0: not told)
    proxy_cpu: float = 0.0  # nginx's CPU seconds (``--proxy``) over the same time


@dataclass
class Hall:
    port: int
    gid: str
    codes: list[str]
    secret: bytes
    cookies: list[str] = field(default_factory=list)
    joined: float = 0.0
    join_errors: list[str] = field(default_factory=list)
    #: the live events' URL the phones listen at
    events: str = ""
    #: the URL of the phone's live part, as its page refetches it (``hx-get``, in the page's language)
    live: str = ""
    slips: list[Slip | None] = field(default_factory=list)
    move: int = 1
    handed: dict[str, float] = field(default_factory=dict)
    hand_errors: list[str] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    #: each phone's open stream (to drop it), and the last event id it saw (to resume from)
    streams: dict[int, asyncio.StreamWriter] = field(default_factory=dict)
    last_ids: dict[int, str] = field(default_factory=dict)
    #: set while the phones' streams are dropped; the phones come back once ``back`` is set
    away: bool = False
    back: asyncio.Event = field(default_factory=asyncio.Event)
    gone: int = 0
    #: the path under way
    path: str = ""
    connected: int = 0
    connect_errors: list[str] = field(default_factory=list)
    current: int = -1  # the round under way
    #: where py-spy's samples of the server go, per path and round ("": not profiled)
    spy: str = ""
    #: nginx's process in front of the server (``--proxy``; 0: none, the phones reach the server itself)
    proxy: int = 0


class _Exchange(asyncio.Protocol):
    """One request written on connecting, its answer read until the server closes (``Connection: close``): a
    bare protocol rather than asyncio's streams, so that ten thousand phones' refetches cost the client about
    half as much CPU (the server's figures are what is measured)."""

    def __init__(self, data: bytes, answer: asyncio.Future[bytes]) -> None:
        self.data, self.answer, self.parts = data, answer, list[bytes]()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        cast(asyncio.WriteTransport, transport).write(self.data)  # uvloop's transports are not asyncio's classes

    def data_received(self, data: bytes) -> None:
        self.parts.append(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.answer.done():
            if exc is None:
                self.answer.set_result(b"".join(self.parts))
            else:
                self.answer.set_exception(exc)


async def request(port: int, head: str, body: bytes = b"", timeout: float = 60.0, source: str = HOST
                  ) -> tuple[int, str, bytes]:
    """One HTTP/1.1 request on its own connection from ``source``: status, headers, body."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[bytes] = loop.create_future()
    transport, _ = await asyncio.wait_for(loop.create_connection(
        lambda: _Exchange(head.encode() + body, answer), HOST, port, local_addr=(source, 0)), timeout)
    try:
        raw = await asyncio.wait_for(answer, timeout)
    finally:
        transport.close()
    headers, _, content = raw.partition(b"\r\n\r\n")
    if not headers.startswith(b"HTTP/"):
        raise OSError(f"no HTTP answer: {raw[:80]!r}")
    text = headers.decode("latin-1")
    return int(text.split(" ", 2)[1]), text, content


def get(path: str, cookie: str) -> str:
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nCookie: {auth.COOKIE}={cookie}\r\nConnection: close\r\n\r\n"


def post(path: str, cookie: str, length: int, kind: str = "application/x-www-form-urlencoded",
         auth_code: str = "") -> str:
    bearer = f"Authorization: Bearer {auth_code}\r\n" if auth_code else ""
    cookies = f"Cookie: {auth.COOKIE}={cookie}\r\n" if cookie else ""
    return (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\n{cookies}{bearer}Content-Type: {kind}\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n")


async def join(hall: Hall, i: int, gate: asyncio.Semaphore) -> None:
    """Phone ``i`` joins with its code, as its join form does: a visitor's cookie and the form's CSRF token (the
    visitor's, made here from the journal's secret rather than read from a page), then the player's cookie."""
    visitor = auth.Identity(auth.new_sid())
    form = f"csrf={quote(auth.csrf_token(hall.secret, visitor))}&code={quote(hall.codes[i])}".encode()
    try:
        async with gate:
            status, head, _ = await request(hall.port, post(f"/games/{hall.gid}/join",
                                                            auth.sign(hall.secret, visitor), len(form)),
                                            form, source=address(i))
        signed = re.search(rf"{auth.COOKIE}=([^;]+)", head)
        if status != 303 or signed is None:
            raise RuntimeError(f"join answered {status}")
        hall.cookies[i] = signed.group(1)
    except (OSError, RuntimeError, TimeoutError) as e:
        hall.join_errors.append(f"phone {i}: {e!r}")


def plan(db: str, gid: str, phones: int) -> tuple[int, list[Slip | None]]:
    """The open move and each phone's slip for it: one of the rack's legal moves, or an invalid one (a wrong
    score, a word off the rack), or a legal one handed in late; None: no slip."""
    with Journal(db) as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(LEXICON, s.settings.lang)
        cands = s.candidates()
        notation, move = s.game.rules.notation, s.game.move
    slips: list[Slip | None] = []
    for i in range(phones):
        kind = kind_of(i)
        c = cands[i % len(cands)]
        position, word, score = c.describe(notation).split(" ")
        if kind == "none":
            slips.append(None)
        elif kind == "invalid" and (i // 10) % 2:
            slips.append(Slip(position, "ZZZZ", None, False))
        else:
            slips.append(Slip(position, word, int(score) + (7 if kind == "invalid" else 0), kind == "late"))
    return move, slips


def play_before(db: str, gid: str, phones: int, moves: int) -> None:
    """``moves`` moves played before the phones come, in the journal as a hall's desks and arbiter leave them: each
    phone's slip of the move stored (as :func:`plan` makes them; a late one as one in time), the master move placed,
    the move closed, the next rack drawn. A phone's part then carries the game's history so far, as it does late in a
    hall's game."""
    for _ in range(moves):
        move, planned = plan(db, gid, phones)
        with Journal(db, actor="arbiter") as j:
            s = Session(j, gid)
            s.lexicon = load_lexicon(LEXICON, s.settings.lang)
            s.add_slips([Written(move, str(i + 1), p.position, p.word, p.score)
                         for i, p in enumerate(planned) if p is not None])
            s.place_master()
            s.close_collection()
            s.draw()


async def hand_in(hall: Hall, i: int, gate: asyncio.Semaphore) -> None:
    """Phone ``i``'s slip through the API, with its code."""
    slip = hall.slips[i]
    assert slip is not None
    body = json.dumps({"move": hall.move, "position": slip.position, "word": slip.word, "score": slip.score}).encode()
    try:
        async with gate:
            t0 = time.monotonic()
            status, _, answer = await request(hall.port, post(f"/api/games/{hall.gid}/slips", "", len(body),
                                                              "application/json", hall.codes[i]),
                                              body, source=address(i))
        receipt = json.loads(answer or b"{}")
        if status not in (201, 409) or not receipt.get("stored"):
            raise RuntimeError(f"slip answered {status}: {answer[:200]!r}")
        if bool(receipt.get("late")) != slip.late:
            raise RuntimeError(f"slip stored {'late' if receipt.get('late') else 'in time'}, not as planned")
        hall.handed[str(i)] = time.monotonic() - t0
    except (OSError, RuntimeError, TimeoutError, ValueError) as e:
        hall.hand_errors.append(f"phone {i}: {e!r}")


def own_line(hall: Hall, i: int) -> str:
    """What phone ``i``'s verdicts show of its own slip for the move: its row's start (move, position, word)."""
    slip = hall.slips[i]
    return "" if slip is None else f"<tr><td>{hall.move}</td><td>{html.escape(slip.position)} {html.escape(slip.word)}"


async def listen(hall: Hall, i: int, resume: str = "") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Phone ``i``'s live events opened (from the last event id ``resume``, as a browser reconnects), its answer's
    head read."""
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(HOST, hall.port, limit=2**20, local_addr=(address(i), 0)), 30)
    last = f"Last-Event-ID: {resume}\r\n" if resume else ""
    writer.write(f"GET {hall.events} HTTP/1.1\r\nHost: {HOST}\r\n{last}"
                 f"Cookie: {auth.COOKIE}={hall.cookies[i]}\r\n\r\n".encode())
    status = await asyncio.wait_for(reader.readline(), 30)
    if b" 200 " not in status:
        writer.close()
        raise RuntimeError(f"events answered {status!r}")
    while (await asyncio.wait_for(reader.readline(), 30)) not in (b"\r\n", b""):
        pass
    hall.streams[i] = writer
    return reader, writer


async def phone(hall: Hall, i: int, gate: asyncio.Semaphore, fetches: asyncio.Semaphore, deadline: float) -> None:
    """One phone: its live events held open; on each notice, its page fetched again. Its stream dropped (a
    returning path), it comes back when told: from its last event's id (*resumed*, the page now), or afresh and
    then fetching its part (*reconnected*, as the page did before streams resumed)."""
    cookie = hall.cookies[i]
    try:
        async with gate:  # connect a few hundred at a time, as phones arrive in a hall
            reader, writer = await listen(hall, i)
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
            except (asyncio.IncompleteReadError, ConnectionError):
                if not hall.away:
                    return
                hall.gone += 1
                await hall.back.wait()
                r = hall.rounds[hall.current]
                try:
                    async with fetches:  # the phones come back all at once
                        reader, writer = await listen(hall, i, hall.last_ids.get(i, "") if hall.path == "resumed"
                                                      else "")
                except (OSError, RuntimeError, TimeoutError) as e:
                    r.errors.append(f"phone {i}: back {e!r}")
                    return
                if hall.path == "reconnected":  # the page fetched its part once its stream was back
                    await notice(hall, i, cookie, fetches, "changed", b"")
                continue
            seen = event.find(b"\nid: ")
            if seen >= 0 or event.startswith(b"id: "):
                start = seen + 5 if seen >= 0 else 4
                hall.last_ids[i] = event[start:event.index(b"\n", start)].decode()
            if hall.current < 0 or i in hall.rounds[hall.current].done or b"data: " not in event:
                continue
            at = event.find(b"event: ")  # after the HTTP chunk's size line
            name = event[at + 7:event.index(b"\n", at)].decode() if at >= 0 else ""
            await notice(hall, i, cookie, fetches, name, event)
    except (OSError, TimeoutError):
        pass
    finally:
        hall.streams.get(i, writer).close()


def arrived(hall: Hall, r: Round, i: int, text: str) -> None:
    """Phone ``i``'s live part (pushed or refetched): counted once it shows the new state, and its own verdict."""
    if r.want not in text:
        return
    mine = own_line(hall, i) if r.action == "close" else ""
    if mine and mine not in text.replace("\ndata: ", "\n"):
        r.wrong.append(i)
    r.done[i] = time.monotonic() - r.started


async def notice(hall: Hall, i: int, cookie: str, fetches: asyncio.Semaphore, name: str, data: bytes) -> None:
    """A phone's event: its live part pushed (it counts if it shows the new state), or a notice to refetch it."""
    r = hall.rounds[hall.current]
    if name == "live":
        arrived(hall, r, i, data.decode("utf-8", "replace"))
        return
    if "push=" in hall.events:
        r.told += 1
    try:
        async with fetches:
            status, _, body = await request(hall.port, get(hall.live, cookie),
                                            source=address(i))
    except (OSError, TimeoutError) as e:
        r.errors.append(f"phone {i}: fetch {e!r}")
        return
    if status != 200:
        r.errors.append(f"phone {i}: fetch answered {status}")
    else:
        arrived(hall, r, i, body.decode("utf-8", "replace"))


async def arbiter(port: int, cookie: str, gid: str, action: str, fields: str = "", timeout: float = 60.0) -> float:
    """The arbiter's action from the console, confirmed when it asks to be; the seconds its acting request took
    (the one that answers 303), click to answer."""
    # any page has the arbiter's CSRF token (its log-out form): the index, not the console's grid of every player
    status, _, body = await request(port, get("/", cookie), timeout=timeout)
    token = re.search(rb'name="csrf" value="([^"]+)"', body)
    if status != 200 or token is None:
        raise RuntimeError(f"the index answered {status}")
    form = b"csrf=" + token.group(1) + fields.encode()
    took = 0.0
    for _ in range(2):  # a move closed with slips missing is confirmed by a second request (web/confirm.py)
        t0 = time.monotonic()
        status, _, body = await request(port, post(f"/games/{gid}/{action}", cookie, len(form)), form, timeout)
        took = time.monotonic() - t0
        offered = re.search(rb'name="confirm" value="([A-Za-z0-9_-]{20,})"', body) if status == 200 else None
        if offered is None:
            break
        form += b"&confirm=" + offered.group(1)
    if status != 303:
        raise RuntimeError(f"{action} answered {status}")
    return took


async def console_page(port: int, cookie: str, gid: str, timeout: float = 60.0) -> None:
    """The arbiter's console, as his browser loads it after his action's redirect (every player's row)."""
    status, _, _ = await request(port, get(f"/games/{gid}", cookie), timeout=timeout)
    if status != 200:
        raise RuntimeError(f"the console answered {status}")


async def console(hall: Hall, cookie: str, deadline: float) -> None:
    """The arbiter's console open through the rounds, as its page listens: the staff's live events, and on each
    notice its grid of every player's slip fetched again (``/grid``)."""
    reader, writer = await asyncio.open_connection(HOST, hall.port, limit=2**20)
    try:
        writer.write(f"GET /games/{hall.gid}/events HTTP/1.1\r\nHost: {HOST}\r\n"
                     f"Cookie: {auth.COOKIE}={cookie}\r\n\r\n".encode())
        while time.monotonic() < deadline:
            try:
                event = await asyncio.wait_for(reader.readuntil(b"\n\n"), max(0.1, deadline - time.monotonic()))
            except asyncio.IncompleteReadError:
                return
            if b"event: changed" not in event or hall.current < 0:
                continue
            r = hall.rounds[hall.current]
            status, _, _ = await request(hall.port, get(f"/games/{hall.gid}/grid", cookie), timeout=60)
            if status != 200:
                r.errors.append(f"the console's grid answered {status}")
            elif r.started and not r.grid:
                r.grid = time.monotonic() - r.started
    except (OSError, TimeoutError):
        pass
    finally:
        writer.close()


async def login(port: int) -> str:
    # the login form needs the visitor's own cookie and its CSRF token
    _, head, body = await request(port, f"GET /login HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n")
    visitor = re.search(rf"{auth.COOKIE}=([^;]+)", head)
    token = re.search(rb'name="csrf" value="([^"]+)"', body)
    assert visitor and token
    form = b"csrf=" + token.group(1) + f"&name=arbiter&password={PASSWORD}".encode()
    status, head, _ = await request(port, post("/login", visitor.group(1), len(form)), form)
    signed = re.search(rf"{auth.COOKIE}=([^;]+)", head)
    if status != 303 or signed is None:
        raise RuntimeError(f"login answered {status}")
    return signed.group(1)


def profile(pid: int, out: str) -> subprocess.Popen[bytes]:
    """py-spy sampling the server's processes into ``out`` (collapsed stacks) until it is interrupted: the thread
    holding the GIL only, so the samples say where the server's Python time goes, not who waits for it."""
    spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(pid),
                            "--subprocesses", "--threads", "--gil", "--rate", "250", "--format", "raw",
                            "--output", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # attached before the click
    return spy


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


@dataclass
class Path_:
    """One path's measure: its rounds, the phones' hand-in, memory."""

    name: str
    events: str
    move: int
    rounds: list[Round]
    slips: int = 0
    hand_took: float = 0.0
    hand_p99: float = 0.0
    hand_errors: list[str] = field(default_factory=list)
    connected: int = 0
    connect_errors: list[str] = field(default_factory=list)
    memory: tuple[int, int] = (0, 0)
    proxy_memory: tuple[int, int] = (0, 0)


async def run_path(hall: Hall, name: str, db: str, cookie: str, phones: int, pid: int, limit: float,
                   with_slips: bool) -> Path_:
    """One move, heard on one path: the slips handed in (the late ones once the move's time ran out), every
    phone listening, the arbiter closing the move, then drawing the next rack."""
    deadline = time.monotonic() + limit
    hall.path = name
    # the phone's page names its live events' URL (data-events) and its live part's (hx-get)
    status, _, page = await request(hall.port, get(f"/games/{hall.gid}/play", hall.cookies[0]), timeout=limit)
    found = re.search(rb'data-events="([^"]+)"', page)
    part = re.search(rb'id="live" hx-get="([^"]+)"', page)
    if status != 200 or found is None or part is None:
        raise RuntimeError(f"the phone's page answered {status} without its live events' and live part's URLs")
    hall.events = html.unescape(found.group(1).decode()) if name != "refetched" else f"/games/{hall.gid}/events"
    hall.live = html.unescape(part.group(1).decode())
    hall.move, hall.slips = plan(db, hall.gid, phones)
    if not with_slips:
        hall.slips = [None] * phones
    move = hall.move
    hall.handed, hall.hand_errors = {}, []
    hall.rounds = [Round("close", "verdict", 'class="master"'), Round("draw", "next rack", f'data-move="{move + 1}"')]
    out = Path_(name, hall.events, move, hall.rounds)
    gate = asyncio.Semaphore(HANDING)
    t0 = time.monotonic()
    await asyncio.gather(*(hand_in(hall, i, gate) for i, s in enumerate(hall.slips) if s is not None and not s.late))
    if any(s is not None and s.late for s in hall.slips):
        await arbiter(hall.port, cookie, hall.gid, "clock", "&action=start")
        await asyncio.sleep(SECONDS + 0.5)
        await asyncio.gather(*(hand_in(hall, i, gate) for i, s in enumerate(hall.slips) if s is not None and s.late))
    out.hand_took = time.monotonic() - t0
    out.slips, out.hand_errors = len(hall.handed), hall.hand_errors
    out.hand_p99 = percentile(list(hall.handed.values()), 0.99)
    # the phones loaded their page before they listen: the server has read the game once
    await request(hall.port, get(hall.live, hall.cookies[0]), timeout=limit)
    before, proxy_before = server_rss(pid), server_rss(hall.proxy) if hall.proxy else 0
    hall.connected, hall.connect_errors, hall.current = 0, [], -1
    fetches = asyncio.Semaphore(FETCHES)
    connecting = asyncio.Semaphore(200)
    tasks = [asyncio.create_task(phone(hall, i, connecting, fetches, deadline)) for i in range(phones)]
    tasks.append(asyncio.create_task(console(hall, cookie, deadline)))
    while hall.connected + len(hall.connect_errors) < phones and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)
    out.memory = (before, server_rss(pid))
    out.proxy_memory = (proxy_before, server_rss(hall.proxy) if hall.proxy else 0)
    returning = name in RETURNING
    for n, r in enumerate(hall.rounds):
        if returning:  # the hall's Wi-Fi drops every phone's stream, and the arbiter acts meanwhile
            hall.current, hall.away, hall.gone, hall.back = -1, True, 0, asyncio.Event()
            for writer in list(hall.streams.values()):
                writer.transport.abort()
            while hall.gone < hall.connected and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        hall.current = n
        spy = profile(pid, f"{hall.spy}.{name}.{r.action}") if hall.spy and not returning else None
        cpu0 = cpu_each(children_of(pid))
        proxy0 = cpu_each(children_of(hall.proxy)) if hall.proxy else {}
        r.started = clicked = time.monotonic()
        try:
            r.took = await arbiter(hall.port, cookie, hall.gid, r.action, timeout=limit / 3)
            await console_page(hall.port, cookie, hall.gid, timeout=limit / 3)
            r.page = time.monotonic() - r.started
        except (OSError, RuntimeError, TimeoutError) as e:  # the server did not answer the arbiter: said, not raised
            r.errors.append(f"the arbiter's {r.action}: {e!r}")
            break
        if returning:  # the browsers retry the stream: the times count from the phones' return
            await asyncio.sleep(max(0.0, clicked + RETRY_S - time.monotonic()))
            spy = profile(pid, f"{hall.spy}.{name}.{r.action}") if hall.spy else None
            cpu0 = cpu_each(children_of(pid))
            proxy0 = cpu_each(children_of(hall.proxy)) if hall.proxy else {}
            hall.away, r.started = False, time.monotonic()
            hall.back.set()
        round_end = min(deadline, time.monotonic() + limit / 3)
        while len(r.done) < hall.connected and time.monotonic() < round_end:
            await asyncio.sleep(0.05)
        r.cpu = cpu_since(pid, cpu0)
        r.proxy_cpu = cpu_since(hall.proxy, proxy0) if hall.proxy else 0.0
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            spy.wait(30)
        await asyncio.sleep(1.5)  # past the coalescing second: the next notice is not merged into this one
    out.connected, out.connect_errors = hall.connected, hall.connect_errors
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return out


async def run_hall(hall: Hall, db: str, phones: int, pid: int, limit: float, paths: tuple[str, ...],
                   with_slips: bool) -> list[Path_]:
    cookie = await login(hall.port)
    t0 = time.monotonic()
    gate = asyncio.Semaphore(HANDING)
    await asyncio.gather(*(join(hall, i, gate) for i in range(phones)))
    hall.joined = time.monotonic() - t0
    return [await run_path(hall, name, db, cookie, phones, pid, limit, with_slips) for name in paths]


def serve(db: str, port: int, workers: int, phones: int, src: str | None, proxied: bool = False,
          read_through: tuple[str, float] | None = None) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    live = min(10_000, max(32, phones))
    path = [src] if src else []
    if read_through is not None:
        # the server's minute read-through of each game (arbitru.web.damage) made due this often: set in the
        # server's processes by a sitecustomize of the bench's own (in its folder), the server's code untouched
        folder, every = read_through
        site = Path(folder) / "read-through"
        site.mkdir(exist_ok=True)
        (site / "sitecustomize.py").write_text(
            f"import arbitru.web.damage\narbitru.web.damage.RECHECK_SOUND_S = {every!r}\n")
        path.insert(0, str(site))
    if path:
        env["PYTHONPATH"] = os.pathsep.join(path)
    proc = subprocess.Popen(
        # each phone has its own loopback address; the cap on live connections per address is lifted all the
        # same (a hall behind one NAT)
        [sys.executable, "-m", "arbitru", "serve", "--db", db, "--port", str(port), "--workers", str(workers),
         "--live-per-client", str(live), "--connections-per-client", str(live + 64)]
        + (["--trust-proxy", HOST] if proxied else []),  # each phone's own address, from the proxy's header
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 1):
            return proc
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise RuntimeError("the server did not start within 60 s")


#: nginx in front of the workers as docs/deploy.md sets it (its two blocks: the upstream's keep-alive connections,
#: the proxy's headers, no buffering, the limits at the door), on plain HTTP over loopback: the TLS of a real server
#: is the proxy's work, not the workers'. A phone's stream holds two of nginx's connections (the phone's, the
#: upstream's): the connections and files of its two workers are those docs/deploy.md advises for the phones.
NGINX = """\
{user}daemon off;
worker_processes 2;
worker_rlimit_nofile {files};
pid {folder}/nginx.pid;
events {{
    worker_connections {connections};
}}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    limit_conn_zone $binary_remote_addr zone=perip:10m;
    upstream arbitru {{
        server {host}:{upstream};
        keepalive 32;
    }}
    server {{
        listen {host}:{port};
        client_max_body_size 25m;
        client_body_timeout 30s;
        client_header_timeout 10s;
        large_client_header_buffers 4 16k;
        limit_conn perip 64;
        limit_conn_status 503;

        location / {{
            proxy_pass http://arbitru;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


def nginx_binary() -> str | None:
    """Debian's nginx (in /usr/sbin, which a user's ``PATH`` may lack), or None."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def nginx(folder: str, port: int, upstream: int, phones: int) -> subprocess.Popen[bytes]:
    """Debian's nginx started in ``folder`` (its configuration, temporary files, error log), in front of the
    server at ``upstream``, listening at ``port``, sized for ``phones`` as docs/deploy.md says (10,000 phones: two
    workers of 16,000 connections and 20,000 files each)."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("--proxy nginx needs nginx (Debian: apt install nginx-light)")
    connections = max(1024, phones * 8 // 5)
    files = connections * 5 // 4
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard != resource.RLIM_INFINITY and hard < files:
        raise RuntimeError(f"nginx needs {files} files a worker for {phones} phones; the limit is {hard}")
    conf = Path(folder) / "nginx.conf"
    # started by root, nginx's workers are ``nobody``, who may not enter the temporary folder (0700): a body over
    # 16 KB (client_body_buffer_size) answered 500, ``open() ".../body/0000000001" failed (13: Permission denied)``
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf.write_text(NGINX.format(user=user, folder=folder, files=files, connections=connections, host=HOST,
                                 upstream=upstream, port=port))
    proc = subprocess.Popen([binary, "-p", folder, "-c", str(conf), "-e", f"{folder}/error.log"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log = Path(folder, "error.log")
            raise RuntimeError(f"nginx stopped: {log.read_text()[-500:] if log.exists() else proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 1):
            return proc
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise RuntimeError("nginx did not start within 30 s")


def report(out: Path_, phones: int, target: float, first: bool) -> bool:
    """Prints one path's figures; whether it met the target (p99 under ``target``, every phone, 0 errors)."""
    conns = max(1, out.connected)
    before, after = out.memory
    print(f"  {out.name} (move {out.move}, listening at {out.events}): {out.slips} slips handed in "
          f"({out.hand_took:.1f} s, p99 {out.hand_p99:.2f} s), errors {len(out.hand_errors)}; "
          f"connected {out.connected}, connection errors {len(out.connect_errors)}")
    if first:  # the later paths' phones reconnect into memory the first ones' left to the allocator
        print(f"    server memory: {before / 2**20:.0f} MB before, {after / 2**20:.0f} MB with the phones: "
              f"{(after - before) / conns / 1024:.1f} KB per connection")
        if out.proxy_memory[1]:
            print(f"    nginx memory: {out.proxy_memory[0] / 2**20:.0f} MB before, "
                  f"{out.proxy_memory[1] / 2**20:.0f} MB with the phones: "
                  f"{(out.proxy_memory[1] - out.proxy_memory[0]) / conns / 1024:.1f} KB per phone")
    else:  # what the moves before left: a path after another says whether the server's memory keeps growing
        print(f"    server memory: {before / 2**20:.0f} MB before, {after / 2**20:.0f} MB with the phones")
    ok = not out.connect_errors and not out.hand_errors and out.connected == phones
    for r in out.rounds:
        times = sorted(r.done.values())
        missing = out.connected - len(times)
        if times:
            told = f", told to refetch {r.told}" if r.told else ""
            proxy = f" (nginx {r.proxy_cpu / len(times) * 1000:.2f} ms)" if r.proxy_cpu else ""
            print(f"    {r.what} (the {r.action} POST answered in {r.took:.2f} s): {len(times)} phones had it; "
                  f"p50 {percentile(times, 0.5):.2f} s, p99 {percentile(times, 0.99):.2f} s, max {times[-1]:.2f} s; "
                  f"errors {len(r.errors)}, not their own {len(r.wrong)}, missed {missing}{told}; "
                  f"server CPU {r.cpu:.1f} s, {r.cpu / len(times) * 1000:.2f} ms per phone{proxy}; "
                  f"the arbiter's console loaded after {r.page:.2f} s, its grid refetched after {r.grid:.2f} s")
        else:
            print(f"    {r.what}: no phone had it; errors {len(r.errors)}")
        ok = ok and not r.errors and not r.wrong and missing == 0 and bool(times) and percentile(times, 0.99) < target
        for e in (r.errors + [f"phone {i}: not its own verdict" for i in r.wrong[:3]])[:3]:
            print(f"      {e}")
    for e in (out.hand_errors + out.connect_errors)[:3]:
        print(f"      {e}")
    return ok


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--phones", type=int, default=1000)
    p.add_argument("--db", help="a PostgreSQL URL, or 'postgresql' for a throw-away server (default: SQLite)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--limit", type=float, help="seconds for each path (default 120 + 0.06 s a phone)")
    p.add_argument("--server-src", help="run the server from this source folder (PYTHONPATH): a before/after")
    p.add_argument("--paths", default="pushed,refetched",
                   help=f"the paths measured, comma-separated, of {', '.join(PATHS)} (default: pushed,refetched)")
    p.add_argument("--spy", metavar="PREFIX",
                   help="profile the server with py-spy (pip install py-spy) during each round: PREFIX.path.round")
    p.add_argument("--proxy", choices=("nginx",),
                   help="the phones reach the server through nginx as docs/deploy.md sets it in front of the "
                        "workers (plain HTTP; Debian's nginx)")
    p.add_argument("--read-through-every", type=float, metavar="S",
                   help="each game read through for damage every S seconds (arbitru.web.damage's RECHECK_SOUND_S, "
                        "60 as served): at 1 a read-through is under way at every close")
    p.add_argument("--no-slips", action="store_true", help="phones that handed in nothing (every part the same)")
    p.add_argument("--from-move", type=int, metavar="N",
                   help="the first move measured, the moves before it played in the journal, each phone with its "
                        f"slip (default: {LATE_MOVE}, or as late as the paths fit in a game of {HALL_MOVES} moves: "
                        "a phone's part carries the game so far, and a close late in a game is the dear one)")
    a = p.parse_args()
    paths = tuple(x for x in a.paths.split(",") if x)
    if not paths or any(x not in PATHS for x in paths):
        p.error(f"--paths: some of {', '.join(PATHS)}")
    if a.from_move is None:
        a.from_move = min(LATE_MOVE, HALL_MOVES - len(paths))
    if not 1 <= a.from_move <= HALL_MOVES - len(paths):  # each path closes a move and draws the next
        p.error(f"--from-move: 1 to {HALL_MOVES - len(paths)} with {len(paths)} path(s)")
    if a.proxy and nginx_binary() is None:  # said before a hall of thousands is made
        p.error("--proxy nginx needs nginx (Debian: apt install nginx-light)")
    limit = a.limit or 120 + 0.06 * a.phones
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = a.phones + FETCHES + 256
    if hard != resource.RLIM_INFINITY and hard < need:
        print(f"error: the file limit is {hard}, {need} are needed for {a.phones} phones", file=sys.stderr)
        return 2
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, need), hard))  # the server inherits it
    pg = None
    proxy_said: list[str] = []
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        db = a.db or str(Path(tmp) / "listeners.db")
        if db == "postgresql":
            pg = PostgresServer().start()
            db = pg.new_database()
        try:
            gid, codes = make_hall(db, a.phones, seconds=SECONDS)
            play_before(db, gid, a.phones, a.from_move - 1)
            with Journal(db, actor="arbiter") as j:
                auth.set_password(j, auth.ARBITER, PASSWORD, auth.ARBITER)
                secret = auth.server_secret(j)
            port = free_port()
            proc = serve(db, port, a.workers, a.phones, a.server_src, proxied=a.proxy is not None,
                         read_through=None if a.read_through_every is None else (tmp, a.read_through_every))
            proxy, front = None, port
            try:
                if a.proxy:
                    front = free_port()
                    proxy = nginx(tmp, front, port, a.phones)
                hall = Hall(front, gid, [codes[str(i + 1)] for i in range(a.phones)], secret,
                            cookies=[""] * a.phones, spy=a.spy or "", proxy=proxy.pid if proxy else 0)
                cpu0 = time.process_time()
                with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:  # a cheap client
                    outs = runner.run(run_hall(hall, db, a.phones, proc.pid, limit, paths, not a.no_slips))
                client_cpu = time.process_time() - cpu0
            finally:
                for child in (proc, proxy):
                    if child is not None:
                        os.killpg(child.pid, signal.SIGKILL)
                        child.wait(20)
                if proxy is not None:  # what nginx complained of (connections, files) is said with the figures
                    with contextlib.suppress(OSError):
                        proxy_said = [line for line in Path(tmp, "error.log").read_text().splitlines()
                                      if re.search(r"\[(alert|crit|error|emerg)\]", line)]
        finally:
            if pg is not None:
                pg.stop()
    loads.append(os.getloadavg()[0])
    store = "PostgreSQL" if a.db else "SQLite"
    target = 1.0 if a.phones <= 1000 else 5.0
    print(f"{a.phones} phones, {'each with its own slip' if not a.no_slips else 'no slips'}, {store}, "
          f"{a.workers} worker(s){', server from ' + a.server_src if a.server_src else ''}"
          f"{', behind nginx (docs/deploy.md, plain HTTP)' if a.proxy else ''}"
          f"{f', each game read through every {a.read_through_every:g} s' if a.read_through_every else ''}; "
          f"load average {loads[0]:.1f} before, {loads[1]:.1f} after")
    print(f"  joined with their codes in {hall.joined:.1f} s, errors {len(hall.join_errors)}")
    for e in hall.join_errors[:3]:
        print(f"      {e}")
    ok = not hall.join_errors
    for n, out in enumerate(outs):
        ok = report(out, a.phones, target, n == 0) and ok
    if a.proxy:
        print(f"  nginx's error log: {len(proxy_said)} alerts and errors")
        for line in proxy_said[:3]:
            print(f"      {line[:200]}")
        ok = ok and not proxy_said
    print(f"  client CPU {client_cpu:.1f} s; target p99 < {target:g} s, every phone its own verdict, 0 errors: "
          f"{'PASS' if ok else 'over'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
