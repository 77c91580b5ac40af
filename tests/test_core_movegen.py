"""The compiled core's board and placement generator (arbitru._core.Board).

Hand-computed scores on small boards (premium squares, blanks, cross words, bingo, single tiles), an
exhaustive comparison with the brute-force enumerator below on random boards with tiny lexicons, top-k and
use-all semantics, incremental cross-sets, errors, and threads. The brute force shares no code with the core:
it tries every span of every line against every word of the lexicon.
"""

from __future__ import annotations

import itertools
import mmap
import random
import struct
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from arbitru import _core
from arbitru.engine.layout import STANDARD

SIZE = 15
CENTRE = 7 * SIZE + 7
BLANK = 0x80
H, V = 0, 1

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# English tile values, index 0 = blank
VALUES = bytes([0, 1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10])

Record = tuple[int, int, int, int, int, bytes, int]  # score, row, col, dir, length, tiles, placed


def tiles_of(text: str) -> tuple[int, ...]:
    """``"CAt"``: capitals are letters, lower case are blanks standing for the letter."""
    return tuple(LETTERS.index(c.upper()) + 1 | (BLANK if c.islower() else 0) for c in text)


def rack_of(text: str, n: int = 26) -> bytes:
    counts = bytearray(n + 1)
    for c in text:
        counts[0 if c == "?" else LETTERS.index(c) + 1] += 1
    return bytes(counts)


def lexicon(words: Iterable[str | Sequence[int]], n: int = 26) -> bytes:
    coded = [tiles_of(w) if isinstance(w, str) else tuple(w) for w in words]
    return _core.build_kwg(b"\x00".join(bytes(w) for w in coded), n)


def make_board(kwg: bytes, n: int = 26, values: bytes = VALUES, **kw: int) -> _core.Board:
    return _core.Board(kwg, n, values, STANDARD.letter_mult, STANDARD.word_mult, **kw)


def records(data: bytes) -> list[Record]:
    assert len(data) % _core.RECORD_SIZE == 0
    return [(s, r, c, d, n, t, p) for s, r, c, d, n, t, p in struct.iter_unpack("<iBBBB15sB", data)]


def moves(
    board: _core.Board, rack: bytes, top: int = 0, flags: int = 0
) -> set[tuple[int, int, int, tuple[int, ...], int]]:
    """(row, col, dir, tiles, score) of every generated placement; checks each record's own consistency."""
    out = set()
    for score, row, col, d, length, tiles, placed in records(board.generate(rack, top, flags)):
        assert 2 <= length <= SIZE and tiles[length:] == bytes(SIZE - length)
        assert placed == sum(1 for t in tiles[:length] if t)
        key = (row, col, d, tuple(tiles[:length]), score)
        assert key not in out, f"duplicate placement {key}"
        out.add(key)
    return out


def square(line: int, pos: int, d: int) -> int:
    return line * SIZE + pos if d == H else pos * SIZE + line


def put(squares: bytearray, row: int, col: int, d: int, word: str) -> None:
    for k, t in enumerate(tiles_of(word)):
        squares[square(row, col + k, H) if d == H else square(col, row + k, V)] = t


# --- the brute-force oracle ---------------------------------------------------------------------------------


