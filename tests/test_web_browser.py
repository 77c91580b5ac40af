"""A whole 3-player duplicate game through the pages, in a real browser (Playwright driving Debian's chromium)
against the real server (uvicorn on 127.0.0.1): the arbiter's console, two phones, the projection screen and a
desk typing the third player's paper slip. Screenshots of every page at its real size go to ``tests/output/``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from arbitru.formats.duplicate.game import Session
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from web_server import running_server
from web_support import ARBITER_PASSWORD, LEXICON

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUTPUT = Path(__file__).parent / "output"
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def shot(page: Page, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"{name}.png"))


def new_page(browser: Browser, base: str, size: dict[str, int], mobile: bool = False) -> Page:
    ctx = browser.new_context(base_url=base, viewport=size, is_mobile=mobile, has_touch=mobile)
    ctx.set_default_timeout(15_000)
    return ctx.new_page()


def no_horizontal_scroll(page: Page) -> bool:
    """The page no wider than the screen's layout width (``clientWidth``): an emulated phone (``is_mobile``) widens
    its window to a page too wide, so ``window.innerWidth`` would follow it and see nothing."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


def test_whole_game_through_the_pages(browser, tmp_path):
    db = str(tmp_path / "hall.db")
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        auth.set_password(j, "desk1", "desk-pass-1", "desk")
        secret = auth.server_secret(j)
    with running_server(db) as base:
        arbiter = new_page(browser, base, {"width": 1280, "height": 900})
        arbiter.goto("/login")
        arbiter.fill("input[name=password]", ARBITER_PASSWORD)
        arbiter.click("button:has-text('Log in')")
        arbiter.goto("/games/new")
        arbiter.fill("input[name=title]", "Club night")
        arbiter.select_option("select[name=rules]", "fise")
        arbiter.select_option("select[name=lang]", "en")
        arbiter.select_option("select[name=lexicon]", LEXICON)
        arbiter.fill("input[name=moves]", "2")
        arbiter.fill("input[name=seconds]", "40")
        arbiter.fill("input[name=seed]", "7")
        arbiter.fill("textarea[name=players]", "1,Ana\n2,Bogdan\n3,Carmen")
        arbiter.click("button:has-text('Create the game')")
        arbiter.wait_for_url(re.compile(r"/games/\w+$"))
        gid = arbiter.url.rsplit("/", 1)[1]

        screen = new_page(browser, base, {"width": 1280, "height": 720})
        screen.goto(f"/games/{gid}/screen")
        phones = {}
        for number in ("1", "2"):
            phone = new_page(browser, base, PHONE, mobile=True)
            phone.goto(f"/games/{gid}/play?code={auth.player_code(secret, gid, number)}")
            phone.click("button:has-text('Join')")
            expect(phone.locator("body")).to_contain_text("waiting for move 1")
            phones[number] = phone
        desk = new_page(browser, base, {"width": 1280, "height": 800})
        desk.goto("/login")
        desk.fill("input[name=name]", "desk1")
        desk.fill("input[name=password]", "desk-pass-1")
        desk.click("button:has-text('Log in')")
        desk.goto(f"/games/{gid}")

        # the arbiter draws; the screen and the phones show the rack without a reload (SSE)
        arbiter.click("button:has-text('Draw the rack')")
        expect(screen.locator(".rack .tile")).to_have_count(7)
        expect(phones["1"].locator(".rack .tile")).to_have_count(7)
        arbiter.click("button:has-text('Start the clock')")
        expect(screen.locator(".clock .time")).not_to_have_text("0:40", timeout=5_000)
        first = screen.locator(".clock .time").inner_text()
        screen.wait_for_timeout(1_200)
        assert screen.locator(".clock .time").inner_text() != first, "the projected clock does not count down"
        expect(phones["2"].locator(".clock .time")).not_to_have_text("0:40")

        with Journal(db) as j:
            s = Session(j, gid)
            s.lexicon = load_lexicon(LEXICON, "en")
            cands = s.candidates()
            alpha = s.game.alphabet
        top = cands[0]
        position, word = top.placement.coord.format("fise"), alpha.format(top.placement.word)

        # phone 1 plays the top, phone 2 a word off the rack; the desk types player 3's paper slip
        for number, (pos, w, score) in {"1": (position, word, top.score), "2": (position, "ZZZZ", 50)}.items():
            phone = phones[number]
            phone.fill("input[name=position]", pos)
            phone.fill("input[name=word]", w)
            phone.fill("input[name=score]", str(score))
            phone.click("button:has-text('Hand in')")
            expect(phone.locator("#receipt")).to_contain_text(f"{pos} {w}")
            expect(phone.locator("#receipt")).to_contain_text("Received")
        desk.fill("#desk-player", "3")
        desk.keyboard.press("Enter")
        desk.keyboard.type(position)
        desk.keyboard.press("Enter")
        desk.keyboard.type(word)
        desk.keyboard.press("Enter")
        desk.keyboard.type(str(top.score))
        desk.keyboard.press("Enter")
        expect(desk.locator(".done")).to_contain_text("slip of player 3")
        # the arbiter's grid fills in live, with who entered each slip
        expect(arbiter.locator("#slip-3")).to_contain_text("desk desk1")
        expect(arbiter.locator("#slip-1")).to_contain_text("player 1")
        expect(arbiter.locator("#slip-2")).to_contain_text("not-on-rack")
        shot(arbiter, "web-arbiter-console")
        shot(phones["1"], "web-phone-receipt")
        shot(screen, "web-screen-1280x720-move")
        assert no_horizontal_scroll(phones["1"]), "the phone page scrolls sideways"
        assert screen.evaluate("document.documentElement.scrollHeight <= window.innerHeight")

        # close: the screen shows the master move and the running total; the phones their verdicts, pushed on
        # their open streams (no refetch: thousands of phones told of a close are no thousands of requests)
        asked: list[str] = []
        phones["1"].on("request", lambda r: asked.append(r.url))
        arbiter.click("button:has-text('Place the master move')")
        # the clock still runs: the close asks first, with the time left (changed by issue 30: it closed at once)
        expect(arbiter.locator("#confirmation")).to_contain_text("players may still change their slips")
        arbiter.click("#confirm-button")
        expect(screen.locator(".master")).to_contain_text(f"{word}")
        expect(screen.locator(".total")).to_contain_text(f"Master total: {top.score}")
        expect(phones["1"].locator("#verdicts")).to_contain_text(str(top.score))
        expect(phones["2"].locator("#verdicts")).to_contain_text("0")
        assert not [u for u in asked if "/play/live" in u], asked
        results = new_page(browser, base, {"width": 1280, "height": 800})
        results.goto(f"/games/{gid}/results")
        first_row = results.locator("#ranking tr").nth(1)
        expect(first_row).to_contain_text("Ana")
        expect(results.locator("#ranking")).to_contain_text("Bogdan")
        expect(results.locator("#masters")).to_contain_text(word)
        shot(screen, "web-screen-1280x720-master")
        shot(phones["2"], "web-phone-verdict")
        assert no_horizontal_scroll(phones["2"]), "the phone's verdicts scroll sideways"
        shot(results, "web-results")
        big = new_page(browser, base, {"width": 1920, "height": 1080})
        big.goto(f"/games/{gid}/screen")
        assert big.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
        shot(big, "web-screen-1920x1080")
        # the next move: the results page ranks live as the move closes
        arbiter.click("button:has-text('Draw the rack')")
        expect(screen.locator(".move")).to_contain_text("Move 2")
        # the slip form sends the move its page shows, following the pushed rack (a slip pressed before the
        # next rack reached the page is refused, not stored as the next move's)
        for phone in phones.values():
            expect(phone.locator("input[data-shown-move]")).to_have_value("2")
            # and the rack it shows (FISE-16: a slip for a replaced rack is refused too)
            shown_rack = phone.locator("#live [data-rack]").get_attribute("data-rack")
            assert shown_rack and shown_rack.count(".") == 6, shown_rack
            expect(phone.locator("input[data-shown-rack]")).to_have_value(shown_rack)
        # a slip pressed before the rack reached the page (its field still on move 1): refused beside the form,
        # what was typed kept, nothing stored
        late = phones["2"]
        late.fill("input[name=position]", position)
        late.fill("input[name=word]", "ZZZZ")
        late.fill("input[name=score]", "50")
        late.evaluate("document.querySelector('input[data-shown-move]').value = '1'")
        late.click("button:has-text('Hand in')")
        expect(late.locator("#slip-error")).to_contain_text("this slip was written for move 1, which is closed")
        expect(late.locator("input[name=word]")).to_have_value("ZZZZ")
        expect(late.locator("input[data-shown-move]")).to_have_value("2")
        late.locator("#slip-error").scroll_into_view_if_needed()
        shot(late, "web-phone-slip-of-a-closed-move")
        assert no_horizontal_scroll(late), "the phone's refusal scrolls sideways"
        arbiter.click("button:has-text('Place the master move')")
        arbiter.click("#confirm-button")  # no slip is in: the close is confirmed by a second request
        expect(results.locator("#masters tr")).to_have_count(3)
        shot(arbiter, "web-arbiter-console-end")


