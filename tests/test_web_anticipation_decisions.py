"""After the results, through the pages (the real app over HTTP, a real journal): publication that cannot strand
a game (RO-5.5.j), desk entries refused and the chief arbiter's decisions with their reasons and effects (RO-6.5),
ranking points, title and date from the web, notices split by arbiter (RO-5.5.g), the count of warnings (RO-6.2),
the name on turn 1 (RO-6.2a), the desk's whole list, the API's Idempotency-Key."""

from __future__ import annotations

import csv
import io
import re

import pytest

from test_web_anticipation import desk_client, game_of, lot, play_three_turns, read_all, type_slip
from web_anticipation_support import create_game, form
from web_support import confirmation, csrf, join, login, make_site


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


def two_turns(site, arbiter, gid: str):
    """The draw read out, lots 1 and 2 drawn (no timer), the three players' turn-1 slips and two of turn 2."""
    read_all(site, arbiter, gid)
    desk = desk_client(site, arbiter)
    lot(arbiter, gid, 1, 2)
    for table in ("1", "2", "3"):
        assert type_slip(desk, gid, 1, table=table, position1="H7", word1="AL", score1="4", total="4").status_code \
            == 303
    lot(arbiter, gid, 2, 3)
    for table in ("1", "3"):
        assert type_slip(desk, gid, 2, table=table, position1="H6", word1="CAL", score1="3", total="3").status_code \
            == 303
    return desk


def test_RO_5_5_j_publishing_at_turn_2_of_14_asks_first_names_the_turns_and_ends_the_game(site, arbiter, gid):
    two_turns(site, arbiter, gid)
    review = f"/games/{gid}/review"
    assert "tururile 3–14 nu sunt jucate" in arbiter.get(review).text  # said on the page before anyone presses
    token = csrf(arbiter.get(review).text)
    data = {"csrf": token, "stage": "provisional", "deadline": "18:30", "title": "Cupa Iașului", "date": "2026-05-01"}
    asked = arbiter.post(f"/games/{gid}/publish", data=data)
    assert asked.status_code == 200 and confirmation(asked.text)
    for said in ("Partida nu s-a încheiat (RO-5.5.j):", "tururile 3–14 nu sunt jucate (niciun bilețel tras)",
                 "turul 2: 1 din 3 jucători nu au fluturaș (mesele 2)", "se încheie după turul 2"):
        assert said in asked.text, said
    assert not site.events(gid, "publication")  # asked only: nothing published
    r = arbiter.post(f"/games/{gid}/publish", data={**data, "confirm": confirmation(asked.text)})
    assert r.status_code == 303
    (published,) = site.events(gid, "publication")
    assert published.payload["unplayed"] == list(range(3, 15)) and published.payload["title"] == "Cupa Iașului"

    console = arbiter.get(f"/games/{gid}").text
    assert 'id="game-over"' in console and "tururile 3–14 nu s-au jucat" in console and 'id="lot-form"' not in console
    r = form(arbiter, f"/games/{gid}/lot", {"turn": "3", "group": "4", "by": "table", "table": "3"}, f"/games/{gid}")
    assert r.status_code == 422 and "RO-5.5.j" in r.text and len(site.events(gid, "lot")) == 2
    ana = site.client()
    join(ana, site, gid, "Ana")
    phone = ana.get(f"/games/{gid}/play?lang=fr").text
    assert "Les résultats sont publiés\u00a0: la partie est terminée." in phone and 'class="antslip"' not in phone
    assert "les tours 3 à 14 n&#39;ont pas été joués" in phone and "Tour 3" not in phone
    api = site.client().post(f"/api/games/{gid}/slips", json={"turn": 2, "placements": []},
                             headers={"Authorization": f"Bearer {site.code(gid, 'Bo')}"})
    assert api.status_code == 409 and "RO-5.5.j" in api.json()["error"]
    results = site.client().get(f"/games/{gid}/results").text
    assert "Cupa Iașului · 1 mai 2026" in results and "tururile 3–14 nejucate" in results

    # withdrawn by a decision with its reason: the game goes on where it stood
    r = form(arbiter, f"/games/{gid}/decide", {"target": "publication", "action": "withdraw", "reason": ""}, review)
    assert r.status_code == 422 and len(site.events(gid, "decision")) == 0
    r = form(arbiter, f"/games/{gid}/decide", {"target": "publication", "action": "withdraw",
                                               "reason": "published at turn 2 by mistake"}, review)
    assert r.status_code == 303 and "retrase" in arbiter.get(r.headers["location"]).text
    assert 'id="ranking"' not in site.client().get(f"/games/{gid}/results").text  # private again
    lot(arbiter, gid, 3, 4)
    assert 'class="antslip"' in ana.get(f"/games/{gid}/play").text


