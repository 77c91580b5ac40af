"""After the results, in a real browser (Playwright driving Debian's chromium) against the real server: an online
anticipation game whose provisional results are asked for at turn 2 of 14 — the confirmation names the turns not
played, the running time and the missing slip, then the game ends cleanly (no lot, no clock, the phones say so in
Romanian and in French and take no slip); a desk clerk's slip after the results is refused (RO-6.5); the chief
arbiter types the contested slip again as a decision with its reason, asked first, listed with its effect on the
review and on the public results. Screenshots go to ``tests/output/``."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from anticipation_support import WORDS_RO, groups_with
from arbitru.formats.anticipation.draw import Draw
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.variants import Settings
from arbitru.journal.store import Journal
from arbitru.web import auth
from test_web_browser import OUTPUT, PHONE, browser  # noqa: F401 - the fixture
from web_anticipation_support import GROUPS
from web_server import running_server
from web_support import ARBITER_PASSWORD


def shot(page: Page, name: str, full: bool = True) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"anticipation-decide-{name}.png"), full_page=full)


def new_page(chromium: Browser, base: str, size: dict[str, int], mobile: bool = False) -> Page:
    ctx = chromium.new_context(base_url=base, viewport=size, is_mobile=mobile, has_touch=mobile)
    ctx.set_default_timeout(20_000)
    return ctx.new_page()


def no_horizontal_scroll(page: Page) -> bool:
    width = page.viewport_size["width"] if page.viewport_size else 0
    return bool(page.evaluate(f"document.documentElement.scrollWidth <= Math.min(window.innerWidth, {width})"))


def log_in(page: Page, name: str, password: str) -> None:
    page.goto("/login")
    if name != auth.ARBITER:
        page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button:has-text('Log in')")


def hand_in(phone: Page, turn: int, position: str, word: str, score: str) -> None:
    expect(phone.locator("form.antslip input[name=turn]")).to_have_value(str(turn))
    phone.fill("input[name=position1]", position)
    phone.fill("input[name=word1]", word)
    phone.fill("input[name=score1]", score)
    phone.fill("input[name=total]", score)
    phone.click("#hand-in")
    expect(phone.locator("#receipt")).to_contain_text("#")


def lot(arbiter: Page, turn: int, group: int) -> None:
    arbiter.select_option("select[name=group]", str(group))
    arbiter.click("#record-lot")
    expect(arbiter.locator("#done")).to_contain_text(f"turul {turn}: grupa {group}")
    arbiter.click(f"#start-turn-{turn}")
    expect(arbiter.locator("#done")).to_contain_text(f"turul {turn}: pornit")


def test_an_online_game_published_at_turn_2_ends_cleanly_then_every_change_is_a_decision(browser, tmp_path):  # noqa: F811
    words = tmp_path / "test-ro.txt"
    words.write_text("\n".join(WORDS_RO) + "\n", "utf-8")
    db = str(tmp_path / "online.db")
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        auth.set_password(j, "maria", "desk-pass-1", "desk")
        secret = auth.server_secret(j)
        game = AnticipationGame.create(j, Settings(lexicon=str(words)), Draw(groups_with(GROUPS), "manual"),
                                       seating=[("Ana", 1, "Ana Popescu"), ("Bo", 2, "Bogdan Ionescu"),
                                                ("Cleo", 3, "Carmen Dima")])
        gid = game.id
    with running_server(db) as base:
        arbiter = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(arbiter, auth.ARBITER, ARBITER_PASSWORD)
        arbiter.goto(f"/games/{gid}")
        arbiter.click("#announce-all")  # online (RO-4.4): every group at once
        phones: dict[str, Page] = {}
        for player, lang in (("Ana", "ro"), ("Bo", "fr"), ("Cleo", "ro")):
            phone = new_page(browser, base, PHONE, mobile=True)
            phone.goto(f"/games/{gid}/play?lang={lang}&code={auth.player_code(secret, gid, player)}")
            phone.click("#join")
            expect(phone.locator("h1.who")).to_contain_text(player if player != "Bo" else "Bogdan")
            phones[player] = phone

        arbiter.goto(f"/games/{gid}")
        lot(arbiter, 1, 2)
        hand_in(phones["Ana"], 1, "H7", "AL", "4")
        hand_in(phones["Bo"], 1, "H7", "AL", "4")
        hand_in(phones["Cleo"], 1, "H7", "AL", "4")
        arbiter.click("#stop-turn-1")
        lot(arbiter, 2, 3)
        hand_in(phones["Ana"], 2, "H6", "CAL", "3")
        hand_in(phones["Cleo"], 2, "H6", "CAL", "3")

        # "Publică rezultatele provizorii" at turn 2 of 14, turn 2's time running, Bo's slip missing: asked first
        arbiter.goto(f"/games/{gid}/review")
        expect(arbiter.locator("#not-over")).to_contain_text("tururile 3–14 nu sunt jucate")
        arbiter.fill("input[name=deadline]", "2099-05-01 18:30")
        arbiter.fill("#provisional-form input[name=title]", "Simultan online")
        with arbiter.expect_navigation():
            arbiter.click("#publish-provisional")
        main = arbiter.locator("main")
        for said in ("Partida nu s-a încheiat (RO-5.5.j):", "tururile 3–14 nu sunt jucate (niciun bilețel tras)",
                     "timpul de gândire al turului 2 încă", "turul 2: 1 din 3 jucători nu au fluturaș (mesele 2)",
                     "se încheie după turul 2"):
            expect(main).to_contain_text(said)
        shot(arbiter, "confirm-publish-turn2-ro")
        with Journal(db) as j:
            assert not j.events(gid, "publication")  # asked only
        with arbiter.expect_navigation():
            arbiter.click("#confirm-button")
        expect(arbiter.locator("#done")).to_contain_text("rezultate provizorii publicate")

        # the game is over everywhere: no lot on the console, no clock, no form on the phones (ro, fr)
        arbiter.goto(f"/games/{gid}")
        expect(arbiter.locator("#game-over")).to_contain_text("tururile 3–14 nu s-au jucat")
        expect(arbiter.locator("#lot-form")).to_have_count(0)
        shot(arbiter, "console-over-ro")
        over = {player: phone.locator("#game-over") for player, phone in phones.items()}
        expect(over["Ana"]).to_contain_text("Rezultatele sunt publicate: partida s-a încheiat.")
        expect(over["Bo"]).to_contain_text("Les résultats sont publiés\u00a0: la partie est terminée.")
        expect(over["Bo"]).to_contain_text("les tours 3 à 14 n'ont pas été joués")
        expect(phones["Ana"].locator("form.antslip")).to_have_count(0)  # gone live: the page follows the stage
        for player, phone in phones.items():
            phone.reload()
            expect(phone.locator("form.antslip")).to_have_count(0)
            expect(phone.locator(".turnline")).to_have_count(0)
            assert no_horizontal_scroll(phone), f"{player}'s phone scrolls sideways"
        expect(phones["Bo"].locator("#own")).to_be_visible()
        shot(phones["Ana"], "phone-over-ro")
        shot(phones["Bo"], "phone-over-fr")
        with Journal(db) as j:
            assert [e.payload["action"] for e in j.events(gid, "clock")][-1] == "stop"  # turn 2's clock stopped
            assert len(j.events(gid, "lot")) == 2

        # the clerk re-types table 3's turn-1 slip: refused, nothing stored (RO-6.5)
        desk = new_page(browser, base, {"width": 1280, "height": 800})
        log_in(desk, "maria", "desk-pass-1")
        desk.goto(f"/games/{gid}/slips?turn=1")
        expect(desk.locator("#closed")).to_contain_text("Masa de introducere nu mai înregistrează fluturași.")
        desk.fill("input[name=table]", "3")
        desk.fill("input[name=position1]", "H7")
        desk.fill("input[name=word1]", "LA")
        desk.fill("input[name=score1]", "4")
        desk.check("input[name=replace]")
        with desk.expect_navigation():
            desk.click("#store-slip")
        expect(desk.locator("#refused")).to_contain_text("un fluturaș se schimbă doar printr-o decizie")
        shot(desk, "desk-refused-ro")
        with Journal(db) as j:
            assert len(j.events(gid, "slip")) == 5 and not j.events(gid, "decision")

        # Bo's contest: his turn-2 slip was handed to the arbiter on paper; the chief arbiter decides, with reason
        arbiter.goto(f"/games/{gid}/slips?turn=2")
        arbiter.fill("input[name=table]", "2")
        arbiter.fill("input[name=position1]", "H6")
        arbiter.fill("input[name=word1]", "CAL")
        arbiter.fill("input[name=score1]", "3")
        arbiter.fill("input[name=total]", "3")
        arbiter.fill("input[name=reason]", "contestație: telefonul a pierdut fluturașul, predat pe hârtie la timp")
        with arbiter.expect_navigation():
            arbiter.click("#store-slip")
        asked = arbiter.locator("main")
        expect(asked).to_contain_text("Rezultatele sunt publicate: acest fluturaș al lui Bo Bogdan Ionescu (masa 2)")
        shot(arbiter, "confirm-decision-ro")
        with arbiter.expect_navigation():
            arbiter.click("#confirm-button")
        expect(arbiter.locator("#done")).to_contain_text(re.compile(r"decizia #\d+ înregistrată"))
        arbiter.goto(f"/games/{gid}/review")
        decisions = arbiter.locator("#decisions")
        expect(decisions).to_contain_text("telefonul a pierdut fluturașul")
        expect(decisions).to_contain_text(re.compile(r"efect: total 4 → 7"))
        arbiter.locator("#decisions").scroll_into_view_if_needed()
        shot(arbiter, "review-decision-ro")
        public = new_page(browser, base, {"width": 1280, "height": 800})
        public.goto(f"/games/{gid}/results")
        expect(public.locator("#title")).to_contain_text("Simultan online")
        expect(public.locator("#decisions")).to_contain_text("total 4 → 7")
        shot(public, "results-decision-ro")
        phones["Bo"].reload()
        expect(phones["Bo"].locator("#own")).to_contain_text("7")
        shot(phones["Bo"], "phone-after-decision-fr")
