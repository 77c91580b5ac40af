"""The duplicate console's cards in a real browser against the real server, on a desk's screen and on a 360 px
phone: each card its own (the seats card was never closed, the claims and end-of-game cards drawn inside it), no
horizontal scroll; a reversal refused is said beside the reverse form it was sent with, in the page's language, the
reason typed and the grid's find kept. Screenshots go to ``tests/output/`` (``console-cards-*.png``)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from arbitru.formats.duplicate import seats
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import Text, gettext_for
from test_web_browser import OUTPUT, PHONE, browser, new_page, no_horizontal_scroll  # noqa: F401
from test_web_hall_browser import log_in, set_up
from web_server import running_server
from web_support import LEXICON

DESK = {"width": 1280, "height": 900}


def shot(page: Page, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"console-cards-{name}.png"), full_page=True)


def decided_game(db: str, lang: str) -> tuple[str, int, int]:
    """Four players, move 1 closed and its collection closed, move 2 open; player 2's slip of move 1 decided twice
    (read again, then struck out: the second stands on the first) and player 4 withdrawn: (the game's id, the
    first decision's event, the second's)."""
    lex = load_lexicon(LEXICON, lang)
    settings = Settings(ruleset("fise", moves=5, seconds=120), lang, LEXICON, seed="7", title="Cards")
    with Journal(db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player("1", "Ana"), Player("2", "Bo"), Player("3", "Cleo"),
                                              Player("4", "Dan")])
        s.draw()
        c = s.candidates()[0]
        position, word = c.placement.coord.format(), s.game.alphabet.format(c.placement.word)
        s.clock("start", time.time() - 100)
        s.add_slips([Slip(1, n, position, word) for n in ("1", "3")])
        s.clock("stop", time.time())
        s.place_master()
        s.draw()
        s.close_collection(1)
        first = s.decide(1, "2", "slip", "read again", "FISE-17", Slip(1, "2", position, word))
        second = s.decide(1, "2", "void", "signed by another", "FISE-17")
        seats.change(s, "withdraw", "4", move=1, reason="left the hall")
        return s.id, first.seq, second.seq


def cards_apart(page: Page) -> None:
    """No card lies within another (the seats card holds neither the claims nor the end of the game)."""
    for inner in ("decide", "end", "ruling"):
        expect(page.locator(f"section.card section.card#{inner}")).to_have_count(0)
    expect(page.locator("section.card#seat #decisions")).to_have_count(0)


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_console_cards_apart_on_a_desk_and_a_phone_and_a_reversal_refused_beside_its_form(
        browser, tmp_path, lang):  # noqa: F811
    db = str(tmp_path / "cards.db")
    set_up(db)
    gid, first, second = decided_game(db, lang)
    _ = gettext_for(lang)
    with running_server(db) as base:
        desk = new_page(browser, base, DESK)
        log_in(desk)
        desk.goto(f"/games/{gid}")
        shot(desk, f"desk-{lang}")
        cards_apart(desk)
        assert no_horizontal_scroll(desk)

        phone = new_page(browser, base, PHONE, mobile=True)
        log_in(phone)
        phone.goto(f"/games/{gid}")
        shot(phone, f"phone-{lang}")
        cards_apart(phone)
        assert no_horizontal_scroll(phone)

        # the arbiter finds player 2 in the grid, then reverses the first decision: refused (the second stands on
        # it), said beside that decision's own reverse form; his reason and the find kept
        desk.fill("#grid-filter", "Bo")
        item = desk.locator(f"#decision-{first}")
        item.locator("input[name=reason]").fill("citit greșit")
        with desk.expect_navigation():
            item.locator("form.reverse button").click()
        expect(item.locator(f"#reverse-{first}-error")).to_have_text(
            _(Text("a later decision (event %(seq)s) stands on this slip: reverse it first", seq=second)))
        expect(item.locator("input[name=reason]")).to_have_value("citit greșit")
        expect(desk.locator(f"#decision-{second} input[name=reason]")).to_have_value("")
        expect(desk.locator("#decide-error")).to_have_count(0)
        expect(desk.locator("#grid-filter")).to_have_value("Bo")
        cards_apart(desk)
        item.scroll_into_view_if_needed()
        desk.screenshot(path=str(OUTPUT / f"console-cards-reversal-refused-{lang}.png"))
        with Journal(db) as j:
            assert len(j.events(gid, "decision")) == 2