def brute_force(
    squares: bytes,
    rack: bytes,
    words: Iterable[Sequence[int]],
    values: bytes = VALUES,
    bingo_tiles: int = 7,
    bingo_bonus: int = 50,
    centre: int = CENTRE,
    tileless: frozenset[int] = frozenset(),
) -> set[tuple[int, int, int, tuple[int, ...], int]]:
    """Every legal placement: each line, span and lexicon word fitting the span, each choice of blanks.

    A natural tile of a letter in ``tileless`` (no tile in the set, G-6) stays on the rack: only a blank plays it.
    """
    lm, wm = STANDARD.letter_mult, STANDARD.word_mult
    word_set = {tuple(w) for w in words}
    by_length: dict[int, list[tuple[int, ...]]] = {}
    for w in word_set:
        by_length.setdefault(len(w), []).append(w)
    n_rack = sum(rack)
    empty = not any(squares)

    def at(row: int, col: int) -> int:
        return squares[row * SIZE + col] if 0 <= row < SIZE and 0 <= col < SIZE else 0

    def face(t: int) -> int:
        return 0 if t & BLANK else values[t]

    def run(sq: int, tile: int, d: int) -> tuple[list[int], int]:
        """The tiles of the direction-d word through sq once tile is on it, and the index of sq in it."""
        r, c = divmod(sq, SIZE)
        dr, dc = (0, 1) if d == H else (1, 0)
        r0, c0 = r, c
        while at(r0 - dr, c0 - dc):
            r0, c0 = r0 - dr, c0 - dc
        word, k, i = [], 0, 0
        rr, cc = r0, c0
        while (rr, cc) == (r, c) or at(rr, cc):
            if (rr, cc) == (r, c):
                i = k
            word.append(tile if (rr, cc) == (r, c) else at(rr, cc))
            rr, cc, k = rr + dr, cc + dc, k + 1
        return word, i

    found = set()
    for d, line, start in itertools.product((H, V), range(SIZE), range(SIZE)):
        for end in range(start + 1, SIZE):
            span = [square(line, p, d) for p in range(start, end + 1)]
            before = square(line, start - 1, d) if start > 0 else None
            after = square(line, end + 1, d) if end < SIZE - 1 else None
            if (before is not None and squares[before]) or (after is not None and squares[after]):
                continue
            holes = [k for k, sq in enumerate(span) if not squares[sq]]
            if not holes or len(holes) > n_rack:
                continue
            touches = any(
                at(r + dr, c + dc)
                for k in holes
                for r, c in [divmod(span[k], SIZE)]
                for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
            )
            if not (touches or len(holes) < len(span) or (empty and centre in span)):
                continue
            if len(holes) == 1 and d == V:
                r, c = divmod(span[holes[0]], SIZE)
                if at(r, c - 1) or at(r, c + 1):
                    continue  # reported horizontally
            for w in by_length.get(len(span), []):
                if any(squares[sq] and squares[sq] & 0x7F != w[k] for k, sq in enumerate(span)):
                    continue
                for nb in range(min(rack[0], len(holes)) + 1):
                    for blanks in itertools.combinations(holes, nb):
                        natural = Counter(w[k] for k in holes if k not in blanks)
                        if any(natural[t] > (0 if t in tileless else rack[t]) for t in natural):
                            continue
                        tiles = [0] * len(span)
                        for k in holes:
                            tiles[k] = w[k] | (BLANK if k in blanks else 0)
                        main, mult, cross, ok = 0, 1, 0, True
                        for k, sq in enumerate(span):
                            if not tiles[k]:
                                main += face(squares[sq])
                                continue
                            v = face(tiles[k]) * lm[sq]
                            main += v
                            mult *= wm[sq]
                            other, _ = run(sq, tiles[k], V if d == H else H)
                            if len(other) > 1:
                                if tuple(t & 0x7F for t in other) not in word_set:
                                    ok = False
                                    break
                                cross += (sum(face(t) for t in other) - face(tiles[k]) + v) * wm[sq]
                        if not ok:
                            continue
                        score = main * mult + cross + (bingo_bonus if len(holes) == bingo_tiles else 0)
                        row, col = (line, start) if d == H else (start, line)
                        found.add((row, col, d, tuple(tiles), score))
    return found


# --- hand-computed positions --------------------------------------------------------------------------------


def test_empty_board_covers_the_centre() -> None:
    board = make_board(lexicon(["CAT", "AT", "TA", "ACT"]))
    got = moves(board, rack_of("CAT"))
    # CAT and ACT in 3 places, AT and TA in 2, both directions; the centre's DW doubles them all
    expected = set()
    for d in (H, V):
        for word, value in (("CAT", 5), ("ACT", 5), ("AT", 2), ("TA", 2)):
            for start in range(7 - len(word) + 1, 8):
                row, col = (7, start) if d == H else (start, 7)
                expected.add((row, col, d, tiles_of(word), 2 * value))
    assert got == expected


