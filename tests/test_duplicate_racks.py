"""Duplicate racks and rule sets: FISE-3, FISE-4, FISE-5, FISE-10, FISE-13, GR-3, GR-5A, GR-5B, GR-5C, GR-8.2
and the Romanian practice rule, checked on constructed bags and on short games."""

from __future__ import annotations

from collections import Counter

import pytest

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import BLANK, Bag, alphabet
from arbitru.errors import JournalError
from arbitru.formats.duplicate import racks
from arbitru.formats.duplicate.announce import clock_schedule
from arbitru.formats.duplicate.game import GameError, Session, Settings
from arbitru.formats.duplicate.racks import Draw, RackError, draw_seeded, hand_draw, judge, mix_of
from arbitru.formats.duplicate.rulesets import RuleSet, RuleSetError, ruleset
from arbitru.journal.store import Journal

ES = alphabet("es")
EL = alphabet("el")
RO = alphabet("ro")


def tiles(alpha, text):
    return list(racks.parse_tiles(alpha, text))


def bag_of(alpha, text, seed=0):
    return Bag(alpha, seed=seed, tiles=tiles(alpha, text))


def count_all(bag, rack):
    return Counter([*bag.tiles, *rack])


def session(rules, lang, words, **settings):
    alpha = alphabet(lang)
    lex = Lexicon.from_words(words, alpha, name="tiny")
    s = Settings(rules, lang, "tiny", **settings)
    return Session.create(Journal(":memory:"), s, lex)


# --- FISE-3: settings fixed and announced -------------------------------------------------------------------


def test_fise_3_settings_are_fixed_stored_and_announced():
    rs = ruleset("fise", moves=12, seconds=150, bonus_mode="manual", bonus_manual=5)
    s = session(rs, "es", ["CASA"])
    lines = s.settings.announcement()
    assert "Moves: 12" in lines
    assert any("2 min 30 s" in line for line in lines)
    assert any("+5 to a sole player" in line for line in lines)
    stored = s.journal.game(s.id).settings
    assert RuleSet.from_dict(stored["rules"]) == rs
    # the journal refuses to change a game's settings (FISE-3: announced before the game, fixed)
    with pytest.raises(JournalError, match="fixed"):
        s.journal.execute("UPDATE game SET settings = '{}' WHERE id = ?", (s.id,))


def test_fise_3_bad_settings_are_refused_with_a_reason():
    with pytest.raises(RuleSetError, match="unknown rule set"):
        ruleset("scrabble")
    with pytest.raises(RuleSetError, match="manual bonus is 5 or 10"):
        ruleset("fise", bonus_mode="manual", bonus_manual=7)
    with pytest.raises(RuleSetError, match="unknown setting"):
        ruleset("fise", colour="red")
    with pytest.raises(RuleSetError, match="at least 1"):
        ruleset("fise", moves=0)


# --- FISE-4: the rack rule ----------------------------------------------------------------------------------


FISE = ruleset("fise").racks


def test_fise_4_up_to_move_15_fewer_than_six_vowels_and_fewer_than_six_consonants():
    pool = tiles(ES, "AAAAAEEEEEIIIOOUBCDFGHJLMNPRST" * 2)
    assert judge(FISE, ES, 15, tiles(ES, "AEIOUBC"), pool)[0]
    assert judge(FISE, ES, 15, tiles(ES, "AEIOUEB"), pool)[0] is False  # 6 vowels
    assert judge(FISE, ES, 1, tiles(ES, "BCDFGHA"), pool)[0] is False  # 6 consonants
    assert judge(FISE, ES, 1, tiles(ES, "BCDFGA?"), pool)[0]  # blanks are not counted
    assert judge(FISE, ES, 1, tiles(ES, "AEIOU??"), pool)[0]


def test_fise_4_from_move_16_at_least_one_vowel_and_one_consonant_blanks_not_counted():
    pool = tiles(ES, "AAAAAEEEEEIIIOOUBCDFGHJLMNPRST" * 2)
    assert judge(FISE, ES, 16, tiles(ES, "AEIOUEB"), pool)[0]  # 6 vowels are fine now
    assert judge(FISE, ES, 16, tiles(ES, "BCDFGHJ"), pool)[0] is False
    assert judge(FISE, ES, 16, tiles(ES, "BCDFGH?"), pool)[0] is False  # the blank is no vowel
    assert judge(FISE, ES, 16, tiles(ES, "AEIOUE?"), pool)[0] is False


