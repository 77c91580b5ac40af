"""Seats that change mid-game from the arbiter's chair, in a real browser against the real server, in two
languages: a latecomer, a renamed player, a withdrawal undone, a FISE-18 disqualification; each asked and confirmed
(a second request), the console's seat list, the player's phone (it says so, and its slips are refused), the
results. Screenshots go to ``tests/output/`` (``seats-*.png``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from test_web_browser import OUTPUT, PHONE, browser, new_page, no_horizontal_scroll  # noqa: F401
from test_web_hall_browser import log_in, set_up
from web_server import running_server
from web_support import LEXICON

#: what each language's pages say (the game's language: the console, the confirmation, the phone, the results)
SAID = {
    "en": {"lang": "en", "title": "Change a player's seat?", "late": "late entry, from move 2",
           "formerly": "formerly 2 Bo",
           "withdrawn": "withdrawn after move 1", "phone_out": "you withdrew after move 1",
           "disqualified": "disqualified after move 1", "phone_dq": "you were disqualified after move 1",
           "undo": "Undo: reinstate", "slip": "Your slip", "join": "Join"},
    "ro": {"lang": "ro", "title": "Schimbați locul unui jucător?", "late": "intrat târziu, de la mutarea 2",
           "formerly": "înainte: 2 Bo", "withdrawn": "retras după mutarea 1",
           "phone_out": "v-ați retras după mutarea 1", "disqualified": "descalificat după mutarea 1",
           "phone_dq": "ați fost descalificat după mutarea 1", "undo": "Anulează: repune în joc",
           "slip": "Biletul", "join": "Intrați"},
}


def shot(page: Page, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"seats-{name}.png"), full_page=True)


def game_at_move_2(db: str, lang: str) -> str:
    """Four players; move 1 played (each wrote the top move), move 2's rack on the stand."""
    lex = load_lexicon(LEXICON, lang)
    settings = Settings(ruleset("fise", moves=5, seconds=120), lang, LEXICON, seed="7", title="Seats")
    with Journal(db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player("1", "Ana"), Player("2", "Bo"), Player("3", "Cleo"),
                                              Player("4", "Dan")])
        s.draw()
        c = s.candidates()[0]
        s.add_slips([Slip(1, n, c.placement.coord.format(), s.game.alphabet.format(c.placement.word))
                     for n in ("1", "2", "3", "4")])
        s.place_master()
        s.draw()
        return s.id


def change_seat(page: Page, gid: str, said: dict[str, str], shot_name: str, **fields: str) -> None:
    """Fill the seats card, send it, look at the confirmation, confirm it."""
    page.goto(f"/games/{gid}")
    form = page.locator("#seat-form")
    form.locator("select[name=change]").select_option(fields.pop("change"))
    for field, value in fields.items():
        form.locator(f"[name={field}]").fill(value)
    form.locator("button").click()
    expect(page.locator("#confirmation h1")).to_have_text(said["title"])
    shot(page, f"{said['lang']}-{shot_name}-confirm")
    page.click("#confirm-button")
    page.wait_for_url(f"**/games/{gid}?done=*")


def phone_of(browser, base: str, secret: bytes, gid: str, number: str, said: dict[str, str]) -> Page:  # type: ignore[no-untyped-def]  # noqa: F811
    phone = new_page(browser, base, PHONE, mobile=True)
    phone.goto(f"/games/{gid}/play?code={auth.player_code(secret, gid, number)}")
    phone.locator("form[action$='/join'] button").click()
    expect(phone.locator("#live")).to_be_visible()
    return phone


