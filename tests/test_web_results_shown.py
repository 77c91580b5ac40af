"""Results show the rulings and the new racks (FISE-16), and one percentage, explained on the page (GR-7)."""

from __future__ import annotations

from arbitru.formats.duplicate.game import Session
from arbitru.journal.store import Journal
from web_support import login, make_game, make_site, post


def test_FISE_16_results_show_rulings_new_racks_and_the_one_percentage_explained(tmp_path):
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = make_game(site)
    page = f"/games/{gid}"
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid)
        s.clock("start", 1000.0)
        s.clock("stop", 1001.0)
    assert post(arbiter, f"{page}/draw", {"new": "1"}, page).status_code == 303
    assert post(arbiter, f"{page}/rule", {"word": "ZZZ", "valid": "1", "reason": "in the new list"},
                page).status_code == 303
    assert post(arbiter, f"{page}/close", {"choice": "1"}, page).status_code == 303
    results = site.client().get(f"/games/{gid}/results").text
    assert 'id="rulings"' in results and "ZZZ" in results and "in the new list" in results
    assert 'id="new-racks"' in results and "set aside" in results
    assert 'id="percent-note"' in results and "without bonuses" in results