def test_fise_4_blank_counting_is_a_setting():
    pool = tiles(ES, "AAAAAEEEEEBCDFGHJLMNPRST??")
    either = ruleset("fise", blanks="either").racks
    assert judge(either, ES, 16, tiles(ES, "BCDFGH?"), pool)[0]
    vowel = ruleset("fise", blanks="vowel").racks
    assert judge(vowel, ES, 16, tiles(ES, "BCDFGH?"), pool)[0]
    assert judge(vowel, ES, 1, tiles(ES, "AEIOU?B"), pool)[0] is False  # 6 "vowels"


def test_fise_4_one_vowel_left_brings_in_the_move_16_rule_early():
    # bag and rack hold one vowel only: up to move 15 a rack of 6 consonants and that vowel is legal
    pool = tiles(ES, "ABCDFGHJLMNPRSTBCDF")
    assert FISE.condition(3, mix_of(ES, pool)) == FISE.late
    assert judge(FISE, ES, 3, tiles(ES, "ABCDFGH"), pool)[0]
    # with two vowels left the early rule holds, and 6 consonants are illegal
    pool2 = [*pool, ES.code("E")]
    assert FISE.condition(3, mix_of(ES, pool2)) == FISE.early
    assert judge(FISE, ES, 3, tiles(ES, "ABCDFGH"), pool2)[0] is False


def test_fise_4_no_legal_rack_when_the_vowels_are_gone_ends_the_game():
    pool = tiles(ES, "BCDFGHJLMN??")
    assert FISE.condition(3, mix_of(ES, pool)) is None
    assert FISE.condition(20, mix_of(ES, pool)) is None
    assert racks.condition_for(FISE, ES, 5, pool, []) is None


# --- FISE-10: redrawn whole, every tile conserved -----------------------------------------------------------


def test_fise_10_illegal_rack_is_redrawn_whole_and_every_tile_is_counted_after_every_rejection():
    # two vowels among many consonants: up to move 15 a legal rack needs both vowels (at most 5 consonants)
    text = "AE" + "BCDFGHJLMNPRST" * 3
    bag = bag_of(ES, text)
    before = Counter(bag.tiles)
    draws = draw_seeded(Bag(ES, tiles=bag.tiles), [], [], 4, FISE, seed="fise-10")
    assert len(draws) > 5, "this pool should need several redraws"
    assert all(not d.legal for d in draws[:-1]) and draws[-1].legal
    # replay attempt by attempt on the real bag, counting every tile after each one
    rack: list[int] = []
    for d in draws:
        racks.apply(bag, rack, d)
        assert count_all(bag, rack) == before
        if not d.legal:
            assert rack == [] and len(d.rack) == 7
            assert judge(FISE, ES, 4, d.rack, [*bag.tiles])[0] is False
    assert sorted(rack) == sorted(tiles(ES, "AE") + [t for t in draws[-1].rack if t not in tiles(ES, "AE")])


def test_fise_10_the_leave_goes_back_too_when_the_refill_is_illegal():
    bag = bag_of(ES, "AEIOUAEIOUAEIOUBCDFGHJLMNPRST")
    leave = tiles(ES, "AEIOU")  # 5 vowels kept: the refill must bring 2 consonants
    draws = draw_seeded(bag, leave, [], 2, FISE, seed=3)
    first = draws[0]
    assert first.kept == tuple(leave)
    if not first.legal:
        assert draws[1].kept == ()  # the whole rack went back: 7 drawn afresh
    assert Counter(bag.tiles) + Counter(draws[-1].rack) == Counter(
        tiles(ES, "AEIOUAEIOUAEIOUBCDFGHJLMNPRST") + leave
    )


def test_fise_10_there_is_no_limit_on_consecutive_exchanges():
    # a legal rack exists but is rare (needs both vowels out of 2 + 60 consonants): hundreds of redraws
    bag = bag_of(ES, "AE" + "BCDFGHJLMNPRST" * 4 + "BCDF")
    draws = draw_seeded(bag, [], [], 1, FISE, seed=7)
    assert len(draws) == 286
    assert draws[-1].legal and sorted(mix_of(ES, draws[-1].rack)[:2]) == [2, 5]


