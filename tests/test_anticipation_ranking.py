"""Disciplinary warnings, contests, ranking, cheating (RO-6.4, RO-6.5, RO-6.6, RO-7.1)."""

from __future__ import annotations

import itertools

import pytest

from anticipation_support import csv_text, new_game, play, verdict
from arbitru.formats.anticipation.ranking import places
from test_anticipation_correction import AL, CAL, GROUPS, LOTS, VEST, row


def test_ro_6_4_disciplinary_warning_costs_20(tmp_path):
    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL])
    seq = game.sanction("Ana", "disciplinary", "talking during turn 2", turn=2)
    st = game.replay()
    r = st.results["Ana"]
    assert (r.disciplinary, r.total, r.eliminated, r.place) == (20, 4 + 3 - 20, "", 1)
    assert r.sanctions == [
        {"seq": seq, "kind": "disciplinary", "reason": "talking during turn 2", "turn": 2, "withdrawn": False}
    ]


def test_ro_6_4_second_disciplinary_warning_eliminates(tmp_path):
    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL, ("Dan", 2, *AL[2:])])
    game.sanction("Ana", "disciplinary", "talking", turn=1)
    game.sanction("Ana", "disciplinary", "looking at table 3", turn=2)
    st = game.replay()
    r = st.results["Ana"]
    assert r.eliminated == "eliminated in turn 2: second disciplinary warning (RO-6.4): looking at table 3"
    assert r.place is None and st.ranking[-1].player == "Ana"
    assert r.slips[2].status == "void" and r.slips[2].placements[0].rule == "RO-6.4"  # correction stops
    assert st.results["Dan"].place == 1


def test_RO_6_4_elimination_keeps_earlier_corrections(tmp_path):
    # "corectura se oprește": the turns before the second warning stay corrected; from it on, nothing is
    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL, VEST, ("Dan", 2, *AL[2:])])
    game.sanction("Ana", "disciplinary", "talking", turn=1)
    game.sanction("Ana", "disciplinary", "looking at table 3", turn=3)
    st = game.replay()
    r = st.results["Ana"]
    assert [r.slips[t].status for t in (1, 2, 3)] == ["corrected", "corrected", "void"]
    assert verdict(st, "Ana", 2).points == 3 and r.board is not None and "C" in r.board.to_text()
    # the total at elimination: turns 1 and 2 (4 + 3), less both warnings; no place
    assert (r.placement_points, r.disciplinary, r.total, r.place) == (7, 40, 7 - 40, None)
    assert r.to_dict()["total"] == -33 and r.to_dict()["place"] is None
    assert [p.player for p in st.ranking] == ["Dan", "Ana"]


def test_RO_6_4_warning_without_a_turn_stops_after_the_slips_already_stored(tmp_path):
    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL])
    game.sanction("Ana", "disciplinary", "talking")
    game.sanction("Ana", "disciplinary", "looking at table 3")
    game.import_slips_csv(csv_text([VEST]))  # turn 3, handed in after the elimination
    st = game.replay()
    r = st.results["Ana"]
    assert [r.slips[t].status for t in (1, 2, 3)] == ["corrected", "corrected", "void"]
    assert r.eliminated.startswith("eliminated in turn 3:") and r.total == 7 - 40 and r.place is None


def test_RO_7_1_cheater_is_not_corrected_even_after_a_disciplinary_elimination(tmp_path):
    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL, VEST])
    game.sanction("Ana", "disciplinary", "talking", turn=1)
    game.sanction("Ana", "disciplinary", "noise", turn=3)
    game.sanction("Ana", "cheating", "a word list on the table")
    r = game.replay().results["Ana"]
    assert all(sv.status == "void" for sv in r.slips.values() if sv.status != "missing")
    assert r.slips[1].placements[0].rule == "RO-7.1" and r.placement_points == 0


def test_ro_7_1_cheater_is_eliminated_and_not_corrected(tmp_path):
    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL, ("Dan", 2, *AL[2:])])
    game.sanction("Ana", "cheating", "a word list on the table")
    st = game.replay()
    r = st.results["Ana"]
    assert r.eliminated.startswith("eliminated for cheating (RO-7.1)")
    assert all(sv.status == "void" for sv in r.slips.values() if sv.status != "missing")
    assert r.place is None and [p.player for p in st.ranking] == ["Dan", "Ana"]


def test_ro_6_6_ties_share_the_higher_place():
    assert places([("a", 10), ("b", 30), ("c", 30), ("d", 5), ("e", 10)]) == {
        "b": 1,
        "c": 1,
        "a": 3,
        "e": 3,
        "d": 5,
    }


