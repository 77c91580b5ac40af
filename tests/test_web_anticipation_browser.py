"""A whole 3-player anticipation game through the pages, in a real browser (Playwright driving Debian's chromium)
against the real server (uvicorn on 127.0.0.1): the arbiter reads the draw out onto the projected grid, records
the lots and starts the timers; two players hand in their slips from phone-sized pages; a desk types the third
player's paper slips (an inverted position, a cancellation); a verification request is answered first in the
review, which shows the library's verdicts; provisional then final results. Screenshots of every page at its
real size go to ``tests/output/``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect, sync_playwright

from anticipation_support import WORDS_RO, groups_with
from arbitru import figures
from arbitru.formats.anticipation.draw import Draw
from arbitru.formats.anticipation.game import AnticipationGame
from arbitru.formats.anticipation.variants import Settings
from arbitru.journal.store import Journal
from arbitru.web import auth
from web_anticipation_support import GROUPS, groups_text, imported_words
from web_server import running_server
from web_support import ARBITER_PASSWORD

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUTPUT = Path(__file__).parent / "output"
PHONE = {"width": 360, "height": 740}
#: the deadline for contests the test publishes (RO-5.5.j): dated and far ahead, so whether the final ranking
#: is early does not depend on the hour the test runs (with "18:30" it asked its confirmation only before 18:30)
FAR_DEADLINE = "2099-05-01 18:30"


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def shot(page: Page, name: str, full: bool = False) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"anticipation-{name}.png"), full_page=full)


def new_page(browser: Browser, base: str, size: dict[str, int], mobile: bool = False) -> Page:
    ctx = browser.new_context(base_url=base, viewport=size, is_mobile=mobile, has_touch=mobile)
    ctx.set_default_timeout(15_000)
    return ctx.new_page()


def no_horizontal_scroll(page: Page) -> bool:
    # against the phone's own width: a mobile browser widens its layout viewport to what overflows
    width = page.viewport_size["width"] if page.viewport_size else 0
    return bool(page.evaluate(f"document.documentElement.scrollWidth <= Math.min(window.innerWidth, {width})"))


def fits_the_screen(page: Page) -> bool:
    return bool(page.evaluate(
        "document.documentElement.scrollHeight <= window.innerHeight"
        " && document.documentElement.scrollWidth <= window.innerWidth"))


def submit(phone: Page, turn: int, placements: list[tuple[str, str, str]], total: str, note: str = "",
           answer_lost: bool = False) -> None:
    """Fill the phone's slip form and hand it in; the form carries its idempotency key, and the page after the
    stored slip a new one. ``answer_lost``: the slip reaches the server, its answer never reaches the phone (a
    Wi-Fi blip), and the player taps Hand in again on the same form."""
    expect(phone.locator("form.antslip input[name=turn]")).to_have_value(str(turn))  # the page follows the lot
    key = phone.locator("form.antslip input[name=key]").input_value()
    assert len(key) >= 16, "the slip form carries its idempotency key"
    for i, (position, word, score) in enumerate(placements, 1):
        phone.fill(f"input[name=position{i}]", position)
        phone.fill(f"input[name=word{i}]", word)
        phone.fill(f"input[name=score{i}]", score)
    phone.fill("input[name=total]", total)
    phone.fill("input[name=note]", note)
    if answer_lost:
        def lose(route: Route) -> None:
            route.fetch(max_redirects=0)  # the server stores the slip and answers...
            route.abort("aborted")  # ...and the phone never hears of it

        phone.route("**/slip*", lose, times=1)
        with phone.expect_event("requestfailed"):
            phone.click("#hand-in")
        expect(phone.locator("#hand-in")).to_be_visible()  # still the same form, as it was filled in
        expect(phone.locator("input[name=total]")).to_have_value(total)
    phone.click("#hand-in")
    expect(phone.locator("#receipt")).to_contain_text(f"tur {turn}:")
    after = phone.locator("form.antslip input[name=key]").input_value()
    assert len(after) >= 16 and after != key, "the page after a stored slip renders a new key"


def type_paper_slip(desk: Page, table: str, turn: int, placements: list[tuple[str, str, str]], total: str,
                    note: str = "") -> None:
    """Keyboard only: each field, then Enter moves to the next; Enter on the last field stores the slip."""
    desk.focus("input[name=table]")
    fields = [table, str(turn)]
    for i in (1, 2):
        fields += list(placements[i - 1]) if i <= len(placements) else ["", "", ""]
    fields += [total, note, ""]
    if desk.locator("input[name=name]").count():  # turn 1: the name as written (RO-6.2a), left empty
        fields.append("")
    for value in fields:
        if value:
            desk.keyboard.type(value)
        desk.keyboard.press("Enter")
    expect(desk.locator("#done")).to_contain_text(f"turul {turn}, înregistrat")


def lot(arbiter: Page, turn: int, group: int) -> None:
    arbiter.select_option("select[name=group]", str(group))
    expect(arbiter.locator("#record-lot")).to_have_text("Înregistrează bilețelul")
    arbiter.click("#record-lot")
    expect(arbiter.locator("#done")).to_contain_text(f"turul {turn}: grupa {group}")
    expect(arbiter.locator(f"#start-turn-{turn}")).to_have_text(f"Pornește cronometrul turului {turn}")
    arbiter.click(f"#start-turn-{turn}")
    expect(arbiter.locator("#done")).to_contain_text(f"turul {turn}: pornit")


def test_whole_anticipation_game_through_the_pages(browser, tmp_path, monkeypatch):
    imported_words(tmp_path, monkeypatch)
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
        arbiter.goto("/anticipation/new")
        arbiter.select_option("select[name=lexicon]", "test-ro-words")
        arbiter.check("input[name=source][value=hall]")
        arbiter.fill("textarea[name=groups]", groups_text())
        arbiter.fill("textarea[name=players]", "Ana,1,Ana Popescu\nBo,2,Bogdan Ionescu\nCleo,3,Carmen Dima")
        shot(arbiter, "new", full=True)
        arbiter.click("#create")
        arbiter.wait_for_url(re.compile(r"/games/\w+$"))
        gid = arbiter.url.rsplit("/", 1)[1]

        screen = new_page(browser, base, {"width": 1280, "height": 720})
        screen.goto(f"/games/{gid}/screen")
        expect(screen.locator("td.tile")).to_have_count(0)

        # the draw read out group by group: the projected grid fills in live (SSE), alphabetical, blanks last
        arbiter.click("#announce-next")
        expect(screen.locator("td.tile")).to_have_count(2)
        expect(screen.locator(".spelled")).to_contain_text("Grupa 1: ANA, LUCA")
        for _ in range(14):
            arbiter.click("#announce-next")
        expect(screen.locator("td.tile")).to_have_count(100)
        expect(screen.locator("tr").last.locator("td.tile.blank")).to_have_count(2)
        shot(screen, "screen-grid-1280x720")
        assert fits_the_screen(screen), "the projected grid does not fit 1280x720"
        arbiter.click("#announce-next")  # the quick second reading
        expect(arbiter.locator("#start-analysis")).to_have_text("Pornește timpul de analiză")
        arbiter.click("#start-analysis")
        expect(screen.locator(".clock .time")).to_have_text(re.compile(r"^4[45]:\d\d$"))
        shot(arbiter, "console", full=True)

        phones: dict[str, Page] = {}
        for player in ("Ana", "Bo"):
            phone = new_page(browser, base, PHONE, mobile=True)
            phone.goto(f"/games/{gid}/play?code={auth.player_code(secret, gid, player)}")
            phone.click("#join")
            expect(phone.locator("h1.who")).to_contain_text(player)
            phones[player] = phone
        desk = new_page(browser, base, {"width": 1280, "height": 800})
        desk.goto("/login")
        desk.fill("input[name=name]", "desk1")
        desk.fill("input[name=password]", "desk-pass-1")
        desk.click("button:has-text('Log in')")

        # turn 1: group 1 AL and group 2 (the lot drawn at table 1); the phones see the lot live. The lot comes
        # after the analysis (RO-4.3): the arbiter ends it early here; the screen then shows turn 1's clock
        arbiter.click("#stop-analysis")
        lot(arbiter, 1, 2)  # and turn 1's timer started
        expect(phones["Ana"].locator(".turnline")).to_contain_text("grupa 2 B D E I O T U")
        expect(screen.locator(".move")).to_have_text("Turul 1")
        expect(screen.locator(".clock .time")).to_have_text(re.compile(r"^[78]:\d\d$"))  # 8 minutes (RO-4.3)
        first = screen.locator(".clock .time").inner_text()
        screen.wait_for_timeout(1_200)
        assert screen.locator(".clock .time").inner_text() != first, "the projected chronometer does not run"
        submit(phones["Ana"], 1, [("H7", "AL", "4"), ("7G", "BAT", "21")], "25")
        submit(phones["Bo"], 1, [("H7", "AL", "4")], "4")
        assert "BAT" not in phones["Bo"].content()  # nobody sees another player's slip
        desk.goto(f"/games/{gid}/slips?turn=1")
        expect(desk.locator("#missing")).to_contain_text("Lipsesc: 1 din 3")
        type_paper_slip(desk, "3", 1, [("H7", "AL", "4")], "4")
        expect(desk.locator("#missing")).to_contain_text("fluturașii tuturor meselor au sosit")

        # turn 2: Ana asks for a verification (no lot while turn 1's time runs, RO-4.3: it ends first)
        arbiter.click("#stop-turn-1")
        lot(arbiter, 2, 3)
        submit(phones["Ana"], 2, [("H6", "CAL", "3")], "3", "Verificare")
        submit(phones["Bo"], 2, [("H6", "CAL", "3")], "3")
        desk.goto(f"/games/{gid}/slips?turn=2")
        type_paper_slip(desk, "3", 2, [("H6", "CAL", "3")], "3")

        # turn 3: Cleo's paper slip has the position inverted (G9 for 9G); Bo cancels turn 2
        arbiter.click("#stop-turn-2")
        lot(arbiter, 3, 4)
        submit(phones["Ana"], 3, [("9G", "VEST", "24")], "24", answer_lost=True)
        submit(phones["Bo"], 3, [("", "PAS", "")], "", "Anulez turul 2")
        desk.goto(f"/games/{gid}/slips?turn=3")
        type_paper_slip(desk, "3", 3, [("G9", "VEST", "24")], "24")
        shot(desk, "desk", full=True)
        shot(phones["Ana"], "phone-slip", full=True)
        assert no_horizontal_scroll(phones["Ana"]), "the phone page scrolls sideways"
        with Journal(db) as j:  # Ana's turn 3 handed in twice, its first answer lost: one slip (the form's key)
            assert [e.payload["turn"] for e in j.events(gid, "slip") if e.actor == "player:Ana"] == [1, 2, 3]
        phones["Ana"].locator("#slip-form").scroll_into_view_if_needed()
        shot(phones["Ana"], "phone-slip-form-360")  # the form as the phone shows it, its key hidden

        # the review: verification answers first, then the library's verdicts
        with Journal(db) as j:
            state = AnticipationGame(j, gid).replay()
            typed = [e.payload for e in j.events(gid, "slip") if e.actor == "desk:desk1"]
        assert [(p["turn"], p["written_turn"], [r["position"] for r in p["rows"]]) for p in typed] == [
            (1, "1", ["H7"]), (2, "2", ["H6"]), (3, "3", ["G9"])]  # exactly what the paper says
        arbiter.goto(f"/games/{gid}/review?turn=2")
        expect(arbiter.locator("#verifications")).to_contain_text("CAL: valid")
        arbiter.goto(f"/games/{gid}/review?turn=3")
        verdicts = arbiter.locator("#verdicts")
        for r in state.ranking:
            for v in r.slips[3].placements:
                expect(verdicts).to_contain_text(f"{v.written_position} {v.written_word}")
                expect(verdicts).to_contain_text(v.rule)
        cleo = state.results["Cleo"].slips[3].placements[0]
        assert (cleo.status, cleo.rule, cleo.penalty) == ("corrected", "RO-6.3a", 20)
        expect(arbiter.locator("#notices")).to_contain_text("Carmen Dima")
        bo2 = state.results["Bo"].slips[2].placements[0]
        assert bo2.status == "cancelled"
        arbiter.goto(f"/games/{gid}/review?turn=2&filter=cascades")
        expect(arbiter.locator("#verdicts")).to_contain_text("anulat")
        shot(arbiter, "review", full=True)

        # provisional results with the contest deadline, then final (RO-5.5.j); the deadline carries its date,
        # far ahead, so the final ranking is early at any hour the test runs and asks its confirmation
        arbiter.fill("input[name=deadline]", FAR_DEADLINE)
        with arbiter.expect_navigation():
            arbiter.click("#publish-provisional")
        # three turns of 14 played: the game ends with this publication, so it asks first (RO-5.5.j)
        expect(arbiter.locator("main")).to_contain_text("tururile 4–14 nu sunt jucate")
        with arbiter.expect_navigation():
            arbiter.click("#confirm-button")
        expect(arbiter.locator("#done")).to_contain_text("rezultate provizorii publicate")
        public = new_page(browser, base, {"width": 1280, "height": 800})
        public.goto(f"/games/{gid}/results")
        expect(public.locator("#stage")).to_contain_text(f"contestații până la {FAR_DEADLINE}")
        totals = [int(t) for t in public.locator("#ranking tr td:nth-child(4)").all_inner_texts()]
        assert totals == [r.total for r in state.ranking]
        expect(phones["Ana"].locator("#own")).to_contain_text(f"{state.results['Ana'].total} puncte")
        shot(phones["Ana"], "phone-results", full=True)
        assert no_horizontal_scroll(phones["Ana"]), "the phone's corrected board scrolls sideways"
        with arbiter.expect_navigation():
            arbiter.click("#publish-final")
        expect(arbiter.locator("#confirm-button")).to_be_visible()  # before the deadline: confirmed first
        expect(arbiter.locator("main")).to_contain_text(FAR_DEADLINE)
        with arbiter.expect_navigation():
            arbiter.click("#confirm-button")
        public.reload()
        expect(public.locator("#stage")).to_contain_text("Clasament final")
        shot(public, "results")
        arbiter.goto(f"/games/{gid}/board/Cleo")
        shot(arbiter, "board", full=True)

        big = new_page(browser, base, {"width": 1920, "height": 1080})
        big.goto(f"/games/{gid}/screen")
        expect(big.locator("td.tile")).to_have_count(100)
        shot(big, "screen-1920x1080")
        assert fits_the_screen(big), "the projected grid does not fit 1920x1080"
        screen.reload()
        shot(screen, "screen-1280x720")
        assert fits_the_screen(screen)


def train_turn(phone: Page, turn: int, group: int, placement: tuple[str, str, str], verdict: str) -> None:
    """Draw the turn's lot, hand in one placement, and see it corrected at once."""
    expect(phone.locator("#draw-lot")).to_have_text(f"Trage bilețelul turului {turn}")
    phone.click("#draw-lot")
    expect(phone.locator("#turn h2")).to_contain_text(f"grupa {group}")
    for name, value in zip(("position1", "word1", "score1"), placement, strict=True):
        phone.fill(f"input[name={name}]", value)
    phone.click("#hand-in")
    expect(phone.locator("#verdict")).to_contain_text(verdict)


