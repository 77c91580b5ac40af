"""Text at the door: what a referee, a desk or a file may hand to arbitru before anything is stored.

Everything stored must replay, so input is checked once, here, before it reaches the journal:

- numbers are ASCII digits only (``str.isdigit`` also accepts ``²``, ``①`` and Arabic-Indic digits, which
  ``int`` then refuses or reads differently), and at most :data:`MAX_DIGITS` of them;
- every stored text has a bounded length (:data:`LIMITS`, by field name; :data:`DEFAULT_LIMIT` otherwise),
  lists and nesting are bounded too;
- text holding undecodable bytes (a command-line argument that is not UTF-8 reaches Python as lone
  surrogates) is refused, as SQLite could not store it.

>>> ascii_number("12"), ascii_number("²"), ascii_number("١٢"), ascii_number(" 7 ")
(12, None, None, 7)
>>> try:
...     parse_number("0", "table", low=1)
... except InputError as e:
...     print(e)
table '0' is not a number from 1
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from typing import Any

from arbitru.errors import ArbitruError
from arbitru.messages import Text

#: the longest number read anywhere (a turn, a move, a table, a score, a group, a size)
MAX_DIGITS = 9
#: the largest magnitude of a stored integer
MAX_INT = 10**MAX_DIGITS - 1
#: the largest real number stored: server times in seconds since 1970 (a clock event's ``at``)
MAX_REAL = 1e12

#: the longest text stored under each field name (characters); names of players and their numbers, slips'
#: fields, notes and reasons. A field not named here gets :data:`DEFAULT_LIMIT`.
LIMITS: dict[str, int] = {
    "player": 100,
    "number": 100,
    "name": 100,
    "members": 100,
    "club": 100,
    "rating": 20,
    "late": 20,
    "table": 40,
    "turn": 20,
    "written_turn": 20,
    "collected": 20,
    "move": 20,
    "position": 40,
    "word": 60,
    "score": 20,
    "turn_total": 20,
    "note": 500,
    "reason": 500,
    "deadline": 200,
    "by": 100,
    "source": 300,
    "title": 200,
    "key": 100,
}
DEFAULT_LIMIT = 2000
#: free text that may run over several lines (a CR, LF or tab allowed); every other field named in
#: :data:`LIMITS` is one line, without control characters (a NUL, a line end in a title would reach exports)
MULTILINE = frozenset({"note", "reason", "deadline"})
#: the most items in one stored list or mapping, and the deepest nesting of a stored payload
MAX_ITEMS = 10_000
MAX_DEPTH = 8

_ASCII_NUMBER = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: the line and paragraph separators (U+2028, U+2029: a line end to JSON, JavaScript and many editors) and the
#: bidirectional controls (U+202E turns the text after it around: ``CASA\u202eXE`` reads as another word in an
#: export): no stored text holds them, on one line or several
INVISIBLE = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{INVISIBLE}]")
_CONTROL_MULTILINE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{INVISIBLE}]")


class InputError(ArbitruError):
    """Input refused before it is stored: a number that is not one, a text too long, undecodable bytes.

    ``field``: the field it concerns, when known; ``reason`` and ``values``: why, as an English message with
    named values that a page says in its own language (:data:`REASONS`)."""

    def __init__(self, message: str, *, field: str = "", reason: str = "", **values: object) -> None:
        super().__init__(message)
        self.field = field
        self.reason = reason or message
        self.values = values

    def said(self) -> str:
        """Why, as a message a page says in its language when it is one of :data:`REASONS`; else as written."""
        return Text(self.reason, **self.values) if self.reason in REASONS else str(self)


#: why a field is refused at the door, as pages say it (each message is in the web's catalogs)
REASONS = (
    "too long: at most %(n)s characters",
    "control characters (a line end, a NUL) are not allowed here",
    "this field is not valid text (UTF-8)",
    "%(text)s is not a whole number from %(low)s to %(high)s",
    "write numbers with the digits 0-9",
    "missing",
)


def is_ascii_number(text: str) -> bool:
    """ASCII digits only, at most :data:`MAX_DIGITS` of them (no sign, no spaces)."""
    return _ASCII_NUMBER.fullmatch(text) is not None


def ascii_number(text: str) -> int | None:
    """The number written in ASCII digits (surrounding spaces allowed), or None."""
    text = text.strip()
    return int(text) if is_ascii_number(text) else None


def number_order(number: str) -> tuple[int, str]:
    """Sort key of a player number: numbers in their order, then anything else by its text.

    >>> sorted(["10", "2", "B", "²"], key=number_order)
    ['2', '10', 'B', '²']
    """
    value = ascii_number(number)
    return (value, "") if value is not None else (MAX_INT + 1, number)


def parse_number(text: str, what: str, *, low: int | None = None, high: int | None = None) -> int:
    """Read a number (ASCII digits, surrounding spaces allowed) within ``low``…``high``.

    :raises InputError: naming ``what`` and the text as written.
    """
    value = ascii_number(text)
    if value is None or (low is not None and value < low) or (high is not None and value > high):
        bounds = "" if low is None and high is None else (
            f" from {low}" if high is None else f" up to {high}" if low is None else f" from {low} to {high}"
        )
        raise InputError(f"{what} {text!r} is not a number{bounds}", field=what,
                         reason=REASONS[3] if low is not None and high is not None else "", text=repr(text),
                         low=low, high=high)
    return value


def parse_signed(text: str, what: str) -> int:
    """A whole number that may start with ``-`` or ``+`` (a declared score, a penalty)."""
    stripped = text.strip()
    sign, digits = (stripped[0], stripped[1:]) if stripped[:1] in ("-", "+") else ("", stripped)
    if not is_ascii_number(digits):
        raise InputError(f"{what} {text!r} is not a number", field=what)
    return -int(digits) if sign == "-" else int(digits)


def check_digits(text: str, what: str) -> str:
    """Refuse a field that writes a number with anything but ASCII digits (``²``, ``①``, ``٣``): such a
    number looks right to the eye and means nothing to the program. Letters and signs may stay."""
    odd = [c for c in text if c.isnumeric() and c not in "0123456789"]
    if odd:
        raise InputError(Text("%(what)s %(text)s: write numbers with the digits 0-9 (not %(odd)s)", what=what,
                              text=repr(text), odd=repr(odd[0])), field=what, reason=REASONS[4])
    return text


def one_line(text: str) -> str:
    """A message on one printable line: line ends and other control characters of the user's text escaped
    (``\\r``, ``\\n``), undecodable bytes shown as ``\\xff``.

    >>> one_line("no player 2\\r\\nX")
    'no player 2\\\\r\\\\nX'
    """
    out = []
    for c in text.strip():
        if c in "\r\n\t":
            out.append({"\r": "\\r", "\n": "\\n", "\t": "\\t"}[c])
        elif ord(c) < 32 or ord(c) == 127:
            out.append(f"\\x{ord(c):02x}")
        elif undecodable(c):
            out.append(c.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace"))
        else:
            out.append(c)
    return "".join(out)


_UNSHOWABLE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff{INVISIBLE}]")
#: the mark beside a stored text shown raw because it holds characters a page or file cannot show
FLAG = "\u26a0"


def showable(text: str) -> bool:
    """Whether ``text`` is shown as it is (:func:`shown_raw` leaves it unchanged)."""
    return _UNSHOWABLE.search(text) is None


def shown_raw(text: str) -> str:
    """A stored text as a page, a CSV or a PDF shows it: control characters (a NUL) and undecodable bytes that
    an older journal may hold are shown escaped (``\\x00``) and the text flagged (:data:`FLAG`), never passed on
    nor a cause of failure. Text the door lets in comes back unchanged.

    >>> shown_raw("CASA"), shown_raw("CA\\x00SA")
    ('CASA', 'CA\\\\x00SA⚠')
    """
    if _UNSHOWABLE.search(text) is None:
        return text
    return _UNSHOWABLE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256
                           else f"\\u{ord(m.group()):04x}", text) + FLAG


def undecodable(text: str) -> bool:
    """True when the text holds bytes that were not UTF-8 (lone surrogates)."""
    return _SURROGATE.search(text) is not None


def check_text(text: str, what: str, field: str | None = None) -> str:
    """Refuse undecodable bytes, text longer than the limit of ``field`` (default: ``what``), and control
    characters: none in a one-line field of :data:`LIMITS`, only CR, LF and tab in a :data:`MULTILINE` one, no
    NUL anywhere (PostgreSQL cannot store it)."""
    name = field or what
    if undecodable(text):
        shown = repr(text.encode("utf-8", "backslashreplace").decode("ascii", "replace"))
        raise InputError(Text("%(what)s: %(text)s holds bytes that are not UTF-8", what=what, text=shown), field=name,
                         reason=REASONS[2])
    limit = LIMITS.get(name, DEFAULT_LIMIT)
    if len(text) > limit:
        raise InputError(Text("%(what)s: %(n)s characters, at most %(limit)s", what=what, n=len(text), limit=limit),
                         field=name, reason=REASONS[0], n=limit)
    control = _CONTROL_MULTILINE if name in MULTILINE else _CONTROL if name in LIMITS else None
    if (control.search(text) if control else "\x00" in text):
        raise InputError(Text("%(what)s %(text)s: control characters (a line end, a NUL) are not allowed", what=what,
                              text=repr(one_line(text)[:60])), field=name, reason=REASONS[1])
    return text


def check_whole(value: object, field: str, *, low: int = -MAX_INT, high: int = MAX_INT) -> int:
    """A whole number sent as data (JSON): an integer within ``low``…``high``; ``true`` is not 1, ``1.0`` and
    ``1e400`` are not whole numbers.

    :raises InputError: naming the field.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = repr(value) if len(repr(value)) <= 30 else repr(value)[:27] + "..."
        raise InputError(f"{field} {shown} is not a whole number from {low} to {high}", field=field,
                         reason=REASONS[3], text=shown, low=low, high=high)
    return value


