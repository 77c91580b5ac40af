"""The season: registry, tournaments, general tables (FISE-15), championships (RO-6.6), ratings
(FISE-21, FISE-22), seating by the registry's rating (RO-5.1), through the library."""

from __future__ import annotations

from fractions import Fraction

import pytest

from arbitru.journal.store import Journal
from arbitru.season import championship, csvfile, ratings, registry, tournament
from arbitru.season.registry import Entry, RegistryError
from arbitru.season.table import general_table
from arbitru.season.tournament import Event


@pytest.fixture
def j(tmp_path):
    with Journal(tmp_path / "season.db", actor="arbiter") as journal:
        yield journal


PLAYERS = "licence,name,club,federation,birth year,categories,rating\n" + "\n".join(
    f"L{i},Player {i},{'Arad' if i % 2 else 'Iasi'},ROU,{1960 + i},{'junior' if i < 3 else 'senior'},{1400 + 50 * i}"
    for i in range(1, 7)
)


def season_start(j):
    ids = csvfile.import_players(j, PLAYERS)
    tid = tournament.create(j, Event("Cupa Arad", "2026-03-01", "2026-03-02", "Arad", "CS Arad"), "t-arad")
    tournament.enrol(j, tid, ids[:5])
    return ids, tid


def record(j, tid, scores, masters, **kw):
    """A recorded game, the enrolled players without a line marked absent (the door wants one or the other)."""
    t = tournament.replay(j, tid)
    absent = [e.player for e in t.players_of(len(t.games) + 1) if e.player not in scores]
    return tournament.record(j, tid, scores, masters, absent=absent, **kw)


def table(j, tid, **kw):
    t = tournament.replay(j, tid)
    return general_table(t, registry.load(j), tournament.outcomes(j, t), **kw)


# --- registry ---------------------------------------------------------------------------------------------


def test_registry_a_licence_given_twice_is_refused_with_its_lines_and_nothing_is_stored(j):
    text = "\ufeffLicence,Name\nL1,Ana\nL2,Dan\nL1,Ana Pop\n"
    with pytest.raises(RegistryError, match="lines 2 and 4"):
        csvfile.import_players(j, text)
    assert registry.load(j).records == {}


def test_registry_licence_unique_within_a_federation_not_across(j):
    csvfile.import_players(j, "licence,name,federation\n7,Ana,ROU\n7,Ana,BEL\n")
    with pytest.raises(RegistryError, match="already"):
        registry.register(j, [Entry("Other", "7", "ROU")])
    assert [r.licence_id for r in registry.load(j).active()] == ["7", "7"]
    no_licence = registry.register(j, [Entry("Club guest")])[0]
    assert registry.load(j).get(no_licence).licence_id == no_licence


def test_registry_header_mapping_and_export_round_trip(j):
    csvfile.import_players(j, "Nume,Club X,Rating:ro\nAna,Arad,1900\n", mapping={"Nume": "name", "Club X": "club"})
    out = csvfile.write_players(registry.load(j))
    assert out.splitlines()[1] == "A1,,,Ana,Arad,,,1900"


def test_registry_corrections_and_merges_keep_history(j):
    a, b = registry.register(j, [Entry("Ana Pop"), Entry("Ana  Popp")])
    registry.correct(j, a, {"club": "Arad"}, "new club")
    registry.merge(j, b, a, "one person")
    reg = registry.load(j)
    assert reg.get(b).id == a
    assert [c.kind for c in reg.get(a).history] == ["corrected", "merged"]
    kinds = [e.kind for e in j.events(registry.REGISTRY_ID)]
    assert kinds == ["registered", "corrected", "merged"]


# --- FISE-15: the general table -------------------------------------------------------------------------


def test_FISE_15_mean_place_an_absent_player_takes_the_last_place(j):
    ids, tid = season_start(j)
    a, b, c, d, e = ids[:5]
    record(j, tid, {a: [10, 20], b: [20, 20], c: [5, 5], d: [0, 0], e: [1, 1]}, [20, 20])
    record(j, tid, {a: [30, 30], b: [10, 10], c: [20, 20], d: [5, 5]}, [30, 30])  # e absent
    rows = {r.player: r for r in table(j, tid)}
    assert rows[a].places == [2, 1] and rows[a].mean_place == Fraction(3, 2)
    assert rows[e].places == [4, None] and rows[e].mean_place == Fraction(4 + 5, 2)  # last place: 5 players
    assert rows[a].place == 1 and rows[b].place == 2


