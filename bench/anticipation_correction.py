"""Time the correction of an anticipation game: one turn of 200 players, and the whole game replayed.

    .venv/bin/python bench/anticipation_correction.py                  # 200 players, the official list
    .venv/bin/python bench/anticipation_correction.py --players 500 --seed 3 --lexicon loc-5.0

A game is simulated (slips with a realistic mix of errors, see arbitru.formats.anticipation.simulate), stored
in a
journal turn by turn, then corrected: the figure is the time to correct each turn for every player (boards,
coordinate searches, cancellations, warnings), as the arbiters do during the next turn (RO-5.3). The whole
replay
from the journal (events decoded, every turn corrected, penalties capped, ranking) is timed too. The verdicts
are
checked against what the generator meant; the exit status is 1 on any difference.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from arbitru.engine.tiles import alphabet
from arbitru.formats.anticipation.correction import Correction, Setup, SlipEntry
from arbitru.formats.anticipation.draw import GroupRules, draw_groups
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.simulate import simulate
from arbitru.formats.anticipation.variants import TURNS, Settings
from arbitru.journal.store import Journal


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--lexicon", default=None, help="catalog name or file (default: the Romanian default)"
    )
    args = parser.parse_args()

    from arbitru.lexicons.catalog import default_name, load

    started = time.perf_counter()
    lex = load(args.lexicon or default_name("ro"), "ro")
    ro = alphabet("ro")
    # the players look for short words and a sample of the longer ones; every word is judged on the whole list
    words = [w for i, w in enumerate(lex.words()) if len(w) <= 3 or (len(w) <= 7 and i % 61 == 0)]
    print(
        f"list {lex.name}: loaded, {len(words)} words sampled for the players' search "
        f"({time.perf_counter() - started:.1f} s)"
    )

    started = time.perf_counter()
    draw = draw_groups(GroupRules(ro, lex), seed=args.seed)
    sim = simulate(lex, players=args.players, seed=args.seed, draw=draw, planner_words=words)
    placements = len(sim.placements)
    print(
        f"simulated {args.players} players: {sum(len(v) for v in sim.slips.values())} slips, {placements} "
        f"placements ({time.perf_counter() - started:.1f} s); errors: "
        + ", ".join(f"{k} {n}" for k, n in sorted(sim.stats.items()))
    )

    settings = Settings(lexicon=lex.name, seed=args.seed)
    setup = Setup(
        settings,
        ro,
        lex,
        draw.groups,
        dict(enumerate(sim.lots, 1)),
        {p: t for p, t, _ in sim.seating},
        {p: n for p, _, n in sim.seating},
    )
    correction = Correction(setup, [p for p, _, _ in sim.seating])
    for slip in sim.slips.get(0, []):
        correction.add_unattributed(slip.player, SlipEntry(None, slip))
    times = []
    for turn in range(1, TURNS + 1):
        entries = {s.player: SlipEntry(None, s) for s in sim.slips.get(turn, [])}
        t0 = time.perf_counter()
        correction.correct_turn(turn, entries)
        times.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    results = correction.finish()
    finish = time.perf_counter() - t0
    print(
        f"correcting one turn of {args.players} players: max {max(times):.3f} s (turn "
        f"{times.index(max(times)) + 1}), mean {statistics.mean(times):.3f} s, "
        f"per placement {1000 * sum(times) / placements:.2f} ms; "
        f"penalties, warnings and totals {finish:.3f} s"
    )

    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "bench.db")
        game = AnticipationGame.create(journal, settings, draw, lexicon=lex, seating=sim.seating)
        for turn, group in enumerate(sim.lots, 1):
            game.draw_lot(turn, group)
        t0 = time.perf_counter()
        for turn in sorted(sim.slips):
            game.enter_slips(sim.slips[turn])
        stored = time.perf_counter() - t0
        t0 = time.perf_counter()
        state = game.replay()
        replay = time.perf_counter() - t0
        print(
            f"journal: {len(sim.slips)} slip files stored in {stored:.2f} s; the whole game replayed "
            f"(decode, 14 turns, ranking) in {replay:.2f} s"
        )

    wrong = 0
    for (player, turn, index), e in sim.placements.items():
        v = next(v for v in results[player].slips[turn].placements if v.index == index)
        if (v.status, v.rule, v.points, v.penalty) != (e.status, e.rule, e.points, e.penalty):
            wrong += 1
    wrong += sum(1 for p, total in sim.totals.items() if results[p].total != total)
    wrong += sum(1 for p, r in state.results.items() if r.total != results[p].total)
    print(
        f"verdicts checked against the generator: {placements} placements, {len(sim.totals)} totals, "
        f"{wrong} differences"
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
