"""The season's pages in a real browser (Playwright driving Debian's chromium) against the real server: a
3-game tournament of 6 registered players (one entering late, one withdrawing after game 2) built through the
library with recorded results; the arbiter registers and renames a player through the pages; screenshots of
the registry, the tournament table and a player's history go to ``tests/output/``."""

from __future__ import annotations

from arbitru.journal.store import Journal
from arbitru.season import csvfile, tournament
from arbitru.season.tournament import Event
from arbitru.web import auth
from test_web_browser import PHONE, browser, new_page, no_horizontal_scroll, shot  # noqa: F401
from web_server import running_server
from web_support import ARBITER_PASSWORD

PLAYERS = "licence,name,club,federation,rating,categories\n" + "\n".join(
    f"RO-{i},{name},{club},ROU,{1900 - 60 * i},{cat}" for i, (name, club, cat) in enumerate([
        ("Ana Popescu", "CS Arad", "senior"), ("Bogdan Ionescu", "Cluj", "senior"),
        ("Carmen Dumitrescu", "CS Arad", "junior"), ("Dan Georgescu", "Iași", "senior"),
        ("Elena Stan", "Cluj", "junior"), ("Florin Marin", "Iași", "senior")], 1))


def season(db: str) -> None:
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        ids = csvfile.import_players(j, PLAYERS)
        tid = tournament.create(j, Event("Cupa Aradului", "2026-03-07", "2026-03-08", "Arad", "CS Arad"), "cupa")
        tournament.enrol(j, tid, ids[:5])
        masters = [[64, 30, 82, 41], [55, 72, 28, 90], [47, 66, 35, 80]]
        tournament.record(j, tid, {p: [m - 3 * i for m in masters[0]] for i, p in enumerate(ids[:5])}, masters[0])
        tournament.enrol(j, tid, [ids[5]], late=True)
        tournament.record(j, tid, {p: [m - (5 - i) for m in masters[1]] for i, p in enumerate(ids)}, masters[1])
        tournament.withdraw(j, tid, ids[1])
        playing = [p for p in ids if p != ids[1]]
        tournament.record(j, tid, {p: [m - 2 * i for m in masters[2]] for i, p in enumerate(playing)}, masters[2])


def test_season_pages_in_a_browser(browser, tmp_path):  # noqa: F811
    db = str(tmp_path / "season.db")
    season(db)
    with running_server(db) as base:
        arbiter = new_page(browser, base, {"width": 1280, "height": 900})
        arbiter.goto("/login")
        arbiter.fill("input[name=password]", ARBITER_PASSWORD)
        arbiter.click("button:has-text('Log in')")
        arbiter.goto("/registry")
        arbiter.fill("#add input[name=name]", "Gabriel Walk-In")
        arbiter.fill("#add input[name=club]", "Cluj")
        arbiter.click("#add button")
        arbiter.wait_for_url(f"{base}/registry")
        assert "Gabriel Walk-In" in arbiter.content()
        arbiter.fill("#add input[name=name]", "Twice")
        arbiter.fill("#add input[name=licence]", "RO-1")
        arbiter.fill("#add input[name=federation]", "ROU")
        arbiter.click("#add button")
        assert "already" in arbiter.locator("#add .error").inner_text()
        shot(arbiter, "season-registry")

        arbiter.goto("/players/A1")
        arbiter.fill("#correct input[name=name]", "Ana Popescu-Radu")
        arbiter.fill("#correct input[name=reason]", "married name")
        arbiter.click("#correct button")
        arbiter.wait_for_url(f"{base}/players/A1")
        assert "Cupa Aradului" in arbiter.content()
        shot(arbiter, "season-player")

        public = new_page(browser, base, {"width": 1280, "height": 900})
        public.goto("/tournaments/cupa")
        text = public.content()
        assert "Ana Popescu-Radu" in text and "Ranked by" in text and "withdrawn" in text
        assert public.locator("table.general tr").count() == 7
        assert "Register a player" not in public.goto("/registry").text()  # type: ignore[union-attr]
        public.goto("/tournaments/cupa")
        shot(public, "season-table")

        phone = new_page(browser, base, PHONE, mobile=True)
        phone.goto("/tournaments/cupa")
        assert no_horizontal_scroll(phone)
        shot(phone, "season-table-phone")
        phone.goto("/players/A3")
        assert no_horizontal_scroll(phone)
        shot(phone, "season-player-phone")
