"""Copy games between the journal's two stores and compare their replays: SQLite → PostgreSQL → SQLite.

    .venv/bin/python bench/journal_copy.py                       # 1,000 duplicate games + a 200-player game
    .venv/bin/python bench/journal_copy.py --games 100 --pg postgresql://user@host/db

Without ``--pg`` a throw-away PostgreSQL server is started (Debian's postgresql, as ./arbitru test installs it).
Every game is replayed on each side, results included; the digests must be equal (exit status 1 otherwise).
Prints the time to fill the first journal, to copy each way, and events per second.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from arbitru.cli.journal import copy_games
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.simulate import simulate
from arbitru.formats.anticipation.variants import Settings as AntSettings
from arbitru.formats.duplicate.game import Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.pgserver import PostgresServer
from arbitru.journal.store import Journal
from arbitru.lexicons.catalog import load


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded duplicate games (FISE, fise-2)")
    parser.add_argument("--players", type=int, default=200, help="players of the anticipation game")
    parser.add_argument("--pg", default=None, help="a PostgreSQL URL (default: a throw-away server)")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="arbitru-copy-"))
    server = None if args.pg else PostgresServer().start()
    pg = args.pg or (server.new_database() if server else "")
    try:
        first = Journal(tmp / "first.db", actor="bench")
        t = time.perf_counter()
        lex = load("fise-2", "es")
        for n in range(args.games):
            Session.create(first, Settings(ruleset("fise"), "es", "fise-2", seed=str(n)), lex).play_auto()
        ro = load(None, "ro")
        sim = simulate(ro, players=args.players, seed=7)
        game = AnticipationGame.create(
            first, AntSettings(lexicon=ro.name, seed=7), sim.draw, lexicon=ro, seating=sim.seating
        )
        for turn, group in enumerate(sim.lots, 1):
            game.draw_lot(turn, group)
        for turn in sorted(sim.slips):
            game.enter_slips(sim.slips[turn])
        fill = time.perf_counter() - t
        events = sum(first.last_seq(g) for g in first.game_ids())
        print(f"filled SQLite: {args.games} duplicate games + 1 anticipation game of {args.players} players, "
              f"{events:,} events in {fill:.1f} s")

        t = time.perf_counter()
        there = copy_games(first, Journal(pg, actor="bench"))
        to_pg = time.perf_counter() - t
        t = time.perf_counter()
        back = copy_games(Journal(pg, actor="bench"), Journal(tmp / "back.db", actor="bench"))
        to_sqlite = time.perf_counter() - t
        same = [a.digest for a, _ in there] == [b.digest for _, b in there] == [b.digest for _, b in back]
        print(f"SQLite → PostgreSQL: {to_pg:.1f} s ({events / to_pg:,.0f} events/s, both replays included)")
        print(f"PostgreSQL → SQLite: {to_sqlite:.1f} s ({events / to_sqlite:,.0f} events/s)")
        print(f"{len(there)} games, replays identical on the three stores: {'yes' if same else 'NO'}")
        return 0 if same else 1
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