def test_FISE_15_mean_percentage_over_every_move_against_the_best_player_score(j):
    ids, tid = season_start(j)
    a, b = ids[:2]
    record(j, tid, {a: [10, 0], b: [20, 0]}, [20, 10])  # move 2: nobody scored, left out
    record(j, tid, {a: [30], b: [15]}, [30])
    rows = {r.player: r for r in table(j, tid, method="mean-percentage")}
    assert rows[a].mean_percentage == (Fraction(10, 20) + 1) / 2
    assert rows[b].mean_percentage == (1 + Fraction(15, 30)) / 2
    # equal mean percentage: the mean place breaks the tie (a: places 2, 1; b: 1, 2) -> still tied, shared
    assert rows[a].place == rows[b].place == 1


def test_FISE_15_single_game_tie_breaks_of_the_rule_set_place_a_recorded_game(j):
    ids, tid = season_start(j)
    a, b = ids[:2]
    record(j, tid, {a: [20, 10], b: [10, 20]}, [20, 25])  # equal totals, a has the top move
    rows = {r.player: r for r in table(j, tid)}
    assert rows[a].places == [1] and rows[b].places == [2]


def test_FISE_15_tables_per_category_and_per_club(j):
    ids, tid = season_start(j)
    record(j, tid, {p: [10 * i] for i, p in enumerate(ids[:5], 1)}, [50])
    juniors = table(j, tid, category="junior")
    assert [r.name for r in juniors] == ["Player 2", "Player 1"] and [r.place for r in juniors] == [1, 2]
    arad = table(j, tid, club="Arad")
    assert [r.name for r in arad] == ["Player 5", "Player 3", "Player 1"]


def test_renaming_a_player_changes_every_table_and_no_standing_depends_on_spelling(j):
    ids, tid = season_start(j)
    a, b = ids[:2]
    record(j, tid, {a: [10], b: [20]}, [20])
    registry.correct(j, a, {"name": "Player 2"}, "same name as b, still two people")
    rows = table(j, tid)
    assert {r.player for r in rows if r.name == "Player 2"} == {a, b}
    registry.correct(j, a, {"name": "Zoe"})
    assert "Zoe" in [r.name for r in table(j, tid)]
    assert "Zoe" in [r.name for r in ratings.rating_list(j)]
    cid = championship.create(j, "Cup")
    championship.add_stage(j, cid, tid)
    assert "Zoe" in [s.name for s in championship.compute(j, cid, lambda t: table(j, t))]


def test_a_merged_record_counts_as_the_record_kept(j):
    ids, tid = season_start(j)
    a, b = ids[:2]
    record(j, tid, {a: [10], b: [20]}, [20])
    registry.merge(j, b, a, "one person")
    assert [r.player for r in table(j, tid)].count(a) == 1


# --- enrolment, withdrawals, games created in the tournament ---------------------------------------------


def test_withdrawals_carry_forward_and_late_entries_join(j):
    ids, tid = season_start(j)
    record(j, tid, {p: [5] for p in ids[:5]}, [5])
    tournament.withdraw(j, tid, ids[0])
    tournament.enrol(j, tid, [ids[5]], late=True)
    t = tournament.replay(j, tid)
    assert [e.player for e in t.players_of(2)] == ids[1:6]
    with pytest.raises(tournament.TournamentError, match="does not play game 2"):
        tournament.record(j, tid, {ids[0]: [1]}, [1])


def test_enrol_on_the_spot_registers_the_player(j):
    _, tid = season_start(j)
    new = tournament.enrol(j, tid, new=[Entry("Walk In", club="Arad")])
    assert registry.load(j).get(new[0]).name == "Walk In"
    with pytest.raises(tournament.TournamentError, match="enrolled already"):
        tournament.enrol(j, tid, new)


def test_a_duplicate_game_of_the_tournament_takes_its_players_by_entry_with_registry_names(j):
    from arbitru.engine.lexicon import Lexicon
    from arbitru.engine.tiles import alphabet
    from arbitru.formats.duplicate.game import Session, Settings
    from arbitru.formats.duplicate.rulesets import ruleset

    ids, tid = season_start(j)
    tournament.withdraw(j, tid, ids[4], after_game=0)
    lex = Lexicon.from_words(["CASA", "AS"], alphabet("es"), name="tiny")
    gid = tournament.create_duplicate_game(j, tid, Settings(ruleset("fise"), "es", "tiny", racks="hand"), lex)
    players = Session(j, gid, lex).game.players
    assert [(p.number, p.name) for p in players.values()] == [(str(i), f"Player {i}") for i in range(1, 5)]
    out = tournament.outcomes(j, tournament.replay(j, tid), lambda name, lang: lex)
    assert set(out[0].lines) == set(ids[:4])


