"""Anticipation in the web app over HTTP (Starlette's test client, the real app, a real journal): the console
(draw typed in the hall, reading of the groups, lots, timers, sealed groups, seating), the projection grid, the
slip desk, the correction review, results, the player's browser and the JSON API; every role, CSRF, hostile input.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arbitru.cli import cli
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.journal.store import Journal
from arbitru.web import auth
from web_anticipation_support import GROUPS, create_game, form, groups_text
from web_support import csrf, document, join, login, make_game, make_site

OUTPUT = Path(__file__).parent / "output"  # the PDFs, to look at


@pytest.fixture
def site(tmp_path):
    return make_site(tmp_path)


@pytest.fixture
def arbiter(site):
    c = site.client()
    login(c)
    return c


@pytest.fixture
def gid(site, arbiter):
    return create_game(site, arbiter)


def game_of(site, gid: str) -> AnticipationGame:
    return AnticipationGame(Journal(site.db, actor="arbiter"), gid)


def read_all(site, arbiter, gid: str, steps: int = 16) -> None:
    """The arbiter reads out the 15 groups and reads them again (RO-5.2.f–g)."""
    for _ in range(steps):
        r = form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}")
        assert r.status_code == 303, r.text


def lot(arbiter, gid: str, turn: int, group: int, table: str = "") -> None:
    r = form(arbiter, f"/games/{gid}/lot", {"turn": str(turn), "group": str(group), "by": "table",
                                             "table": table or str(turn)}, f"/games/{gid}")
    assert r.status_code == 303, r.text


def desk_client(site, arbiter, name: str = "desk1"):
    r = form(arbiter, "/desks", {"name": name, "password": "desk-pass-1"}, "/")
    assert r.status_code == 303
    c = site.client()
    login(c, name, "desk-pass-1")
    return c


def type_slip(client, gid: str, turn: int, **fields: str):
    return form(client, f"/games/{gid}/slips", {"collected": str(turn), "turn": str(turn), **fields},
                f"/games/{gid}/slips?turn={turn}")


# --- creating a game -------------------------------------------------------------------------------------------


def test_ro_5_2_groups_typed_in_the_hall_are_checked_and_every_problem_listed(site, arbiter):
    from anticipation_support import lexicon

    lexicon()
    lines = groups_text().splitlines()
    lines[0] = "LL"  # group 1 no longer forms both words, and one A too few, one L too many
    lines[5] = lines[5][:-1]  # a 7-letter group with 6 letters
    token = csrf(arbiter.get("/anticipation/new").text)
    r = arbiter.post("/anticipation/new", data={"csrf": token, "lexicon": "test-ro", "source": "hall",
                                                 "groups": "\n".join(lines)})
    assert r.status_code == 422
    problems = re.findall(r"<li>(.*?)</li>", r.text.split('id="groups-error"')[1].split("</div>")[0])
    assert any("RO-5.2.d" in p for p in problems)
    assert any("group 6" in p and "RO-1.1" in p for p in problems)
    assert any("RO-3.1" in p for p in problems)
    assert len(problems) >= 4
    with Journal(site.db) as j:
        assert j.games("anticipation") == []  # nothing stored


def test_ro_5_1_seating_by_rating_from_csv(site, arbiter):
    from anticipation_support import lexicon

    lexicon()
    token = csrf(arbiter.get("/anticipation/new").text)
    r = arbiter.post("/anticipation/new", data={
        "csrf": token, "lexicon": "test-ro", "source": "seed", "seed": "7", "seating": "ratings",
        "players": "Ana,1500,Club A\nBo,2100,Club A\nCleo,1800,Club B\nDan,2000,Club C,yes\n"})
    assert r.status_code == 303
    gid = r.headers["location"].rsplit("/", 1)[1]
    state = game_of(site, gid).replay()
    # by rating (Bo, Cleo, Ana), the late entry last (RO-5.1)
    assert sorted(state.seating, key=state.seating.get) == ["Bo", "Cleo", "Ana", "Dan"]
    assert state.draw is not None and state.draw.method == "seeded"


def test_a_bad_seating_or_list_is_refused_beside_its_field(site, arbiter):
    token = csrf(arbiter.get("/anticipation/new").text)
    r = arbiter.post("/anticipation/new", data={"csrf": token, "lexicon": "no-such-list-xyz", "source": "seed"})
    assert r.status_code == 422 and 'id="lexicon-error"' in r.text
    r = arbiter.post("/anticipation/new", data={"csrf": token, "lexicon": "test-ro", "source": "seed",
                                                 "players": "Ana,one"})
    assert r.status_code == 422 and 'id="players-error"' in r.text and "table" in r.text


# --- reading the draw, the projection grid, timers, lots -----------------------------------------------------


def test_ro_5_2_f_the_projected_grid_fills_in_as_groups_are_read_out(site, arbiter, gid):
    public = site.client()
    screen = public.get(f"/games/{gid}/screen").text
    assert 'class="tile' not in screen
    r = form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}")
    assert r.status_code == 303
    live = public.get(f"/games/{gid}/screen/live").text
    tiles = re.findall(r'<td class="tile[^"]*">(.*?)</td>', live)
    assert tiles == ["A", "L"]  # group 1 only, alphabetical
    assert 'data-say="Grupa 1: ANA, LUCA."' in live  # spoken with the Annex 2 names
    # the analysis starts only after the second reading (RO-5.2.g-h)
    r = form(arbiter, f"/games/{gid}/clock", {"timer": "analysis", "action": "start"}, f"/games/{gid}")
    assert r.status_code == 422 and "citite a doua oară (RO-5.2.g-h)" in r.text and "read again" not in r.text
    read_all(site, arbiter, gid, 15)  # 14 more groups and the second reading
    assert form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}").status_code == 422
    live = public.get(f"/games/{gid}/screen/live").text
    assert len(re.findall(r'<td class="tile', live)) == 100
    assert 'class="tile blank">?' in live  # blanks last, marked
    with Journal(site.db) as j:
        steps = [e.payload for e in j.events(gid, "announced")]
    assert len(steps) == 16 and steps[-1] == {"step": "recap"}
    r = form(arbiter, f"/games/{gid}/clock", {"timer": "analysis", "action": "start"}, f"/games/{gid}")
    assert r.status_code == 303
    data = public.get(f"/api/games/{gid}").json()
    assert data["clock"]["timer"] == "analysis" and data["clock"]["state"] == "running"
    assert 2690 < data["clock"]["remaining"] <= 2700  # RO-4.3: 45 minutes


def test_ro_5_3_lots_at_table_k_or_by_the_arbiter_and_ro_4_3_turn_timers(site, arbiter, gid):
    read_all(site, arbiter, gid)
    r = form(arbiter, f"/games/{gid}/clock", {"timer": "turn 1", "action": "start"}, f"/games/{gid}")
    assert r.status_code == 422 and "bilețelul turului 1 nu a fost încă tras (RO-5.3)" in r.text
    lot(arbiter, gid, 1, 2)
    r = form(arbiter, f"/games/{gid}/lot", {"turn": "2", "group": "2", "by": "arbiter"}, f"/games/{gid}")
    assert r.status_code == 422 and "already played in turn 1" in r.text
    r = form(arbiter, f"/games/{gid}/lot", {"turn": "2", "by": "arbiter"}, f"/games/{gid}")  # seeded
    assert r.status_code == 303
    with Journal(site.db) as j:
        lots = j.events(gid, "lot")
    assert [(e.payload["drawn_by"], e.actor) for e in lots] == [("table 1", "arbiter"), ("arbiter", "arbiter")]
    r = form(arbiter, f"/games/{gid}/clock", {"timer": "turn 2", "action": "start"}, f"/games/{gid}")
    assert r.status_code == 303
    clock = site.client().get(f"/api/games/{gid}").json()["clock"]
    assert clock["timer"] == "turn 2" and 470 < clock["remaining"] <= 480  # RO-4.3: 8 minutes in turn 2
    page = arbiter.get(f"/games/{gid}").text
    assert "Mai este 1 minut." in page  # RO-5.5.c, as a cue of the turn's chronometer
    r = form(arbiter, f"/games/{gid}/clock", {"timer": "turn 2", "action": "start"}, f"/games/{gid}")
    assert r.status_code == 422 and "cronometrul (turul 2) merge: nu poate porni" in r.text


def test_ro_5_5_d_without_a_visible_clock_time_is_called_every_two_minutes(site, arbiter):
    from anticipation_support import lexicon

    lexicon()
    token = csrf(arbiter.get("/anticipation/new").text)
    r = arbiter.post("/anticipation/new", data={"csrf": token, "lexicon": "test-ro", "source": "hall",
                                                 "groups": groups_text(), "no_clock": "1",
                                                 "players": "Ana,1"})
    gid = r.headers["location"].rsplit("/", 1)[1]
    game = game_of(site, gid)
    game.draw_lot(1, 2)
    game.clock("turn 1", "start", time.time())
    page = site.client().get(f"/games/{gid}/screen").text
    cues = json.loads(re.search(r"data-cues='([^']*)'", page).group(1).replace("&#34;", '"'))
    assert [c["text"] for c in cues if c["kind"] == "time"] == [
        "Mai sunt 6 minute.", "Mai sunt 4 minute.", "Mai sunt 2 minute.", "Mai este 1 minut."]


# --- the slip desk ---------------------------------------------------------------------------------------------


def test_ro_5_3_the_desk_stores_exactly_what_was_written_with_hints_and_the_missing_tables(site, arbiter, gid):
    read_all(site, arbiter, gid)
    desk = desk_client(site, arbiter)
    r = type_slip(desk, gid, 1, table="1", position1="H7", word1="AL", score1="4")
    assert r.status_code == 422 and "bilețelul turului 1 nu a fost încă tras" in r.text  # no lot: no slips for turn 1
    lot(arbiter, gid, 1, 2)
    # a total that is not the sum, a score that is not a number: hints, never a refusal
    r = type_slip(desk, gid, 1, table="1", position1="H7", word1="AL", score1="4", position2="7G",
                  word2="BAT", score2="2l", total="99", note="Verificare")
    assert r.status_code == 303
    page = desk.get(r.headers["location"]).text
    assert "punctajul &#39;2l&#39; nu este un număr" in page and "totalul turului 99" not in page
    with Journal(site.db) as j:
        (e,) = j.events(gid, "slip")
    assert e.actor == "desk:desk1"
    assert [(row["position"], row["word"], row["score"]) for row in e.payload["rows"]] == [
        ("H7", "AL", "4"), ("7G", "BAT", "2l")]
    assert {(row["turn_total"], row["note"]) for row in e.payload["rows"]} == {("99", "Verificare")}
    missing = desk.get(f"/games/{gid}/slips?turn=1").text.split('id="missing"')[1].split("</section>")[0]
    assert "Lipsesc: 2 din 3" in missing and ">2<" in missing and ">3<" in missing and ">1<" not in missing
    # the same table again: refused unless re-entered on purpose; the first entry stays in the journal
    r = type_slip(desk, gid, 1, table="1", position1="H7", word1="AL", score1="4")
    assert r.status_code == 422 and "este deja păstrat" in r.text and "bifați „Înlocuiește”" in r.text, r.text
    assert "already stored" not in r.text and "--replace" not in r.text  # the page's way, in Romanian
    r = type_slip(desk, gid, 1, table="1", position1="H7", word1="AL", score1="4", total="4", replace="1")
    assert r.status_code == 303
    assert len(site.events(gid, "slip")) == 2
    r = type_slip(desk, gid, 1, table="9")
    assert r.status_code == 422 and "niciun jucător la masa &#39;9&#39;" in r.text


def test_several_desks_at_once_each_entry_with_its_desk(site, arbiter, gid):
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    d1, d2 = desk_client(site, arbiter, "d1"), desk_client(site, arbiter, "d2")
    assert type_slip(d1, gid, 1, table="1", position1="H7", word1="AL", score1="4").status_code == 303
    assert type_slip(d2, gid, 1, table="2", note="PAS").status_code == 303
    with Journal(site.db) as j:
        assert [(e.payload["player"], e.actor) for e in j.events(gid, "slip")] == [("Ana", "desk:d1"),
                                                                                  ("Bo", "desk:d2")]
    entered = d1.get(f"/games/{gid}/slips?turn=1").text
    # each desk named in the page's language (issue 33: "masa: maria", not the journal's actor "desk:maria")
    assert "masa de arbitraj d1" in entered and "masa de arbitraj d2" in entered and "desk:d1" not in entered


# --- the player's browser and the API --------------------------------------------------------------------------


def test_a_player_hands_in_his_slip_and_sees_only_his_own(site, arbiter, gid):
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    ana, bo = site.client(), site.client()
    join(ana, site, gid, "Ana")
    join(bo, site, gid, "Bo")
    page = ana.get(f"/games/{gid}/play").text
    assert "Turul 1" in page and 'name="position2"' in page  # turn 1: two placements (RO-5.3)
    r = form(ana, f"/games/{gid}/slip", {"turn": "1", "position1": "H7", "word1": "AL", "score1": "4",
                                         "position2": "7G", "word2": "BAT", "score2": "21", "total": "25"},
             f"/games/{gid}/play")
    assert r.status_code == 303
    assert "7G BAT 21" in ana.get(f"/games/{gid}/play").text
    assert "BAT" not in bo.get(f"/games/{gid}/play").text  # nobody else's slip
    assert "BAT" not in bo.get(f"/games/{gid}/play/live").text
    # a player cannot reach the desk, the review, another player's board, or arbiter actions
    for url in (f"/games/{gid}", f"/games/{gid}/slips", f"/games/{gid}/review", f"/games/{gid}/board/Ana",
                f"/games/{gid}/codes"):
        assert bo.get(url).status_code == 403, url
    assert form(bo, f"/games/{gid}/lot", {"turn": "2"}, f"/games/{gid}/play").status_code == 403
    with Journal(site.db) as j:
        (e,) = j.events(gid, "slip")
    assert e.actor == "player:Ana" and e.payload["player"] == "Ana" and e.payload["late"] is False


def test_a_slip_after_the_turns_time_is_stored_and_flagged_late_by_the_server_clock(site, arbiter, gid):
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    game_of(site, gid).clock("turn 1", "start", time.time() - 8 * 60 - 1)  # the 8 minutes are over
    code = site.code(gid, "Cleo")
    body = {"turn": 1, "placements": [{"position": "H7", "word": "AL", "score": 4}], "turn_total": 4}
    r = site.client().post(f"/api/games/{gid}/slips", json=body, headers={"Authorization": f"Bearer {code}"})
    assert r.status_code == 201 and r.json()["late"] is True and r.json()["stored"] is True
    with Journal(site.db) as j:
        (e,) = j.events(gid, "slip")
    assert e.payload["late"] is True and e.payload["rows"][0]["score"] == "4"


def test_api_slip_status_codes(site, arbiter, gid):
    read_all(site, arbiter, gid)
    c = site.client()
    url = f"/api/games/{gid}/slips"
    body = {"turn": 1, "placements": [{"position": "H7", "word": "AL", "score": 4}], "turn_total": 4, "note": ""}
    assert c.post(url, json=body).status_code == 401
    assert c.post(url, json=body, headers={"Authorization": "Bearer WRONGCODE"}).status_code == 401
    auth_ana = {"Authorization": f"Bearer {site.code(gid, 'Ana')}"}
    r = c.post(url, json=body, headers=auth_ana)
    assert r.status_code == 409 and "not drawn yet" in r.json()["error"]  # no lot yet
    lot(arbiter, gid, 1, 2)
    assert c.post(url, json={**body, "player": "Bo"}, headers=auth_ana).status_code == 403
    r = c.post(url, json=body, headers=auth_ana)
    assert r.status_code == 201
    receipt = r.json()
    assert receipt["player"] == "Ana" and receipt["turn"] == 1 and receipt["late"] is False and receipt["seq"] > 0
    assert c.post(url, content=b"\xff\xfe", headers=auth_ana).status_code == 400
    assert c.post(url, json=[1], headers=auth_ana).status_code == 400
    assert c.post(url, json={**body, "turn": 15}, headers=auth_ana).status_code == 400
    assert c.post(url, json={**body, "placements": [{}, {}, {}]}, headers=auth_ana).status_code == 400
    assert c.post(url, json={**body, "note": "x" * 5000}, headers=auth_ana).status_code == 413
    assert c.post(url, json={**body, "note": "x" * 300}, headers=auth_ana).status_code == 400
    assert len(site.events(gid, "slip")) == 1


# --- the correction review, decisions, results -------------------------------------------------------------------


def play_three_turns(site, arbiter, gid: str) -> None:
    """Ana plays the boards of test_anticipation_correction.py with an inverted position in turn 3; Bo asks
    for a verification and plays a word not in the list; Cleo cancels turn 2 in turn 3."""
    read_all(site, arbiter, gid)
    desk = desk_client(site, arbiter)
    for t in (1, 2, 3):
        lot(arbiter, gid, t, t + 1)
    slips = {
        1: [("1", "H7", "AL", "4", "7G", "BAT", "21", "25", ""), ("2", "H7", "AL", "4", "", "", "", "4",
                                                                 "Verificare: BAT, BATX"),
            ("3", "H7", "AL", "4", "", "", "", "4", "")],
        2: [("1", "H6", "CAL", "3", "", "", "", "3", ""), ("2", "H6", "CALX", "3", "", "", "", "3", ""),
            ("3", "H6", "CAL", "3", "", "", "", "3", "")],
        3: [("1", "G9", "VEST", "24", "", "", "", "24", ""), ("2", "9G", "VEST", "24", "", "", "", "24", ""),
            ("3", "", "", "", "", "", "", "", "Anulez turul 2")],
    }
    for t, rows in slips.items():
        for table, p1, w1, s1, p2, w2, s2, total, note in rows:
            r = type_slip(desk, gid, t, table=table, position1=p1, word1=w1, score1=s1, position2=p2, word2=w2,
                          score2=s2, total=total, note=note)
            assert r.status_code == 303, r.text


def test_ro_5_3_review_answers_verifications_first_then_every_verdict_with_its_rule(site, arbiter, gid):
    play_three_turns(site, arbiter, gid)
    page = arbiter.get(f"/games/{gid}/review?turn=1").text
    assert page.index('id="verifications"') < page.index('id="verdicts"')
    verifications = page.split('id="verifications"')[1].split("</section>")[0]
    assert "BAT: valid" in verifications and "BATX: NU este în test-ro" in verifications  # said in Romanian
    state = game_of(site, gid).replay()
    page3 = arbiter.get(f"/games/{gid}/review?turn=3").text
    for r in state.ranking:
        for v in r.slips[3].placements:
            assert v.rule in page3 and v.status in page3
    ana3 = state.results["Ana"].slips[3].placements[0]
    assert (ana3.status, ana3.rule, ana3.penalty) == ("corrected", "RO-6.3a", 20)
    penalties = arbiter.get(f"/games/{gid}/review?turn=3&filter=penalties").text
    assert "RO-6.3a" in penalties and "Bogdan" not in penalties.split('id="verdicts"')[1].split("</table>")[0]
    invalid = arbiter.get(f"/games/{gid}/review?turn=2&filter=invalid").text.split('id="verdicts"')[1]
    assert "CALX" in invalid and "Ana Popescu" not in invalid.split("</table>")[0]
    notices = arbiter.get(f"/games/{gid}/review?turn=3").text.split('id="notices"')[1].split("</section>")[0]
    assert "RO-5.5.i" in notices and "−20" in notices  # the wrong position and its penalty, told in turn 4
    notices2 = arbiter.get(f"/games/{gid}/review?turn=2").text.split('id="notices"')[1].split("</section>")[0]
    assert "RO-5.5.f" in notices2 and "CALX" in notices2
    cascades = arbiter.get(f"/games/{gid}/review?turn=2&filter=cascades").text.split('id="verdicts"')[1]
    assert "cancelled" in cascades.split("</table>")[0] and "Carmen" in cascades.split("</table>")[0]
    board = arbiter.get(f"/games/{gid}/board/Cleo").text
    assert "Anulate</h2><ul><li>tur 2" in board.replace("\n", "")


def test_ro_6_5_a_decision_is_a_new_reasoned_entry_and_the_old_verdict_stays_visible(site, arbiter, gid):
    play_three_turns(site, arbiter, gid)
    desk = site.client()
    login(desk, "desk1", "desk-pass-1")
    data = {"player": "Bo", "target": "placement", "action": "valid", "turn": "2", "index": "1",
            "reason": "CALX is in the list's supplement", "view_turn": "2"}
    assert form(desk, f"/games/{gid}/decide", data, f"/games/{gid}/review").status_code == 403
    r = form(arbiter, f"/games/{gid}/decide", {**data, "reason": ""}, f"/games/{gid}/review")
    assert r.status_code == 422 and "reason" in r.text
    r = form(arbiter, f"/games/{gid}/decide", data, f"/games/{gid}/review")
    assert r.status_code == 303
    page = arbiter.get(f"/games/{gid}/review?turn=2").text
    assert "înainte de decizie: invalid" in page and "CALX is in the list&#39;s supplement" in page
    with Journal(site.db) as j:
        assert [e.actor for e in j.events(gid, "decision")] == ["arbiter"]


def test_ro_6_4_ro_7_1_warnings_and_elimination(site, arbiter, gid):
    play_three_turns(site, arbiter, gid)
    r = form(arbiter, f"/games/{gid}/sanction", {"player": "Bo", "kind": "cheating", "reason": "phone", "turn": "3"},
             f"/games/{gid}/review")
    assert r.status_code == 303
    state = game_of(site, gid).replay()
    assert state.results["Bo"].eliminated
    assert "phone" in arbiter.get(f"/games/{gid}/review").text


def test_ro_5_5_j_provisional_results_with_deadline_then_final(site, arbiter, gid):
    play_three_turns(site, arbiter, gid)
    public = site.client()
    ana = site.client()
    join(ana, site, gid, "Ana")
    assert 'id="ranking"' not in public.get(f"/games/{gid}/results").text  # not before publication
    assert public.get(f"/games/{gid}/sheet/Ana").status_code == 403
    assert ana.get(f"/games/{gid}/board/Ana").status_code == 403
    r = form(arbiter, f"/games/{gid}/publish", {"stage": "provisional", "deadline": ""}, f"/games/{gid}/review")
    assert r.status_code == 422 and "deadline" in r.text
    r = form(arbiter, f"/games/{gid}/publish", {"stage": "provisional", "deadline": "18:30"},
             f"/games/{gid}/review")
    assert r.status_code == 303
    page = public.get(f"/games/{gid}/results").text
    assert "Rezultate provizorii" in page and "contestații până la 18:30" in page
    state = game_of(site, gid).replay()
    rows = re.findall(r"<td><b>(-?\d+)</b></td>", page)
    assert [int(x) for x in rows] == [r.total for r in state.ranking]
    own = ana.get(f"/games/{gid}/play").text
    assert "Tabla ta corectată" in own and "RO-6.3a" in own
    assert ana.get(f"/games/{gid}/board/Ana").status_code == 200
    assert ana.get(f"/games/{gid}/board/Bo").status_code == 403
    assert "Fluturași" not in public.get(f"/games/{gid}/sheet/Ana").text and "RO-6.3a" in public.get(
        f"/games/{gid}/sheet/Ana").text
    r = form(arbiter, f"/games/{gid}/publish", {"stage": "final"}, f"/games/{gid}/review")
    assert r.status_code == 303
    assert "Clasament final" in public.get(f"/games/{gid}/results").text
    r = form(arbiter, f"/games/{gid}/decide", {"player": "Bo", "target": "total", "action": "adjust",
                                               "points": "5", "reason": "late"}, f"/games/{gid}/review")
    assert r.status_code == 422 and "final" in r.text


def test_annex_3_forms_are_printable_pages(site, arbiter, gid):
    c = site.client()
    slips = c.get(f"/games/{gid}/forms/slips.html")
    assert slips.status_code == 200 and slips.text.count('class="slip"') == 3 * 16
    assert "Carmen Dima" in c.get(f"/games/{gid}/forms/annotation.html").text
    assert c.get(f"/games/{gid}/forms/ranking.html").status_code == 403  # not published
    assert arbiter.get(f"/games/{gid}/forms/ranking.csv").text.startswith("place,player")
    assert c.get(f"/games/{gid}/forms/nothing.html").status_code == 404
    # the same forms as PDF (WeasyPrint), under the same rules
    OUTPUT.mkdir(exist_ok=True)
    for name in ("slips", "annotation"):
        r = document(c, f"/games/{gid}/forms/{name}.pdf")  # made in the background (issue 29)
        assert r.status_code == 200 and r.content.startswith(b"%PDF") and r.headers["content-type"] == "application/pdf"
        assert f'filename="{gid}-{name}.pdf"' in r.headers["content-disposition"]
        (OUTPUT / f"anticipation-{name}.pdf").write_bytes(r.content)
    assert c.get(f"/games/{gid}/forms/ranking.pdf").status_code == 403
    assert document(arbiter, f"/games/{gid}/forms/ranking.pdf").content.startswith(b"%PDF")
    assert document(arbiter, f"/games/{gid}/forms/results.pdf").content.startswith(b"%PDF")
    assert c.get(f"/games/{gid}/forms/nothing.pdf").status_code == 404


# --- the blind variant ------------------------------------------------------------------------------------------


def test_ro_8_4_sealed_groups_are_checked_and_refused_after_the_first_lot(site, arbiter):
    gid = create_game(site, arbiter, variant="blind")
    good = "\n".join(f"Ana,{i},{g}" for i, g in enumerate(groups_text().splitlines(), 1))
    bad = good.replace("Ana,1,AL", "Ana,1,LL")
    r = form(arbiter, f"/games/{gid}/blind", {"sets": bad}, f"/games/{gid}")
    assert r.status_code == 422 and "RO-5.2.d" in r.text and "RO-3.1" in r.text
    assert form(arbiter, f"/games/{gid}/blind", {"sets": good}, f"/games/{gid}").status_code == 303
    r = form(arbiter, f"/games/{gid}/blind", {"sets": good}, f"/games/{gid}")
    assert r.status_code == 422 and "handed in already" in r.text
    assert form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}").status_code == 422
    assert GROUPS[1] == "AL"


# --- roles, CSRF, hostile input, format dispatch ------------------------------------------------------------------


def test_arbiter_actions_need_the_arbiter_and_every_form_its_csrf_token(site, arbiter, gid):
    public = site.client()
    desk = desk_client(site, arbiter)
    for url in (f"/games/{gid}", f"/games/{gid}/slips", f"/games/{gid}/review", f"/games/{gid}/codes",
                "/anticipation/new", f"/games/{gid}/board/Ana"):
        assert public.get(url).status_code == 401, url
    for url in ("announce", "lot", "clock", "blind", "seating", "decide", "sanction", "publish"):
        r = form(desk, f"/games/{gid}/{url}", {}, f"/games/{gid}/slips")
        assert r.status_code == 403, url
    for url in ("announce", "lot", "slips", "publish"):
        assert arbiter.post(f"/games/{gid}/{url}", data={"turn": "1"}).status_code == 403, url
    assert site.events(gid, "announced") == [] and site.events(gid, "lot") == []


def test_hostile_names_and_fields_are_escaped_or_refused(site, arbiter):
    gid = create_game(site, arbiter, seating='p1,1,<script>alert(1)</script>\np2,2,"Ana ""&"" Bo"\n')
    for url in (f"/games/{gid}", f"/games/{gid}/slips", f"/games/{gid}/forms/slips.html"):
        page = arbiter.get(url).text
        assert "<script>alert" not in page and "&lt;script&gt;" in page, url
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    r = type_slip(arbiter, gid, 1, table="1", word1="<img src=x onerror=alert(1)>", score1="1")
    assert r.status_code == 303
    assert "<img src=x" not in arbiter.get(f"/games/{gid}/slips?turn=1").text
    assert "<img src=x" not in arbiter.get(f"/games/{gid}/review?turn=1").text
    assert type_slip(arbiter, gid, 1, table="2", note="x" * 1000).status_code == 400
    token = csrf(arbiter.get(f"/games/{gid}/slips").text)
    r = arbiter.post(f"/games/{gid}/slips", content=b"csrf=" + token.encode() + b"&collected=1&table=2&word1=%FF%FE",
                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400 and "nu este text valid (UTF-8)" in r.text  # said in the game's language
    assert len(site.events(gid, "slip")) == 1


def test_pages_dispatch_on_the_games_format(site, arbiter, gid):
    dup = make_game(site)
    assert "Master total" in arbiter.get(f"/games/{dup}/screen").text or arbiter.get(
        f"/games/{dup}/screen").status_code == 200
    assert 'id="announce"' not in arbiter.get(f"/games/{dup}").text
    assert 'id="announce"' in arbiter.get(f"/games/{gid}").text
    assert arbiter.get(f"/games/{dup}/review").status_code == 404
    assert arbiter.get(f"/games/{dup}/slips").status_code == 404
    assert site.client().get(f"/api/games/{dup}").json()["rules"]
    assert site.client().get(f"/api/games/{gid}").json()["format"] == "anticipation"
    assert arbiter.get("/games/nosuchgame/review").status_code == 404
    assert arbiter.get("/games/nosuchgame").status_code == 404
    assert gid in site.client().get("/anticipation").text


def test_codes_cli_prints_each_players_code(site, arbiter, gid):
    out = CliRunner().invoke(cli, ["anticipation", "codes", gid, "--json", "--db", site.db])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert [(r["player"], r["table"]) for r in rows] == [("Ana", 1), ("Bo", 2), ("Cleo", 3)]
    assert all(r["code"] == auth.player_code(site.secret, gid, r["player"]) for r in rows)
    sheet = arbiter.get(f"/games/{gid}/codes").text
    assert all(r["code"] in sheet for r in rows) and "<svg" in sheet
    bad = site.client()
    token = csrf(bad.get(f"/games/{gid}/play").text)
    r = bad.post(f"/games/{gid}/join", data={"csrf": token, "code": "NOTACODE"})
    assert r.status_code == 401 and 'id="code-error"' in r.text


# --- the pages in Romanian, the game's language (RO-3.1) ---------------------------------------------------------


def test_the_pages_are_in_romanian_and_a_phone_may_choose_another_language(site, arbiter, gid):
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    console = arbiter.get(f"/games/{gid}").text
    assert '<html lang="ro">' in console
    assert "Tururi și bilețele" in console and "Bilețelul turului" in console and "Înregistrează bilețelul" in console
    assert "Turns and lots" not in console and "Record the lot" not in console
    desk = arbiter.get(f"/games/{gid}/slips").text
    assert "Introducerea fluturașilor" in desk and "Lipsesc: 3 din 3" in desk and "Slip desk" not in desk
    assert "Întâi cererile de verificare" in arbiter.get(f"/games/{gid}/review").text
    # the confirmations the routes send back are Romanian too
    r = form(arbiter, f"/games/{gid}/clock", {"timer": "turn 1", "action": "start"}, f"/games/{gid}")
    assert "turul 1: pornit" in arbiter.get(r.headers["location"]).text
    # the pages without a game: Romanian unless asked otherwise
    for url in ("/anticipation", "/anticipation/new", "/train/anticipation"):
        page = arbiter.get(url).text
        assert '<html lang="ro">' in page, url
    assert "Partidă nouă de anticipație" in arbiter.get("/anticipation/new").text
    assert "New anticipation game" in arbiter.get("/anticipation/new?lang=en").text

    ana = site.client()
    join(ana, site, gid, "Ana")
    page = ana.get(f"/games/{gid}/play").text
    assert '<html lang="ro">' in page and "Fluturașul tău, turul 1" in page and "Predă" in page
    english = ana.get(f"/games/{gid}/play?lang=en").text
    assert '<html lang="en">' in english and "Your slip, turn 1" in english and "Fluturașul" not in english
    assert f'action="/games/{gid}/slip?lang=en"' in english  # the choice follows the slip handed in
    assert 'hx-get="/games/' + gid + '/play/live?lang=en"' in english
    r = form(ana, f"/games/{gid}/slip?lang=en", {"turn": "1", "position1": "H7", "word1": "AL", "score1": "4"},
             f"/games/{gid}/play")
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}/play?lang=en#receipt"
    assert "Your slips" in ana.get(r.headers["location"]).text
    # a refusal is said in the language of the page it is shown on
    r = form(ana, f"/games/{gid}/slip?lang=en", {"turn": ""}, f"/games/{gid}/play")
    assert r.status_code == 422 and 'id="slip-error">the turn<' in r.text
    r = form(ana, f"/games/{gid}/slip", {"turn": ""}, f"/games/{gid}/play")
    assert r.status_code == 422 and 'id="slip-error">turul<' in r.text


def test_RO_5_5_f_a_remote_player_is_told_his_invalid_placement_during_the_next_turn(site, arbiter, gid):
    play_three_turns(site, arbiter, gid)  # turn 3 is in play; Bo wrote CALX (not in the list) in turn 2
    bo = site.client()
    r = form(bo, f"/games/{gid}/join", {"code": site.code(gid, "Bo")}, f"/games/{gid}/play")
    assert r.status_code == 303
    told = bo.get(f"/games/{gid}/play").text.split('id="told"')[1].split("</section>")[0]
    assert "turul 2" in told and "CALX" in told and "RO-5.5.f" in told
    ana = site.client()
    form(ana, f"/games/{gid}/join", {"code": site.code(gid, "Ana")}, f"/games/{gid}/play")
    assert "CALX" not in ana.get(f"/games/{gid}/play").text  # each player his own notices only


def test_ro_5_5_b_the_projection_and_its_clock_in_the_language_its_address_asks_for(site, arbiter, gid):
    """The projection of a Romanian game is Romanian; with ``?lang=es`` its headings, the group read out, the
    clock's words (shown and spoken) and the results' stage are Spanish, and no Romanian word is left."""
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    started = form(arbiter, f"/games/{gid}/clock", {"timer": "turn 1", "action": "start"}, f"/games/{gid}")
    assert started.status_code == 303

    def cues(page: str) -> list[str]:
        found = re.search(r"data-cues='([^']*)'", page)
        assert found, page
        return [c["text"] for c in json.loads(found.group(1).replace("&#34;", '"'))]

    ro = site.client().get(f"/games/{gid}/screen").text
    assert 'data-lang="ro"' in ro and "Turul 1" in ro and "Grupa 2: " in ro
    assert cues(ro) == ["Timp de gândire: 8 minute.", "Mai este 1 minut.", "Stop. Se strâng fluturașii turului 1."]
    for url in (f"/games/{gid}/screen?lang=es", f"/games/{gid}/screen/live?lang=es"):
        es = site.client().get(url).text
        assert "Turno 1" in es and "Grupo 2: " in es, url
        assert cues(es) == ["Tiempo de reflexión: 8 minutos.", "Queda 1 minuto.",
                            "Alto. Se recogen las papeletas del turno 1."], url
        assert not re.search(r"\b(Turul|Grupa|Mai este|fluturași)\b", es), url
    assert 'data-lang="es"' in site.client().get(f"/games/{gid}/screen?lang=es").text
    # the Romanian fragment is not served to the Spanish address from the fragment cache, nor the other way round
    assert "Turul 1" in site.client().get(f"/games/{gid}/screen/live").text


def test_RO_5_1_a_late_entry_from_the_console_confirmed_at_the_last_table(site, arbiter, gid):
    page = f"/games/{gid}"
    token = csrf(arbiter.get(page).text)
    asked = arbiter.post(f"{page}/late-entry", data={"csrf": token, "player": "Dan", "name": "Dan Târziu"})
    assert asked.status_code == 200 and "Dan Târziu stă la masa 4, după ultima (RO-5.1" in asked.text
    assert "Dan" not in game_of(site, gid).replay().seating  # nothing done before the second request
    r = form(arbiter, f"{page}/late-entry", {"player": "Dan", "name": "Dan Târziu"}, page)
    assert r.status_code == 303
    assert game_of(site, gid).replay().seating["Dan"] == 4
    seated = site.events(gid, "seating")[-1]
    assert seated.actor == "arbiter" and seated.payload["late"] is True
    again = form(arbiter, f"{page}/late-entry", {"player": "Dan"}, page)
    assert again.status_code == 422 and "deja așezat, la masa 4" in again.text


def test_RO_5_5_k_the_results_page_leaves_the_eliminated_player_out_of_the_ranking(site, arbiter, gid):
    play_three_turns(site, arbiter, gid)
    form(arbiter, f"/games/{gid}/sanction", {"player": "Bo", "kind": "cheating", "reason": "phone", "turn": "3"},
         f"/games/{gid}/review")
    page = arbiter.get(f"/games/{gid}/results").text
    ranking, _, after = page.partition('id="eliminated"')
    ranking = ranking.split('id="ranking"', 1)[1]
    assert "Bogdan Ionescu" not in ranking and "Ana Popescu" in ranking
    assert "Bogdan Ionescu" in after and "RO-7.1" in after and "RO-5.5.k" in page
