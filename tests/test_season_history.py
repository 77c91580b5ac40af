"""A season's history is never rewritten (issue 31), through the library: rating lists in force from their date
(FISE-21 "ELOd actual"), merges that lose nothing, results checked at the door, absences that are not defeats
(FISE-15 table, FISE-21 field, FISE-22 history, RO-6.6 totals), withdrawals checked and undone."""

from __future__ import annotations

from fractions import Fraction

import pytest

from arbitru.journal.store import Journal
from arbitru.season import ratings, registry, tournament
from arbitru.season.registry import Entry, RegistryError
from arbitru.season.table import general_table
from arbitru.season.tournament import Event, TournamentError


@pytest.fixture
def j(tmp_path):
    with Journal(tmp_path / "season.db", actor="arbiter") as journal:
        yield journal


def three(j, start="2026-03-01", **event):
    """Three players rated 1600, 1700, 1800 (the issue's season), enrolled in one tournament."""
    ids = registry.register(j, [Entry(f"P{r}", licence=f"L{r}", federation="ESP", ratings={"elod": r})
                                for r in (1600, 1700, 1800)])
    tid = tournament.create(j, Event("Open", start, **event), "t1")
    tournament.enrol(j, tid, ids)
    return ids, tid


def elods(j, as_of=None, system="elod"):
    return {r.player: r.elod for r in ratings.rating_list(j, as_of, system=system)}


def table(j, tid, **kw):
    t = tournament.replay(j, tid)
    return {r.player: r for r in general_table(t, registry.load(j), tournament.outcomes(j, t), **kw)}


# --- 1. ratings as of a date (FISE-21) ---------------------------------------------------------------------


def test_FISE_21_a_list_dated_after_the_season_leaves_as_of_before_it_unchanged(j):
    (a, b, c), tid = three(j)
    tournament.record(j, tid, {a: [30], b: [20], c: [10]}, [30])  # the weakest wins
    before = elods(j, "2026-06-30")
    assert [round(before[p], 1) for p in (a, b, c)] == [1628.0, 1700.0, 1772.0]
    registry.rate(j, "elod", "2027-01-01", {a: 1900, b: 1400, c: 1700}, "ESP 2027")
    assert elods(j, "2026-06-30") == before  # the same list, whatever was imported afterwards
    history = next(r for r in ratings.rating_list(j, "2026-06-30") if r.player == a).history
    assert (history[0].rating_before, round(history[0].rating_after or 0, 1)) == (1600, 1628.0)
    # as of today the federation's list is in force: it holds the season (the list is not double-counted)
    assert elods(j) == {a: 1900, b: 1400, c: 1700}
    assert registry.load(j).get(a).ratings["elod"] == 1900


def test_FISE_21_a_game_is_rated_from_the_latest_list_on_or_before_its_date_then_the_games_since(j):
    (a, b, c), tid = three(j)
    registry.rate(j, "elod", "2026-01-01", {a: 2000}, "ESP January")
    registry.rate(j, "elod", "2026-04-01", {a: 1500, b: 1500, c: 1500}, "ESP April")  # imported before game 1
    tournament.record(j, tid, {a: [30], b: [20], c: [10]}, [30])  # game of 2026-03-01: the January list
    first = next(r for r in ratings.rating_list(j) if r.player == a).history[0]
    assert first.rating_before == 2000 and first.expected == pytest.approx(
        ratings.expected_places([2000, 1700, 1800])[0])
    t2 = tournament.create(j, Event("Spring", "2026-05-01"), "t2")
    tournament.enrol(j, t2, [a, b, c])
    tournament.record(j, t2, {a: [10], b: [20], c: [30]}, [30])  # after the April list: from it
    second = next(r for r in ratings.rating_list(j) if r.player == a).history[1]
    assert second.rating_before == 1500 and second.expected == pytest.approx(2.0)
    assert elods(j, "2026-03-31")[a] == pytest.approx(first.rating_after)


def test_FISE_21_the_rating_system_the_tournament_names_is_used(j):
    ids = registry.register(j, [Entry(f"P{i}", ratings={"elod": 1500, "ro": r}) for i, r in enumerate((1400, 2000))])
    tid = tournament.create(j, Event("Cupa", "2026-03-01", rules="romanian", rating_system="ro"), "t1")
    tournament.enrol(j, tid, ids)
    tournament.record(j, tid, {ids[0]: [30], ids[1]: [10]}, [30])  # the 1400 (ro) beats the 2000 (ro)
    ro = elods(j, system="ro")
    assert ro[ids[0]] - 1400 == pytest.approx(40 * (ratings.expected_places([1400, 2000])[0] - 1))
    assert elods(j)[ids[0]] is None  # the elod ratings did not move: not this tournament's system
    assert next(r for r in ratings.rating_list(j) if r.player == ids[0]).history[0].system == "ro"


