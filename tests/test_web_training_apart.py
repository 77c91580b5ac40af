"""Training games apart from the hall, and word lists chosen by name.

Each finding of the issue is reproduced over HTTP as the visitor who found it would (anonymous, another browser,
hand-crafted forms), then the store's pruning and its refusal to delete from the hall's journal.
"""

from __future__ import annotations

import re
import warnings
from datetime import UTC, datetime, timedelta

import pytest

from arbitru.errors import JournalError
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.journal import training as store
from arbitru.journal.store import Event, GameInfo, Journal
from arbitru.lexicons import catalog
from arbitru.web.app import create_app
from web_anticipation_support import create_game, form
from web_support import LEXICON, Site, csrf, login, make_site, post

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def site(tmp_path):
    return make_site(tmp_path)


def hall_game(site: Site, *, over: bool) -> str:
    """An anticipation game of the hall: two lots drawn (in progress), or every lot and the final results."""
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    with Journal(site.db, actor="arbiter") as j:
        game = AnticipationGame(j, gid)
        game.draw_lot(1, 2)
        game.draw_lot(2, 3)
        if over:
            game.draw_all_lots()
            game.publish("final", confirmed=True)  # no provisional stage first (RO-5.5.j)
    return gid


def training_games(site: Site) -> list[str]:
    with store.open_store(store.store_address(site.db), "arbiter") as j:
        return [g.id for g in j.games()]


def hall_games(site: Site) -> list[str]:
    with Journal(site.db) as j:
        return [g.id for g in j.games()]


def test_a_live_games_future_lots_for_anyone(site):
    live = hall_game(site, over=False)
    visitor = site.client()
    page = visitor.get("/train/anticipation")
    assert page.status_code == 200 and f'value="{live}"' not in page.text  # not offered
    # a hand-crafted form naming the live game anyway: refused beside the field, nothing started
    r = visitor.post("/train/anticipation", data={"csrf": csrf(page.text), "source": "past", "past": live})
    assert r.status_code == 422 and re.search(r'id="past-error">[^<]*încheiată', r.text)
    assert training_games(site) == [] and "location" not in r.headers
    # another browser, in English, and a game id that does not exist: refused as well
    other = site.client()
    r = form(other, "/train/anticipation?lang=en", {"source": "past", "past": "nosuchgame"}, "/train/anticipation")
    assert r.status_code == 422 and 'id="past-error"' in r.text
    # once the game is over, it is offered and its lots come again
    done = hall_game(site, over=True)
    assert f'value="{done}"' in visitor.get("/train/anticipation").text
    r = form(visitor, "/train/anticipation", {"source": "past", "past": done}, "/train/anticipation")
    assert r.status_code == 303
    (tid,) = training_games(site)
    with store.open_store(store.store_address(site.db), "arbiter") as j:
        assert AnticipationGame(j, tid).settings.past_lots[:2] == (2, 3)


@pytest.mark.parametrize("page", ["/train", "/train/anticipation"])
def test_the_word_list_field_opens_server_files(site, tmp_path, page):
    words = tmp_path / "secret.txt"
    words.write_text("casa\nmasa\nas\n", "utf-8")
    data = {"source": "new", "variant": "classic"} if page.endswith("anticipation") else {"rules": "romanian"}
    visitor = site.client()
    refusals = []
    for hostile in (str(words), str(tmp_path / "absent.txt"), "/etc/passwd", "../../web.db", "x" * 5000,
                    "synthetic:50"):
        r = form(visitor, page, {**data, "lexicon": hostile}, page)
        assert r.status_code in (400, 422), (hostile[:40], r.status_code)  # 400: over the field's length
        found = re.search(r'id="lexicon-error">([^<]*)<', r.text)
        assert found, hostile[:40]
        refusals.append(found.group(1))
    # an existing file and an absent one get the same answer: no file-existence oracle, no file read
    assert len(set(refusals[:4])) == 1 and str(tmp_path) not in refusals[0]
    assert training_games(site) == [] and hall_games(site) == []
    # the page offers a select of names, never a text field
    html = visitor.get(page).text
    assert re.search(r'<select name="lexicon">', html) and not re.search(r'<input[^>]*name="lexicon"', html)


def test_the_word_list_field_takes_no_stand_in_list_without_the_servers_test_switch(tmp_path):
    app = create_app(str(tmp_path / "plain.db"), test_lists=())
    visitor = TestClient(app, follow_redirects=False)
    assert LEXICON not in visitor.get("/train").text
    r = post(visitor, "/train", {"rules": "fise", "lang": "en", "lexicon": LEXICON}, "/train")
    assert r.status_code == 422 and 'id="lexicon-error"' in r.text


