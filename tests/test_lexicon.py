"""The word automaton (KWG, docs/ENGINE.md): the pure-Python builder, walking, cross sets, files (RO-2)."""

from __future__ import annotations

import mmap
import random
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitru.engine.lexicon import (
    ACCEPT_BIT,
    ARC_MASK,
    END_BIT,
    HEADER,
    MAGIC,
    TILE_SHIFT,
    Lexicon,
    WordEncoder,
    build_kwg_python,
    gaddag_paths,
)
from arbitru.engine.tiles import alphabet
from arbitru.errors import LexiconError, TileError
from conftest import python_lexicon

EN = alphabet("en")
RO = alphabet("ro")


def random_words(seed: int, letters: int, count: int, max_len: int = 7) -> set[tuple[int, ...]]:
    rnd = random.Random(seed)
    return {tuple(rnd.randint(1, letters) for _ in range(rnd.randint(2, max_len))) for _ in range(count)}


def entries(arcs: list[int] | memoryview, index: int) -> list[tuple[int, bool, bool, int]]:
    """The sibling list at ``index`` decoded straight from the array: (tile, accepts, is_end, child)."""
    out = []
    while True:
        node = arcs[index]
        out.append((node >> TILE_SHIFT, bool(node & ACCEPT_BIT), bool(node & END_BIT), node & ARC_MASK))
        if node & END_BIT:
            return out
        index += 1


def accepted_paths(arcs: list[int] | memoryview, root: int) -> set[tuple[int, ...]]:
    """Every accepted path from a root list, by a walk written here (independent of Lexicon.arcs)."""
    found: set[tuple[int, ...]] = set()
    stack = [(root, ())] if root else []
    while stack:
        index, prefix = stack.pop()
        for tile, accepts, _end, child in entries(arcs, index):
            path = (*prefix, tile)
            if accepts:
                found.add(path)
            if child:
                stack.append((child, path))
    return found


def reachable_lists(arcs: list[int], root: int) -> set[int]:
    seen: set[int] = set()
    stack = [root] if root else []
    while stack:
        index = stack.pop()
        if index in seen:
            continue
        seen.add(index)
        stack.extend(child for *_, child in entries(arcs, index) if child)
    return seen


# --- the builder --------------------------------------------------------------------------------------------


def test_gaddag_paths_follow_the_contract():
    # docs/ENGINE.md: for c1..cn and pivot i: ci .. c1, then 0 and c(i+1) .. cn unless i = n
    c, a, r, e = 3, 1, 18, 5
    assert list(gaddag_paths((c, a, r, e))) == [
        (c, 0, a, r, e),
        (a, c, 0, r, e),
        (r, a, c, 0, e),
        (e, r, a, c),
    ]
    assert list(gaddag_paths((a, a))) == [(a, 0, a), (a, a)]


@pytest.mark.parametrize("seed", range(8))
def test_builder_words_and_gaddag_paths(seed):
    words = random_words(seed, letters=[3, 5, 26, 63][seed % 4], count=[1, 40, 300, 150][seed % 4])
    arcs = build_kwg_python(words)
    dawg, gaddag = arcs[0] & ARC_MASK, arcs[1] & ARC_MASK
    assert accepted_paths(arcs, dawg) == words
    assert accepted_paths(arcs, gaddag) == {p for w in words for p in gaddag_paths(w)}


@pytest.mark.parametrize("seed", range(4))
def test_builder_array_is_well_formed_and_shared(seed):
    words = random_words(seed, letters=4, count=200)
    arcs = build_kwg_python(words)
    # entries 0 and 1: pointers to the two roots, tile 0, is_end set
    for pointer in arcs[:2]:
        assert pointer >> TILE_SHIFT == 0 and pointer & END_BIT and not pointer & ACCEPT_BIT
    for root in (arcs[0] & ARC_MASK, arcs[1] & ARC_MASK):
        contents = {}
        for index in reachable_lists(arcs, root):
            lst = entries(arcs, index)
            tiles = [t for t, *_ in lst]
            assert tiles == sorted(set(tiles)), "siblings sorted by ascending tile, no repeats"
            assert all(0 < child < len(arcs) for *_, child in lst if child)
            key = tuple((t, acc, child) for t, acc, _e, child in lst)
            # minimal in the KWG sense: one copy of each sibling list
            assert key not in contents, f"list {index} repeats list {contents.get(key)}"
            contents[key] = index
    # the GADDAG separator is tile 0 and appears only inside GADDAG paths
    assert 0 not in {t for w in accepted_paths(arcs, arcs[0] & ARC_MASK) for t in w}


