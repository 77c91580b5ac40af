"""The board: 225 squares of tile codes, read and written as text or CGP, drawn in a terminal.

>>> from arbitru.engine.tiles import alphabet
>>> b = Board(alphabet("ro"))
>>> new = b.play(Placement.parse("H7 CASA", b.alphabet))
>>> b.to_text().splitlines()[7]
'......CASA.....'
>>> Board.from_cgp(b.to_cgp(), alphabet("ro")) == b
True
"""

from __future__ import annotations

from collections.abc import Iterator

from arbitru.engine.layout import ROW_LETTERS, SIZE, SQUARES, STANDARD, Layout
from arbitru.engine.notation import Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import BLANK_BIT, Alphabet, letter_of
from arbitru.errors import BoardFileError, IllegalPlacementError, TileError
from arbitru.messages import Text

_ASCII_DIGITS = "0123456789"


class Board:
    """Tiles on the 15×15 grid (``squares[row * 15 + col]``, 0 = empty) with the layout and tile set."""

    def __init__(self, alpha: Alphabet, layout: Layout = STANDARD, squares: bytes | None = None) -> None:
        self.alphabet = alpha
        self.layout = layout
        self.squares = bytearray(squares if squares is not None else SQUARES)
        if len(self.squares) != SQUARES:
            raise BoardFileError("a board has 225 squares")

    def copy(self) -> Board:
        return Board(self.alphabet, self.layout, bytes(self.squares))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.squares == other.squares and self.alphabet is other.alphabet

    def __hash__(self) -> int:
        return hash(bytes(self.squares))

    def __repr__(self) -> str:
        return f"Board.from_cgp({self.to_cgp()!r}, alphabet({self.alphabet.lang!r}))"

    def is_empty(self) -> bool:
        return not any(self.squares)

    def tile_count(self) -> int:
        return sum(1 for t in self.squares if t)

    # --- placements ----------------------------------------------------------------------------------------

    def new_tiles(self, placement: Placement) -> list[tuple[int, int]]:
        """The (square, tile) pairs a placement adds.

        :raises IllegalPlacementError: ``off-board`` when the word runs off the board, ``conflict`` when a
            letter of the word differs from the tile already on its square.
        """
        if not placement.fits():
            raise IllegalPlacementError(
                [("off-board", f"{self.alphabet.format(placement.word)} runs off the board")]
            )
        new = []
        for sq, tile in zip(placement.squares(), placement.word, strict=True):
            here = self.squares[sq]
            if not here:
                new.append((sq, tile))
            elif letter_of(here) != letter_of(tile):
                name = Coordinate(sq // SIZE, sq % SIZE, "H").format()
                have, want = self.alphabet.label(here), self.alphabet.label(tile)
                raise IllegalPlacementError([("conflict", Text("%(square)s holds %(have)s, not %(want)s",
                                                               square=name, have=have, want=want))])
        return new

    def play(self, placement: Placement) -> list[tuple[int, int]]:
        """Put a placement on the board without judging it (see :func:`arbitru.engine.rules.check`)."""
        new = self.new_tiles(placement)
        for sq, tile in new:
            self.squares[sq] = tile
        return new

    def remove(self, squares: list[int]) -> None:
        """Take tiles off (a cancelled placement, RO-5.3)."""
        for sq in squares:
            self.squares[sq] = 0

    def word_through(
        self, square: int, horizontal: bool, extra: dict[int, int] | None = None
    ) -> tuple[int, list[int]]:
        """The run of tiles through ``square`` along a line: (start square, tiles); ``extra`` adds tiles."""
        extra = extra or {}

        def get(r: int, c: int) -> int:
            sq = r * SIZE + c
            return extra.get(sq) or self.squares[sq]

        dr, dc = (0, 1) if horizontal else (1, 0)
        r, c = divmod(square, SIZE)
        while r - dr >= 0 and c - dc >= 0 and get(r - dr, c - dc):
            r, c = r - dr, c - dc
        start = r * SIZE + c
        tiles = []
        while r < SIZE and c < SIZE and get(r, c):
            tiles.append(get(r, c))
            r, c = r + dr, c + dc
        return start, tiles

    # --- text ----------------------------------------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, alpha: Alphabet, layout: Layout = STANDARD) -> Board:
        """Read 15 lines of 15 squares: ``.`` empty, upper case a tile, lower case a blank for that letter.

        Multi-letter tiles (Spanish CH, LL, RR) are written in brackets: ``[CH]``, ``[ch]``.

        :raises BoardFileError: naming the line and column at fault.
        """
        # (line number in the file, text): messages name the file's line, comments and blank lines counted
        lines = [
            (n, ln.strip())
            for n, ln in enumerate(text.splitlines(), 1)
            if ln.strip() and not ln.lstrip().startswith("#")
        ]
        if len(lines) != SIZE:
            raise BoardFileError(f"a board file has 15 lines of squares, this one has {len(lines)}")
        squares = bytearray(SQUARES)
        for r, (n, line) in enumerate(lines):
            cells = _cells(line, n)
            if len(cells) != SIZE:
                raise BoardFileError(f"line {n} has {len(cells)} squares, not 15")
            for c, cell in enumerate(cells):
                squares[r * SIZE + c] = _tile(cell, alpha, f"line {n}, column {c + 1}")
        return cls(alpha, layout, bytes(squares))

    def to_text(self) -> str:
        rows = []
        for r in range(SIZE):
            rows.append("".join(self._cell(self.squares[r * SIZE + c]) for c in range(SIZE)))
        return "\n".join(rows) + "\n"

    def _cell(self, tile: int) -> str:
        if not tile:
            return "."
        label = self.alphabet.label(tile)
        return label if len(label) == 1 else f"[{label}]"

    @classmethod
    def from_cgp(cls, cgp: str, alpha: Alphabet, layout: Layout = STANDARD) -> Board:
        """Read the board field of a CGP string (Quackle/Macondo): rows split by ``/``, runs of empties as
        numbers, blanks in lower case, multi-letter tiles in brackets. Racks, scores and opcodes are ignored.
        """
        fields = cgp.strip().split()
        if not fields:
            raise BoardFileError("empty CGP string")
        rows = fields[0].split("/")
        if len(rows) != SIZE:
            raise BoardFileError(f"CGP board has {len(rows)} rows, not 15")
        squares = bytearray(SQUARES)
        for r, row in enumerate(rows):
            cells: list[str] = []
            i = 0
            while i < len(row):
                if row[i] in _ASCII_DIGITS:  # a run of empty squares; "²" or "١" is no number
                    j = i
                    while j < len(row) and row[j] in _ASCII_DIGITS:
                        j += 1
                    run = int(row[i:j]) if j - i <= 2 else SIZE + 1
                    if run > SIZE:
                        raise BoardFileError(f"CGP row {r + 1}: {row[i:j]} empty squares, a row has 15")
                    cells.extend(["."] * run)
                    i = j
                elif row[i] == "[":
                    j = row.find("]", i)
                    if j < 0:
                        raise BoardFileError(f"CGP row {r + 1}: unclosed bracket")
                    cells.append(row[i + 1 : j])
                    i = j + 1
                else:
                    cells.append(row[i])
                    i += 1
            if len(cells) != SIZE:
                raise BoardFileError(f"CGP row {r + 1} has {len(cells)} squares, not 15")
            for c, cell in enumerate(cells):
                squares[r * SIZE + c] = _tile(cell, alpha, f"CGP row {r + 1}, column {c + 1}")
        return cls(alpha, layout, bytes(squares))

    def to_cgp(self) -> str:
        rows = []
        for r in range(SIZE):
            out, empties = "", 0
            for c in range(SIZE):
                t = self.squares[r * SIZE + c]
                if not t:
                    empties += 1
                    continue
                if empties:
                    out += str(empties)
                    empties = 0
                out += self._cell(t)
            rows.append(out + (str(empties) if empties else ""))
        return "/".join(rows)

    def render(self, highlight: set[int] | None = None, color: bool = False) -> str:
        """Draw the board for a terminal: coordinates, tiles, premium squares as symbols."""
        marks = {"TW": "=", "DW": "-", "TL": '"', "DL": "'"}
        lines = ["    " + " ".join(f"{c + 1:>2}" for c in range(SIZE))]
        for r in range(SIZE):
            cells = []
            for c in range(SIZE):
                sq = r * SIZE + c
                t = self.squares[sq]
                if t:
                    label = self.alphabet.label(t)
                    text = f"{label:>2}"
                    if color and highlight and sq in highlight:
                        text = f"\x1b[1;33m{text}\x1b[0m"
                else:
                    mark = marks.get(self.layout.premium_name(sq), "·")
                    text = " " + (mark if sq != self.layout.centre else "*")
                cells.append(text)
            lines.append(f" {ROW_LETTERS[r]}  " + " ".join(cells))
        return "\n".join(lines)

    def occupied(self) -> Iterator[int]:
        return (sq for sq in range(SQUARES) if self.squares[sq])


def _cells(line: str, lineno: int) -> list[str]:
    cells = []
    i = 0
    while i < len(line):
        if line[i] == "[":
            j = line.find("]", i)
            if j < 0:
                raise BoardFileError(f"line {lineno}: unclosed bracket")
            cells.append(line[i + 1 : j])
            i = j + 1
        else:
            cells.append(line[i])
            i += 1
    return cells


def _tile(cell: str, alpha: Alphabet, where: str) -> int:
    if cell in (".", "-", "_"):
        return 0
    try:
        tiles = alpha.split(cell, blanks=True)
    except TileError:
        raise BoardFileError(f"{where}: {cell!r} is not a letter of the {alpha.name} tile set") from None
    if len(tiles) != 1:
        raise BoardFileError(f"{where}: {cell!r} is not one tile")
    t = tiles[0]
    if not t & BLANK_BIT and not alpha.has_tiles(t):
        raise BoardFileError(f"{where}: {cell} has no tile; only a blank (lower case) can stand for it")
    return t
