"""The layout (G-1) and the board: text and CGP files, blanks (G-7), multi-letter tiles, placing tiles."""

from __future__ import annotations

import random

import pytest

from arbitru.engine.board import Board
from arbitru.engine.layout import ROW_LETTERS, SIZE, SQUARES, STANDARD, Layout
from arbitru.engine.notation import Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import BLANK_BIT, alphabet
from arbitru.errors import BoardFileError, IllegalPlacementError


def sq(name: str) -> int:
    """Square index of a row-first name such as ``H8``."""
    c = Coordinate.parse(name)
    return c.square


# --- G-1: the layout ----------------------------------------------------------------------------------------

PREMIUMS = {
    "TW": "A1 A8 A15 H1 H15 O1 O8 O15",
    "DW": "B2 C3 D4 E5 B14 C13 D12 E11 K5 L4 M3 N2 K11 L12 M13 N14 H8",
    "TL": "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10",
    "DL": "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12",
}


def test_g_1_premiums_at_named_squares():
    for kind, names in PREMIUMS.items():
        for name in names.split():
            assert STANDARD.premium_name(sq(name)) == kind, name
    named = {sq(n) for names in PREMIUMS.values() for n in names.split()}
    assert all(STANDARD.premium_name(s) == "" for s in range(SQUARES) if s not in named)
    assert len(named) == 8 + 17 + 12 + 24


def test_g_1_multiplier_values():
    assert (STANDARD.word_mult[sq("A1")], STANDARD.letter_mult[sq("A1")]) == (3, 1)
    assert (STANDARD.word_mult[sq("B2")], STANDARD.letter_mult[sq("B2")]) == (2, 1)
    assert (STANDARD.word_mult[sq("B6")], STANDARD.letter_mult[sq("B6")]) == (1, 3)
    assert (STANDARD.word_mult[sq("A4")], STANDARD.letter_mult[sq("A4")]) == (1, 2)
    assert (STANDARD.word_mult[sq("A2")], STANDARD.letter_mult[sq("A2")]) == (1, 1)


def test_g_1_centre_is_h8_and_a_double_word():
    assert STANDARD.centre == sq("H8") == 7 * SIZE + 7 == 112
    assert STANDARD.word_mult[STANDARD.centre] == 2


def test_g_1_layout_is_symmetric():
    def at(r: int, c: int) -> tuple[int, int]:
        s = r * SIZE + c
        return STANDARD.letter_mult[s], STANDARD.word_mult[s]

    for r in range(SIZE):
        for c in range(SIZE):
            m = SIZE - 1
            assert at(r, c) == at(c, r) == at(m - r, c) == at(r, m - c) == at(m - r, m - c)


def test_g_1_rows_are_letters_a_to_o():
    assert ROW_LETTERS == "ABCDEFGHIJKLMNO"
    assert len(STANDARD.letter_mult) == len(STANDARD.word_mult) == SQUARES == 225


def test_layout_from_grid_errors():
    with pytest.raises(ValueError, match="15 lines"):
        Layout.from_grid("...\n")


# --- board text and CGP -------------------------------------------------------------------------------------


def random_board(lang: str, seed: int, fill: float = 0.3) -> Board:
    alpha = alphabet(lang)
    rnd = random.Random(seed)
    board = Board(alpha)
    letters = [t for t in range(1, alpha.size + 1) if alpha.has_tiles(t)]
    for s in range(SQUARES):
        if rnd.random() < fill:
            # any letter as a blank, only letters with tiles as natural tiles
            t = rnd.randint(1, alpha.size)
            board.squares[s] = BLANK_BIT | t if rnd.random() < 0.2 else rnd.choice(letters)
    return board


@pytest.mark.parametrize("lang", ["ro", "es", "pl", "el", "en", "fr"])
@pytest.mark.parametrize("seed", range(5))
def test_text_and_cgp_round_trip(lang, seed):
    board = random_board(lang, seed)
    alpha = board.alphabet
    assert Board.from_text(board.to_text(), alpha) == board
    assert Board.from_cgp(board.to_cgp(), alpha) == board
    assert Board.from_text(Board.from_cgp(board.to_cgp(), alpha).to_text(), alpha).squares == board.squares


def test_empty_board_files():
    board = Board(alphabet("en"))
    assert board.to_cgp() == "/".join(["15"] * 15)
    assert board.to_text() == ("." * 15 + "\n") * 15
    assert Board.from_cgp(
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINST?/ 0/0 0 lex NWL20;", board.alphabet
    )
    assert board.is_empty() and board.tile_count() == 0


