"""A season's history is never rewritten (issue 31), on the CLI: the issue's own measurements, replayed."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from anticipation_support import WORDS_RO
from arbitru.cli import cli


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    db = str(tmp_path / "s.db")

    def invoke(*args, ok=True, db_flag="-j"):
        result = runner.invoke(cli, [*args, db_flag, db])
        if ok:
            assert result.exit_code == 0, (result.output, result.exception)
        return result

    invoke.tmp = tmp_path  # type: ignore[attr-defined]
    return invoke


def write(run, name, text, encoding="utf-8"):
    path = run.tmp / name
    path.write_bytes(text.encode(encoding))
    return str(path)


def three(run):
    """The issue's season: three players rated 1600/1700/1800, one tournament on 2026-03-01."""
    players = write(run, "p.csv", "licence,name,federation,elo\n1,Ana,ESP,1600\n2,Bea,ESP,1700\n3,Cid,ESP,1800\n")
    run("registry", "import", players)
    run("tournament", "create", "Open", "--start", "2026-03-01", "--id", "t1")
    run("tournament", "enrol", "t1", "A1", "A2", "A3")


def elods(run, *args):
    out = json.loads(run("ratings", "list", "--json", *args).output)
    return {p["player"]: p["elod"] for p in out["players"]}


def test_FISE_21_cli_a_list_dated_after_the_season_leaves_as_of_before_it_unchanged(run):
    three(run)
    run("tournament", "record", "t1", write(run, "g1.csv", "master,30\nA1,30\nA2,20\nA3,10\n"))
    assert elods(run, "--as-of", "2026-06-30") == {"A1": 1628.0, "A2": 1700.0, "A3": 1772.0}
    run("registry", "rating-list", write(run, "list.csv", "licence,name,rating\n1,Ana,1900\n2,Bea,1400\n3,Cid,1700\n"),
        "--date", "2027-01-01", "--federation", "ESP")
    assert elods(run, "--as-of", "2026-06-30") == {"A1": 1628.0, "A2": 1700.0, "A3": 1772.0}
    history = run("ratings", "player", "A1", "--as-of", "2026-06-30").output
    assert "rating 1600.0 -> 1628.0" in history
    assert elods(run) == {"A1": 1900.0, "A2": 1400.0, "A3": 1700.0}  # the list in force today


def test_FISE_21_cli_a_tournament_rated_in_its_own_system(run):
    three(run)
    run("tournament", "create", "Cupa", "--start", "2026-04-01", "--rules", "romanian", "--rating-system", "ro",
        "--id", "t2")
    run("registry", "add", "Ion", "--rating", "ro=1900")
    run("tournament", "enrol", "t2", "A4")
    run("tournament", "record", "t2", write(run, "g.csv", "master,10\nA4,10\n"))
    assert "Ion" in run("ratings", "list").output  # listed with no elod (his game is rated in ro): no error
    ro = json.loads(run("ratings", "list", "--system", "ro", "--json").output)
    assert {p["player"]: p["elod"] for p in ro["players"]} == {"A4": 1900.0}


def test_FISE_22_cli_percentages_rounded_as_on_the_pages_and_games_kept_told(run):
    three(run)
    run("tournament", "record", "t1", write(run, "g1.csv", "master,11,22\nA1,11,0\nA2,4,0\nA3,0,22\n"))
    out = run("ratings", "player", "A1").output
    assert "33.33%" in out and "33.333" not in out
    listed = run("ratings", "list").output
    assert "33.33%* (1 of 1 games kept)" in listed
    first = json.loads(run("ratings", "list", "--json").output)["players"][0]
    assert first["percentage_kept"] == 1 and first["provisional"] is True


def test_FISE_15_cli_a_merge_of_two_records_of_one_game_is_refused_then_resolved_and_undone(run):
    three(run)
    run("registry", "add", "Ana again")
    run("tournament", "enrol", "t1", "A4")
    run("tournament", "record", "t1", write(run, "g1.csv", "master,60\nA1,60\nA2,20\nA3,10\nA4,0\n"))
    refused = run("registry", "merge", "A4", "A1", ok=False)
    assert refused.exit_code == 2 and "both have a result in Open game 1 (t1.1)" in refused.output
    run("registry", "merge", "A4", "A1", "--keep", "t1.1=A1", "--reason", "one person")
    history = json.loads(run("ratings", "player", "A1", "--json").output)["history"]
    assert (history[0]["place"], history[0]["field"], history[0]["percentage"]) == (1, 3, 100.0)
    assert history[0]["rating_after"] > 1600
    rows = {r["player"]: r for r in json.loads(run("tournament", "table", "t1", "--json").output)["rows"]}
    assert rows["A1"]["totals"] == [60] and "A4" not in rows
    run("registry", "unmerge", "A4", "--reason", "two people")
    rows = {r["player"]: r for r in json.loads(run("tournament", "table", "t1", "--json").output)["rows"]}
    assert rows["A4"]["places"] == [4] and rows["A1"]["places"] == [1]


