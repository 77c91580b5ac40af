"""Forty anonymous visitors flood each public page and document of a real ``arbitru serve`` on 127.0.0.1 (issue 29,
item 2: nothing an anonymous visitor asks costs more than a page). For each URL in turn: 40 clients, each from
its own loopback address (127.0.0.10 … 127.0.0.49) and without cookies, ask it again and again for ``--seconds``;
meanwhile one more visitor opens a normal page (``/``) every half second. Prints per URL: the answers (by
status), the server's resident memory (its process group's RSS: at the start, the peak, at the end) and the
normal page's answer time (median, max) meanwhile.

    .venv/bin/python bench/web_flood.py                            # 150-player games, 10,000 registry records
    .venv/bin/python bench/web_flood.py --seconds 10 --only slips.pdf,api
    .venv/bin/python bench/web_flood.py --server-src /tmp/main/src   # another version's server (before/after)
    .venv/bin/python bench/web_flood.py --data /tmp/flood            # the journal kept there, reused next time

Bounded: each URL's flood lasts ``--seconds`` (every request has a timeout), the server is started afresh for
each URL (its documents folder emptied) and stopped after it, and stopped at once when its memory passes
``--max-rss`` MB (the line says so). The journal (a duplicate game with its results, a published anticipation
game, the registry) is made once in ``--data`` (default: a temporary folder).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import signal
import ssl
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arbitru.journal.store import Journal
from arbitru.season import registry
from web_listeners import serve, server_rss
from web_pdfs import anticipation_game, duplicate_game
from web_server import free_port

CLIENTS = 40


def fill(db: str, players: int, moves: int, records: int) -> dict[str, str]:
    """The journal: a duplicate game of ``players`` with ``moves`` closed, a published anticipation game of as
    many players, ``records`` registry records. Returns the ids the URLs need."""
    t = time.perf_counter()
    dup = duplicate_game(db, players, moves)
    ant = anticipation_game(db, players)
    with Journal(db, actor="arbiter") as j:
        ids = registry.register(j, [registry.Entry(f"Player {n}", licence=f"F{n}") for n in range(1, records + 1)])
    print(f"journal made in {time.perf_counter() - t:.0f} s: {players} players each game, {records} records",
          flush=True)
    return {"dup": dup, "ant": ant, "pid": ids[len(ids) // 2]}


def urls(ids: dict[str, str]) -> list[tuple[str, str]]:
    dup, ant, pid = ids["dup"], ids["ant"], ids["pid"]
    return [
        ("slips.pdf", f"/games/{ant}/forms/slips.pdf"),
        ("anticipation results.pdf", f"/games/{ant}/forms/results.pdf"),
        ("duplicate results.pdf", f"/games/{dup}/download/results.pdf"),
        ("results.csv", f"/games/{dup}/download/results.csv"),
        ("api duplicate", f"/api/games/{dup}"),
        ("api anticipation", f"/api/games/{ant}"),
        ("duplicate results page", f"/games/{dup}/results"),
        ("anticipation results page", f"/games/{ant}/results"),
        ("registry", "/registry"),
        ("player", f"/players/{pid}"),
        ("ratings", "/ratings"),
        ("standings unknown ids", f"/standings?game={dup}&game=unknown-{{n}}"),
    ]


def word_list_home(folder: Path) -> Path:
    """A home for the server with the test word list the anticipation game is played with (``test-ro``,
    registered only in this process otherwise), as ``arbitru lexicon import`` puts one."""
    from anticipation_support import WORDS_RO
    from arbitru.lexicons import catalog

    home = folder / "home"
    if not (home / "done").exists():
        shutil.rmtree(home, ignore_errors=True)
        words = folder / "test-ro.txt"
        words.write_text("\n".join(WORDS_RO) + "\n", "utf-8")
        catalog.import_list(words, "ro", "test-ro", home=home)
        (home / "npm").symlink_to(catalog.home_dir() / "npm")  # htmx, installed by the set-up
        (home / "done").touch()
    return home


async def flood(port: int, url: str, seconds: float) -> Counter[str]:
    """``CLIENTS`` anonymous visitors asking ``url`` again and again for ``seconds``: their answers by status."""
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    statuses: Counter[str] = Counter()
    counter = iter(range(10**9))
    tls = ssl.create_default_context()  # made once: each client making its own costs a second under load

    async def visitor(i: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{10 + i}", verify=tls)
        async with httpx.AsyncClient(base_url=base, transport=transport) as c:
            while (left := deadline - time.monotonic()) > 0:
                c.cookies.clear()  # anonymous every time
                try:
                    r = await c.get(url.replace("{n}", str(next(counter))), timeout=max(left, 0.5))
                    statuses[str(r.status_code)] += 1
                except httpx.HTTPError as e:
                    statuses["timeout" if isinstance(e, httpx.TimeoutException) else type(e).__name__] += 1

    for failed in await asyncio.gather(*(visitor(i) for i in range(CLIENTS)), return_exceptions=True):
        if isinstance(failed, BaseException):
            statuses[f"bench error {type(failed).__name__}: {failed}"] += 1
    return statuses


def measured(port: int, pid: int, url: str, seconds: float, max_rss: int) -> str:
    """The flood of ``url``, with the server's memory sampled and a normal page timed meanwhile, each in a thread
    of its own (the flood's event loop does not delay them)."""
    rss = [server_rss(pid)]
    probes: list[float] = []
    over = threading.Event()
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.25):
            rss.append(server_rss(pid))
            if rss[-1] > max_rss:
                over.set()
                os.killpg(pid, signal.SIGKILL)
                return

    def probe() -> None:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", verify=ssl.create_default_context()) as c:
            while not done.wait(0.5):
                t = time.perf_counter()
                try:
                    c.get("/", timeout=30).raise_for_status()
                    probes.append(time.perf_counter() - t)
                except httpx.HTTPError:
                    probes.append(float("inf"))

    threads = [threading.Thread(target=watch, daemon=True), threading.Thread(target=probe, daemon=True)]
    for t in threads:
        t.start()
    try:
        statuses = asyncio.run(flood(port, url, seconds))
    finally:
        done.set()
        for t in threads:
            t.join(40)
    end = 0 if over.is_set() else server_rss(pid)
    answered = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
    unanswered = sum(1 for p in probes if p == float("inf"))
    normal = (f"normal page median {statistics.median(probes) * 1000:.0f} ms, max "
              f"{max(probes) * 1000:.0f} ms ({unanswered} of {len(probes)} unanswered in 30 s)"
              if probes else "normal page: no answer")
    mb = 1024 * 1024
    stopped = f" STOPPED: RSS over {max_rss // mb} MB" if over.is_set() else ""
    return (f"answers {answered}; RSS {rss[0] // mb} MB -> peak {max(rss) // mb} MB, end {end // mb} MB; "
            f"{normal}{stopped}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=150)
    p.add_argument("--moves", type=int, default=10)
    p.add_argument("--records", type=int, default=10_000)
    p.add_argument("--seconds", type=float, default=15.0, help="each URL's flood (default 15)")
    p.add_argument("--max-rss", type=int, default=4000, help="MB: the server is stopped beyond (default 4000)")
    p.add_argument("--only", help="comma-separated parts of the URLs' labels to flood (default: all)")
    p.add_argument("--data", help="a folder to keep the journal in and reuse (default: a temporary one)")
    p.add_argument("--server-src", help="run the server from this source folder (PYTHONPATH): a before/after")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(a.data or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        db = str(folder / "flood.db")
        ids_file = folder / "ids"
        if not ids_file.exists():
            ids = fill(db, a.players, a.moves, a.records)
            ids_file.write_text(" ".join(f"{k}={v}" for k, v in ids.items()))
        ids = dict(kv.split("=", 1) for kv in ids_file.read_text().split())
        os.environ["ARBITRU_HOME"] = str(word_list_home(folder))  # the servers' home
        print(f"server from {a.server_src or 'this checkout'}; {CLIENTS} anonymous clients, {a.seconds:.0f} s each; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)
        for label, url in urls(ids):
            if a.only and not any(part in label for part in a.only.split(",")):
                continue
            shutil.rmtree(f"{db}.documents", ignore_errors=True)
            port = free_port()
            proc = serve(db, port, 1, CLIENTS, a.server_src)
            try:
                with contextlib.suppress(httpx.HTTPError):  # warmed up: the server's first page
                    httpx.get(f"http://127.0.0.1:{port}/", timeout=30)
                line = measured(port, proc.pid, url, a.seconds, a.max_rss * 1024 * 1024)
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(20)
            print(f"{label:26s} {line}; load {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
