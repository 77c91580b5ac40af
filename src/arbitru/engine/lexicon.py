"""Word lists as a flat automaton (KWG: DAWG and GADDAG in one ``uint32`` array, docs/ENGINE.md).

A :class:`Lexicon` answers membership and cross-set questions by walking the DAWG half in Python; the compiled
generator walks the same array in C. Lists are compiled once (by the compiled core when it is built, else by
:func:`build_kwg_python`) and saved as ``.kwg`` files that load by memory-mapping.

>>> lex = Lexicon.from_words(["CASA", "CAS", "AS"], alphabet("ro"), name="tiny")
>>> "casă" in lex, "CASE" in lex, len(lex)
(True, False, 3)
"""

from __future__ import annotations

import mmap
import re
import struct
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from arbitru.engine.tiles import Alphabet, alphabet, letter_of
from arbitru.errors import LexiconError, TileError

MAGIC = b"ARBKWG01"
HEADER = struct.Struct("<8sII")
MIN_WORD, MAX_WORD = 2, 15

ARC_MASK = 0xFFFFFF
END_BIT = 1 << 24
ACCEPT_BIT = 1 << 25
TILE_SHIFT = 26


def _arc(tile: int, accepts: bool, is_end: bool, index: int) -> int:
    return (tile << TILE_SHIFT) | (ACCEPT_BIT if accepts else 0) | (END_BIT if is_end else 0) | index


