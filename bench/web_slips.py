"""A storm of slips from phones: N simulated phones each hand in one slip through the JSON API of a real server
on 127.0.0.1, spread over a few seconds; then the journal is checked against the receipts.

    .venv/bin/python bench/web_slips.py                      # 1,000 phones within 5 s
    .venv/bin/python bench/web_slips.py --phones 200 --spread 2
    .venv/bin/python bench/web_slips.py --db postgresql://… --workers 2 --phones 2000 [--kill-worker]
    .venv/bin/python bench/web_slips.py --db postgresql --workers 2 --phones 2000   # a throw-away server

With a PostgreSQL journal the same storm first runs against a single worker over SQLite, so the two figures come
from one run; ``--kill-worker`` SIGKILLs the worker that answered the middle slip (uvicorn starts another) and
the check still asks that every acknowledged slip is stored.

Prints p50/p99 latency and checks stored = acknowledged, 0 lost, 0 duplicated (exit status 1 otherwise). It
starts its own server on a free port over a fresh journal in a temporary folder, and stops by itself: every
request has a timeout and the whole storm a deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.pgserver import PostgresServer
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from web_server import free_port, start, stop

LEXICON = "synthetic:2000"


@dataclass
class Storm:
    acknowledged: dict[str, int] = field(default_factory=dict)  # player -> seq of a 201/409-stored receipt
    latencies: list[float] = field(default_factory=list)
    #: (seconds after the storm began, latency) of each answer
    timeline: list[tuple[float, float]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    #: the worker process that answered each request (X-Arbitru-Worker)
    workers: list[str] = field(default_factory=list)


#: the moves of a hall's game (a duplicate game lasts about as many)
HALL_MOVES = 15


def make_hall(db: str, phones: int, seconds: int = 600) -> tuple[str, dict[str, str]]:
    """A game with ``phones`` players (``seconds`` a move) and its first rack drawn; each player's code."""
    lex = load_lexicon(LEXICON, "en")
    settings = Settings(ruleset("fise", moves=HALL_MOVES, seconds=seconds), "en", LEXICON, seed="storm")
    with Journal(db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player(str(i), f"Player {i}") for i in range(1, phones + 1)])
        s.draw()
        secret = auth.server_secret(j)
    return s.id, {str(i): auth.player_code(secret, s.id, str(i)) for i in range(1, phones + 1)}


