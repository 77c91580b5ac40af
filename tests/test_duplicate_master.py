"""The master move and what is announced: FISE-2, FISE-7 (each tie-break), FISE-7b, FISE-8, FISE-16, FISE-20,
GR-5E."""

from __future__ import annotations

import pytest

from arbitru.engine.board import Board
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import BLANK, BLANK_BIT, Rack, alphabet
from arbitru.formats.duplicate import master, racks
from arbitru.formats.duplicate.announce import rack_announcement
from arbitru.formats.duplicate.game import GameError, PreparedMove, Session, Settings
from arbitru.formats.duplicate.master import balance, candidate, fise_key, program_key, top_moves
from arbitru.formats.duplicate.prepared import read_prepared
from arbitru.formats.duplicate.racks import RackError
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal

ES = alphabet("es")
RO = alphabet("ro")
EL = alphabet("el")


def session(rules, lang, words, **settings):
    alpha = alphabet(lang)
    lex = Lexicon.from_words(words, alpha, name="tiny")
    return Session.create(Journal(":memory:"), Settings(rules, lang, "tiny", **settings), lex)


def tiles(alpha, text):
    return list(racks.parse_tiles(alpha, text))


def cand(alpha, rack_text, position, word, score=10, board=None):
    board = board or Board(alpha)
    return candidate(board, alpha.parse_rack(rack_text), Placement.parse(f"{position} {word}", alpha), score)


# --- FISE-7: each criterion, in order -----------------------------------------------------------------------


def test_fise_7_1_a_move_without_a_blank_comes_first():
    with_blank = cand(ES, "CASAEI?", "H8", "cASA")
    without = cand(ES, "CASAEI?", "H8", "ASE")
    assert sorted([with_blank, without], key=fise_key)[0] is without
    assert master.deciding_criterion(without, with_blank) == "no blank"


def test_fise_7_2_the_better_balanced_leave_comes_first():
    # same number of tiles, no blank: leave EIST (2 vowels, 2 consonants) beats leave AEIS... (3 vowels, 1)
    balanced = cand(ES, "CASAEIT", "H8", "CAA")  # leave E I S T: |2 - 2| = 0
    unbalanced = cand(ES, "CASAEIT", "H8", "CST")  # leave A A E I: |4 - 0| = 4
    assert balance(ES, balanced.leave) == (0, 0) and balance(ES, unbalanced.leave) == (4, 1)
    assert sorted([unbalanced, balanced], key=fise_key)[0] is balanced
    assert master.deciding_criterion(balanced, unbalanced) == "better-balanced leave"


def test_fise_7_2_repeated_letters_make_a_leave_less_balanced():
    a = cand(ES, "AEBBCDO", "H8", "ABE")  # leave B C D O: |1 - 3| = 2, 0 repeated
    b = cand(ES, "AEBBCDO", "H8", "DOC")  # leave A B B E: |2 - 2| = 0, 1 repeated
    c = cand(ES, "AEBBCDO", "H8", "BOA")  # leave B C D E: 2, 0
    assert balance(ES, b.leave) == (0, 1)
    assert sorted([a, c, b], key=fise_key)[0] is b  # the vowel-consonant balance comes before repeats
    d = cand(ES, "AEBBCDO", "H8", "BOD")  # leave A B C E: (0, 0)
    assert sorted([b, d], key=fise_key)[0] is d


def test_fise_7_3_fewer_tiles_comes_first():
    # both place a blank (criterion 1 ties); both leaves are E B C D, the blank left counting as neither
    two = cand(ES, "AEBCD??", "H8", "Ae")  # A and a blank
    three = cand(ES, "AEBCD??", "H8", "abA")  # two blanks and A
    assert two.uses_blank and three.uses_blank
    assert balance(ES, two.leave) == balance(ES, three.leave) == (2, 0)
    assert sorted([three, two], key=fise_key)[0] is two
    assert master.deciding_criterion(two, three) == "fewer tiles"


