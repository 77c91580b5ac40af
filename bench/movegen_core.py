"""Benchmark of the compiled move generator through the Python API: automaton build, load, generation.

    .venv/bin/python bench/movegen_core.py                              # english, loc-5.0, sjp-growy
    .venv/bin/python bench/movegen_core.py --lists english --positions 200 --repeat 50
    .venv/bin/python bench/movegen_core.py --ref-positions 0            # skip the reference generator

Per word list (english: the large English list the set-up installs, npm word-list 4.1.0, or ``--enable PATH``
for another file such as ENABLE; the installed catalog lists loc-5.0, Romanian official, and sjp-growy, Polish):

- automaton: build time of the compiled builder (``_core.build_kwg``) on the already-encoded, sorted word list
  (first run and best of ``--build-repeat``, wall and CPU); for english also the encoding of the text file
  (``WordEncoder``, what the catalog uses) and the whole Python-API build ``Lexicon.from_tiles``. Size of the
  automaton. Load time: ``Lexicon.load`` (memory map) plus the first ``CoreBoard`` (which validates the whole
  array), on a file in the page cache. For the catalog lists the rebuilt array is checked equal to the
  installed ``.kwg``; their words are read back from it (``_core.kwg_words``), so only the build is timed.
- positions: ``--positions`` mid-game positions (turns ``--first``..``--last`` of seeded two-player self-play
  games, the list's tile set, standard layout). Each turn the player makes the placement of best *equity*,
  score + leave value (:func:`leave_value`: keep blanks, S in English and one-point letters, shed heavy
  letters, avoid duplicates and a vowel/consonant imbalance), and exchanges the whole rack only when it has no
  placement. Playing the top score instead keeps poor leaves and gives racks with about 40% fewer placements
  than real play. The positions' SHA-256 is printed: same seed, same positions.
- generation, through ``CoreBoard.generate(rack, top=...)``, counting ``len(Placements)`` without decoding:
  all placements (``top=0``) and the best ones (``top=1``). Per position the median of ``--repeat`` calls
  (after one warm-up), wall (``perf_counter``) and CPU (``process_time``); then mean and median over the
  positions, placements per second, and the cost of decoding every placement to Python objects
  (``list(placements)``), as information.
- reference: the plain-Python generator (``generate(..., engine="reference")``) on ``--ref-positions``
  positions spread over the set, and its ratio to the compiled one on the same positions (both wall and CPU);
  the placement counts of the two are compared.

Targets (set on ENABLE, held here to the English list): all placements <= 0.3 ms and best
placement <= 0.15 ms per position on average, automaton build < 0.5 s. The summary gives PASS/over for wall
and CPU time; the Romanian and Polish lists are held to the same figures for comparison only. Wall times move
with the machine's load (the load average is printed); CPU time less so.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import platform
import statistics
import struct
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from arbitru import _core
from arbitru.engine.board import Board
from arbitru.engine.lexicon import HEADER, Lexicon, WordEncoder
from arbitru.engine.movegen import CoreBoard, Placements, generate
from arbitru.engine.tiles import BLANK, BLANK_BIT, Alphabet, Bag, Rack, alphabet
from arbitru.lexicons import catalog
from arbitru.lexicons.sources import english_words_path

ROOT = Path(__file__).resolve().parent.parent
LISTS = {"english": "en", "loc-5.0": "ro", "sjp-growy": "pl"}
LABELS = {"english": "English", "loc-5.0": "LOC 5.0", "sjp-growy": "SJP growy"}
TARGET_ALL_MS, TARGET_BEST_MS, TARGET_BUILD_S = 0.3, 0.15, 0.5
RECORD = struct.Struct("<iBBBB15sB")
T = TypeVar("T")


# --- self-play ---------------------------------------------------------------------------------------------

#: leave value of one tile kept, beyond its face value: blanks and hooks are worth keeping
BLANK_KEEP = 20.0
HOOKS = {"en": {"S": 6.0}}
DUPLICATE = -3.0  # per extra copy of a letter
IMBALANCE = -3.0  # per vowel or consonant beyond a difference of one


def leave_value(alpha: Alphabet, counts: tuple[int, ...]) -> float:
    """A simple, documented stand-in for a real leave table (points of equity for the tiles kept).

    Blank +20 each; English S +6; one-point letter +1, two-point 0, heavier -(value - 2) (play the J, keep the
    E); -3 per extra copy of a letter; -3 per vowel or consonant beyond a difference of one between them.
    """
    value = BLANK_KEEP * counts[BLANK]
    hooks = HOOKS.get(alpha.lang, {})
    vowels = consonants = 0
    for t in range(1, len(counts)):
        k = counts[t]
        if not k:
            continue
        per = hooks.get(alpha.labels[t])
        if per is None:
            face = alpha.values[t]
            per = 1.0 if face <= 1 else 2.0 - face
        value += per * k + DUPLICATE * (k - 1)
        if t in alpha.vowels:
            vowels += k
        else:
            consonants += k
    return value + IMBALANCE * max(0, abs(vowels - consonants) - 1)


@dataclass
class Position:
    squares: bytes
    counts: tuple[int, ...]


def best_by_equity(alpha: Alphabet, counts: list[int], found: Placements) -> int | None:
    """Index of the placement of best score + leave value (ties: the smaller record, for reproducibility)."""
    leaves: dict[tuple[int, ...], float] = {}
    best, best_key = None, None
    for i, (score, _r, _c, _d, length, tiles, _n) in enumerate(RECORD.iter_unpack(found.records)):
        left = list(counts)
        for t in tiles[:length]:
            if t:
                left[BLANK if t & BLANK_BIT else t] -= 1
        leave = tuple(left)
        if leave not in leaves:
            leaves[leave] = leave_value(alpha, leave)
        key = (-(score + leaves[leave]), found.records[i * RECORD.size : (i + 1) * RECORD.size])
        if best_key is None or key < best_key:
            best, best_key = i, key
    return best


def play_game(lex: Lexicon, seed: str, first: int, last: int) -> list[Position]:
    """Turns first..last of a two-player game (positions where the player on turn holds 7 tiles)."""
    alpha = lex.alphabet
    board = CoreBoard(lex, Board(alpha))
    bag = Bag(alpha, seed)
    racks = [[0] * (alpha.size + 1) for _ in range(2)]
    positions = []
    for turn in range(last + 1):
        counts = racks[turn % 2]
        for t in bag.draw(7 - sum(counts)):
            counts[t] += 1
        if turn >= first and sum(counts) == 7:
            positions.append(Position(board.squares(), tuple(counts)))
        found = board.generate(Rack.from_counts(alpha, counts))
        pick = best_by_equity(alpha, counts, found)
        if pick is None:  # no placement: exchange the whole rack when the bag allows it, else pass
            if len(bag) >= 7:
                old = Rack.from_counts(alpha, counts).tiles()
                counts[:] = [0] * len(counts)
                for t in bag.draw(7):
                    counts[t] += 1
                bag.put_back(old)
            continue
        placement, _score = found[pick]
        before = board.squares()
        board.place(placement)
        for sq, t in zip(placement.squares(), placement.word, strict=True):
            if not before[sq]:
                counts[BLANK if t & BLANK_BIT else t] -= 1
        if not bag and not sum(counts):
            break
    return positions


def self_play(lex: Lexicon, n: int, first: int, last: int, seed: int) -> tuple[list[Position], int]:
    positions: list[Position] = []
    games = 0
    while len(positions) < n:
        positions += play_game(lex, f"{seed}-{lex.alphabet.lang}-{games}", first, last)
        games += 1
    return positions[:n], games


# --- timing ------------------------------------------------------------------------------------------------


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and median CPU seconds of ``repeat`` calls of ``fn`` (gc off, after one warm-up call).

    The median keeps a call preempted by another process on a busy machine from counting.
    """
    fn()
    walls, cpus = [], []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            c0 = time.process_time()
            t0 = time.perf_counter()
            fn()
            t1 = time.perf_counter()
            cpus.append(time.process_time() - c0)
            walls.append(t1 - t0)
    finally:
        if enabled:
            gc.enable()
    return statistics.median(walls), statistics.median(cpus)


