"""Correcting each player's own board (RO-5.3, RO-6.1, RO-6.2, RO-6.3): one test per rule, named after it.

The boards are small and computed by hand in the comments (letter values RO-3.1, premiums G-1).
"""

from __future__ import annotations

from anticipation_support import play, verdict

# group 1 AL; the lots play groups 2, 3, 4, ... in turns 1, 2, 3, ...
GROUPS = {1: "AL", 2: "BDEIOTU", 3: "ACEINRT", 4: "AEINSTV", 5: "ADEIORT", 6: "ACEILNO"}
LOTS = list(range(2, 16))


def row(turn, position, word, score="", total="", note="", player="Ana", table=1):
    return (player, table, turn, position, word, score, total, note)


# turn 1: H7 AL = (A 1 + L 1 on the centre DW) × 2 = 4
AL = row(1, "H7", "AL", 4, 4)
# turn 2: H6 CAL, the C on H6: C 1 + A 1 + L 1 = 3
CAL = row(2, "H6", "CAL", 3)
# turn 3: 9G VEST: V on G9 (DL) 16 + E on H9 1 + S on I9 (DL) 2 + T 1 = 20, and the cross word CALE 4: 24
VEST = row(3, "9G", "VEST", 24)


def test_ro_5_3_turn1_two_placements(tmp_path):
    # 7G BAT with group 2: B on G7 (DL) 18 + A 1 + T on I7 (DL) 2 = 21
    _, st = play(tmp_path, GROUPS, LOTS, [row(1, "H7", "AL", 4, 25), row(1, "7G", "BAT", 21, 25)])
    first, second = verdict(st, "Ana", 1, 1), verdict(st, "Ana", 1, 2)
    assert (first.status, first.group, first.points) == ("valid", 1, 4)
    assert (second.status, second.group, second.points) == ("valid", 2, 21)
    sv = st.results["Ana"].slips[1]
    assert sv.points == 25 and sv.warning is None
    assert st.results["Ana"].total == 25


def test_ro_5_3_turn1_one_placement_with_either_group(tmp_path):
    # H8 BOT with group 2 alone: (B 9 + O 1 + T 1) × 2 = 22; Dan plays group 1 alone
    _, st = play(
        tmp_path, GROUPS, LOTS, [row(1, "H8", "BOT", 22, 22), row(1, "H7", "AL", 4, 4, player="Dan", table=2)]
    )
    assert (verdict(st, "Ana", 1).group, verdict(st, "Ana", 1).points) == (2, 22)
    assert (verdict(st, "Dan", 1).group, verdict(st, "Dan", 1).points) == (1, 4)


def test_ro_5_3_two_placements_the_first_is_group_1s(tmp_path):
    _, st = play(tmp_path, GROUPS, LOTS, [row(1, "H8", "BOT", 22, 26), row(1, "I7", "LA", 4, 26)])
    first = verdict(st, "Ana", 1, 1)
    assert (first.status, first.rule) == ("invalid", "RO-6.1b")
    assert "letters not from group 1 (AL)" in first.reason


def test_ro_5_3_leftover_letters_are_out_of_the_game(tmp_path):
    # turn 1 uses only group 1; group 2's B cannot be used in turn 2 (group 3)
    _, st = play(tmp_path, GROUPS, LOTS, [AL, row(2, "7G", "BAT", 21)])
    v = verdict(st, "Ana", 2)
    assert (v.status, v.rule, v.points) == ("invalid", "RO-6.1b", 0)
    assert "letters not from group 3 (ACEINRT): B" in v.reason


def test_ro_6_1_a_main_word_not_in_the_list(tmp_path):
    _, st = play(tmp_path, GROUPS, LOTS, [row(1, "H8", "BTO", 22, 22)])
    v = verdict(st, "Ana", 1)
    assert (v.status, v.rule, v.points) == ("invalid", "RO-6.1a", 0)
    assert v.reason == "main word BTO is not in the official list (test-ro)"
    assert st.results["Ana"].board.is_empty()


def test_ro_6_1_a_cross_word_not_in_the_list(tmp_path):
    # 9G AI puts I on H9: the cross word ALI is not a word, and no position one error away fits
    _, st = play(tmp_path, GROUPS, [2, 4, 3, *range(5, 16)], [AL, row(2, "9G", "AI", 3)])
    v = verdict(st, "Ana", 2)
    assert (v.status, v.rule) == ("invalid", "RO-6.1a")
    assert v.reason.startswith("cross word ALI is not in test-ro")


