"""Coordinates of a placement in every convention the rulebooks use, parsed and written.

- ``ro``: rows are letters A–O, columns numbers 1–15. Row letter first (``H8``) is horizontal; column number
  first (``8H``) is vertical (RO-3.2.c). Nothing else is a Romanian position.
- ``fise`` (FISE-6): the same, and also FISE's alternative, the direction and the start square written row first
  (``H B3`` / ``V B3``, or ``B3 V``).
- ``gr`` (GR-4): row letter (Latin, or the Greek capital that looks the same: ``Η`` is row H), column
  number, then ``O`` (οριζόντια, horizontal) or ``K``
  (κάθετα, vertical): ``A5 O``, ``Α5 Κ``.
- ``en``: the English convention: rows are numbers and columns letters; row first (``8H``) is horizontal,
  column first (``H8``) vertical.

A parse error says exactly what is wrong (RO-6.1 c, d and RO-6.3 turn these into verdicts):

>>> Coordinate.parse("H8")
Coordinate(7, 7, 'H')
>>> Coordinate.parse("8H").format()
'8H'
>>> Coordinate.parse("A5 O", "gr")
Coordinate(0, 4, 'H')
>>> Coordinate.parse("Z8")
Traceback (most recent call last):
...
arbitru.errors.NotationError: unknown row 'Z' in 'Z8': rows are A to O
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arbitru.engine.layout import ROW_LETTERS, SIZE
from arbitru.errors import NotationError
from arbitru.messages import Text
from arbitru.textinput import is_ascii_number

CONVENTIONS = ("ro", "fise", "gr", "en")
# Greek slips name rows with the letters printed on the board (A–O, as Quackle and standard boards show them),
# written on a Greek keyboard or by a Greek hand: a Greek capital is read as its Latin twin (Η is row H).
# Greek letters with no twin among A–O (Γ, Δ, Θ, Λ, Ξ, ...) name no row and are refused.
GREEK_ROWS = {"Α": "A", "Β": "B", "Ε": "E", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O"}
HORIZONTAL, VERTICAL = "H", "V"
# Greek direction signs, Latin and Greek letters: O / Ο horizontal (οριζόντια), K / Κ vertical (κάθετα)
_GREEK_SIGNS = ("O", "Ο", "K", "Κ")

# numbers are ASCII digits only: "²" or Arabic-Indic digits are not a column
_TOKEN = re.compile(r"\s*([^\W0-9_]+|[0-9]+)\s*", re.UNICODE)


@dataclass(frozen=True, order=True)
class Coordinate:
    """Start square and direction of a main word: ``row``, ``col`` 0-based, ``direction`` ``H`` or ``V``."""

    row: int
    col: int
    direction: str

    def __repr__(self) -> str:
        return f"Coordinate({self.row}, {self.col}, {self.direction!r})"

    @property
    def square(self) -> int:
        return self.row * SIZE + self.col

    @property
    def horizontal(self) -> bool:
        return self.direction == HORIZONTAL

    def step(self) -> int:
        """Square index increment along the word."""
        return 1 if self.horizontal else SIZE

    def squares(self, length: int) -> list[int]:
        return [self.square + i * self.step() for i in range(length)]

    def transposed(self) -> Coordinate:
        """The same start square read in the other direction (what an inverted position means, RO-6.3a)."""
        return Coordinate(self.row, self.col, VERTICAL if self.horizontal else HORIZONTAL)

    # --- text ----------------------------------------------------------------------------------------------

    def format(self, convention: str = "ro") -> str:
        """Write the coordinate: ``H8``/``8H`` (ro), ``H8 O``/``H8 K`` (gr), ``8H``/``H8`` (en)."""
        row, col = ROW_LETTERS[self.row], str(self.col + 1)
        if convention in ("ro", "fise"):
            return row + col if self.horizontal else col + row
        if convention == "gr":
            return f"{row}{col} {'O' if self.horizontal else 'K'}"
        if convention == "en":
            # English: row number, column letter
            return f"{self.row + 1}{ROW_LETTERS[self.col]}" if self.horizontal else (
                f"{ROW_LETTERS[self.col]}{self.row + 1}"
            )
        raise NotationError(f"unknown convention {convention!r}; known: {', '.join(CONVENTIONS)}")

    @classmethod
    def parse(cls, text: str, convention: str = "ro") -> Coordinate:
        """Read a coordinate; raises :class:`NotationError` whose ``kind`` names the fault.

        Kinds: ``empty``, ``missing-sign`` (a letter or number alone), ``unknown-row``,
        ``column-out-of-range``, ``unknown-column`` and ``row-out-of-range`` (English: the letter is the
        column, the number the row), ``missing-direction`` (Greek), ``syntax``.
        """
        if convention not in CONVENTIONS:
            raise NotationError(f"unknown convention {convention!r}; known: {', '.join(CONVENTIONS)}")
        raw = text
        text = text.strip()
        if not text:
            raise NotationError(Text("empty position"), "empty")
        tokens = _tokens(text)
        if tokens is None:
            raise NotationError(Text("cannot read position %(raw)s", raw=repr(raw)), "syntax")
        if convention == "gr":
            return cls._parse_gr(tokens, raw)
        shape = "".join("9" if is_ascii_number(t) else "a" for t in tokens)
        if convention == "fise" and shape == "aa9" and tokens[0].upper() in ("H", "V"):
            # FISE alternative: direction, then the start square written row first
            start = cls._parse_pair(tokens[1:], raw, "ro")
            return Coordinate(start.row, start.col, tokens[0].upper())
        if convention == "fise" and shape == "a9a" and tokens[2].upper() in ("H", "V"):
            start = cls._parse_pair(tokens[:2], raw, "ro")
            return Coordinate(start.row, start.col, tokens[2].upper())
        return cls._parse_pair(tokens, raw, convention)

    @classmethod
    def _parse_pair(cls, tokens: list[str], raw: str, convention: str) -> Coordinate:
        if len(tokens) == 1:
            message: str = (Text("position %(raw)s has only a number: a coordinate sign is missing", raw=repr(raw))
                       if is_ascii_number(tokens[0]) else
                       Text("position %(raw)s has only a letter: a coordinate sign is missing", raw=repr(raw)))
            raise NotationError(message, "missing-sign")
        if len(tokens) != 2 or is_ascii_number(tokens[0]) == is_ascii_number(tokens[1]):
            raise NotationError(Text("cannot read position %(raw)s: expected a letter and a number", raw=repr(raw)),
                                "syntax")
        letter_first = not is_ascii_number(tokens[0])
        letter, number = (tokens[0], tokens[1]) if letter_first else (tokens[1], tokens[0])
        # the letter names a row, except in the English convention where it names a column
        index = _letter_index(letter, raw, "column" if convention == "en" else "row")
        value = int(number)
        if convention == "en":
            if not 1 <= value <= SIZE:
                message = Text("row %(n)s out of range in %(raw)s: rows are 1 to 15", n=value, raw=repr(raw))
                raise NotationError(message, "row-out-of-range")
            # English: letter = column; row number first = horizontal
            return cls(value - 1, index, VERTICAL if letter_first else HORIZONTAL)
        if not 1 <= value <= SIZE:
            raise NotationError(Text("column %(n)s out of range in %(raw)s: columns are 1 to 15", n=value,
                                     raw=repr(raw)),
                                "column-out-of-range")
        return cls(index, value - 1, HORIZONTAL if letter_first else VERTICAL)

    @classmethod
    def _parse_gr(cls, tokens: list[str], raw: str) -> Coordinate:
        # "A5 O": letter, number, direction sign; the direction may be glued to the number's tail ("A5O")
        if len(tokens) == 2 and not is_ascii_number(tokens[0]) and is_ascii_number(tokens[1]):
            raise NotationError(Text("position %(raw)s lacks the direction sign O or K", raw=repr(raw)),
                                "missing-direction")
        numbers = [is_ascii_number(t) for t in tokens]
        if numbers != [False, True, False]:
            shape = "".join("9" if is_ascii_number(t) else "a" for t in tokens)
            no_column = shape == "aa" and tokens[1].upper() in _GREEK_SIGNS
            if shape in ("a", "9", "9a") or no_column:
                # "A", "5", "5 O" (no row), "A O" (no column): a coordinate sign is missing
                raise NotationError(Text("position %(raw)s: a coordinate sign is missing", raw=repr(raw)),
                                    "missing-sign")
            raise NotationError(Text("cannot read position %(raw)s: expected letter, number, O or K", raw=repr(raw)),
                                "syntax")
        start = cls._parse_pair(tokens[:2], raw, "ro")
        sign = tokens[2].upper()
        if sign in _GREEK_SIGNS[:2]:
            return start
        if sign in _GREEK_SIGNS[2:]:
            return start.transposed()
        raise NotationError(Text("direction %(sign)s in %(raw)s is neither O nor K", sign=repr(tokens[2]),
                                 raw=repr(raw)),
                            "syntax")


def _tokens(text: str) -> list[str] | None:
    tokens: list[str] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            return None
        tokens.append(m.group(1))
        pos = m.end()
    return tokens


def _letter_index(letter: str, raw: str, what: str = "row") -> int:
    up = letter.upper()
    if len(up) == 1 and up in ROW_LETTERS:
        return ROW_LETTERS.index(up)
    if len(up) == 1 and up in GREEK_ROWS:
        return ROW_LETTERS.index(GREEK_ROWS[up])
    message = (Text("unknown row %(letter)s in %(raw)s: rows are A to O", letter=repr(letter), raw=repr(raw))
               if what == "row" else
               Text("unknown column %(letter)s in %(raw)s: columns are A to O", letter=repr(letter), raw=repr(raw)))
    raise NotationError(message, f"unknown-{what}")