def test_training_alone_on_a_phone(browser, tmp_path):
    """A player alone on a phone plays a past game's draw again: the groups and the analysis
    clock, the lots one by one with their turn timers, each slip corrected at once, then his game beside the
    computer player and the maximum, turn by turn."""
    words = tmp_path / "test-ro.txt"
    words.write_text("\n".join(WORDS_RO) + "\n", "utf-8")
    db = str(tmp_path / "club.db")
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        past = AnticipationGame.create(j, Settings(lexicon=str(words)), Draw(groups_with(GROUPS), "manual"))
        for turn, group in enumerate((2, 3), 1):
            past.draw_lot(turn, group)
        past.draw_all_lots()  # only a game that is over is played again
        past.publish("final", confirmed=True)  # no provisional stage first (RO-5.5.j)
    with running_server(db) as base:
        phone = new_page(browser, base, PHONE, mobile=True)
        phone.goto("/train")  # the duplicate training's start: its word lists in a select, on a phone
        expect(phone.locator("select[name=lexicon] optgroup").first).to_be_attached()
        shot(phone, "train-duplicate-start", full=True)
        assert no_horizontal_scroll(phone), "the duplicate training's start scrolls sideways on a phone"
        phone.goto("/train/anticipation")
        phone.check("input[name=source][value=past]")
        phone.select_option("select[name=past]", past.id)
        shot(phone, "train-start", full=True)
        assert no_horizontal_scroll(phone)
        phone.click("#start")
        phone.wait_for_url(re.compile(r"/train/anticipation/\w+\?lang=ro$"))  # the language chosen is kept
        expect(phone.locator("table.antgrid td.tile")).to_have_count(100)  # every group at once
        expect(phone.locator(".clock .time")).to_have_text(re.compile(r"^4[45]:\d\d$"))  # the analysis, RO-4.3
        shot(phone, "train-analysis")
        assert no_horizontal_scroll(phone), "the training page scrolls sideways on a phone"

        train_turn(phone, 1, 2, ("H8", "BOT", "22"), "22 puncte")
        expect(phone.locator(".clock .time")).to_have_text(re.compile(r"^[78]:\d\d$"))  # turn 1: 8 minutes
        expect(phone.locator("#total")).to_have_text("22")
        shot(phone, "train-turn1-corrected", full=True)
        assert no_horizontal_scroll(phone)

        train_turn(phone, 2, 3, ("A1", "CAT", "5"), "invalid")  # not connected (RO-6.1.b)
        expect(phone.locator("#total")).to_have_text("22")
        expect(phone.locator("#finish")).to_have_text("Încheie partida aici")
        phone.click("#finish")
        expect(phone.locator("#maximum")).to_have_text(re.compile(r"^\d+$"))
        top = int(phone.locator("#maximum").inner_text())
        assert top >= 22
        expect(phone.locator("#percent")).to_have_text(f"{figures.number(round(100 * 22 / top, 1), 'ro', 1)} %")
        expect(phone.locator("tr.nums")).to_have_count(14)
        shot(phone, "train-report", full=True)
        assert no_horizontal_scroll(phone), "the training report scrolls sideways on a phone"
