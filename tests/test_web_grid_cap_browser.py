"""The console of a national game in a real browser: a game of more players than the grid draws
(``views.GRID_ROWS``) shows the slips that need a look first, and the find box brings any other player from the
server, kept across the grid's refetch on a change. Screenshots go to ``tests/output/``."""

from __future__ import annotations

from playwright.sync_api import expect

from arbitru.formats.duplicate.game import Session
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import views
from test_web_browser import OUTPUT, browser, new_page, no_horizontal_scroll, shot  # noqa: F401
from test_web_hall_browser import hall_game, log_in, set_up
from web_server import running_server
from web_support import LEXICON

PLAYERS = views.GRID_ROWS + 40


def test_fise_8_the_find_box_brings_a_player_the_capped_grid_did_not_draw(browser, tmp_path):  # noqa: F811
    db = str(tmp_path / "national.db")
    set_up(db)
    gid = hall_game(db, "en", players=PLAYERS)
    with Journal(db, actor="arbiter") as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(LEXICON, "en")
        s.add_slips([Slip(1, str(PLAYERS - 5), "H8", "AB", 4, late=True)])  # a late one: drawn first
    last = str(PLAYERS - 3)  # by number, after the cap: not drawn
    club = hall_game(db, "en", players=12)
    with running_server(db) as base:
        page = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(page)
        page.goto(f"/games/{gid}")
        expect(page.locator("#grid tr[data-find]")).to_have_count(views.GRID_ROWS)
        expect(page.locator(f"#slip-{PLAYERS - 5}")).to_be_visible()
        expect(page.locator(f"#slip-{last}")).to_have_count(0)
        expect(page.locator("#grid-note")).to_contain_text(f"{views.GRID_ROWS} of {PLAYERS} players shown")
        expect(page.locator("#slip-count")).to_contain_text(f"1 in, {PLAYERS - 1} missing")
        expect(page.locator("#missing-names")).to_contain_text(f"and {PLAYERS - 1 - views.MISSING_NAMED} more")
        page.locator("#grid-note").scroll_into_view_if_needed()
        shot(page, "grid-cap-console-en")
        page.locator("#grid-filter").press_sequentially(last, delay=50)
        expect(page.locator(f"#slip-{last}")).to_be_visible()  # asked of the server
        expect(page.locator("#grid tr[data-find]")).to_have_count(1)
        expect(page.locator("#grid-note")).to_contain_text(f"1 player found for “{last}”")
        # a change in the hall: the grid is fetched again with the find, the player found stays shown
        desk = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(desk)
        desk.goto(f"/games/{gid}")
        desk.fill("#desk-player", "1")
        desk.fill("form.desk input[name=position]", "H8")
        desk.fill("form.desk input[name=word]", "AB")
        desk.fill("form.desk input[name=score]", "4")
        with desk.expect_navigation():
            desk.click("form.desk button")
        expect(page.locator("#slip-count")).to_contain_text(f"2 in, {PLAYERS - 2} missing")
        expect(page.locator(f"#slip-{last}")).to_be_visible()
        expect(page.locator("#grid tr[data-find]")).to_have_count(1)
        shot(page, "grid-cap-find-en")
        page.locator("#grid").screenshot(path=str(OUTPUT / "grid-cap-find-grid-en.png"))
        page.fill("#grid-filter", "")
        page.locator("#grid-filter").dispatch_event("search")
        expect(page.locator("#grid tr[data-find]")).to_have_count(views.GRID_ROWS)
        # the phone's width: the console and its capped grid scroll down, not sideways
        phone = new_page(browser, base, {"width": 360, "height": 740}, mobile=True)
        log_in(phone)
        phone.goto(f"/games/{gid}?find={last}")
        expect(phone.locator(f"#slip-{last}")).to_be_visible()
        phone.locator("#grid-note").scroll_into_view_if_needed()
        assert no_horizontal_scroll(phone)
        shot(phone, "grid-cap-find-phone-en")
        # a club's game opened with a find: every row drawn, the page's own find shows those it finds
        page.goto(f"/games/{club}?find=table 2")
        expect(page.locator("#grid tr[data-find]")).to_have_count(12)
        expect(page.locator("#grid tr[data-find]:visible")).to_have_count(4)
        expect(page.locator("#grid-note")).to_have_count(0)
