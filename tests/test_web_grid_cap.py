"""The duplicate console's grid at a national game (an online simultaneous of 10,000 players): at most
``views.GRID_ROWS`` rows drawn, those that need the arbiter's look first, every player still counted, the missing
named up to a cap; the find box asks the server for any player or table (one rule, :func:`views.found`, with
app.js's ``gridFilter``). Real HTTP (ASGI) over a real journal; the cap is set down to 5 so that 12 players are a
national game."""

from __future__ import annotations

import re

import pytest

from arbitru.formats.duplicate import seats
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import views
from test_web_http import arbiter, site  # noqa: F401  (the web tests' fixtures)
from web_support import LEXICON, Site, make_game

NAMES = ("Ana Pop", "Bogdan Popescu", "Cleo Dima", "Dan Epopee", "Elena Ionescu", "Filip Stan", "Gina Vlad",
         "Horia Pana", "Ioana Apostol", "Jean Marin", "Kira Toma", "Liviu Radu")


def national(web: Site) -> str:
    """12 players at tables 20-22 (four a table), move 1 open: player 3's slip is invalid, 7's late, 9's replaced,
    11's seat changed (a new name); 1, 2, 4 valid; 5, 6, 8, 10, 12 without a slip."""
    settings = Settings(ruleset("fise", moves=5, seconds=60), "en", LEXICON, seed="7")
    players = [Player(str(n), name, str(20 + (n - 1) // 4)) for n, name in enumerate(NAMES, 1)]
    with Journal(web.db, actor="arbiter") as j:
        s = Session.create(j, settings, load_lexicon(LEXICON, "en"), players)
        s.draw()
        good = [c.describe(s.game.rules.notation).split(" ") for c in s.candidates()[:2]]
        slip = {n: Slip(1, n, good[0][0], good[0][1], int(good[0][2])) for n in ("1", "2", "4", "9", "11")}
        slip["3"] = Slip(1, "3", "H8", "ZZZZZ", 50)
        slip["7"] = Slip(1, "7", good[0][0], good[0][1], int(good[0][2]), late=True)
        s.add_slips(list(slip.values()))
        s.add_slips([Slip(1, "9", good[1][0], good[1][1], int(good[1][2]))], replace=True)
        seats.rename(s, "11", "Kira Toma-Lungu")
        return s.id


def rows(html: str) -> list[str]:
    """The players whose rows a grid draws, in their order."""
    return re.findall(r'<tr id="slip-(\w+)"', html)


@pytest.fixture
def capped(monkeypatch):
    monkeypatch.setattr(views, "GRID_ROWS", 5)
    monkeypatch.setattr(views, "MISSING_NAMED", 3)


def test_found_is_the_find_boxs_rule_a_number_whole_a_name_from_a_words_start():
    """The rule app.js's gridFilter applies on the page, said once in Python for the server's find."""
    words = "10 Ana Popescu table 21"
    assert views.found(words, "10") and views.found(words, "  10 ") and views.found(words, "table 21")
    assert not views.found(words, "1") and not views.found(words, "2") and not views.found(words, "table 2")
    assert views.found(words, "pop") and views.found(words, "ANA   pop") and views.found(words, "popescu table 21")
    assert not views.found(words, "escu") and not views.found(words, "ana popescu table 2")
    assert views.found(words, "") and views.found(words, "   ")


def test_fise_8_a_national_grid_draws_the_slips_that_need_a_look_first_and_counts_every_player(
        site, arbiter, capped):  # noqa: F811
    gid = national(site)
    for url in (f"/games/{gid}", f"/games/{gid}/grid"):
        html = arbiter.get(url).text
        # 3 invalid, 7 late, 9 replaced, 11 seat changed, then by number (1) up to the cap of 5, drawn by number
        assert rows(html) == ["1", "3", "7", "9", "11"], url
        note = html.split('id="grid-note">')[1].split("</p>")[0]
        assert note.startswith("5 of 12 players shown: first the slips that need a look"), note
        assert "Find any player or table above." in note
        assert "<b>7 in, 5 missing</b>" in html  # the counts of all players
        named = html.split('id="missing-names">')[1].split("</span>")[0]
        assert named == "5 Elena Ionescu (table 21), 6 Filip Stan (table 21), 8 Horia Pana (table 21) and 2 more"
    console = arbiter.get(f"/games/{gid}").text
    box = console.split('id="grid-filter"')[1].split(">")[0]
    assert 'name="find"' in box and f'hx-get="/games/{gid}/grid"' in box and 'hx-target="#grid"' in box
    assert 'hx-trigger="input changed delay:300ms, search"' in box and 'maxlength="100"' in box
    grid = console.split('<div id="grid"')[1].split(">")[0]
    assert 'hx-include="#grid-filter"' in grid and 'hx-trigger="gamechanged from:body"' in grid


def test_fise_8_the_find_draws_any_player_of_a_national_grid_by_number_whole_or_name(
        site, arbiter, capped):  # noqa: F811
    gid = national(site)
    for page in (f"/games/{gid}", f"/games/{gid}/grid"):
        def found(text: str, page: str = page) -> tuple[list[str], str]:
            html = arbiter.get(page, params={"find": text}).text
            assert "<b>7 in, 5 missing</b>" in html  # the counts stay every player's
            return rows(html), html.split('id="grid-note">')[1].split("</p>")[0]

        assert found("10") == (["10"], "1 player found for “10”.")  # not among the rows drawn without a find
        assert found("1")[0] == ["1"]  # a number whole: not 10, 11, 12, nor table 21
        assert found("pop") == (["1", "2"], "2 players found for “pop”.")  # not Dan Epopee, Ioana Apostol
        assert found("Table  22") == (["9", "10", "11", "12"], "4 players found for “Table 22”.")
        assert found("kira toma-lungu")[0] == ["11"]
        assert found("nobody") == ([], "0 players found for “nobody”.")
        assert found("table") == (["1", "2", "3", "4", "5"], "12 players found for “table”; the first 5 are shown.")
    # the page keeps what was asked in its box, and each find is drawn for its asker: the grid without one is
    # the capped grid again
    assert 'value="10"' in arbiter.get(f"/games/{gid}", params={"find": "10"}).text.split('id="grid-filter"')[1]
    assert rows(arbiter.get(f"/games/{gid}/grid").text) == ["1", "3", "7", "9", "11"]
    assert rows(arbiter.get(f"/games/{gid}/grid", params={"find": ""}).text) == ["1", "3", "7", "9", "11"]


def test_a_find_text_too_long_is_cut_not_refused(site, arbiter, capped):  # noqa: F811
    gid = national(site)
    long = "Kira " + "x" * 500
    for page in (f"/games/{gid}", f"/games/{gid}/grid"):
        r = arbiter.get(page, params={"find": long})
        assert r.status_code == 200
        note = r.text.split('id="grid-note">')[1].split("</p>")[0]
        assert note == f"0 players found for “{long[: views.FIND_LONGEST]}”.", note
    r = arbiter.get(f"/games/{gid}/grid", params={"find": "<script>alert(1)</script>"})
    assert r.status_code == 200 and "<script>alert" not in r.text and "&lt;script&gt;" in r.text


def test_fise_8_a_game_within_the_cap_draws_every_row_as_before(site, arbiter):  # noqa: F811
    gid = make_game(site)  # three players, under views.GRID_ROWS
    for url in (f"/games/{gid}", f"/games/{gid}/grid"):
        html = arbiter.get(url).text
        assert rows(html) == ["1", "2", "3"] and 'id="grid-note"' not in html
        assert "<b>0 in, 3 missing</b>" in html
        assert html.split('id="missing-names">')[1].split("</span>")[0] == "1 Ana, 2 Bo, 3 Cleo"
    console = arbiter.get(f"/games/{gid}").text
    assert "hx-include" not in console.split('<div id="grid"')[1].split(">")[0]  # the page's own filter only
    assert "hx-get" not in console.split('id="grid-filter"')[1].split(">")[0]
    # asked with a find, the page still draws every row (its own find hides the others), the text in its box
    console = arbiter.get(f"/games/{gid}", params={"find": "bo"}).text
    assert rows(console) == ["1", "2", "3"] and 'value="bo"' in console.split('id="grid-filter"')[1].split(">")[0]
