"""Judging placements: the common game rules G-2 to G-7, each outcome asserted; scores computed by hand."""

from __future__ import annotations

import pytest

from arbitru.engine.board import Board
from arbitru.engine.notation import Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.rules import check, score_words
from arbitru.engine.tiles import BLANK_BIT, alphabet
from arbitru.errors import IllegalPlacementError

EN = alphabet("en")
RO = alphabet("ro")
# English values used below: A1 B3 C3 D2 E1 H4 I1 L1 N1 O1 Q10 R1 S1 T1 U1


def sq(name: str) -> int:
    return Coordinate.parse(name).square


def board_with(*placements: str, alpha=EN) -> Board:
    """A board with these placements put on it, unjudged (``H7 CAT`` across, ``7H CAT`` down)."""
    board = Board(alpha)
    for text in placements:
        board.play(Placement.parse(text, alpha))
    return board


def judge(board: Board, text: str, lexicon=None, rack=None, **kw):
    return check(board, Placement.parse(text, board.alphabet), lexicon, rack, **kw)


def codes(result) -> list[str]:
    return [code for code, _ in result.reasons]


@pytest.fixture(scope="module")
def lex(make_lexicon):
    words = "QUITE AQUA TEA CAT CATS CATCH ATE CA AT TE HIS SO BANDIT BANDITS AD ABSOLUTE TAN DOG AS"
    return make_lexicon([*words.split(), "A" * 15], EN, "test")


# --- G-2: where a placement may go --------------------------------------------------------------------------


def test_g_2_first_placement_covers_the_centre(lex):
    empty = Board(EN)
    assert judge(empty, "H8 CAT", lex).legal
    assert judge(empty, "H6 CAT", lex).legal  # H6..H8
    assert judge(empty, "8F CAT", lex).legal  # down column 8, F..H
    for text in ("A1 CAT", "H9 CAT", "H5 CAT", "7H CAT"):
        result = judge(empty, text, lex)
        assert codes(result) == ["not-centre"], text
    assert "H8" in judge(empty, "A1 CAT", lex).reasons[0][1]


def test_g_2_later_placements_connect(lex):
    board = board_with("H7 CAT")
    result = judge(board, "A1 CAT", lex)
    assert codes(result) == ["not-connected"]
    assert codes(judge(board, "G10 AT", lex)) == ["not-connected"]  # G10, G11 touch CAT only by a corner
    assert judge(board, "9F CAT", lex).legal  # through the T at H9
    touching = judge(board, "I9 AS", lex)  # I9 under the T: it connects (its cross word TA is not a word)
    assert codes(touching) == ["not-in-list"]


def test_g_2_whole_word_only(lex):
    board = board_with("H7 CAT")
    result = judge(board, "H5 AT", lex)  # AT directly before CAT forms ATCAT
    assert "not-whole-word" in codes(result)
    assert "ATCAT" in dict(result.reasons)["not-whole-word"]
    assert "not-whole-word" in codes(judge(board, "H10 SO", lex))  # CATSO
    assert judge(board, "H7 CATS", lex).legal  # the whole word, played through CAT


def test_g_2_conflict_off_board_no_new_tile_too_short(lex):
    board = board_with("H7 CAT")
    assert codes(judge(board, "8G DOG", lex)) == ["conflict"]
    assert codes(judge(board, "H14 CAT", lex)) == ["off-board"]
    assert codes(judge(board, "8N CAT", lex)) == ["off-board"]  # down from row N: N, O, then off
    assert codes(judge(board, "H7 CAT", lex)) == ["no-new-tile"]
    assert "too-short" in codes(judge(board, "G7 A", lex))
    assert "too-short" in codes(judge(Board(EN), "H8 A", lex))


