"""The memory of a worker that strangers train on: ``--games`` strangers, each from a loopback address of its own
(the throttle allows an address 10 starts in 10 minutes), start a duplicate training game (``/train``) on a real
``arbitru serve`` (one worker, a fresh SQLite journal in a temporary folder), look at its page, play one move and
look at the page again. Prints the server's resident memory (its process group's RSS) once it answered its first
page, after each quarter of the games, and at the end: the growth per game is what a worker keeps of each training
game it ever served (old code: all of them; now at most ``TRAINING_KEPT``, 200, see ``Web.used_training``).

    .venv/bin/python bench/web_training_memory.py                                  # 1,000 games
    .venv/bin/python bench/web_training_memory.py --games 300
    .venv/bin/python bench/web_training_memory.py --server-src /tmp/old/src        # another version's server

Modest on the machine: ``--at-once`` games (default 2) are played at a time. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_listeners import serve, server_rss
from web_server import free_port

LEXICON = "synthetic:2000"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


async def one_game(port: int, n: int) -> str:
    """Stranger ``n``'s training game: started, its page, one move, its page again; "" or what went wrong."""
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.{1 + n // 250}.{1 + n % 250}")
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=60) as c:
        start = await c.get("/train")
        token = CSRF.search(start.text)
        if start.status_code != 200 or token is None:
            return f"start page {start.status_code}"
        r = await c.post("/train", data={"csrf": token[1], "rules": "fise", "lang": "en", "lexicon": LEXICON,
                                         "moves": "10"})
        if r.status_code != 303:
            return f"start {r.status_code}"
        url = r.headers["location"]
        page = await c.get(url)
        token = CSRF.search(page.text)
        if page.status_code != 200 or token is None:
            return f"page {page.status_code}"
        r = await c.post(f"{url}/move", data={"csrf": token[1], "position": "H8", "word": "ZZZ"})
        if r.status_code != 303:
            return f"move {r.status_code}"
        page = await c.get(url)
        return "" if page.status_code == 200 else f"page after the move {page.status_code}"


async def play(port: int, pid: int, games: int, at_once: int) -> None:
    gate = asyncio.Semaphore(at_once)
    errors: list[str] = []
    done = 0
    quarter = max(1, games // 4)

    async def game(n: int) -> None:
        nonlocal done
        async with gate:
            try:
                said = await one_game(port, n)
            except httpx.HTTPError as e:
                said = type(e).__name__
            if said:
                errors.append(said)
            done += 1
            if done % quarter == 0 or done == games:
                print(f"  {done:5d} games: RSS {server_rss(pid) / 2**20:.1f} MB", flush=True)

    await asyncio.gather(*(game(n) for n in range(games)))
    if errors:
        print(f"  errors: {len(errors)}, first: {errors[:3]}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--at-once", type=int, default=2, help="games played at a time (default 2)")
    p.add_argument("--server-src", help="run the server from this source folder (PYTHONPATH): a before/after")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ARBITRU_WEB_TEST_LISTS"] = LEXICON  # the server's test switch: a stand-in word list
        db = str(Path(tmp) / "train.db")
        port = free_port()
        proc = serve(db, port, 1, 32, a.server_src)
        try:
            with contextlib.suppress(httpx.HTTPError):  # warmed up: its first pages
                for url in ("/", "/train"):
                    httpx.get(f"http://127.0.0.1:{port}{url}", timeout=30)
            before = server_rss(proc.pid)
            print(f"server from {a.server_src or 'this checkout'}: {a.games} training games, one move each, "
                  f"{a.at_once} at a time; RSS {before / 2**20:.1f} MB after its first pages", flush=True)
            t = time.perf_counter()
            asyncio.run(play(port, proc.pid, a.games, a.at_once))
            after = server_rss(proc.pid)
            print(f"RSS {before / 2**20:.1f} MB -> {after / 2**20:.1f} MB: {(after - before) / 1024 / a.games:.1f} KB "
                  f"per game played ({time.perf_counter() - t:.0f} s)")
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
