"""The arbiter runs a tournament through the pages: creates it, enrols registered players (ticked,
typed, registered on the spot, late), creates its games through the game-creation pages with its players filled
in (anticipation seated by rating, RO-5.1), withdraws a player (asked, then confirmed); championships too. The
public gets 401, a stale form 403, a refusal is shown beside its field; nothing is stored from any of them."""

from __future__ import annotations

import re

import pytest

from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.duplicate.game import Session
from arbitru.journal.store import Journal
from arbitru.season import championship, csvfile, tournament
from arbitru.season.tournament import Event
from web_support import LEXICON, confirmation, csrf, login, make_site, post

PLAYERS = ("licence,name,club,rating,categories\n"
           "L1,Ana Pop,Arad,1500,junior\nL2,Dan Ene,Iasi,1900,senior\nL3,Ion Pop,Arad,1700,senior\n"
           "L4,Ion Pop,Cluj,1600,senior\n")


@pytest.fixture
def site(tmp_path):
    s = make_site(tmp_path)
    with Journal(s.db, actor="arbiter") as j:
        csvfile.import_players(j, PLAYERS)
    return s


def journal_size(site) -> int:
    with Journal(site.db) as j:
        return sum(len(j.events(g.id)) for f in ("tournament", "championship", "registry", "duplicate")
                   for g in j.games(f)) + len(j.games("tournament")) + len(j.games("championship"))


def make_tournament(site, rules: str = "fise", lang: str = "en") -> str:
    with Journal(site.db, actor="arbiter") as j:
        fmt = "anticipation" if rules == "ro-anticipation" else "duplicate"
        return tournament.create(j, Event("Cupa", "2026-05-01", rules=rules, format=fmt, lang=lang), "t1")


def played_one_game(site, scores: dict[str, list[int]]):
    """Tournament t1 of A1, A2, A3 with one game recorded (a top of 10), and the arbiter's client."""
    make_tournament(site)
    with Journal(site.db, actor="arbiter") as j:
        tournament.enrol(j, "t1", list(scores))
        tournament.record(j, "t1", scores, [10])
    c = site.client()
    login(c)
    return c


ARBITER_POSTS = [("/tournaments/new", {"name": "X", "start": "2026-01-01"}),
                 ("/tournaments/t1/enrol", {"player": "A1"}),
                 ("/tournaments/t1/enrol-new", {"name": "Eve"}),
                 ("/tournaments/t1/withdraw", {"player": "A1"}),
                 ("/tournaments/t1/record", {"result": "master,5\nA1,5"}),
                 ("/championships/new", {"name": "N"}),
                 ("/championships/c1/stage", {"tournament": "t1"}),
                 ("/championships/c1/eliminate", {"player": "A1", "stage": "1"})]


@pytest.mark.parametrize(("url", "data"), ARBITER_POSTS)
def test_only_the_arbiter_runs_a_tournament_the_public_gets_401_a_stale_form_403(site, url, data):
    make_tournament(site)
    with Journal(site.db, actor="arbiter") as j:
        tournament.enrol(j, "t1", ["A1"])
        championship.create(j, "Nationala", championship_id="c1")
    before = journal_size(site)
    public = site.client()
    assert public.post(url, data=data | {"csrf": "x"}).status_code == 401
    arbiter = site.client()
    login(arbiter)
    assert arbiter.post(url, data=data | {"csrf": "stale"}).status_code == 403
    assert journal_size(site) == before
    page = public.get("/tournaments/t1").text
    assert "New game in this tournament" not in page and "Enrol" not in page
    assert "New tournament" not in public.get("/tournaments").text


def test_the_arbiter_creates_a_tournament_a_refusal_beside_its_field(site):
    c = site.client()
    login(c)
    r = post(c, "/tournaments/new", {"name": "Cupa", "start": "2026-02-30"}, "/tournaments")
    assert r.status_code == 422
    beside_start = r'name="start"[^>]*>\s*</label>\s*<span class="error" id="t-start-error">[^<]*2026-02-30'
    assert re.search(beside_start, r.text), r.text
    assert 'name="name" value="Cupa"' in r.text  # the form as it was filled in
    r = post(c, "/tournaments/new", {"name": "Cupa", "start": "2026-03-02", "end": "2026-03-01"}, "/tournaments")
    assert r.status_code == 422 and "before the start" in r.text
    assert journal_size(site) == 1  # the registry's import only
    r = post(c, "/tournaments/new", {"name": "Cupa Aradului", "start": "2026-03-07", "end": "2026-03-08",
                                     "place": "Arad", "organiser": "CS Arad", "rules": "romanian"}, "/tournaments")
    assert r.status_code == 303
    tid = r.headers["location"].rsplit("/", 1)[1]
    with Journal(site.db) as j:
        t = tournament.replay(j, tid)
    assert (t.event.name, t.event.place, t.event.rules, t.event.format, t.event.language) == (
        "Cupa Aradului", "Arad", "romanian", "duplicate", "ro")
    page = c.get(f"/tournaments/{tid}").text
    assert '<html lang="ro">' in page and "Clasament general" in page and "Partidă nouă în acest turneu" in page


