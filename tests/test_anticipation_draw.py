"""The draw, the groups entered by hand and the announcement script (RO-1.1, RO-3.1, RO-4.3, RO-4.4, RO-5.2,
RO-5.5, RO-8.1, RO-8.2)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from anticipation_support import RO, groups_with, lexicon, new_game, rules
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import BLANK, Bag
from arbitru.formats.anticipation.announce import announcement_script
from arbitru.formats.anticipation.draw import (
    Draw,
    GroupRules,
    GroupsError,
    draw_groups,
    format_group,
    group_problems,
    groups_to_return,
    manual_draw,
    parse_group,
    parse_groups,
    stand_alone_scrabble,
)
from arbitru.formats.anticipation.turns import Lot, TurnOrder


class ScriptedBag(Bag):
    """A bag whose first draws are given (the arbiter's hand in a known hall draw), random afterwards."""

    def __init__(self, script: list[str], seed: int = 0) -> None:
        super().__init__(RO, seed)
        self.script = [parse_group(RO, s) for s in script]

    def draw(self, n: int) -> list[int]:
        if self.script:
            tiles = self.script.pop(0)
            assert len(tiles) == n
            self.remove(tiles)
            return tiles
        return super().draw(n)


def test_ro_3_1_tile_set():
    # RO-3.1: count and value of every tile, 100 tiles
    expected = {
        "A": (11, 1),
        "B": (2, 9),
        "C": (5, 1),
        "D": (4, 2),
        "E": (9, 1),
        "F": (2, 8),
        "G": (2, 9),
        "H": (1, 10),
        "I": (10, 1),
        "J": (1, 10),
        "L": (4, 1),
        "M": (3, 4),
        "N": (6, 1),
        "O": (5, 1),
        "P": (4, 2),
        "R": (7, 1),
        "S": (5, 1),
        "T": (7, 1),
        "U": (6, 1),
        "V": (2, 8),
        "X": (1, 10),
        "Z": (1, 10),
    }
    for label, (count, value) in expected.items():
        t = RO.code(label)
        assert (RO.counts[t], RO.values[t]) == (count, value), label
    assert RO.counts[BLANK] == 2 and RO.total_tiles == 100


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_ro_1_1_fifteen_groups_use_every_tile(seed):
    d = draw_groups(rules(), seed=seed)
    assert [len(g) for g in d.groups] == [2] + [7] * 14
    used = Counter(t for g in d.groups for t in g)
    assert all(used[t] == RO.counts[t] for t in range(RO.size + 1))
    assert group_problems(rules(), d.groups) == []


def test_seeded_draw_is_reproducible():
    assert draw_groups(rules(), seed=11).groups == draw_groups(rules(), seed=11).groups
    assert draw_groups(rules(), seed=11).groups != draw_groups(rules(), seed=12).groups


def test_ro_5_2_d_group1_forms_both_words():
    r = rules()
    lex = lexicon()
    assert r.group1_problem(parse_group(RO, "AL")) is None  # AL and LA
    assert r.group1_problem(parse_group(RO, "NU")) is None  # NU and UN
    assert "both words" in r.group1_problem(parse_group(RO, "OP"))  # OP, PO: neither
    assert "both words" in r.group1_problem(parse_group(RO, "DA"))  # DA is a word, AD is not
    assert r.group1_problem(parse_group(RO, "II")) is None  # a doubled letter needs one word
    assert "both words" in r.group1_problem(parse_group(RO, "EE"))
    for seed in range(1, 6):
        a, b = draw_groups(r, seed=seed).groups[0]
        if BLANK not in (a, b):
            assert lex.contains_tiles([a, b]) and lex.contains_tiles([b, a])


def test_ro_5_2_d_group1_redrawn_until_both_words():
    bag = ScriptedBag(["DA", "OP", "AM"], seed=5)
    d = draw_groups(rules(), bag=bag)
    assert format_group(RO, d.groups[0]) == "AM"
    assert d.log[0] == {"group": 1, "redraws": 2}


def test_ro_5_2_d_group1_with_a_blank():
    r = rules()
    assert r.group1_problem(parse_group(RO, "A?")) is None  # a blank can be L: AL and LA
    assert r.group1_problem(parse_group(RO, "??")) is None


@pytest.mark.parametrize("seed", range(1, 9))
def test_ro_5_2_e_every_group_has_a_vowel_and_a_consonant(seed):
    r = rules()
    for g in draw_groups(r, seed=seed).groups[1:]:
        vowels, consonants = r.counts(g)
        assert vowels >= 1 and consonants >= 1


def test_ro_5_2_e_blank_counts_setting():
    g = parse_group(RO, "BCDFGH?")
    assert "no vowel" in rules().group_problem(g)  # default: a blank counts as neither
    assert rules(blank_counts="vowel").group_problem(g) is None
    assert "no vowel" in rules(blank_counts="consonant").group_problem(g)
    assert rules(blank_counts="consonant").group_problem(parse_group(RO, "AEIOUA?")) is None


def _example_draw() -> list[str]:
    """Groups 1..15 of a hall draw where group 13 has 2 vowels, 14 one, and the letters left for 15 none."""
    left = Counter(t for t, n in enumerate(RO.counts) for _ in range(n))
    fixed = {1: "AL", 13: "ACDELNR", 14: "ACDLNRS", 15: "CDMNPRT"}
    for text in fixed.values():
        left.subtract(parse_group(RO, text))
    vowels = sorted(t for t in left.elements() if t != BLANK and RO.is_vowel(t))
    others = sorted(t for t in left.elements() if t == BLANK or not RO.is_vowel(t))
    assert len(vowels) == 37  # 41 vowels: 1 in group 1, 2 in 13, 1 in 14
    groups = {}
    for n in range(2, 13):
        take = [vowels.pop(), others.pop()]
        groups[n] = take
    rest = vowels + others
    for n in range(2, 13):
        while len(groups[n]) < 7:
            groups[n].append(rest.pop())
    texts = [fixed[1]] + [RO.format(groups[n]) for n in range(2, 13)] + [fixed[13], fixed[14], fixed[15]]
    return texts


def test_ro_5_2_e_regroup_example():
    # RO-5.2.e: "the last group has no vowel, the one before one vowel, the one before that two vowels: the 3
    # groups go back into the bag and are drawn again until each has a vowel"
    script = _example_draw()
    r = rules()
    assert all(r.group_problem(parse_group(RO, g)) is None for g in script[1:14])
    assert r.group_problem(parse_group(RO, script[14])) is not None  # group 15 would have no vowel
    d = draw_groups(r, bag=ScriptedBag(script, seed=9))
    regroups = [e for e in d.log if "regroup" in e]
    assert [e["regroup"] for e in regroups] == [[13, 14, 15]]
    assert [format_group(RO, g) for g in d.groups[:12]] == [
        format_group(RO, parse_group(RO, g)) for g in script[:12]
    ]
    for g in d.groups[12:]:
        assert r.counts(g)[0] == 1  # exactly the 3 vowels, one in each group
    assert group_problems(r, d.groups) == []


def test_ro_5_2_e_smallest_number_of_last_groups():
    r = rules()
    g = lambda s: parse_group(RO, s)  # noqa: E731
    drawn = [g("ABCDEFG")] * 10 + [
        g("AEIBCDF"),
        g("AEBCDFG"),
        g("ABCDFGH"),
    ]  # ..., 12: 3 vowels, 13: 2, 14: 1
    assert groups_to_return(r, drawn, g("BCDFGHJ"), 1) == 2  # 13 and 14 with 15: 3 vowels for 3 groups
    assert groups_to_return(r, [*drawn[:-1], g("AEBCDFG")], g("BCDFGHJ"), 1) == 1


def test_ro_5_2_f_letters_sorted_blanks_last():
    d = draw_groups(rules(), seed=21)
    for grp in d.groups:
        assert grp == sorted(grp, key=lambda t: (t == BLANK, t))
    assert format_group(RO, parse_group(RO, "?ZA?C")) == "ACZ??"


def test_ro_5_2_f_announcement_by_the_spelling_table():
    groups = groups_with({1: "AL", 2: "ACEIRT?"})
    script = announcement_script(RO, Draw(groups, "manual"))
    says = [c for c in script if c.kind == "say" and c.group == 2][:8]
    assert [c.text for c in says] == [
        "Grupa 2",
        "ANA",
        "CONSTANTIN",
        "ELENA",
        "ION",
        "RADU",
        "TUDOR",
        "JOKER",
    ]
    gaps = {round(b.at - a.at, 1) for a, b in itertools.pairwise(says)}
    assert gaps == {2.5}
    shows = [c.text for c in script if c.kind == "show" and c.group == 2 and c.turn is None]
    assert shows == ["Grupa 2: A C E I R T ?"]


def test_ro_5_2_g_h_second_reading_then_the_analysis_timer():
    script = announcement_script(RO, Draw(groups_with({1: "AL"}), "manual"))
    recap = next(i for i, c in enumerate(script) if c.text == "Recapitulare.")
    quick = [c for c in script[recap + 1 :] if c.kind == "say" and c.text.startswith("Grupa")][:15]
    assert len(quick) == 15 and quick[0].text == "Grupa 1: ANA, LUCA."
    timer = next(c for c in script if c.kind == "timer")
    assert timer.at > quick[-1].at and "45 de minute" in timer.text
    calls = [c for c in script if c.kind == "time" and c.turn is None]
    assert [(round((c.at - timer.at) / 60), c.text) for c in calls] == [
        (15, "Mai sunt 30 de minute."),
        (25, "Mai sunt 20 de minute."),
        (35, "Mai sunt 10 minute."),
        (44, "Mai este 1 minut."),
    ]


def test_ro_4_3_thinking_times():
    order = TurnOrder()
    for t in range(1, 15):
        order.add(Lot(t, t + 1, f"table {t}"))
    script = announcement_script(RO, Draw(groups_with({1: "AL"}), "manual"), order=order)
    minutes = {}
    for turn in range(1, 15):
        start = next(c for c in script if c.kind == "timer" and c.turn == turn)
        stop = next(c for c in script if c.kind == "stop" and c.turn == turn)
        minutes[turn] = round((stop.at - start.at) / 60)
    assert minutes == {
        1: 8,
        2: 8,
        3: 7,
        4: 7,
        5: 6,
        6: 6,
        7: 5,
        8: 5,
        9: 5,
        10: 4,
        11: 4,
        12: 4,
        13: 3,
        14: 3,
    }
    shown = [c.text for c in script if c.kind == "show" and c.turn == 1]
    assert shown == [
        "Turul 1, grupa 1: AL",
        f"Turul 1, grupa 2: {format_group(RO, groups_with({1: 'AL'})[1])}",
    ]


def test_ro_5_5_c_one_minute_left_each_turn():
    script = announcement_script(RO, Draw(groups_with({1: "AL"}), "manual"))
    for turn in range(1, 15):
        calls = [c for c in script if c.kind == "time" and c.turn == turn]
        stop = next(c for c in script if c.kind == "stop" and c.turn == turn)
        assert [c.text for c in calls] == ["Mai este 1 minut."]
        assert stop.at - calls[0].at == pytest.approx(60)


def test_ro_5_5_d_without_a_visible_clock_every_two_minutes():
    script = announcement_script(RO, Draw(groups_with({1: "AL"}), "manual"), clock_visible=False)
    calls = [c.text for c in script if c.kind == "time" and c.turn == 1]  # 8 minutes
    assert calls == ["Mai sunt 6 minute.", "Mai sunt 4 minute.", "Mai sunt 2 minute.", "Mai este 1 minut."]


def test_manual_groups_checked_against_the_rules_and_the_bag():
    good = groups_with({1: "AL"})
    assert manual_draw(rules(), good).method == "manual"
    bad = [list(g) for g in good]
    bad[0] = parse_group(RO, "OP")  # not both words; the A and L are missing, O and P too many
    bad[3] = bad[3][:6]  # 6 letters
    bad[5] = parse_group(RO, "BCDFGHJ")
    with pytest.raises(GroupsError) as e:
        manual_draw(rules(), bad)
    text = str(e.value)
    assert "group 1 (OP) does not form both words (RO-5.2.d)" in text
    assert "group 4" in text and "has 6 letters, not 7" in text
    assert "group 6: BCDFGHJ has no vowel (RO-5.2.e)" in text
    assert "× A missing from the groups (RO-3.1)" in text  # group 1's A and group 4's 7th letter
    assert "O is used 6 times, the tile set has 5 (RO-3.1)" in text
    assert "J is used 2 times, the tile set has 1 (RO-3.1)" in text


def test_groups_file_parsing():
    text = "# hall draw\n1: AL\n2 acEIRT?\n3. BDEIMOR\n"
    groups = parse_groups(RO, text)
    assert [format_group(RO, g) for g in groups] == ["AL", "ACEIRT?", "BDEIMOR"]
    with pytest.raises(GroupsError, match=r"line 2: .*'1'"):
        parse_groups(RO, "AL\nAB1CDE\n")
    with pytest.raises(GroupsError, match="line 3: group number 5, expected 2"):
        parse_groups(RO, "1: AL\n\n5: ACEIRT?\n")
    with pytest.raises(GroupsError, match="K has no tile"):
        parse_groups(RO, "AK\n")


def test_ro_4_4_lots_drawn_ahead(tmp_path):
    game = new_game(tmp_path, {1: "AL"})
    lots = game.draw_all_lots()
    assert [lot.turn for lot in lots] == list(range(1, 15))
    assert sorted(lot.group for lot in lots) == list(range(2, 16))


def test_ro_8_1_avocalic_group1_needs_a_consonant_other_than_g_and_j():
    r = rules("avocalic")
    assert r.group1_problem(parse_group(RO, "AL")) is None  # no "both words" condition
    assert r.group1_problem(parse_group(RO, "OP")) is None
    assert "other than G and J" in r.group1_problem(parse_group(RO, "GJ"))
    assert "other than G and J" in r.group1_problem(parse_group(RO, "AG"))
    assert "other than G and J" in r.group1_problem(parse_group(RO, "AE"))
    assert r.group_problem(parse_group(RO, "AEIOUAE")) is None  # no condition on the 7-letter groups
    d = draw_groups(r, seed=3)
    assert [len(g) for g in d.groups] == [2] + [7] * 14
    assert not any("regroup" in e for e in d.log)


def test_ro_8_1_only_consonants_are_announced():
    groups = groups_with({1: "AL", 2: "ACEIRT?"})
    script = announcement_script(RO, Draw(groups, "avocalic"), "avocalic")
    says = [c.text for c in script if c.kind == "say" and c.group == 2][:5]
    assert says == ["Grupa 2", "CONSTANTIN", "RADU", "TUDOR", "JOKER"]  # blanks with the consonants
    assert [c.text for c in script if c.kind == "show" and c.group == 1] == ["Grupa 1: L"]


def test_ro_8_2_endurance_groups_need_a_stand_alone_scrabble():
    lex = Lexicon.from_words(["ALERGAT", "CASTIGA", "CUMPARA", "GRADINA", "AL", "LA"], RO, name="sevens")
    r = GroupRules(RO, lex, variant="endurance")
    assert r.group_problem(parse_group(RO, "AAEGLRT")) is None  # ALERGAT
    assert "no stand-alone 7-letter word (RO-8.2)" in r.group_problem(parse_group(RO, "AAEGLRS"))
    assert r.group_problem(parse_group(RO, "AAEGLR?")) is None  # the blank is the T
    assert RO.format(stand_alone_scrabble(RO, lex, parse_group(RO, "AAEGLR?"))) == "ALERGAt"
    assert stand_alone_scrabble(RO, lex, parse_group(RO, "AAACLST")) is None


def test_ro_8_4_blind_groups_checked(tmp_path):
    game = new_game(tmp_path, {1: "AL"}, variant="blind")
    game.set_blind_groups("Ana", groups_with({1: "NU"}))
    bad = groups_with({1: "NU"})
    bad[2] = bad[3]
    with pytest.raises(GroupsError, match=r"Ion: .*used"):
        game.set_blind_groups("Ion", bad)
