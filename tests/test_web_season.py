"""The season's pages over real HTTP requests: the public reads the registry, tables and ratings;
only the arbiter registers and corrects players; renaming a player changes every page."""

from __future__ import annotations

import pytest

from arbitru.journal.store import Journal
from arbitru.season import championship, csvfile, tournament
from arbitru.season.tournament import Event
from web_support import document, login, make_site, post

PLAYERS = ("licence,name,club,rating,categories\n"
           "L1,Ana,Arad,1800,junior\nL2,Dan,Iasi,1600,senior\nL3,Ion,Arad,1500,senior\n")


@pytest.fixture
def site(tmp_path):
    s = make_site(tmp_path)
    with Journal(s.db, actor="arbiter") as j:
        ids = csvfile.import_players(j, PLAYERS)
        tid = tournament.create(j, Event("Cupa Arad", "2026-03-01", place="Arad", lang="en"), "t1")
        tournament.enrol(j, tid, ids)
        tournament.record(j, tid, {"A1": [20, 10], "A2": [10, 30], "A3": [5, 5]}, [20, 30])
        tournament.record(j, tid, {"A1": [40], "A2": [40], "A3": [10]}, [40])
        cid = championship.create(j, "Nationala", points=[10, 8, 6], championship_id="c1")
        championship.add_stage(j, cid, tid)
    return s


PUBLIC = ["/registry", "/registry.csv", "/players/A1", "/tournaments", "/tournaments/t1",
          "/tournaments/t1/download/table.csv", "/championships/c1", "/ratings", "/ratings.csv"]


@pytest.mark.parametrize("url", PUBLIC)
def test_the_public_reads_every_season_page(site, url):
    r = site.client().get(url)
    assert r.status_code == 200, r.text
    assert ("Cupa Arad" if url == "/tournaments" else "Ana") in r.text


def test_FISE_15_the_tournament_table_writes_its_tie_order_and_filters_by_category_and_club(site):
    c = site.client()
    page = c.get("/tournaments/t1").text
    assert "Ranked by" in page and "mean place (a game not played: last place)" in page
    junior = c.get("/tournaments/t1?category=junior").text
    assert "Ana" in junior and "Dan" not in junior
    arad = c.get("/tournaments/t1/download/table.csv?club=Arad").text
    assert "Ion" in arad and "Dan" not in arad
    assert c.get("/tournaments/t1?method=bogus").status_code == 400
    assert c.get("/tournaments/nope").status_code == 404


def test_RO_6_6_the_championship_page_gives_tied_players_the_higher_place_points(site):
    page = site.client().get("/championships/c1").text
    assert page.count("<td>10</td>") >= 1


def test_FISE_21_FISE_22_the_rating_list_and_a_players_history(site):
    c = site.client()
    ratings = c.get("/ratings.csv").text.splitlines()
    # changed by issue 31: the licence beside the name (homonyms), the FISE-22 games kept
    assert ratings[0] == "registry id,licence,name,club,elod,elod games,percentage,percentage games,games kept"
    assert len(ratings) == 4
    history = c.get("/players/A1").text
    assert "Cupa Arad" in history and "1800" not in c.get("/ratings").text.split("Ana")[0]
    assert c.get("/ratings?as_of=2026-02-30").status_code == 400
    assert c.get("/players/A99").status_code == 404


def test_only_the_arbiter_registers_and_corrects_players(site):
    c = site.client()
    assert "Register a player" not in c.get("/registry").text
    r = c.post("/registry/add", data={"csrf": "x", "name": "Eve"})
    assert r.status_code == 401
    r = c.post("/players/A1/correct", data={"csrf": "x", "name": "Eve"})
    assert r.status_code == 401
    login(c)
    r = post(c, "/registry/add", {"name": "Eve", "licence": "L9", "club": "Cluj", "born": "1999"}, "/registry")
    assert r.status_code == 303
    assert "Eve" in c.get("/registry").text


def test_a_refused_registration_is_shown_beside_its_form_and_stores_nothing(site):
    c = site.client()
    login(c)
    r = post(c, "/registry/import", {"csv": "licence,name\nL7,X\nL7,Y\n"}, "/registry")
    assert r.status_code == 422 and "lines 2 and 3" in r.text
    r = post(c, "/registry/add", {"name": "Bob", "licence": "L1"}, "/registry")
    assert r.status_code == 422 and "already" in r.text
    r = post(c, "/registry/add", {"name": "Bob", "born": "19x9"}, "/registry")
    assert r.status_code == 422
    assert site.events("registry")[-1].kind == "registered" and len(site.events("registry")) == 1


def test_renaming_a_player_on_the_web_changes_every_table(site):
    c = site.client()
    login(c)
    r = post(c, "/players/A1/correct", {"name": "Ana Popescu", "reason": "full name"}, "/players/A1")
    assert r.status_code == 303
    for url in ("/registry", "/tournaments/t1", "/championships/c1", "/ratings", "/players/A1"):
        assert "Ana Popescu" in c.get(url).text, url


def test_FISE_15_the_tournament_table_prints_as_pdf(site):
    r = document(site.client(), "/tournaments/t1/download/table.pdf")  # made in the background (issue 29)
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    assert site.client().get("/tournaments/t1/download/table.doc").status_code == 404


def test_FISE_15_a_table_downloads_for_a_club_whose_name_is_not_ascii(tmp_path):
    """A club of the federation's own language (``Brașov``, a quote in another's name) names the download: the
    file's name said in UTF-8 beside an ASCII one for old browsers (RFC 6266), never a server error."""
    from urllib.parse import unquote

    s = make_site(tmp_path)
    with Journal(s.db, actor="arbiter") as j:
        ids = csvfile.import_players(j, 'licence,name,club,rating,categories\nL1,Ana,Brașov,1800,junior\n'
                                        'L2,Dan,"Club ""A""",1600,senior\n')
        tournament.create(j, Event("Cupa", "2026-03-01", lang="ro"), "t1")
        tournament.enrol(j, "t1", ids)
        tournament.record(j, "t1", {"A1": [10, 30], "A2": [20, 5]}, [30, 30])
    c = s.client()
    for club, plain in (("Brașov", "Brasov"), ('Club "A"', "Club__A_")):
        r = c.get("/tournaments/t1/download/table.csv", params={"club": club})
        assert r.status_code == 200, r.text
        said = r.headers["content-disposition"]
        assert f'filename="t1-table-{plain}-' in said and said.isascii()
        named = said.split("filename*=UTF-8''", 1)[1]
        assert unquote(named).startswith(f"t1-table-{club}-") and unquote(named).endswith(".csv")
