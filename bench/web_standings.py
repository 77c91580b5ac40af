"""Standings over many games: ``GET /standings`` on a real ``arbitru serve`` on 127.0.0.1 over
a journal of G duplicate games of P players each (moves closed, so every game has results). Times the first
request (every game read once), reloads while nothing changed, and a reload after one game moved on.

    .venv/bin/python bench/web_standings.py                        # 100 games of 1,000 players
    .venv/bin/python bench/web_standings.py --games 10 --players 200
    .venv/bin/python bench/web_standings.py --server-src /tmp/old/src   # another version's server (before/after)

Every request has a timeout; the journal lives in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from web_listeners import serve
from web_server import free_port

LEXICON = "synthetic:2000"


def fill(db: str, games: int, players: int, moves: int) -> list[str]:
    lex = load_lexicon(LEXICON, "en")
    ids = []
    with Journal(db, actor="arbiter") as j:
        for g in range(games):
            settings = Settings(ruleset("fise", moves=moves + 1, seconds=60), "en", LEXICON, seed=f"standings-{g}")
            s = Session.create(j, settings, lex, [Player(str(i), f"Player {i}") for i in range(1, players + 1)])
            for _ in range(moves):
                s.draw()
                s.place_master()
            ids.append(s.id)
    return ids


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--players", type=int, default=1000)
    p.add_argument("--moves", type=int, default=2, help="moves closed in each game (default 2)")
    p.add_argument("--reloads", type=int, default=5)
    p.add_argument("--server-src", help="run the server from this source folder (PYTHONPATH): a before/after")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "standings.db")
        t = time.perf_counter()
        ids = fill(db, a.games, a.players, a.moves)
        filled = time.perf_counter() - t
        port = free_port()
        proc = serve(db, port, 1, 32, a.server_src)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=3600) as c:

                def timed() -> float:
                    t = time.perf_counter()
                    r = c.get("/standings")
                    r.raise_for_status()
                    return time.perf_counter() - t

                first = timed()
                reloads = sorted(timed() for _ in range(a.reloads))
                with Journal(db, actor="arbiter") as j:  # one game moves on: its next rack drawn
                    s = Session(j, ids[0], load_lexicon(LEXICON, "en"))
                    s.draw()
                moved = timed()
                again = timed()
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(20)
    print(f"/standings over {a.games} games of {a.players} players ({a.moves} moves closed each; journal filled in "
          f"{filled:.0f} s){', server from ' + a.server_src if a.server_src else ''}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  first request {first * 1000:.0f} ms; reloads, nothing changed: median "
          f"{reloads[len(reloads) // 2] * 1000:.1f} ms, max {reloads[-1] * 1000:.1f} ms")
    print(f"  after one game moved on: {moved * 1000:.0f} ms, then {again * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