def test_premium_squares_blank_and_word_multipliers() -> None:
    board = make_board(lexicon(["QI", "QIS", "SQUAT"]))
    # QI on H7-H8: the centre DW doubles it
    got = moves(board, rack_of("QI"))
    assert (7, 6, H, tiles_of("QI"), (10 + 1) * 2) in got
    # a blank Q is worth 0, the word is still doubled
    got = moves(board, rack_of("?I"))
    assert (7, 6, H, tiles_of("qI"), (0 + 1) * 2) in got
    assert (7, 6, H, tiles_of("QI"), 22) not in got
    # SQUAT from H4 (DL under the S) to H8 (DW): (1*2 + 10 + 1 + 1 + 1) * 2 = 30
    got = moves(board, rack_of("SQUAT"))
    assert (7, 3, H, tiles_of("SQUAT"), 30) in got


def test_cross_words_and_played_through_tiles() -> None:
    squares = bytearray(225)
    put(squares, 7, 6, H, "CAT")  # H7 CAT: C on H7, A on the centre, T on H9
    board = make_board(lexicon(["CAT", "CATS", "AS", "TA", "AT", "SH", "AH", "HA", "HAS", "HAT"]))
    board.set_squares(bytes(squares))
    got = moves(board, rack_of("SH"))
    (s,) = tiles_of("S")
    (h,) = tiles_of("H")
    # CATS: S on H10 plays through CAT, no premium there: 3 + 1 + 1 + 1 = 6
    assert (7, 6, H, (0, 0, 0, s), 6) in got
    # HA and HAS down column 8 through the A (G8, I8 plain; the centre DW was used by CAT): 4 + 1, 4 + 1 + 1
    assert (6, 7, V, (h, 0), 5) in got
    assert (6, 7, V, (h, 0, s), 6) in got
    # the single S tiles: CATS across, AS down; nothing else takes a lone S
    singles = {m for m in got if m[3].count(0) == len(m[3]) - 1 and s in m[3]}
    assert singles == {(7, 6, H, (0, 0, 0, s), 6), (7, 7, V, (0, s), 2)}


def test_single_tile_with_two_words_is_reported_horizontally_and_scores_both() -> None:
    squares = bytearray(225)
    put(squares, 7, 7, H, "A")  # A on the centre
    put(squares, 6, 8, H, "T")  # T on G9 (diagonal to the A)
    board = make_board(lexicon(["AT", "TA", "AA"]))
    board.set_squares(bytes(squares))
    got = moves(board, rack_of("T"))
    # T on H9 would make AT across but TT down: illegal
    assert not any(m[:2] in ((7, 7), (7, 8)) and m[2] == H and m[3] == (0, *tiles_of("T")) for m in got)
    got = moves(board, rack_of("A"))
    # A on H9: AA across (1 + 1 = 2) and TA down (1 + 1 = 2): one placement, horizontal, 4 points
    assert (7, 7, H, (0, *tiles_of("A")), 4) in got
    assert not any(m[:3] == (6, 8, V) for m in got)  # the same placement is not reported down too
    # a lone T on the centre: A after it forms TA across (horizontal); A under it, TA down only (vertical)
    squares2 = bytearray(225)
    put(squares2, 7, 7, H, "T")
    board.set_squares(bytes(squares2))
    got = moves(board, rack_of("A"))
    assert (7, 7, V, (0, *tiles_of("A")), 2) in got
    assert (7, 7, H, (0, *tiles_of("A")), 2) in got  # TA across
    assert len(got) == 4  # TA across and down, AT across and down (A before the T)


def test_bingo_bonus_and_custom_bingo() -> None:
    kwg = lexicon(["RETAINS", "RETAIN"])
    board = make_board(kwg)
    got = moves(board, rack_of("AEINRST"), top=1)
    # 7 one-point letters, one on a DL (H4 or H12), the centre DW, +50
    assert {m[4] for m in got} == {(7 + 1) * 2 + 50}
    board = make_board(kwg, bingo_tiles=6, bingo_bonus=35)
    got = moves(board, rack_of("AEINRT"))
    assert max(m[4] for m in got) == (6 + 1) * 2 + 35
    assert board.bingo_tiles == 6 and board.bingo_bonus == 35