def test_RO_6_5_after_the_results_a_desk_entry_is_refused_and_the_chief_arbiter_decides_with_a_reason(
        site, arbiter, gid):
    desk = two_turns(site, arbiter, gid)
    assert form(arbiter, f"/games/{gid}/publish", {"stage": "provisional", "deadline": "18:30"},
                f"/games/{gid}/review").status_code == 303  # confirmed: the game ends after turn 2
    before = game_of(site, gid).replay()
    carmen = before.results["Cleo"]
    slips = len(site.events(gid, "slip"))

    page = desk.get(f"/games/{gid}/slips?turn=1").text
    assert 'id="closed"' in page and "Masa de introducere nu mai înregistrează fluturași." in page
    r = type_slip(desk, gid, 1, table="3", position1="H7", word1="LA", score1="4", total="4", replace="1")
    assert r.status_code == 409 and "un fluturaș se schimbă doar printr-o decizie" in r.text
    assert len(site.events(gid, "slip")) == slips and not site.events(gid, "decision")

    r = type_slip(arbiter, gid, 1, table="3", position1="H7", word1="XL", score1="4", total="4")
    assert r.status_code == 422 and 'id="reason-error"' in r.text and len(site.events(gid, "slip")) == slips
    token = csrf(arbiter.get(f"/games/{gid}/slips?turn=1").text)
    data = {"csrf": token, "collected": "1", "turn": "1", "table": "3", "position1": "H7", "word1": "XL",
            "score1": "4", "total": "4", "reason": "contestație: fluturașul scris XL", "by": "Radu"}
    asked = arbiter.post(f"/games/{gid}/slips", data=data)
    assert asked.status_code == 200 and "Rezultatele sunt publicate: acest fluturaș" in asked.text
    assert "contestație: fluturașul scris XL" in asked.text and len(site.events(gid, "slip")) == slips
    r = arbiter.post(f"/games/{gid}/slips", data={**data, "confirm": confirmation(asked.text)})
    assert r.status_code == 303
    (decision,) = site.events(gid, "decision")
    assert decision.actor == "arbiter" and decision.payload["target"] == "slip" and decision.payload["by"] == "Radu"
    after = game_of(site, gid).replay()
    assert after.results["Cleo"].total < carmen.total
    review = arbiter.get(f"/games/{gid}/review").text.split('id="decisions"')[1]
    assert "contestație: fluturașul scris XL" in review
    assert f"total {carmen.total} → {after.results['Cleo'].total}" in review
    public = site.client().get(f"/games/{gid}/results").text.split('id="decisions"')[1]
    assert "contestație: fluturașul scris XL" in public and f"total {carmen.total} →" in public

    r = form(arbiter, f"/games/{gid}/decide", {"target": "decision", "action": "revoke", "event": str(decision.seq),
                                               "reason": "contestația respinsă în apel"}, f"/games/{gid}/review")
    assert r.status_code == 303
    assert game_of(site, gid).replay().results["Cleo"].total == carmen.total
    assert f"revocată prin decizia #{decision.seq + 1}" in arbiter.get(f"/games/{gid}/review").text