def test_RO_5_1_anticipation_seating_reads_the_registry_rating_late_entries_last(j):
    ids = csvfile.import_players(j, PLAYERS)
    tid = tournament.create(j, Event("Cupa", "2026-04-01", rules="ro-anticipation", format="anticipation"))
    tournament.enrol(j, tid, ids[:4])
    tournament.enrol(j, tid, [ids[5]], late=True)
    t = tournament.replay(j, tid)
    seats = tournament.seating(t, registry.load(j), 1)
    # ratings 1450..1600 for players 1..4, the late player 6 (1700) at the last table; clubs apart
    assert [s[2] for s in seats] == ["Player 4", "Player 3", "Player 2", "Player 1", "Player 6"]
    registry.correct(j, ids[0], {"ratings": {"elod": 2000}})
    assert tournament.seating(t, registry.load(j), 1)[0][2] == "Player 1"
    assert tournament.seating(t, registry.load(j), 2)[1][2] == "Player 6"  # not late for the next game


# --- RO-6.6: championships -------------------------------------------------------------------------------


def test_RO_6_6_tied_players_each_get_the_points_of_the_higher_place(j):
    ids, tid = season_start(j)
    a, b, c, d, e = ids[:5]
    tournament.create(j, Event("Etapa", "2026-05-01", rules="romanian"), "t-2")
    record(j, tid, {a: [50], b: [40], c: [40], d: [10], e: [5]}, [50])
    cid = championship.create(j, "Nationala", points=[10, 8, 6, 5, 4])
    championship.add_stage(j, cid, tid)
    st = {s.player: s for s in championship.compute(j, cid, lambda t: table(j, t, method="total"))}
    assert st[b].stage_points == [8] and st[c].stage_points == [8] and st[d].stage_points == [5]
    assert st[b].place == st[c].place == 2 and st[d].place == 4


def test_RO_6_6_best_n_of_m_absent_and_eliminated_players(j):
    ids, tid = season_start(j)
    a, b, c = ids[:3]
    record(j, tid, {a: [30], b: [20], c: [10]}, [30])
    t2 = tournament.create(j, Event("Etapa 2", "2026-06-01", rules="romanian"))
    tournament.enrol(j, t2, [a, b, c])
    record(j, t2, {a: [10], b: [30]}, [30], eliminated=[b])  # c absent, b eliminated (RO-6.4)
    t3 = tournament.create(j, Event("Etapa 3", "2026-07-01", rules="romanian"))
    tournament.enrol(j, t3, [a, b, c])
    record(j, t3, {a: [10], b: [20], c: [30]}, [30])
    cid = championship.create(j, "Nationala", points=[10, 8, 6], best=2)
    for x in (tid, t2, t3):
        championship.add_stage(j, cid, x)
    st = {s.player: s for s in championship.compute(j, cid, lambda t: table(j, t, method="total"))}
    assert st[a].stage_points == [10, 10, 6] and st[a].total == 20
    assert st[b].stage_points == [8, 0, 8] and st[b].total == 16
    assert st[c].stage_points == [6, None, 10] and st[c].total == 16
    assert st[b].place == st[c].place == 2
    championship.eliminate(j, cid, a, 1, "cheating (RO-7.1)")
    st = {s.player: s for s in championship.compute(j, cid, lambda t: table(j, t, method="total"))}
    assert st[a].stage_points[0] == 0


def test_championship_eliminate_refuses_the_same_player_twice_and_a_player_not_in_the_stage(j):
    """The finding "championship eliminate accepts the same player twice": a second elimination from the same stage
    was stored as a second event. Now it is refused, as is a player the stage's tournament does not have."""
    ids, tid = season_start(j)
    cid = championship.create(j, "Nationala", points=[10, 8, 6])
    championship.add_stage(j, cid, tid)
    championship.eliminate(j, cid, ids[0], 1, "cheating (RO-7.1)")
    with pytest.raises(championship.ChampionshipError, match=f"{ids[0]} is eliminated from stage 1 already"):
        championship.eliminate(j, cid, ids[0], 1, "again")
    with pytest.raises(championship.ChampionshipError, match=f"{ids[5]} does not play stage 1"):
        championship.eliminate(j, cid, ids[5], 1, "never enrolled")  # registered, not enrolled in Cupa Arad
    assert len(j.events(cid, "eliminated")) == 1


def test_RO_6_6_default_points_table_is_documented_and_never_rises():
    assert list(championship.DEFAULT_POINTS) == sorted(championship.DEFAULT_POINTS, reverse=True)
    assert championship.points_for(2, (10, 8)) == 8 and championship.points_for(3, (10, 8)) == 0


# --- FISE-21 and FISE-22: ratings ------------------------------------------------------------------------