def test_FISE_21_an_old_journal_rated_event_still_loads_and_is_dated(j):
    a = three(j)[0][0]
    j.append(registry.REGISTRY_ID, "rated", {"system": "elod", "date": "2025-12-31", "source": "",
                                              "ratings": {a: 2222}})
    reg = registry.load(j)
    assert reg.get(a).ratings["elod"] == 2222 and reg.get(a).own_ratings["elod"] == 1600
    assert [x.date for x in reg.lists] == ["2025-12-31"]


# --- 2. merges that lose nothing (FISE-15, FISE-21) --------------------------------------------------------


def test_FISE_15_a_merge_of_two_records_of_one_game_is_refused_naming_the_game(j):
    (a, b, c), tid = three(j)
    dup = registry.register(j, [Entry("P1600 again")])[0]
    tournament.enrol(j, tid, [dup])
    tournament.record(j, tid, {a: [60], b: [20], c: [10], dup: [0]}, [60])
    before = j.last_seq(registry.REGISTRY_ID)
    with pytest.raises(TournamentError, match=r"both have a result in Open game 1 \(t1\.1\)"):
        tournament.merge(j, dup, a, "one person")
    assert j.last_seq(registry.REGISTRY_ID) == before
    with pytest.raises(TournamentError, match=r"do not both play game t1\.9"):
        tournament.merge(j, dup, a, "one person", {"t1.1": a, "t1.9": a})


def test_FISE_15_FISE_21_a_merge_resolved_keeps_the_chosen_result_intact_and_can_be_undone(j):
    (a, b, c), tid = three(j)
    dup = registry.register(j, [Entry("P1600 again")])[0]
    tournament.enrol(j, tid, [dup])
    tournament.record(j, tid, {a: [60], b: [20], c: [10], dup: [0]}, [60])
    decided = tournament.merge(j, dup, a, "one person, two records", {"t1.1": a})
    assert [g.game_id for g in decided] == ["t1.1"]
    rows = table(j, tid)
    assert dup not in rows and rows[a].places == [1] and rows[a].totals == [60] and rows[a].place == 1
    history = next(r for r in ratings.rating_list(j) if r.player == a).history
    assert (history[0].place, history[0].field_size, history[0].percentage) == (1, 3, Fraction(1))
    assert history[0].rating_after > 1600  # she won: her rating rose
    kept = registry.load(j).get(a).history[-1]
    assert kept.kind == "merged" and kept.fields["kept"] == {"t1.1": a}
    registry.unmerge(j, dup, "two people after all")
    rows = table(j, tid)
    assert rows[dup].places == [4] and rows[a].places == [1]
    with pytest.raises(RegistryError, match="not merged"):
        registry.unmerge(j, dup)


def test_FISE_15_the_secretary_may_keep_the_duplicates_line(j):
    (a, b, c), tid = three(j)
    dup = registry.register(j, [Entry("P1600 again")])[0]
    tournament.enrol(j, tid, [dup])
    tournament.record(j, tid, {a: [0], b: [20], c: [10], dup: [60]}, [60])
    tournament.merge(j, dup, a, "the slip was signed with the new licence", {"t1.1": dup})
    assert table(j, tid)[a].totals == [60]


def test_FISE_15_a_merge_without_a_shared_game_needs_no_decision(j):
    (a, b, c), tid = three(j)
    dup = registry.register(j, [Entry("P1600 again")])[0]
    tournament.record(j, tid, {a: [60], b: [20], c: [10]}, [60])
    tournament.merge(j, dup, a)
    assert registry.load(j).resolve(dup) == a


# --- 3. results checked at the door (FISE-15) --------------------------------------------------------------


def test_FISE_15_a_result_without_a_master_line_is_refused_and_nothing_is_stored(j):
    tid = three(j)[1]
    before = j.last_seq(tid)
    result = tournament.read_result("A1,20\nA2,10\nA3,5\n")
    with pytest.raises(TournamentError, match="needs its master line"):
        tournament.record(j, tid, result.scores, result.masters, lines=result.lines)
    result = tournament.read_result("master,30\nA1,45\nA2,10\nA3,5\n")
    with pytest.raises(TournamentError, match="line 2: A1: 45 points in move 1, where the master scored 30"):
        tournament.record(j, tid, result.scores, result.masters, lines=result.lines)
    result = tournament.read_result("master,30\nA1,-5\nA2,10\nA3,5\n")
    with pytest.raises(TournamentError, match="line 2: A1: -5 points"):
        tournament.record(j, tid, result.scores, result.masters, lines=result.lines)
    result = tournament.read_result("master,30\nA1,5\nA2,10\n")
    with pytest.raises(TournamentError, match="no line for A3 P1800: give his points, or mark him absent"):
        tournament.record(j, tid, result.scores, result.masters, lines=result.lines)
    assert j.last_seq(tid) == before and tournament.replay(j, tid).games == []


