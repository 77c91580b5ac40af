"""Slips (*fluturași*) as written: one per player and turn, stored raw (RO-3.3, RO-5.3, RO-5.6).

A slip holds one placement, or two in turn 1 (group 1's first), each with its position, main word (blanks in
lower
case), declared score; the turn total; the table and turn numbers; and notes: ``Anulez turul X`` (cancel an
earlier
turn), ``Verificare`` with or without words (check words first), ``PAS`` (no placement; RO-8.3). Everything is
kept
exactly as written, faults included: the correction judges what was written.

A CSV file has one row per placement (a slip without a placement has one row with an empty position and word).
Columns: ``player, table, turn, position, word, score, turn_total, note``; optional ``name`` (name written on
the
back of the turn-1 slip, RO-6.2a) and ``collected`` (the turn the slip was collected in, when the written turn
number
cannot be trusted). The file is refused as a whole, naming the line and field, when it cannot be read or a
slip
cannot be attributed to a player; what the player wrote is never refused.

>>> slips = read_slips_csv("player,table,turn,position,word,score,turn_total,note\\n"
...                        "Ana,1,1,H7,AL,4,,\\nAna,1,1,8G,CAsA,10,14,Verificare\\n")
>>> len(slips), slips[0].turn, [r.word for r in slips[0].rows], slips[0].notes()[0].kind
(1, 1, ['AL', 'CAsA'], 'verify')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from arbitru.errors import ArbitruError
from arbitru.formats import payload
from arbitru.formats.anticipation.variants import TURNS
from arbitru.textinput import InputError, ascii_number, check_digits, check_text, csv_rows

COLUMNS = ("player", "table", "turn", "position", "word", "score", "turn_total", "note")
OPTIONAL_COLUMNS = ("name", "collected")
#: the fields the desk types as numbers: in ASCII digits only ("²" or "٣" is a typing fault, refused)
NUMBER_COLUMNS = ("table", "turn", "score", "turn_total", "collected")


def check_row(row: SlipRow) -> SlipRow:
    """A placement line when it can be stored, whoever typed it (a file, a desk, a phone): every field within
    its limit and on one line (the note may span lines), the number fields in ASCII digits (storage's door,
    :mod:`arbitru.textinput`; what is written otherwise stays as written).

    :raises InputError: naming the field.
    """
    for name in ("table", "turn", "position", "word", "score", "turn_total", "note"):
        check_text(getattr(row, name), name)
        if name in NUMBER_COLUMNS:
            check_digits(getattr(row, name), name)
    return row


class SlipFileError(ArbitruError):
    """A slip file that cannot be stored; the message names the line and the field."""


@dataclass(frozen=True)
class SlipRow:
    """One placement line of a slip, every field exactly as written (``name`` None: no such column)."""

    line: int
    table: str = ""
    turn: str = ""
    position: str = ""
    word: str = ""
    score: str = ""
    turn_total: str = ""
    note: str = ""
    name: str | None = None

    @property
    def has_placement(self) -> bool:
        return bool(self.position.strip() or self.word.strip()) and not is_pass(self.position, self.word)


@dataclass(frozen=True)
class Note:
    """A note on a slip: ``cancel`` (``turns`` to cancel), ``verify`` (``words``), ``pass`` or ``other``."""

    kind: str
    raw: str
    turns: tuple[int, ...] = ()
    words: tuple[str, ...] = ()


@dataclass
class Slip:
    """A player's slip of one turn: ``turn`` is the turn it was collected in (None when unknown)."""

    player: str
    turn: int | None
    rows: list[SlipRow]
    source: str = ""
    written_turn: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_payload(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "turn": self.turn,
            "written_turn": self.written_turn,
            "source": self.source,
            "rows": [asdict(r) for r in self.rows],
        }

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Slip:
        """:raises PayloadError: for a field of the wrong type."""
        rows = [
            SlipRow(
                line=payload.integer(r, "line", 0, low=0),
                table=payload.text(r, "table", ""),
                turn=payload.text(r, "turn", ""),
                position=payload.text(r, "position", ""),
                word=payload.text(r, "word", ""),
                score=payload.text(r, "score", ""),
                turn_total=payload.text(r, "turn_total", ""),
                note=payload.text(r, "note", ""),
                name=payload.optional_text(r, "name"),
            )
            for r in payload.mappings(data, "rows")
        ]
        return cls(
            payload.text(data, "player"),
            payload.optional_integer(data, "turn", low=1, high=TURNS),
            rows,
            payload.text(data, "source", ""),
            payload.text(data, "written_turn", ""),
        )

    def written(self) -> tuple[object, ...]:
        """What the sender wrote, to tell a slip sent again (its idempotency key, its first answer lost) from
        another one: the turn and, line by line, the turn written, position, word, score, total, note and name;
        not what the server fills in when a browser or the API sends it (the table, from the seating; the line
        numbers; where it came from)."""
        return (self.turn, self.written_turn,
                tuple((r.turn, r.position, r.word, r.score, r.turn_total, r.note, r.name) for r in self.rows))

    # --- reading what was written ---------------------------------------------------------------------------

    def placements(self) -> list[SlipRow]:
        return [r for r in self.rows if r.has_placement]

    def notes(self) -> list[Note]:
        out: list[Note] = []
        for r in self.rows:
            out.extend(parse_notes(r.note))
            if is_pass(r.position, r.word):
                out.append(Note("pass", r.word))
        return out

    def first(self, attr: str) -> str:
        """The first non-empty value of a slip-level field (table, turn, turn_total, name) over its rows."""
        for r in self.rows:
            value: str | None = getattr(r, attr)
            if value is not None and value.strip():
                return value
        return ""

    def has_column(self, attr: str) -> bool:
        return any(getattr(r, attr) is not None for r in self.rows)


