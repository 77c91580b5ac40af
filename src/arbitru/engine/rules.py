"""Judging a placement on a board: every rule broken (G-2 to G-6) and the score with its breakdown (G-3, G-4).

>>> from arbitru.engine.tiles import alphabet
>>> from arbitru.engine.lexicon import Lexicon
>>> ro = alphabet("ro")
>>> lex = Lexicon.from_words(["CASA", "AS"], ro)
>>> b = Board(ro)
>>> result = check(b, Placement.parse("H7 CASA", ro), lex)
>>> result.legal, result.score, [w.score for w in result.words]
(True, 8, [8])
>>> check(b, Placement.parse("A1 CASA", ro), lex).reasons[0][0]
'not-centre'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arbitru.engine.board import Board
from arbitru.engine.layout import SIZE
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.notation import Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import BLANK, Rack, is_blank, letter_of
from arbitru.errors import IllegalPlacementError
from arbitru.messages import Text

BINGO_TILES = 7
BINGO_BONUS = 50

#: reasons that concern where and how the tiles are put (G-2), as opposed to the words (G-5) or the tiles held
PLACING_REASONS = frozenset(
    {"off-board", "conflict", "not-whole-word", "not-centre", "not-connected", "no-new-tile", "too-short"}
)


@dataclass(frozen=True)
class WordScore:
    """One word a placement forms: the main word first, then each new cross word (G-3)."""

    start: int
    horizontal: bool
    tiles: tuple[int, ...]
    main: bool
    letter_sum: int
    word_mult: int
    score: int
    valid: bool | None = None

    def position(self) -> str:
        return Coordinate(self.start // SIZE, self.start % SIZE, "H" if self.horizontal else "V").format()


@dataclass
class Check:
    """What a referee needs about one placement: new tiles, each word and its score, every reason it fails."""

    placement: Placement
    new: list[tuple[int, int]] = field(default_factory=list)
    words: list[WordScore] = field(default_factory=list)
    bingo: int = 0
    score: int = 0
    reasons: list[tuple[str, str]] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.reasons

    def fail(self, code: str, text: str) -> None:
        self.reasons.append((code, text))

    def raise_if_illegal(self) -> None:
        if self.reasons:
            raise IllegalPlacementError(self.reasons)


def score_words(
    board: Board, placement: Placement, new: list[tuple[int, int]]
) -> tuple[list[WordScore], int]:
    """Score the main word and every new cross word of at least 2 letters, and the bingo (G-3, G-4).

    Premiums count only under new tiles; a blank is worth 0; word multipliers multiply together.
    """
    values = board.alphabet.values
    lm, wm = board.layout.letter_mult, board.layout.word_mult
    placed = dict(new)
    horizontal = placement.coord.horizontal

    def score_run(start: int, tiles: list[int], across: bool, main: bool) -> WordScore:
        step = 1 if across else SIZE
        total, mult = 0, 1
        for i, tile in enumerate(tiles):
            sq = start + i * step
            value = 0 if is_blank(tile) else values[tile]
            if sq in placed:
                total += value * lm[sq]
                mult *= wm[sq]
            else:
                total += value
        return WordScore(start, across, tuple(tiles), main, total, mult, total * mult)

    # a played-through square scores the tile on the board, not the letter as written: a blank on the board
    # stays a blank worth 0 (G-7) even when the player writes it in upper case, and the other way round
    squares = board.squares
    main = [squares[sq] or tile for sq, tile in zip(placement.squares(), placement.word, strict=True)]
    words = [score_run(placement.coord.square, main, horizontal, True)]
    for sq, _tile in new:
        start, tiles = board.word_through(sq, not horizontal, placed)
        if len(tiles) >= 2:
            words.append(score_run(start, tiles, not horizontal, False))
    bingo = BINGO_BONUS if len(new) == BINGO_TILES else 0
    return words, bingo


def check(
    board: Board,
    placement: Placement,
    lexicon: Lexicon | None = None,
    rack: Rack | None = None,
    *,
    bingo_tiles: int = BINGO_TILES,
    bingo_bonus: int = BINGO_BONUS,
) -> Check:
    """Judge a placement: legality with every reason, and the score it has or would have.

    Reason codes: ``off-board``, ``conflict``, ``no-new-tile``, ``too-short``, ``not-whole-word``,
    ``not-centre``, ``not-connected``, ``no-such-tile``, ``tile-not-available``, ``not-in-list``.
    The score is computed whenever the tiles can be placed, even when a word is not in the list, so that an
    arbiter sees what was claimed.
    """
    result = Check(placement)
    alpha = board.alphabet
    try:
        result.new = board.new_tiles(placement)
    except IllegalPlacementError as e:
        result.reasons.extend(e.reasons)
        return result
    word_text = alpha.format(placement.word)
    if not result.new:
        result.fail("no-new-tile", Text("%(word)s places no new tile", word=word_text))
    if len(placement.word) < 2:
        result.fail("too-short", Text("a word has at least two letters"))
    squares = placement.squares()
    step = placement.coord.step()
    before, after = squares[0] - step, squares[-1] + step
    if (_on_line(squares[0], before, placement.coord.horizontal) and board.squares[before]) or (
        _on_line(squares[-1], after, placement.coord.horizontal) and board.squares[after]
    ):
        _start, tiles = board.word_through(squares[0], placement.coord.horizontal, dict(result.new))
        formed = alpha.format(tiles)
        whole = Text("the word formed is %(formed)s, not %(word)s", formed=formed, word=word_text)
        result.fail("not-whole-word", whole)
    if board.is_empty():
        if board.layout.centre not in squares:
            result.fail("not-centre", Text("the first placement must cover the centre square H8"))
    elif result.new and not _connected(board, result.new, len(result.new) < len(squares)):
        result.fail("not-connected", Text("%(word)s does not touch any tile on the board", word=word_text))
    for _sq, tile in result.new:
        if not is_blank(tile) and not alpha.has_tiles(tile):
            result.fail(
                "no-such-tile", Text("%(letter)s has no tile: only a blank can stand for it", letter=alpha.label(tile))
            )
    if rack is not None and result.new:
        missing = _missing(rack, [t for _, t in result.new])
        if missing:
            result.fail(
                "tile-not-available", Text("not on the rack: %(letters)s", letters=" ".join(map(alpha.label, missing)))
            )
    words, _ = score_words(board, placement, result.new)
    bingo = bingo_bonus if len(result.new) == bingo_tiles else 0
    if lexicon is not None:
        checked = []
        for w in words:
            ok = lexicon.contains_tiles(w.tiles)
            checked.append(_with_valid(w, ok))
            if not ok:
                shown = alpha.format(w.tiles).upper()
                result.fail(
                    "not-in-list",
                    Text("main word %(word)s is not in %(list)s", word=shown, list=lexicon.name)
                    if w.main
                    else Text("cross word %(word)s is not in %(list)s", word=shown, list=lexicon.name),
                )
        words = checked
    result.words = words
    result.bingo = bingo
    result.score = sum(w.score for w in words) + bingo
    return result


def _with_valid(w: WordScore, ok: bool) -> WordScore:
    return WordScore(w.start, w.horizontal, w.tiles, w.main, w.letter_sum, w.word_mult, w.score, ok)


def _on_line(a: int, b: int, horizontal: bool) -> bool:
    if not 0 <= b < SIZE * SIZE:
        return False
    return not horizontal or a // SIZE == b // SIZE


def _connected(board: Board, new: list[tuple[int, int]], plays_through: bool) -> bool:
    if plays_through:
        return True
    for sq, _ in new:
        r, c = divmod(sq, SIZE)
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < SIZE and 0 <= nc < SIZE and board.squares[nr * SIZE + nc]:
                return True
    return False


def _missing(rack: Rack, tiles: list[int]) -> list[int]:
    counts = list(rack.counts)
    missing = []
    for t in tiles:
        key = BLANK if is_blank(t) else letter_of(t)
        if counts[key]:
            counts[key] -= 1
        else:
            missing.append(t)
    return missing