def test_FISE_15_a_season_with_an_unreadable_old_result_is_still_served(j):
    from arbitru.cli.journal import replay_game

    (a, b, c), tid = three(j)
    # what an older arbitru stored: no master line, points above the master's are alike unreadable now
    j.append(tid, "recorded", {"number": 1, "game": "t1.1", "title": "", "masters": [],
                               "scores": {a: [20], b: [10], c: [5]}, "eliminated": []})
    tournament.record(j, tid, {a: [30], b: [20], c: [10]}, [30])
    t = tournament.replay(j, tid)
    assert "without its master line" in t.games[0].unreadable and not t.games[1].unreadable
    rows = table(j, tid)
    assert rows[a].places == [1] and rows[a].mean_place == 1  # the readable game alone
    assert len(ratings.rating_list(j)) == 3
    assert replay_game(j, tid).format == "tournament"  # journal check: readable
    with pytest.raises(TournamentError, match="a result that can be read"):
        tournament.set_aside(j, tid, 2, "no")
    tournament.set_aside(j, tid, 1, "no master line on the paper sheet")
    assert tournament.replay(j, tid).games[0].set_aside == "no master line on the paper sheet"


# --- 4. absences (FISE-15, FISE-21, FISE-22, RO-6.6) -------------------------------------------------------


def test_FISE_21_FISE_15_an_absent_player_is_unrated_and_last_in_the_table(j):
    (a, b, c), tid = three(j)
    extra = registry.register(j, [Entry("Late", ratings={"elod": 1400})])[0]
    tournament.enrol(j, tid, [extra])
    tournament.record(j, tid, {a: [30], b: [20], c: [10]}, [30], absent=[extra])
    listed = {r.player: r for r in ratings.rating_list(j)}
    assert extra not in listed  # not in the game's field: no rating, no percentage, no history
    assert {r.history[0].field_size for r in listed.values()} == {3}
    rows = table(j, tid)
    assert rows[extra].places == [None] and rows[extra].absent == [1]
    assert rows[extra].mean_place == 4 and rows[extra].place == 4  # last place: 4 players in the table
    assert table(j, tid, method="mean-percentage")[extra].place == 4


def test_FISE_22_an_absent_game_is_not_in_the_history_and_games_kept_are_told(j):
    (a, b, c), tid = three(j)
    for pts in (10, 20, 30):
        tournament.record(j, tid, {a: [pts], b: [30], c: [0]}, [30])
    tournament.record(j, tid, {b: [30], c: [0]}, [30], absent=[a])
    r = next(x for x in ratings.rating_list(j) if x.player == a)
    assert r.percentage_games == 3 and r.percentage_kept == 1 and r.percentage == Fraction(20, 30)
    assert not r.provisional
    two = registry.register(j, [Entry("Two games")])[0]
    tournament.enrol(j, tid, [two])
    tournament.record(j, tid, {a: [1], b: [30], c: [0], two: [15]}, [30])
    assert next(x for x in ratings.rating_list(j) if x.player == two).provisional


def test_FISE_21_a_player_not_seated_when_the_game_is_created_is_absent_from_it(j, tiny):
    from arbitru.formats.duplicate.game import Session, Settings
    from arbitru.formats.duplicate.rulesets import ruleset

    (a, b, c), tid = three(j)
    gid = tournament.create_duplicate_game(j, tid, Settings(ruleset("fise"), "es", "tiny", racks="hand"), tiny,
                                           absent=[c])
    assert [p.name for p in Session(j, gid, tiny).game.players.values()] == ["P1600", "P1700"]
    out = tournament.outcomes(j, tournament.replay(j, tid), lambda name, lang: tiny)
    assert set(out[0].lines) == {a, b} and out[0].absent == {c}
    with pytest.raises(TournamentError, match="does not play game 2"):
        tournament.create_duplicate_game(j, tid, Settings(ruleset("fise"), "es", "tiny", racks="hand"), tiny,
                                         absent=["A99"])