def test_RO_5_5_j_the_final_ranking_carries_points_title_and_date_from_the_web_and_points_are_decided_after(
        site, arbiter, gid):
    two_turns(site, arbiter, gid)
    review = f"/games/{gid}/review"
    assert form(arbiter, f"/games/{gid}/publish", {"stage": "provisional", "deadline": "2000-01-01 10:00"},
                review).status_code == 303
    r = form(arbiter, f"/games/{gid}/publish", {"stage": "final", "points": "25, 20, x"}, review)
    assert r.status_code == 422 and "&#39;x&#39; nu este un număr de puncte" in r.text.split('id="final-form"')[1]
    r = form(arbiter, f"/games/{gid}/publish", {"stage": "final", "points": "25, 20, 16", "title": "Cupa Iașului",
                                                "date": "2026-05-02"}, review)
    assert r.status_code == 303
    state = game_of(site, gid).replay()
    points = state.ranking_points()
    assert sorted(points.values(), reverse=True)[0] == 25 and state.publications[-1]["title"] == "Cupa Iașului"
    results = site.client().get(f"/games/{gid}/results").text
    assert "Cupa Iașului · 2 mai 2026" in results and "puncte de clasament" in results
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(site.client().get(
        f"/games/{gid}/forms/ranking.csv").text))}
    assert {p: int(r["ranking_points"]) for p, r in rows.items()} == points
    last = max(state.ranking, key=lambda r: r.place or 0).player
    r = form(arbiter, f"/games/{gid}/decide", {"player": last, "target": "points", "action": "set", "points": "18",
                                               "reason": "baremul organizatorului"}, review)
    assert r.status_code == 303
    assert game_of(site, gid).replay().ranking_points()[last] == 18
    assert f"puncte de clasament {points[last]} → 18" in site.client().get(f"/games/{gid}/results").text
    r = form(arbiter, f"/games/{gid}/decide", {"player": last, "target": "total", "action": "adjust", "points": "5",
                                               "reason": "prea târziu"}, review)
    assert r.status_code == 422 and "clasamentul este final" in r.text


def test_RO_5_5_g_notices_split_by_arbiter_and_the_verification_answered_once(site, arbiter, gid):
    play_three_turns(site, arbiter, gid)
    page = arbiter.get(f"/games/{gid}/review?turn=1&arbiters=Mara,%20Radu").text
    assert page.count("BATX: NU este în test-ro") == 1 and page.count("BAT: valid") == 1  # once (RO-5.5.h)
    verifications = page.split('id="verifications"')[1].split("</section>")[0]
    assert "<b>Mara</b> · masa 2" in verifications
    notices = arbiter.get(f"/games/{gid}/review?turn=2&arbiters=Mara,Radu").text.split('id="notices"')[1]
    notices = notices.split("</section>")[0]
    assert "<h3>Mara · mesele 2–2</h3>" in notices and "CALX" in notices


def test_RO_6_2_the_results_count_the_warnings_RO_6_2a_the_name_typed_and_RO_5_3_a_PAS_row(site, arbiter, gid):
    read_all(site, arbiter, gid)
    desk = desk_client(site, arbiter)
    for turn in range(1, 6):
        lot(arbiter, gid, turn, turn + 1)
    assert 'name="name"' in desk.get(f"/games/{gid}/slips?turn=1").text  # turn 1: the name as written
    r = type_slip(desk, gid, 1, table="1", position1="H7", word1="AL", score1="4", total="4", name="Ana Popa")
    assert r.status_code == 303
    for turn in (2, 3, 4, 5):  # the table number left off: a warning each (RO-6.2b), the 4th costs 5 (RO-6.2)
        assert type_slip(desk, gid, turn, player="Ana", note="PAS").status_code == 303
    review = arbiter.get(f"/games/{gid}/review?turn=1").text
    assert "RO-6.2a" in review and "Ana Popa" in review
    pas = arbiter.get(f"/games/{gid}/review?turn=2").text.split('id="verdicts"')[1].split("</table>")[0]
    assert "<td>PAS</td>" in pas and "turul este pasat" in pas
    ana = game_of(site, gid).replay().results["Ana"]
    assert sum(1 for sv in ana.slips.values() if sv.warning) == 5 and ana.warning_costs == 10
    results = arbiter.get(f"/games/{gid}/results").text
    assert re.search(r'<td class="warnings">5 \(−10\)</td>', results)