def test_training_floods_the_hall(site):
    visitor = site.client()
    r = post(visitor, "/train", {"rules": "fise", "lang": "en", "lexicon": "synthetic:100", "moves": "1"}, "/train")
    assert r.status_code == 303
    tid = r.headers["location"].rsplit("/", 1)[1]
    # not in the hall's journal, index, standings; in the training store only
    assert hall_games(site) == [] and training_games(site) == [tid]
    arbiter = site.client()
    login(arbiter)
    assert tid not in arbiter.get("/").text and "trainee" not in arbiter.get("/standings").text
    assert visitor.get(f"/train/{tid}").status_code == 200
    assert arbiter.get(f"/games/{tid}").status_code == 404
    # at most LIMIT starts per address and window: then 429 in the page's language, nothing started
    for _ in range(store.LIMIT - 1):
        assert post(visitor, "/train", {"rules": "fise", "lang": "en", "lexicon": "synthetic:100", "moves": "1"},
                    "/train").status_code == 303
    other_browser = site.client()
    r = post(other_browser, "/train?lang=ro", {"rules": "fise", "lang": "en", "lexicon": "synthetic:100"},
             "/train")
    assert r.status_code == 429 and re.search(r'id="form-error">prea multe partide de antrenament', r.text)
    r = form(other_browser, "/train/anticipation", {"source": "new", "variant": "classic"}, "/train/anticipation")
    assert r.status_code == 429 and 'id="form-error"' in r.text
    assert len(training_games(site)) == store.LIMIT
    # another address has its own share; in the arbiter's browser a start is refused, his session kept (issue 29:
    # it used to log him out)
    elsewhere = TestClient(site.client_factory, follow_redirects=False, client=("192.0.2.7", 4000))  # type: ignore[arg-type]
    assert post(elsewhere, "/train", {"rules": "fise", "lang": "en", "lexicon": "synthetic:100"},
                "/train").status_code == 303
    assert post(arbiter, "/train", {"rules": "fise", "lang": "en", "lexicon": "synthetic:100"},
                "/train").status_code == 409
    assert arbiter.get("/security").status_code == 200
    assert hall_games(site) == []


def test_the_form_as_it_comes_is_refused(tmp_path, monkeypatch):
    """``/train`` with its word list left empty: the language's default list, not "unknown word list ''"."""
    home = tmp_path / "home"
    words = tmp_path / "mini.txt"
    words.write_text("\n".join(["at", "to", "cat", "dog", "tone", "note", "rates", "stare", "tears"]) + "\n",
                     "utf-8")
    catalog.import_list(words, "en", "mini-en", home=home)
    catalog.set_default("mini-en", home=home)
    monkeypatch.setenv("ARBITRU_HOME", str(home))
    site = make_site(tmp_path)
    visitor = site.client()
    page = visitor.get("/train").text
    assert '<optgroup label="en"><option>mini-en</option>' in page  # the language's default first
    r = visitor.post("/train", data={"csrf": csrf(page), "rules": "fise", "lang": "en", "lexicon": "",
                                     "moves": "1"})
    assert r.status_code == 303, r.text
    with store.open_store(store.store_address(site.db), "arbiter") as j:
        (info,) = j.games()
        assert info.settings["lexicon"] == "mini-en"


# --- the store -------------------------------------------------------------------------------------------------


def _old_game(j: Journal, gid: str, days: float) -> None:
    created = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="microseconds")
    j.import_game(GameInfo(gid, "duplicate", created, {"title": "Training"}),
                  [Event(1, "note", {"text": "x"}, created, "player:1")])


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_training_store_prunes_old_games_and_the_hall_never(tmp_path, request, kind):
    hall = str(tmp_path / "hall.db") if kind == "sqlite" else request.getfixturevalue("pg_server").new_database()
    address = store.store_address(hall)
    assert address != hall
    with store.open_store(address, "arbiter") as j:
        for n, days in enumerate((30, 8, 2, 1, 0.5)):
            _old_game(j, f"g{n}", days)
        now = datetime.now(UTC).timestamp()
        assert sorted(store.prune(j, now, keep_days=7, keep_games=2)) == ["g0", "g1", "g2"]
        assert sorted(g.id for g in j.games()) == ["g3", "g4"]
        with pytest.raises(JournalError, match="never"):  # the append-only triggers are back
            j.execute("DELETE FROM event WHERE game_id = 'g3'")
    with Journal(hall, actor="arbiter") as j:
        assert j.games() == []  # the hall's journal holds none of them
        j.create_game("duplicate", {"title": "Hall"}, "h1")
        with pytest.raises(JournalError, match="never deleted"):
            j.discard_games(["h1"])
        assert [g.id for g in j.games()] == ["h1"]


def test_training_store_counts_starts_per_client(tmp_path):
    with store.open_store(store.store_address(tmp_path / "hall.db"), "arbiter") as j:
        for _ in range(3):
            store.admit(j, "a", 1000.0, limit=3, window=60)
        with pytest.raises(store.TooManyStarts) as e:
            store.admit(j, "a", 1030.0, limit=3, window=60)
        assert e.value.wait == 30
        store.admit(j, "b", 1030.0, limit=3, window=60)  # another client
        store.admit(j, "a", 1061.0, limit=3, window=60)  # the window has moved on
