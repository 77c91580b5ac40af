"""Benchmark of the compiled core (arbitru._core) on ENABLE: automaton build, load, move generation.

Seeded self-play (top move each turn, English tile set) collects mid-game positions; each position is then
timed through the Python API, for all placements (top=0) and for the best ones (top=1): per position the
median wall time of ``--repeat`` calls (and the mean CPU time of this thread), then mean and median over
the positions.

    python bench/movegen_core.py [--lexicon ../shared/lexicons/enable1.txt] [--games 8] [--repeat 20]

Targets (issue): all placements <= 0.3 ms and best placement <= 0.15 ms per position on average,
ENABLE automaton build < 0.5 s.
"""

from __future__ import annotations

import argparse
import mmap
import os
import random
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path

from arbitru import _core

ROOT = Path(__file__).resolve().parent.parent
ENABLE = ROOT.parent / "shared" / "lexicons" / "enable1.txt"

# English tile set: letter -> (count, value); "?" = blank.
ENGLISH = {
    "A": (9, 1), "B": (2, 3), "C": (2, 3), "D": (4, 2), "E": (12, 1), "F": (2, 4), "G": (3, 2), "H": (2, 4),
    "I": (9, 1), "J": (1, 8), "K": (1, 5), "L": (4, 1), "M": (2, 3), "N": (6, 1), "O": (8, 1), "P": (2, 3),
    "Q": (1, 10), "R": (6, 1), "S": (4, 1), "T": (6, 1), "U": (4, 1), "V": (2, 4), "W": (2, 4), "X": (1, 8),
    "Y": (2, 4), "Z": (1, 10), "?": (2, 0),
}  # fmt: skip
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
N = len(LETTERS)
VALUES = bytes([0] + [ENGLISH[c][1] for c in LETTERS])

# Standard premium squares (rows A..O, columns 1..15); the same grid as arbitru.engine.layout.STANDARD.
TW = "A1 A8 A15 H1 H15 O1 O8 O15"
DW = "B2 C3 D4 E5 B14 C13 D12 E11 K5 L4 M3 N2 K11 L12 M13 N14 H8"
TL = "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10"
DL = "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12"


def _squares(names: str) -> list[int]:
    return [(ord(n[0]) - ord("A")) * 15 + int(n[1:]) - 1 for n in names.split()]


def premiums() -> tuple[bytes, bytes]:
    lm, wm = bytearray([1] * 225), bytearray([1] * 225)
    for sq in _squares(TW):
        wm[sq] = 3
    for sq in _squares(DW):
        wm[sq] = 2
    for sq in _squares(TL):
        lm[sq] = 3
    for sq in _squares(DL):
        lm[sq] = 2
    return bytes(lm), bytes(wm)


def load_words(path: Path) -> bytes:
    """ENABLE as the core's input: tile strings (a=1 .. z=26) separated by zero bytes."""
    table = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz\n", bytes(range(1, 27)) + b"\x00")
    return path.read_bytes().replace(b"\r", b"").translate(table)


def unpack(records: bytes) -> list[tuple[int, int, int, int, int, bytes, int]]:
    """(score, row, col, dir, length, tiles, placed) per 24-byte record."""
    return list(struct.iter_unpack("<iBBBB15sB", records))