def test_RO_5_1_enrolment_ticked_typed_on_the_spot_and_late(site):
    make_tournament(site)
    c = site.client()
    login(c)
    page = c.get("/tournaments/t1?q=pop").text
    assert "Ana Pop" in page and "Ion Pop" in page and "Dan Ene" not in page.split('id="enrol"')[1]
    token = csrf(page)
    r = c.post("/tournaments/t1/enrol", data={"csrf": token, "player": ["A1", "A3"], "late": "0"})
    assert r.status_code == 303, r.text
    r = post(c, "/tournaments/t1/enrol", {"players": "A2, A1", "late": "0"}, "/tournaments/t1")
    assert r.status_code == 422 and "enrolled already" in r.text.split('id="enrol"')[1]
    r = post(c, "/tournaments/t1/enrol", {"players": "A2", "late": "0"}, "/tournaments/t1")
    assert r.status_code == 303
    r = post(c, "/tournaments/t1/enrol-new", {"name": "Eva Nou", "licence": "L1", "late": "0"}, "/tournaments/t1")
    assert r.status_code == 422 and "already" in r.text.split('id="enrol-new"')[1]
    with Journal(site.db, actor="arbiter") as j:
        tournament.record(j, "t1", {"A1": [10], "A2": [5], "A3": [1]}, [10])
    # once a game is played, an entry is late unless the arbiter unticks it
    assert "checked> late entry" in c.get("/tournaments/t1").text
    r = post(c, "/tournaments/t1/enrol-new", {"name": "Eva Nou", "club": "Cluj", "late": "1"}, "/tournaments/t1")
    assert r.status_code == 303
    with Journal(site.db) as j:
        t = tournament.replay(j, "t1")
    assert [(e.player, e.entry, e.late) for e in t.enrolments] == [
        ("A1", "1", False), ("A3", "2", False), ("A2", "3", False), ("A5", "4", True)]
    assert "Eva Nou" in c.get("/registry").text


def test_RO_5_1_a_tournaments_anticipation_game_is_created_through_its_page_seated_by_rating(site):
    make_tournament(site, "ro-anticipation", lang="")
    with Journal(site.db, actor="arbiter") as j:
        tournament.enrol(j, "t1", ["A1", "A2", "A3", "A4"])
    c = site.client()
    login(c)
    assert "/anticipation/new?tournament=t1" in c.get("/tournaments/t1").text
    page = c.get("/anticipation/new?tournament=t1").text
    assert '<html lang="ro">' in page and 'name="tournament" value="t1"' in page
    seats = re.findall(r"<tr><td>(\d+)</td><td>(\d+) ([^<]+)</td></tr>", page)
    assert seats[0][1:] == ("2", "Dan Ene")  # the highest rating at the first table
    assert c.get("/games/new?tournament=t1").status_code == 400  # an anticipation tournament
    r = post(c, "/anticipation/new", {"tournament": "t1", "variant": "classic", "source": "seed", "seed": "5"},
             "/anticipation/new?tournament=t1")
    assert r.status_code == 303, r.text
    gid = r.headers["location"].rsplit("/", 1)[1]
    with Journal(site.db) as j:
        assert tournament.replay(j, "t1").games[0].game_id == gid
        state = AnticipationGame(j, gid).replay()
    assert sorted(state.seating, key=state.seating.__getitem__)[0] == "2"
    table = c.get("/tournaments/t1").text  # an anticipation game is followed on its own page, by its format
    assert f'href="/games/{gid}"' in table and f"/games/{gid}/results" not in table


