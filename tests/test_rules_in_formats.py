"""The rules live in the formats, where the CLI and the web call the same code: the hall's state, the desk's
hints (RO-6.2), sealed groups (RO-8.4), the players of a duplicate game, a typed GameNotFound; and the pages ask
the formats' order what is allowed (RO-4.3, RO-5.3, FISE-16)."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from anticipation_support import csv_text, new_game
from arbitru.cli import cli
from arbitru.errors import GameNotFound, JournalError
from arbitru.formats.anticipation.draw import GroupsError, read_sealed_groups_csv
from arbitru.formats.anticipation.hall import hall_state
from arbitru.formats.duplicate.game import GameError, read_players_csv
from arbitru.journal.store import Journal
from test_anticipation_correction import GROUPS, row
from web_anticipation_support import create_game, form
from web_support import login, make_site


def test_an_unknown_game_is_a_typed_game_not_found(tmp_path):
    with Journal(tmp_path / "j.db") as j, pytest.raises(GameNotFound, match="no game 'nope'"):
        j.game("nope")
    assert issubclass(GameNotFound, JournalError)


def test_ro_6_2_the_cli_desk_shows_the_desks_hints_and_who_is_missing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = new_game(tmp_path, GROUPS, [2], seating=[("Ana", 1, "Ana Pop"), ("Dan", 2, "Dan Ion")])
    game.import_slips_csv(csv_text([row(1, "H7", "AL", "", 5)]))
    result = CliRunner().invoke(cli, ["anticipation", "desk", game.id, "--db", str(tmp_path / "games.db")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "turn 1: 1 slips in, 1 missing" and lines[1].endswith("Ana Pop (Ana)")
    assert "    check: turn 1 has 2 placements; this slip has 1" in lines
    assert "    check: placement 1: no score written" in lines
    assert lines[-1] == "missing: Dan Ion (Dan) (table 2)"
    data = json.loads(CliRunner().invoke(cli, ["anticipation", "desk", game.id, "--json", "--db",
                                               str(tmp_path / "games.db")]).output)
    assert data["missing"] == ["Dan"] and len(data["slips"][0]["hints"]) == 2


def test_ro_8_4_one_reading_of_the_sealed_groups_for_the_cli_and_the_web(ro):
    text = "player,group,letters\n" + "\n".join(f"Ana,{i},{g}" for i, g in enumerate(["AL", "BDEIOTU"], 1))
    assert read_sealed_groups_csv(ro, text)["Ana"][0] == ro.parse_rack("AL").tiles()
    with pytest.raises(GroupsError, match=r"sets, line 3: Ana: group 1 is given twice"):
        read_sealed_groups_csv(ro, "Ana,1,AL\nAna,2,BDEIOTU\nAna,1,AL\n", "sets")
    with pytest.raises(GroupsError, match=r"line 1: expected player,group,letters \(group 1 to 15\)"):
        read_sealed_groups_csv(ro, "Ana,16,AL\n")
    with pytest.raises(GroupsError, match="no sealed group given"):
        read_sealed_groups_csv(ro, "\n")


def test_fise_3_one_reading_of_the_players_for_the_cli_and_the_web(tmp_path):
    players = read_players_csv("number,name,table\n1,Ana,1\n2,Bo + Cy,2\n")
    assert [(p.number, p.name, p.table, p.members) for p in players] == [
        ("1", "Ana", "1", ()), ("2", "Bo + Cy", "2", ("Bo", "Cy"))]
    with pytest.raises(GameError, match="player number 1 appears twice"):
        read_players_csv("1,Ana\n1,Bo\n")
    with pytest.raises(GameError, match=r"players, line 1: player number '1-2': letters and digits"):
        read_players_csv("1-2,Ana\n")
    (tmp_path / "players.csv").write_text("number,name\n1,Ana\n2,Bo + Cy\n", "utf-8")
    db = str(tmp_path / "d.db")
    result = CliRunner().invoke(cli, ["duplicate", "new", "-j", db, "--lexicon", "fise-2", "--players",
                                      str(tmp_path / "players.csv"), "--player", "3:Dan", "--json"])
    assert result.exit_code == 0, result.output
    with Journal(db) as j:
        (gid,) = j.game_ids("duplicate")
        assert [e.payload["number"] for e in j.events(gid, "player")] == ["3", "1", "2"]
    (tmp_path / "bad.csv").write_text("1,Ana\n1,Bo\n", "utf-8")
    result = CliRunner().invoke(cli, ["duplicate", "new", "-j", db, "--lexicon", "fise-2", "--players",
                                      str(tmp_path / "bad.csv")])
    assert result.exit_code == 2 and "error: " in result.output and "appears twice" in result.output


def test_RO_4_3_the_console_refuses_a_lot_while_the_analysis_runs_and_the_screen_shows_the_turn(tmp_path):
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    for _ in range(16):
        assert form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}").status_code == 303
    assert form(arbiter, f"/games/{gid}/clock", {"timer": "analysis", "action": "start"},
                f"/games/{gid}").status_code == 303
    r = form(arbiter, f"/games/{gid}/lot", {"turn": "1", "group": "2", "by": "arbiter"}, f"/games/{gid}")
    assert r.status_code == 422 and "(RO-4.3)" in r.text and site.events(gid, "lot") == []
    assert form(arbiter, f"/games/{gid}/clock", {"timer": "analysis", "action": "stop"},
                f"/games/{gid}").status_code == 303
    assert form(arbiter, f"/games/{gid}/lot", {"turn": "1", "group": "2", "by": "arbiter"},
                f"/games/{gid}").status_code == 303
    clock = site.client().get(f"/api/games/{gid}").json()["clock"]
    assert clock["timer"] == "turn 1" and clock["state"] == "idle"  # not the analysis any more
    with Journal(site.db) as j:
        from arbitru.formats.anticipation.game import AnticipationGame

        hall = hall_state(j, AnticipationGame(j, gid))
    assert hall.order(time.time()).timer() == "turn 1" and hall.current_turn == 1


def test_RO_6_5_a_late_slip_from_a_phone_is_not_counted_until_the_arbiter_accepts_it(tmp_path):
    from arbitru.formats.anticipation.game import AnticipationGame

    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    form(arbiter, f"/games/{gid}/lot", {"turn": "1", "group": "2", "by": "arbiter"}, f"/games/{gid}")
    with Journal(site.db, actor="arbiter") as j:
        AnticipationGame(j, gid).clock("turn 1", "start", time.time() - 8 * 60 - 1)
    body = {"turn": 1, "placements": [{"position": "H7", "word": "AL", "score": 4}], "turn_total": 4}
    code = site.code(gid, "Ana")
    r = site.client().post(f"/api/games/{gid}/slips", json=body, headers={"Authorization": f"Bearer {code}"})
    assert r.status_code == 201 and r.json()["late"] is True and r.json()["replaces"] is None
    with Journal(site.db) as j:
        assert AnticipationGame(j, gid).replay().results["Ana"].total == 0
    r = form(arbiter, f"/games/{gid}/decide", {"player": "Ana Popescu", "target": "late", "action": "accept",
                                               "turn": "1", "reason": "the hall clock ran fast"},
             f"/games/{gid}/review")
    assert r.status_code == 303
    with Journal(site.db) as j:
        assert AnticipationGame(j, gid).replay().results["Ana"].total == 4