def test_g_2_placement_from_tiles_reasons():
    board = board_with("H7 CAT")
    a, t = EN.code("A"), EN.code("T")
    with pytest.raises(IllegalPlacementError) as err:
        Placement.from_tiles({sq("A1"): a, sq("B2"): a}, board.squares)
    assert err.value.reasons[0][0] == "not-on-one-line"
    with pytest.raises(IllegalPlacementError) as err:
        Placement.from_tiles({sq("A1"): a, sq("A3"): a}, board.squares)
    assert err.value.reasons[0][0] == "gap"
    with pytest.raises(IllegalPlacementError) as err:
        Placement.from_tiles({sq("H7"): a}, board.squares)
    assert err.value.reasons[0][0] == "occupied"
    with pytest.raises(IllegalPlacementError) as err:
        Placement.from_tiles({}, board.squares)
    assert err.value.reasons[0][0] == "no-tile"
    # a gap filled by tiles on the board is no gap; the word extends over the tiles at both ends
    p = Placement.from_tiles({sq("H6"): a, sq("H10"): t}, board.squares)
    assert p == Placement.parse("H6 ACATT", EN)
    p = Placement.from_tiles({sq("G8"): t, sq("I8"): t}, board.squares)
    assert p == Placement.parse("8G TAT", EN)
    # one tile: horizontal when it forms a horizontal word, else vertical (docs/ENGINE.md)
    assert Placement.from_tiles({sq("H10"): EN.code("S")}, board.squares) == Placement.parse("H7 CATS", EN)
    assert Placement.from_tiles({sq("I8"): t}, board.squares) == Placement.parse("8H AT", EN)
    assert Placement.from_tiles({sq("G9"): a}, board.squares) == Placement.parse("9G AT", EN)
    # rows do not wrap: a tile at the end of row G is not next to the start of row H
    edge = board_with("H1 AT")
    assert Placement.from_tiles({sq("G15"): a}, edge.squares).coord.direction == "V"


# --- G-3: scoring -------------------------------------------------------------------------------------------


def test_g_3_letter_multiplier_before_word_multiplier(lex):
    # Q on H4 (DL) = 20, U I T = 3, E on H8 (DW centre) = 1: (20 + 3 + 1) × 2 = 48
    result = judge(Board(EN), "H4 QUITE", lex)
    assert result.legal and result.score == 48
    main = result.words[0]
    assert (main.letter_sum, main.word_mult, main.score, main.main) == (24, 2, 48, True)
    assert judge(Board(EN), "8D QUITE", lex).score == 48  # the same down column 8 (D8 is a DL too)


def test_g_3_triple_letter_before_double_word(lex):
    # CATCH on B2..B6 through a T on the board at B4: C on B2 (DW), H on B6 (TL).
    # C3 + A1 + T1 + C3 + H4×3 = 20, × 2 = 40 (the word multiplier first would give 32)
    board = board_with("B4 T")
    result = judge(board, "B2 CATCH", lex)
    assert result.legal
    assert (result.words[0].letter_sum, result.words[0].word_mult, result.score) == (20, 2, 40)


def test_g_3_word_multipliers_multiply_x4(lex):
    # BANDITS on E5..E11: both ends on DW. B3 A1 N1 D2 I1 T1 S1 = 10, × 4 = 40.
    # Cross word AD down column 8 (A on the board at D8, whose DL no longer counts): 1 + 2 = 3. Bingo 50.
    board = board_with("D8 A")
    result = judge(board, "E5 BANDITS", lex)
    assert result.legal
    assert [(w.letter_sum, w.word_mult, w.score) for w in result.words] == [(10, 4, 40), (3, 1, 3)]
    assert (result.bingo, result.score) == (50, 93)


def test_g_3_word_multipliers_multiply_x9(lex):
    # ABSOLUTE on A1..A8 through a B on the board at A2: A1 and A8 are TW.
    # A1 + B3 + S1 + O1×2 (A4 DL) + L1 + U1 + T1 + E1 = 11, × 9 = 99; 7 new tiles: +50 = 149
    board = board_with("A2 B")
    result = judge(board, "A1 ABSOLUTE", lex)
    assert result.legal
    assert (result.words[0].letter_sum, result.words[0].word_mult) == (11, 9)
    assert (result.bingo, result.score) == (50, 149)


def test_g_3_word_multipliers_multiply_x27(lex):
    # 15 A's across row A: new tiles on A1, A2, A3, A4 (DL), A8, A12 (DL), A15; the other 8 on the board.
    # 15 + 1 + 1 = 17, × 27 (three TW) = 459, + 50 = 509
    board = board_with("A5 AAA", "A9 AAA", "A13 AA")
    result = judge(board, "A1 " + "A" * 15, lex)
    assert result.legal
    assert (result.words[0].letter_sum, result.words[0].word_mult, result.score) == (17, 27, 509)


