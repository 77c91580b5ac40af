"""The master move (FISE-7, GR-5E): the top score by the generator, ties broken in a documented order, every
tied move listed for the referee, who may pick another (FISE-16).

FISE-7 order, each criterion deciding only when the ones before it tie:

1. the move that places no blank from the rack (a blank already on the board does not count);
2. the move whose leave is better balanced: smaller ``|vowels − consonants|`` of the leave, blanks counted as
   neither; then fewer repeated letters in the leave (``Σ (count − 1)`` over letters appearing more than once,
   blanks not counted);
3. the move that places fewer tiles;
4. the main word first in alphabetical order: the tile set's own order (Spanish CH after C, LL after L, Ñ
   after N, RR after R; Polish Ą after A...), a blank compared as the letter it stands for, a prefix before
   longer;
5. position: a horizontal move before a vertical one (the rule lists the horizontal case first); among
   horizontals the start column nearest column 1, then the row nearest row A; among verticals the row nearest
   row A, then the column nearest column 1;
6. (only the same word at the same place with its blank on different letters is left) the blank as late in the
   word as possible.

Program order (GR-5E, "the first move the program lists"), made deterministic: the start square in reading
order (row A first, then column 1 first), horizontal before vertical, then the word by tile code (a natural
tile before a blank). It does not depend on the order a generator finds moves in.

>>> from arbitru.engine.tiles import alphabet, Rack
>>> from arbitru.engine.lexicon import Lexicon
>>> from arbitru.engine.board import Board
>>> es = alphabet("es")
>>> lex = Lexicon.from_words(["CASA", "SACA"], es)
>>> ms = top_moves(Board(es), es.parse_rack("AACS"), lex, engine="reference")
>>> [m.describe() for m in ms][:2]
['H5 CASA 12', 'H6 CASA 12']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arbitru.engine.board import Board
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.movegen import generate
from arbitru.engine.placement import Placement
from arbitru.engine.rules import check
from arbitru.engine.tiles import BLANK, Alphabet, Rack, is_blank, letter_of
from arbitru.errors import ArbitruError
from arbitru.messages import Text


class MasterError(ArbitruError):
    """A master move the referee picked that cannot be placed."""


@dataclass(frozen=True)
class Candidate:
    """A move the master may be: placement, score, the tiles it places and the leave."""

    placement: Placement
    score: int
    new: tuple[tuple[int, int], ...]
    leave: tuple[int, ...]
    alphabet: Alphabet

    @property
    def uses_blank(self) -> bool:
        return any(is_blank(t) for _, t in self.new)

    @property
    def tiles_used(self) -> int:
        return len(self.new)

    def word(self) -> str:
        return self.alphabet.format(self.placement.word)

    def describe(self, convention: str = "ro") -> str:
        return f"{self.placement.coord.format(convention)} {self.word()} {self.score}"


def balance(alpha: Alphabet, leave: Sequence[int]) -> tuple[int, int]:
    """How unbalanced a leave is (smaller is better, FISE-7 criterion 2): ``|vowels − consonants|`` with
    blanks counted as neither, then the number of repeated letters.

    >>> from arbitru.engine.tiles import alphabet
    >>> ro = alphabet("ro")
    >>> balance(ro, ro.split("AEI")), balance(ro, ro.split("ART")), balance(ro, ro.split("ATT"))
    ((3, 0), (1, 0), (1, 1))
    """
    letters = [t for t in leave if t != BLANK]
    vowels = sum(1 for t in letters if alpha.is_vowel(t))
    repeats = sum(n - 1 for n in Counter(letters).values() if n > 1)
    return abs(vowels - (len(letters) - vowels)), repeats


#: FISE-7's criteria in order: blank, balance of the leave, tiles used, the word, the position, the blank's place
FiseKey = tuple[bool, tuple[int, int], int, tuple[int, ...], tuple[int, int, int], tuple[int, ...]]
#: the program's listing order: row, column, direction, the word
ProgramKey = tuple[int, int, int, tuple[int, ...]]


def fise_key(c: Candidate) -> FiseKey:
    """Sort key of FISE-7 among moves of equal score (smaller first)."""
    coord = c.placement.coord
    position = (0, coord.col, coord.row) if coord.horizontal else (1, coord.row, coord.col)
    return (
        c.uses_blank,
        balance(c.alphabet, c.leave),
        c.tiles_used,
        tuple(letter_of(t) for t in c.placement.word),
        position,
        c.placement.word,
    )


def program_key(c: Candidate) -> ProgramKey:
    """Sort key of the program's listing order (GR-5E)."""
    coord = c.placement.coord
    return (coord.row, coord.col, 0 if coord.horizontal else 1, c.placement.word)