def test_fise_7_4_main_word_alphabetically_first_in_the_tile_set_order():
    assert (
        sorted([cand(ES, "CASAEIT", "H8", "SACA"), cand(ES, "CASAEIT", "H5", "CASA")], key=fise_key)[0].word()
        == "CASA"
    )
    # Spanish: L comes before LL, so LO before LLA (a plain string comparison says the opposite); the leaves
    # (LL A E S T and L O E S T) are equally balanced and both moves place two tiles
    lo = cand(ES, "L LL O A E S T", "H8", "LO")
    lla = cand(ES, "L LL O A E S T", "H8", "LLA")
    assert balance(ES, lo.leave) == balance(ES, lla.leave) and lo.tiles_used == lla.tiles_used
    assert sorted([lla, lo], key=fise_key)[0] is lo
    assert master.deciding_criterion(lo, lla) == "main word first alphabetically"
    assert "LLA" < "LO"
    # Polish: Ą after A, before B
    pl = alphabet("pl")
    assert pl.code("A") < pl.code("Ą") < pl.code("B")


def test_fise_7_5_horizontal_nearest_column_1_then_row_a_vertical_nearest_row_a_then_column_1():
    board = Board(ES)
    rack = "CASAEIT"
    moves = [cand(ES, rack, p, "CASA", board=board) for p in ("H6", "C2", "B2", "2B", "2C", "1C", "B1")]
    order = [m.placement.coord.format() for m in sorted(moves, key=fise_key)]
    assert order == ["B1", "B2", "C2", "H6", "2B", "1C", "2C"]


def test_fise_7_end_to_end_master_is_first_by_fise_order_every_tie_listed():
    lex = Lexicon.from_words(["CASA", "SACA"], ES, name="tiny")
    ms = top_moves(Board(ES), ES.parse_rack("ACASXYZ"), lex, engine="reference")
    assert ms[0].describe() == "H5 CASA 12"
    # every tied move: CASA and SACA at 4 horizontal and 4 vertical places each
    assert len(ms) == 16 and {m.score for m in ms} == {12}


def test_fise_7_referee_may_place_another_tied_move():
    s = session(ruleset("fise"), "es", ["CASA", "SACA"], racks="hand")
    s.draw(tiles(ES, "CASAXYZ"))
    step = s.place_master(choice=3)
    assert step.master.by == "referee"
    assert step.master.placement.format(ES) == step.candidates[2].placement.format(ES)
    assert len(step.master.ties) == 16 and step.master.ties[1]["behind"]
    with pytest.raises(GameError, match="between 1 and"):
        s2 = session(ruleset("fise"), "es", ["CASA"], racks="hand")
        s2.draw(tiles(ES, "CASAXYZ"))
        s2.place_master(choice=99)


# --- GR-5E: program order -----------------------------------------------------------------------------------


def test_gr_5e_equal_top_scores_first_move_in_program_order():
    s = session(ruleset("greek"), "es", ["CASA", "SACA"], racks="hand")
    s.draw(tiles(ES, "CASAXYZ"))
    step = s.place_master()
    # program order: reading order of the start square, horizontal first: the vertical 8E starts on row E
    assert step.master.placement.coord.format("gr") == "E8 K"
    keys = [program_key(c) for c in step.candidates]
    assert keys == sorted(keys)


def test_gr_5e_order_does_not_depend_on_generation_order():
    lex = Lexicon.from_words(["CASA", "SACA"], ES)
    ms = top_moves(Board(ES), ES.parse_rack("ACASXYZ"), lex, engine="reference", order="program")
    shuffled = list(reversed(ms))
    assert sorted(shuffled, key=program_key) == ms


# --- FISE-7b: prepared games --------------------------------------------------------------------------------


def test_fise_7b_prepared_move_is_always_placed_even_when_not_the_top():
    prepared = read_prepared("CASAXYZ H8 AS\nCAXYZ?E  # the program's move\n", ES)
    assert prepared[0] == PreparedMove(("C", "A", "S", "A", "X", "Y", "Z"), "H8 AS")
    s = session(ruleset("fise"), "es", ["CASA", "SACA", "AS"], racks="prepared", prepared=prepared)
    s.draw()
    step = s.place_master()
    assert step.master.by == "prepared" and step.master.placement.format(ES) == "H8 AS"
    assert (step.master.score, step.master.top) == (4, 12)  # H8 AS is not the top: it is placed anyway
    step = s.draw()
    assert step.kind == "rack" and step.draws[0].kept == tuple(tiles(ES, "ACXYZ"))
    assert sorted(s.game.rack) == sorted(tiles(ES, "CAXYZ?E"))
    assert s.place_master().master.by == "program"  # no prepared move: the program's


