"""CSV files for spreadsheets, safe to open: a cell a spreadsheet would read as a formula is neutralised.

A player's name, a word or a note written as ``=HYPERLINK(...)``, ``+1``, ``-2+3`` or ``@SUM(...)`` would run as a
formula in Excel, LibreOffice or Google Sheets (CSV injection). Every CSV writer of both formats goes through
:func:`writer`, which puts a ``'`` before such a text cell: the spreadsheet shows the text as written. Numbers are
written as numbers (a negative penalty stays ``-20``).

>>> import io
>>> out = io.StringIO()
>>> w = writer(out)
>>> w.writerow(["=1+1", "+5", "-x", "@SUM(A1)", "Ana", -20, "\\tTAB"])
>>> out.getvalue()
"'=1+1,'+5,'-x,'@SUM(A1),Ana,-20,'\\tTAB\\n"
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import TextIO

from arbitru.textinput import shown_raw

#: what a spreadsheet reads as the start of a formula (a tab or CR before one is skipped by some)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A text cell that would start a formula, with a ``'`` before it; a stored text holding a NUL or another
    control character shown raw and flagged (:func:`~arbitru.textinput.shown_raw`); anything else unchanged."""
    if isinstance(value, str):
        value = shown_raw(value)
        if value.startswith(FORMULA_STARTS):
            return "'" + value
    return value


class SafeWriter:
    """``csv.writer`` whose rows are neutralised cell by cell (:func:`safe_cell`)."""

    def __init__(self, out: TextIO) -> None:
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([safe_cell(cell) for cell in row])


def writer(out: TextIO) -> SafeWriter:
    """The CSV writer every results, ranking and standings file uses."""
    return SafeWriter(out)