ORDERS: dict[str, Callable[[Candidate], FiseKey | ProgramKey]] = {"fise": fise_key, "program": program_key}

CRITERIA = (
    "no blank",
    "better-balanced leave",
    "fewer tiles",
    "main word first alphabetically",
    "position nearest column 1 / row A",
    "blank later in the word",
)


def deciding_criterion(a: Candidate, b: Candidate, order: str = "fise") -> str:
    """Which criterion puts ``a`` before ``b`` (both of the top score)."""
    if order == "program":
        return "program order"
    ka, kb = fise_key(a), fise_key(b)
    for name, x, y in zip(CRITERIA, ka, kb, strict=True):
        if x != y:
            return name
    return "identical"


def candidate(board: Board, rack: Rack, placement: Placement, score: int) -> Candidate:
    new = board.new_tiles(placement)
    left = rack.take([t for _, t in new])
    return Candidate(placement, score, tuple(new), tuple(left.tiles()), board.alphabet)


def top_moves(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    *,
    engine: str = "compiled",
    order: str = "fise",
    bingo_bonus: int | None = None,
) -> list[Candidate]:
    """Every move of the top score, in tie-break order: the first is the master move. Empty when the rack
    cannot be played."""
    moves = generate(board, rack, lexicon, top=1, engine=engine)
    if not moves:
        return []
    best = moves[0][1]
    found = [candidate(board, rack, p, s) for p, s in moves if s == best]
    return sorted(found, key=ORDERS[order])


#: a master move's remarks (FISE-16), stored in its event as a code and its values, said in the reader's language:
#: a word of the move not in the list (the move stays), and a move weaker than the top score (it stays)
REMARKS: dict[str, str] = {
    "main-not-in-list": "main word %(word)s is not in %(list)s",
    "cross-not-in-list": "cross word %(word)s is not in %(list)s",
    "weaker-than-top": "weaker than the top score %(top)s: it stays (FISE-16)",
}
_REMARK_CODES = {message: code for code, message in REMARKS.items()}


def weaker(top: int) -> Text:
    """The remark of a master move weaker than the top score (FISE-16)."""
    return Text(REMARKS["weaker-than-top"], top=top)


def remark_stored(remark: str) -> dict[str, Any] | str:
    """A remark as the master event stores it: ``{"code": …, values…}`` (:data:`REMARKS`); a text no code says
    (none is made so) as it is."""
    code = _REMARK_CODES.get(remark.message) if isinstance(remark, Text) else None
    if code is None or not isinstance(remark, Text):
        return str(remark)
    return {"code": code, **{k: v if isinstance(v, int) else str(v) for k, v in remark.values.items()}}


def remark_read(stored: object) -> str:
    """A stored remark as a message said in the reader's language; an older journal's English text as it is.

    :raises ValueError: when it is neither (a damaged journal).
    """
    if isinstance(stored, str):
        return stored
    if not isinstance(stored, dict) or stored.get("code") not in REMARKS:
        raise ValueError(f"a master move's remark is {str(stored)[:40]!r}, not a remark")
    values = {k: v for k, v in stored.items() if k != "code"}
    if not all(isinstance(v, str | int) and not isinstance(v, bool) for v in values.values()):
        raise ValueError("a master move's remark holds something that is not text or a number")
    message = REMARKS[str(stored["code"])]
    try:
        message % values
    except (KeyError, TypeError):
        raise ValueError(f"a master move's remark {stored['code']!r} lacks its values") from None
    return Text(message, **values)


def referee_choice(
    board: Board, rack: Rack, lexicon: Lexicon, placement: Placement
) -> tuple[Candidate, list[str]]:
    """A move the referee announces instead of the program's (FISE-16): it must be placeable with the rack;
    returns the candidate and the remarks (words not in the list — an invalid master stays on the board,
    FISE-16 — recorded for the results).

    :raises MasterError: when the move cannot be placed with this rack on this board.
    """
    result = check(board, placement, lexicon, rack)
    fatal = [text for code, text in result.reasons if code != "not-in-list"]
    if fatal:
        raise MasterError(Text("the master move cannot be placed: %(why)s", why=fatal))  # said in the page's language
    remarks = [text for code, text in result.reasons if code == "not-in-list"]
    return candidate(board, rack, placement, result.score), remarks
