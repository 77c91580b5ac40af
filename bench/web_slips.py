"""A storm of slips from phones: N simulated phones each hand in one slip through the JSON API of a real server
on 127.0.0.1, spread over a few seconds; then the journal is checked against the receipts.

    .venv/bin/python bench/web_slips.py                      # 1,000 phones within 5 s
    .venv/bin/python bench/web_slips.py --phones 200 --spread 2

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
from arbitru.journal.store import Journal
from arbitru.web import auth
from arbitru.web.app import load_lexicon
from web_server import free_port, start, stop

LEXICON = "synthetic:2000"


@dataclass
class Storm:
    acknowledged: dict[str, int] = field(default_factory=dict)  # player -> seq of a 201/409-stored receipt
    latencies: list[float] = field(default_factory=list)
    #: (seconds after the storm began, latency) of each answer
    timeline: list[tuple[float, float]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def make_hall(db: str, phones: int) -> tuple[str, dict[str, str]]:
    """A game with ``phones`` players and its first rack drawn; each player's code."""
    lex = load_lexicon(LEXICON, "en")
    settings = Settings(ruleset("fise", moves=5, seconds=600), "en", LEXICON, seed="storm")
    with Journal(db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player(str(i), f"Player {i}") for i in range(1, phones + 1)])
        s.draw()
        secret = auth.server_secret(j)
    return s.id, {str(i): auth.player_code(secret, s.id, str(i)) for i in range(1, phones + 1)}


async def storm(base: str, gid: str, codes: dict[str, str], spread: float, deadline: float = 60.0,
                connections: int = 64,
                on_ack: Callable[[int], None] | None = None) -> Storm:
    """Every phone sends its slip at its own moment within ``spread`` seconds."""
    out = Storm()
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--spread", type=float, default=5.0, help="seconds over which the slips arrive")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "storm.db")
        gid, codes = make_hall(db, args.phones)
        port = free_port()
        proc = start(db, port)
        try:
            t0 = time.perf_counter()
            result = asyncio.run(storm(f"http://127.0.0.1:{port}", gid, codes, args.spread))
            wall = time.perf_counter() - t0
        finally:
            stop(proc)
        client_cpu = resource.getrusage(resource.RUSAGE_SELF)
        server_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        stored, lost, twice = check(db, gid, result.acknowledged)
    lat = result.latencies
    print(f"{args.phones} phones over {args.spread:g} s: {len(result.acknowledged)} acknowledged, {stored} stored, "
          f"{len(lost)} lost, {len(twice)} duplicated, {len(result.failures)} failed; wall {wall:.2f} s")
    print(f"latency p50 {percentile(lat, 0.5) * 1000:.0f} ms, p99 {percentile(lat, 0.99) * 1000:.0f} ms, "
          f"max {max(lat, default=0) * 1000:.0f} ms")
    print(f"CPU: phones (this process) {client_cpu.ru_utime + client_cpu.ru_stime:.1f} s, "
          f"server {server_cpu.ru_utime + server_cpu.ru_stime:.1f} s; load average {os.getloadavg()[0]:.1f}")
    worst = {}
    for at, lat_s in result.timeline:
        worst[int(at)] = max(worst.get(int(at), 0.0), lat_s)
    by_second = ", ".join(f"{s}s {v * 1000:.0f} ms" for s, v in sorted(worst.items()))
    print(f"worst latency by second of the storm: {by_second}")
    for f in result.failures[:10]:
        print("  failed:", f)
    ok = not lost and not twice and stored == len(result.acknowledged) == args.phones
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