def test_a_romanian_game_is_run_from_a_romanian_console(browser, tmp_path):
    """The arbiter's pages follow the game's language (buttons, headings, columns, the clock's cues)."""
    db = str(tmp_path / "sala.db")
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
    with running_server(db) as base:
        arbiter = new_page(browser, base, {"width": 1280, "height": 900})
        arbiter.goto("/login?lang=ro")
        arbiter.fill("input[name=password]", ARBITER_PASSWORD)
        arbiter.click("button:has-text('Autentificare')")
        arbiter.goto("/games/new?lang=ro")
        arbiter.fill("input[name=title]", "Seara clubului")
        arbiter.select_option("select[name=rules]", "romanian")
        arbiter.select_option("select[name=lexicon]", LEXICON)
        arbiter.fill("input[name=moves]", "2")
        arbiter.fill("input[name=seconds]", "60")
        arbiter.fill("input[name=seed]", "7")
        arbiter.fill("textarea[name=players]", "1,Ana\n2,Bogdan")
        arbiter.click("button:has-text('Creează partida')")
        arbiter.wait_for_url(re.compile(r"/games/\w+$"))
        gid = arbiter.url.rsplit("/", 1)[1]
        arbiter.click("button:has-text('Trage suportul')")
        arbiter.click("button:has-text('Pornește cronometrul')")
        expect(arbiter.locator("#status")).to_contain_text("Mutarea 1 în desfășurare")
        expect(arbiter.locator("#grid")).to_contain_text("Buletinele mutării 1")
        shot(arbiter, "web-arbiter-console-ro")
        arbiter.click("button:has-text('Așază mutarea maximă')")
        arbiter.click("#confirm-button")  # no slip is in: the close is confirmed, in Romanian
        expect(arbiter.locator("#status")).to_be_visible()
        arbiter.goto(f"/games/{gid}/results")
        expect(arbiter.locator("body")).to_contain_text("Mutările maxime")
        shot(arbiter, "web-results-ro")
