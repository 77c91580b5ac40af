"""What the web tests share: an app over a fresh journal, logins, CSRF tokens, a game on a synthetic list."""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from arbitru.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ARBITER_PASSWORD = "arbiter-pass-1"
LEXICON = "synthetic:2000"
#: the stand-in lists the pages offer in tests (the server's test switch: a page never names a list of its own)
TEST_LISTS = (LEXICON, "synthetic:100")
PLAYERS = (("1", "Ana"), ("2", "Bo"), ("3", "Cleo"))


@dataclass
class Site:
    db: str
    secret: bytes
    client_factory: object

    def client(self) -> TestClient:
        return TestClient(self.client_factory, follow_redirects=False)  # type: ignore[arg-type]

    def code(self, gid: str, player: str) -> str:
        return auth.player_code(self.secret, gid, player)

    def events(self, gid: str, kind: str | None = None) -> list:  # type: ignore[type-arg]
        with Journal(self.db) as j:
            return j.events(gid, kind)


def make_site(tmp: Path) -> Site:
    db = str(tmp / "web.db")
    app = create_app(db, test_lists=TEST_LISTS)
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        secret = auth.server_secret(j)
    return Site(db, secret, app)


def make_game(site: Site, *, racks: str = "seed", seconds: int = 60, moves: int = 5, draw: bool = True,
              players: tuple[tuple[str, str], ...] = PLAYERS) -> str:
    lex = load_lexicon(LEXICON, "en")
    settings = Settings(ruleset("fise", moves=moves, seconds=seconds), "en", LEXICON, seed="7", racks=racks)
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player(n, name) for n, name in players])
        if draw:
            s.draw()
        return s.id


def csrf(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, "the page has no form with a CSRF token"
    return m.group(1)


def login(client: TestClient, name: str = "arbiter", password: str = ARBITER_PASSWORD) -> None:
    token = csrf(client.get("/login").text)
    r = client.post("/login", data={"csrf": token, "name": name, "password": password})
    assert r.status_code == 303, r.text


def join(client: TestClient, site: Site, gid: str, player: str) -> None:
    token = csrf(client.get(f"/games/{gid}/play").text)
    r = client.post(f"/games/{gid}/join", data={"csrf": token, "code": site.code(gid, player)})
    assert r.status_code == 303, r.text


def post(client: TestClient, url: str, data: dict[str, str], page: str, confirm: bool = True) -> object:
    """A form POST with the token of ``page`` (the page the form is on). An action that cannot be undone
    answers with its confirmation page first: with ``confirm`` it is confirmed at once (a second request)."""
    token = csrf(client.get(page).text)
    r = client.post(url, data={"csrf": token, **data})
    offered = confirmation(r.text) if confirm and r.status_code == 200 else None
    if offered is not None:
        r = client.post(url, data={"csrf": token, **data, "confirm": offered})
    return r


def confirmation(html: str) -> str | None:
    """The one-time token of a confirmation page (:mod:`arbitru.web.confirm`), None on any other page."""
    m = re.search(r'name="confirm" value="([A-Za-z0-9_-]{20,})"', html)
    return m.group(1) if m else None


def document(client: TestClient, url: str) -> Any:
    """A document (PDF) asked for as its progress page does: again every moment while it is made in the
    background (202), bounded."""
    import time

    for _ in range(600):
        r = client.get(url)
        if r.status_code != 202:
            return r
        time.sleep(0.1)
    raise AssertionError(f"{url} was never made")


def phone_after_a_close(site: Site, name: str) -> tuple[str, TestClient, str]:
    """A game whose player 1 (``name``) wrote the rack's best move and player 2 an invalid one, the move closed
    and its collection too; player 1's phone joined with its code: (game id, phone, "position word" of his
    slip)."""
    from arbitru.formats.duplicate.slips import Slip

    gid = make_game(site, players=(("1", name), ("2", "Bo")))
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(LEXICON, "en")
        position, word, score = s.candidates()[0].describe(s.game.rules.notation).split(" ")
        s.add_slips([Slip(1, "1", position, word, int(score)), Slip(1, "2", "A1", "ZZ", 3)])
        s.place_master()
        s.close_collection()
    phone = site.client()
    join(phone, site, gid, "1")
    return gid, phone, f"{position} {word}"


def own_lines(page: str) -> str:
    """A phone page's own lines around the hall (its live part, as the page drew it)."""
    own = re.search(r'<div id="live"[^>]*>\n(.*?)</div>\n<section id="slip-form">', page, re.S)
    assert own is not None
    return own.group(1).strip()
