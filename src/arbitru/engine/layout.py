"""The 15×15 board layout: premium squares (G-1) and the centre square.

Rows are letters A–O from the top, columns numbers 1–15 from the left (RO-3.2.c); square = row * 15 + col.

>>> STANDARD.word_mult[0], STANDARD.letter_mult[3], STANDARD.centre
(3, 2, 112)
"""

from __future__ import annotations

from dataclasses import dataclass

SIZE = 15
SQUARES = SIZE * SIZE
ROW_LETTERS = "ABCDEFGHIJKLMNO"

# '=' triple word, '-' double word, '*' the centre (double word), '"' triple letter, "'" double letter.
STANDARD_GRID = """\
=..'...=...'..=
.-..."..."...-.
..-...'.'...-..
'..-...'...-..'
....-.....-....
."..."..."...".
..'...'.'...'..
=..'...*...'..=
..'...'.'...'..
."..."..."...".
....-.....-....
'..-...'...-..'
..-...'.'...-..
.-..."..."...-.
=..'...=...'..=
"""

_PREMIUMS = {"=": (1, 3), "-": (1, 2), "*": (1, 2), '"': (3, 1), "'": (2, 1), ".": (1, 1)}


@dataclass(frozen=True)
class Layout:
    """Letter and word multipliers per square, as 225-byte arrays the compiled core takes directly."""

    letter_mult: bytes
    word_mult: bytes
    centre: int
    grid: str

    @classmethod
    def from_grid(cls, grid: str) -> Layout:
        rows = grid.strip("\n").splitlines()
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise ValueError("a layout is 15 lines of 15 characters")
        cells = "".join(rows)
        return cls(
            letter_mult=bytes(_PREMIUMS[c][0] for c in cells),
            word_mult=bytes(_PREMIUMS[c][1] for c in cells),
            centre=cells.index("*"),
            grid=grid,
        )

    def premium_name(self, square: int) -> str:
        """``TW``, ``DW``, ``TL``, ``DL`` or ``""``."""
        if self.word_mult[square] > 1:
            return "TW" if self.word_mult[square] == 3 else "DW"
        if self.letter_mult[square] > 1:
            return "TL" if self.letter_mult[square] == 3 else "DL"
        return ""


STANDARD = Layout.from_grid(STANDARD_GRID)