def gaddag_paths(word: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The GADDAG paths of a word: per pivot i, ``w[i]..w[0]``, then 0 and ``w[i+1:]`` unless i is last."""
    n = len(word)
    for i in range(n):
        rev = tuple(reversed(word[: i + 1]))
        yield rev if i == n - 1 else (*rev, 0, *word[i + 1 :])


def _build_lists(sequences: list[tuple[int, ...]], out: list[int]) -> int:
    """Add the minimized automaton of sorted, distinct sequences to ``out``; return its root list index.

    Daciuk's incremental construction over sibling lists: a finished subtree is replaced by an identical
    one already emitted (same tiles, accept bits and children), so the array is minimal in the KWG sense.
    """
    register: dict[tuple[tuple[int, int, int], ...], int] = {}

    def emit(arcs: list[list[int]]) -> int:
        if not arcs:
            return 0
        key = tuple((tile, accepts, child) for tile, accepts, child in arcs)
        found = register.get(key)
        if found is not None:
            return found
        start = len(out)
        for j, (tile, accepts, child) in enumerate(arcs):
            out.append(_arc(tile, bool(accepts), j == len(arcs) - 1, child))
        register[key] = start
        return start

    # stack[d] is the open sibling list at depth d: [tile, accepts (0/1), child_index_or_open]
    stack: list[list[list[int]]] = [[]]
    prev: tuple[int, ...] = ()

    def close_to(depth: int) -> None:
        while len(stack) > depth + 1:
            arcs = stack.pop()
            stack[-1][-1][2] = emit(arcs)

    for seq in sequences:
        common = 0
        while common < len(prev) and common < len(seq) and prev[common] == seq[common]:
            common += 1
        close_to(common)
        for k in range(common, len(seq)):
            stack[-1].append([seq[k], int(k == len(seq) - 1), 0])
            stack.append([])
        prev = seq
    close_to(0)
    return emit(stack[0])


def build_kwg_python(words: Iterable[Sequence[int]], *, gaddag: bool = True) -> list[int]:
    """Build the KWG array in pure Python: the reference for the compiled builder, and for tiny lists.

    Slow on large lists (seconds for ENABLE's DAWG); the compiled core's builder is used for real lists.
    """
    distinct = sorted({tuple(w) for w in words})
    out = [_arc(0, False, True, 0), _arc(0, False, True, 0)]
    out[0] = _arc(0, False, True, _build_lists(distinct, out))
    if gaddag:
        paths = sorted({p for w in distinct for p in gaddag_paths(w)})
        out[1] = _arc(0, False, True, _build_lists(paths, out))
    return out


def build_kwg(words: Iterable[Sequence[int]], alphabet_size: int) -> bytes:
    """The KWG array as bytes, built by the compiled core when available.

    Words may be ``bytes`` of tile codes (what :class:`WordEncoder` gives), passed to the core as they are.
    """
    try:
        from arbitru import _core
    except ImportError:
        return _pack(build_kwg_python(words))
    blob = b"\x00".join(w if isinstance(w, bytes) else bytes(w) for w in words)
    return bytes(_core.build_kwg(blob, alphabet_size))


def _validate(name: str, kwg: memoryview) -> None:
    """Check every arc stays inside the array (the compiled core's check), so a damaged file fails here."""
    try:
        from arbitru import _core
    except ImportError:
        return
    try:
        _core.contains(kwg, b"\x01")
    except ValueError as e:
        raise LexiconError(f"{name}: damaged compiled word list ({e})") from None


def _pack(arcs: list[int]) -> bytes:
    return struct.pack(f"<{len(arcs)}I", *arcs)


class _Folding(dict[int, str]):
    """``str.translate`` table: a character to what ``Alphabet.fold`` makes of it, computed on first sight."""

    def __init__(self, alpha: Alphabet, codes: dict[str, str] | None) -> None:
        super().__init__()
        self.alpha = alpha
        self.codes = codes

    def __missing__(self, key: int) -> str:
        ch = chr(key)
        folded = None if ch.isspace() else self.alpha.fold(ch)
        if folded is None:
            value = _REJECT
        elif not folded:
            value = ""  # a lone combining mark NFC could not attach: Alphabet.fold drops it too
        elif self.codes is not None:
            # single-letter tile sets: straight to the tile codes, one character per tile
            value = "".join(self.codes[c] for c in folded)
        else:
            value = folded
        self[key] = value
        return value


_REJECT = "\x00"


class WordEncoder:
    """Folds and splits raw list entries into tile words, fast enough for 3 million entries.

    It also says why an entry is rejected.

    Same results as ``Alphabet.fold`` + ``Alphabet.split`` by construction (tests check it in every language):
    ``Alphabet.fold`` works character by character, so each distinct character is folded once by
    ``Alphabet.fold`` itself and applied with ``str.translate``; ``Alphabet.split`` takes the longest tile
    label at each position, which is what a regex alternation of the labels, longest first, matches (with
    one-letter labels only, the translation goes straight to tile codes). Words come out as ``bytes`` of
    tile codes: they hash and sort many times faster than lists.
    """

    def __init__(self, alpha: Alphabet) -> None:
        labels = sorted(alpha.labels[1:], key=len, reverse=True)
        self.codes = {label: alpha.code(label) for label in labels}
        single = all(len(label) == 1 for label in labels)
        self.table = _Folding(
            alpha, {label: chr(code) for label, code in self.codes.items()} if single else None
        )
        self.pattern = None if single else re.compile("|".join(re.escape(label) for label in labels))

    def tiles(self, raw: str) -> bytes | None:
        """The tile codes of a raw entry, or None when a character is not in the tile set."""
        text = unicodedata.normalize("NFC", raw.strip()).translate(self.table)
        if not text or _REJECT in text:
            return None
        if self.pattern is None:
            return text.encode("latin-1")
        labels = self.pattern.findall(text)
        if "".join(labels) != text:
            return None
        return bytes(self.codes[label] for label in labels)

    def encode(self, raw_words: Iterable[str]) -> tuple[list[bytes], list[tuple[str, str]]]:
        """(tile words kept, rejected entries in input order as (raw, reason ``letters`` or ``length``))."""
        kept: list[bytes] = []
        rejected: list[tuple[str, str]] = []
        for raw in raw_words:
            tiles = self.tiles(raw)
            if tiles is None:
                rejected.append((raw, "letters"))
            elif MIN_WORD <= len(tiles) <= MAX_WORD:
                kept.append(tiles)
            else:
                rejected.append((raw, "length"))
        return kept, rejected



class Lexicon:
    """A word list compiled to a KWG, for one tile set.

    ``name`` is what results and journals record (RO-2: the list used is always explicit).
    """

    def __init__(self, name: str, alpha: Alphabet, data: bytes | memoryview, source: str = "") -> None:
        if len(data) < HEADER.size:
            raise LexiconError(f"{name}: not a compiled word list (file too short)")
        magic, size, count = HEADER.unpack_from(data)
        if magic != MAGIC:
            raise LexiconError(f"{name}: not a compiled word list (bad header)")
        if size != alpha.size:
            raise LexiconError(f"{name}: compiled for an alphabet of {size} letters, not {alpha.name}")
        if len(data) != HEADER.size + 4 * count:
            raise LexiconError(f"{name}: compiled word list is truncated")
        self.name = name
        self.alphabet = alpha
        self.source = source
        self._data = data
        #: the KWG array itself; a memoryview over the mapped file when loaded from disk
        self.kwg = memoryview(data)[HEADER.size :].cast("I")
        self._count: int | None = None
        _validate(name, self.kwg)

    # --- construction --------------------------------------------------------------------------------------

    @staticmethod
    def encode_words(words: Iterable[str], alpha: Alphabet) -> tuple[list[list[int]], list[str]]:
        """Fold and split raw words; keep those of 2–15 tiles. Returns (tile words, rejected raw words)."""
        kept, rejected = WordEncoder(alpha).encode(words)
        return [list(w) for w in kept], [raw for raw, _reason in rejected]

    @classmethod
    def from_words(cls, words: Iterable[str], alpha: Alphabet, name: str = "words") -> Lexicon:
        """Compile a list in memory (tests, small lists)."""
        tiles, _ = cls.encode_words(words, alpha)
        return cls.from_tiles(tiles, alpha, name)

    @classmethod
    def from_tiles(cls, words: Iterable[Sequence[int]], alpha: Alphabet, name: str = "words") -> Lexicon:
        kwg = build_kwg(words, alpha.size)
        return cls(name, alpha, HEADER.pack(MAGIC, alpha.size, len(kwg) // 4) + kwg)

    def save(self, path: Path) -> None:
        """Write the ``.kwg`` file atomically (a crash leaves the old file or none)."""
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(bytes(self._data))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, alpha: Alphabet | str, name: str | None = None) -> Lexicon:
        """Memory-map a ``.kwg`` file: loading costs no parse, whatever the list's size."""
        alpha = alphabet(alpha) if isinstance(alpha, str) else alpha
        try:
            with open(path, "rb") as f:
                data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as e:
            raise LexiconError(f"cannot read compiled word list {path}: {e}") from None
        return cls(name or path.stem, alpha, memoryview(data), source=str(path))

    def __repr__(self) -> str:
        return f"<Lexicon {self.name} ({self.alphabet.lang})>"

    # --- walking -------------------------------------------------------------------------------------------

    @property
    def dawg_root(self) -> int:
        return self.kwg[0] & ARC_MASK

    @property
    def gaddag_root(self) -> int:
        return self.kwg[1] & ARC_MASK

    def arcs(self, index: int) -> Iterator[tuple[int, bool, int]]:
        """The sibling list at ``index`` as (tile, accepts, child list index)."""
        kwg = self.kwg
        while index:
            node = kwg[index]
            yield node >> TILE_SHIFT, bool(node & ACCEPT_BIT), node & ARC_MASK
            if node & END_BIT:
                return
            index += 1

    def follow(self, index: int, tile: int) -> tuple[bool, int] | None:
        """The arc for ``tile`` in the list at ``index``: (accepts, child index), or None."""
        for t, accepts, child in self.arcs(index):
            if t == tile:
                return accepts, child
            if t > tile:
                return None
        return None

    def walk(self, tiles: Iterable[int]) -> tuple[bool, int] | None:
        """Follow a prefix from the DAWG root: (prefix is a word, list index after it), or None."""
        index, accepts = self.dawg_root, False
        for t in tiles:
            step = self.follow(index, letter_of(t))
            if step is None:
                return None
            accepts, index = step
        return accepts, index

    def contains_tiles(self, tiles: Sequence[int]) -> bool:
        """Is this tile sequence (blanks allowed) a word?"""
        if not tiles:
            return False
        end = self.walk(tiles)
        return end is not None and end[0]

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        folded = self.alphabet.fold(word)
        if not folded:
            return False
        try:
            return self.contains_tiles(self.alphabet.split(folded))
        except TileError:
            return False

    def cross_set(self, before: Sequence[int], after: Sequence[int]) -> int:
        """Bit mask of letters ``t`` (bit t) such that ``before + t + after`` is a word."""
        start = self.walk(before)
        if start is None:
            return 0
        mask = 0
        for t, accepts, child in self.arcs(start[1]):
            if not after:
                if accepts:
                    mask |= 1 << t
                continue
            end = child
            ok = True
            for i, a in enumerate(after):
                step = self.follow(end, letter_of(a))
                if step is None:
                    ok = False
                    break
                word_end, end = step
                if i == len(after) - 1 and not word_end:
                    ok = False
            if ok:
                mask |= 1 << t
        return mask

    def words(self) -> Iterator[tuple[int, ...]]:
        """Every word, in tile order (a word before the longer words it begins)."""
        # depth-first, one pending sibling list per level, so that words come out sorted
        stack: list[tuple[tuple[int, ...], Iterator[tuple[int, bool, int]]]]
        stack = [((), self.arcs(self.dawg_root))]
        while stack:
            prefix, siblings = stack[-1]
            arc = next(siblings, None)
            if arc is None:
                stack.pop()
                continue
            t, accepts, child = arc
            word = (*prefix, t)
            if accepts:
                yield word
            if child:
                stack.append((word, self.arcs(child)))

    def __len__(self) -> int:
        if self._count is None:
            self._count = self._count_words()
        return self._count

    def _count_words(self) -> int:
        memo: dict[int, int] = {0: 0}

        def count(index: int) -> int:
            if index in memo:
                return memo[index]
            total = 0
            for _t, accepts, child in self.arcs(index):
                total += accepts + count(child)
            memo[index] = total
            return total

        import sys

        sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
        return count(self.dawg_root)
