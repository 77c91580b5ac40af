"""In a real browser against the real server, on a 360 px phone: a player who has handed in his 20 slips for the
move (FISE-6, ``MAX_SLIPS_PER_MOVE``) hands in one more; it is refused beside his slip form in the page's language
(Romanian), what he typed stays in the form, nothing is stored. Screenshot: ``tests/output/slip-cap-ro-phone.png``.
"""

from __future__ import annotations

import time

from playwright.sync_api import expect

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.formats.receipt import MAX_SLIPS_PER_MOVE, TooManySlips
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import gettext_for
from arbitru.web import auth
from test_web_browser import OUTPUT, PHONE, browser, new_page, no_horizontal_scroll  # noqa: F401
from web_server import running_server
from web_support import LEXICON


def test_FISE_6_the_21st_slip_is_refused_beside_the_form_on_a_360_px_phone(browser, tmp_path):  # noqa: F811
    db = str(tmp_path / "cap.db")
    settings = Settings(ruleset("fise", moves=3, seconds=600), "ro", LEXICON, seed="1")
    with Journal(db, actor="arbiter") as j:
        secret = auth.server_secret(j)
        s = Session.create(j, settings, load_lexicon(LEXICON, "ro"), [Player("1", "Ana"), Player("2", "Bogdan")])
        s.draw()
        gid = s.id
    with Journal(db, actor="player:1") as j:  # his 20 slips, as his phone handed them in
        s = Session(j, gid)
        for i in range(MAX_SLIPS_PER_MOVE):
            s.hand_in(Slip(1, "1", "H8", "ABC", i), time.time(), f"k{i}")
        stored = len(j.events(gid, "slip"))
    assert stored == MAX_SLIPS_PER_MOVE
    with running_server(db) as base:
        phone = new_page(browser, base, PHONE, mobile=True)
        phone.goto(f"/games/{gid}/play?code={auth.player_code(secret, gid, '1')}")
        with phone.expect_navigation():
            phone.click("form[action$='/join'] button")
        form = phone.locator("form.phoneslip")
        form.locator("input[name=position]").fill("7G")
        form.locator("input[name=word]").fill("BAC")
        form.locator("input[name=score]").fill("14")
        with phone.expect_navigation():
            form.locator("button:not(.tap)").click()
        said = gettext_for("ro")(str(TooManySlips()))
        assert said.startswith("ați predat 20 de buletine")
        expect(phone.locator("#move-error")).to_have_text(said)
        expect(phone.locator("#slip-form #move-error")).to_be_visible()
        for name, typed in (("position", "7G"), ("word", "BAC"), ("score", "14")):
            expect(form.locator(f"input[name={name}]")).to_have_value(typed)
        assert no_horizontal_scroll(phone)
        phone.locator("#slip-form").scroll_into_view_if_needed()
        OUTPUT.mkdir(exist_ok=True)
        phone.screenshot(path=str(OUTPUT / "slip-cap-ro-phone.png"), full_page=True)
    with Journal(db) as j:
        assert len(j.events(gid, "slip")) == stored  # nothing stored
