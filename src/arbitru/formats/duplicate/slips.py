"""Slips and their verdicts (FISE-5, FISE-6, FISE-12, FISE-14, GR-4, GR-5C, GR-6, GR-8.1).

A slip is stored as written — position and main word as text, lower case for a circled blank, the declared
score if any — in the journal *before* anything is computed; its verdict is a pure function of the slip, the
board and rack of its move, the word list, the referee's rulings and the rule set, so it is recomputed on
every replay and changes when a ruling does (FISE-16, GR-5D).

Every reason for 0 is listed, not only the first:

- ``late``: handed in after time (FISE-5, GR-5C);
- ``unsigned``: no player number, nobody can tell whose slip it is (FISE-14);
- ``unknown-player``: a player number nobody has (FISE-14);
- ``withdrawn``: the player had left the game (GR-7);
- ``disqualified``: the player was disqualified (FISE-18);
- ``not-entered``: a late entry's slip for a move before his first (:mod:`.seats`);
- ``illegible``: the referee could not read it (FISE-14);
- ``no-move``: no position or no word (FISE-12);
- ``bad-position``: the position cannot be read: a sign missing, a row or column that is none (FISE-14, GR-6);
- ``bad-word``: a character that is not a letter of the tile set (FISE-14);
- ``wrong-position``: the word does not stand there: off the board, other letters under it, not the whole
  word, not connected, a first move off the centre (FISE-14, GR-6);
- ``not-on-rack``: letters that are not on the rack (GR-6);
- ``blank-unmarked``: a blank used but not circled; FISE voids it where it is ambiguous (the squares the blank
  may be on give different scores), GR always (a blank already on the board needs no circle) (FISE-14, GR-6);
- ``not-in-list``: the main word or a cross word is not in the list, after rulings (FISE-12, GR-6).

The score counted is always the engine's (GR-8.1); a declared score that differs is noted for the referee.

>>> from arbitru.engine.tiles import alphabet
>>> from arbitru.engine.lexicon import Lexicon
>>> from arbitru.engine.board import Board
>>> from arbitru.formats.duplicate.rulesets import ruleset
>>> es = alphabet("es")
>>> lex = Lexicon.from_words(["CASA"], es)
>>> v = judge(Slip(1, "7", "H5", "CASA", 12), Board(es), es.parse_rack("ACASXYZ"), lex, ruleset("fise"))
>>> v.score, v.reasons
(12, [])
>>> judge(Slip(1, "7", "5H", "CASA", 12), Board(es), es.parse_rack("ACASXYZ"), lex, ruleset("fise")).codes()
['wrong-position']
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Container, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from arbitru.engine.board import Board
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.notation import Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.rules import PLACING_REASONS, check, score_words
from arbitru.engine.tiles import BLANK, BLANK_BIT, Alphabet, Rack, is_blank, letter_of
from arbitru.errors import ArbitruError, IllegalPlacementError, NotationError, TileError
from arbitru.formats import payload
from arbitru.formats.duplicate.rulesets import RULESETS, RuleSet, cites
from arbitru.messages import Text
from arbitru.textinput import (
    MAX_INT,
    REASONS,
    InputError,
    ascii_number,
    check_digits,
    check_text,
    csv_rows,
    duplicate_columns,
    parse_number,
    parse_signed,
)

_WRONG_POSITION = PLACING_REASONS
#: verdicts after which the move as written has no score at all
_UNREADABLE = ("wrong-position", "not-on-rack", "blank-unmarked")
#: why a seat did not play a move (:func:`arbitru.formats.duplicate.seats.absent_at`), as a verdict says it
ABSENT = {
    "withdrawn": Text("the player had left the game"),
    "disqualified": Text("the player was disqualified (FISE-18)"),
    "not-entered": Text("the player entered the game after this move"),
}


class SlipFileError(ArbitruError):
    """A file of slips that cannot be read; every bad line is named."""


@dataclass(frozen=True)
class Slip:
    """A slip as written (FISE-6, GR-4): move (round), player number, position, main word (lower case for a
    circled blank), declared score (None when not written), and what the referee noted on receiving it."""

    move: int
    player: str
    position: str = ""
    word: str = ""
    score: int | None = None
    late: bool = False
    illegible: bool = False
    table: str = ""
    note: str = ""

    def to_payload(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_payload(cls, p: Mapping[str, Any]) -> Slip:
        """:raises PayloadError: for a field of the wrong type."""
        return cls(
            move=payload.integer(p, "move", low=1),
            player=payload.text(p, "player", ""),
            position=payload.text(p, "position", ""),
            word=payload.text(p, "word", ""),
            score=payload.optional_integer(p, "score"),
            late=payload.boolean(p, "late", False),
            illegible=payload.boolean(p, "illegible", False),
            table=payload.text(p, "table", ""),
            note=payload.text(p, "note", ""),
        )


@dataclass
class Verdict:
    """The judgement of one slip: the points counted, the engine's score of the move as written, every reason
    for 0, and notes (a declared score that differs, an unmarked blank that was not ambiguous)."""

    slip: Slip
    score: int = 0
    computed: int | None = None
    placement: Placement | None = None
    reasons: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    #: the rule set judged by: its own rule IDs are cited
    rule_set: RuleSet = RULESETS["fise"]

    @property
    def valid(self) -> bool:
        return not self.reasons

    def for_slip(self, slip: Slip) -> Verdict:
        """This verdict given to another slip written alike: a copy of its own, lists and all (a hall's phones
        write the same few moves: a national game's ten thousand copies, made without ``dataclasses.replace``)."""
        shared = Verdict.__new__(Verdict)
        shared.__dict__.update(self.__dict__, slip=slip, reasons=list(self.reasons), notes=list(self.notes),
                               words=list(self.words))
        return shared

    def codes(self) -> list[str]:
        """The reason codes, each once, in the order found."""
        return list(dict.fromkeys(code for code, _ in self.reasons))

    def rules(self) -> list[str]:
        """The rule IDs behind the reasons, those of the game's own rule set (GR-* in a Greek game)."""
        out: list[str] = []
        for code in self.codes():
            out.extend(r for r in cites(self.rule_set, code) if r not in out)
        return out

    def fail(self, code: str, text: str) -> None:
        self.reasons.append((code, text))


def word_key(alpha_format: str) -> str:
    """The form a word takes in rulings: upper case, blanks as their letters."""
    return alpha_format.upper()


def judge(
    slip: Slip,
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    rules: RuleSet,
    rulings: Mapping[str, bool] | None = None,
    *,
    players: Container[str] | None = None,
    absent: str = "",
) -> Verdict:
    """Judge a slip against the board and rack of its move; ``rulings`` maps words (upper case) to the
    referee's decision, which overrides the list (FISE-16, GR-5D). ``players`` (when known) are the numbers
    registered for the game."""
    alpha = board.alphabet
    v = Verdict(slip, rule_set=rules)
    if slip.late:
        v.fail("late", Text("handed in after time"))
    if not slip.player.strip():
        v.fail("unsigned", Text("no player number on the slip"))
    elif players is not None and slip.player.strip() not in players:
        v.fail("unknown-player", Text("no player %(player)s in this game", player=slip.player))
    if absent:  # the seat did not play this move (.seats.absent_at)
        v.fail(absent, ABSENT[absent])
    if slip.illegible:
        v.fail("illegible", Text("the referee could not read the slip"))
    if not slip.position.strip() or not slip.word.strip():
        if not v.reasons or slip.position.strip() or slip.word.strip():
            v.fail("no-move", Text("no position") if slip.word.strip() else Text("no word"))
        return v
    try:
        coord, word = read(slip, alpha, rules)
    except NotationError as e:
        v.fail("bad-position", str(e))
        return v
    except TileError as e:
        v.fail("bad-word", str(e))
        return v
    placement = Placement(coord, word)
    try:
        new = board.new_tiles(placement)
    except IllegalPlacementError as e:
        for _code, text in e.reasons:
            v.fail("wrong-position", text)
        return v
    placement = _resolve_blanks(v, board, rack, placement, new, rules)
    v.placement = placement
    result = check(board, placement, None, rack, bingo_bonus=rules.bingo_bonus)
    for code, text in result.reasons:
        if code in _WRONG_POSITION:
            v.fail("wrong-position", text)
        elif code in ("tile-not-available", "no-such-tile"):
            if "not-on-rack" not in v.codes() and "blank-unmarked" not in v.codes():
                v.fail("not-on-rack", text)
        else:
            v.fail(code, text)
    # a move that cannot stand as written (off the centre, letters not on the rack, an unmarked blank whose place
    # changes the score) has no score: the one counted on the letters as written is one no legal reading gives
    readable = not any(code in _UNREADABLE for code in v.codes())
    if result.words:
        v.computed = result.score if readable else None
        for w in result.words:
            text = word_key(alpha.format(letter_of(t) for t in w.tiles))
            v.words.append(text)
            ruled = (rulings or {}).get(text)
            ok = lexicon.contains_tiles(w.tiles) if ruled is None else ruled
            if not ok:
                if ruled is False:
                    why = (
                        Text("main word %(word)s (ruled out by the referee)", word=text)
                        if w.main
                        else Text("cross word %(word)s (ruled out by the referee)", word=text)
                    )
                else:
                    why = (
                        Text("main word %(word)s is not in %(list)s", word=text, list=lexicon.name)
                        if w.main
                        else Text("cross word %(word)s is not in %(list)s", word=text, list=lexicon.name)
                    )
                v.fail("not-in-list", why)
            elif ruled is True and not lexicon.contains_tiles(w.tiles):
                v.notes.append(Text("%(word)s accepted by the referee's ruling", word=text))
    if rules.declared_score and slip.score is None:
        v.notes.append(Text("no score written (FISE-6)"))
    if slip.score is not None and v.valid and v.computed is not None and slip.score != v.computed:
        v.notes.append(
            Text(
                "declared %(declared)s, the engine scores %(score)s: the engine's score counts",
                declared=slip.score,
                score=v.computed,
            )
        )
    elif slip.score is not None and not v.valid and slip.score != 0:
        zero = Text("declared %(declared)s; the move scores 0: %(why)s", declared=slip.score, why=v.reasons[0][1])
        v.notes.append(zero)
    v.score = v.computed if v.valid and v.computed is not None else 0
    return v


def read(slip: Slip, alpha: Alphabet, rules: RuleSet) -> tuple[Coordinate, tuple[int, ...]]:
    """The slip's position in the rule set's notation and its word in the tile set's letters (blanks in lower
    case), as :func:`judge` reads them.

    :raises NotationError: for a position that cannot be read; :raises TileError: for a character that is no
        letter of the tile set.
    """
    return Coordinate.parse(slip.position, rules.notation), tuple(alpha.split(slip.word, blanks=True))


def readable(slip: Slip, alpha: Alphabet, rules: RuleSet) -> Slip:
    """A slip its player sends himself (a phone, the API) when it can be read as :func:`judge` reads it: a
    position in the rule set's notation, a word of the tile set's letters, a declared score from 0. His phone
    can tell him at once and he writes it again, so an unreadable one is refused, nothing stored; a paper slip
    is stored as written and judged 0 for it (FISE-14). A readable slip that is wrong (a word not in the list,
    letters not on the rack, a wrong score) is stored and judged.

    :raises InputError: naming the field, why in a message (said in the page's language).
    """
    if not slip.position.strip():
        raise InputError(Text("no position"), field="position")
    if not slip.word.strip():
        raise InputError(Text("no word"), field="word")
    try:
        read(slip, alpha, rules)
    except NotationError as e:
        raise InputError(str(e), field="position") from None
    except TileError as e:
        raise InputError(str(e), field="word") from None
    declared_score(slip.score)
    return slip


def declared_score(written: str | int | None) -> int | None:
    """A declared score as a form writes it (text: empty for none, else ASCII digits) or a slip holds it: a whole
    number from 0 to :data:`~arbitru.textinput.MAX_INT`.

    :raises InputError: for the field ``score``, why in a message (:data:`~arbitru.textinput.REASONS`).
    """
    if written is None or written == "":
        return None
    score = ascii_number(written) if isinstance(written, str) else written
    if score is None or not 0 <= score <= MAX_INT:
        text = repr(written) if isinstance(written, str) else str(written)
        raise InputError(f"score {text} is not a whole number from 0 to {MAX_INT}", field="score",
                         reason=REASONS[3], text=text, low=0, high=MAX_INT)
    return score


def _resolve_blanks(
    v: Verdict, board: Board, rack: Rack, placement: Placement, new: list[tuple[int, int]], rules: RuleSet
) -> Placement:
    """Find the blanks a player used without circling them; decide by the rule set (FISE-14 / GR-6)."""
    alpha = board.alphabet
    natural = Counter(t for _, t in new if not is_blank(t))
    marked = sum(1 for _, t in new if is_blank(t))
    short = {t: n - rack.counts[t] for t, n in natural.items() if n > rack.counts[t]}
    free = rack.counts[BLANK] - marked
    shortage = sum(short.values())
    if not shortage or shortage > free:
        return placement  # nothing to resolve, or letters simply not on the rack (check() says so)
    letters = " ".join(alpha.label(t) for t in short)
    if rules.blank_marking == "always":
        v.fail("blank-unmarked", Text("a blank stands for %(letters)s but is not circled", letters=letters))
        return placement
    # FISE-14: ambiguous when the possible places of the blank(s) give different scores
    options_per_letter = []
    for t, n in short.items():
        squares = [sq for sq, tile in new if tile == t]
        options_per_letter.append(list(itertools.combinations(squares, n)))
    scores: dict[int, Placement] = {}
    for combo in itertools.product(*options_per_letter):
        blank_squares = {sq for group in combo for sq in group}
        word = tuple(
            tile | BLANK_BIT if sq in blank_squares else tile
            for sq, tile in zip(placement.squares(), placement.word, strict=True)
        )
        candidate = Placement(placement.coord, word)
        cand_new = [(sq, t | BLANK_BIT if sq in blank_squares else t) for sq, t in new]
        words, _ = score_words(board, candidate, cand_new)
        scores.setdefault(sum(w.score for w in words), candidate)
    if len(scores) > 1:
        v.fail(
            "blank-unmarked",
            Text(
                "a blank stands for %(letters)s but is not circled, and where it stands changes the score "
                "(%(scores)s)",
                letters=letters,
                scores=", ".join(str(s) for s in sorted(scores)),
            ),
        )
        return placement
    v.notes.append(
        Text("blank for %(letters)s not circled, but its place does not change the score (FISE-14)", letters=letters)
    )
    return next(iter(scores.values()))


_BOOL = {
    "": False,
    "0": False,
    "no": False,
    "n": False,
    "false": False,
    "1": True,
    "yes": True,
    "y": True,
    "true": True,
    "x": True,
}
COLUMNS = ("move", "player", "position", "word", "score", "late", "illegible", "table", "note")


def read_slips(text: str, *, move: int | None = None) -> list[Slip]:
    """Slips from CSV text with a header row naming columns among ``move, player, position, word, score, late,
    illegible, table, note`` (comma, semicolon or tab separated). ``move`` may be given for the whole file.
    Cells are kept exactly as written, surrounding spaces and a CR inside a quoted field included (judging
    strips what it reads); each row has as many fields as the header.

    :raises SlipFileError: listing every line that cannot be read; nothing is taken from a bad file.
    """
    body = text.lstrip("\ufeff")
    if not body.strip():
        raise SlipFileError("the slip file is empty")
    first = body.splitlines()[0]
    delimiter = max((";", ",", "\t"), key=first.count)
    try:
        rows = csv_rows(body, "slip file", delimiter=delimiter)
    except InputError as e:
        raise SlipFileError(str(e)) from None
    rows = [(lineno, row) for lineno, row in rows if any(cell.strip() for cell in row)]
    if not rows:
        raise SlipFileError("the slip file is empty")
    header_line, header_row = rows[0]
    header = [h.strip().lower() for h in header_row]
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        raise SlipFileError(
            f"line {header_line}: unknown column(s) {', '.join(map(repr, unknown))}; known: {', '.join(COLUMNS)}"
        )
    twice = duplicate_columns(header)
    if twice:
        raise SlipFileError(f"line {header_line}: column(s) {', '.join(twice)} given twice")
    missing = [c for c in ("player", "position", "word") if c not in header]
    if "move" not in header and move is None:
        missing.insert(0, "move")
    if missing:
        raise SlipFileError(f"line {header_line}: missing column(s) {', '.join(missing)}")
    slips, errors = [], []
    for lineno, row in rows[1:]:
        if len(row) != len(header):
            errors.append(f"line {lineno}: {len(row)} fields, the header has {len(header)}")
            continue
        cells = dict(zip(header, row, strict=True))
        try:
            slips.append(_slip_from_cells(cells, move, f"line {lineno}, "))
        except ArbitruError as e:
            errors.append(f"line {lineno}: {e}" if not str(e).startswith("line ") else str(e))
    if errors:
        raise SlipFileError("; ".join(errors[:20]) + (f"; and {len(errors) - 20} more" if len(errors) > 20 else ""))
    return slips


def _slip_from_cells(cells: dict[str, str], move: int | None, where: str = "") -> Slip:
    for name, cell in cells.items():
        check_text(cell, f"{where}column {name!r}", name)
    raw_move = cells.get("move", "").strip()
    if raw_move:
        number = parse_number(raw_move, "move", low=1)
    elif move is not None:
        number = move
    else:
        raise InputError("no move number")
    raw_score = cells.get("score", "").strip()
    score = parse_signed(raw_score, "score") if raw_score else None
    flags = {}
    for name in ("late", "illegible"):
        raw = cells.get(name, "").strip().lower()
        if raw not in _BOOL:
            raise InputError(f"{name} {raw!r} is not yes or no")
        flags[name] = _BOOL[raw]
    return checked(
        Slip(
            number,
            cells.get("player", ""),
            cells.get("position", ""),
            cells.get("word", ""),
            score,
            flags["late"],
            flags["illegible"],
            cells.get("table", ""),
            cells.get("note", ""),
        )
    )


def checked(slip: Slip) -> Slip:
    """The slip when it can be stored: bounded texts, numbers (player, table, move, score) in ASCII digits.

    :raises InputError: naming the field.
    """
    if not 1 <= slip.move <= MAX_INT:
        raise InputError(f"move {slip.move} is not a move number")
    if slip.score is not None and abs(slip.score) > MAX_INT:
        raise InputError(f"score {slip.score} is out of range")
    for name in ("player", "position", "word", "table", "note"):
        value = getattr(slip, name)
        check_text(value, name)
        if name in ("player", "table"):
            check_digits(value, name)
    return slip