def once(fn: Callable[[], T]) -> tuple[float, float, T]:
    """Wall and CPU seconds of one call, and its result."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


@dataclass
class Result:
    name: str
    lang: str
    words: int = 0
    notes: list[str] = field(default_factory=list)
    encode_s: float | None = None
    build_first: tuple[float, float] = (0.0, 0.0)  # wall, cpu
    build_best: tuple[float, float] = (0.0, 0.0)
    from_tiles_s: float | None = None
    size: int = 0
    load_first_ms: float = 0.0
    load_median_ms: float = 0.0
    load_best_ms: float = 0.0
    games: int = 0
    fingerprint: str = ""
    counts: list[int] = field(default_factory=list)
    blanks: list[bool] = field(default_factory=list)
    all_wall: list[float] = field(default_factory=list)  # ms per position
    all_cpu: list[float] = field(default_factory=list)
    best_wall: list[float] = field(default_factory=list)
    best_cpu: list[float] = field(default_factory=list)
    best_counts: list[int] = field(default_factory=list)
    decode_ms: list[float] = field(default_factory=list)
    ref_idx: list[int] = field(default_factory=list)
    ref_wall: list[float] = field(default_factory=list)
    ref_cpu: list[float] = field(default_factory=list)
    ref_mismatch: list[str] = field(default_factory=list)


def time_builds(blob: bytes, size: int, repeat: int) -> tuple[bytes, list[tuple[float, float]]]:
    runs = []
    kwg = b""
    for _ in range(repeat):
        gc.collect()
        wall, cpu, out = once(lambda: _core.build_kwg(blob, size))
        kwg = bytes(out)
        runs.append((wall, cpu))
    return kwg, runs


def time_loads(path: Path, alpha: Alphabet, repeat: int) -> tuple[float, float, float, Lexicon]:
    """Lexicon.load (mmap) + first CoreBoard, each on a fresh Lexicon: first, median, best ms; a lexicon."""
    times = []
    lex = None
    for _ in range(repeat):
        lex = None
        gc.collect()
        t0 = time.perf_counter()
        lex = Lexicon.load(path, alpha)
        CoreBoard(lex, Board(alpha))
        times.append((time.perf_counter() - t0) * 1e3)
    assert lex is not None
    return times[0], statistics.median(times), min(times), lex


def bench_list(name: str, args: argparse.Namespace, tmp: Path) -> Result:
    lang = LISTS[name]
    alpha = alphabet(lang)
    res = Result(name, lang)
    if name == "english":
        english = args.enable or english_words_path()
        raw = english.read_text(encoding="utf-8").split()
        wall, _cpu, out = once(lambda: WordEncoder(alpha).encode(raw))
        kept, rejected = out
        distinct = sorted(set(kept))
        res.encode_s = wall
        res.words = len(distinct)
        res.notes.append(
            f"{english.name}: {len(raw):,} entries, {len(distinct):,} words of 2–15 tiles "
            f"({len(rejected):,} longer entries left out)"
        )
        kwg, runs = time_builds(b"\x00".join(distinct), alpha.size, args.build_repeat)
        gc.collect()
        res.from_tiles_s, _cpu, lex = once(lambda: Lexicon.from_tiles(distinct, alpha, "english"))
        assert bytes(lex.kwg) == kwg
        path = tmp / "english.kwg"
        lex.save(path)
        del lex
    else:
        found = catalog.info(name)
        if not found.installed:
            raise SystemExit(f"{name} is not installed: run ./arbitru lexicon install {name}")
        path = Path(found.path)
        installed = Lexicon.load(path, alpha)
        words = _core.kwg_words(installed.kwg, alpha.size)
        res.words = len(words)
        res.notes.append(f"{path}: {len(words):,} words (read back from the installed automaton)")
        kwg, runs = time_builds(b"\x00".join(words), alpha.size, args.build_repeat)
        same = kwg == bytes(installed.kwg)
        res.notes.append(f"rebuilt automaton {'identical to' if same else 'DIFFERS from'} the installed one")
        del words, installed
    res.build_first = runs[0]
    res.build_best = (min(r[0] for r in runs), min(r[1] for r in runs))
    res.size = len(kwg) + HEADER.size
    del kwg
    gc.collect()
    res.load_first_ms, res.load_median_ms, res.load_best_ms, lex = time_loads(path, alpha, args.load_repeat)

    positions, res.games = self_play(lex, args.positions, args.first, args.last, args.seed)
    digest = hashlib.sha256()
    for p in positions:
        digest.update(p.squares + bytes(p.counts))
    res.fingerprint = digest.hexdigest()[:16]

    for p in positions:
        core = CoreBoard(lex, Board(alpha, squares=p.squares))
        rack = Rack.from_counts(alpha, p.counts)
        gen = core.generate
        res.counts.append(len(gen(rack)))
        res.blanks.append(p.counts[BLANK] > 0)
        wall, cpu = timed(lambda gen=gen, rack=rack: len(gen(rack)), args.repeat)
        res.all_wall.append(wall * 1e3)
        res.all_cpu.append(cpu * 1e3)
        res.best_counts.append(len(gen(rack, top=1)))
        wall, cpu = timed(lambda gen=gen, rack=rack: len(gen(rack, top=1)), args.repeat)
        res.best_wall.append(wall * 1e3)
        res.best_cpu.append(cpu * 1e3)
        found = gen(rack)
        wall, _cpu = timed(lambda found=found: list(found), args.decode_repeat)
        res.decode_ms.append(wall * 1e3)

    k = min(args.ref_positions, len(positions))
    res.ref_idx = sorted({round(i * len(positions) / k) for i in range(k)}) if k else []
    for i in res.ref_idx:
        p = positions[i]
        board, rack = Board(alpha, squares=p.squares), Rack.from_counts(alpha, p.counts)
        walls, cpus = [], []
        moves: list = []
        for _ in range(args.ref_repeat):
            gc.collect()
            wall, cpu, moves = once(lambda b=board, r=rack: generate(b, r, lex, engine="reference"))
            walls.append(wall)
            cpus.append(cpu)
        res.ref_wall.append(statistics.median(walls) * 1e3)
        res.ref_cpu.append(statistics.median(cpus) * 1e3)
        if len(moves) != res.counts[i]:
            res.ref_mismatch.append(f"position {i}: reference {len(moves)}, compiled {res.counts[i]}")
    return res


# --- report ------------------------------------------------------------------------------------------------


def ms(x: float) -> str:
    return f"{x:.4f} ms"


def verdict(value: float, target: float, strict: bool = False) -> str:
    ok = value < target if strict else value <= target
    return "PASS" if ok else "over"


def report(res: Result, args: argparse.Namespace) -> None:
    mean, median = statistics.mean, statistics.median
    label = LABELS[res.name]
    print(f"== {label} ({res.lang})")
    for note in res.notes:
        print(f"   {note}")
    if res.encode_s is not None:
        print(f"   encode (WordEncoder, text -> tile words)    {res.encode_s:.3f} s wall")
    (fw, fc), (bw, bc) = res.build_first, res.build_best
    print(
        f"   build, compiled builder                     {fw:.3f} s first, {bw:.3f} s best of "
        f"{args.build_repeat} (cpu {fc:.3f} s first, {bc:.3f} s best)"
    )
    if res.from_tiles_s is not None:
        print(f"   build, Lexicon.from_tiles (Python API)      {res.from_tiles_s:.3f} s wall")
    entries = (res.size - HEADER.size) // 4
    print(f"   automaton size                              {res.size:,} bytes ({entries:,} entries)")
    print(
        f"   load (Lexicon.load mmap + first CoreBoard)  {res.load_first_ms:.3f} ms first, "
        f"{res.load_median_ms:.3f} ms median, {res.load_best_ms:.3f} ms best of {args.load_repeat}"
    )
    n = len(res.counts)
    total = sum(res.counts)
    print(
        f"   positions   {n} ({res.games} games, turns {args.first}..{args.last}, seed {args.seed}; "
        f"sha256 {res.fingerprint})"
    )
    print(
        f"   placements  {total:,}: {mean(res.counts):.1f} mean, {median(res.counts):.0f} median, "
        f"{max(res.counts):,} max per position"
    )
    with_blank = [i for i, b in enumerate(res.blanks) if b]
    share = sum(res.all_wall[i] for i in with_blank) / sum(res.all_wall)
    print(
        f"   racks with a blank  {len(with_blank)} of {n}: {share:.0%} of the all-placements time, "
        f"{sum(res.counts[i] for i in with_blank) / total:.0%} of the placements"
    )
    print(
        f"   per position the median of {args.repeat} calls; over positions: "
        "wall mean / median | cpu mean / median"
    )
    print(
        f"   all (top=0)     {ms(mean(res.all_wall))} / {ms(median(res.all_wall))} | "
        f"{ms(mean(res.all_cpu))} / {ms(median(res.all_cpu))}"
    )
    print(
        f"   best (top=1)    {ms(mean(res.best_wall))} / {ms(median(res.best_wall))} | "
        f"{ms(mean(res.best_cpu))} / {ms(median(res.best_cpu))}   "
        f"({mean(res.best_counts):.1f} placements tied for best, mean)"
    )
    print(
        f"   placements/s    {total / (sum(res.all_wall) / 1e3) / 1e6:.2f} M wall, "
        f"{total / (sum(res.all_cpu) / 1e3) / 1e6:.2f} M cpu "
        f"({sum(res.all_wall) * 1e3 / total:.3f} µs per placement)"
    )
    print(
        f"   decode (list(Placements), information)     {mean(res.decode_ms):.3f} ms mean per position, "
        f"{sum(res.decode_ms) * 1e3 / total:.2f} µs per placement"
    )
    if res.ref_idx:
        comp_wall = mean(res.all_wall[i] for i in res.ref_idx)
        comp_cpu = mean(res.all_cpu[i] for i in res.ref_idx)
        ref_wall, ref_cpu = mean(res.ref_wall), mean(res.ref_cpu)
        places = mean(res.counts[i] for i in res.ref_idx)
        agree = "counts agree" if not res.ref_mismatch else f"{len(res.ref_mismatch)} COUNT MISMATCHES"
        print(
            f"   reference       {len(res.ref_idx)} positions ({places:.0f} placements mean): "
            f"{ref_wall:.1f} ms wall, {ref_cpu:.1f} ms cpu mean; compiled on the same "
            f"{ms(comp_wall)} / {ms(comp_cpu)}: ratio x{ref_wall / comp_wall:,.0f} wall, "
            f"x{ref_cpu / comp_cpu:,.0f} cpu; {agree}"
        )
        for line in res.ref_mismatch:
            print(f"   MISMATCH {line}")
    print(f"   load average    {os.getloadavg()[0]:.2f} (1 min) after this list")
    sys.stdout.flush()


def summary(res: Result) -> str:
    mean = statistics.mean
    aw, ac = mean(res.all_wall), mean(res.all_cpu)
    bw, bc = mean(res.best_wall), mean(res.best_cpu)
    build_w, build_c = res.build_best
    text = (
        f"{LABELS[res.name]:<10} all {aw:.3f} ms {verdict(aw, TARGET_ALL_MS)} (cpu {ac:.3f} "
        f"{verdict(ac, TARGET_ALL_MS)}) | best {bw:.3f} ms {verdict(bw, TARGET_BEST_MS)} (cpu {bc:.3f} "
        f"{verdict(bc, TARGET_BEST_MS)}) | build {build_w:.2f} s {verdict(build_w, TARGET_BUILD_S, True)} "
        f"(cpu {build_c:.2f} {verdict(build_c, TARGET_BUILD_S, True)})"
    )
    if res.from_tiles_s is not None:
        api = res.from_tiles_s
        text += f", Lexicon.from_tiles {api:.2f} s {verdict(api, TARGET_BUILD_S, True)}"
    if res.name != "english":
        text += "  [English targets, for comparison]"
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lists", default=",".join(LISTS), help=f"comma-separated, of {', '.join(LISTS)}")
    ap.add_argument("--enable", type=Path, help="English word file (default: the installed word-list 4.1.0)")
    ap.add_argument("--positions", type=int, default=72)
    ap.add_argument("--first", type=int, default=3, help="first turn (0-based) kept from each game")
    ap.add_argument("--last", type=int, default=11, help="last turn kept from each game")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=30, help="timed calls per position and mode")
    ap.add_argument("--decode-repeat", type=int, default=3, help="timed decodings per position")
    ap.add_argument("--build-repeat", type=int, default=3, help="automaton builds per list")
    ap.add_argument("--load-repeat", type=int, default=5, help="loads per list")
    ap.add_argument("--ref-positions", type=int, default=10, help="positions for the reference (0: none)")
    ap.add_argument("--ref-repeat", type=int, default=1, help="reference calls per position (median)")
    args = ap.parse_args()
    names = [n.strip() for n in args.lists.split(",") if n.strip()]
    for n in names:
        if n not in LISTS:
            ap.error(f"unknown list {n!r}; known: {', '.join(LISTS)}")

    print(
        f"arbitru movegen benchmark: Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} (1 min) at start"
    )
    print(
        f"targets (English list): all placements <= {TARGET_ALL_MS} ms, best <= {TARGET_BEST_MS} ms per position "
        f"(mean), automaton build < {TARGET_BUILD_S} s"
    )
    started = time.perf_counter()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            res = bench_list(name, args, Path(tmp))
            report(res, args)
            results.append(res)
            gc.collect()
    print(f"== summary (means over positions; {time.perf_counter() - started:.0f} s in all)")
    for res in results:
        print(summary(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