def test_FISE_15_cli_a_result_without_a_master_line_is_refused_with_nothing_stored(run):
    three(run)
    for text, why in (("A1,20\nA2,10\nA3,5\n", "needs its master line"),
                      ("master,30\nA1,45\nA2,10\nA3,5\n", "line 2: A1: 45 points in move 1"),
                      ("master,30\nA1,30\nA2,10\n", "no line for A3 Cid"),
                      ("master,30\nA1,30\nA2,10\nA2,absent\n", "line 4: A2 is given twice")):
        result = run("tournament", "record", "t1", write(run, "r.csv", text), ok=False)
        assert result.exit_code == 2 and why in result.output, result.output
    assert json.loads(run("tournament", "table", "t1", "--json").output)["games"] == []
    run("journal", "check")


def test_FISE_15_cli_a_season_with_an_unreadable_old_result_is_still_served(run, tmp_path):
    from arbitru.journal.store import Journal

    three(run)
    with Journal(str(tmp_path / "s.db")) as j:  # as an older arbitru stored it: no master line
        j.append("t1", "recorded", {"number": 1, "game": "t1.1", "title": "", "masters": [],
                                    "scores": {"A1": [20], "A2": [10], "A3": [5]}, "eliminated": []})
    run("tournament", "record", "t1", write(run, "g2.csv", "master,30\nA1,30\nA2,20\nA3,10\n"))
    text = run("tournament", "table", "t1").output
    assert "game 1: a result that cannot be read, left out" in text and "zip()" not in text
    assert json.loads(run("tournament", "table", "t1", "--json").output)["games"] == [2]
    assert len(elods(run)) == 3
    run("journal", "check")
    run("tournament", "set-aside", "t1", "1", "--reason", "the paper sheet has no master line")
    assert "set aside: the paper sheet has no master line" in run("tournament", "table", "t1").output


def test_FISE_21_FISE_15_cli_an_absent_player_is_unrated_and_last_in_the_table(run):
    three(run)
    run("registry", "add", "Dan", "--rating", "elod=1400")
    run("tournament", "enrol", "t1", "A4")
    run("tournament", "record", "t1", write(run, "g1.csv", "master,30\nA1,30\nA2,20\nA3,10\nA4,absent\n"))
    assert "A4" not in elods(run)
    rows = {r["player"]: r for r in json.loads(run("tournament", "table", "t1", "--json").output)["rows"]}
    assert rows["A4"]["place"] == 4 and rows["A4"]["absent_from"] == [1] and rows["A4"]["mean_place"] == 4
    assert "absent" in run("tournament", "table", "t1", "--csv").output.splitlines()[-1]
    # a withdrawal "after game 0" for a player with a result is refused; after game 1 it stands, and is undone
    refused = run("tournament", "withdraw", "t1", "A1", "--after", "0", ok=False)
    assert refused.exit_code == 2 and "has a result in game 1" in refused.output
    run("tournament", "withdraw", "t1", "A1", "--after", "1")
    run("tournament", "withdraw", "t1", "A1", "--undo")
    assert json.loads(run("tournament", "table", "t1", "--json").output)["rows"][0]["withdrawn_after"] is None


def test_FISE_21_cli_duplicate_new_in_a_tournament_seats_the_enrolled_players_but_the_absent(run, tmp_path):
    from arbitru.formats.duplicate.game import Session
    from arbitru.journal.store import Journal

    three(run)
    run("registry", "add", "Dan")
    run("tournament", "enrol", "t1", "A4")
    out = json.loads(run("duplicate", "new", "--tournament", "t1", "--absent", "A2", "--lexicon", "fise-2",
                         "--racks", "hand", "--json").output)
    assert out["settings"]["title"] == "Open · 1" and out["settings"]["rules"]["name"] == "fise"
    with Journal(str(tmp_path / "s.db")) as j:
        players = Session(j, out["game"]).game.players.values()
        assert [(p.number, p.name) for p in players] == [("1", "Ana"), ("3", "Cid"), ("4", "Dan")]
    rows = {r["player"]: r for r in json.loads(run("tournament", "table", "t1", "--json").output)["rows"]}
    assert rows["A2"]["absent_from"] == [1]
    refused = run("duplicate", "new", "--tournament", "t1", "--rules", "greek", "--lexicon", "fise-2", ok=False)
    assert refused.exit_code != 0 and "plays the rule set fise" in refused.output


def test_RO_6_6_cli_anticipation_new_in_a_tournament_seats_by_rating_but_the_absent(run, tmp_path):
    from arbitru.formats.anticipation.game import AnticipationGame
    from arbitru.journal.store import Journal

    (run.tmp / "words.txt").write_text(" ".join(WORDS_RO), "utf-8")
    run("registry", "import", write(run, "p.csv", "name,club,elo\nAna,A,1500\nDan,B,1900\nIon,C,1700\n"))
    run("tournament", "create", "Anticipatie", "--start", "2026-03-01", "--rules", "ro-anticipation", "--format",
        "anticipation", "--id", "t1")
    run("tournament", "enrol", "t1", "A1", "A2", "A3")
    out = run("anticipation", "new", "--tournament", "t1", "--absent", "A3", "--seed", "5", "--lexicon",
              "words.txt", "--id", "g1", "--json", db_flag="--db")
    assert json.loads(out.output)["game"] == "g1"
    with Journal(str(tmp_path / "s.db")) as j:
        seating = AnticipationGame(j, "g1").replay().seating
    assert sorted(seating, key=seating.__getitem__) == ["2", "1"]  # Dan (1900) before Ana (1500); Ion absent
    rows = {r["player"]: r for r in json.loads(run("tournament", "table", "t1", "--json").output)["rows"]}
    assert rows["A3"]["absent_from"] == [1]
