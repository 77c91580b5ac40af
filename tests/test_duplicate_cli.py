"""``arbitru duplicate``: a hand game from the command line, an automatic game, files in and out, errors."""

from __future__ import annotations

import ast
import json

import pytest
from click.testing import CliRunner

from arbitru.cli import cli
from arbitru.journal.store import Journal


@pytest.fixture
def run(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "t.db")

    def invoke(*args, ok=True):
        result = runner.invoke(
            cli, ["duplicate", *args[:1], "-j", db, *args[1:]] if args[0] != "play" else ["duplicate", *args]
        )
        if ok:
            assert result.exit_code == 0, result.output
        return result

    invoke.db = db  # type: ignore[attr-defined]
    invoke.tmp = tmp_path  # type: ignore[attr-defined]
    return invoke


def test_cli_hand_game_from_new_to_results(run):
    out = run(
        "new",
        "--rules",
        "fise",
        "--lang",
        "es",
        "--lexicon",
        "fise-2",
        "--racks",
        "hand",
        "--moves",
        "2",
        "--player",
        "1:Ana",
        "--player",
        "2:Ion:4",
        "--player",
        "3:Eva+Max",
    ).output
    assert "Moves: 2" in out and "Racks drawn by hand" in out
    out = run("next", "--draw", "CASAXYZ").output
    assert "tiempo" in out and "[3:00] time" in out
    out = run("ties").output
    assert out.splitlines()[0].startswith("  1. ")
    slips = run.tmp / "slips.csv"
    slips.write_text("player,position,word,score\n1,H4,CASA,12\n2,4H,CASA,\n3,Z9,CASA,\n", encoding="utf-8")
    out = run("slips", str(slips)).output
    assert "move 1 player 3: Z9 CASA: 0" in out and "unknown row" in out
    out = run("next").output  # a hand game: the master move, then the referee draws
    assert "move 1: master" in out and "rack" not in out
    rack = ast.literal_eval(run("show").output.split("rack ")[1].split("; bag")[0])
    out = run("next", "--draw", "EBIDOFU"[: 7 - len(rack)]).output
    assert "move 2: rack" in out
    out = run("slips", "--player", "1", "--position", "H4", "--word", "CASA", "--late").output
    assert "handed in after time" in out
    out = run("next").output  # the last planned master move ends the game, as with seeded racks
    assert "move 2: master" in out and "game over" in out and "planned" in out
    out = run("results").output
    assert "Ranking" in out and "Move by move (FISE-17)" in out and "Eva + Max" in out
    csv_moves = run("results", "--format", "csv-moves").output
    assert csv_moves.splitlines()[0].startswith("move,player")
    assert run("results", "--format", "html").output.startswith("<!DOCTYPE html>")
    sheet = run("results", "--player", "1").output
    assert sheet.startswith("1 Ana")
    gcg_text = run("export").output
    assert gcg_text.startswith("#character-encoding UTF-8") and ">master: " in gcg_text
    out = run("show").output
    assert "game over" in out and "clock: 180 s" in out


def test_cli_play_auto_prints_each_rack_master_and_running_total(run):
    out = run(
        "play", "--auto", "--rules", "greek", "--lexicon", "el-hunspell", "--seed", "3", "--moves", "3"
    ).output
    lines = out.splitlines()
    assert lines[0].startswith("Rules: Greek duplicate")
    racks = [ln for ln in lines if ln.startswith("move ")]
    masters = [ln for ln in lines if ln.strip().startswith("master ")]
    assert len(racks) == 3 and len(masters) == 3
    assert "total" in masters[-1] and lines[-1].startswith("game over after move 3")
    # Greek positions are written letter, number, O or K
    assert masters[0].split()[2] in ("O", "K")


def test_cli_play_auto_json_for_a_screen_or_a_voice(run):
    out = run("play", "--auto", "--lexicon", "fise-2", "--seed", "1", "--moves", "1", "--json").output
    events = [json.loads(line) for line in out.splitlines()]
    rack = next(e for e in events if e["kind"] == "rack")
    kinds = [c["kind"] for c in rack["announcement"]["cues"]]
    assert "clock-start" in kinds and kinds[-1] == "time"


