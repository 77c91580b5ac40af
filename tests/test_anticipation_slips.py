"""Slips as written (RO-3.3, RO-5.3, RO-5.6): the CSV file, the notes, file errors that store nothing."""

from __future__ import annotations

import re

import pytest

from anticipation_support import COLUMNS, new_game
from arbitru.formats.anticipation.slips import SlipFileError, parse_notes, read_slips_csv
from test_anticipation_correction import GROUPS, LOTS


def test_rows_of_a_player_and_turn_make_one_slip():
    text = f"{COLUMNS}\nAna,1,1,H7,AL,4,,\nDan,2,1,H7,LA,4,4,\nAna,1,1,8G,CASA,10,14,\nAna,1,2,H6,CAL,3,,\n"
    slips = read_slips_csv(text)
    assert [(s.player, s.turn, len(s.rows)) for s in slips] == [("Ana", 1, 2), ("Dan", 1, 1), ("Ana", 2, 1)]
    assert [r.line for r in slips[0].rows] == [2, 4]
    assert slips[0].first("turn_total") == "14"


def test_ro_5_3_notes():
    kinds = [
        (n.kind, n.turns, n.words)
        for n in parse_notes(
            "ANULEZ TURUL 3 | Anulez tur 4; anulez turul 5 și 6; Verificare; verificare CAsA, ASE; PAS; hello"
        )
    ]
    assert kinds == [
        ("cancel", (3,), ()),
        ("cancel", (4,), ()),
        ("cancel", (5, 6), ()),
        ("verify", (), ()),
        ("verify", (), ("CAsA", "ASE")),
        ("pass", (), ()),
        ("other", (), ()),
    ]


def test_ro_8_3_pas_in_the_placement_field():
    (slip,) = read_slips_csv(f"{COLUMNS}\nAna,1,3,,PAS,,,\n")
    assert slip.placements() == [] and [n.kind for n in slip.notes()] == ["pass"]
    (slip,) = read_slips_csv(f"{COLUMNS}\nAna,1,3,H8,PAS,10,,\n")  # with a position PAS is the word
    assert len(slip.placements()) == 1


def test_turn_collected_from_the_option_or_column_or_written_number():
    assert read_slips_csv(f"{COLUMNS}\nAna,1,5,H7,AL,4,,\n", turn=6)[0].turn == 6
    header = COLUMNS + ",collected"
    assert read_slips_csv(f"{header}\nAna,1,5,H7,AL,4,,,7\n")[0].turn == 7
    assert read_slips_csv(f"{COLUMNS}\nAna,1,5,H7,AL,4,,\n")[0].turn == 5
    unknown = read_slips_csv(f"{COLUMNS}\nAna,1,17,H7,AL,4,,\nAna,1,,H7,AL,4,,\n")
    assert [(s.turn, s.written_turn) for s in unknown] == [(None, "17"), (None, "")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the file is empty"),
        ("player,table,turn,position,word,score,note\n", "line 1: missing field(s) turn_total"),
        (f"{COLUMNS},scor\n", "line 1, column 9: unknown field 'scor'"),
        (f"{COLUMNS}\nAna,1,1,H7,AL,4,\n", "line 2: 7 fields, the header has 8"),
        (f"{COLUMNS}\nAna,1,1,H7,AL,4,,\n,1,2,H6,CAL,3,,\n", "line 3, field 'player': empty"),
        (f"{COLUMNS},collected\nAna,1,1,H7,AL,4,,,x\n", "line 2, field 'collected': 'x' is not a turn"),
        (f'{COLUMNS}\nAna,1,1,H7,AL,4,,"a\nnote"\nDan,2,1,H7,AL,4,,,,\n', "line 4: 10 fields"),
    ],
)
def test_bad_files_name_the_line_and_field(text, message):
    with pytest.raises(SlipFileError, match=re.escape(message)):
        read_slips_csv(text)


def test_bad_file_stores_nothing(tmp_path):
    game = new_game(tmp_path, GROUPS, LOTS, seating=[("Ana", 1, "Ana Pop")])
    before = len(game.journal.events(game.id))
    with pytest.raises(SlipFileError, match="line 3, field 'player': 'Dan' is not in the seating"):
        game.import_slips_csv(f"{COLUMNS}\nAna,1,1,H7,AL,4,,\nDan,2,1,H7,AL,4,,\n")
    assert len(game.journal.events(game.id)) == before


def test_malformed_content_is_stored_not_refused(tmp_path):
    game = new_game(tmp_path, GROUPS, LOTS)
    text = f"{COLUMNS}\nAna,,,,,,,\nAna,x,2,??,c@sa,lots,?,Anulez turul\nAna,1,99,H7,AL,4,,\n"
    seqs = game.import_slips_csv(text)
    assert len(seqs) == 3
    state = game.replay()
    r = state.results["Ana"]
    assert r.unattributed and len(r.unattributed) == 2  # no turn number, and turn 99
    v = r.slips[2].placements[0]
    assert v.status == "invalid" and v.rule == "RO-6.1a"
    assert "cannot be read" in r.slips[2].cancellations[0]["text"]
