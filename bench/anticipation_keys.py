"""Time an anticipation slip handed in with its idempotency key, deep into a game: a slip sent again (its first
answer lost) and a new keyed slip, once every player of the hall has handed in a keyed slip for each of the 14
turns.

    .venv/bin/python bench/anticipation_keys.py                  # 100 players (1,400 slip events), 50 of each
    .venv/bin/python bench/anticipation_keys.py --players 400 --repeat 100

:meth:`AnticipationGame.hand_in` on a fresh SQLite journal, directly (no web). Checks what it times: each slip
sent again gets the receipt of the slip first stored with its key and stores nothing, each new one is stored, and
a slip sent with a used key but another total is refused (``KeyReused``), nothing stored.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from anticipation_support import new_game
from arbitru.formats.anticipation.slips import Slip, SlipRow
from arbitru.formats.anticipation.variants import TURNS
from arbitru.formats.receipt import KeyReused
from test_anticipation_correction import GROUPS


def slip(player: str, turn: int, total: str = "4") -> Slip:
    row = SlipRow(1, "", str(turn), "H7", "AL", "4", total, "")
    return Slip(player, turn, [row], source="web", written_turn=str(turn))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=50, help="slips sent again, and new ones, timed")
    args = parser.parse_args()
    repeat = min(args.repeat, args.players)
    print(f"load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as d:
        seating = [(f"P{i}", i, f"Player {i}") for i in range(1, args.players + 1)]
        game = new_game(Path(d), GROUPS, list(range(2, TURNS + 2)), seating=seating)
        now = time.time()
        first = {}
        start = time.perf_counter()
        for turn in range(1, TURNS + 1):
            for i in range(1, args.players + 1):
                first[(i, turn)] = game.hand_in(slip(f"P{i}", turn), now, f"k-{i}-{turn}")
        filled = time.perf_counter() - start
        stored = len(game.journal.events(game.id, "slip"))
        print(f"{args.players} players x {TURNS} turns: {stored} keyed slips handed in, "
              f"{filled / stored * 1000:.2f} ms a slip")

        start = time.perf_counter()
        for i in range(1, repeat + 1):
            again = game.hand_in(slip(f"P{i}", TURNS), now, f"k-{i}-{TURNS}")
            assert again == first[(i, TURNS)], (i, again)
        resent = (time.perf_counter() - start) / repeat
        assert len(game.journal.events(game.id, "slip")) == stored, "a slip sent again was stored"

        start = time.perf_counter()
        for i in range(1, repeat + 1):
            game.hand_in(slip(f"P{i}", TURNS, "5"), now, f"new-{i}")
        new = (time.perf_counter() - start) / repeat
        assert len(game.journal.events(game.id, "slip")) == stored + repeat

        try:
            game.hand_in(slip("P1", TURNS, "6"), now, "k-1-1")
        except KeyReused:
            pass
        else:
            raise AssertionError("another slip with a used key was taken")
        assert len(game.journal.events(game.id, "slip")) == stored + repeat
    print(f"a keyed slip sent again (its first receipt): {resent * 1000:.2f} ms")
    print(f"a new keyed slip (stored): {new * 1000:.2f} ms")
    print("checked: receipts of the slips sent again, nothing stored twice, another slip with a used key refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