@pytest.mark.parametrize("lang", ["en", "ro"])
def test_fise_18_seats_from_the_arbiters_chair(browser, tmp_path, lang):  # noqa: F811
    said = SAID[lang]
    db = str(tmp_path / "seats.db")
    secret = set_up(db)
    gid = game_at_move_2(db, lang)
    with running_server(db) as base:
        arbiter = new_page(browser, base, {"width": 1280, "height": 900})
        log_in(arbiter)

        # a latecomer arrives while move 2 is played: he plays from move 2, move 1 scores 0 for him
        change_seat(arbiter, gid, said, "late", change="enter", player="5", name="Eva Târziu", table="2")
        expect(arbiter.locator("#seat-5")).to_contain_text(said["late"])
        late = phone_of(browser, base, secret, gid, "5", said)
        expect(late.locator("form.phoneslip")).to_be_visible()  # move 2 is his: he may hand in
        shot(late, f"{lang}-latecomer-phone")

        # a name typed wrong on the list
        change_seat(arbiter, gid, said, "rename", change="rename", player="2", name="Bogdan Ionescu")
        expect(arbiter.locator("#seat-2")).to_contain_text(said["formerly"])
        expect(arbiter.locator("#seat-2")).to_contain_text("2 Bogdan Ionescu")

        # Cleo tells the referee she leaves after move 1; then she comes back: the withdrawal is undone
        cleo = phone_of(browser, base, secret, gid, "3", said)
        change_seat(arbiter, gid, said, "withdraw", change="withdraw", player="3", **{"from": "1"})
        expect(arbiter.locator("#seat-3")).to_contain_text(said["withdrawn"])
        shot(arbiter, f"{lang}-console-withdrawn")
        cleo.reload()
        expect(cleo.locator("#seat-closed")).to_contain_text(said["phone_out"])
        expect(cleo.locator("form.phoneslip")).to_have_count(0)  # no slip form for a seat that is out
        assert no_horizontal_scroll(cleo)
        shot(cleo, f"{lang}-withdrawn-phone")
        arbiter.goto(f"/games/{gid}")
        arbiter.locator("#seat-3 button").click()  # "Undo: reinstate"
        expect(arbiter.locator("#confirmation h1")).to_have_text(said["title"])
        arbiter.click("#confirm-button")
        arbiter.wait_for_url(f"**/games/{gid}?done=*")
        expect(arbiter.locator("#seat-list")).not_to_contain_text("Cleo")
        cleo.reload()
        expect(cleo.locator("#seat-closed")).to_have_count(0)
        expect(cleo.locator("form.phoneslip")).to_be_visible()

        # Dan left his seat during move 2 without telling the referee (FISE-18)
        dan = phone_of(browser, base, secret, gid, "4", said)
        change_seat(arbiter, gid, said, "disqualify", change="disqualify", player="4", **{"from": "1"},
                    reason="left the hall")
        expect(arbiter.locator("#seat-4")).to_contain_text(said["disqualified"])
        # the phone's form, drawn before, is refused when sent: 403, nothing stored
        dan.locator("input[name=position]").fill("H8")
        dan.locator("input[name=word]").fill("AB")
        dan.locator("form.phoneslip button:not(.tap)").click()
        expect(dan.locator("#slip-error")).to_contain_text(said["phone_dq"])
        expect(dan.locator("#seat-closed")).to_contain_text(said["phone_dq"])
        shot(dan, f"{lang}-disqualified-phone")
        with Journal(db) as j:
            assert not [e for e in j.events(gid, "slip") if e.payload["player"] == "4" and e.payload["move"] == 2]
            seat = [(e.actor, e.payload["change"]) for e in j.events(gid, "seat")]
            assert seat == [("arbiter", "enter"), ("arbiter", "rename"), ("arbiter", "reinstate"),
                            ("arbiter", "disqualify")]
            assert [(e.actor, e.payload["after_move"]) for e in j.events(gid, "withdraw")] == [("arbiter", 1)]

        # the results mark them
        arbiter.goto(f"/games/{gid}/results")
        ranking = arbiter.locator("#ranking")
        expect(ranking).to_contain_text(said["disqualified"])
        expect(ranking).to_contain_text(said["late"])
        expect(ranking).to_contain_text("Bogdan Ionescu")
        shot(arbiter, f"{lang}-results")
        arbiter.goto(f"/games/{gid}")
        shot(arbiter, f"{lang}-console")
        arbiter.locator("#seat").screenshot(path=str(OUTPUT / f"seats-{lang}-card.png"))