def test_one_tile_on_a_premium_counts_it_in_both_words() -> None:
    board = make_board(lexicon(["AX", "TX"]))
    squares = bytearray(225)
    put(squares, 0, 5, H, "A")  # A6, above the TL B6
    put(squares, 1, 4, H, "T")  # B5, left of it
    put(squares, 0, 1, H, "A")  # A2, above the DW B2
    put(squares, 1, 0, H, "T")  # B1, left of it
    board.set_squares(bytes(squares))
    got = moves(board, rack_of("X"))
    (x,) = tiles_of("X")
    # X on the TL: TX across 1 + 24, AX down 1 + 24; on the DW: (1 + 8) * 2 twice; reported across only
    assert {(1, 4, H, (0, x), 50), (1, 0, H, (0, x), 36)} <= got
    assert not {m for m in got if m[:3] in ((0, 5, V), (0, 1, V))}
    # elsewhere X forms one word: AX across after an A, TX down under a T (plain squares)
    assert got - {(1, 4, H, (0, x), 50), (1, 0, H, (0, x), 36)} == {
        (0, 5, H, (0, x), 9),
        (0, 1, H, (0, x), 9),
        (1, 4, V, (0, x), 9),
        (1, 0, V, (0, x), 9),
    }


def test_word_and_letter_premiums_on_new_tiles() -> None:
    board = make_board(lexicon(["ZA", "AZ", "ZAS", "AS"]))
    squares = bytearray(225)
    put(squares, 0, 1, H, "A")  # A on A2
    board.set_squares(bytes(squares))
    got = moves(board, rack_of("Z"))
    assert (0, 0, H, (*tiles_of("Z"), 0), (10 + 1) * 3) in got  # ZA, Z on the TW A1
    assert (0, 1, H, (0, *tiles_of("Z")), 1 + 10) in got  # AZ, Z on A3 (plain)
    assert (0, 1, V, (0, *tiles_of("Z")), (1 + 10) * 2) in got  # AZ down, Z on the DW B2
    # S under the A (B2 is a DW): AS down (1 + 1) * 2 = 4
    got = moves(board, rack_of("S"))
    assert (0, 1, V, (0, *tiles_of("S")), 4) in got


# --- exhaustive comparison on random positions --------------------------------------------------------------


def random_lexicon(rng: random.Random, letters: int, count: int) -> list[tuple[int, ...]]:
    words = set()
    while len(words) < count:
        words.add(tuple(rng.randint(1, letters) for _ in range(rng.choice((2, 2, 3, 3, 4, 5, 6)))))
    return sorted(words)


def random_rack(rng: random.Random, letters: int, size: int, blanks: int) -> bytes:
    counts = bytearray(letters + 1)
    counts[0] = blanks
    for _ in range(size - blanks):
        counts[rng.randint(1, letters)] += 1
    return bytes(counts)


@pytest.mark.parametrize("seed", range(4))
def test_matches_brute_force_on_random_positions(seed: int) -> None:
    rng = random.Random(seed)
    n = 6
    values = bytes([0, 1, 2, 3, 5, 8, 10])
    words = random_lexicon(rng, n, 90)
    board = make_board(lexicon(words, n), n, values)
    squares = bytearray(225)
    for turn in range(7):
        for blanks in (0, 1, 2) if turn % 3 == 0 else (0, 1):
            rack = random_rack(rng, n, 7 if turn < 5 else rng.randint(1, 7), blanks)
            expected = brute_force(bytes(squares), rack, words, values)
            assert moves(board, rack) == expected, (seed, turn, rack, bytes(squares).hex())
            for top in (1, 3):
                best = sorted((m[4] for m in expected), reverse=True)
                cut = best[min(top, len(best)) - 1] if best else 0
                assert moves(board, rack, top) == {m for m in expected if m[4] >= cut}
            every_tile = {m for m in expected if sum(1 for t in m[3] if t) == sum(rack)}
            assert moves(board, rack, 0, _core.FLAG_USE_ALL) == every_tile
        # play a random legal placement and check the incremental cross-sets against a fresh board
        rack = random_rack(rng, n, 7, 1)
        options = sorted(brute_force(bytes(squares), rack, words, values))
        if not options:
            continue
        row, col, d, tiles, _ = rng.choice(options)
        board.place(row, col, d, bytes(tiles))
        for k, t in enumerate(tiles):
            if t:
                squares[square(row, col + k, H) if d == H else square(col, row + k, V)] = t
        assert board.squares() == bytes(squares)
        assert_cross_sets_fresh(board, lexicon(words, n), n, values)


