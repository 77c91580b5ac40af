"""The anticipation maximum in the web app: the arbiter computes it from the review page, and the
results page and the printable ranking show it with each player's total as a percentage of it."""

from __future__ import annotations

import re

import pytest

from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.journal.store import Journal
from web_anticipation_support import create_game, form
from web_support import login, make_site


@pytest.fixture
def site(tmp_path):
    return make_site(tmp_path)


def test_maximum_is_computed_from_the_review_and_shown_with_percentages(site):
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    page = f"/games/{gid}/review"
    # every lot must be drawn first: the search needs the order of all 14 turns
    r = form(arbiter, f"/games/{gid}/maximum", {"beam": "5"}, page)
    assert (r.status_code == 200 and "14 lots" in r.text) or "lots" in r.text
    with Journal(site.db, actor="arbiter") as j:
        game = AnticipationGame(j, gid)
        game.draw_all_lots()
    r = form(arbiter, f"/games/{gid}/maximum", {"beam": "abc"}, page)
    assert r.status_code == 422 and 'id="maximum-error"' in r.text  # refused beside its field
    r = form(arbiter, f"/games/{gid}/maximum", {"beam": "5"}, page)
    assert r.status_code == 303, r.text
    with Journal(site.db, actor="arbiter") as j:
        state = AnticipationGame(j, gid).replay()
        events = j.events(gid, "maximum")
    assert state.maximum is not None and len(events) == 1 and events[0].actor == "arbiter"
    top = state.maximum["total"]
    assert top > 0
    html = arbiter.get(f"/games/{gid}/results").text
    assert re.search(rf'id="maximum">Maximum: <b>{top}</b>', html)
    assert "% din maximum" in html
    printed = arbiter.get(f"/games/{gid}/forms/ranking.html").text
    assert f"Maxim: {top}" in printed and "% din maxim" in printed
    # a player cannot ask for it
    player = site.client()
    r = player.post(f"/games/{gid}/maximum", data={"beam": "5"})
    assert r.status_code in (303, 401, 403)
    with Journal(site.db) as j:
        assert len(j.events(gid, "maximum")) == 1