def test_FISE_15_the_secretary_marks_a_seated_player_absent_and_undoes_it(j):
    (a, b, c), tid = three(j)
    tournament.record(j, tid, {a: [30], b: [20], c: [0]}, [30])
    with pytest.raises(TournamentError, match="scored 20 points in game 1"):
        tournament.mark_absent(j, tid, 1, b)
    tournament.mark_absent(j, tid, 1, c, "did not come")
    assert table(j, tid)[c].absent == [1]
    assert {r.player for r in ratings.rating_list(j)} == {a, b}
    tournament.undo_absence(j, tid, 1, c)
    assert table(j, tid)[c].places == [3]


def test_RO_6_6_an_absent_player_of_an_anticipation_game_is_last_by_total(j):
    ids = registry.register(j, [Entry(n) for n in ("Ana", "Dan", "Ion")])
    tid = tournament.create(j, Event("Anticipatie", "2026-03-01", rules="ro-anticipation", format="anticipation"))
    tournament.enrol(j, tid, ids)
    tournament.record(j, tid, {ids[0]: [50, 40], ids[1]: [10, 0]}, [], absent=[ids[2]])
    rows = table(j, tid)
    assert [rows[p].place for p in ids] == [1, 2, 3] and rows[ids[2]].absent == [1]
    assert {r.player for r in ratings.rating_list(j)} == {ids[0], ids[1]}


def test_FISE_15_a_withdrawal_before_a_game_he_has_results_in_is_refused_and_can_be_undone(j):
    (a, b, c), tid = three(j)
    tournament.record(j, tid, {a: [30], b: [20], c: [10]}, [30])
    with pytest.raises(TournamentError, match="has a result in game 1: he can withdraw after game 1 or later"):
        tournament.withdraw(j, tid, c, after_game=0)
    tournament.withdraw(j, tid, c, after_game=1)
    assert [e.player for e in tournament.replay(j, tid).players_of(2)] == [a, b]
    tournament.undo_withdrawal(j, tid, c)
    assert [e.player for e in tournament.replay(j, tid).players_of(2)] == [a, b, c]
    with pytest.raises(TournamentError, match="has not withdrawn"):
        tournament.undo_withdrawal(j, tid, c)


@pytest.fixture
def tiny():
    from arbitru.engine.lexicon import Lexicon
    from arbitru.engine.tiles import alphabet

    return Lexicon.from_words(["CASA", "AS"], alphabet("es"), name="tiny")


# --- 7. registry files as secretaries have them -------------------------------------------------------------


def test_registry_a_semicolon_cp1250_file_is_read_as_written(j):
    from arbitru.season import csvfile

    data = "Licenta;Nume;Club;Categorie;ELO\n1;Şerban Bălan;Iaşi;junior;1650\n2;Łucja Żółć;Kraków;senior;1500\n"
    text = csvfile.decode(data.encode("cp1250"))
    ids = csvfile.import_players(j, text)
    reg = registry.load(j)
    assert [reg.get(i).name for i in ids] == ["Şerban Bălan", "Łucja Żółć"]
    assert reg.get(ids[0]).club == "Iaşi" and reg.get(ids[0]).ratings == {"elod": 1650}


def test_registry_a_greek_cp1253_file_is_detected_and_an_encoding_can_be_asked(j):
    from arbitru.season import csvfile

    data = "Όνομα,Σύλλογος\nΓιώργος Παπαδόπουλος,Αθήνα\nΝίκος Ιωάννου,Πάτρα\n".encode("cp1253")
    ids = csvfile.import_players(j, csvfile.decode(data))
    assert registry.load(j).get(ids[1]).club == "Πάτρα"
    with pytest.raises(RegistryError, match="not utf-8 text"):
        csvfile.decode(data, "utf-8")


def test_registry_rows_of_the_wrong_shape_are_refused_with_their_line(j):
    from arbitru.season import csvfile

    for text, line in (("name,club\nAna,Arad\nDan,Iasi,extra\n", 3), ("name;club\nAna\nDan;Iasi\n", 2)):
        with pytest.raises(RegistryError, match=f"line {line}: [13] cells, the header .line 1. has 2"):
            csvfile.import_players(j, text)
    assert registry.load(j).records == {}


def test_registry_an_export_imports_back_to_the_same_records(j, tmp_path):
    from arbitru.season import csvfile

    registry.register(j, [Entry("=Ana+1", "7", "ROU", "-Arad", 1990, ("junior",), {"elod": 1650.5}),
                          Entry("@Dan", club="Iasi")])
    exported = csvfile.write_players(registry.load(j))
    assert "'=Ana+1" in exported  # the spreadsheet guard
    with Journal(tmp_path / "other.db", actor="arbiter") as other:
        csvfile.import_players(other, exported)
        again = [r.to_dict() for r in registry.load(other).active()]
    assert again == [r.to_dict() for r in registry.load(j).active()]