def test_text_format_exact():
    ro = alphabet("ro")
    board = Board(ro)
    board.play(Placement.parse("H7 CaSA", ro))
    text = board.to_text().splitlines()
    assert text[7] == "......CaSA....."
    assert board.to_cgp().split("/")[7] == "6CaSA5"
    assert board.tile_count() == 4


def test_spanish_multi_letter_tiles_in_brackets():
    es = alphabet("es")
    board = Board(es)
    board.play(Placement.parse("H6 CHURRO", es))
    board.play(Placement.parse("8F caRRo", es))  # down column 8, through the RR at H8
    assert board.to_text().splitlines()[7] == ".....[CH]U[RR]O......"
    assert board.to_text().splitlines()[5] == ".......c......."
    assert board.to_text().splitlines()[6] == ".......a......."
    cgp_row = board.to_cgp().split("/")[7]
    assert cgp_row == "5[CH]U[RR]O6"
    assert Board.from_text(board.to_text(), es) == board
    assert Board.from_cgp(board.to_cgp(), es) == board
    blank = Board(es)
    blank.play(Placement.parse("H6 chURRO", es))
    assert "[ch]" in blank.to_text() and "[ch]" in blank.to_cgp()
    assert Board.from_text(blank.to_text(), es).squares[sq("H6")] == BLANK_BIT | es.code("CH")


def test_g_7_board_blank_keeps_its_letter():
    ro = alphabet("ro")
    text = "\n".join(["." * 15] * 7 + ["......CaSA....."] + ["." * 15] * 7)
    board = Board.from_text(text, ro)
    assert board.squares[sq("H8")] == BLANK_BIT | ro.code("A")
    assert board.to_text().splitlines()[7] == "......CaSA....."
    again = Board.from_cgp(board.to_cgp(), ro)
    assert again.squares[sq("H8")] == BLANK_BIT | ro.code("A")
    # the blank stands for A for good: another letter on its square is a conflict
    with pytest.raises(IllegalPlacementError) as err:
        board.new_tiles(Placement.parse("8G MEI", ro))
    assert err.value.reasons[0][0] == "conflict"
    # the same letter, written in either case, passes through it
    assert board.new_tiles(Placement.parse("8G TAC", ro)) == [
        (sq("G8"), ro.code("T")),
        (sq("I8"), ro.code("C")),
    ]
    assert board.new_tiles(Placement.parse("8G Tac", ro)) == [
        (sq("G8"), ro.code("T")),
        (sq("I8"), BLANK_BIT | ro.code("C")),
    ]


def test_romanian_k_on_the_board_only_as_a_blank():
    ro = alphabet("ro")
    rows = ["." * 15] * 15
    rows[7] = ".......k......."
    assert Board.from_text("\n".join(rows), ro).squares[sq("H8")] == BLANK_BIT | ro.code("K")
    rows[7] = ".......K......."
    with pytest.raises(BoardFileError, match="line 8, column 8: K has no tile"):
        Board.from_text("\n".join(rows), ro)
    with pytest.raises(BoardFileError, match="CGP row 8, column 8"):
        Board.from_cgp("/".join(["15"] * 7 + ["7K7"] + ["15"] * 7), ro)


def test_text_comments_and_blank_lines_are_skipped():
    ro = alphabet("ro")
    text = "# a board\n\n" + "\n".join(["." * 15] * 7 + ["......CASA....."] + ["." * 15] * 7) + "\n\n"
    assert Board.from_text(text, ro).to_text().splitlines()[7] == "......CASA....."
    assert Board.from_text(text.replace("\n", "\r\n"), ro).tile_count() == 4
    assert Board.from_text("  " + text.replace("\n", "\n  "), ro).tile_count() == 4


def test_board_file_errors_name_line_and_column():
    ro = alphabet("ro")
    rows = ["." * 15] * 15
    bad = list(rows)
    bad[3] = "...Σ..........."
    with pytest.raises(
        BoardFileError, match=r"line 4, column 4: 'Σ' is not a letter of the Romanian tile set"
    ):
        Board.from_text("\n".join(bad), ro)
    # line numbers are the file's: a comment line before the grid counts
    with pytest.raises(BoardFileError, match=r"line 5, column 4"):
        Board.from_text("# header\n" + "\n".join(bad), ro)
    short = list(rows)
    short[2] = "." * 14
    with pytest.raises(BoardFileError, match="line 3 has 14 squares, not 15"):
        Board.from_text("\n".join(short), ro)
    with pytest.raises(BoardFileError, match="this one has 14"):
        Board.from_text("\n".join(rows[:14]), ro)
    unclosed = list(rows)
    unclosed[0] = "[CH" + "." * 14
    with pytest.raises(BoardFileError, match="line 1: unclosed bracket"):
        Board.from_text("\n".join(unclosed), alphabet("es"))
    two = list(rows)
    two[1] = "[CA]" + "." * 14
    with pytest.raises(BoardFileError, match=r"line 2, column 1: 'CA' is not one tile"):
        Board.from_text("\n".join(two), ro)


