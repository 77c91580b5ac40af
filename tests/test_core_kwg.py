"""The compiled core's KWG builder and walkers (arbitru._core): languages, the GADDAG path convention of
docs/ENGINE.md, minimality, input handling and errors.

Everything here reads the array with the small walkers below, written from docs/ENGINE.md alone.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitru import _core
from arbitru.engine.lexicon import build_kwg_python

ARC_MASK, END_BIT, ACCEPT_BIT, TILE_SHIFT = 0xFFFFFF, 1 << 24, 1 << 25, 26


def entries(kwg: bytes) -> tuple[int, ...]:
    return struct.unpack(f"<{len(kwg) // 4}I", kwg)


def sibling_list(arr: Sequence[int], index: int) -> list[int]:
    out = []
    while index:
        out.append(arr[index])
        if arr[index] & END_BIT:
            break
        index += 1
    return out


def paths(kwg: bytes, root: int) -> set[tuple[int, ...]]:
    """Every accepted path below entry ``root`` (0 = DAWG, 1 = GADDAG)."""
    arr = entries(kwg)
    found: set[tuple[int, ...]] = set()

    def walk(index: int, prefix: tuple[int, ...]) -> None:
        for e in sibling_list(arr, index):
            path = (*prefix, e >> TILE_SHIFT)
            if e & ACCEPT_BIT:
                found.add(path)
            walk(e & ARC_MASK, path)

    walk(arr[root] & ARC_MASK, ())
    return found


def gaddag_paths(word: Sequence[int]) -> set[tuple[int, ...]]:
    """docs/ENGINE.md: for pivot i, ``ci .. c1`` then (for i < n) the separator 0 and ``c(i+1) .. cn``."""
    n = len(word)
    out = set()
    for i in range(1, n + 1):
        rev = tuple(reversed(word[:i]))
        out.add(rev if i == n else (*rev, 0, *word[i:]))
    return out


def blob(words: Iterable[Sequence[int]]) -> bytes:
    return b"\x00".join(bytes(w) for w in words)


def check_kwg(words: Iterable[Sequence[int]], alphabet_size: int) -> bytes:
    words = [tuple(w) for w in words]
    kwg = _core.build_kwg(blob(words), alphabet_size)
    distinct = set(words)
    assert paths(kwg, 0) == distinct
    assert paths(kwg, 1) == {p for w in distinct for p in gaddag_paths(w)}
    assert_minimal(kwg)
    return kwg


def assert_minimal(kwg: bytes) -> None:
    """No two reachable lists (DAWG or GADDAG, which share states) accept the same language, and sibling
    lists are sorted by tile with their last entry marked."""
    arr = entries(kwg)
    languages: dict[int, frozenset[tuple[int, ...]]] = {}

    def language(index: int) -> frozenset[tuple[int, ...]]:
        if index not in languages:
            lang: set[tuple[int, ...]] = set()
            tiles = []
            for e in sibling_list(arr, index):
                t = e >> TILE_SHIFT
                tiles.append(t)
                if e & ACCEPT_BIT:
                    lang.add((t,))
                if e & ARC_MASK:
                    lang.update((t, *rest) for rest in language(e & ARC_MASK))
            assert tiles == sorted(set(tiles)), f"list at {index} not sorted: {tiles}"
            languages[index] = frozenset(lang)
        return languages[index]

    for root in (0, 1):
        if arr[root] & ARC_MASK:
            language(arr[root] & ARC_MASK)
    by_language: dict[frozenset[tuple[int, ...]], int] = {}
    for index, lang in languages.items():
        other = by_language.setdefault(lang, index)
        assert other == index, f"lists at {other} and {index} accept the same paths: not minimal"


def test_small_list_dawg_and_gaddag() -> None:
    # CARE, CARES, CAR, BAR, BARE, ARE, A (single letters are allowed by the builder)
    words = [(3, 1, 18, 5), (3, 1, 18, 5, 19), (3, 1, 18), (2, 1, 18), (2, 1, 18, 5), (1, 18, 5), (1,)]
    check_kwg(words, 26)


def test_header_entries_and_sorted_lists() -> None:
    kwg = check_kwg([(1, 2), (2, 1)], 2)
    arr = entries(kwg)
    for root in (0, 1):
        assert arr[root] & END_BIT and arr[root] >> TILE_SHIFT == 0 and not arr[root] & ACCEPT_BIT
    # the GADDAG root list holds the separator-free starts 1 and 2 only
    assert [e >> TILE_SHIFT for e in sibling_list(arr, arr[1] & ARC_MASK)] == [1, 2]


def test_order_and_duplicates_do_not_matter() -> None:
    rng = random.Random(7)
    words = [tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 7))) for _ in range(300)]
    reference = _core.build_kwg(blob(sorted(set(words))), 6)
    shuffled = words * 2
    rng.shuffle(shuffled)
    assert _core.build_kwg(blob(shuffled), 6) == reference
    # empty segments (doubled or trailing separators) are ignored
    assert _core.build_kwg(b"\x00\x00" + blob(shuffled) + b"\x00", 6) == reference


def test_empty_list() -> None:
    kwg = _core.build_kwg(b"", 26)
    assert entries(kwg) == (END_BIT, END_BIT)
    assert _core.kwg_words(kwg) == []
    assert not _core.contains(kwg, bytes([1, 2]))


def test_suffix_sharing_is_minimal() -> None:
    # 26 words ending in the same long tail: every first letter leads to the one stored tail
    tail = (5, 18, 9, 14, 7)
    kwg = check_kwg([(t, *tail) for t in range(1, 27)], 26)
    arr = entries(kwg)
    firsts = sibling_list(arr, arr[0] & ARC_MASK)
    assert len(firsts) == 26
    assert len({e & ARC_MASK for e in firsts}) == 1


def test_large_alphabet_and_long_words() -> None:
    rng = random.Random(11)
    words = [tuple(rng.randint(1, 63) for _ in range(rng.randint(1, 30))) for _ in range(200)]
    words += [tuple(range(1, 64)), tuple(range(63, 0, -1))]
    check_kwg(words, 63)


@given(
    st.lists(
        st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=6).map(tuple),
        min_size=0,
        max_size=40,
    )
)
def test_random_lists(words: list[tuple[int, ...]]) -> None:
    check_kwg(words, 4)


def test_same_language_as_the_python_builder() -> None:
    rng = random.Random(3)
    words = [tuple(rng.randint(1, 5) for _ in range(rng.randint(2, 6))) for _ in range(150)]
    core = _core.build_kwg(blob(words), 5)
    arcs = build_kwg_python(words)
    python = struct.pack(f"<{len(arcs)}I", *arcs)
    assert paths(core, 0) == paths(python, 0)
    assert paths(core, 1) == paths(python, 1)
    assert len(core) <= len(python)


def test_kwg_words_and_contains() -> None:
    words = [(3, 1, 20), (3, 1, 20, 19), (1, 20), (20, 1)]
    kwg = _core.build_kwg(blob(words), 26)
    assert _core.kwg_words(kwg) == sorted(bytes(w) for w in words)
    for w in words:
        assert _core.contains(kwg, bytes(w))
    for w in [(3, 1), (3,), (), (3, 1, 20, 19, 1), (27,)]:
        assert not _core.contains(kwg, bytes(w))
    # a .kwg file image (16-byte header) and a memoryview work too
    image = _core.KWG_MAGIC + struct.pack("<II", 26, len(kwg) // 4) + kwg
    assert _core.kwg_words(memoryview(image)) == _core.kwg_words(kwg)
    assert _core.contains(bytearray(image), bytes([1, 20]))


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="offset 4"):
        _core.build_kwg(bytes([1, 2, 0, 3, 27]), 26)
    for size in (0, 64):
        with pytest.raises(ValueError):
            _core.build_kwg(b"\x01", size)
    with pytest.raises(ValueError, match="multiple of 4"):
        _core.kwg_words(b"\x00" * 10)
    bad = struct.pack("<4I", END_BIT | 2, END_BIT, (1 << TILE_SHIFT) | END_BIT | ACCEPT_BIT | 99, 0)
    with pytest.raises(ValueError, match="not a valid kwg"):
        _core.kwg_words(bad)
    kwg = _core.build_kwg(b"\x01\x02", 2)
    image = _core.KWG_MAGIC + struct.pack("<II", 2, len(kwg) // 4 + 1) + kwg
    with pytest.raises(ValueError, match="entry count"):
        _core.kwg_words(image)


def test_english_list_whole(english_path: Path) -> None:
    """The whole English list: same words back; GADDAG paths of a sample are all there."""
    text = english_path.read_bytes()
    table = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz\n", bytes(range(1, 27)) + b"\x00")
    data = text.replace(b"\r", b"").translate(table)
    kwg = _core.build_kwg(data, 26)
    words = sorted(w for w in data.split(b"\x00") if w)
    assert len(words) == 274_137
    assert _core.kwg_words(kwg) == words
    arr = entries(kwg)

    def accepts(path: Sequence[int]) -> bool:
        index, e = arr[1] & ARC_MASK, 0
        for t in path:
            e = next((x for x in sibling_list(arr, index) if x >> TILE_SHIFT == t), 0)
            if not e:
                return False
            index = e & ARC_MASK
        return bool(e & ACCEPT_BIT)

    rng = random.Random(1)
    for w in rng.sample(words, 300):
        for p in gaddag_paths(w):
            assert accepts(p)
        assert not accepts((*reversed(w), 1)) or _core.contains(kwg, bytes([1, *w]))