def test_ro_6_1_b_not_connected(tmp_path):
    _, st = play(tmp_path, GROUPS, [2, 4, 3, *range(5, 16)], [AL, row(2, "E4", "AI", 2)])
    v = verdict(st, "Ana", 2)
    assert (v.status, v.rule) == ("invalid", "RO-6.1b")
    assert v.reason.startswith("AI does not touch any tile on the board")


def test_ro_6_1_b_first_placement_not_on_the_centre(tmp_path):
    # AL fits the empty board through H8 in several ways, none one error away from A1: the written one is
    # judged
    _, st = play(tmp_path, GROUPS, LOTS, [row(1, "A1", "AL", 4, 4)])
    v = verdict(st, "Ana", 1)
    assert (v.status, v.rule) == ("invalid", "RO-6.1b")
    assert v.reason.startswith("the first placement must cover the centre square H8")


def test_ro_6_1_b_invalid_placement_stays_off_the_board(tmp_path):
    # turn 2 is invalid, so turn 3 is judged on the board without it: VEST's cross word is ALE, not CALE
    _, st = play(tmp_path, GROUPS, LOTS, [AL, row(2, "H6", "CAX", 3), row(3, "9G", "VEST", 23)])
    assert verdict(st, "Ana", 2).status == "invalid"
    v = verdict(st, "Ana", 3)
    assert (v.status, v.points) == ("valid", 23)
    assert st.results["Ana"].total == 27


def test_ro_6_1_c_both_signs_wrong(tmp_path):
    _, st = play(tmp_path, GROUPS, LOTS, [AL, CAL, row(3, "11F", "VEST", 24)])
    v = verdict(st, "Ana", 3)
    assert (v.status, v.rule, v.points) == ("invalid", "RO-6.1c", 0)
    assert "fits the player's board only at 9G, not at 11F" in v.reason


def test_ro_6_1_c_unreadable_signs(tmp_path):
    _, st = play(tmp_path, GROUPS, LOTS, [AL, CAL, row(3, "Z99", "VEST", 24)])
    assert (verdict(st, "Ana", 3).status, verdict(st, "Ana", 3).rule) == ("invalid", "RO-6.1c")


def test_ro_6_1_d_missing_sign(tmp_path):
    rows = [AL, CAL, row(3, "G", "VEST", 24)]
    for player, table, position in (("Dan", 2, "9"), ("Ion", 3, "")):
        rows += [
            (player, table, *AL[2:]),
            (player, table, *CAL[2:]),
            row(3, position, "VEST", 24, player=player, table=table),
        ]
    _, st = play(tmp_path, GROUPS, LOTS, rows)
    for player in ("Ana", "Dan", "Ion"):
        v = verdict(st, player, 3)
        assert (v.status, v.rule, v.points) == ("invalid", "RO-6.1d", 0), player
        assert "a coordinate sign is missing" in v.reason


def test_ro_6_3_a_inverted_signs(tmp_path):
    _, st = play(tmp_path, GROUPS, LOTS, [AL, CAL, row(3, "G9", "VEST", 24)])
    v = verdict(st, "Ana", 3)
    assert (v.status, v.rule, v.position, v.points) == ("corrected", "RO-6.3a", "9G", 24)
    assert v.penalty == 20
    assert st.results["Ana"].total == 4 + 3 + 24 - 20


def test_ro_6_3_b_one_sign_wrong(tmp_path):
    rows = [AL, CAL, row(3, "10G", "VEST", 24)]
    rows += [("Dan", 2, *AL[2:]), ("Dan", 2, *CAL[2:]), row(3, "9P", "VEST", 24, player="Dan", table=2)]
    _, st = play(tmp_path, GROUPS, LOTS, rows)
    for player in ("Ana", "Dan"):  # 10G: column wrong; 9P: row P does not exist
        v = verdict(st, player, 3)
        assert (v.status, v.rule, v.position, v.points, v.penalty) == ("corrected", "RO-6.3b", "9G", 24, 20)