def test_fise_7b_prepared_rack_must_be_available_and_legal():
    prepared = read_prepared("CASAXYZ\nZZZZZZZ\n", ES)
    s = session(ruleset("fise"), "es", ["CASA"], racks="prepared", prepared=prepared)
    s.draw()
    s.place_master()
    with pytest.raises(RackError, match="Z drawn"):
        s.draw()
    bad = read_prepared("BCDFGHJ\n", ES)
    with pytest.raises(RackError, match="illegal"):
        session(ruleset("fise"), "es", ["CASA"], racks="prepared", prepared=bad).draw()


def test_fise_7b_prepared_file_errors_name_the_line():
    with pytest.raises(GameError, match="line 2"):
        read_prepared("CASAXYZ\nCA$A\n", ES)
    with pytest.raises(GameError, match="no move"):
        read_prepared("# nothing\n", ES)


# --- FISE-8: announcements ----------------------------------------------------------------------------------


def test_fise_8_leave_alphabetically_then_new_tiles_then_the_rack_then_the_start_word():
    a = rack_announcement(RO, 3, tiles(RO, "TA?"), tiles(RO, "EIRS"), ruleset("romanian"))
    kinds = [c.kind for c in a.cues]
    assert kinds[:4] == ["leave", "new", "rack", "clock-start"]
    assert a.cues[0].tiles == ("A", "T", "?") and a.cues[0].text == "leave: ANA, TUDOR, JOKER"
    assert a.cues[1].tiles == ("E", "I", "R", "S") and a.cues[1].pace == "slow"
    # a Romanian hall starts the clock with "start"; FISE-8 says "tiempo"
    assert a.cues[2].pace == "fast" and a.cues[3].text == "start"
    first = rack_announcement(RO, 3, (), tiles(RO, "RSEI"), ruleset("romanian"), new_order="vowels-first")
    assert first.cues[0].tiles == ("E", "I", "R", "S")
    data = a.to_dict()
    assert data["cues"][0]["kind"] == "leave" and data["move"] == 3


def test_fise_8_spanish_spelling_of_digraph_tiles():
    a = rack_announcement(ES, 1, (), tiles(ES, "CH LL RR Ñ A E ?"), ruleset("fise"))
    assert "che, elle, erre doble, eñe" in a.cues[0].text
    assert "comodín" in a.cues[0].text


def test_fise_10_announcement_says_how_many_times_the_rack_was_drawn_again():
    a = rack_announcement(ES, 1, (), tiles(ES, "CASAEIO"), ruleset("fise"), exchanges=2)
    assert a.cues[0].kind == "exchange" and "2 time" in a.cues[0].text


# --- FISE-2: the program shows board, rack and clock --------------------------------------------------------


def test_fise_2_program_generates_the_master_and_shows_rack_and_clock():
    s = session(ruleset("fise"), "es", ["CASA", "SACA"], racks="hand")
    step = s.draw(tiles(ES, "CASAXYZ"))
    assert [c.kind for c in step.announcement.cues][-4:] == ["clock-start", "warning", "warning", "time"]
    assert s.candidates()[0].describe() == "H5 CASA 12"
    s.place_master()
    assert "CASA" in s.game.board.to_text()


# --- FISE-16: weaker and invalid master moves ---------------------------------------------------------------


def test_fise_16_a_weaker_move_announced_as_master_stays():
    s = session(ruleset("fise"), "es", ["CASA", "SACA", "AS"], racks="hand")
    s.draw(tiles(ES, "CASAXYZ"))
    step = s.place_master(move_text="H8 AS")
    assert step.master.weaker and step.master.by == "referee"
    assert any("FISE-16" in r for r in step.master.remarks)
    s.draw(tiles(ES, "EI"))
    assert s.game.moves[0].master.score == 4 and s.game.master_total() == 4


def test_fise_16_invalid_master_stays_on_the_board_and_players_who_played_it_lose_the_points():
    s = session(ruleset("fise"), "es", ["CASA", "SACA"], racks="hand")
    s.draw(tiles(ES, "CASAXYZ"))
    s.add_slips([_slip(1, "1", "H5", "CASA", 12), _slip(1, "2", "H5", "SACA", 12)])
    s.place_master()  # H5 CASA
    before = bytes(s.game.board.squares)
    from arbitru.formats.duplicate.results import compute

    assert compute(s.game, s.lexicon).line("1").points == 12
    s.rule("casa", valid=False, reason="not in the official list after all")
    assert bytes(s.game.board.squares) == before  # the board does not change
    r = compute(s.game, s.lexicon)
    assert r.line("1").points == 0 and r.line("1").moves[0].reasons == ["not-in-list"]
    assert r.line("2").points == 12
    assert r.master_total == 12


