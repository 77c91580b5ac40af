"""The variants of RO-8: avocalic (8.1), exclusive scrabble endurance (8.2) and total (8.3), blind (8.4).

The exclusive variants need groups that form 7-letter words, so they use the official list (installed by the
set-up, as for every test that needs it: a missing list fails these tests).
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from anticipation_support import RO, csv_text, groups_with, new_game, play, verdict
from arbitru.engine.lexicon import Lexicon
from arbitru.formats.anticipation.draw import (
    Draw,
    GroupRules,
    draw_groups,
    group_problems,
    stand_alone_scrabble,
)
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.variants import Settings
from arbitru.journal.store import Journal
from test_anticipation_correction import AL, GROUPS, LOTS, row


@cache
def official() -> Lexicon:
    from arbitru.lexicons.catalog import default_name, load

    return load(default_name("ro"))


@cache
def endurance_draw() -> Draw:
    return draw_groups(GroupRules(RO, official(), variant="endurance"), seed=2)


def exclusive_game(tmp_path, variant: str) -> AnticipationGame:
    lex = official()
    settings = Settings(variant=variant, lexicon=lex.name)
    game = AnticipationGame.create(Journal(tmp_path / "x.db"), settings, endurance_draw(), lexicon=lex)
    game.draw_lot(1, 2)
    game.draw_lot(2, 3)
    return game


def scrabble(group: int) -> str:
    return RO.format(stand_alone_scrabble(RO, official(), endurance_draw().groups[group - 1]))


def short_word(group: int) -> str:
    letters = [RO.label(t) for t in endurance_draw().groups[group - 1] if t]
    return next("".join(p) for p in itertools.permutations(letters, 3) if "".join(p) in official())


# --- RO-8.1 -------------------------------------------------------------------------------------------------


def test_ro_8_1_avocalic_groups_completed_with_vowels_from_the_stock(tmp_path):
    # group 1 AL is announced as L: the A comes from the stock; group 2 BCDEIRT is B C D R T and up to 2
    # vowels
    fixed = {1: "AL", 2: "BCDEIRT", 3: "ACEINRT"}
    rows = [row(1, "H7", "AL", 4, 4), row(2, "H6", "CAL", 3)]
    _, st = play(tmp_path, fixed, LOTS, rows, variant="avocalic")
    assert verdict(st, "Ana", 1).status == "valid" and verdict(st, "Ana", 2).status == "valid"
    left = st.results["Ana"].vowels_left
    assert left["A"] == 10 and left["E"] == 9  # one A taken in turn 1; CAL took no vowel
    assert sum(left.values()) == 41 - 1


def test_ro_8_1_vowels_beyond_the_group_size_are_refused(tmp_path):
    # group 3 is BCDGRST: no vowel drawn, so it cannot be completed with vowels (7 letters already)
    fixed = {1: "AL", 2: "BDEIOTU", 3: "BCDGRST"}
    _, st = play(
        tmp_path,
        fixed,
        LOTS,
        [AL, row(2, "H6", "CAL", 3), row(2, "7E", "CASA", 3, player="Dan", table=2), ("Dan", 2, *AL[2:])],
        variant="avocalic",
    )
    assert verdict(st, "Ana", 2).status == "valid"  # CAL: the C, no vowel
    v = verdict(st, "Dan", 2)
    assert v.status == "invalid" and "vowels from the stock" in v.reason


def test_ro_8_1_letters_of_a_cancelled_placement_are_lost(tmp_path):
    fixed = {1: "AL", 2: "BDEIOTU", 3: "ACEINRT", 4: "AEINSTV"}
    rows = [AL, row(2, "8H", "LAC", 3), row(3, "", "", note="Anulez turul 2")]
    _, st = play(tmp_path, fixed, LOTS, rows, variant="avocalic")
    assert verdict(st, "Ana", 2).status == "cancelled"
    assert any("lost (RO-8.1)" in n for n in verdict(st, "Ana", 2).notes)
    assert st.results["Ana"].vowels_left["A"] == 11 - 2  # AL's A and LAC's A: not given back


# --- RO-8.2 -------------------------------------------------------------------------------------------------


def test_ro_8_2_endurance_draw_groups_all_form_a_scrabble():
    assert group_problems(GroupRules(RO, official(), variant="endurance"), endurance_draw().groups) == []


def test_ro_8_2_endurance_drop_out_order(tmp_path):
    game = exclusive_game(tmp_path, "endurance")
    w1, w2, short = scrabble(2), scrabble(3), short_word(2)
    rows = [
        ("Ana", 1, 1, "H8", w1, "", "", ""),
        ("Ana", 1, 2, "A1", w2, "", "", ""),  # not connected: invalid
        ("Eva", 2, 1, "H8", w1, "", "", ""),
        ("Eva", 2, 2, "", "PAS", "", "", ""),
        ("Dan", 3, 1, "H8", short, "", "", ""),  # not all 7 letters
        ("Ion", 4, 2, "H8", w2, "", "", ""),
    ]  # no slip in turn 1
    game.import_slips_csv(csv_text(rows))
    st = game.replay()
    assert verdict(st, "Ana", 1).status == "valid" and len(verdict(st, "Ana", 1).new) == 7
    dan = verdict(st, "Dan", 1)
    assert (dan.status, dan.rule) == ("invalid", "RO-8.2") and "all 7 letters" in dan.reason
    assert {p: st.results[p].dropped_out for p in ("Ana", "Eva", "Dan", "Ion")} == {
        "Ana": 2,
        "Eva": 2,
        "Dan": 1,
        "Ion": 1,
    }
    assert st.results["Ion"].slips[2].status == "void"  # no correction after dropping out
    assert [(r.player, r.place) for r in st.ranking] == [("Ana", 1), ("Eva", 1), ("Dan", 3), ("Ion", 3)]


# --- RO-8.3 -------------------------------------------------------------------------------------------------


def test_ro_8_3_total_all_seven_letters_or_pas(tmp_path):
    game = exclusive_game(tmp_path, "total")
    w1, short = scrabble(2), short_word(2)
    rows = [
        ("Ana", 1, 1, "H8", w1, "", "", ""),
        ("Ana", 1, 2, "", "PAS", "", "", ""),
        ("Dan", 2, 1, "H8", short, "", "", ""),
    ]
    game.import_slips_csv(csv_text(rows))
    st = game.replay()
    ana = verdict(st, "Ana", 1)
    assert ana.status == "valid" and ana.points > 50  # the 50-point bonus (G-4)
    assert st.results["Ana"].slips[2].passed and st.results["Ana"].dropped_out is None
    dan = verdict(st, "Dan", 1)
    assert (dan.status, dan.rule, dan.points) == ("invalid", "RO-8.3", 0)
    assert [(r.player, r.place) for r in st.ranking] == [("Ana", 1), ("Dan", 2)]


# --- RO-8.4 -------------------------------------------------------------------------------------------------


def test_ro_8_4_blind_each_player_plays_his_own_groups(tmp_path):
    game = new_game(tmp_path, GROUPS, variant="blind")
    game.set_blind_groups("Ana", groups_with({1: "AL", 2: "ACEINRT"}))
    game.set_blind_groups("Dan", groups_with({1: "NU", 2: "BDEIOTU"}))
    game.draw_lot(1, 2)
    rows = [
        ("Ana", 1, 1, "H8", "CARE", 12, 12, ""),
        ("Dan", 2, 1, "H8", "CARE", 12, 12, ""),
        ("Eva", 3, 1, "H8", "CARE", 12, 12, ""),
    ]
    game.import_slips_csv(csv_text(rows))
    st = game.replay()
    assert verdict(st, "Ana", 1).status == "valid"  # her group 2 has C A R E
    v = verdict(st, "Dan", 1)
    assert v.status == "invalid" and "letters not from group 2" in v.reason
    assert st.results["Eva"].slips[1].status == "void"
    assert "no sealed groups" in st.results["Eva"].slips[1].reason


def test_ro_8_4_blind_game_has_no_common_draw(tmp_path):
    from arbitru.formats.anticipation.draw import GroupsError

    with pytest.raises(GroupsError, match=r"RO-8\.4"):
        AnticipationGame.create(
            Journal(tmp_path / "b.db"),
            Settings(variant="blind", lexicon="x"),
            Draw(groups_with({1: "AL"}), "manual"),
        )