def test_g_3_premiums_count_only_under_new_tiles(lex):
    board = board_with("H4 QUITE")
    # AQUA down column 4 through the Q on H4 (a DL already used): 1 + 10 + 1 + 1 = 13
    assert judge(board, "4G AQUA", lex).score == 13
    # TEA down column 8 through the E on the centre DW: 1 + 1 + 1 = 3, not doubled
    result = judge(board, "8G TEA", lex)
    assert result.legal and (result.score, result.words[0].word_mult) == (3, 1)


def test_g_3_blank_is_worth_0_on_a_letter_square(lex):
    # blank Q on the DL H4: (0 + 1 + 1 + 1 + 1) × 2 = 8
    assert judge(Board(EN), "H4 qUITE", lex).score == 8


def test_g_3_blank_on_a_word_square_still_multiplies(lex):
    # blank E on the centre DW: (20 + 1 + 1 + 1 + 0) × 2 = 46
    result = judge(Board(EN), "H4 QUITe", lex)
    assert (result.words[0].letter_sum, result.words[0].word_mult, result.score) == (23, 2, 46)


def test_g_3_cross_words_score(lex):
    # ATE on I7..I9 under CAT (H7..H9); I7 and I9 are DL.
    # ATE: A1×2 + T1 + E1×2 = 5; CA: C3 + A1×2 = 5; AT: 1 + 1 = 2; TE: T1 + E1×2 = 3; total 15
    board = board_with("H7 CAT")
    result = judge(board, "I7 ATE", lex)
    assert result.legal
    assert [(EN.format(w.tiles), w.main, w.score) for w in result.words] == [
        ("ATE", True, 5),
        ("CA", False, 5),
        ("AT", False, 2),
        ("TE", False, 3),
    ]
    assert result.score == 15 and result.bingo == 0
    assert result.words[1].position() == "7H"


def test_g_3_word_square_under_a_new_tile_multiplies_its_cross_word(lex):
    # SO on E5 (DW) and E6, under HI down column 5 (C5, D5): SO = (1 + 1) × 2 = 4; HIS = (4 + 1 + 1) × 2 = 12
    board = board_with("5C HI")
    result = judge(board, "E5 SO", lex)
    assert result.legal
    assert [(EN.format(w.tiles), w.score) for w in result.words] == [("SO", 4), ("HIS", 12)]
    assert result.score == 16


def test_g_3_score_shown_even_when_a_word_is_not_in_the_list(make_lexicon):
    small = make_lexicon(["CAT", "CA", "AT", "ATE"], EN)
    board = board_with("H7 CAT")
    result = judge(board, "I7 ATE", small)
    assert codes(result) == ["not-in-list"]
    assert "cross word TE" in result.reasons[0][1]
    assert result.score == 15
    assert [w.valid for w in result.words] == [True, True, True, False]
    with pytest.raises(IllegalPlacementError, match="cross word TE"):
        result.raise_if_illegal()


def test_score_words_matches_check(lex):
    board = board_with("H7 CAT")
    placement = Placement.parse("I7 ATE", EN)
    words, bingo = score_words(board, placement, board.new_tiles(placement))
    assert sum(w.score for w in words) + bingo == judge(board, "I7 ATE", lex).score


# --- G-4: the bingo -----------------------------------------------------------------------------------------


def test_g_4_seven_tiles_earn_50(lex):
    # BANDITS on H2..H8: B3 A1 N1×2 (H4 DL) D2 I1 T1 S1 = 11, × 2 (H8) = 22, + 50 = 72
    result = judge(Board(EN), "H2 BANDITS", lex)
    assert (result.words[0].score, result.bingo, result.score) == (22, 50, 72)


def test_g_4_fewer_than_seven_tiles_earn_nothing(lex):
    # BANDIT on H3..H8: B3 A1×2 (H4 DL) N1 D2 I1 T1 = 10, × 2 = 20, no bonus
    result = judge(Board(EN), "H3 BANDIT", lex)
    assert (result.bingo, result.score) == (0, 20)
    # seven letters but only six new tiles (one played through): no bonus either
    board = board_with("H5 D")
    result = judge(board, "H2 BANDITS", lex)
    # B3 A1 N1×2 + D2 (on the board) + I1 T1 S1 = 11, × 2 = 22
    assert result.legal and (result.bingo, result.score) == (0, 22)