def test_ro_6_3_penalty_capped_by_the_placements_value(tmp_path):
    # written H8 LAC, meant 8H: L (on the board) + A on I8 + C on J8 = 3 points, so the penalty is 3
    _, st = play(tmp_path, {1: "AL", 3: "ACDEIOR", 4: "AELNOSU"}, LOTS, [AL, row(2, "H8", "LAC", 3)])
    v = verdict(st, "Ana", 2)
    assert (v.status, v.rule, v.position, v.points, v.penalty) == ("corrected", "RO-6.3a", "8H", 3, 3)
    assert st.results["Ana"].total == 4 + 3 - 3


def test_ro_6_3_penalty_capped_by_dependent_placements(tmp_path):
    # turn 3 J8 CAL is formed with the help of turn 2's C: C 1 + A 1 + L on J10 (TL) 3 = 5; cap 3 + 5 = 8
    _, st = play(
        tmp_path,
        {1: "AL", 3: "ACDEIOR", 4: "AELNOSU"},
        LOTS,
        [AL, row(2, "H8", "LAC", 3), row(3, "J8", "CAL", 5)],
    )
    v = verdict(st, "Ana", 2)
    assert (v.penalty, verdict(st, "Ana", 3).points) == (8, 5)
    assert any("penalty capped at 8" in n for n in v.notes)
    assert st.results["Ana"].total == 4 + 3 + 5 - 8


def test_ro_6_3_penalty_apart_from_the_warnings(tmp_path):
    # a penalised slip that also has a wrong score gets a warning too
    _, st = play(tmp_path, GROUPS, LOTS, [AL, CAL, row(3, "G9", "VEST", 25)])
    sv = st.results["Ana"].slips[3]
    assert sv.warning.rule == "RO-6.2d" and verdict(st, "Ana", 3).penalty == 20


def test_ro_6_2_a_table_or_name_on_the_turn_1_slip(tmp_path):
    seating = [("Ana", 1, "Ana Pop"), ("Dan", 2, "Dan Ion"), ("Ion", 3, "Ion Vas")]
    rows = [
        row(1, "H7", "AL", 4, 4, table=""),
        row(1, "H7", "AL", 4, 4, player="Dan", table=5),
        row(1, "H7", "AL", 4, 4, player="Ion", table=3),
    ]
    _, st = play(tmp_path, GROUPS, LOTS, rows, seating=seating)
    assert st.results["Ana"].slips[1].warning.rule == "RO-6.2a"
    assert "table number is missing" in st.results["Ana"].slips[1].warning.text
    assert st.results["Dan"].slips[1].warning.text == (
        "wrong table number on the turn-1 slip: 5, the player sits at table 2"
    )
    assert st.results["Ion"].slips[1].warning is None


def test_ro_6_2_a_name_on_the_turn_1_slip(tmp_path):
    from anticipation_support import new_game

    game = new_game(tmp_path, GROUPS, LOTS, seating=[("Ana", 1, "Ana Pop"), ("Dan", 2, "Dan Ion")])
    text = (
        "player,table,turn,position,word,score,turn_total,note,name\n"
        "Ana,1,1,H7,AL,4,4,,\nDan,2,1,H7,AL,4,4,,Dan Ionescu\n"
    )
    game.import_slips_csv(text)
    st = game.replay()
    assert st.results["Ana"].slips[1].warning.text == "the player's name is missing on the turn-1 slip"
    assert st.results["Dan"].slips[1].warning.rule == "RO-6.2a"


def test_ro_6_2_b_table_or_turn_number_missing(tmp_path):
    from anticipation_support import new_game

    game = new_game(tmp_path, GROUPS, LOTS)
    game.import_slips_csv("player,table,turn,position,word,score,turn_total,note\nAna,1,1,H7,AL,4,4,\n")
    game.import_slips_csv("player,table,turn,position,word,score,turn_total,note\nAna,,2,H6,CAL,3,,\n")
    game.import_slips_csv(
        "player,table,turn,position,word,score,turn_total,note\nAna,1,,9G,VEST,24,,\n", turn=3
    )
    st = game.replay()
    assert st.results["Ana"].slips[2].warning.text == "the table number is missing"
    assert st.results["Ana"].slips[3].warning.text == "the turn number is missing"
    assert (st.results["Ana"].slips[2].warning.rule, st.results["Ana"].slips[3].warning.rule) == (
        "RO-6.2b",
    ) * 2