def test_builder_without_gaddag_and_empty_list():
    arcs = build_kwg_python([(1, 2)], gaddag=False)
    assert arcs[1] & ARC_MASK == 0
    assert accepted_paths(arcs, arcs[0] & ARC_MASK) == {(1, 2)}
    empty = python_lexicon([], EN)
    assert len(empty) == 0 and list(empty.words()) == [] and "AB" not in empty


@given(st.sets(st.lists(st.integers(1, 6), min_size=2, max_size=9).map(tuple), max_size=60))
def test_builder_property(words):
    arcs = build_kwg_python(words)
    assert accepted_paths(arcs, arcs[0] & ARC_MASK) == words
    assert accepted_paths(arcs, arcs[1] & ARC_MASK) == {p for w in words for p in gaddag_paths(w)}
    lex = Lexicon("h", EN, HEADER.pack(MAGIC, EN.size, len(arcs)) + struct.pack(f"<{len(arcs)}I", *arcs))
    assert list(lex.words()) == sorted(words)
    assert len(lex) == len(words)


# --- walking ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_words_contains_and_len_against_a_set(seed):
    words = random_words(seed, letters=5, count=150)
    lex = python_lexicon(words, EN)
    assert list(lex.words()) == sorted(words)  # in tile order
    assert len(lex) == len(words)
    rnd = random.Random(seed)
    for _ in range(500):
        probe = tuple(rnd.randint(1, 6) for _ in range(rnd.randint(1, 8)))
        assert lex.contains_tiles(probe) == (probe in words)
    for w in words:
        assert lex.contains_tiles(w)
        assert lex.contains_tiles([t | 0x80 for t in w])  # blanks stand for their letters
        assert not lex.contains_tiles(w[:-1]) or w[:-1] in words
    assert not lex.contains_tiles(())


@pytest.mark.parametrize("seed", range(4))
def test_cross_set_against_a_set(seed):
    words = random_words(seed, letters=4, count=120, max_len=5)
    lex = python_lexicon(words, EN)
    rnd = random.Random(seed)
    for _ in range(300):
        before = tuple(rnd.randint(1, 4) for _ in range(rnd.randint(0, 3)))
        after = tuple(rnd.randint(1, 4) for _ in range(rnd.randint(0 if before else 1, 3)))
        expected = sum(1 << t for t in range(1, EN.size + 1) if (*before, t, *after) in words)
        assert lex.cross_set(before, after) == expected, (before, after)


def test_walk_and_follow(make_lexicon):
    lex = make_lexicon(["CASA", "CAS", "AS"], RO)
    c, a, s = RO.code("C"), RO.code("A"), RO.code("S")
    assert lex.walk([c, a])[0] is False
    assert lex.walk([c, a, s])[0] is True
    assert lex.walk([s]) is None
    assert lex.follow(lex.dawg_root, a)[0] is False
    assert lex.follow(lex.dawg_root, RO.code("Z")) is None
    assert [t for t, _, _ in lex.arcs(lex.dawg_root)] == [a, c]
    assert list(lex.arcs(0)) == []


def test_membership_folds_text(make_lexicon):
    lex = make_lexicon(["ȚARĂ", "casă", "x1", "ABCDEFGHIJKLMNOP", "A"], RO, "ro")
    assert "tara" in lex and "CASA" in lex and "casă" in lex
    assert "x1" not in lex and 42 not in lex and "" not in lex and "ΑΒ" not in lex
    assert len(lex) == 2  # the 16-letter word, the 1-letter word and the foreign word are not compiled
    assert repr(lex) == "<Lexicon ro (ro)>"


def test_encode_words_rejects_and_folds():
    tiles, rejected = Lexicon.encode_words(["casă", "a", "ABCDEFGHIJKLMNOP", "ΑΒ", "  ", "ab"], RO)
    assert tiles == [RO.split("CASA"), RO.split("AB")]
    assert rejected == ["a", "ABCDEFGHIJKLMNOP", "ΑΒ", "  "]
    es_tiles, _ = Lexicon.encode_words(["CHURRO"], alphabet("es"))
    assert len(es_tiles[0]) == 4  # word length counts tiles, not characters


def test_word_encoder_agrees_with_fold_and_split():
    # a combining mark that NFC cannot attach (acute on T) is dropped by Alphabet.fold, so by the encoder too
    for raw in ("cat\u0301", "ȚARĂ", "\u0301", "ca t", "CAΣA"):
        folded = RO.fold(raw)
        try:
            expected = RO.split(folded) if folded else None
        except TileError:
            expected = None
        got = WordEncoder(RO).tiles(raw)
        assert (list(got) if got is not None else None) == expected, raw


