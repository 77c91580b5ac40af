"""Only seated players: a warning, a decision, an elimination, a slip or a withdrawal names a seated player's
number, or a name that is his alone; anything else is refused with the seating (RO-5.1, RO-6.4, RO-6.5, FISE-14,
GR-7)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from anticipation_support import WORDS_RO, new_game
from arbitru.cli import cli
from arbitru.formats.anticipation.slips import Slip, SlipRow
from arbitru.formats.players import PlayerError
from test_anticipation_correction import GROUPS

SEATING = [("d7", 1, "Dana Țurcanu"), ("a2", 2, "Ana Pop"), ("i9", 3, "Ion Vas")]


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text(" ".join(WORDS_RO), "utf-8")
    (tmp_path / "seating.csv").write_text("".join(f"{p},{t},{n}\n" for p, t, n in SEATING), "utf-8")
    runner = CliRunner()

    def invoke(fmt: str, *args: str, code: int = 0) -> str:
        db = ["--db", str(tmp_path / "t.db")] if fmt == "anticipation" else ["-j", str(tmp_path / "d.db")]
        argv = [fmt, *args[:1], *db, *args[1:]] if fmt == "duplicate" else [fmt, *args, *db]
        result = runner.invoke(cli, argv)
        assert result.exit_code == code, (result.output, result.exception)
        return result.output

    invoke("anticipation", "new", "--seed", "5", "--lexicon", "words.txt", "--id", "g", "--players", "seating.csv")
    return invoke


def test_RO_6_4_a_warning_for_a_name_is_stored_for_the_one_seated_player_it_names(run):
    out = run("anticipation", "warn", "g", "dana țurcanu", "--reason", "talking")
    assert out == "disciplinary warning #3 stored for d7 Dana Țurcanu (table 1)\n"
    players = json.loads(run("anticipation", "results", "g", "--json"))["players"]
    assert len(players) == 3 and [p["player"] for p in players if p["disciplinary"]] == ["d7"]


def test_RO_6_4_a_warning_for_someone_not_seated_is_refused_with_the_seating(run):
    out = run("anticipation", "warn", "g", "Dana Turcanu", "--reason", "talking", code=2)
    assert out.startswith("error: no player Dana Turcanu in this game; seated: d7 Dana Țurcanu (table 1), a2 Ana")
    assert len(json.loads(run("anticipation", "results", "g", "--json"))["players"]) == 3
    out = run("anticipation", "eliminate", "g", "77", "--reason", "phone", code=2)
    assert "no player 77 in this game; seated:" in out and "i9 Ion Vas (table 3)" in out


def test_RO_6_5_a_decision_for_a_player_who_does_not_exist_is_refused(run, tmp_path):
    args = ("--target", "total", "--action", "adjust", "--points", "3", "--reason", "recount")
    assert "no player 77 in this game" in run("anticipation", "decide", "g", "77", *args, code=2)
    assert run("anticipation", "decide", "g", "Ana Pop", *args) == "decision #3 stored for a2 Ana Pop (table 2)\n"


def test_RO_5_3_only_a_seated_player_hands_in_a_slip(tmp_path):
    game = new_game(tmp_path, GROUPS, [2, 3], seating=SEATING)
    slip = Slip("Zoe", 1, [SlipRow(line=1, table="4", turn="1", position="H8", word="AL", score="4")])
    with pytest.raises(PlayerError, match="no player Zoe in this game; seated: d7 Dana Țurcanu"):
        game.hand_in(slip, 0.0)
    assert game.journal.events(game.id, "slip") == []


def test_a_name_shared_by_two_seated_players_asks_for_the_number(tmp_path):
    game = new_game(tmp_path, GROUPS, seating=[("1", 1, "Ana Pop"), ("2", 2, "Ana Pop")])
    with pytest.raises(PlayerError, match="is the name of 2 seated players: give the number"):
        game.sanction("Ana Pop", "disciplinary", "talking")
    assert game.sanction("2", "disciplinary", "talking") > 0


def test_GR_7_a_withdrawal_takes_a_number_or_a_name(run):
    run("duplicate", "new", "--lexicon", "fise-2", "--racks", "hand", "--player", "1:Ana", "--player", "2:Ion")
    assert run("duplicate", "withdraw", "ion") == "player 2 Ion withdrawn\n"
    out = run("duplicate", "withdraw", "Dana Țurcanu", code=2)
    assert "no player Dana Țurcanu in this game; seated: 1 Ana, 2 Ion" in out