@pytest.mark.parametrize("seed", range(2))
def test_matches_brute_force_centre_elsewhere_letter_without_tiles_long_runs_g6(seed: int) -> None:
    """The search paths of the speed work: the first placement over the layout's own centre, a rack letter the
    tile set has no tile for (G-6: counted in the rack, never placed), one and two blanks, long words through
    many board tiles (the search starts on the rightmost run it goes through)."""
    rng = random.Random(1000 + seed)
    n = 6
    values = bytes([0, 1, 2, 3, 5, 8, 10])
    words = random_lexicon(rng, n, 70)
    words += sorted({tuple(rng.randint(1, 3) for _ in range(rng.randint(7, 12))) for _ in range(40)})
    words += [w[:k] for w in words[-40:] for k in (2, 3, 4, 5)]  # prefixes: long words grow on the board
    centre = rng.choice([3 * SIZE + 10, 11 * SIZE + 2, 7 * SIZE + 1])
    tileless = frozenset({6})  # letter 6: like Romanian K
    board = make_board(lexicon(words, n), n, values, centre=centre, tileless=1 << 6)
    assert board.centre == centre and board.tileless == 1 << 6
    squares = bytearray(225)
    for turn in range(8):
        for blanks in (0, 1, 2):
            rack = bytearray(random_rack(rng, n, 7, blanks))
            if turn % 2:
                rack[6] += 1
                rack[1] -= rack[1] > 0
            rack_b = bytes(rack)
            expected = brute_force(bytes(squares), rack_b, words, values, centre=centre, tileless=tileless)
            assert moves(board, rack_b) == expected, (seed, turn, rack_b, bytes(squares).hex())
            if turn == 0:
                assert expected and all(
                    centre in {square(row if d == H else col, (col if d == H else row) + k, d) for k in range(len(t))}
                    for row, col, d, t, _ in expected
                )
            for top in (1, 4):
                best = sorted((m[4] for m in expected), reverse=True)
                cut = best[min(top, len(best)) - 1] if best else 0
                assert moves(board, rack_b, top) == {m for m in expected if m[4] >= cut}
            every_tile = {m for m in expected if sum(1 for t in m[3] if t) == sum(rack_b)}
            assert moves(board, rack_b, 0, _core.FLAG_USE_ALL) == every_tile
        rack_b = random_rack(rng, n, 7, 0)
        options = sorted(brute_force(bytes(squares), rack_b, words, values, centre=centre))
        if not options:
            continue
        # prefer the longest placements: long runs of board tiles
        longest = max(len(m[3]) for m in options)
        row, col, d, tiles, _ = rng.choice([m for m in options if len(m[3]) == longest])
        board.place(row, col, d, bytes(tiles))
        for k, t in enumerate(tiles):
            if t:
                squares[square(row, col + k, H) if d == H else square(col, row + k, V)] = t


def assert_cross_sets_fresh(board: _core.Board, kwg: bytes, n: int, values: bytes) -> None:
    fresh = make_board(kwg, n, values)
    fresh.set_squares(board.squares())
    for row, col, d in itertools.product(range(SIZE), range(SIZE), (H, V)):
        assert board.cross_set(row, col, d) == fresh.cross_set(row, col, d), (row, col, d)
        assert board.cross_score(row, col, d) == fresh.cross_score(row, col, d), (row, col, d)


