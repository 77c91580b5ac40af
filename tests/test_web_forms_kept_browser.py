"""In a real browser against the real server: the new-game form refused keeps every field as typed and says why
beside the field it concerns, in the page's language, on a desk's screen and on a 360 px phone; the security page
writes its times as the page's language does. Screenshots go to ``tests/output/`` (``kept-*.png``)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from arbitru.messages import Text, gettext_for
from test_web_browser import OUTPUT, PHONE, browser, new_page, no_horizontal_scroll  # noqa: F401
from test_web_hall_browser import log_in, set_up
from web_server import running_server
from web_support import LEXICON

DESK = {"width": 1280, "height": 900}


def shot(page: Page, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"kept-{name}.png"), full_page=True)


@pytest.mark.parametrize(("lang", "size"), [("ro", "phone"), ("fr", "desk")])
def test_new_game_refused_in_the_browser_keeps_every_field_and_says_why_beside_it(
        browser, tmp_path, lang, size):  # noqa: F811
    db = str(tmp_path / "new.db")
    set_up(db)
    _ = gettext_for(lang)
    with running_server(db) as base:
        page = new_page(browser, base, PHONE if size == "phone" else DESK, mobile=size == "phone")
        log_in(page)
        page.goto(f"/games/new?lang={lang}")
        form = page.locator("form[action^='/games/new']")
        form.locator("input[name=title]").fill("Cupa Iernii")
        form.locator("select[name=rules]").select_option("greek")
        form.locator("select[name=lang]").select_option(lang)
        form.locator("select[name=lexicon]").select_option(label=LEXICON)
        form.locator("input[name=moves]").fill("12")
        form.locator("input[name=seconds]").fill("90")  # GR-5C: 2 to 3 minutes
        form.locator("select[name=bonus]").select_option("manual")
        form.locator("select[name=racks]").select_option("hand")
        form.locator("input[name=seed]").fill("tare")
        form.locator("select[name=variant]").select_option("joker")
        form.locator("select[name=new_order]").select_option("vowels-first")
        form.locator("textarea[name=players]").fill("1,Ana,1\n2,Bo,1\n3,Cleo,2")
        shot(page, f"new-game-typed-{lang}-{size}")
        with page.expect_navigation():
            form.locator("button").click()
        expect(page.locator("#seconds-error")).to_have_text(
            _(Text("GR-5C: time per move is 2 to 3 minutes, not %(seconds)s s", seconds=90)))
        expect(page.locator(".error")).to_have_count(1)
        for name, typed in (("title", "Cupa Iernii"), ("moves", "12"), ("seconds", "90"), ("seed", "tare"),
                            ("rules", "greek"), ("lang", lang), ("bonus", "manual"), ("racks", "hand"),
                            ("variant", "joker"), ("new_order", "vowels-first"), ("lexicon", LEXICON)):
            expect(form.locator(f"[name={name}]")).to_have_value(typed)
        expect(form.locator("textarea[name=players]")).to_have_value("1,Ana,1\n2,Bo,1\n3,Cleo,2")
        assert no_horizontal_scroll(page)
        shot(page, f"new-game-refused-{lang}-{size}")


@pytest.mark.parametrize(("lang", "size"), [("el", "phone"), ("en", "desk")])
def test_security_page_times_in_the_browser_in_the_pages_language(browser, tmp_path, lang, size):  # noqa: F811
    db = str(tmp_path / "doors.db")
    set_up(db)
    with running_server(db) as base:
        page = new_page(browser, base, PHONE if size == "phone" else DESK, mobile=size == "phone")
        for guess in ("guess-1", "guess-2"):
            page.goto("/login")
            page.fill("input[name=password]", guess)
            with page.expect_navigation():
                page.press("input[name=password]", "Enter")
        log_in(page)
        page.goto(f"/security?lang={lang}")
        when = page.locator("tr.attempt td").first.inner_text()
        assert not re.match(r"\d{4}-\d{2}-\d{2}", when), when
        assert re.search(r"\d{1,2}:\d{2}:\d{2}", when), when
        assert no_horizontal_scroll(page)
        if size == "phone":  # each value on a line of its own under its column's name: no word broken in five
            widths = page.eval_on_selector_all("tr.attempt td", "cells => cells.map(c => c.clientWidth)")
            assert widths and min(widths) > 250, widths
        shot(page, f"security-{lang}-{size}")


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_ro_5_1_new_anticipation_game_refused_on_a_360_px_phone_keeps_its_fields_within_the_screen(
        browser, tmp_path, lang):  # noqa: F811
    db = str(tmp_path / "new.db")
    set_up(db)
    _ = gettext_for(lang)
    with running_server(db) as base:
        page = new_page(browser, base, PHONE, mobile=True)
        log_in(page)
        page.goto(f"/anticipation/new?lang={lang}")
        assert no_horizontal_scroll(page)
        form = page.locator("form[action^='/anticipation/new']")
        form.locator("input[name=seed]").fill("abc")
        form.locator("input[name=seating][value=ratings]").check()
        form.locator("textarea[name=players]").fill("1,1500,CSM\n2,1400,Rapid")
        with page.expect_navigation():
            form.locator("#create").click()
        expect(page.locator("#seed-error")).to_have_text(_(Text("the seed is a whole number (at most 12 digits)")))
        expect(form.locator("textarea[name=players]")).to_have_value("1,1500,CSM\n2,1400,Rapid")
        assert no_horizontal_scroll(page)
        shot(page, f"anticipation-refused-{lang}-phone")
