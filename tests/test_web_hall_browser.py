"""The arbiter's hands at a real event, in a real browser: confirmation pages (one per action that cannot be
undone), the desk at typing speed (30 slips with the keyboard alone, keys counted), the console of 100 players,
the phone that recovers and asks no points where the rule set has none. Screenshots go to ``tests/output/``."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from test_web_browser import OUTPUT, browser, new_page, no_horizontal_scroll, shot  # noqa: F401
from web_server import free_port, running_server, start, stop
from web_support import ARBITER_PASSWORD, LEXICON

HALL = 100


def hall_game(db: str, lang: str, rules: str = "fise", players: int = HALL) -> str:
    settings = Settings(ruleset(rules, moves=5, seconds=120), lang, LEXICON, seed="7", title="Open")
    with Journal(db, actor="arbiter") as j:
        seated = [Player(str(n), f"Player {n}", str((n - 1) // 4 + 1)) for n in range(1, players + 1)]
        s = Session.create(j, settings, load_lexicon(LEXICON, lang), seated)
        s.draw()
        return s.id


def set_up(db: str) -> bytes:
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        return auth.server_secret(j)


def log_in(page: Page) -> None:
    page.goto("/login")
    page.fill("input[name=password]", ARBITER_PASSWORD)
    with page.expect_navigation():
        page.press("input[name=password]", "Enter")


def slips(db: str, gid: str) -> int:
    with Journal(db) as j:
        return len(j.events(gid, "slip"))


def test_the_desk_types_30_slips_with_the_keyboard_alone_and_the_console_names_the_missing(browser, tmp_path):  # noqa: F811
    db = str(tmp_path / "hall.db")
    set_up(db)
    gid = hall_game(db, "en")
    with running_server(db) as base:
        page = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(page)
        page.goto(f"/games/{gid}")
        keys = 0
        expect(page.locator("#desk-player")).to_be_focused()
        page.locator("input[name=score]").focus()
        page.keyboard.press("Enter")  # Enter on an empty form stores nothing
        page.wait_for_timeout(300)
        assert slips(db, gid) == 0 and page.url.endswith(f"/games/{gid}")
        page.locator("#desk-player").focus()
        for n in range(1, 31):
            for text in (str(n), "H8", "AB"):
                page.keyboard.type(text)
                page.keyboard.press("Enter")
                keys += len(text) + 1
            page.keyboard.type("4")
            keys += 2
            with page.expect_navigation():
                page.keyboard.press("Enter")
            expect(page.locator("#desk-player")).to_be_focused()  # back on the player field, no click
            expect(page.locator("#desk-count")).to_contain_text(f"{n} of {HALL}")
        assert slips(db, gid) == 30
        print(f"30 slips, {keys} keys, no mouse: {keys / 30:.1f} keys a slip")
        assert keys == sum(len(str(n)) for n in range(1, 31)) + 30 * (2 + 2 + 1 + 4)
        # an all-lower-case word asks first; one Enter stores it as typed
        for text in ("31", "H8", "ab"):
            page.keyboard.type(text)
            page.keyboard.press("Enter")
        page.keyboard.type("4")
        page.keyboard.press("Enter")
        expect(page.locator("form.desk [data-asked]")).to_contain_text("All blanks?")
        assert slips(db, gid) == 30
        page.keyboard.type("32")  # the next slip's number is not taken into this one's score (issue 30)
        with page.expect_navigation():
            page.keyboard.press("Enter")  # one key answers the question (changed by issue 30: it was two)
        assert slips(db, gid) == 31
        with Journal(db) as j:
            assert j.events(gid, "slip")[-1].payload["score"] == 4
        expect(page.locator("#slip-count")).to_contain_text("31 in, 69 missing")
        expect(page.locator("#missing-names")).to_contain_text("32 Player 32")
        page.fill("#grid-filter", "table 9")
        expect(page.locator("#grid tr[data-find]:visible")).to_have_count(4)
        page.fill("#grid-filter", "")
        shot(page, "hall-console-100-en")
        # a second slip for player 1: the desk is asked before it replaces the first
        page.locator("#desk-player").focus()
        for text in ("1", "H7", "ABD"):
            page.keyboard.type(text)
            page.keyboard.press("Enter")
        page.keyboard.type("6")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        expect(page.locator("#confirmation")).to_contain_text("Player 1 has a slip for move 1 already")
        shot(page, "hall-confirm-replace-en")
        assert slips(db, gid) == 31
        with page.expect_navigation():
            page.click("#confirm-button")
        assert slips(db, gid) == 32
        expect(page.locator("#slip-1")).to_contain_text("replaced")  # both slips on the console


def test_each_confirmation_page_and_the_console_of_100_in_every_language(browser, tmp_path):  # noqa: F811
    db = str(tmp_path / "hall.db")
    set_up(db)
    words = {"ro": "Nu s-a făcut încă nimic", "pl": "Nic jeszcze nie zrobiono", "el": "Τίποτα δεν έχει γίνει",
             "es": "Todavía no se ha hecho nada", "fr": "Rien n'a encore été fait"}
    with running_server(db) as base:
        page = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(page)
        for lang, nothing_yet in words.items():
            gid = hall_game(db, lang, "greek" if lang == "el" else "fise")
            page.goto(f"/games/{gid}")
            assert page.locator("form.desk input[name=score]").count() == (0 if lang == "el" else 1)  # GR-8.1
            shot(page, f"hall-console-100-{lang}")
            page.locator("#grid").screenshot(path=str(OUTPUT / f"hall-console-100-grid-{lang}.png"))
            for action, button in (("close", "#close button"), ("end", "form[action$='/end'] button")):
                page.goto(f"/games/{gid}")
                with page.expect_navigation():
                    page.click(button)
                expect(page.locator("#confirmation")).to_contain_text(nothing_yet)
                shot(page, f"hall-confirm-{action}-{lang}")
                with page.expect_navigation():
                    page.click("#cancel")  # going back does nothing
            assert slips(db, gid) == 0
            # the new rack: after Time! (FISE-16), confirmed, said to the hall in its language
            page.goto(f"/games/{gid}")
            with Journal(db, actor="arbiter") as j:
                s = Session(j, gid)
                s.clock("start", 1000.0)
                s.clock("stop", 1001.0)
            page.goto(f"/games/{gid}")
            with page.expect_navigation():
                page.click("form[action$='/draw'] button[name=new]")
            shot(page, f"hall-confirm-newrack-{lang}")
            with page.expect_navigation():
                page.click("#confirm-button")
            with Journal(db) as j:
                assert sum(1 for e in j.events(gid, "draw") if e.payload.get("source") == "new-rack") >= 1
            screen = new_page(browser, base, {"width": 1280, "height": 800})
            screen.goto(f"/games/{gid}/screen")
            expect(screen.locator("body")).to_contain_text("FISE-16")
            assert "New rack (FISE-16)" not in screen.content(), lang
            screen.context.close()


def test_GR_8_1_the_greek_phone_asks_no_points_moves_on_with_enter_and_catches_up_after_a_drop(browser, tmp_path):  # noqa: F811
    db = str(tmp_path / "hall.db")
    secret = set_up(db)
    gid = hall_game(db, "el", "greek", players=3)
    port = free_port()
    server = start(db, port)
    try:
        phone = new_page(browser, f"http://127.0.0.1:{port}", {"width": 360, "height": 740}, mobile=True)
        phone.goto(f"/games/{gid}/play?code={auth.player_code(secret, gid, '1')}")
        if phone.locator("input[name=code]").count():
            phone.fill("input[name=code]", auth.player_code(secret, gid, "1"))
            with phone.expect_navigation():
                phone.press("input[name=code]", "Enter")
        assert phone.locator("form.phoneslip input[name=score]").count() == 0  # GR-8.1: no points on the slip
        phone.fill("input[name=position]", "H8")
        phone.press("input[name=position]", "Enter")
        expect(phone.locator("input[name=word]")).to_be_focused()  # Enter moves on, sends nothing
        assert slips(db, gid) == 0
        phone.keyboard.type("αβ")
        phone.keyboard.press("Enter")
        expect(phone.locator("form.phoneslip [data-asked]")).to_contain_text("μπαλαντέρ")
        assert slips(db, gid) == 0
        assert no_horizontal_scroll(phone)
        phone.locator("form.phoneslip [data-asked]").scroll_into_view_if_needed()
        shot(phone, "hall-phone-el")
        # the connection drops (the server goes away); the move closes meanwhile, its notice lost; once the
        # server is back the phone reconnects with its last event's id and gets its part pushed at once: no
        # reload, no refetch
        phone.evaluate("document.body.setAttribute('data-loaded-once', '1')")
        refetched: list[str] = []
        phone.on("request", lambda r: refetched.append(r.url) if "/play/live" in r.url else None)
        stop(server)
        expect(phone.locator("body.offline")).to_have_count(1, timeout=15_000)
        with Journal(db, actor="arbiter") as j:
            s = Session(j, gid)
            s.lexicon = load_lexicon(LEXICON, "el")
            s.place_master()
        server = start(db, port)
        expect(phone.locator(".master")).to_be_visible(timeout=20_000)
        expect(phone.locator("body.offline")).to_have_count(0)
        assert phone.evaluate("document.body.getAttribute('data-loaded-once')") == "1"  # caught up, not reloaded
        assert refetched == []
        shot(phone, "hall-phone-el-back")  # the master move on the phone once its stream resumed
    finally:
        stop(server)


def test_RO_4_4_and_RO_5_5_j_the_anticipation_confirmations_in_romanian(browser, tmp_path):  # noqa: F811
    from anticipation_support import WORDS_RO, groups_with
    from arbitru.formats.anticipation.draw import Draw
    from arbitru.formats.anticipation.game import AnticipationGame
    from arbitru.formats.anticipation.variants import Settings as AntSettings
    from web_anticipation_support import GROUPS

    words = tmp_path / "test-ro.txt"
    words.write_text("\n".join(WORDS_RO) + "\n", "utf-8")
    db = str(tmp_path / "hall.db")
    set_up(db)
    with Journal(db, actor="arbiter") as j:
        game = AnticipationGame.create(j, AntSettings(lexicon=str(words)), Draw(groups_with(GROUPS), "manual"),
                                       seating=[("Ana", 1, "Ana Popescu"), ("Bo", 2, "Bogdan Ionescu")])
        while not game.announced()[1]:
            game.announce_next()
        gid = game.id
    with running_server(db) as base:
        page = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(page)
        page.goto(f"/games/{gid}")
        with page.expect_navigation():
            page.click("#lot-all")
        expect(page.locator("#confirmation")).to_contain_text("Toate bilețelele rămase sunt trase acum de arbitru")
        shot(page, "hall-confirm-lots-ro")
        with Journal(db) as j:
            assert not j.events(gid, "lot")
        with page.expect_navigation():
            page.click("#confirm-button")
        with Journal(db) as j:
            assert len(j.events(gid, "lot")) == 14
        with Journal(db, actor="arbiter") as j:
            AnticipationGame(j, gid).publish("provisional", "23:59", confirmed=True)
        page.goto(f"/games/{gid}/review")
        with page.expect_navigation():
            page.click("#publish-final")
        expect(page.locator("#confirmation")).to_contain_text("Contestațiile se pot depune până la 23:59")
        shot(page, "hall-confirm-publish-ro")
        with page.expect_navigation():
            page.click("#cancel")
        with Journal(db) as j:
            assert len(j.events(gid, "publication")) == 1