def test_ro_6_2_c_unmarked_blank(tmp_path):
    # 7E CASA with group ACEIRT?: the S is the blank, on G7 (DL) worth 0: C 1 + A 1 + s 0 + A 1 = 3
    fixed = {1: "AL", 3: "ACEIRT?"}
    rows = [
        AL,
        row(2, "7E", "CASA", 3),
        row(1, "H7", "AL", 4, 4, player="Dan", table=2),
        row(2, "7E", "CAsA", 3, player="Dan", table=2),
    ]
    _, st = play(tmp_path, fixed, LOTS, rows)
    ana, dan = verdict(st, "Ana", 2), verdict(st, "Dan", 2)
    assert (ana.status, ana.word, ana.points, ana.unmarked_blanks) == ("valid", "CAsA", 3, 1)
    assert st.results["Ana"].slips[2].warning.rule == "RO-6.2c"
    assert (dan.status, dan.points) == ("valid", 3) and st.results["Dan"].slips[2].warning is None


def test_ro_6_2_d_score_wrong_or_missing(tmp_path):
    rows = [
        row(1, "H7", "AL", 4, 25),
        row(1, "7G", "BAT", 20, 25),  # 21, not 20
        row(1, "H7", "AL", 4, "", player="Dan", table=2),
        row(1, "7G", "BAT", 21, "", player="Dan", table=2),
        row(1, "H7", "AL", "", 4, player="Ion", table=3),  # one placement: the turn total is its score
        row(1, "H7", "AL", "", "", player="Eva", table=4),
    ]
    _, st = play(tmp_path, GROUPS, LOTS, rows)
    assert st.results["Ana"].slips[1].warning.text == "the score of BAT is 21, not 20"
    assert st.results["Dan"].slips[1].warning.text == "the turn total is missing (it is 25)"
    assert st.results["Ion"].slips[1].warning is None
    assert st.results["Eva"].slips[1].warning.text == "the score of AL is missing (it is 4)"
    assert all(f.rule == "RO-6.2d" for p in ("Ana", "Dan", "Eva") for f in st.results[p].slips[1].faults)


def test_ro_6_2_one_warning_per_slip(tmp_path):
    _, st = play(tmp_path, GROUPS, LOTS, [AL, row(2, "H6", "CAL", 5, table="")])
    sv = st.results["Ana"].slips[2]
    assert [f.rule for f in sv.faults] == ["RO-6.2b", "RO-6.2d"]
    assert sv.warning.rule == "RO-6.2b" and sv.warning_number == 1


def test_ro_6_2_first_three_warnings_free(tmp_path):
    rows = [
        row(1, "H7", "AL", 5, 5),
        row(2, "H6", "CAL", 2),
        row(3, "9G", "VEST", 20),
        row(4, "6F", "ARC", ""),
        row(5, "F5", "LAC", 1),
    ]
    _, st = play(tmp_path, GROUPS, LOTS, rows)
    r = st.results["Ana"]
    assert [r.slips[t].warning_cost for t in range(1, 6)] == [0, 0, 0, 5, 5]
    assert r.warning_costs == 10
    assert r.total == 4 + 3 + 24 + 5 + 3 - 10


CASCADE = [
    AL,
    CAL,
    VEST,
    row(4, "6F", "ARC", 5),  # A on F6 (TL) 3 + R 1 + C 1, formed with turn 2's C
    row(5, "F5", "LAC", 3),
]  # through turn 4's A


def test_ro_5_3_cancellation_cascades(tmp_path):
    _, st = play(tmp_path, GROUPS, LOTS, [*CASCADE, row(6, "", "", note="Anulez turul 2")])
    r = st.results["Ana"]
    assert [verdict(st, "Ana", t).status for t in range(1, 6)] == [
        "valid",
        "cancelled",
        "valid",
        "cancelled",
        "cancelled",
    ]
    assert verdict(st, "Ana", 2).reason == "cancelled by the player in turn 6 (Anulez turul 2)"
    assert "formed with the help of turn 2" in verdict(st, "Ana", 4).reason
    assert "formed with the help of turn 2" in verdict(st, "Ana", 5).reason
    # turn 3 only touched it: its cross word CALE is now ALE, one point less
    assert verdict(st, "Ana", 3).points == 23 and verdict(st, "Ana", 3).score == 24
    assert any("rescored 24 → 23" in n for n in verdict(st, "Ana", 3).notes)
    assert r.total == 4 + 23
    text = r.slips[6].cancellations[0]["text"]
    assert (
        text
        == "turn 2 cancelled; turn 3 rescored 24 → 23; turn 4 cancelled with it; turn 5 cancelled with it"
    )
    assert r.board.to_text().splitlines()[7] == "......ALE......"