def test_cli_standings_over_two_games(run):
    for seed in ("1", "2"):
        run(
            "new",
            "--lexicon",
            "fise-2",
            "--racks",
            "hand",
            "--moves",
            "1",
            "--player",
            "1:Ana",
            "--player",
            "2:Ion",
            "--seed",
            seed,
        )
        run("next", "--draw", "CASAXYZ")
        run("slips", "--player", "1", "--position", "H4", "--word", "CASA")
        run("next")
    out = run("standings").output
    assert out.splitlines()[1].split()[:2] == ["1", "Ana"]
    assert "mean place" in out
    assert run("standings", "--method", "mean-percentage", "--format", "csv").output.startswith(
        "place,player"
    )


def test_cli_rule_withdraw_end_new_rack(run):
    run("new", "--lexicon", "fise-2", "--racks", "hand", "--player", "1:Ana", "--player", "2:Ion")
    run("next", "--draw", "CASAXYZ")
    out = run("new-rack", "--draw", "CASOXYZ").output
    assert "rack" in out
    run("slips", "--player", "1", "--position", "H4", "--word", "CASO")
    run("rule", "CASO", "--invalid", "--reason", "test")
    run("withdraw", "2")
    out = run("end", "power cut").output
    assert "power cut" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("next",), "no journal"),
        (("new", "--rules", "fise", "--lexicon", "no-such-list"), "no-such-list"),
        (("new", "--lexicon", "fise-2", "--racks", "prepared"), "needs --prepared"),
        (("new", "--lexicon", "fise-2", "--player", "Ana"), "NUMBER:NAME"),
        (("new", "--rules", "greek", "--lexicon", "el-hunspell", "--seconds", "60"), "GR-5C"),
    ],
)
def test_cli_errors_are_one_line_never_a_traceback(run, args, message):
    result = run(*args, ok=False)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_bad_files_are_refused_with_a_reason(run):
    run("new", "--lexicon", "fise-2", "--racks", "hand")
    run("next", "--draw", "CASAXYZ")
    bad = run.tmp / "bad.csv"
    bad.write_text("player,position,word,score\n1,H4,CASA,twelve\n", encoding="utf-8")
    result = run("slips", str(bad), ok=False)
    assert result.exit_code == 2 and "line 2: score 'twelve'" in result.output
    binary = run.tmp / "bin.csv"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    result = run("slips", str(binary), ok=False)
    assert result.exit_code == 2 and "not UTF-8" in result.output
    prepared = run.tmp / "prep.txt"
    prepared.write_text("CASAXYZ H8 CASA\nC$$\n", encoding="utf-8")
    result = run("new", "--lexicon", "fise-2", "--prepared", str(prepared), ok=False)
    assert result.exit_code == 2 and "line 2" in result.output
    result = run("next", "--draw", "QQQ", ok=False)
    assert result.exit_code == 2 and "error:" in result.output


def test_cli_prepared_game_from_a_file(run):
    prepared = run.tmp / "prep.txt"
    prepared.write_text("CASAXYZ H5 CASA\nEIOUBDF\n", encoding="utf-8")
    out = run("new", "--lexicon", "fise-2", "--prepared", str(prepared)).output
    assert "FISE-7b" in out
    run("next")
    out = run("next").output
    assert "master H5 CASA" in out and "by prepared" in out


def test_fise_18_cli_seats_late_entry_rename_withdraw_undo_disqualify(run):
    run("new", "--lexicon", "fise-2", "--racks", "hand", "--player", "1:Ana", "--player", "2:Ion")
    run("next", "--draw", "CASAXYZ")
    assert "late" in run("seat", "enter", "3", "--name", "Eva").output
    out = json.loads(run("seat", "rename", "ion", "--name", "Ion Popa", "--json").output)
    assert out["name"] == "Ion Popa" and out["former_names"] == ["2 Ion"]
    out = json.loads(run("seat", "withdraw", "1", "--move", "1", "--json").output)
    assert out["withdrawn_after"] == 1 and out["status"] == "withdrawn"
    assert "player 1 Ana: reinstate" in run("seat", "reinstate", "1").output
    out = json.loads(run("seat", "disqualify", "2", "--reason", "left the hall", "--json").output)
    assert out["disqualified_after"] == 0 and out["status"] == "disqualified"
    refused = run("seat", "disqualify", "2", ok=False)
    assert refused.exit_code == 2 and "disqualified already" in refused.output
    with Journal(run.db) as j:
        gid = j.games("duplicate")[-1].id
        assert [e.payload["change"] for e in j.events(gid, "seat")] == ["enter", "rename", "reinstate", "disqualify"]
