"""Positions as players write them on their slips (RO-3.2.c, RO-6.1c–d, RO-6.3a–b).

A position that reads is a coordinate; one that does not is kept with what can be told of its signs (which comes
first, the row, the column, a missing sign), so that the correction can look for the placement the player must
have meant: signs inverted, one sign wrong, or both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from arbitru.engine.layout import SIZE
from arbitru.engine.notation import HORIZONTAL, VERTICAL, Coordinate
from arbitru.errors import NotationError
from arbitru.messages import Text, joined
from arbitru.textinput import ascii_number, is_ascii_number


@dataclass(frozen=True)
class WrittenPosition:
    """A position as written: the coordinate when it reads, else what can be told of its signs."""

    text: str
    coord: Coordinate | None = None
    horizontal: bool | None = None  # letter first = horizontal (RO-3.2.c)
    row: int | None = None  # the letter sign, when it names a row
    col: int | None = None  # the number sign, when it names a column
    missing: bool = False  # a sign is missing (RO-6.1d)
    problem: str = ""


def read_position(text: str) -> WrittenPosition:
    """Read a written position the lenient way a correction needs.

    >>> read_position("H8").coord, read_position("8H").coord
    (Coordinate(7, 7, 'H'), Coordinate(7, 7, 'V'))
    >>> read_position("H").missing, read_position("P8").row, read_position("P8").col
    (True, None, 7)
    """
    raw = text
    if not text.strip():
        return WrittenPosition(raw, missing=True, problem=Text("no position is written"))
    try:
        coord = Coordinate.parse(text, "ro")
    except NotationError as e:
        if e.kind in ("empty", "missing-sign"):
            return WrittenPosition(raw, missing=True, problem=str(e))
    else:
        return WrittenPosition(raw, coord, coord.horizontal, coord.row, coord.col)
    tokens = re.findall(r"[^\W0-9_]+|[0-9]+", text)
    if len(tokens) < 2:
        return WrittenPosition(raw, missing=True, problem=Text("position %(raw)s has only one sign", raw=repr(raw)))
    if len(tokens) == 2 and is_ascii_number(tokens[0]) != is_ascii_number(tokens[1]):
        letter_first = not is_ascii_number(tokens[0])
        letter, number = (tokens[0], tokens[1]) if letter_first else (tokens[1], tokens[0])
        row = (
            "ABCDEFGHIJKLMNO".index(letter.upper())
            if len(letter) == 1 and letter.upper() in "ABCDEFGHIJKLMNO"
            else None
        )
        value = ascii_number(number)
        col = value - 1 if value is not None and 1 <= value <= SIZE else None
        bad = []
        if row is None:
            bad.append(Text("row %(letter)s does not exist (rows are A to O)", letter=repr(letter)))
        if col is None:
            bad.append(Text("column %(number)s does not exist (columns are 1 to 15)", number=number))
        return WrittenPosition(raw, None, letter_first, row, col, problem=joined(bad) if bad else "")
    return WrittenPosition(raw, problem=Text("position %(raw)s cannot be read as a letter and a number", raw=repr(raw)))


def relation(written: WrittenPosition, coord: Coordinate) -> str:
    """How a coordinate differs from the written position: same, inverted, one-sign or both."""
    if written.coord == coord:
        return "same"
    if written.coord is not None and written.coord.transposed() == coord:
        return "inverted"
    if (
        written.horizontal is not None
        and written.horizontal == coord.horizontal
        and (written.row == coord.row or written.col == coord.col)
    ):
        return "one-sign"
    return "both"


def one_error(written: WrittenPosition) -> Iterable[tuple[Coordinate, str, int]]:
    """Coordinates one error away from the written position: inverted signs, or one sign changed."""
    if written.coord is not None:
        yield written.coord.transposed(), "inverted", 0
    if written.horizontal is None:
        return
    direction = HORIZONTAL if written.horizontal else VERTICAL
    if written.row is not None:
        for col in range(SIZE):
            if col != written.col:
                yield Coordinate(written.row, col, direction), "one-sign", abs(col - (written.col or 0))
    if written.col is not None:
        for row in range(SIZE):
            if row != written.row:
                yield Coordinate(row, written.col, direction), "one-sign", abs(row - (written.row or 0))


def all_coords() -> Iterable[Coordinate]:
    for direction in (HORIZONTAL, VERTICAL):
        for row in range(SIZE):
            for col in range(SIZE):
                yield Coordinate(row, col, direction)