def test_cross_set_values() -> None:
    board = make_board(lexicon(["CAT", "CATS", "SCAT", "AT", "TA", "ATE"]))
    squares = bytearray(225)
    put(squares, 7, 6, H, "CAT")
    board.set_squares(bytes(squares))
    bit = {c: 1 << (LETTERS.index(c) + 1) for c in LETTERS}
    # across, right of CAT: placing vertically there makes CAT? -> S
    assert board.cross_set(7, 9, V) == bit["S"]
    assert board.cross_score(7, 9, V) == 5
    assert board.cross_set(7, 5, V) == bit["S"]
    # above the A (G8): a vertical placement's cross word is across on row G: none
    assert board.cross_set(6, 7, H) == bit["T"]  # ?A down: TA
    assert board.cross_score(6, 7, H) == 1
    assert board.cross_set(8, 8, H) == bit["A"]  # T? down: TA
    assert board.cross_set(0, 0, H) == sum(1 << t for t in range(1, 27))
    assert board.cross_score(0, 0, H) == -1
    assert board.cross_set(7, 7, H) == 0  # occupied


# --- a large English list ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def english_kwg(english_path: Path) -> bytes:
    table = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz\n", bytes(range(1, 27)) + b"\x00")
    return _core.build_kwg(english_path.read_bytes().replace(b"\r", b"").translate(table), 26)


def test_english_list_empty_board_aeinrst(english_kwg: bytes, english_path: Path) -> None:
    board = make_board(english_kwg)
    best = moves(board, rack_of("AEINRST"), top=1)
    # the rack's anagrams, read from the list's text rather than the automaton under test
    anagrams = {w.upper() for w in english_path.read_text("ascii").split() if sorted(w) == sorted("aeinrst")}
    assert {"RETAINS", "RETINAS", "STAINER", "STEARIN"} <= anagrams
    assert all(_core.contains(english_kwg, bytes(tiles_of(w))) for w in anagrams)
    # the best: a bingo over the centre DW with one letter on a DL (starts 1-3 and 5-7), both directions
    expected = set()
    for w in anagrams:
        for start in (1, 2, 3, 5, 6, 7):
            expected.add((7, start, H, tiles_of(w), (7 + 1) * 2 + 50))
            expected.add((start, 7, V, tiles_of(w), (7 + 1) * 2 + 50))
    assert best == expected


@pytest.mark.parametrize("rack", ["AEINRST", "AEINRS?", "CDEIORT", "QZXJKV?", "EEIIOUA", "AEINRST??"])
def test_english_list_top_k_with_bingos_through_board_tiles(english_kwg: bytes, rack: str) -> None:
    """Top-k bounds skip bingos only when the rack and the board tiles they would go through spell nothing."""
    board = make_board(english_kwg)
    squares = bytearray(225)
    put(squares, 7, 5, H, "CAT")
    put(squares, 4, 9, V, "DOGS")
    board.set_squares(bytes(squares))
    every = records(board.generate(rack_of(rack)))
    scores = sorted((m[0] for m in every), reverse=True)
    for top in (1, 3, 20):
        cut = scores[min(top, len(scores)) - 1]
        assert sorted(records(board.generate(rack_of(rack), top))) == sorted(m for m in every if m[0] >= cut)


def test_english_list_self_play_top_k_and_incremental_updates(english_kwg: bytes) -> None:
    rng = random.Random(2026)
    board = make_board(english_kwg)
    counts = (2, 9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1)  # ? A..Z
    bag = [t for t, k in enumerate(counts) for _ in range(k)]
    rng.shuffle(bag)
    rack: list[int] = []
    for _turn in range(12):
        rack += [bag.pop() for _ in range(min(7 - len(rack), len(bag)))]
        counts = bytearray(27)
        for t in rack:
            counts[t] += 1
        every = records(board.generate(bytes(counts)))
        scores = sorted((m[0] for m in every), reverse=True)
        for top in (1, 2, 10):
            got = records(board.generate(bytes(counts), top))
            assert [m[0] for m in got] == sorted((m[0] for m in got), reverse=True)
            cut = scores[min(top, len(scores)) - 1] if scores else 0
            assert sorted(got) == sorted(m for m in every if m[0] >= cut)
        if not every:
            rack = []
            continue
        _score, row, col, d, length, tiles, _ = max(every)
        board.place(row, col, d, tiles[:length])
        for t in tiles[:length]:
            if t:
                rack.remove(0 if t & BLANK else t)
    assert_cross_sets_fresh(board, english_kwg, 26, VALUES)


# --- API behaviour ------------------------------------------------------------------------------------------


