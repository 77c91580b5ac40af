"""The season's pages in a real browser (Playwright driving Debian's chromium) against the real server:
a 3-game Romanian tournament for 6 registered players run through the pages — the registry imported, the
tournament created, five players enrolled, each game created from the tournament's page and played on the
console (a rack, slips at the desk, the master move, the end), a late entry before game 2, a withdrawal after
game 2 (asked, then confirmed). Screenshots of the registry, the tournament table and a player's history, at
1280 px and at 360 px (a phone: no horizontal scrolling) go to ``tests/output/``."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from arbitru.formats.duplicate.game import Session
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.season import tournament
from arbitru.web import auth
from test_web_browser import OUTPUT, PHONE, browser, new_page, no_horizontal_scroll, shot  # noqa: F401
from web_server import running_server
from web_support import ARBITER_PASSWORD, LEXICON

PLAYERS = "licence,name,club,federation,rating,categories\n" + "\n".join(
    f"RO-{i},{name},{club},ROU,{1900 - 60 * i},{cat}" for i, (name, club, cat) in enumerate([
        ("Ana Popescu", "CS Arad", "senior"), ("Bogdan Ionescu", "Cluj", "senior"),
        ("Carmen Dumitrescu", "CS Arad", "junior"), ("Dan Georgescu", "Iași", "senior"),
        ("Elena Stan", "Cluj", "junior"), ("Florin Marin", "Iași", "senior")], 1))


def submit(page: Page, button: str) -> None:
    """A form sent, the next page loaded (every action redirects back to its page)."""
    with page.expect_navigation():
        page.click(button)


def play_game(page: Page, db: str, number: int) -> str:
    """Game ``number`` created from the tournament's page and played on the console: the rack drawn, each
    player's paper slip typed at the desk (the top for the player of this game's number, a lesser word for the
    next, nothing from the others), the master move placed, the game ended."""
    submit(page, "#new-game")
    expect(page.locator("p.tournament")).to_contain_text(f"Partida {number} a turneului")
    page.select_option("select[name=lexicon]", LEXICON)
    page.fill("input[name=moves]", "3")
    page.fill("input[name=seconds]", "60")
    page.fill("input[name=seed]", str(number))
    if number == 1:
        shot(page, "season-new-game")
    submit(page, "form[action='/games/new'] button")
    gid = page.url.split("/games/")[1].split("?")[0].split("#")[0]
    submit(page, "button[name=new][value='0']")
    with Journal(db) as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(LEXICON, "ro")
        cands = s.candidates()
        alpha = s.game.alphabet
        playing = sorted(s.game.players, key=int)
    top, other = cands[0], cands[-1]
    slips = {playing[(number - 1) % len(playing)]: top, playing[number % len(playing)]: other}
    for player, c in slips.items():
        page.fill("#desk-player", player)
        page.fill("form.desk input[name=position]", c.placement.coord.format("fise"))
        page.fill("form.desk input[name=word]", alpha.format(c.placement.word))
        page.fill("form.desk input[name=score]", str(c.score))
        submit(page, "form.desk button")
        expect(page.locator(f"#slip-{player}")).to_contain_text(str(c.score))
    submit(page, "form[action$='/close'] button")
    if page.locator("#confirm-button").count():  # slips missing: the close is confirmed first
        submit(page, "#confirm-button")
    page.fill("form[action$='/end'] input[name=reason]", "partidă scurtă de test")
    submit(page, "form[action$='/end'] button")
    submit(page, "#confirm-button")  # ending a game is confirmed by a second request
    return gid


def test_a_3_game_tournament_of_6_registered_players_run_through_the_pages(browser, tmp_path):  # noqa: F811
    db = str(tmp_path / "season.db")
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
    with running_server(db) as base:
        arbiter = new_page(browser, base, {"width": 1280, "height": 900})
        arbiter.goto("/login")
        arbiter.fill("input[name=password]", ARBITER_PASSWORD)
        submit(arbiter, "button:has-text('Log in')")
        arbiter.goto("/registry")
        arbiter.locator("#import summary").click()  # (issue 31: the import is a file upload; the text may be pasted)
        arbiter.fill("#import textarea[name=csv]", PLAYERS)
        submit(arbiter, "#import button")
        expect(arbiter.locator("table.stack tr")).to_have_count(7)

        arbiter.goto("/tournaments")
        arbiter.fill("#new-tournament input[name=name]", "Cupa Aradului")
        arbiter.fill("#new-tournament input[name=start]", "2026-03-07")
        arbiter.fill("#new-tournament input[name=end]", "2026-03-06")
        arbiter.fill("#new-tournament input[name=place]", "Arad")
        arbiter.fill("#new-tournament input[name=organiser]", "CS Arad")
        arbiter.select_option("#new-tournament select[name=rules]", "romanian")
        submit(arbiter, "#new-tournament button")
        expect(arbiter.locator("#new-tournament .error")).to_contain_text("before the start")  # beside its field
        arbiter.fill("#new-tournament input[name=end]", "2026-03-08")
        submit(arbiter, "#new-tournament button")
        tid = arbiter.url.rsplit("/", 1)[1]
        assert arbiter.locator("html").get_attribute("lang") == "ro"
        expect(arbiter.locator("h2").first).to_have_text("Clasament general")

        # five players ticked from the registry (a search narrows the list first)
        arbiter.goto(f"/tournaments/{tid}?q=RO-")
        for pid in ("A1", "A2", "A3", "A4", "A5"):
            arbiter.check(f"#enrol input[name=player][value={pid}]")
        submit(arbiter, "#enrol button:has-text('Înscrie')")
        expect(arbiter.locator("#entries table tr")).to_have_count(6)

        games = [play_game(arbiter, db, 1)]
        arbiter.goto(f"/tournaments/{tid}")
        # the sixth comes late (RO-5.1): the box is ticked once a game is played
        expect(arbiter.locator("#enrol input[type=checkbox][name=late]")).to_be_checked()
        arbiter.check("#enrol input[name=player][value=A6]")
        submit(arbiter, "#enrol button:has-text('Înscrie')")
        expect(arbiter.locator("#entries")).to_contain_text("înscriere târzie")
        games.append(play_game(arbiter, db, 2))

        # Bogdan withdraws after game 2: asked, then confirmed
        arbiter.goto(f"/tournaments/{tid}")
        row = arbiter.locator("#entries tr", has_text="Bogdan Ionescu")
        submit(arbiter, "#entries tr:has-text('Bogdan Ionescu') button")
        expect(arbiter.locator("#confirm-withdraw")).to_contain_text("după partida 2")
        submit(arbiter, "#confirm-withdraw button")
        expect(row).to_contain_text("retras după partida 2")
        games.append(play_game(arbiter, db, 3))

        with Journal(db) as j:
            t = tournament.replay(j, tid)
            assert [s.game_id for s in t.games] == games
            assert [len(Session(j, g).game.players) for g in games] == [5, 6, 5]
            assert "2" not in Session(j, games[2]).game.players  # Bogdan, entry 2, withdrawn
        arbiter.goto("/registry")
        shot(arbiter, "season-registry")

        public = new_page(browser, base, {"width": 1280, "height": 900})
        public.goto(f"/tournaments/{tid}")
        table = public.locator("table.general")
        expect(table.locator("tr")).to_have_count(7)
        expect(table.locator("tr").nth(0)).to_contain_text("3")  # a column per game played
        assert "Partidă nouă" not in public.content()
        expect(public.locator(".tie-order")).to_contain_text("Clasați după")
        shot(public, "season-table")
        public.goto("/players/A1")
        expect(public.locator("table.stack tr")).to_have_count(4)  # the header and three games
        shot(public, "season-player")

        phone = new_page(browser, base, PHONE, mobile=True)
        for url, name in ((f"/tournaments/{tid}", "season-table-phone"), ("/players/A1", "season-player-phone"),
                          ("/registry", "season-registry-phone")):
            phone.goto(url)
            assert no_horizontal_scroll(phone), url
            shot(phone, name)
        arbiter.set_viewport_size(PHONE)
        arbiter.goto(f"/tournaments/{tid}")
        assert no_horizontal_scroll(arbiter), "the arbiter's tournament page scrolls sideways on a phone"
        arbiter.screenshot(path=str(OUTPUT / "season-manage-phone.png"), full_page=True)
