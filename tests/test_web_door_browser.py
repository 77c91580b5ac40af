"""The phone's slip refused at the door, in a real browser at 360 px: the refusal beside its field, in the game's
language, no horizontal scrolling; the form sent twice (its answer lost) stores one slip. Screenshot:
``tests/output/phone-refused.png``."""

from __future__ import annotations

from playwright.sync_api import expect

from arbitru.web import auth
from test_web_browser import PHONE, browser, new_page, no_horizontal_scroll, shot  # noqa: F401 - the fixture
from web_server import running_server
from web_support import make_game, make_site


def test_phone_refusal_beside_its_field_and_the_form_sent_twice_stores_one_slip(browser, tmp_path):  # noqa: F811
    site = make_site(tmp_path)
    gid = make_game(site, seconds=600)
    with running_server(site.db) as base:
        phone = new_page(browser, base, PHONE, mobile=True)
        phone.goto(f"/games/{gid}/play")
        phone.fill("input[name=code]", auth.player_code(site.secret, gid, "1"))
        phone.click("button:has-text('Join')")
        phone.fill("input[name=position]", "H8")
        phone.fill("input[name=word]", "A" * 70)
        phone.click("button:has-text('Hand in')")
        expect(phone.locator("#word-error")).to_contain_text("at most 60 characters")
        assert phone.locator("input[name=position]").input_value() == "H8"  # what was typed stays: one field to mend
        assert no_horizontal_scroll(phone)
        phone.locator("#word-error").scroll_into_view_if_needed()
        shot(phone, "phone-refused")
        key = phone.locator("input[name=key]").input_value()
        assert len(key) >= 16
        # the same rendering of the form sent twice, as a retry after a lost answer would
        phone.fill("input[name=word]", "ABC")
        form = phone.locator("#slip-form form[method=post]")
        for _ in range(2):
            phone.evaluate("(f) => fetch(f.action, {method: 'POST', body: new FormData(f)})",
                           form.element_handle())
        phone.wait_for_timeout(500)
    assert len(site.events(gid, "slip")) == 1
