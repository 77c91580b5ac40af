"""Time the anticipation maximum: a 15-group game with the official list, beam widths 1 (greedy), 10, 100, 1,000.

    .venv/bin/python bench/anticipation_maximum.py                     # seeds 1-3, loc-5.0
    .venv/bin/python bench/anticipation_maximum.py --seeds 5 --widths 10 100 1000 3000

For each seeded draw and lots: the greedy line (each turn its best score, width 1, no look-ahead), then the beam
at each width: total found and seconds; the computer player (who does not know the lots to come) and the bound.
The widest line is entered as a player's slips in a journal and corrected: every placement must stand with the
score the search gave. Exit status 1 when a line does not replay or width 1,000 takes over 30 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from arbitru.engine.tiles import alphabet
from arbitru.formats.anticipation.draw import GroupRules, draw_groups
from arbitru.formats.anticipation.game import AnticipationGame, resolve_lexicon
from arbitru.formats.anticipation.maximum import Line, computer_game, line_slips, maximum
from arbitru.formats.anticipation.turns import TurnOrder
from arbitru.formats.anticipation.variants import TURNS, Settings
from arbitru.journal.store import Journal

TARGET = 30.0  # seconds for width 1,000


def replays(lexicon_name: str, draw: object, lots: list[int], line: Line) -> bool:
    """Is every placement of the line valid, with its score, when corrected as slips?"""
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "max.db")
        game = AnticipationGame.create(
            journal, Settings(lexicon=lexicon_name), draw, seating=[("MAX", 1, "Maximum")]  # type: ignore[arg-type]
        )
        for turn, group in enumerate(lots, 1):
            game.draw_lot(turn, group)
        game.enter_slips(line_slips(line, "MAX", 1))
        result = game.replay().results["MAX"]
    got = [(v.turn, v.status, v.position, v.score) for v in result.verdicts() if v.status != "void"]
    return got == [(s.turn, "valid", s.position, s.score) for s in line.steps] and result.total == line.total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="games 1..N")
    parser.add_argument("--widths", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--lexicon", default="loc-5.0")
    args = parser.parse_args()
    alpha = alphabet("ro")
    lex = resolve_lexicon(args.lexicon, alpha)
    print(f"list {lex.name}; load average {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs")
    ok = True
    header = f"{'game':>4} {'greedy':>7} " + " ".join(f"{'w' + str(w):>14}" for w in args.widths)
    print(header + f" {'computer':>9} {'bound':>7}  replays")
    for seed in range(1, args.seeds + 1):
        draw = draw_groups(GroupRules(alpha, lex), seed=seed)
        order = TurnOrder()
        lots = [order.draw(t, seed).group for t in range(1, TURNS + 1)]
        greedy = maximum(lex, draw.groups, lots, beam=1, lookahead=0, seed=seed, computer=False)
        cells = []
        widest = greedy
        for w in args.widths:
            r = maximum(lex, draw.groups, lots, beam=w, seed=seed)
            cells.append(f"{r.total:>6} {r.seconds:>5.1f} s")
            if w == 1000 and r.seconds > TARGET:
                ok = False
            widest = r
        started = time.perf_counter()
        robot = computer_game(lex, draw.groups, lots, seed=seed)
        robot_s = time.perf_counter() - started
        good = replays(lex.name, draw, lots, widest.line)
        ok = ok and good
        print(
            f"{seed:>4} {greedy.total:>7} " + " ".join(f"{c:>14}" for c in cells)
            + f" {robot.total:>5} {robot_s:.1f}s {widest.bound:>7}  {'yes' if good else 'NO'}"
        )
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