def test_FISE_21_expected_places_add_up_to_the_places_and_the_strongest_is_expected_first():
    field = [2400, 1500, 1520, 1480, 1300, 1600]
    e = ratings.expected_places(field)
    assert sum(e) == pytest.approx(sum(range(1, len(field) + 1)))
    assert e[0] < 1.1 and min(e) == e[0]
    assert ratings.shared_places([1, 2, 2, 4]) == [1, 2.5, 2.5, 4]
    assert sum(ratings.shared_places([1, 2, 2, 4])) == 10


def test_FISE_21_ratings_move_by_place_against_expectation_and_sum_to_zero(j):
    ids, tid = season_start(j)
    a, b, c, d, e = ids[:5]
    record(j, tid, {a: [50], b: [40], c: [30], d: [20], e: [10]}, [50])  # weakest first
    listed = {r.player: r for r in ratings.rating_list(j)}
    start = {p: registry.load(j).get(p).ratings["elod"] for p in ids[:5]}
    assert listed[a].elod > start[a] and listed[e].elod < start[e]
    assert sum(listed[p].elod - start[p] for p in ids[:5]) == pytest.approx(0)
    assert listed[a].elod_games == 1 and listed[a].history[0].expected == pytest.approx(
        ratings.expected_places([start[p] for p in ids[:5]])[0])
    again = {r.player: r.elod for r in ratings.rating_list(j)}
    assert again == {p: r.elod for p, r in listed.items()}  # recomputed from the journal: the same list


def test_FISE_21_rating_list_as_of_a_date(j):
    ids, tid = season_start(j)
    record(j, tid, {p: [i] for i, p in enumerate(ids[:5])}, [5])
    assert ratings.rating_list(j, as_of="2026-02-28") == []
    assert len(ratings.rating_list(j, as_of="2026-03-02")) == 5


def test_FISE_22_mean_of_percentages_drops_the_best_and_the_worst(j):
    ids, tid = season_start(j)
    a = ids[0]
    for pts in (10, 50, 30, 40):
        record(j, tid, {a: [pts]}, [100])
    r = next(x for x in ratings.rating_list(j) if x.player == a)
    assert r.percentage == Fraction(35, 100) and r.percentage_games == 4


def test_FISE_22_fewer_than_three_games_nothing_is_dropped(j):
    ids, tid = season_start(j)
    a = ids[0]
    for pts in (10, 50):
        record(j, tid, {a: [pts]}, [100])
    r = next(x for x in ratings.rating_list(j) if x.player == a)
    assert r.percentage == Fraction(30, 100)


def test_rating_list_import_starts_from_the_federation_ratings(j):
    ids = csvfile.import_players(j, PLAYERS)
    reg = registry.load(j)
    rated, added = csvfile.import_rating_list(j, reg, "Licence,Name,ELO\nL1,Player 1,2100\nL9,New,1700\n",
                                              system="elod", date="2026-01-01", federation="ROU",
                                              register_unknown=True)
    reg = registry.load(j)
    assert rated == [ids[0]] and reg.get(ids[0]).ratings["elod"] == 2100
    assert reg.get(added[0]).ratings["elod"] == 1700
    with pytest.raises(RegistryError, match="not in the registry"):
        csvfile.import_rating_list(j, reg, "Licence,Name,ELO\nL77,X,1\n", system="elod", date="2026-01-01",
                                   federation="ROU")


def test_journal_check_replays_the_registry_and_tournaments(j):
    from arbitru.cli.journal import replay_game

    _, tid = season_start(j)
    assert replay_game(j, tid).format == "tournament"
    assert replay_game(j, registry.REGISTRY_ID).events == 1


def test_a_recorded_result_that_replay_could_not_read_is_refused_and_nothing_stored(j):
    ids, tid = season_start(j)
    before = j.last_seq(tid)
    with pytest.raises(tournament.TournamentError):
        record(j, tid, {ids[0]: [10]}, [-5])
    with pytest.raises(tournament.TournamentError, match="moves"):
        record(j, tid, {ids[0]: [10, 5]}, [20])
    with pytest.raises(tournament.TournamentError, match=r"10+ points in move 1, where the master scored 20"):
        record(j, tid, {ids[0]: [10**12]}, [20])
    assert j.last_seq(tid) == before


def test_a_damaged_tournament_event_is_one_journal_error_naming_it(j):
    """Changed by issue 31: a damaged *result* no longer takes the tournament down (it is shown as unreadable,
    naming its event, and the rest is served); any other damaged event is still one error naming it."""
    from arbitru.errors import JournalError

    _, tid = season_start(j)
    j.append(tid, "recorded", {"number": 1, "game": "x", "scores": {"A1": ["ten"]}, "masters": [1]})
    assert "event 2" in tournament.replay(j, tid).games[0].unreadable
    j.append(tid, "withdrawn", {"player": "A1", "after_game": "one"})
    with pytest.raises(JournalError, match="event 3"):
        tournament.replay(j, tid)