def test_cgp_errors():
    ro = alphabet("ro")
    with pytest.raises(BoardFileError, match="empty CGP"):
        Board.from_cgp("   ", ro)
    with pytest.raises(BoardFileError, match="14 rows"):
        Board.from_cgp("/".join(["15"] * 14), ro)
    with pytest.raises(BoardFileError, match="CGP row 2 has 16 squares"):
        Board.from_cgp("/".join(["15", "15A"] + ["15"] * 13), ro)
    with pytest.raises(BoardFileError, match="CGP row 1: unclosed bracket"):
        Board.from_cgp("/".join(["[CH14"] + ["15"] * 14), alphabet("es"))
    with pytest.raises(BoardFileError, match=r"CGP row 3, column 2: '\?'"):
        Board.from_cgp("/".join(["15", "15", "1?13"] + ["15"] * 12), ro)


def test_board_of_wrong_size():
    with pytest.raises(BoardFileError, match="225 squares"):
        Board(alphabet("ro"), squares=bytes(224))


def test_board_equality_copy_and_repr():
    board = random_board("ro", 7)
    copy = board.copy()
    assert copy == board and copy is not board and hash(copy) == hash(board)
    copy.squares[0] = 0 if copy.squares[0] else 1
    assert copy != board
    assert Board(alphabet("ro")) != Board(alphabet("en"))  # same squares, another tile set
    assert repr(board).startswith("Board.from_cgp(")


# --- placing tiles ------------------------------------------------------------------------------------------


def test_new_tiles_play_and_remove():
    ro = alphabet("ro")
    board = Board(ro)
    new = board.play(Placement.parse("H7 CASA", ro))
    assert [s for s, _ in new] == [sq("H7"), sq("H8"), sq("H9"), sq("H10")]
    through = Placement.parse("8G MAR", ro)
    assert board.new_tiles(through) == [(sq("G8"), ro.code("M")), (sq("I8"), ro.code("R"))]
    board.remove([s for s, _ in new])
    assert board.is_empty()


def test_new_tiles_off_board_and_conflict():
    ro = alphabet("ro")
    board = Board(ro)
    board.play(Placement.parse("H7 CASA", ro))
    with pytest.raises(IllegalPlacementError) as err:
        board.new_tiles(Placement.parse("H13 CASA", ro))
    assert err.value.reasons[0][0] == "off-board"
    assert board.new_tiles(Placement.parse("8N AB", ro))  # rows N and O: on the board
    with pytest.raises(IllegalPlacementError) as err:
        board.new_tiles(Placement.parse("8N ABC", ro))
    assert err.value.reasons[0][0] == "off-board"
    with pytest.raises(IllegalPlacementError) as err:
        board.new_tiles(Placement.parse("8G MIR", ro))
    assert err.value.reasons[0] == ("conflict", "H8 holds A, not I")


def test_word_through():
    ro = alphabet("ro")
    board = Board(ro)
    board.play(Placement.parse("H7 CASA", ro))
    assert board.word_through(sq("H9"), True) == (sq("H7"), [3, 1, 19, 1])
    assert board.word_through(sq("H9"), False) == (sq("H9"), [19])
    start, tiles = board.word_through(sq("G8"), False, {sq("G8"): ro.code("M")})
    assert (start, tiles) == (sq("G8"), [ro.code("M"), ro.code("A")])
    # runs stop at the board's edges and do not wrap to the next row
    board.play(Placement.parse("G15 A", ro))
    board.play(Placement.parse("H1 B", ro))
    assert board.word_through(sq("G15"), True) == (sq("G15"), [1])
    assert board.word_through(sq("H1"), True) == (sq("H1"), [2])


def test_render_marks_premiums_and_tiles():
    ro = alphabet("ro")
    board = Board(ro)
    board.play(Placement.parse("H7 CaSA", ro))
    text = board.render()
    lines = text.splitlines()
    assert len(lines) == 16
    assert lines[1].split()[:2] == ["A", "="]
    assert " a " in lines[8] and " C " in lines[8]
    assert "\x1b[" in board.render(highlight={sq("H7")}, color=True)
