"""Move generation: every legal placement of a rack on a board, or the best ones.

Two engines share one contract (docs/ENGINE.md): ``compiled`` (the C core, :mod:`arbitru._core`, built by
the package's set-up) and ``reference`` (plain Python, :mod:`arbitru.engine.movegen.reference`), the oracle
the core is tested against. Both return the same placements with the same scores, in the same order: best
first, then by placement (row, column, direction, word).

For many generations on one evolving board (self-play, searching an anticipation game), keep a
:class:`CoreBoard`: it updates its cross-sets incrementally as placements are made, and returns results as a
compact buffer (:class:`Placements`) decoded only on demand.

>>> from arbitru.engine.tiles import alphabet
>>> from arbitru.engine.lexicon import Lexicon
>>> from arbitru.engine.board import Board
>>> en = alphabet("en")
>>> lex = Lexicon.from_words(["CAT", "AT", "TA"], en)
>>> [(p.format(en), s) for p, s in generate(Board(en), en.parse_rack("CAT"), lex, top=1)]
[('8F CAT', 10), ('8G CAT', 10), ('H6 CAT', 10), ('H7 CAT', 10), ('H8 CAT', 10), ('8H CAT', 10)]
"""

from __future__ import annotations

import struct
import threading
import weakref
from collections.abc import Iterator, Sequence
from typing import Any, overload

from arbitru.engine.board import Board
from arbitru.engine.layout import SIZE, Layout
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.notation import HORIZONTAL, VERTICAL, Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.rules import BINGO_BONUS, BINGO_TILES
from arbitru.engine.tiles import Rack

ENGINES = ("compiled", "reference")
RECORD = struct.Struct("<iBBBB15sB")

try:
    from arbitru import _core

    _HAVE_CORE = True
except ImportError:  # pragma: no cover - the set-up always builds the core; this names the fault plainly
    _HAVE_CORE = False


def core_available() -> bool:
    """Is the compiled core (its KWG builder and generator) importable?"""
    return _HAVE_CORE


class Placements(Sequence[tuple[Placement, int]]):
    """The compiled core's result: fixed 24-byte records, turned into :class:`Placement` objects on access."""

    def __init__(self, records: bytes, squares: bytes) -> None:
        self.records = records
        self._squares = squares

    def __len__(self) -> int:
        return len(self.records) // RECORD.size

    @overload
    def __getitem__(self, i: int) -> tuple[Placement, int]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[Placement, int]]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._decode(RECORD.unpack_from(self.records, i * RECORD.size))

    def __iter__(self) -> Iterator[tuple[Placement, int]]:
        for fields in RECORD.iter_unpack(self.records):
            yield self._decode(fields)

    def scores(self) -> list[int]:
        """Scores only, without building placements."""
        return [fields[0] for fields in RECORD.iter_unpack(self.records)]

    def _decode(self, fields: tuple[int, int, int, int, int, bytes, int]) -> tuple[Placement, int]:
        score, row, col, direction, length, tiles, _placed = fields
        step = 1 if direction == 0 else SIZE
        start = row * SIZE + col
        word = tuple(tiles[k] or self._squares[start + k * step] for k in range(length))
        return Placement(Coordinate(row, col, HORIZONTAL if direction == 0 else VERTICAL), word), score


# one validated core board per (lexicon, layout, bingo rule): building one checks the whole automaton
_PROTOTYPES: weakref.WeakKeyDictionary[Lexicon, dict[tuple[Layout, int, int], Any]] = weakref.WeakKeyDictionary()
_PROTOTYPES_LOCK = threading.Lock()


