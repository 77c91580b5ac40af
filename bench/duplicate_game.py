"""Time whole automatic duplicate games, and audit them (every tile, every rack, the end, master moves, ties).

    .venv/bin/python bench/duplicate_game.py                       # one game per rule set, official lists
    .venv/bin/python bench/duplicate_game.py --games 1000 --sample 10 --engine compiled   # the full run
    .venv/bin/python bench/duplicate_game.py --rules fise --lang es --lexicon fise-2 --games 20

Prints, per rule set: games, moves, seconds per game and per move (generation, drawing and journal included),
rack redraws, ties seen, how games ended, and every problem the audit finds (the exit status is 1 if any).
``--sample N`` checks one master move in N against the reference generator (0: none; it costs a reference
generation per checked move, so keep it high for the compiled engine's thousand games).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from arbitru.formats.duplicate.audit import audit
from arbitru.formats.duplicate.game import Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal

CONFIGS = [
    ("romanian", "ro", "loc-5.0"),
    ("fise", "es", "fise-2"),
    ("fise", "pl", "sjp-growy"),
    ("greek", "el", "el-hunspell"),
]


def load(name: str, lang: str):  # type: ignore[no-untyped-def]
    if name.startswith("synthetic"):
        from arbitru.lexicons.synthetic import synthetic_lexicon

        return synthetic_lexicon(lang, int(name.partition(":")[2] or 800))
    from arbitru.lexicons.catalog import load as catalog_load

    return catalog_load(name, lang)


def run(
    rules: str,
    lang: str,
    lexicon_name: str,
    games: int,
    engine: str,
    sample: int,
    variant: str,
    first_seed: int,
) -> bool:
    lex = load(lexicon_name, lang)
    played = moves = redraws = ties = 0
    ends: Counter[str] = Counter()
    problems: list[str] = []
    game_seconds = audit_seconds = 0.0
    slowest = 0.0
    for seed in range(first_seed, first_seed + games):
        journal = Journal(":memory:")
        settings = Settings(
            ruleset(rules), lang, lexicon_name, seed=str(seed), engine=engine, variant=variant
        )
        session = Session.create(journal, settings, lex)
        start = time.perf_counter()
        session.play_auto()
        took = time.perf_counter() - start
        game_seconds += took
        slowest = max(slowest, took)
        start = time.perf_counter()
        report = audit(session, sample=sample, seed=seed)
        audit_seconds += time.perf_counter() - start
        played += 1
        moves += report.moves
        redraws += report.rejected
        ties += report.ties
        ends[report.end_kind] += 1
        problems.extend(f"seed {seed}: {p}" for p in report.problems)
        journal.close()
    per_move = game_seconds / moves if moves else 0.0
    print(
        f"{rules:>9} {lang} {lexicon_name:<12} engine {engine:<9} games {played:>5}  moves {moves:>6} "
        f"({moves / played:.1f}/game)  {game_seconds / played:7.3f} s/game (slowest {slowest:.3f})  "
        f"{per_move * 1000:7.1f} ms/move  audit {audit_seconds / played:.3f} s/game"
    )
    print(
        f"{'':>12} redraws {redraws}  tied masters seen {ties}  ends: "
        + "; ".join(f"{k} ×{v}" for k, v in ends.most_common())
    )
    for p in problems[:20]:
        print(f"{'':>12} PROBLEM {p}")
    if len(problems) > 20:
        print(f"{'':>12} ... {len(problems) - 20} more problems")
    return not problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", choices=["fise", "greek", "romanian"], help="one rule set (default: all four)")
    ap.add_argument("--lang", help="tile set for --rules")
    ap.add_argument("--lexicon", help="word list for --rules (catalog name, or synthetic:N)")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--engine", choices=["compiled", "reference"], default="compiled")
    ap.add_argument("--sample", type=int, default=4, help="check one master move in N (0: none)")
    ap.add_argument("--variant", choices=["standard", "joker", "sudden-death"], default="standard")
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    args = ap.parse_args()
    if args.rules:
        default = {"fise": ("es", "fise-2"), "greek": ("el", "el-hunspell"), "romanian": ("ro", "loc-5.0")}
        lang = args.lang or default[args.rules][0]
        configs = [(args.rules, lang, args.lexicon or default[args.rules][1])]
    else:
        configs = CONFIGS
    ok = True
    for rules, lang, name in configs:
        ok &= run(rules, lang, name, args.games, args.engine, args.sample, args.variant, args.seed)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
