"""Slips and their verdicts: FISE-5, FISE-6, FISE-6b, FISE-12, FISE-14, GR-4, GR-5C, GR-6, GR-8.1; slip
files."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitru.engine.board import Board
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import alphabet
from arbitru.formats.duplicate import export, gcg, racks
from arbitru.formats.duplicate.game import GameError, Player, Session, Settings
from arbitru.formats.duplicate.results import compute
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip, SlipFileError, judge, read_slips
from arbitru.journal.store import Journal

ES = alphabet("es")
EL = alphabet("el")
WORDS = ["CASA", "SACA", "AS", "CASAS", "ASA", "SE", "ES", "CASE", "ACOSA"]
LEX = Lexicon.from_words(WORDS, ES, name="tiny")
FISE = ruleset("fise")
GREEK = ruleset("greek")


def tiles(alpha, text):
    return list(racks.parse_tiles(alpha, text))


def verdict(position, word, score=None, rack="CASAXYZ", rules=FISE, board=None, **kw):
    board = board or Board(ES)
    return judge(Slip(1, "1", position, word, score, **kw), board, ES.parse_rack(rack), LEX, rules)


def played(*moves):
    board = Board(ES)
    for m in moves:
        board.play(Placement.parse(m, ES))
    return board


# --- FISE-6: notation ---------------------------------------------------------------------------------------


def test_fise_6_row_first_is_horizontal_column_first_is_vertical():
    h = verdict("H5", "CASA", 12)
    v = verdict("8E", "CASA", 12)
    assert h.valid and h.placement.coord.horizontal
    assert v.valid and not v.placement.coord.horizontal and v.score == 12


def test_fise_6_alternative_direction_then_start_square():
    assert verdict("H H5", "CASA", 12).placement.coord == verdict("H5", "CASA").placement.coord
    assert verdict("V E8", "CASA", 12).placement.coord == verdict("8E", "CASA").placement.coord


def test_fise_6_main_word_only_with_the_circled_blank_in_lower_case():
    v = verdict("H5", "CaSA", rack="CASXYZ?")
    assert v.valid and v.score == 2 * (3 + 0 + 1 + 1)


def test_fise_6_declared_score_is_kept_and_a_wrong_one_noted_the_engine_score_counts():
    v = verdict("H5", "CASA", 20)
    assert v.score == 12 and any("declared 20" in n for n in v.notes)
    v = verdict("H5", "CASA", None)
    assert v.score == 12 and "no score written (FISE-6)" in v.notes


# --- FISE-5, FISE-12, FISE-14: zero and why -----------------------------------------------------------------


def test_fise_5_late_slip_scores_zero():
    v = verdict("H5", "CASA", 12, late=True)
    assert v.score == 0 and v.codes() == ["late"] and "FISE-5" in v.rules()


def test_fise_12_valid_move_scores_its_points_invalid_scores_zero():
    assert verdict("H5", "CASA", 12).score == 12
    v = verdict("H5", "SACO", rack="SACOXYZ")
    assert v.score == 0 and v.codes() == ["not-in-list"] and v.computed == 12


def test_fise_14_unsigned_slip_scores_zero():
    v = judge(Slip(1, "", "H5", "CASA", 12), Board(ES), ES.parse_rack("CASAXYZ"), LEX, FISE)
    assert v.codes() == ["unsigned"] and v.score == 0


def test_fise_14_illegible_slip_scores_zero():
    v = verdict("H5", "CASA", 12, illegible=True)
    assert v.codes() == ["illegible"]


def test_fise_14_wrong_coordinates_or_direction_score_zero():
    assert verdict("5H", "CASA").codes() == ["wrong-position"]  # vertical from H5 misses the centre
    board = played("H5 CASA")
    assert verdict("H6", "CASAS", rack="SXYZEEE", board=board).codes() == ["wrong-position"]  # letters differ
    assert verdict("H5", "CASAS", rack="SXYZEEE", board=board).valid
    assert verdict("H6", "ASA", rack="SXYZEEE", board=board).codes() == [
        "wrong-position"
    ]  # not the whole word
    assert verdict("Z5", "CASA").codes() == ["bad-position"]
    assert verdict("H", "CASA").codes() == ["bad-position"]
    assert verdict("H14", "CASA").codes() == ["wrong-position"]  # off the board


def test_fise_14_unmarked_blank_zero_only_where_ambiguous():
    # CASA from H5 with one A from the blank: the A squares H6 and H8 add the same (H8 doubles the word, not
    # the letter): not ambiguous, the move counts
    v = verdict("H5", "CASA", rack="CASXYZ?")
    assert v.valid and v.score == 2 * (3 + 1 + 1 + 0)
    assert any("does not change the score" in n for n in v.notes)
    # ACOSA from H4 with one A from the blank: on H4 (a double letter) it scores 12, on H8 it scores 14
    v = verdict("H4", "ACOSA", rack="ACOSXY?")
    assert v.codes() == ["blank-unmarked"] and v.score == 0
    assert "(12, 14)" in v.reasons[0][1]
    # circled, the same move is fine
    assert verdict("H4", "aCOSA", rack="ACOSXY?").score == 12
    assert verdict("H4", "ACOSa", rack="ACOSXY?").score == 14


def test_gr_6_unmarked_blank_always_annuls_unless_already_on_the_board():
    v = verdict("H5 O", "CASA", rack="CASXYZ?", rules=GREEK)
    assert v.codes() == ["blank-unmarked"] and v.score == 0
    # a blank already on the board needs no circle
    board = played("H5 CaSA")
    v = verdict("H5 O", "CASAS", rack="SXYZEEE", rules=GREEK, board=board)
    assert v.valid and v.score == 3 + 0 + 1 + 1 + 1


def test_gr_6_letters_not_on_the_rack():
    v = verdict("H5 O", "CASA", rack="CASXYZE", rules=GREEK)
    assert v.codes() == ["not-on-rack"] and v.rules() == ["GR-6"]
    assert verdict("H5", "CASA", rack="CASXYZE").rules() == ["FISE-12"]
    v = verdict("H5", "CaSA", rack="CASAXYZ")  # a circled letter but no blank on the rack
    assert v.codes() == ["not-on-rack"]


def test_gr_6_other_words_formed_must_be_acceptable():
    board = played("H5 CASA")
    # SE below C A? : E under A of H6 forms "AE" down: not a word
    v = verdict("I5", "SE", rack="SEXYZAA", board=board)
    assert v.codes() == ["not-in-list"] and "cross word" in v.reasons[0][1]


def test_gr_6_wrong_direction_or_start_annuls():
    v = verdict("E8 K", "CASA", rules=GREEK)
    assert v.valid and v.score == 12
    assert verdict("E8 O", "CASA", rules=GREEK).codes() == ["wrong-position"]
    assert verdict("E8", "CASA", rules=GREEK).codes() == ["bad-position"]  # the direction sign is missing


def test_gr_6_late_move_annulled_and_gr_5c():
    v = verdict("H5 O", "CASA", rules=GREEK, late=True)
    assert v.codes() == ["late"] and "GR-5C" in v.rules()


def test_gr_8_1_no_score_written_the_referee_computes_it():
    v = verdict("H5 O", "CASA", None, rules=GREEK)
    assert v.valid and v.score == 12 and v.notes == []


def test_gr_4_slip_round_player_number_letter_number_direction_word_in_greek():
    lex = Lexicon.from_words(["ΚΑΛΟΣ", "ΚΑΛΑ"], EL, name="tiny-el")
    rack = EL.parse_rack("ΚΑΛΟΣΑΤ")
    # a Greek capital names the board's row it looks like: "Η4 Ο" (eta) is row H from column 4, horizontal
    v = judge(Slip(1, "7", "Η4 Ο", "ΚΑΛΟΣ"), Board(EL), rack, lex, GREEK)
    assert v.valid and v.placement.coord.format("gr") == "H4 O"
    v = judge(Slip(1, "7", "D8 Κ", "ΚΑΛΟΣ"), Board(EL), rack, lex, GREEK)
    assert v.valid and v.placement.coord.format("gr") == "D8 K"


# --- one slip, every reason ---------------------------------------------------------------------------------


def test_every_reason_is_listed_not_only_the_first():
    v = judge(Slip(1, "", "5H", "CASO", late=True), Board(ES), ES.parse_rack("CASXYZE"), LEX, FISE)
    assert v.codes()[:2] == ["late", "unsigned"]
    assert "wrong-position" in v.codes() and "not-on-rack" in v.codes()


# --- slips stored first, in the game ------------------------------------------------------------------------


def game():
    s = Session.create(
        Journal(":memory:"),
        Settings(FISE, "es", "tiny", racks="hand"),
        LEX,
        [Player("1", "Ana"), Player("2", "Ion")],
    )
    s.draw(tiles(ES, "CASAXYZ"))
    return s


def test_slips_are_stored_before_they_are_judged_and_a_later_one_replaces_an_earlier():
    s = game()
    s.add_slips([Slip(1, "1", "H5", "SACO", 12)])
    assert [e.kind for e in s.journal.events(s.id)][-1] == "slip"
    with pytest.raises(GameError, match="has a slip for move 1 already"):
        s.add_slips([Slip(1, "1", "H5", "CASA", 12)])
    assert len(s.journal.events(s.id, "slip")) == 1
    s.add_slips([Slip(1, "1", "H5", "CASA", 12)], replace=True)
    assert len(s.journal.events(s.id, "slip")) == 2
    s.place_master()
    assert compute(s.game, LEX).line("1").points == 12


def test_slip_for_a_move_not_open_is_refused_and_nothing_is_stored():
    s = game()
    with pytest.raises(GameError, match="moves open: 1"):
        s.add_slips([Slip(1, "1", "H5", "CASA"), Slip(2, "1", "H5", "CASA")])
    assert s.journal.events(s.id, "slip") == []


def test_fise_14_slip_of_an_unknown_player_is_kept_but_credited_to_nobody():
    s = game()
    (v,) = s.add_slips([Slip(1, "9", "H5", "CASA", 12)])
    assert v.codes() == ["unknown-player"]
    s.place_master()
    r = compute(s.game, LEX)
    assert [u.slip.player for u in r.unattributed] == ["9"]


def test_fise_6b_each_player_keeps_a_record_direction_position_word_score_running_total():
    s = game()
    s.add_slips([Slip(1, "1", "H5", "CASA", 12)])
    s.place_master()
    s.draw(tiles(ES, "CASA"))
    s.add_slips([Slip(2, "1", "9E", "CASAS", 0)])
    s.place_master()
    r = compute(s.game, LEX)
    sheet = export.player_sheet(r, r.line("1"))
    lines = sheet.splitlines()
    assert lines[3].split()[:6] == ["1", "H", "H5", "CASA", "12", "12"]
    assert lines[4].split()[1:3] == ["V", "9E"]
    assert "master" in lines[2]


# --- slip files ---------------------------------------------------------------------------------------------


def test_slip_file_is_read_with_any_separator_and_optional_columns():
    slips = read_slips("player;position;word;score;late\n1;H5;CASA;12;\n2;8E;casa;;yes\n", move=3)
    assert slips[0] == Slip(3, "1", "H5", "CASA", 12)
    assert slips[1].late and slips[1].score is None and slips[1].word == "casa"
    assert read_slips("move,player,position,word\n2,5,H8,AS\n")[0].move == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("player,position\n1,H5\n", "missing column"),
        ("player,position,word,colour\n1,H5,CASA,red\n", "unknown column"),
        ("move,player,position,word,score\nx,1,H5,CASA,12\n", "line 2: move 'x'"),
        ("move,player,position,word,score\n1,1,H5,CASA,twelve\n", "line 2: score 'twelve'"),
        ("move,player,position,word,late\n1,1,H5,CASA,maybe\n", "late 'maybe'"),
        ("move,player,position,word\n1,1,H5,CASA,extra\n", "5 fields"),
    ],
)
def test_bad_slip_files_are_refused_with_the_line_and_the_reason(text, message):
    with pytest.raises(SlipFileError, match=message):
        read_slips(text)


def test_a_bad_file_names_every_bad_line():
    with pytest.raises(SlipFileError) as e:
        read_slips("move,player,position,word,score\nx,1,H5,CASA,1\n1,1,H5,CASA,y\n")
    assert "line 2" in str(e.value) and "line 3" in str(e.value)


# --- whatever is written, a verdict; whatever is in a file, slips or a reason ------------------------------

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=24)


@given(position=TEXT, word=TEXT, player=TEXT, score=st.one_of(st.none(), st.integers(-1000, 1000)))
def test_any_slip_gets_a_verdict_never_an_exception(position, word, player, score):
    board = played("H5 CASA")
    for rules in (FISE, GREEK):
        v = judge(Slip(2, player, position, word, score), board, ES.parse_rack("CASA?XY"), LEX, rules)
        assert v.score >= 0 and (v.valid or v.reasons)


@given(st.text(max_size=300))
def test_any_slip_file_gives_slips_or_a_reason(text):
    try:
        read_slips(text, move=1)
    except SlipFileError as e:
        assert str(e)


@given(st.text(max_size=300))
def test_any_gcg_file_gives_moves_or_a_reason(text):
    try:
        gcg.read(text, ES)
    except gcg.GcgError as e:
        assert str(e)


def _slip_state(g):
    return (dict(g.slips), dict(g.slip_seqs), dict(g.slip_keys), list(g.late_apart), g.last_seq, g.results_seq)


def test_fise_5_slips_folded_tentatively_and_taken_back_leave_the_state_as_it_was(tmp_path):
    """A group commit decides its batch on the worker's state before the journal says it is stored (one round
    trip); when it is not, every slip it folded in is taken back: new, replacing, keyed, late kept apart."""
    from arbitru.journal.store import Event

    with Journal(tmp_path / "g.db") as j:
        s = Session.create(j, Settings(FISE, "es", "tiny", seed="1"), LEX, [Player(str(n)) for n in (1, 2, 3)])
        s.lexicon = LEX
        s.draw()
        s.hand_in(Slip(1, "1", "H8", "CASA"), 0.0, "k1")
        s.hand_in(Slip(1, "2", "H8", "SACA"), 0.0)
        g = s.game
        before = _slip_state(g)
        seq = g.last_seq
        tentative = [
            Slip(1, "1", "8H", "CASA"),  # replaces his slip
            Slip(1, "3", "H8", "AS"),  # a new slot
            Slip(1, "2", "H7", "ASA", late=True),  # late: kept apart from his slip in time
        ]
        g.fold_tentatively()
        for n, slip in enumerate(tentative, 1):
            data = slip.to_payload()
            if n == 1:
                data["key"] = "k1-again"
            g.apply(Event(seq + n, "slip", data, ""))
        assert _slip_state(g) != before and len(g.late_apart) == 1 and ("1", "k1-again") in g.slip_keys
        with pytest.raises(Exception, match="only slips"):
            g.apply(Event(seq + 4, "ruling", {"word": "CASA", "valid": True}, ""))
        g.take_back()
        assert _slip_state(g) == before
        # kept: the same slips stay, and what follows folds as usual
        g.fold_tentatively()
        g.apply(Event(seq + 1, "slip", tentative[1].to_payload(), ""))
        g.keep()
        assert g.slips[(1, "3")] == tentative[1] and g.last_seq == seq + 1
        g.apply(Event(seq + 2, "ruling", {"word": "CASA", "valid": True}, ""))
        assert g.last_seq == seq + 2