def test_g_4_bonus_settings(lex):
    result = judge(Board(EN), "H3 BANDIT", lex, bingo_tiles=6, bingo_bonus=40)
    assert (result.bingo, result.score) == (40, 60)
    result = judge(Board(EN), "H2 BANDITS", lex, bingo_bonus=35)
    assert (result.bingo, result.score) == (35, 57)


# --- G-5: every word in the list; a word may be played again ------------------------------------------------


def test_g_5_main_word_must_be_in_the_list(lex):
    result = judge(Board(EN), "H8 TAC", lex)
    assert codes(result) == ["not-in-list"]
    assert "main word TAC is not in test" in result.reasons[0][1]


def test_g_5_same_word_may_be_played_again(lex):
    board = board_with("H7 CAT")
    # CAT again, down column 9 ending on the T at H9: C3 + A1×2 (G9 DL) + T1 = 6
    result = judge(board, "9F CAT", lex)
    assert result.legal and result.score == 6


# --- G-6: Romanian folding; K, Q, W, Y only as blanks -------------------------------------------------------


@pytest.fixture(scope="module")
def ro_lex(make_lexicon):
    return make_lexicon(["ȚARĂ", "ŞAH", "KIWI", "WEB", "QUIZ"], RO, "ro-test")


def test_g_6_diacritics_are_ignored(ro_lex):
    for word in ("TARA", "țară", "ţară", "ȚARĂ", "TARĂ", "ŞAH", "șah", "SAH"):
        assert word in ro_lex, word
    assert "TARE" not in ro_lex
    result = judge(Board(RO), "H8 ŢARĂ", ro_lex)  # written with a cedilla: the same tiles as TARA
    assert result.legal and result.placement == Placement.parse("H8 TARA", RO)
    assert result.score == 8  # T1 A1 R1 A1, × 2 on H8


def test_g_6_k_q_w_y_only_through_a_blank(ro_lex):
    result = judge(Board(RO), "H8 KIWI", ro_lex)
    assert codes(result) == ["no-such-tile", "no-such-tile"]
    result = judge(Board(RO), "H8 kIwI", ro_lex, RO.parse_rack("II??"))
    assert result.legal and result.score == 4  # (0 + 1 + 0 + 1) × 2


# --- G-7: a blank's letter is fixed -------------------------------------------------------------------------


def test_g_7_board_blank_keeps_its_letter_and_value(lex):
    rows = ["." * 15] * 15
    rows[7] = "......CaT......"
    board = Board.from_text("\n".join(rows), EN)
    assert board.squares[sq("H8")] == BLANK_BIT | EN.code("A")
    # TAN down column 8 through the blank a: T1 + 0 + N1 = 2, however the slip writes the A
    for text in ("8G TAN", "8G TaN"):
        result = judge(board, text, lex)
        assert result.legal and result.score == 2, text
        assert result.words[0].tiles == (EN.code("T"), BLANK_BIT | EN.code("A"), EN.code("N"))
    assert codes(judge(board, "8G TON", lex)) == ["conflict"]
    # a real tile written in lower case on the slip still scores as a real tile
    natural = board_with("H7 CAT")
    assert judge(natural, "8G TaN", lex).score == 3


# --- racks --------------------------------------------------------------------------------------------------


def test_tiles_must_come_from_the_rack(lex):
    board = board_with("H7 CAT")
    result = judge(board, "I7 ATE", lex, EN.parse_rack("AT"))
    assert codes(result) == ["tile-not-available"]
    assert "E" in result.reasons[0][1]
    assert judge(board, "I7 ATE", lex, EN.parse_rack("AET")).legal
    assert judge(board, "I7 ATe", lex, EN.parse_rack("AT?")).legal
    # a written blank needs a blank on the rack, a real tile a real one
    assert codes(judge(board, "I7 ATe", lex, EN.parse_rack("AET"))) == ["tile-not-available"]
    assert judge(board, "I7 ATE", lex, EN.parse_rack("AT?")).legal is False
    # tiles played through are not taken from the rack
    assert judge(board, "9F CAT", lex, EN.parse_rack("CA")).legal


def test_every_reason_is_reported():
    # not centre, not in the list, and a missing tile, all at once
    result = judge(Board(RO), "A1 KIWI", None, RO.parse_rack("I"))
    assert codes(result) == ["not-centre", "no-such-tile", "no-such-tile", "tile-not-available"]