def test_fise_10_draws_replay_identically_from_the_seed():
    a = draw_seeded(Bag(ES), [], [], 1, FISE, seed="s")
    b = draw_seeded(Bag(ES), [], [], 1, FISE, seed="s")
    assert a == b
    assert Draw.from_payload(ES, a[-1].to_payload(ES)) == a[-1]


def test_spanish_digraph_tiles_keep_their_identity_in_the_journal():
    d = Draw(1, 1, (), tuple(tiles(ES, "C H CH LL RR L ?")), True, "x")
    payload = d.to_payload(ES)
    assert payload["drawn"] == ["C", "H", "CH", "LL", "RR", "L", "?"]
    assert Draw.from_payload(ES, payload) == d


# --- hand racks ---------------------------------------------------------------------------------------------


def test_hand_rack_must_come_from_the_bag_and_have_the_right_size():
    bag = bag_of(ES, "AEIOBCDFGZ")
    with pytest.raises(RackError, match="only 1 left"):
        hand_draw(bag, [], [], 1, FISE, tiles(ES, "ZZAEIOB"), 1)
    with pytest.raises(RackError, match="7 tile"):
        hand_draw(bag, [], [], 1, FISE, tiles(ES, "AEIOB"), 1)
    d = hand_draw(bag, [], [], 1, FISE, tiles(ES, "AEIOBCD"), 1)
    assert d.legal and d.source == "hand"


def test_fise_10_hand_game_illegal_rack_is_recorded_and_the_referee_draws_again():
    s = session(ruleset("fise"), "es", ["CASA", "SACA"], racks="hand")
    step = s.draw(tiles(ES, "BCDFGHA"))  # six consonants at move 1
    assert step.kind == "illegal-rack" and "draw 7 again" in step.message
    assert s.game.phase == "rack" and len(s.game.bag) == 100
    step = s.draw(tiles(ES, "CASAEBD"))
    assert step.kind == "rack"
    assert [d.legal for d in s.game.moves[0].draws] == [False, True]
    assert s.game.tile_count() == 100
    with pytest.raises(RackError, match="must be drawn"):
        session(ruleset("fise"), "es", ["CASA"], racks="hand").draw(tiles(ES, "CASA"))


# --- FISE-5, GR-5C: the clock -------------------------------------------------------------------------------


def test_fise_5_three_minutes_warnings_at_one_minute_and_thirty_seconds():
    cues = clock_schedule(ruleset("fise"))
    assert [(c.kind, c.at) for c in cues] == [
        ("clock-start", 0),
        ("warning", 120),
        ("warning", 150),
        ("time", 180),
    ]
    assert cues[1].text == "1 minute left" and cues[2].text == "30 seconds left"


def test_gr_5c_two_to_three_minutes_thirty_second_warning():
    cues = clock_schedule(ruleset("greek", seconds=120))
    assert [(c.kind, c.at) for c in cues] == [("clock-start", 0), ("warning", 90), ("time", 120)]
    with pytest.raises(RuleSetError, match="GR-5C"):
        ruleset("greek", seconds=100)
    with pytest.raises(RuleSetError, match="GR-5C"):
        ruleset("greek", seconds=200)


# --- Greek rack rules ---------------------------------------------------------------------------------------


def test_gr_3_greek_set_has_104_tiles():
    assert EL.total_tiles == 104
    s = session(ruleset("greek"), "el", ["ΑΒ"])
    assert s.game.tile_count() == 104


def test_gr_8_2_at_least_one_vowel_and_one_consonant_by_default():
    gr = ruleset("greek").racks
    pool = tiles(EL, "ΑΕΗΙΟΥΩΒΓΔΖΘΚΛΜΝ" * 3)
    assert judge(gr, EL, 1, tiles(EL, "ΑΕΗΙΟΥΒ"), pool)[0]
    assert judge(gr, EL, 1, tiles(EL, "ΑΕΗΙΟΥΩ"), pool)[0] is False
    assert judge(gr, EL, 30, tiles(EL, "ΒΓΔΖΘΚΛ"), pool)[0] is False