def test_the_desk_lists_every_slip_of_a_turn_and_finds_one(site, arbiter):
    seating = "".join(f"P{n},{n},Jucător {n}\n" for n in range(1, 41))
    gid = create_game(site, arbiter, seating=seating)
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    desk = desk_client(site, arbiter)
    for n in range(1, 41):
        assert type_slip(desk, gid, 1, table=str(n), position1="H7", word1="AL", score1="4", total="4").status_code \
            == 303
    page = desk.get(f"/games/{gid}/slips?turn=1").text.split('id="entered"')[1]
    assert page.count("<tr><td>") == 40  # every slip, not the last 30
    found = desk.get(f"/games/{gid}/slips?turn=1&q=masa%207").text.split('id="entered"')[1]
    assert found.count("<tr><td>") == 1 and "Jucător 7 (P7)" in found and "1 găsite" in found
    by_name = desk.get(f"/games/{gid}/slips?turn=1&q=jucător%2033").text.split('id="entered"')[1]
    assert by_name.count("<tr><td>") == 1


def test_the_anticipation_api_honours_the_idempotency_key(site, arbiter, gid):
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    c = site.client()
    url = f"/api/games/{gid}/slips"
    body = {"turn": 1, "placements": [{"position": "H7", "word": "AL", "score": 4}], "turn_total": 4}
    headers = {"Authorization": f"Bearer {site.code(gid, 'Ana')}", "Idempotency-Key": "phone-1-turn-1"}
    first = c.post(url, json=body, headers=headers)
    again = c.post(url, json=body, headers=headers)  # its answer lost: the same slip sent again
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert len(site.events(gid, "slip")) == 1 and again.json()["replaces"] is None
    # the same key with another slip: refused, nothing stored (its first receipt would say a slip is in that is not)
    other = c.post(url, json={**body, "placements": [{"position": "H7", "word": "LA", "score": 4}]}, headers=headers)
    assert other.status_code == 422 and other.json()["field"] == "key" and other.json()["stored"] is False
    assert len(site.events(gid, "slip")) == 1
    other = c.post(url, json=body, headers={**headers, "Idempotency-Key": "phone-1-turn-1-again"})
    assert other.status_code == 201 and other.json()["replaces"] == first.json()["seq"]
    bo = c.post(url, json=body, headers={"Authorization": f"Bearer {site.code(gid, 'Bo')}",
                                          "Idempotency-Key": "phone-1-turn-1"})  # the same key, another player
    assert bo.status_code == 201 and bo.json()["player"] == "Bo" and len(site.events(gid, "slip")) == 3
    bad = c.post(url, json=body, headers={**headers, "Idempotency-Key": "two words"})
    assert bad.status_code == 400 and bad.json()["field"] == "key"


def test_RO_4_4_every_lot_at_once_is_offered_only_where_it_is_done(site, arbiter, gid):
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    for act in ("start", "stop"):  # turn 1 played: its slips are collected, the next lot may be drawn
        r = form(arbiter, f"/games/{gid}/clock", {"timer": "turn 1", "action": act}, f"/games/{gid}")
        assert r.status_code == 303
    assert 'id="lot-all"' not in arbiter.get(f"/games/{gid}").text  # the hall keeps time: one lot per turn
    r = form(arbiter, f"/games/{gid}/lot", {"all": "1"}, f"/games/{gid}", confirm=False)
    assert r.status_code == 422 and "fiecare bilețel se trage în turul lui" in r.text and confirmation(r.text) is None
    assert len(site.events(gid, "lot")) == 1
