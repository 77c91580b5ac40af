"""A season's history over real HTTP requests (issue 31): the pages never answer with a Python message for an
old result that cannot be read, merges ask whose line stands, absences and withdrawals are undone, a tournament
game's creation page seats the players not ticked absent, downloads carry the view, the registry is uploaded
as a file."""

from __future__ import annotations

import csv
import io

import pytest

from arbitru.formats.duplicate.game import Session
from arbitru.journal.store import Journal
from arbitru.season import csvfile, registry, tournament
from arbitru.season.tournament import Event
from web_support import LEXICON, csrf, document, login, make_site, post

PLAYERS = "licence,name,club,rating,categories\nL1,Ana Pop,Arad,1800,junior\nL2,Dan Ene,Iasi,1600,senior\n" \
    "L3,Ion Pop,Arad,1500,junior\nL4,Ana Pop,Cluj,1500,senior\n"


@pytest.fixture
def site(tmp_path):
    s = make_site(tmp_path)
    with Journal(s.db, actor="arbiter") as j:
        csvfile.import_players(j, PLAYERS)
        tournament.create(j, Event("Cupa", "2026-03-01", lang="en"), "t1")
        tournament.enrol(j, "t1", ["A1", "A2", "A3", "A4"])
    return s


def test_FISE_15_a_season_with_an_unreadable_old_result_is_served_and_the_result_set_aside(site):
    with Journal(site.db, actor="arbiter") as j:  # as an older arbitru stored it: no master line
        j.append("t1", "recorded", {"number": 1, "game": "t1.1", "title": "", "masters": [],
                                    "scores": {"A1": [20], "A2": [10], "A3": [5], "A4": [1]}, "eliminated": []})
        tournament.record(j, "t1", {"A1": [30], "A2": [20], "A3": [10], "A4": [0]}, [30])
    c = site.client()
    for url in ("/ratings", "/ratings.csv", "/registry", "/tournaments", "/tournaments/t1", "/players/A1",
                "/tournaments/t1/download/table.csv"):
        r = c.get(url)
        assert r.status_code == 200 and "zip()" not in r.text, url
    page = c.get("/tournaments/t1").text
    assert "a result that cannot be read, left out of the table" in page and "without its master line" in page
    login(c)
    r = post(c, "/tournaments/t1/set-aside", {"game": "1", "reason": "no master line on the sheet"}, "/tournaments/t1")
    assert r.status_code == 303
    assert "set aside by decision: no master line on the sheet" in c.get("/tournaments/t1").text
    assert len(site.events("t1", "set-aside")) == 1


def test_FISE_15_a_result_without_a_master_line_is_refused_beside_the_form(site):
    c = site.client()
    login(c)
    r = post(c, "/tournaments/t1/record", {"result": "A1,20\nA2,10\nA3,5\nA4,0\n"}, "/tournaments/t1")
    assert r.status_code == 422 and "needs its master line" in r.text.split('id="record"')[1]
    r = post(c, "/tournaments/t1/record", {"result": "master,30\nA1,45\nA2,10\nA3,5\nA4,0\n"}, "/tournaments/t1")
    assert r.status_code == 422 and "line 2: A1: 45 points in move 1" in r.text
    assert site.events("t1", "recorded") == []


def test_FISE_21_the_secretary_merges_two_records_choosing_whose_line_stands_and_undoes_it(site):
    with Journal(site.db, actor="arbiter") as j:
        tournament.record(j, "t1", {"A1": [30], "A2": [20], "A3": [10], "A4": [0]}, [30])
    c = site.client()
    login(c)
    assert "L4 · Cluj" in c.get("/tournaments/t1").text  # two Ana Pop: told apart by licence and club
    r = post(c, "/players/A4/merge", {"into": "A1", "reason": "one person"}, "/players/A4")
    assert r.status_code == 422 and "Cupa game 1 (t1.1)" in r.text and 'name="keep:t1.1"' in r.text
    assert site.events("registry", "merged") == []
    r = post(c, "/players/A4/merge", {"into": "A1", "reason": "one person", "keep:t1.1": "A1"}, "/players/A4")
    assert r.status_code == 303
    page = c.get("/players/A1").text
    assert "A4 Ana Pop merged into A1 Ana Pop (game t1.1: the line of A1 Ana Pop stands)" in page
    assert "{'" not in page and "games kept" in page
    table = c.get("/tournaments/t1/download/table.csv").text
    assert "A4" not in table and table.count("Ana Pop") == 1
    r = post(c, "/players/A1/unmerge", {"player": "A4", "reason": "two people"}, "/players/A1")
    assert r.status_code == 303
    assert c.get("/tournaments/t1/download/table.csv").text.count("Ana Pop") == 2