def check_payload(payload: Mapping[str, Any], what: str) -> None:
    """Check everything about to be stored as plain JSON data: texts within their field's limit and
    decodable, integers within :data:`MAX_INT`, lists and nesting bounded.

    :raises InputError: naming ``what`` (the event kind) and the field.
    """
    _check_value(payload, what, "", 0)


def _check_value(value: Any, what: str, field: str, depth: int) -> None:
    where = f"{what} {field}".strip()
    if depth > MAX_DEPTH:
        raise InputError(f"{where}: nested deeper than {MAX_DEPTH} levels")
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        check_text(value, where, field)
    elif isinstance(value, int):
        if abs(value) > MAX_INT:
            raise InputError(f"{where}: {value} is out of range (at most {MAX_DIGITS} digits)")
    elif isinstance(value, float):
        if value != value or abs(value) > MAX_REAL:
            raise InputError(f"{where}: {value} is out of range")
    elif isinstance(value, Mapping):
        if len(value) > MAX_ITEMS:
            raise InputError(f"{where}: more than {MAX_ITEMS} entries")
        for key, item in value.items():
            if not isinstance(key, str):
                raise InputError(f"{where}: a key {key!r} that is not text")
            check_text(key, where or "key", "player")
            _check_value(item, what, key, depth + 1)
    elif isinstance(value, list | tuple):
        if len(value) > MAX_ITEMS:
            raise InputError(f"{where}: more than {MAX_ITEMS} items")
        for item in value:
            _check_value(item, what, field, depth + 1)
    else:
        raise InputError(f"{where}: a {type(value).__name__} cannot be stored")


def csv_rows(text: str, what: str, *, delimiter: str = ",") -> list[tuple[int, list[str]]]:
    """The rows of CSV text with the line each starts on; a leading byte-order mark is dropped, a CR inside
    a quoted field stays a CR, and every cell is checked (:func:`check_text`, the default limit).

    :raises InputError: naming the line, when the text cannot be read.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[tuple[int, list[str]]] = []
    last = 0
    try:
        for cells in reader:
            for cell in cells:
                if len(cell) > DEFAULT_LIMIT or undecodable(cell):
                    check_text(cell, f"{what}: line {last + 1}")
            rows.append((last + 1, cells))
            last = reader.line_num
    except csv.Error as e:
        raise InputError(Text("%(what)s: line %(line)s: %(why)s", what=what, line=reader.line_num,
                              why=str(e))) from None
    return rows


def duplicate_columns(header: list[str]) -> list[str]:
    """The header names given more than once (each once, in order)."""
    return list(dict.fromkeys(h for h in header if header.count(h) > 1))