def test_fise_16_master_move_that_cannot_be_placed_is_refused():
    s = session(ruleset("fise"), "es", ["CASA"], racks="hand")
    s.draw(tiles(ES, "CASAXYZ"))
    with pytest.raises(master.MasterError, match="cannot be placed"):
        s.place_master(move_text="H8 CASAS")
    with pytest.raises(GameError, match="cannot read"):
        s.place_master(move_text="Z99 CASA")


def _slip(move, player, position, word, score=None):
    from arbitru.formats.duplicate.slips import Slip

    return Slip(move, player, position, word, score)


# --- FISE-20: duplicate with a blank ------------------------------------------------------------------------


def test_fise_20_blank_replaced_by_the_real_letter_then_second_blank_then_none():
    s = session(ruleset("fise"), "es", ["CASA"], racks="hand", variant="joker")
    g = s.game
    s.draw(tiles(ES, "ASAÑOE"))  # the blank is on the rack already: 6 drawn
    assert sorted(g.rack) == sorted(tiles(ES, "ASAÑOE?"))
    s.place_master(move_text="H8 cASA")  # the blank as C: C is in the bag
    assert g.board.squares[7 * 15 + 7] == ES.code("C")  # the real C replaced it on the board
    assert g.moves[0].master.joker == {"square": "H8", "letter": "C", "replaced": True, "blank_on_rack": True}
    assert BLANK in g.rack and g.tile_count() == 100 and ES.code("C") in g.bag.tiles
    assert g.bag.tiles.count(ES.code("C")) == 3
    # the only Ñ is on the rack: a blank for Ñ cannot be replaced, it stays; the second blank comes in
    s.draw(tiles(ES, "NEI"))
    s.place_master(move_text="8H CñO")  # down from the C: a blank for Ñ at I8
    assert g.moves[1].master.joker == {
        "square": "I8",
        "letter": "Ñ",
        "replaced": False,
        "blank_on_rack": True,
    }
    assert g.board.squares[8 * 15 + 7] == BLANK_BIT | ES.code("Ñ")
    assert BLANK in g.rack and g.reserve == [] and g.tile_count() == 100
    s.draw(tiles(ES, "R"))
    s.place_master(move_text="8G ñCñO")  # the second blank, for Ñ again: no blank after it
    assert g.moves[2].master.joker == {
        "square": "G8",
        "letter": "Ñ",
        "replaced": False,
        "blank_on_rack": False,
    }
    assert BLANK not in g.rack and g.fixed == ()
    step = s.draw(tiles(ES, "T"))  # no blank any more: one tile fills the rack
    assert step.kind == "rack" and len(g.rack) == 7 and BLANK not in g.rack
    assert g.tile_count() == 100
    # the journal replays the same
    again = Session(s.journal, s.id, s.lexicon)
    assert again.game.board == g.board and sorted(again.game.rack) == sorted(g.rack)


def test_fise_20_the_master_score_is_the_score_made_with_the_blank():
    s = session(ruleset("fise"), "es", ["CASA"], racks="hand", variant="joker")
    s.draw(tiles(ES, "ASAÑOE"))
    step = s.place_master(move_text="H8 cASA")
    assert step.master.score == 2 * (0 + 1 + 1 + 1)


def test_fise_20_hand_draw_counts_the_fixed_blank():
    s = session(ruleset("fise"), "es", ["CASA"], racks="hand", variant="joker")
    with pytest.raises(RackError, match="6 tile"):
        s.draw(tiles(ES, "ASAÑOEI"))
    assert s.game.tile_count() == 100


def test_fise_20_needs_a_tile_set_with_blanks():
    rs = ruleset("fise")
    Settings(rs, "es", "x", variant="joker")  # Spanish has two blanks
    assert alphabet("es").blank_count == 2


def test_candidate_leave_keeps_the_rack_order_independent():
    c = cand(ES, "EACSA??", "H8", "CASA")
    assert Rack(ES, c.leave) == ES.parse_rack("E??")