def test_ro_6_6_ranking_by_total(tmp_path):
    rows = [AL, CAL, ("Dan", 2, *AL[2:]), ("Ion", 3, *AL[2:]), ("Eva", 4, *AL[2:]), ("Eva", 4, *CAL[2:])]
    game, st = play(tmp_path, GROUPS, LOTS, rows)
    game.sanction("Ion", "cheating", "phone")
    st = game.replay()
    assert [(r.player, r.place, r.total) for r in st.ranking] == [
        ("Ana", 1, 7),
        ("Eva", 1, 7),
        ("Dan", 3, 4),
        ("Ion", None, 0),
    ]


def test_ro_6_5_contest_decision_keeps_the_old_verdict(tmp_path):
    # 9G AI: the cross word ALI is not in the list; the appeal committee accepts it (a decision, with its
    # reason)
    game, st = play(tmp_path, GROUPS, [2, 4, 3, *range(5, 16)], [AL, row(2, "9G", "AI", 3)])
    assert verdict(st, "Ana", 2).status == "invalid"
    seq = game.decide(
        "Ana", "placement", "valid", "ALI accepted by the appeal committee", by="appeal committee", turn=2
    )
    st = game.replay()
    v = verdict(st, "Ana", 2)
    assert (v.status, v.rule, v.points) == ("valid", "RO-6.5", 6)  # AI 2 + 1, ALI 3
    assert v.original["status"] == "invalid" and v.original["rule"] == "RO-6.1a"
    assert v.decisions == [seq]
    assert any("ALI accepted by the appeal committee" in n for n in v.notes)
    events = [e.kind for e in game.journal.events(game.id)]
    assert events.count("slip") == 2 and events[-1] == "decision"  # nothing rewritten


def test_ro_6_5_the_player_meant_another_position(tmp_path):
    # G6 CAT fits at G5 and at G7: G5 is taken and flagged (RO-5.5.i); the arbiter's check at the table says
    # G7
    game, st = play(tmp_path, GROUPS, LOTS, [AL, row(2, "G6", "CAT", 12)])
    v = verdict(st, "Ana", 2)
    assert (v.rule, v.position) == ("RO-6.3b", "G5")
    assert any("2 positions fit the player's board" in n for n in v.notes)
    game.decide("Ana", "placement", "as", "the player's grid shows G7", turn=2, position="G7")
    v = verdict(game.replay(), "Ana", 2)
    # G7 CAT: CAT 2 + 1 + 2, cross words CA 3 and AL 2: 10, so the penalty is capped at 10
    assert (v.status, v.rule, v.position, v.points, v.penalty) == ("corrected", "RO-6.3b", "G7", 10, 10)
    assert v.original["position"] == "G5"


def test_ro_6_5_warning_penalty_and_total_decisions(tmp_path):
    game, st = play(tmp_path, GROUPS, LOTS, [AL, CAL, row(3, "G9", "VEST", 25)])
    assert st.results["Ana"].slips[3].warning and verdict(st, "Ana", 3).penalty == 20
    game.decide("Ana", "warning", "cancel", "the score was misread by the arbiter", turn=3)
    game.decide("Ana", "penalty", "set", "half penalty by the appeal committee", turn=3, points=10)
    game.decide("Ana", "total", "adjust", "arithmetic error on the results sheet", points=2)
    s = game.sanction("Ana", "disciplinary", "noise")
    game.decide("Ana", "discipline", "cancel", "it was the neighbour", event=s)
    r = game.replay().results["Ana"]
    assert r.slips[3].warning is None and r.slips[3].decisions
    assert verdict(game.replay(), "Ana", 3).penalty == 10
    assert r.disciplinary == 0 and r.sanctions[0]["withdrawn"]
    assert r.total == 4 + 3 + 24 - 10 + 2


def test_ro_6_5_decisions_need_a_reason(tmp_path):
    import pytest

    from arbitru.errors import ArbitruError

    game = new_game(tmp_path, GROUPS, LOTS)
    with pytest.raises(ArbitruError, match="reason"):
        game.decide("Ana", "placement", "valid", " ", turn=1)
    with pytest.raises(ArbitruError, match="one of valid, invalid, as"):
        game.decide("Ana", "placement", "accept", "x", turn=1)


def test_vest_scenario_total(tmp_path):
    _, st = play(tmp_path, GROUPS, LOTS, [AL, CAL, VEST])
    assert st.results["Ana"].total == 31


