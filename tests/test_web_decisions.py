"""After the close, over real HTTP (issue 30): the desk form carries its move (FISE-8), a desk refused once the
collection is closed and never deciding (FISE-17), the arbiter's decision refused without a reason beside its field
and asked before it acts (FISE-17, GR-5D), the close asked while the clock runs (FISE-5), standings with a chooser."""

from __future__ import annotations

import time

from arbitru.formats.duplicate.game import Session
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from test_web_anticipation import arbiter, desk_client, site  # noqa: F401  (the web tests' fixtures)
from web_support import make_game, post


def session(site, gid: str) -> Session:  # noqa: F811
    s = Session(Journal(site.db, actor="arbiter"), gid)
    s.lexicon = load_lexicon(s.settings.lexicon, s.settings.lang)
    return s


def close_and_draw(site, gid: str) -> None:  # noqa: F811
    s = session(site, gid)
    s.clock("start", time.time() - 100)
    s.clock("stop", time.time())
    s.place_master()
    s.draw()


def collected_with_the_master(site, arbiter) -> tuple[str, str, dict[str, str]]:  # noqa: F811
    """A game whose move 1 is closed and collected: (its id, its console's path, a decision's fields giving player
    2 the master move as his slip)."""
    gid = make_game(site)
    page = f"/games/{gid}"
    close_and_draw(site, gid)
    assert post(arbiter, f"{page}/collected", {"move": "1"}, page).status_code == 303
    master = session(site, gid).game.moves[0].master
    assert master is not None
    slip = {"move": "1", "player": "2", "action": "slip", "position": master.placement.coord.format(),
            "word": session(site, gid).game.alphabet.format(master.placement.word)}
    return gid, page, slip


def test_FISE_8_the_desk_slip_goes_to_the_move_being_collected_and_is_refused_once_collected(site, arbiter):  # noqa: F811
    gid = make_game(site)
    page = f"/games/{gid}"
    close_and_draw(site, gid)
    desk = desk_client(site, arbiter)
    html = desk.get(page).text
    assert 'id="desk-move-field"' in html and 'value="1"' in html and "closed: its paper slips" in html
    r = post(desk, f"{page}/desk", {"player": "2", "position": "H8", "word": "AB", "score": "4", "move": "1",
                                    "shown": "1"}, page)
    assert r.status_code == 303
    assert [(e.payload["move"], e.actor) for e in site.events(gid, "slip")] == [(1, "desk:desk1")]
    r = post(desk, f"{page}/desk", {"player": "2", "position": "H8", "word": "AB", "move": "3", "shown": "1"}, page)
    assert r.status_code == 422 and 'id="move-error"' in r.text and "FISE-8" in r.text
    r = post(desk, f"{page}/collected", {"move": "1"}, page)
    assert r.status_code in (302, 303, 401, 403) and not site.events(gid, "collected")
    assert post(arbiter, f"{page}/collected", {"move": "1"}, page).status_code == 303
    r = post(desk, f"{page}/desk", {"player": "3", "position": "H8", "word": "AB", "move": "1", "shown": "2"}, page)
    assert r.status_code == 422 and "collection of move 1 is closed" in r.text
    assert len(site.events(gid, "slip")) == 1


def test_FISE_17_a_decision_needs_a_reason_is_asked_first_and_is_listed_on_the_results(site, arbiter):  # noqa: F811
    gid, page, slip = collected_with_the_master(site, arbiter)
    slip["rule"] = "GR-5D"
    master = session(site, gid).game.moves[0].master
    assert master is not None
    r = post(arbiter, f"{page}/decide", {**slip, "reason": " "}, page)
    assert r.status_code == 422 and 'id="decide-error"' in r.text and "reason" in r.text
    asked = post(arbiter, f"{page}/decide", {**slip, "reason": "the desk left it out"}, page, confirm=False)
    assert asked.status_code == 200 and "(0 points) becomes" in asked.text and not site.events(gid, "decision")
    assert post(arbiter, f"{page}/decide", {**slip, "reason": "the desk left it out"}, page).status_code == 303
    (d,) = site.events(gid, "decision")
    assert d.actor == "arbiter" and d.payload["rule"] == "GR-5D"
    results = site.client().get(f"/games/{gid}/results").text
    assert 'id="decisions"' in results and "the desk left it out (GR-5D)" in results
    assert f"0 → {master.score} (+{master.score})" in results
    desk = desk_client(site, arbiter)
    r = post(desk, f"{page}/decide", {"move": "1", "player": "2", "action": "void", "reason": "no"}, page)
    assert r.status_code in (302, 303, 401, 403) and len(site.events(gid, "decision")) == 1


def test_FISE_5_the_close_while_the_clock_runs_says_the_time_left_and_what_late_slips_then_are(site, arbiter):  # noqa: F811
    gid = make_game(site, seconds=180)
    page = f"/games/{gid}"
    for p in ("1", "2", "3"):
        post(arbiter, f"{page}/desk", {"player": p, "position": "H8", "word": "AB", "score": "4"}, page)
    session(site, gid).clock("start", time.time() - 49)
    r = post(arbiter, f"{page}/close", {"choice": "1"}, page, confirm=False)
    assert r.status_code == 200 and "still runs: 2:1" in r.text and "players may still change their slips" in r.text
    assert "a phone&#39;s slip for move 1 is late and scores 0" in r.text
    assert "the desks may still type the paper slips collected at time" in r.text and not site.events(gid, "master")


def test_standings_choose_the_games_ranked_together(site, arbiter):  # noqa: F811
    first, second = make_game(site), make_game(site)
    for gid in (first, second):
        close_and_draw(site, gid)
    every = site.client().get("/standings").text
    assert every.count('name="game"') == 2 and every.count(" checked>") == 2
    one = site.client().get(f"/standings?game={second}").text
    assert f'value="{second}" checked' in one and f'value="{first}" checked' not in one
    assert "games: 1" in one


def test_FISE_13_the_draw_that_ends_the_game_asks_while_paper_slips_are_being_typed(site, arbiter):  # noqa: F811
    gid = make_game(site, moves=1)
    page = f"/games/{gid}"
    s = session(site, gid)
    s.clock("start", time.time() - 100)
    s.clock("stop", time.time())
    s.place_master()
    asked = post(arbiter, f"{page}/draw", {"new": "0"}, page, confirm=False)
    assert asked.status_code == 200 and "The 1 planned moves are played: this ends the game." in asked.text
    assert "<h1>End the game?</h1>" in asked.text and "still being typed" in asked.text
    assert not site.events(gid, "end")
    assert post(arbiter, f"{page}/draw", {"new": "0"}, page).status_code == 303
    assert len(site.events(gid, "end")) == 1
