"""A placement as a player writes it: a coordinate and the whole main word (blanks in lower case).

The value knows nothing of a board; which tiles are new is the board's business (:meth:`Board.new_tiles`).

>>> from arbitru.engine.tiles import alphabet
>>> p = Placement.parse("8H casA", alphabet("ro"))
>>> p.coord, p.format(alphabet("ro"))
(Coordinate(7, 7, 'V'), '8H casA')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from arbitru.engine.layout import SIZE
from arbitru.engine.notation import HORIZONTAL, VERTICAL, Coordinate
from arbitru.engine.tiles import Alphabet
from arbitru.errors import IllegalPlacementError, NotationError
from arbitru.messages import Text


@dataclass(frozen=True, order=True)
class Placement:
    """``coord`` is the start of the main word; ``word`` its tiles, played-through squares included."""

    coord: Coordinate
    word: tuple[int, ...]

    @classmethod
    def parse(cls, text: str, alpha: Alphabet, convention: str = "ro") -> Placement:
        """``"H8 CASA"``, ``"8H casa"``, Greek ``"A5 O ΛΕΞΗ"``: the word is the last field.

        :raises NotationError: for an unreadable position or a missing word.
        :raises TileError: for a letter not in the tile set.
        """
        fields = text.split()
        if len(fields) < 2:
            raise NotationError(Text("%(text)s needs a position and a word", text=repr(text)), "syntax")
        return cls.of(" ".join(fields[:-1]), fields[-1], alpha, convention)

    @classmethod
    def of(cls, position: str, word: str, alpha: Alphabet, convention: str = "ro") -> Placement:
        coord = Coordinate.parse(position, convention)
        if not word.strip():
            raise NotationError(Text("the placement has no word"), "empty-word")
        return cls(coord, tuple(alpha.split(word, blanks=True)))

    def format(self, alpha: Alphabet, convention: str = "ro") -> str:
        return f"{self.coord.format(convention)} {alpha.format(self.word)}"

    def squares(self) -> list[int]:
        return self.coord.squares(len(self.word))

    def fits(self) -> bool:
        """Does the word stay on the board?"""
        end = (self.coord.col if self.coord.horizontal else self.coord.row) + len(self.word)
        return end <= SIZE

    @classmethod
    def from_tiles(cls, squares: Mapping[int, int], occupied: bytes | bytearray) -> Placement:
        """The placement made by putting ``squares`` (square -> tile) on a board.

        :raises IllegalPlacementError: ``no-tile``, ``not-on-one-line``, ``occupied`` or ``gap`` (G-2).
        """
        if not squares:
            raise IllegalPlacementError([("no-tile", Text("no tile is placed"))])
        for sq in squares:
            if occupied[sq]:
                raise IllegalPlacementError([("occupied", Text("square %(square)s already holds a tile", square=sq))])
        rows = {sq // SIZE for sq in squares}
        cols = {sq % SIZE for sq in squares}
        if len(rows) > 1 and len(cols) > 1:
            raise IllegalPlacementError([("not-on-one-line", Text("the tiles are not in one row or one column"))])
        if len(squares) == 1:
            sq = next(iter(squares))
            left = sq % SIZE > 0 and occupied[sq - 1]
            right = sq % SIZE < SIZE - 1 and occupied[sq + 1]
            direction = HORIZONTAL if left or right else VERTICAL
        else:
            direction = HORIZONTAL if len(rows) == 1 else VERTICAL
        step = 1 if direction == HORIZONTAL else SIZE
        first, last = min(squares), max(squares)
        for sq in range(first, last + 1, step):
            if sq not in squares and not occupied[sq]:
                raise IllegalPlacementError([("gap", Text("the tiles leave a gap in the word"))])
        # extend over the tiles already on the board at both ends
        start, end = first, last
        while _next(start, -step) is not None and occupied[start - step]:
            start -= step
        while _next(end, step) is not None and occupied[end + step]:
            end += step
        word = tuple(squares.get(sq, occupied[sq]) for sq in range(start, end + 1, step))
        return cls(Coordinate(start // SIZE, start % SIZE, direction), word)


def _next(square: int, step: int) -> int | None:
    """The neighbour along ``step``, or None off the board (rows do not wrap)."""
    target = square + step
    if not 0 <= target < SIZE * SIZE:
        return None
    if abs(step) == 1 and target // SIZE != square // SIZE:
        return None
    return target