async def storm(base: str, gid: str, codes: dict[str, str], spread: float, deadline: float = 60.0,
                connections: int = 64,
                on_ack: Callable[[int], None] | None = None, into: Storm | None = None) -> Storm:
    """Every phone sends its slip at its own moment within ``spread`` seconds (results into ``into``, which the
    ``on_ack`` callback may read while the storm goes on)."""
    out = into if into is not None else Storm()
    # the phones share connections, as a hall's Wi-Fi access point would keep them alive (a new TCP connection
    # per phone costs the simulator more CPU than the server spends on the slip); small pools, because httpx's
    # pool does work proportional to its size on every request
    per_pool = 4
    limits = httpx.Limits(max_connections=per_pool, max_keepalive_connections=per_pool)
    count = max(1, connections // per_pool)
    pools = [httpx.AsyncClient(base_url=base, timeout=30, limits=limits) for _ in range(count)]
    async with contextlib.AsyncExitStack() as stack:
        for pool in pools:
            await stack.enter_async_context(pool)
        step = spread / max(1, len(codes))
        began = time.perf_counter()
        # no more requests in flight than connections: httpx's pool gets slow with long queues of waiters
        gate = asyncio.Semaphore(connections)

        async def phone(i: int, player: str, code: str) -> None:
            await asyncio.sleep(i * step)
            t0 = time.perf_counter()  # the phone's own moment: waiting for a connection counts in its latency
            try:
                async with gate:
                    r = await pools[i % len(pools)].post(
                        f"/api/games/{gid}/slips",
                        json={"move": 1, "position": "H8", "word": "AB"},
                        headers={"Authorization": f"Bearer {code}"},
                    )
            except httpx.HTTPError as e:
                out.failures.append(f"player {player}: {type(e).__name__}")
                return
            out.latencies.append(time.perf_counter() - t0)
            out.timeline.append((t0 - began, out.latencies[-1]))
            out.workers.append(r.headers.get("x-arbitru-worker", ""))
            body = r.json()
            if r.status_code in (201, 409) and body.get("stored"):
                out.acknowledged[player] = int(body["seq"])
                if on_ack is not None:
                    on_ack(len(out.acknowledged))
            else:
                out.failures.append(f"player {player}: {r.status_code} {body.get('error')}")

        tasks = [phone(i, p, c) for i, (p, c) in enumerate(codes.items())]
        await asyncio.wait_for(asyncio.gather(*tasks), deadline)
    return out


def check(db: str, gid: str, acknowledged: dict[str, int]) -> tuple[int, list[str], list[str]]:
    """Slips stored; acknowledged ones missing; players stored twice."""
    with Journal(db) as j:
        slips = j.events(gid, "slip")
    by_seq = {e.seq: str(e.payload["player"]) for e in slips}
    lost = [p for p, seq in acknowledged.items() if by_seq.get(seq) != p]
    players = [str(e.payload["player"]) for e in slips]
    twice = sorted({p for p in players if players.count(p) > 1})
    return len(slips), lost, twice


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def serve_workers(db: str, port: int, workers: int) -> subprocess.Popen[bytes]:
    """``arbitru serve --workers N`` in its own process group, answering before this returns."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "arbitru", "serve", "--db", db, "--port", str(port), "--workers", str(workers)],
        stdout=subprocess.DEVNULL, start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/static/app.css", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise RuntimeError("the workers did not start within 60 s")


def run(db: str, phones: int, spread: float, workers: int, kill_worker: bool) -> tuple[bool, str]:
    """One storm against a fresh game in ``db``; the report line and whether nothing was lost."""
    gid, codes = make_hall(db, phones)
    port = free_port()
    killed: list[str] = []
    result_box: list[Storm] = []
    if workers > 1:
        proc: subprocess.Popen[bytes] = serve_workers(db, port, workers)
    else:
        proc = start(db, port)

    def kill_midway(count: int) -> None:
        storm_now = result_box[0] if result_box else None
        if kill_worker and not killed and count >= phones // 2 and storm_now and storm_now.workers:
            pid = storm_now.workers[-1]
            killed.append(pid)
            os.kill(int(pid), signal.SIGKILL)

    try:
        t0 = time.perf_counter()
        result = Storm()
        result_box.append(result)
        result = asyncio.run(storm(f"http://127.0.0.1:{port}", gid, codes, spread, on_ack=kill_midway,
                                   into=result))
        wall = time.perf_counter() - t0
    finally:
        if workers > 1:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        else:
            stop(proc)
    stored, lost, twice = check(db, gid, result.acknowledged)
    lat = result.latencies
    store = "PostgreSQL" if db.startswith("postgres") else "SQLite"
    answered = len({w for w in result.workers if w})
    line = (
        f"{store:<10} {workers} worker{'s' if workers > 1 else ' '}  {phones} phones over {spread:g} s: "
        f"p50 {percentile(lat, 0.5) * 1000:.0f} ms, p99 {percentile(lat, 0.99) * 1000:.0f} ms, "
        f"max {max(lat, default=0) * 1000:.0f} ms; {len(result.acknowledged)} acknowledged, {stored} stored, "
        f"{len(lost)} lost, {len(twice)} duplicated, {len(result.failures)} failed; wall {wall:.1f} s; "
        f"answered by {answered} worker process{'es' if answered != 1 else ''}"
        + (f"; worker {killed[0]} killed mid-storm" if killed else "")
    )
    for f in result.failures[:5]:
        line += f"\n    failed: {f}"
    # with a worker killed, requests in flight on it fail unacknowledged: only lost or doubled entries count
    ok = not lost and not twice and stored == len(result.acknowledged)
    if not kill_worker:
        ok = ok and stored == phones
    return ok, line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--spread", type=float, default=5.0, help="seconds over which the slips arrive")
    parser.add_argument("--db", default=None,
                        help="a PostgreSQL URL, or 'postgresql' for a throw-away server (default: SQLite)")
    parser.add_argument("--workers", type=int, default=1, help="web workers (more than one: PostgreSQL)")
    parser.add_argument("--kill-worker", action="store_true", help="SIGKILL one worker in the middle of the storm")
    args = parser.parse_args()
    server = None
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            if args.db:
                # the SQLite single-worker figure of the same run, for comparison
                results.append(run(str(Path(tmp) / "storm.db"), args.phones, args.spread, 1, False))
                db = args.db
                if db == "postgresql":
                    server = PostgresServer().start()
                    db = server.new_database()
                results.append(run(db, args.phones, args.spread, args.workers, args.kill_worker))
            else:
                results.append(run(str(Path(tmp) / "storm.db"), args.phones, args.spread, 1, args.kill_worker))
        finally:
            if server is not None:
                server.stop()
    for _ok, line in results:
        print(line)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"CPU of the phones (this process) {usage.ru_utime + usage.ru_stime:.1f} s; "
          f"load average {os.getloadavg()[0]:.1f}")
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
