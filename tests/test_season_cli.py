"""The season on the CLI: ``arbitru registry``, ``tournament``, ``championship``, ``ratings``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arbitru.cli import cli


@pytest.fixture
def run(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "s.db")

    def invoke(*args, ok=True):
        result = runner.invoke(cli, [*args, "-j", db])
        if ok:
            assert result.exit_code == 0, result.output
        return result

    invoke.tmp = tmp_path  # type: ignore[attr-defined]
    return invoke


def write(run, name, text):
    path = run.tmp / name
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def season(run):
    players = write(run, "p.csv", "\ufeffLicence,Nume,Club,ELO\nL1,Ana,Arad,1800\nL2,Dan,Iasi,1600\nL3,Ion,Arad,1500\n")
    run("registry", "import", players, "--map", "Nume=name")
    run("tournament", "create", "Cupa", "--start", "2026-03-01", "--id", "t1")
    run("tournament", "enrol", "t1", "A1", "A2", "A3")
    run("tournament", "record", "t1", write(run, "g1.csv", "master,20,30\nA1,20,10\nA2,10,30\nA3,5,5\n"))
    run("tournament", "withdraw", "t1", "A3")
    run("tournament", "record", "t1", write(run, "g2.csv", "master,40\nA1,40\nA2,20\n"))


def test_FISE_15_cli_table_json_by_registry_id_with_the_tie_order(run):
    season(run)
    out = json.loads(run("tournament", "table", "t1", "--json").output)
    assert out["method"] == "mean-place" and out["tie_order"][0].startswith("mean place")
    rows = {r["player"]: r for r in out["rows"]}
    assert rows["A1"]["places"] == [2, 1] and rows["A3"]["places"] == [3, None]
    assert rows["A3"]["mean_place"] == 3.0 and rows["A3"]["withdrawn_after"] == 1
    run("registry", "correct", "A1", "--name", "Ana Pop", "--reason", "typo")
    out = json.loads(run("tournament", "table", "t1", "--json").output)
    assert {r["player"]: r["name"] for r in out["rows"]}["A1"] == "Ana Pop"
    assert "Ana Pop" in run("tournament", "table", "t1", "--csv").output


def test_FISE_21_FISE_22_cli_ratings_give_id_games_and_value(run):
    season(run)
    out = json.loads(run("ratings", "list", "--json").output)
    first = out["players"][0]
    assert {"player", "elod", "elod_games", "percentage", "percentage_games"} <= set(first)
    a1 = next(p for p in out["players"] if p["player"] == "A1")
    assert a1["elod_games"] == 2 and a1["percentage_games"] == 2
    history = json.loads(run("ratings", "player", "A1", "--json").output)["history"]
    assert [g["place"] for g in history] == [2, 1]
    assert history[0]["rating_before"] == 1800


def test_RO_6_6_cli_championship_points_shared_by_tied_players(run):
    season(run)
    run("tournament", "create", "Etapa 2", "--start", "2026-04-01", "--rules", "romanian", "--id", "t2")
    run("tournament", "enrol", "t2", "A1", "A2", "A3")
    run("tournament", "record", "t2", write(run, "g3.csv", "master,30\nA1,30\nA2,30\nA3,10\n"))
    run("championship", "create", "Nationala", "--points", "10,8,6", "--id", "c1")
    run("championship", "stage", "c1", "t2")
    rows = {r["player"]: r for r in json.loads(run("championship", "table", "c1", "--json").output)["rows"]}
    assert rows["A1"]["stage_points"] == [10] and rows["A2"]["stage_points"] == [10]
    assert rows["A3"]["stage_points"] == [6]


def test_cli_championship_eliminate_refuses_the_same_player_twice(run):
    season(run)
    run("championship", "create", "Nationala", "--id", "c1")
    run("championship", "stage", "c1", "t1")
    run("championship", "eliminate", "c1", "A2", "1", "--reason", "RO-7.1")
    for player, why in (("A2", "A2 is eliminated from stage 1 already"), ("A9", "A9")):
        result = run("championship", "eliminate", "c1", player, "1", "--reason", "again", ok=False)
        assert result.exit_code == 2 and result.output.startswith("error:") and why in result.output
        assert result.output.count("\n") == 1


def test_cli_rating_list_import_then_bad_input_is_one_error_line(run):
    season(run)
    lst = write(run, "elo.csv", "Licence,Name,Rating\nL2,Dan,2000\n")
    run("registry", "rating-list", lst, "--date", "2026-01-01")
    listed = json.loads(run("registry", "list", "--json").output)["players"]
    assert next(p for p in listed if p["id"] == "A2")["ratings"]["elod"] == 2000
    bad = write(run, "bad.csv", "Licence,Name\nL7,X\nL7,Y\n")
    result = run("registry", "import", bad, ok=False)
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "lines 2 and 3" in result.output
    result = run("tournament", "enrol", "t1", "A99", ok=False)
    assert result.exit_code == 2 and result.output.startswith("error:")
    result = run("tournament", "create", "X", "--start", "2026-13-01", ok=False)
    assert result.exit_code == 2 and "not a date" in result.output


def test_a_tournament_names_the_language_of_its_pages_else_its_rule_sets(run):
    made = json.loads(run("tournament", "create", "Coupe", "--start", "2026-03-01", "--lang", "fr", "--json").output)
    assert made["lang"] == "fr"
    made = json.loads(run("tournament", "create", "Cupa", "--start", "2026-03-01", "--rules", "romanian",
                          "--json").output)
    assert made["lang"] == ""  # the rule set's: Romanian
    assert run("tournament", "create", "X", "--start", "2026-03-01", "--lang", "de", ok=False).exit_code == 2


def test_a_registry_file_with_no_name_column_is_refused_with_the_clis_map_option(run):
    """The CLI can map a column (``--map``): its refusal suggests it (the web's says what the file needs)."""
    result = run("registry", "import", write(run, "p.csv", "Licence,Full name\nL1,Ana\n"), ok=False)
    assert result.exit_code == 2 and result.output.startswith("error:"), result.output
    assert "no column for the player's name (columns: Licence, Full name)" in result.output
    assert "--map 'Nume=name'" in result.output