def _prototype(lexicon: Lexicon, layout: Layout, bingo_tiles: int, bingo_bonus: int) -> Any:
    if not _HAVE_CORE:
        raise RuntimeError("the compiled core is not built: run ./arbitru (it installs and builds it)")
    key = (layout, bingo_tiles, bingo_bonus)
    with _PROTOTYPES_LOCK:
        per_lexicon = _PROTOTYPES.setdefault(lexicon, {})
        proto = per_lexicon.get(key)
        if proto is None:
            alpha = lexicon.alphabet
            # letters without tiles (Romanian K, Q, W, Y: G-6): a natural one on a rack is never placed
            tileless = sum(1 << t for t in range(1, alpha.size + 1) if not alpha.has_tiles(t))
            proto = _core.Board(
                lexicon.kwg, alpha.size, bytes(alpha.values), layout.letter_mult, layout.word_mult,
                bingo_tiles, bingo_bonus, layout.centre, tileless,
            )
            # the first top-k search with a full rack builds the bingo-bound table; build it here, once, so that
            # every copy shares it (0.2 s for the Polish list, otherwise paid on every call); only then is the
            # prototype published, so no thread copies it while it searches
            proto.generate(bytes([0, bingo_tiles]) + bytes(alpha.size - 1), 1, 0)
            per_lexicon[key] = proto
        return proto.copy()


class CoreBoard:
    """A board inside the compiled core, kept in step with placements (cross-sets updated incrementally).

    Each instance is used by one thread at a time; separate instances run in parallel (the core releases
    the GIL).
    """

    def __init__(
        self,
        lexicon: Lexicon,
        board: Board,
        *,
        bingo_tiles: int = BINGO_TILES,
        bingo_bonus: int = BINGO_BONUS,
    ) -> None:
        if lexicon.alphabet is not board.alphabet:
            raise ValueError(
                f"{lexicon.name} is a {lexicon.alphabet.name} list, the board {board.alphabet.name}"
            )
        self.lexicon = lexicon
        self.alphabet = board.alphabet
        self._core = _prototype(lexicon, board.layout, bingo_tiles, bingo_bonus)
        if not board.is_empty():
            self._core.set_squares(bytes(board.squares))

    def squares(self) -> bytes:
        return bytes(self._core.squares())

    def place(self, placement: Placement) -> None:
        """Put a placement on the board (not judged: see :func:`arbitru.engine.rules.check`)."""
        squares = self._core.squares()
        pairs = zip(placement.squares(), placement.word, strict=True)
        tiles = bytes(0 if squares[sq] else t for sq, t in pairs)
        c = placement.coord
        self._core.place(c.row, c.col, 0 if c.horizontal else 1, tiles)

    def generate(self, rack: Rack, *, top: int = 0, use_all: bool = False) -> Placements:
        """Placements as a compact buffer, in no particular order (``top=k``: descending score)."""
        flags = _core.FLAG_USE_ALL if use_all else 0
        records = self._core.generate(bytes(rack.counts), top, flags)
        return Placements(records, self.squares())


def generate(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    *,
    top: int = 0,
    use_all: bool = False,
    engine: str = "compiled",
    bingo_tiles: int = BINGO_TILES,
    bingo_bonus: int = BINGO_BONUS,
) -> list[tuple[Placement, int]]:
    """Placements with scores, best first, then by placement.

    ``top=k`` keeps those scoring at least the k-th best, ties at the cut included (the master move's ties,
    FISE-7). ``use_all`` keeps only placements using every tile of the rack (RO-8.2, RO-8.3).
    """
    if engine == "compiled":
        found = list(
            CoreBoard(lexicon, board, bingo_tiles=bingo_tiles, bingo_bonus=bingo_bonus).generate(
                rack, top=top, use_all=use_all
            )
        )
        found.sort(key=lambda pair: (-pair[1], pair[0]))
        return found
    if engine == "reference":
        from arbitru.engine.movegen import reference

        moves = reference.generate(
            board, rack, lexicon, use_all=use_all, bingo_tiles=bingo_tiles, bingo_bonus=bingo_bonus
        )
        if top and len(moves) > top:
            cut = moves[top - 1][1]
            moves = [m for m in moves if m[1] >= cut]
        return moves
    raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
