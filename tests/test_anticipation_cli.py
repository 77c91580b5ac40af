"""``arbitru anticipation``: the commands end to end, their output and their one-line errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from anticipation_support import COLUMNS, RO, WORDS_RO, csv_text, groups_with
from arbitru.cli import cli


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text(" ".join(WORDS_RO), "utf-8")
    runner = CliRunner()

    def invoke(*args: str, code: int = 0) -> str:
        result = runner.invoke(cli, ["anticipation", *args, "--db", str(tmp_path / "t.db")])
        assert result.exit_code == code, (result.output, result.exception)
        return result.output

    return invoke


def _groups_file(tmp_path, fixed) -> str:
    path = tmp_path / "groups.txt"
    path.write_text("\n".join(f"{i}: {RO.format(g)}" for i, g in enumerate(groups_with(fixed), 1)), "utf-8")
    return str(path)


def test_new_seeded(run, tmp_path):
    out = run("new", "--seed", "5", "--lexicon", "words.txt", "--id", "g1")
    assert out.startswith("game g1 (classic, list words)")
    assert out.count("  group ") == 15
    assert "game g1: classic" in run("show", "g1")


def test_full_game(run, tmp_path):
    from test_anticipation_correction import AL, CAL, GROUPS, row

    run("new", "--groups", _groups_file(tmp_path, GROUPS), "--lexicon", "words.txt", "--id", "g")
    for turn, group in enumerate(range(2, 16), 1):
        assert run("lot", "g", str(turn), "--group", str(group)).startswith(f"turn {turn}: group {group}")
    (tmp_path / "s.csv").write_text(
        csv_text([AL, CAL, row(3, "G9", "VEST", 24, note="Verificare: VEST"), ("Dan", 2, *AL[2:])]), "utf-8"
    )
    assert run("slips", "g", "s.csv") == "4 slips stored (events #16–#19)\n"
    assert "error: line 2: a slip of Ana for turn 1 is already stored (event #16)" in run(
        "slips", "g", "s.csv", code=2
    )
    out = run("correct", "g", "--turn", "3")
    assert out.splitlines()[0] == "Verification requests (RO-5.3):"  # answered first
    assert "VEST: valid" in out.splitlines()[1]
    assert "RO-6.3a: position signs inverted: written G9, the player's board has 9G" in out
    out = run("results", "g")
    assert out.splitlines()[0].startswith("1.   Ana: 11")
    data = json.loads(run("results", "g", "--json"))
    ana = data["players"][0]
    assert (ana["player"], ana["total"], ana["place"]) == ("Ana", 11, 1)
    assert ana["turns"][2]["placements"][0]["rule"] == "RO-6.3a"
    assert ana["turns"][2]["placements"][0]["penalty"] == 20
    run(
        "decide", "g", "Ana", "--target", "penalty", "--action", "cancel", "--turn", "3", "--reason", "appeal"
    )
    assert json.loads(run("results", "g", "--json"))["players"][0]["total"] == 31
    run("warn", "g", "Dan", "--reason", "noise")
    assert "disciplinary −20" in run("results", "g", "--player", "Dan")
    run("eliminate", "g", "Dan", "--reason", "phone")
    assert "eliminated for cheating" in run("results", "g", "--player", "Dan")
    assert run("board", "g", "Ana").splitlines()[8].split()[:9] == [
        "H",
        "=",
        "·",
        "·",
        "'",
        "·",
        "C",
        "A",
        "L",
    ]
    files = run("forms", "g", "--out", "forms").split()
    assert {f.split("/")[-1] for f in files} == {
        "slips.html",
        "annotation.html",
        "results.html",
        "ranking.html",
        "ranking.csv",
    }
    cues = json.loads(run("announce", "g", "--json"))
    assert cues[1]["text"] == "Grupa 1" and cues[2]["text"] == "ANA"


def test_bad_slip_file_is_refused_with_line_and_field(run, tmp_path):
    from test_anticipation_correction import GROUPS

    run("new", "--groups", _groups_file(tmp_path, GROUPS), "--lexicon", "words.txt", "--id", "g")
    (tmp_path / "bad.csv").write_text(f"{COLUMNS}\nAna,1,1,H7,AL,4,,\n,1,2,H6,CAL,3,,\n", "utf-8")
    out = run("slips", "g", "bad.csv", code=2)
    assert out == ("error: line 3, field 'player': empty; every row must name the player whose slip it is\n")
    assert "slips: 0" in run("show", "g")


def test_bad_groups_file_is_refused(run, tmp_path):
    (tmp_path / "g.txt").write_text("OP\n" + "ACEIRTS\n" * 14, "utf-8")
    out = run("new", "--groups", "g.txt", "--lexicon", "words.txt", code=2)
    assert out.startswith("error: group 1 (OP) does not form both words (RO-5.2.d)")


def test_lots_drawn_from_the_seed_are_reproducible(run):
    run("new", "--seed", "3", "--lexicon", "words.txt", "--id", "a")
    run("new", "--seed", "3", "--lexicon", "words.txt", "--id", "b")
    assert run("lot", "a", "--all").replace("table", "") == run("lot", "b", "--all").replace("table", "")
    assert "already has its lot" in run("lot", "a", "1", "--group", "5", code=2)


def test_lot_by_the_arbiter(run, tmp_path):
    from test_anticipation_correction import GROUPS

    run("new", "--groups", _groups_file(tmp_path, GROUPS), "--lexicon", "words.txt", "--id", "g")
    group9 = RO.format(groups_with(GROUPS)[8])
    assert run("lot", "g", "--group", "9", "--arbiter") == f"turn 1: group 9 {group9} (drawn by arbiter)\n"
    assert "drawn by arbiter" in run("show", "g")
    assert "group 9 was already played in turn 1" in run("lot", "g", "2", "--group", "9", code=2)


def test_ro_5_5_f_correcting_a_turn_tells_each_player(run, tmp_path):
    from test_anticipation_correction import AL, GROUPS, row

    run("new", "--groups", _groups_file(tmp_path, GROUPS), "--lexicon", "words.txt", "--id", "g", "--lots")
    (tmp_path / "t1.csv").write_text(csv_text([AL]), "utf-8")
    (tmp_path / "t2.csv").write_text(csv_text([row(2, "H6", "CAX", 3)]), "utf-8")
    run("slips", "g", "t1.csv", "--turn", "1")
    run("slips", "g", "t2.csv", "--turn", "2")
    out = run("correct", "g", "--turn", "2")
    assert out.splitlines() == [
        "Ana",
        "  turn 2.1 H6 CAX                 invalid      0  RO-6.1a: main word CAX is not in the official "
        "list (words)",
    ]


def test_seat_and_publish(run, tmp_path):
    run("new", "--seed", "5", "--lexicon", "words.txt", "--id", "g")
    (tmp_path / "entrants.csv").write_text(
        "player,rating,club,late,name\nana,1900,A,,Ana Pop\ndan,1800,A,,Dan Ion\nion,1700,B,,Ion Vas\n",
        "utf-8",
    )
    assert run("seat", "g", "entrants.csv").splitlines() == [
        "table   1: Ana Pop (ana)",
        "table   2: Ion Vas (ion)",
        "table   3: Dan Ion (dan)",
    ]
    assert "contests until 18:30" in run("publish", "g", "--provisional", "--deadline", "18:30", "--confirm")
    assert run("results", "g").splitlines()[0] == "provisional results, contests until 18:30"
    run("publish", "g", "--final", "--confirm")  # before the deadline of 18:30: confirmed (RO-5.5.j)
    out = run(
        "decide",
        "g",
        "ana",
        "--target",
        "total",
        "--action",
        "adjust",
        "--points",
        "3",
        "--reason",
        "x",
        code=2,
    )
    assert "the ranking is final" in out


def test_RO_5_1_cli_late_entry_at_the_last_table(run, tmp_path):
    run("new", "--seed", "5", "--lexicon", "words.txt", "--id", "g")
    (tmp_path / "entrants.csv").write_text("player,rating\nana,1900\ndan,1800\n", "utf-8")
    run("seat", "g", "entrants.csv")
    assert run("late-entry", "g", "eva", "--name", "Eva Târziu") == "table 3: Eva Târziu (eva) (late entry, RO-5.1)\n"
    assert "seated already, at table 3" in run("late-entry", "g", "eva", code=2)
