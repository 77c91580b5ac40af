"""Finding (issue 22): a damaged journal served as if whole. With one page of the SQLite file damaged, ``serve``
showed a truncated game without a word and accepted new events onto it. Now the damaged game's pages carry a
banner saying what is damaged and how to repair it, in the game's language; its writes answer 503 and store
nothing; every other game keeps working. Real SQLite file, real damage, real HTTP against uvicorn.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from web_server import running_server
from web_support import ARBITER_PASSWORD, LEXICON, PLAYERS, Site, make_game, make_site

PAGE = 4096
BANNER_ES = "El registro de esta partida está dañado"
REPAIR = "arbitru journal check"


@dataclass
class Hall:
    site: Site
    url: str
    damaged: str  # a Spanish game with one page of its events overwritten
    whole: str  # an English game in the same file


def spanish_game(site: Site) -> str:
    settings = Settings(ruleset("fise", moves=5, seconds=60), "es", LEXICON, seed="7")
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, load_lexicon(LEXICON, "es"), [Player(n, name) for n, name in PLAYERS])
        s.draw()
        return s.id


def damage_a_page_of(db: Path, marker: bytes, gid: str, spare: str) -> None:
    """Overwrite with garbage one page that holds the game's events (its slips' marker and its id, not the
    other game's id), in the middle of those pages."""
    data = bytearray(db.read_bytes())
    pages = [
        p for p in range(len(data) // PAGE)
        if (chunk := bytes(data[p * PAGE:(p + 1) * PAGE])).count(marker) > 5
        and gid.encode() in chunk and spare.encode() not in chunk
    ]
    assert len(pages) > 4, "the game's events span too few pages to damage one alone"
    target = pages[len(pages) // 2]
    for k in range(PAGE):
        data[target * PAGE + k] = (k * 151 + 7) % 256
    db.write_bytes(bytes(data))


def stored_events(db: str, gid: str) -> int:
    """The game's events by the index (whose pages are sound), so a damaged game can still be counted."""
    con = sqlite3.connect(db)
    try:
        (n,) = con.execute("SELECT COUNT(*) FROM event WHERE game_id = ?", (gid,)).fetchone()
    finally:
        con.close()
    return int(n)


def csrf(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, "the page has no form with a CSRF token"
    return m.group(1)


def arbiter(url: str) -> httpx.Client:
    c = httpx.Client(base_url=url, timeout=30)
    r = c.post("/login", data={"csrf": csrf(c.get("/login").text), "name": "arbiter", "password": ARBITER_PASSWORD})
    assert r.status_code == 303, r.text
    return c


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    site = make_site(tmp_path_factory.mktemp("damaged"))
    damaged = spanish_game(site)
    whole = make_game(site)
    with Journal(site.db, actor="desk:a") as j:
        s = Session(j, damaged)
        for n in range(300):
            s.store_slips([Slip(1, str(n + 100), "H8", "Q" * 50, n)])
        j.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    damage_a_page_of(Path(site.db), b"Q" * 10, damaged, whole)
    with running_server(site.db) as url:
        yield Hall(site, url, damaged, whole)


def test_damaged_journal_pages_show_the_banner_in_the_games_language_not_a_truncated_game(hall: Hall) -> None:
    with closing(arbiter(hall.url)) as c:
        for page in ("", "/screen", "/play", "/grid"):
            r = c.get(f"/games/{hall.damaged}{page}")
            assert r.status_code == 503, (page, r.status_code)
            assert 'class="damage"' in r.text and BANNER_ES in r.text and REPAIR in r.text, page
            assert "the journal is damaged after event" in r.text  # what is damaged, as the library says
            assert 'lang="es"' in r.text
        r = c.get(f"/api/games/{hall.damaged}")
        assert r.status_code == 503 and REPAIR in r.json()["error"]


def test_damaged_journal_writes_answer_503_and_store_nothing(hall: Hall) -> None:
    before = stored_events(hall.site.db, hall.damaged)
    with closing(arbiter(hall.url)) as c:
        token = csrf(c.get(f"/games/{hall.whole}").text)
        slip = {"csrf": token, "move": "1", "player": "1", "position": "H8", "word": "AB", "score": "4"}
        for action, form in (("desk", slip), ("clock", {"csrf": token, "action": "start"}),
                             ("draw", {"csrf": token}), ("end", {"csrf": token})):
            r = c.post(f"/games/{hall.damaged}/{action}", data=form)
            assert r.status_code == 503, (action, r.status_code)
            assert BANNER_ES in r.text and REPAIR in r.text
    code = hall.site.code(hall.damaged, "1")
    api = httpx.post(
        f"{hall.url}/api/games/{hall.damaged}/slips",
        json={"move": 1, "position": "H8", "word": "AB", "score": 4},
        headers={"Authorization": f"Bearer {code}"},
        timeout=30,
    )
    assert api.status_code == 503 and api.json()["stored"] is False and REPAIR in api.json()["error"]
    assert stored_events(hall.site.db, hall.damaged) == before


def test_damaged_journal_the_other_game_keeps_working_reads_and_writes(hall: Hall) -> None:
    before = httpx.get(f"{hall.url}/api/games/{hall.whole}", timeout=30).json()["seq"]
    with closing(arbiter(hall.url)) as c:
        page = c.get(f"/games/{hall.whole}")
        assert page.status_code == 200 and 'class="damage"' not in page.text
        slip = {"csrf": csrf(page.text), "move": "1", "player": "1", "position": "H8", "word": "AB", "score": "4"}
        assert c.post(f"/games/{hall.whole}/desk", data=slip).status_code == 303
        assert c.get("/").status_code == 200
    code = hall.site.code(hall.whole, "2")
    api = httpx.post(
        f"{hall.url}/api/games/{hall.whole}/slips",
        json={"move": 1, "position": "H8", "word": "BA", "score": 4},
        headers={"Authorization": f"Bearer {code}"},
        timeout=30,
    )
    assert api.status_code < 300, api.text
    assert httpx.get(f"{hall.url}/api/games/{hall.whole}", timeout=30).json()["seq"] == before + 2


def test_damaged_journal_a_lost_event_without_an_sqlite_error_is_seen_by_the_count(tmp_path: Path) -> None:
    """An event gone without SQLite noticing (its row removed behind the journal's back): the game replays
    shorter without an error, and only the count against the last event number shows it."""
    site = make_site(tmp_path)
    gid = make_game(site)
    with Journal(site.db, actor="desk:a") as j:
        Session(j, gid).store_slips([Slip(1, "1", "H8", "AB", 4)])
        Session(j, gid).store_slips([Slip(1, "2", "H8", "BA", 4)])
    con = sqlite3.connect(site.db)
    con.execute("DROP TRIGGER event_no_delete")
    (last,) = con.execute("SELECT MAX(seq) FROM event WHERE game_id = ?", (gid,)).fetchone()
    con.execute("DELETE FROM event WHERE game_id = ? AND seq = ?", (gid, last - 1))
    con.commit()
    con.close()
    with running_server(site.db) as url, closing(arbiter(url)) as c:
        r = c.get(f"/games/{gid}")
        assert r.status_code == 200 and 'class="damage"' in r.text  # the readable part, flagged
        assert f"1 of its {last} events cannot be read" in r.text and REPAIR in r.text
        token = csrf(r.text)
        slip = {"csrf": token, "move": "1", "player": "3", "position": "H8", "word": "AB", "score": "4"}
        assert c.post(f"/games/{gid}/desk", data=slip).status_code == 503
    assert stored_events(site.db, gid) == last - 1