def test_errors() -> None:
    kwg = lexicon(["AT"])
    with pytest.raises(ValueError, match="letter_scores"):
        _core.Board(kwg, 26, b"\x00" * 5, STANDARD.letter_mult, STANDARD.word_mult)
    with pytest.raises(ValueError, match="multipliers"):
        _core.Board(kwg, 26, VALUES, bytes(225), STANDARD.word_mult)
    with pytest.raises(ValueError, match="overflow"):
        _core.Board(kwg, 26, VALUES, STANDARD.letter_mult, bytes([9] * 225))
    with pytest.raises(ValueError, match="alphabet size"):
        _core.Board(_core.KWG_MAGIC + struct.pack("<II", 5, len(kwg) // 4) + kwg, 26, VALUES,
                    STANDARD.letter_mult, STANDARD.word_mult)  # fmt: skip
    board = make_board(kwg)
    with pytest.raises(ValueError, match="squares must have length 225"):
        board.set_squares(b"\x00")
    with pytest.raises(ValueError, match="invalid tile code 27 on square 3"):
        board.set_squares(bytes([0, 0, 0, 27]) + bytes(221))
    with pytest.raises(ValueError, match="rack must have length 27"):
        board.generate(b"\x01")
    with pytest.raises(ValueError, match="unknown flag"):
        board.generate(rack_of("AT"), 0, 4)
    with pytest.raises(ValueError, match="top"):
        board.generate(rack_of("AT"), -1)
    board.place(7, 7, H, bytes(tiles_of("AT")))
    for args, message in [
        ((7, 7, H, bytes(tiles_of("A"))), "occupied"),
        ((7, 10, H, b"\x00"), "played-through"),
        ((7, 14, H, bytes(tiles_of("AT"))), "off the board"),
        ((15, 0, H, bytes(tiles_of("A"))), "coordinates"),
        ((0, 0, 2, bytes(tiles_of("A"))), "coordinates"),
        ((0, 0, H, bytes([30])), "invalid tile"),
        ((7, 7, H, b"\x00\x00"), "no tile"),
    ]:
        with pytest.raises(ValueError, match=message):
            board.place(*args)
    with pytest.raises(RuntimeError):
        _core.Board.__new__(_core.Board).squares()


def test_place_blank_and_squares_round_trip() -> None:
    board = make_board(lexicon(["CAT", "CATS"]))
    board.place(7, 7, V, bytes(tiles_of("CaT")))
    sq = board.squares()
    assert [sq[(7 + k) * SIZE + 7] for k in range(3)] == list(tiles_of("CaT"))
    assert board.tile_count == 3
    # the blank A scores 0 in the cross word of a later placement: CATS down, S at K8 (DW? no: K8 is plain)
    got = moves(board, rack_of("S"))
    assert (7, 7, V, (0, 0, 0, *tiles_of("S")), 3 + 0 + 1 + 1) in got


def test_copy_is_independent_and_kwg_file_image_works(tmp_path: Path) -> None:
    kwg = lexicon(["AT", "TA", "CAT"])
    path = tmp_path / "t.kwg"
    path.write_bytes(_core.KWG_MAGIC + struct.pack("<II", 26, len(kwg) // 4) + kwg)
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    board = make_board(memoryview(mapped))
    board.place(7, 7, H, bytes(tiles_of("AT")))
    other = board.copy()
    other.place(8, 7, H, bytes(tiles_of("A")))
    assert board.tile_count == 2 and other.tile_count == 3
    assert moves(board, rack_of("C")) == {(7, 6, H, (*tiles_of("C"), 0, 0), 5)}
    del board, other


def test_threads_give_the_same_results() -> None:
    words = random_lexicon(random.Random(5), 6, 120)
    kwg = lexicon(words, 6)
    values = bytes([0, 1, 2, 3, 5, 8, 10])
    racks = [random_rack(random.Random(i), 6, 7, i % 2) for i in range(20)]
    boards = [make_board(kwg, 6, values) for _ in range(4)]
    expected = [boards[0].generate(r) for r in racks]
    results: dict[int, list[bytes]] = {}

    def work(i: int) -> None:
        results[i] = [boards[i].generate(r) for r in racks for _ in range(3)][::3]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[i] == expected for i in range(4))