def test_from_words_public_builder_matches(make_lexicon):
    # Lexicon.from_words uses the compiled builder when it is built: it must compile the same list
    words = ["CASA", "CAS", "AS", "ȘAH", "MASĂ", "ZZ"]
    expected = sorted(Lexicon.encode_words(words, RO)[0])
    assert [list(w) for w in Lexicon.from_words(words, RO).words()] == expected
    assert [list(w) for w in make_lexicon(words, RO).words()] == expected


# --- files --------------------------------------------------------------------------------------------------


def test_save_and_load_by_memory_map(tmp_path):
    words = random_words(11, letters=26, count=400)
    lex = python_lexicon(words, EN, "mylist")
    path = tmp_path / "mylist.kwg"
    lex.save(path)
    assert not (tmp_path / "mylist.tmp").exists()
    raw = path.read_bytes()
    assert raw[:8] == MAGIC
    assert struct.unpack_from("<II", raw, 8) == (EN.size, len(lex.kwg))
    loaded = Lexicon.load(path, "en")
    assert isinstance(loaded._data.obj, mmap.mmap)
    assert loaded.name == "mylist" and loaded.source == str(path)
    assert list(loaded.kwg) == list(lex.kwg)
    assert set(loaded.words()) == words
    assert Lexicon.load(path, EN, name="other").name == "other"
    # saving a loaded list writes the same bytes
    loaded.save(tmp_path / "copy.kwg")
    assert (tmp_path / "copy.kwg").read_bytes() == raw


def test_bad_files_raise_lexicon_error(tmp_path):
    good = python_lexicon(["CASA", "AS"], RO, "good")
    good_path = tmp_path / "good.kwg"
    good.save(good_path)
    raw = good_path.read_bytes()
    cases = {
        "truncated": (raw[:-4], "truncated"),
        "extra": (raw + b"\0\0\0\0", "truncated"),
        "short": (raw[:10], "too short"),
        "empty": (b"", "cannot read|too short"),
        "magic": (b"NOTAKWG!" + raw[8:], "bad header"),
    }
    for name, (data, message) in cases.items():
        path = tmp_path / f"{name}.kwg"
        path.write_bytes(data)
        with pytest.raises(LexiconError, match=message):
            Lexicon.load(path, RO)
    with pytest.raises(LexiconError, match="alphabet of 26 letters, not Polish"):
        Lexicon.load(good_path, "pl")
    with pytest.raises(LexiconError, match="cannot read"):
        Lexicon.load(tmp_path / "missing.kwg", RO)


# --- a large English list ------------------------------------------------------------------------------------


def test_english_list_fixture_encoding_matches_encode_words(english_words):
    rnd = random.Random(5)
    sample = rnd.sample(english_words, 3000)
    text = ["".join(chr(96 + t) for t in w) for w in sample]
    assert [tuple(w) for w in Lexicon.encode_words(text, EN)[0]] == sample


def test_english_list_membership(english, english_words):
    # the list has 274,137 words; 4,267 are longer than 15 letters and cannot be played
    assert len(english_words) == len(set(english_words)) == 269_870
    assert len(english) == 269_870
    rnd = random.Random(8)
    words = set(english_words)
    for w in rnd.sample(english_words, 5000):
        assert english.contains_tiles(w)
        # change one letter: in the lexicon exactly when the set says so
        i = rnd.randrange(len(w))
        other = (*w[:i], rnd.randint(1, 26), *w[i + 1 :])
        assert english.contains_tiles(other) == (other in words)
    for word in ("QUIXOTIC", "zyzzyva", "AA", "ETHER"):
        assert word in english
    for word in ("QX", "ABCDEF", "A", "ZYZZYVAS" + "S"):
        assert word not in english


def test_english_list_cross_sets(english, english_words):
    words = set(english_words)
    rnd = random.Random(9)
    for w in rnd.sample([w for w in english_words if len(w) <= 6], 400):
        i = rnd.randrange(len(w))
        before, after = w[:i], w[i + 1 :]
        expected = sum(1 << t for t in range(1, 27) if (*before, t, *after) in words)
        assert english.cross_set(before, after) == expected
        assert expected >> w[i] & 1


def test_english_list_subset_gaddag(english_words):
    # the pure-Python GADDAG on a 1,500-word slice of the list (all of it takes ~30 s)
    sample = set(random.Random(3).sample(english_words, 1500))
    arcs = build_kwg_python(sample)
    assert accepted_paths(arcs, arcs[1] & ARC_MASK) == {p for w in sample for p in gaddag_paths(w)}
    assert accepted_paths(arcs, arcs[0] & ARC_MASK) == sample