def test_ro_5_5_j_provisional_results_then_the_final_ranking(tmp_path):
    import pytest

    from arbitru.errors import ArbitruError

    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL, row(3, "G9", "VEST", 24)])
    with pytest.raises(ArbitruError, match="deadline"):
        game.publish("provisional")
    game.publish("provisional", deadline="18:30")
    assert game.replay().stage == "provisional"
    game.decide("Ana", "penalty", "cancel", "contest upheld", turn=3)  # within the contest window
    game.publish("final", confirmed=True)  # before the deadline: confirmed (RO-5.5.j)
    st = game.replay()
    assert st.stage == "final" and st.publications[0]["totals"] == {"Ana": 11}
    assert st.publications[1]["totals"] == {"Ana": 31}
    with pytest.raises(ArbitruError, match="the ranking is final"):
        game.decide("Ana", "total", "adjust", "late contest", points=5)


def test_ro_2_the_official_list_is_named(tmp_path):
    # RO-2: the list is the game's setting, recorded with the results and named in every verdict it decides
    _game, st = play(tmp_path, GROUPS, LOTS, [row(1, "H8", "BTO", 22, 22)])
    assert st.settings.lexicon == "test-ro" and st.to_dict()["lexicon"] == "test-ro"
    assert "official list (test-ro)" in verdict(st, "Ana", 1).reason


def test_ro_5_1_seating():
    from arbitru.formats.anticipation.seating import Entrant, seat

    entrants = [
        Entrant("a", 1500, "X"),
        Entrant("b", 1600, "X"),
        Entrant("c", 1400, "Y"),
        Entrant("d", 1300, "Y"),
        Entrant("e", 1200, "Z"),
        Entrant("late", 2100, "Q", late=True),
    ]
    tables = {p: t for p, t, _ in seat(entrants)}
    # by rating, except that b and a (club X) and c and d (club Y) may not sit side by side
    assert tables == {"b": 1, "c": 2, "a": 3, "d": 4, "e": 5, "late": 6}
    order = sorted(tables, key=tables.get)
    clubs = {e.player: e.club for e in entrants}
    assert all(clubs[x] != clubs[y] for x, y in itertools.pairwise(order))


def test_RO_5_5_j_results_shown_to_staff_always_to_players_and_public_once_published(tmp_path):
    from arbitru.formats.anticipation.hall import hall_state

    game, st = play(tmp_path, GROUPS, LOTS, [AL, CAL])
    lt = hall_state(game.journal, game)
    assert (st.results_shown(staff=True), st.results_shown(staff=False)) == (True, False)
    assert (lt.results_shown(staff=True), lt.results_shown(staff=False)) == (True, False)
    game.publish("provisional", deadline="18:30")
    assert game.replay().results_shown(staff=False) and hall_state(game.journal, game).results_shown(staff=False)


def test_RO_5_5_k_an_eliminated_player_is_not_in_the_ranking(tmp_path):
    from arbitru.formats.anticipation import forms

    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL, ("Dan", 2, *AL[2:])])
    game.sanction("Ana", "disciplinary", "talking", turn=1)
    game.sanction("Ana", "disciplinary", "looking at table 3", turn=2)
    st = game.replay()
    assert [r.player for r in st.ranked()] == ["Dan"] and [r.player for r in st.eliminated()] == ["Ana"]
    page = forms.ranking_page(st)
    table, _, apart = page.partition("</table>")
    assert "Dan" in table and "Ana" not in table  # the printed ranking has no row for him
    assert "RO-5.5.k" in apart and "Ana" in apart and "al doilea avertisment disciplinar" in apart


def test_RO_5_1_a_late_entry_sits_at_the_last_table(tmp_path):
    from arbitru.errors import ArbitruError
    from arbitru.formats.refusal import OrderError

    game, _ = play(tmp_path, GROUPS, LOTS, [AL, CAL])
    game.add_seating([("Ana", 1, "Ana Pop"), ("Dan", 2, "Dan Ionescu")])
    assert game.enter_late("Eva", "Eva Târziu") == ("Eva", 3, "Eva Târziu")
    st = game.replay()
    assert st.seating["Eva"] == 3 and st.names["Eva"] == "Eva Târziu"
    late = game.journal.events(game.id, "seating")[-1]
    assert late.payload["late"] is True and late.payload["players"] == [
        {"player": "Eva", "table": 3, "name": "Eva Târziu"}]
    assert "Eva" in [r.player for r in st.ranked()]  # ranked; the turns before she came have no slip: 0
    with pytest.raises(ArbitruError, match="seated already, at table 3"):
        game.enter_late("Eva")
    game.publish("provisional", "18:30", confirmed=True)  # turns not played: ended on purpose
    with pytest.raises(OrderError, match=r"RO-5\.5\.j"):
        game.enter_late("Ion")