def test_FISE_15_a_tournaments_duplicate_game_is_created_through_its_page_and_feeds_the_table(site):
    make_tournament(site)
    with Journal(site.db, actor="arbiter") as j:
        tournament.enrol(j, "t1", ["A1", "A2", "A3"])
    c = site.client()
    login(c)
    assert 'href="/games/new?tournament=t1"' in c.get("/tournaments/t1").text  # the tournament's format's page
    page = c.get("/games/new?tournament=t1").text
    assert 'name="tournament" value="t1"' in page and "Dan Ene" in page and "Cupa · 1" in page
    assert c.get("/games/new?tournament=nope").status_code == 404
    r = post(c, "/games/new", {"tournament": "t1", "title": "Cupa · 1", "rules": "fise", "lang": "en",
                               "lexicon": LEXICON, "moves": "2", "seconds": "60", "seed": "7"}, "/games/new")
    assert r.status_code == 303, r.text
    gid = r.headers["location"].rsplit("/", 1)[1]
    with Journal(site.db) as j:
        s = Session(j, gid)
        assert [(p.number, p.name) for p in s.game.players.values()] == [("1", "Ana Pop"), ("2", "Dan Ene"),
                                                                        ("3", "Ion Pop")]
    post(c, f"/games/{gid}/draw", {"new": "0"}, f"/games/{gid}")
    post(c, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    table = c.get("/tournaments/t1").text
    assert f"/games/{gid}/results" in table and "<th>1</th>" in table  # the game played so far is in the table


def test_a_withdrawal_is_asked_then_confirmed_and_carries_forward(site):
    c = played_one_game(site, {"A1": [10], "A2": [5], "A3": [1]})
    r = post(c, "/tournaments/t1/withdraw", {"player": "A2", "after_game": "1"}, "/tournaments/t1", confirm=False)
    assert r.status_code == 200 and "Withdraw A2 Dan Ene from every game after game 1?" in r.text
    assert len(site.events("t1", "withdrawn")) == 0
    r = post(c, "/tournaments/t1/withdraw", {"player": "A9", "after_game": "1"}, "/tournaments/t1")
    assert r.status_code == 422 and 'id="withdraw-error"' in r.text
    r = post(c, "/tournaments/t1/withdraw", {"player": "A2", "after_game": "1"}, "/tournaments/t1")
    assert r.status_code == 303
    assert len(site.events("t1", "withdrawn")) == 1
    assert "withdrawn after game 1" in c.get("/tournaments/t1").text
    page = c.get("/games/new?tournament=t1").text
    assert "Ana Pop" in page and "Dan Ene" not in page.split('class="entrants"')[1]


def test_a_season_withdrawal_is_confirmed_by_its_one_time_token_not_by_a_plain_confirm_field(site):
    """The finding "season withdrawal confirmed by a plain confirm=1 field": a form sent with ``confirm=1`` (or a
    forged token) stored the withdrawal at once. Now the first request asks and offers a one-time token
    (:mod:`arbitru.web.confirm`); only that token, once, stores."""
    c = played_one_game(site, {"A1": [10], "A2": [5], "A3": [1]})
    data = {"player": "A2", "after_game": "1"}
    for forged in ("1", "x" * 32):
        r = post(c, "/tournaments/t1/withdraw", data | {"confirm": forged}, "/tournaments/t1", confirm=False)
        assert r.status_code == 200 and 'id="confirm-withdraw"' in r.text, forged
        assert len(site.events("t1", "withdrawn")) == 0
    r = post(c, "/tournaments/t1/withdraw", data, "/tournaments/t1", confirm=False)
    token = confirmation(r.text)
    assert token and len(site.events("t1", "withdrawn")) == 0
    page = c.get("/tournaments/t1").text
    r = c.post("/tournaments/t1/withdraw", data={"csrf": csrf(page), **data, "confirm": token})
    assert r.status_code == 303 and len(site.events("t1", "withdrawn")) == 1
    again = c.post("/tournaments/t1/withdraw", data={"csrf": csrf(page), **data, "confirm": token})  # replayed
    assert again.status_code != 303 and len(site.events("t1", "withdrawn")) == 1


def test_a_championship_elimination_is_confirmed_by_its_one_time_token(site):
    c = played_one_game(site, {"A1": [10], "A2": [10], "A3": [1]})
    with Journal(site.db, actor="arbiter") as j:
        cid = championship.create(j, "Nationala", championship_id="c1")
        championship.add_stage(j, cid, "t1")
    data = {"player": "A1", "stage": "1", "reason": "RO-7.1"}
    r = post(c, f"/championships/{cid}/eliminate", data | {"confirm": "1"}, f"/championships/{cid}", confirm=False)
    assert r.status_code == 200 and 'id="confirm-eliminate"' in r.text
    assert len(site.events(cid, "eliminated")) == 0
    assert post(c, f"/championships/{cid}/eliminate", data, f"/championships/{cid}").status_code == 303
    assert len(site.events(cid, "eliminated")) == 1


def test_championship_eliminate_refuses_the_same_player_twice_beside_its_field(site):
    c = played_one_game(site, {"A1": [10], "A2": [10], "A3": [1]})
    with Journal(site.db, actor="arbiter") as j:
        cid = championship.create(j, "Nationala", championship_id="c1")
        championship.add_stage(j, cid, "t1")
        championship.eliminate(j, cid, "A1", 1, "RO-7.1")
    for player, why in (("A1", "A1 is eliminated from stage 1 already"), ("A4", "A4 does not play stage 1")):
        r = post(c, f"/championships/{cid}/eliminate", {"player": player, "stage": "1"}, f"/championships/{cid}",
                 confirm=False)  # refused at the first request, before any confirmation
        assert r.status_code == 422 and 'id="eliminate-error"' in r.text and why in r.text, player
    assert len(site.events(cid, "eliminated")) == 1


def test_RO_6_6_a_championship_is_created_staged_and_a_player_eliminated_from_the_web(site):
    c = played_one_game(site, {"A1": [10], "A2": [10], "A3": [1]})
    r = post(c, "/championships/new", {"name": "Nationala", "points": "10,8,x"}, "/tournaments")
    assert r.status_code == 422 and "whole numbers" in r.text
    r = post(c, "/championships/new", {"name": "Nationala", "points": "10,8,6", "best": "1"}, "/tournaments")
    assert r.status_code == 303
    cid = r.headers["location"].rsplit("/", 1)[1]
    r = post(c, f"/championships/{cid}/stage", {"tournament": "t1"}, f"/championships/{cid}")
    assert r.status_code == 303
    r = post(c, f"/championships/{cid}/stage", {"tournament": "t1"}, f"/championships/{cid}")
    assert r.status_code == 422 and "a stage already" in r.text
    page = c.get(f"/championships/{cid}").text
    assert page.count("<td>10</td>") == 4  # tied for 1st: both get the 1st place's points (RO-6.6), stage and total
    r = post(c, f"/championships/{cid}/eliminate", {"player": "A1", "stage": "1", "reason": "RO-7.1"},
             f"/championships/{cid}", confirm=False)
    assert r.status_code == 200 and "Eliminate A1 Ana Pop from stage 1?" in r.text
    r = post(c, f"/championships/{cid}/eliminate", {"player": "A1", "stage": "3"}, f"/championships/{cid}")
    assert r.status_code == 422 and "no stage 3" in r.text
    r = post(c, f"/championships/{cid}/eliminate", {"player": "A1", "stage": "1", "reason": "RO-7.1"},
             f"/championships/{cid}")
    assert r.status_code == 303
    assert c.get(f"/championships/{cid}").text.count("<td>10</td>") == 2


@pytest.mark.parametrize(("rules", "lang", "words"), [
    ("romanian", "", ["Clasament general", "Turnee"]), ("greek", "", ["Γενική κατάταξη"]),
    ("fise", "", ["Clasificación general"]), ("fise", "pl", ["Klasyfikacja generalna"]),
    ("fise", "fr", ["Classement général"])])
def test_a_tournaments_pages_are_in_its_language(site, rules, lang, words):
    make_tournament(site, rules, lang)
    c = site.client()
    expected = lang or {"romanian": "ro", "greek": "el", "fise": "es"}[rules]
    for url in ("/tournaments/t1", "/registry", "/ratings", "/players/A1"):
        assert f'<html lang="{expected}">' in c.get(url).text, url
    page = c.get("/tournaments/t1").text
    for w in words:
        assert w in page, w
    assert "General table" not in page
    assert '<html lang="en">' in c.get("/tournaments/t1?lang=en").text


def test_standings_never_depend_on_spelling_a_typo_does_not_split_a_player_and_namesakes_do_not_merge(site):
    """A finding of the season's review: the multi-game standings (``/standings``, ``arbitru duplicate standings``)
    matched players by name. A tournament's games are matched by registry id: game 1 written "Ana Pop", the
    record then corrected to "Ana Popa" before game 2, is one player; the two "Ion Pop" (A3, A4) stay two."""
    from click.testing import CliRunner

    from arbitru.cli import cli
    from arbitru.formats.duplicate.game import Settings
    from arbitru.formats.duplicate.rulesets import ruleset
    from arbitru.lexicons.synthetic import load_lexicon
    from arbitru.season import registry

    make_tournament(site)
    lex = load_lexicon(LEXICON, "en")
    settings = Settings(ruleset("fise", moves=1, seconds=60), "en", LEXICON, seed="7")
    games = []
    with Journal(site.db, actor="arbiter") as j:
        tournament.enrol(j, "t1", ["A1", "A2", "A3", "A4"])
        for n in (1, 2):
            if n == 2:
                registry.correct(j, "A1", {"name": "Ana Popa"}, "typo")
            gid = tournament.create_duplicate_game(j, "t1", settings, lex)
            s = Session(j, gid)
            s.lexicon = lex
            s.draw()
            s.place_master(1)
            games.append(gid)
        assert [p.name for p in Session(j, games[0]).game.players.values()].count("Ion Pop") == 2
        assert Session(j, games[0]).game.players["1"].name == "Ana Pop"  # as written when game 1 was created
    page = site.client().get("/standings?" + "&".join(f"game={g}" for g in games) + "&lang=en").text
    rows = re.findall(r'<tr><td>\d+</td><td><a href="/players/(A\d)">([^<]+)</a></td><td>(\d)</td>', page)
    assert sorted(rows) == [("A1", "Ana Popa", "2"), ("A2", "Dan Ene", "2"), ("A3", "Ion Pop", "2"),
                            ("A4", "Ion Pop", "2")]
    assert "Ana Pop<" not in page
    out = CliRunner().invoke(cli, ["duplicate", "standings", *games, "-j", site.db, "--json"])
    assert out.exit_code == 0, out.output
    import json

    rows_json = json.loads(out.output)["standings"]
    assert sorted((r["registry_id"], r["player"], r["games"]) for r in rows_json) == [
        ("A1", "Ana Popa", 2), ("A2", "Dan Ene", 2), ("A3", "Ion Pop", 2), ("A4", "Ion Pop", 2)]


def test_FISE_15_a_game_played_on_paper_is_recorded_from_the_tournaments_page(site):
    c = played_one_game(site, {"A1": [10], "A2": [5], "A3": [1]})
    r = post(c, "/tournaments/t1/record", {"result": "master,20\nA1,20\nA2,x\n"}, "/tournaments/t1")
    assert r.status_code == 422 and "line 3" in r.text.split('id="record"')[1]
    r = post(c, "/tournaments/t1/record", {"result": "master,20\nA1,20\nA9,3\n"}, "/tournaments/t1")
    assert r.status_code == 422 and 'id="record-error"' in r.text
    assert len(site.events("t1", "recorded")) == 1
    r = post(c, "/tournaments/t1/record", {"title": "Partida 2", "result": "master,20\nA1,20\nA2,15\nA3,3\n"},
             "/tournaments/t1")
    assert r.status_code == 303
    page = c.get("/tournaments/t1").text
    assert "<th>2</th>" in page and "Partida 2" in page
    assert site.client().post("/tournaments/t1/record", data={"csrf": "x", "result": "master,1"}).status_code == 401


def test_championship_refusals_are_said_in_the_championships_language(site):
    """The finding "English errors on non-English pages": a second elimination, a player who does not play the stage
    and a stage that does not exist were refused in English on a Romanian championship's page."""
    make_tournament(site, lang="ro")
    with Journal(site.db, actor="arbiter") as j:
        tournament.enrol(j, "t1", ["A1", "A2"])
        cid = championship.create(j, "Nationala", championship_id="c1")
        championship.add_stage(j, cid, "t1")
        championship.eliminate(j, cid, "A1", 1, "RO-7.1")
    c = site.client()
    login(c)
    for player, stage, said, english in (("A1", "1", "A1 este deja eliminat din etapa 1", "already"),
                                         ("A4", "1", "A4 nu joacă etapa 1 (Cupa)", "does not play"),
                                         ("A2", "3", "nu există etapa 3 (etape: 1)", "no stage")):
        r = post(c, f"/championships/{cid}/eliminate", {"player": player, "stage": stage}, f"/championships/{cid}",
                 confirm=False)
        assert r.status_code == 422 and 'id="eliminate-error"' in r.text and said in r.text, r.text
        assert english not in r.text
    assert len(site.events(cid, "eliminated")) == 1