def self_play(board: _core.Board, games: int, seed: int, first: int, last: int) -> list[tuple[bytes, bytes]]:
    """(squares, rack counts) of turns first..last of each seeded game, playing the top move each turn."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        bag = [0 if c == "?" else LETTERS.index(c) + 1 for c, (n, _v) in ENGLISH.items() for _ in range(n)]
        rng.shuffle(bag)
        board.set_squares(bytes(225))
        rack: list[int] = []
        for turn in range(last + 1):
            while len(rack) < 7 and bag:
                rack.append(bag.pop())
            counts = bytearray(N + 1)
            for t in rack:
                counts[t] += 1
            if turn >= first:
                positions.append((board.squares(), bytes(counts)))
            moves = unpack(board.generate(bytes(counts), top=1))
            if not moves:  # exchange the whole rack
                bag.extend(rack)
                rng.shuffle(bag)
                rack = []
                continue
            best = min(moves, key=lambda m: (-m[0], m[1], m[2], m[3], m[5]))
            _score, row, col, d, length, tiles, _placed = best
            board.place(row, col, d, tiles[:length])
            for t in tiles[:length]:
                if t:
                    rack.remove(0 if t & 0x80 else t)
    return positions


def time_position(board: _core.Board, rack: bytes, top: int, repeat: int) -> tuple[float, float, int]:
    """Median wall seconds and mean CPU seconds per call over ``repeat`` calls, and the placements returned.

    The median keeps a call preempted by another process on a busy machine from counting; CPU time (this
    thread only) is the other guard.
    """
    gen = board.generate
    n = len(gen(rack, top))  # warm-up
    walls = []
    c0 = time.thread_time()
    for _ in range(repeat):
        t0 = time.perf_counter()
        gen(rack, top)
        walls.append(time.perf_counter() - t0)
    cpu = (time.thread_time() - c0) / repeat
    return statistics.median(walls), cpu, n // _core.RECORD_SIZE


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", type=Path, default=ENABLE)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--first", type=int, default=3, help="first turn (0-based) kept from each game")
    ap.add_argument("--last", type=int, default=11, help="last turn kept from each game")
    ap.add_argument("--repeat", type=int, default=20, help="timed calls per position and mode")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()

    words = load_words(args.lexicon)
    n_words = words.count(b"\x00") + (not words.endswith(b"\x00"))
    builds, build_cpu = [], []
    for _ in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        kwg = _core.build_kwg(words, N)
        builds.append(time.perf_counter() - t0)
        build_cpu.append(time.process_time() - c0)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "enable.kwg"
        path.write_bytes(b"ARBKWG01" + struct.pack("<II", N, len(kwg) // 4) + kwg)
        lm, wm = premiums()
        t0 = time.perf_counter()
        with open(path, "rb") as f:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        board = _core.Board(memoryview(mapped), N, VALUES, lm, wm)
        load = time.perf_counter() - t0

        positions = self_play(board, args.games, args.seed, args.first, args.last)
        all_ms, top_ms, all_cpu, top_cpu, counts = [], [], [], [], []
        for squares, rack in positions:
            board.set_squares(squares)
            t_all, c_all, n_all = time_position(board, rack, 0, args.repeat)
            t_top, c_top, _ = time_position(board, rack, 1, args.repeat)
            all_ms.append(t_all * 1e3)
            top_ms.append(t_top * 1e3)
            all_cpu.append(c_all * 1e3)
            top_cpu.append(c_top * 1e3)
            counts.append(n_all)
        del board
        mapped.close()

    total_placements = sum(counts)
    print(f"lexicon            {args.lexicon.name}: {n_words} words")
    print(
        f"automaton build    {builds[0]:.3f} s first, {min(builds):.3f} s best of {len(builds)} "
        f"(cpu {min(build_cpu):.3f} s)"
    )
    print(f"automaton size     {len(kwg)} bytes ({len(kwg) // 4} entries)")
    print(f"load (mmap+Board)  {load * 1e3:.3f} ms")
    print(f"positions          {len(positions)} (games {args.games}, turns {args.first}..{args.last})")
    print(f"placements/pos     {statistics.mean(counts):.1f} mean, {statistics.median(counts):.0f} median")
    print(
        f"all placements     {statistics.mean(all_ms):.4f} ms mean, {statistics.median(all_ms):.4f} ms median"
        f" (cpu {statistics.mean(all_cpu):.4f} ms mean)"
    )
    print(
        f"best (top=1)       {statistics.mean(top_ms):.4f} ms mean, {statistics.median(top_ms):.4f} ms median"
        f" (cpu {statistics.mean(top_cpu):.4f} ms mean)"
    )
    print(f"placements/s       {total_placements / (sum(all_ms) / 1e3):,.0f}")
    print(f"cpu                {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
