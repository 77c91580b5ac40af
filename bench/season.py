"""A season in one journal: 40 tournaments x 5 games x 150 players; the rating list and one tournament's
general table recomputed from scratch, with the time printed (target: under 10 s).

    .venv/bin/python bench/season.py
    .venv/bin/python bench/season.py --tournaments 10 --games 3 --players 50

Games are *recorded* results (:func:`arbitru.season.tournament.record`: each player's points per move and the
master moves), generated from a seeded random model of each player's strength, not played move by move through
the duplicate engine (200 played games of 150 players would take hours of slips); the season's tables read them
exactly as they read a linked game's results.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from arbitru.journal.store import Journal
from arbitru.season import csvfile, ratings, registry, tournament
from arbitru.season.table import general_table
from arbitru.season.tournament import Event


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=40)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=150)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(18)
    path = Path(tempfile.mkdtemp(prefix="arbitru-season-")) / "season.db"

    started = time.perf_counter()
    with Journal(path, actor="bench") as j:
        roster = "licence,name,club,rating\n" + "\n".join(
            f"L{i},Player {i},Club {i % 12},{1300 + rng.randrange(900)}" for i in range(1, args.players + 1))
        ids = csvfile.import_players(j, roster)
        skill = {p: rng.uniform(0.55, 0.95) for p in ids}
        for n in range(args.tournaments):
            month, day = 1 + n // 4, 1 + 7 * (n % 4)
            tid = tournament.create(j, Event(f"Etapa {n + 1}", f"2026-{month:02d}-{day:02d}"), f"t{n + 1}")
            tournament.enrol(j, tid, ids)
            for _ in range(args.games):
                masters = [rng.randrange(20, 90) for _ in range(args.moves)]
                scores = {p: [m if rng.random() < skill[p] else rng.randrange(m) for m in masters] for p in ids}
                tournament.record(j, tid, scores, masters)
    filled = time.perf_counter() - started
    events = sum(1 for _ in Journal(path).execute("SELECT seq FROM event"))
    print(f"journal filled: {args.tournaments} tournaments x {args.games} games x {args.players} players, "
          f"{events} events, {filled:.1f} s ({path.stat().st_size / 1e6:.1f} MB)")

    with Journal(path, actor="bench") as j:
        t0 = time.perf_counter()
        listed = ratings.rating_list(j)
        t1 = time.perf_counter()
        t = tournament.replay(j, f"t{args.tournaments}")
        rows = general_table(t, registry.load(j), tournament.outcomes(j, t))
        t2 = time.perf_counter()
        again = ratings.rating_list(j)
    same = [(r.player, r.elod, r.percentage) for r in listed] == [(r.player, r.elod, r.percentage) for r in again]
    games = sum(r.elod_games for r in listed)
    print(f"rating list from scratch: {len(listed)} players, {games} player-games, {t1 - t0:.2f} s "
          f"(top: {listed[0].name} {listed[0].elod:.1f})")
    print(f"one tournament's table from scratch: {len(rows)} rows, {t2 - t1:.2f} s")
    print(f"total: {t2 - t0:.2f} s (target under 10 s); recomputed again: {'same list' if same else 'DIFFERENT'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