def test_FISE_15_absences_marked_and_undone_and_withdrawals_undone_on_the_page(site):
    with Journal(site.db, actor="arbiter") as j:
        tournament.record(j, "t1", {"A1": [30], "A2": [20], "A3": [10], "A4": [0]}, [30])
    c = site.client()
    login(c)
    r = post(c, "/tournaments/t1/absent", {"game": "1", "player": "A2", "reason": ""}, "/tournaments/t1")
    assert r.status_code == 422 and "scored 20 points in game 1" in r.text
    r = post(c, "/tournaments/t1/absent", {"game": "1", "player": "A4", "reason": "did not come"}, "/tournaments/t1")
    assert r.status_code == 303
    assert "abs." in c.get("/tournaments/t1").text
    assert "A4" not in c.get("/ratings.csv").text
    post(c, "/tournaments/t1/absent-undo", {"game": "1", "player": "A4"}, "/tournaments/t1")
    assert "abs." not in c.get("/tournaments/t1").text
    r = post(c, "/tournaments/t1/withdraw", {"player": "A3", "after_game": "0"}, "/tournaments/t1")
    assert r.status_code == 422 and "has a result in game 1" in r.text
    post(c, "/tournaments/t1/withdraw", {"player": "A3", "after_game": "1"}, "/tournaments/t1")
    assert "withdrawn after game 1" in c.get("/tournaments/t1").text
    r = post(c, "/tournaments/t1/withdraw-undo", {"player": "A3"}, "/tournaments/t1")
    assert r.status_code == 303 and "withdrawn after game 1" not in c.get("/tournaments/t1").text


def test_FISE_21_a_tournament_game_created_on_the_web_leaves_the_players_ticked_absent(site):
    c = site.client()
    login(c)
    page = c.get("/games/new?tournament=t1").text
    assert 'name="absent:A2"' in page
    r = post(c, "/games/new", {"tournament": "t1", "title": "Cupa · 1", "rules": "fise", "lang": "en",
                               "lexicon": LEXICON, "moves": "2", "seconds": "60", "seed": "7", "absent:A2": "1"},
             "/games/new?tournament=t1")
    assert r.status_code == 303, r.text
    gid = r.headers["location"].rsplit("/", 1)[1]
    with Journal(site.db) as j:
        assert [p.name for p in Session(j, gid).game.players.values()] == ["Ana Pop", "Ion Pop", "Ana Pop"]
        assert tournament.replay(j, "t1").games[0].absent == {"A2": ""}


def test_FISE_15_the_downloads_carry_the_view(site):
    with Journal(site.db, actor="arbiter") as j:
        tournament.record(j, "t1", {"A1": [10, 30], "A2": [20, 0], "A3": [30, 10], "A4": [0, 0]}, [30, 30])
    c = site.client()
    page = c.get("/tournaments/t1?category=junior&method=mean-percentage").text
    assert "/download/table.csv?method=mean-percentage&amp;category=junior" in page
    r = c.get("/tournaments/t1/download/table.csv?method=mean-percentage&category=junior")
    first, header, *rows = list(csv.reader(io.StringIO(r.text)))
    assert header[:4] == ["place", "registry id", "licence", "name"]
    assert first[0].startswith("ranked by: mean percentage") and "category: junior" in first
    assert [row[3] for row in rows] == ["Ana Pop", "Ion Pop"]
    assert "-table-junior-mean-percentage.csv" in r.headers["content-disposition"]
    # made in the background (issue 29): a busy machine may answer with the progress page (202) first
    pdf = document(c, "/tournaments/t1/download/table.pdf?method=mean-percentage&category=junior")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_registry_a_semicolon_cp1250_file_is_uploaded_as_a_file(site):
    c = site.client()
    login(c)
    data = "Licenta;Nume;Club\n9;Şerban Bălan;Iaşi\n10;Ţuţu Ştir;Arad\n".encode("cp1250")
    token = csrf(c.get("/registry").text)
    r = c.post("/registry/import", data={"csrf": token}, files={"file": ("l.csv", data, "text/csv")})
    assert r.status_code == 303, r.text
    with Journal(site.db) as j:
        names = [rec.name for rec in registry.load(j).active()]
    assert names[-2:] == ["Şerban Bălan", "Ţuţu Ştir"]
    bad = "name;club\nAna;Arad;extra\n".encode("cp1250")
    r = c.post("/registry/import", data={"csrf": token}, files={"file": ("l.csv", bad, "text/csv")})
    assert r.status_code == 422 and "line 2: 3 cells, the header (line 1) has 2" in r.text
    r = c.post("/registry/import", data={"csrf": token, "encoding": "utf-8"},
               files={"file": ("l.csv", data, "text/csv")})
    assert r.status_code == 422 and "not utf-8 text" in r.text
    r = c.post("/registry/import", data={"csrf": "x"}, files={"file": ("l.csv", data, "text/csv")})
    assert r.status_code == 403
