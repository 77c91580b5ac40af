"""Notices and publication as RO-5.5.f–j say: what is told during the next turn, true to the slip and its group,
sorted by table and split by arbiter; the provisional ranking with *provizoriu*, the deadline, title, date;
the final ranking after the deadline (or confirmed) with the ranking points."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from anticipation_support import WORDS_RO, play
from arbitru.cli import cli
from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.forms import ranking_csv, ranking_page
from arbitru.formats.anticipation.notices import arbiter_tables, notices
from test_anticipation_correction import AL, CAL, GROUPS, LOTS, row

SEATING = [("Ana", 1, "Ana Pop"), ("Dan", 2, "Dan Ion"), ("Ion", 3, "Ion Vas"), ("Eva", 4, "Eva Lup")]


def hall(tmp_path):
    """Turn 2: Eva (table 4) G6 CAT fits two places; Ana (table 1) CAL fine; Dan (table 2) CALX invalid and asks
    for a verification; Ion (table 3) H6 CAL inverted as 6H: a technical penalty."""
    rows = [
        AL, CAL,
        row(1, "H7", "AL", 4, 4, player="Eva", table=4), row(2, "G6", "CAT", 12, player="Eva", table=4),
        row(1, "H7", "AL", 4, 4, player="Dan", table=2),
        row(2, "H6", "CALX", 9, player="Dan", table=2, note="Verificare: CALX"),
        row(1, "H7", "AL", 4, 4, player="Ion", table=3), row(2, "6H", "CAL", 3, player="Ion", table=3),
    ]
    return play(tmp_path, GROUPS, LOTS, rows, seating=SEATING)


def test_RO_5_5_f_an_invalid_placement_is_told_so_the_player_fixes_his_grid(tmp_path):
    _, state = hall(tmp_path)
    said = [n for n in notices(state, 2) if n.player == "Dan Ion"]
    assert [n.rule for n in said] == ["RO-5.5.h", "RO-5.5.f"]  # the verification's answer first
    assert str(said[1].text).startswith("H6 CALX is not valid (RO-6.1") and "take it off your grid" in said[1].text


def test_RO_5_5_h_the_verification_answer_is_given_first(tmp_path):
    _, state = hall(tmp_path)
    (first, *_) = [n for n in notices(state, 2) if n.table == 2]
    assert first.rule == "RO-5.5.h" and str(first.text).startswith("verification: CALX: NOT in")


def test_RO_5_5_i_a_wrong_position_is_told_with_its_penalty_and_never_as_a_blank(tmp_path):
    _, state = hall(tmp_path)
    ion = [n for n in notices(state, 2) if n.player == "Ion Vas"]
    assert [n.rule for n in ion] == ["RO-5.5.i"] and "6H CAL: the position on your grid is H6" in ion[0].text
    assert "technical penalty −" in ion[0].text and "(RO-6.3" in ion[0].text
    eva = [str(n.text) for n in notices(state, 2) if n.player == "Eva Lup"]
    assert any("fits your grid in more than one place" in t for t in eva)
    assert not any("blank" in str(n.text) for n in notices(state, 2))  # the groups have no blank


def test_RO_5_5_g_notices_by_table_split_by_arbiter(tmp_path):
    _, state = hall(tmp_path)
    said = notices(state, 2, ["Mara", "Radu"])
    assert [n.table for n in said] == sorted(n.table for n in said)
    assert {n.table: n.arbiter for n in said} == {2: "Mara", 3: "Radu", 4: "Radu"}
    assert arbiter_tables(range(1, 8), ["A", "B", "C"]) == {1: "A", 2: "A", 3: "A", 4: "B", 5: "B", 6: "C", 7: "C"}


def test_RO_5_5_g_the_cli_prints_each_arbiters_notices(tmp_path, monkeypatch):
    game, _ = hall(tmp_path)
    db = str(tmp_path / "games.db")
    out = CliRunner().invoke(cli, ["anticipation", "notices", game.id, "--turn", "2", "--arbiter", "Mara",
                                   "--arbiter", "Radu", "--db", db]).output
    lines = out.splitlines()
    assert lines[0] == "Mara:" and lines[1].startswith("  table 2 Dan Ion: verification: CALX")
    assert "Radu:" in lines and lines.index("Radu:") > 2


def test_RO_5_5_j_the_provisional_ranking_says_provizoriu_the_deadline_title_and_date(tmp_path):
    game, _ = hall(tmp_path)
    game.publish("provisional", "18:30", title="Cupa Bucureștiului", date="2026-05-01", confirmed=True)
    page = ranking_page(game.replay())
    # the date as Romanian writes it (arbitru.figures: Babel's format for the locale), not the ISO text typed
    assert "Clasament provizoriu — Cupa Bucureștiului" in page and "Data: 1 mai 2026" in page
    assert "Contestații până la: <b>18:30</b>" in page and "Puncte de clasament" not in page


def test_RO_5_5_j_the_final_ranking_only_after_the_deadline_or_confirmed(tmp_path):
    game, _ = hall(tmp_path)
    with pytest.raises(ArbitruError, match=r"RO-5\.5\.j: provisional results with the deadline for contests come"):
        game.publish("final")
    start = time.mktime((2026, 5, 1, 17, 0, 0, 0, 0, -1))
    game.publish("provisional", "18:30", title="Cupa", now=start, confirmed=True)
    with pytest.raises(ArbitruError, match=r"contests may be lodged until 18:30 .*: publish the final ranking after"):
        game.publish("final", points=[25, 20, 16], now=start + 60 * 60)
    assert game.replay().stage == "provisional"
    game.publish("final", points=[25, 20, 16], now=start + 90 * 60 + 1)
    state = game.replay()
    assert state.publications[-1]["title"] == "Cupa" and state.stage == "final"
    points = state.publications[-1]["points"]
    assert points == {r.player: [25, 20, 16, 0][r.place - 1] for r in state.ranking if r.place}
    page = ranking_page(state)
    assert "Clasament final — Cupa" in page and "Puncte de clasament" in page and "provizoriu" not in page
    assert ranking_csv(state).splitlines()[0].endswith(",ranking_points")


def test_RO_5_5_j_a_deadline_that_cannot_be_read_needs_confirmation_on_the_cli(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text(" ".join(WORDS_RO), "utf-8")
    game, _ = hall(tmp_path)
    db = str(tmp_path / "games.db")

    def run(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(cli, ["anticipation", "publish", game.id, *args, "--db", db])
        return result.exit_code, result.output

    assert run("--provisional", "--deadline", "după masă", "--confirm")[0] == 0
    code, out = run("--final", "--points", "10,8,6")
    assert code == 2 and "'după masă'" in out and "confirm" in out
    code, out = run("--final", "--points", "10,8,6", "--confirm", "--json")
    places = {r.player: r.place for r in game.replay().ranking}
    assert code == 0 and json.loads(out)["points"] == {p: [10, 8, 6, 0][n - 1] for p, n in places.items()}
    assert sorted(places.values()) == [1, 2, 2, 2]  # the tied share the higher place's points (RO-6.6)