def test_ro_5_3_cancellation_then_play_on_the_freed_squares(tmp_path):
    # turn 3 cancels turn 2 (H6 CAL) and plays CAL again on the squares it freed, with group 6's C
    _, st = play(
        tmp_path,
        GROUPS,
        [2, 3, 6, *range(4, 6), *range(7, 16)],
        [AL, CAL, row(3, "H6", "CAL", 3, note="Anulez turul 2")],
    )
    assert verdict(st, "Ana", 2).status == "cancelled"
    assert (verdict(st, "Ana", 3).status, verdict(st, "Ana", 3).points) == ("valid", 3)


def test_ro_5_3_cancelling_nothing(tmp_path):
    _, st = play(tmp_path, GROUPS, LOTS, [AL, row(2, "H6", "CAL", 3, note="Anulez turul 9; Anulez turul X")])
    sv = st.results["Ana"].slips[2]
    assert [c["done"] for c in sv.cancellations] == [False, False]
    assert "turn 9 has not been played before this slip" in sv.cancellations[0]["text"]
    assert "cannot be read" in sv.cancellations[1]["text"]
    assert verdict(st, "Ana", 2).status == "valid"


def test_ro_5_3_verification_requests(tmp_path):
    rows = [row(1, "H7", "AL", 4, 4, note="Verificare"), row(2, "H6", "CAL", 3, note="Verificare: CAL, CALX")]
    _, st = play(tmp_path, GROUPS, LOTS, rows)
    assert st.results["Ana"].slips[1].verifications == [{"word": "AL", "valid": True, "answer": "AL: valid"}]
    answers = [v["answer"] for v in st.results["Ana"].slips[2].verifications]
    assert answers == ["CAL: valid", "CALX: NOT in test-ro"]


def test_ro_5_5_i_several_positions_fit(tmp_path):
    # H5 CAL for H6 CAL: one sign off and only H6 fits, so nothing to verify at the table
    _, st = play(tmp_path, GROUPS, LOTS, [AL, row(2, "H5", "CAL", 3)])
    v = verdict(st, "Ana", 2)
    assert (v.status, v.rule, v.position) == ("corrected", "RO-6.3b", "H6")
    assert not any("verify the player's grid" in n for n in v.notes)


def test_malformed_slips_are_judged_never_a_crash(tmp_path):
    rows = [
        row(1, "H7", "AL", "4?", "4"),  # an unreadable score: a wrong score (RO-6.2d)
        row(2, "H6", "C4L", 3),  # a digit in the word
        row(3, "", "", note="gibberish"),  # no placement, a note nobody understands
        row(4, "Q0", "VEST", 24),  # nonsense position
        row(5, "H6", "CAL", 3),
        row(5, "I9", "AT", 2),  # two placements in turn 5
        row(1, "H7", "AL", 4, 4, player="Dan", table=2),
        row(1, "I7", "LA", 4, 8, player="Dan", table=2),
        row(1, "G7", "LA", 4, 12, player="Dan", table=2),  # three placements in turn 1
        row(17, "H7", "AL", 4, 4, player="Ion", table=3),  # a turn that does not exist
        row(6, "H7", "alx", 0, player="Eva", table=4),  # lower case and a foreign letter
    ]
    _, st = play(tmp_path, GROUPS, LOTS, rows)
    ana = st.results["Ana"]
    assert ana.slips[1].warning.rule == "RO-6.2d"
    assert (verdict(st, "Ana", 2).rule, verdict(st, "Ana", 2).status) == ("RO-6.1a", "invalid")
    assert "cannot be read" in verdict(st, "Ana", 2).reason
    assert ana.slips[3].notes == ["note not understood, no effect: 'gibberish'"]
    assert verdict(st, "Ana", 4).rule == "RO-6.1c"
    assert verdict(st, "Ana", 5, 2).rule == "RO-5.3" and "only 1 placement" in verdict(st, "Ana", 5, 2).reason
    assert verdict(st, "Dan", 1, 3).rule == "RO-5.3"
    ion = st.results["Ion"]
    assert ion.unattributed and ion.unattributed[0].status == "void"
    assert "turn '17' does not exist" in ion.unattributed[0].reason
    assert verdict(st, "Eva", 6).status == "invalid"
