"""Time the long documents of a 150-player event: the duplicate results PDF and the anticipation Annex 3 results
sheets (one page per player) as PDF, as the pages make them (``GET /games/{id}/download/results.pdf``,
``GET /games/{id}/forms/results.pdf``), through the app in this process.

    .venv/bin/python bench/web_pdfs.py                  # 150 players, 15 duplicate moves
    .venv/bin/python bench/web_pdfs.py --players 60

Prints, for each document, the time of the first answer (the PDF, or the progress page when it is not made
within ``documents.WAIT``) and the time until the PDF came. The target (issue 23): each PDF in under 5 s, or made
in the background with its progress shown (the first answer in under 5 s).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.simulate import simulate
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from arbitru.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

LEXICON = "synthetic:2000"


def duplicate_game(db: str, players: int, moves: int) -> str:
    lex = load_lexicon(LEXICON, "en")
    settings = Settings(ruleset("fise", moves=moves, seconds=60), "en", LEXICON, seed="7", title="Open")
    with Journal(db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player(str(n), f"Player {n}") for n in range(1, players + 1)])
        for _ in range(moves):
            step = s.draw()
            if step.kind != "rack":
                break
            cands = s.candidates()
            slips = []
            for n in range(1, players + 1):
                c = cands[n % len(cands)] if cands else None
                if c is not None:
                    slips.append(Slip(s.game.move, str(n), c.placement.coord.format("fise"),
                                      s.game.alphabet.format(c.placement.word), c.score))
            s.store_slips(slips)
            s.place_master()
        return s.id


def anticipation_game(db: str, players: int) -> str:
    from anticipation_support import lexicon as test_lexicon
    from web_anticipation import create

    lexicon = test_lexicon()
    sim = simulate(lexicon, players=players, seed=7)
    gid = create(db, sim, lexicon)
    with Journal(db, actor="arbiter") as j:
        game = AnticipationGame(j, gid)
        for turn in sorted(sim.slips):
            game.enter_slips(sim.slips[turn])
        game.publish("provisional", "18:30")
    return gid


def timed(client: TestClient, url: str) -> tuple[float, float, int, int]:
    """The first answer's time (the PDF, or the progress page of a long one) and the time until the PDF came,
    asking again as the progress page does."""
    t0 = time.perf_counter()
    r = client.get(url)
    first = time.perf_counter() - t0
    while r.status_code == 202:
        time.sleep(1)
        r = client.get(url)
    return first, time.perf_counter() - t0, r.status_code, len(r.content)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=150)
    ap.add_argument("--moves", type=int, default=15)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "pdfs.db")
        app = create_app(db, test_lists=(LEXICON,))
        with Journal(db, actor="arbiter") as j:
            auth.set_password(j, auth.ARBITER, "bench-pass-1", auth.ARBITER)
        t0 = time.perf_counter()
        dup = duplicate_game(db, a.players, a.moves)
        ant = anticipation_game(db, a.players)
        print(f"set-up: {a.players} players, a {a.moves}-move duplicate game and a 14-turn anticipation game "
              f"({time.perf_counter() - t0:.1f} s)")
        client = TestClient(app)
        for label, url in (
            ("duplicate results page (HTML)", f"/games/{dup}/results"),
            ("duplicate results PDF", f"/games/{dup}/download/results.pdf"),
            ("anticipation Annex 3 results (HTML)", f"/games/{ant}/forms/results.html"),
            ("anticipation Annex 3 results PDF", f"/games/{ant}/forms/results.pdf"),
        ):
            first, seconds, status, size = timed(client, url)
            print(f"{label:38s} first answer {first:5.2f} s, document {seconds:6.2f} s  status {status}  "
                  f"{size / 1024:6.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