def test_gr_5a_at_least_two_of_each_is_a_setting():
    gr = ruleset("greek", min_each=2).racks
    pool = tiles(EL, "ΑΕΗΙΟΥΩΒΓΔΖΘΚΛΜΝ" * 3)
    assert judge(gr, EL, 1, tiles(EL, "ΑΕΗΙΟΥΒ"), pool)[0] is False
    assert judge(gr, EL, 25, tiles(EL, "ΑΕΗΙΟΒΓ"), pool)[0]
    # one vowel left: two cannot be had; one of each still can, so the game goes on (GR-5B, GR-8.2)
    few = tiles(EL, "ΑΒΓΔΖΘΚΛΜΝ")
    assert judge(gr, EL, 25, tiles(EL, "ΑΒΓΔΖΘΚ"), few)[0]


def test_gr_5a_rack_is_filled_up_to_seven():
    s = session(ruleset("greek"), "el", ["ΑΒ", "ΒΑ"], seed="3")
    s.draw()
    rack = s.game.rack
    assert len(rack) == 7
    assert s.game.moves[0].draws[-1].kept == ()


def test_gr_5b_and_gr_8_2_only_vowels_left_ends_the_game():
    gr = ruleset("greek").racks
    assert gr.condition(10, mix_of(EL, tiles(EL, "ΑΕΗΙΟ?"))) is None
    assert gr.condition(10, mix_of(EL, tiles(EL, "ΒΓΔ"))) is None
    assert gr.condition(10, mix_of(EL, tiles(EL, "ΒΓΔΑ"))) is not None


# --- Romanian practice --------------------------------------------------------------------------------------


def test_romanian_practice_two_vowels_two_consonants_up_to_move_15_then_one_and_one():
    r = ruleset("romanian").racks
    pool = tiles(RO, "AEIOUBCDFGLMNPRST" * 4)
    assert judge(r, RO, 15, tiles(RO, "AEBCDFG"), pool)[0]
    assert judge(r, RO, 15, tiles(RO, "ABCDFGL"), pool)[0] is False
    assert judge(r, RO, 15, tiles(RO, "AEIOUEB"), pool)[0] is False
    assert judge(r, RO, 16, tiles(RO, "ABCDFGL"), pool)[0]
    assert judge(r, RO, 16, tiles(RO, "BCDFGL?"), pool)[0] is False


# --- FISE-13 / GR-5B: the end of the game -------------------------------------------------------------------


def test_fise_13_planned_number_of_moves_ends_the_game():
    s = session(ruleset("fise", moves=2), "es", ["CASA", "SACA", "AS", "SA", "CAS"], seed="x")
    s.play_auto()
    assert s.game.end.after_move == 2 and "planned" in s.game.end.reason
    assert "FISE-13" in s.game.end.rules


def test_fise_13_no_word_with_an_empty_bag_ends_the_game():
    s = session(ruleset("fise"), "es", ["ZZZ"], seed="1")
    s.draw()
    s.game.bag.tiles.clear()  # as at the end of a game: what is on the stand is all there is
    step = s.place_master()
    assert step.kind == "end" and "no word can be formed" in step.message
    assert step.end.rules == ("FISE-13",)


def test_fise_16_rack_nobody_can_play_is_replaced_when_the_bag_is_not_empty():
    s = session(ruleset("fise"), "es", ["ÑÑ"], seed="2")  # nearly no rack can play ÑÑ (one Ñ in the set)
    s.draw()
    step = s.place_master()
    assert step.kind == "end" and "new racks" in step.message
    redraws = [d for d in s.game.moves[0].draws if d.source == "new-rack"]
    assert redraws and redraws[0].returned  # the old rack went back whole
    assert s.game.tile_count() == 100


def test_referee_may_end_the_game():
    s = session(ruleset("fise"), "es", ["CASA"], seed="1")
    end = s.end_game("power cut")
    assert end.reason == "power cut" and s.game.phase == "over"
    with pytest.raises(GameError, match="over"):
        s.draw()


def test_fise_20_joker_rack_always_holds_a_blank_and_tiles_add_up():
    s = session(ruleset("fise"), "es", ["CASA"], seed="1", variant="joker")
    assert s.game.tile_count() == 100 and BLANK not in s.game.bag.tiles
    s.draw()
    assert BLANK in s.game.rack and len(s.game.rack) == 7