def is_pass(position: str, word: str) -> bool:
    """``PAS`` written in the placement field with no position (RO-8.3); with a position PAS is a word."""
    return not position.strip() and fold(word) == "pas"


def fold(text: str) -> str:
    """Lower case without diacritics and with single spaces: how notes are recognised."""
    text = unicodedata.normalize("NFD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.lower().split())


_CANCEL = re.compile(r"^anulez\s+(?:turul|tur(?:ul)?|t)\b\.?\s*(.*)$")
_VERIFY = re.compile(r"^verific(?:are|a)\b[\s:.\-]*(.*)$")


def parse_notes(raw: str) -> list[Note]:
    """Recognise the notes of RO-5.3 in a note field; several notes may be split by ``;`` or ``|``.

    >>> [(n.kind, n.turns) for n in parse_notes("Anulez turul 3; anulez turul 5 si 6")]
    [('cancel', (3,)), ('cancel', (5, 6))]
    >>> [(n.kind, n.words) for n in parse_notes("Verificare: CASA, ASE")]
    [('verify', ('CASA', 'ASE'))]
    """
    notes: list[Note] = []
    for part in re.split(r"[;|\n]", raw):
        text = part.strip()
        if not text:
            continue
        key = fold(text)
        m = _CANCEL.match(key)
        if m:
            # ASCII digits only; a number no turn can have is dropped (the note then cancels nothing)
            found = (ascii_number(n) for n in re.findall(r"[0-9]+", m.group(1)))
            numbers = tuple(n for n in found if n is not None)
            notes.append(Note("cancel", text, turns=numbers))
            continue
        m = _VERIFY.match(key)
        if m:
            # the words keep their letters as written (upper/lower case is the blank mark)
            rest = text[len(text) - len(m.group(1)) :] if m.group(1) else ""
            words = tuple(w for w in re.split(r"[\s,;:/]+", rest) if w)
            notes.append(Note("verify", text, words=words))
            continue
        if key == "pas":
            notes.append(Note("pass", text))
            continue
        notes.append(Note("other", text))
    return notes


def read_slips_csv(
    text: str,
    *,
    turn: int | None = None,
    players: Iterable[str] | None = None,
    source: str = "",
) -> list[Slip]:
    """Read a slip file: one row per placement, rows of the same player and turn make one slip.

    ``turn`` is the turn the slips were collected in (all of them); otherwise the ``collected`` column, else
    the
    written turn number when it is a turn (else the slip is kept with its turn unknown and judged void).
    ``players``: the seating, when one is registered (a row for someone else is refused).

    :raises SlipFileError: naming the line and field of the first problem; nothing is read then.
    """
    if turn is not None and not 1 <= turn <= TURNS:
        raise SlipFileError(f"--turn {turn}: turns are 1 to {TURNS}")
    try:
        numbered = csv_rows(text, "slip file")
    except InputError as e:
        raise SlipFileError(str(e)) from None
    rows = [cells for _, cells in numbered]
    starts = [line for line, _ in numbered]  # the line each row starts on (a quoted field may span lines)
    header_index = next((i for i, r in enumerate(rows) if any(c.strip() for c in r)), None)
    if header_index is None:
        raise SlipFileError("the file is empty: expected a header line " + ",".join(COLUMNS))
    header = [h.strip().lower() for h in rows[header_index]]
    header_line = starts[header_index]
    for i, name in enumerate(header):
        if name not in COLUMNS and name not in OPTIONAL_COLUMNS:
            raise SlipFileError(
                f"line {header_line}, column {i + 1}: unknown field {name!r}; "
                f"fields are {', '.join(COLUMNS + OPTIONAL_COLUMNS)}"
            )
        if header.count(name) > 1:
            raise SlipFileError(f"line {header_line}: field {name!r} appears twice")
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise SlipFileError(f"line {header_line}: missing field(s) {', '.join(missing)}")
    known = set(players) if players is not None else None

    slips: dict[tuple[str, str], Slip] = {}
    for index in range(header_index + 1, len(rows)):
        lineno = starts[index]
        cells = rows[index]
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            raise SlipFileError(f"line {lineno}: {len(cells)} fields, the header has {len(header)}")
        data = dict(zip(header, cells, strict=True))
        for name, cell in data.items():
            try:
                check_text(cell, f"line {lineno}, field {name!r}", name)
                if name in NUMBER_COLUMNS:
                    check_digits(cell, f"line {lineno}, field {name!r}:")
            except InputError as e:
                raise SlipFileError(str(e)) from None
        player = data["player"].strip()
        if not player:
            raise SlipFileError(
                f"line {lineno}, field 'player': empty; every row must name the player whose slip it is"
            )
        if known is not None and player not in known:
            raise SlipFileError(f"line {lineno}, field 'player': {player!r} is not in the seating")
        collected: int | None = turn
        if collected is None and data.get("collected", "").strip():
            raw = data["collected"].strip()
            collected = ascii_number(raw)
            if collected is None or not 1 <= collected <= TURNS:
                raise SlipFileError(f"line {lineno}, field 'collected': {raw!r} is not a turn (1 to {TURNS})")
        if collected is None:
            written = ascii_number(data["turn"])
            if written is not None and 1 <= written <= TURNS:
                collected = written
        key = (player, str(collected) if collected is not None else "?" + data["turn"])
        row = SlipRow(
            line=lineno,
            table=data["table"],
            turn=data["turn"],
            position=data["position"],
            word=data["word"],
            score=data["score"],
            turn_total=data["turn_total"],
            note=data["note"],
            name=data.get("name"),
        )
        if key not in slips:
            slips[key] = Slip(player, collected, [], source, data["turn"])
        slips[key].rows.append(row)
    return list(slips.values())
