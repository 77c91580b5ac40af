"""The results page of a game drawn from a secret, in a real browser against the real server, in the game's
language (issue 28; FISE-10, FISE-16): the commitment while it runs, the revealed secret and the verifier's
command once the results are final; on a 360 px phone too. Screenshots: ``tests/output/fair-*.png``."""

from __future__ import annotations

import hashlib

from playwright.sync_api import Page, expect

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal import sealed
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from test_web_anticipation_browser import OUTPUT, PHONE, browser, new_page  # noqa: F401
from web_server import running_server
from web_support import LEXICON


def shot(page: Page, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"fair-{name}.png"), full_page=True)


def fits(page: Page) -> bool:
    """The fair-draw box and its 64-digit codes stay within the page's width (they wrap on a phone)."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    return bool(page.evaluate(f"[...document.querySelectorAll('#fairness, #fairness *')]"
                              f".every(e => e.getBoundingClientRect().right <= {width})"))


def test_fise_10_the_results_page_shows_the_commitment_then_the_secret_and_the_check_in_spanish(tmp_path, browser):  # noqa: F811
    db = str(tmp_path / "g.db")
    with Journal(db, actor="arbiter") as j:
        lex = load_lexicon(LEXICON, "es")
        s = Session.create(j, Settings(ruleset("fise", moves=4), "es", LEXICON, seed="", title="Open de Madrid"),
                           lex, [Player("1", "Ana"), Player("2", "Bo")])
        s.draw()
        s.place_master()
        s.draw()
        gid, commitment = s.id, s.settings.commitment
        secret = sealed.secret_of(j, gid)
    assert secret is not None
    with running_server(db) as base:
        desk = new_page(browser, base, {"width": 1280, "height": 900})
        phone = new_page(browser, base, PHONE, mobile=True)
        for page in (desk, phone):
            page.goto(f"/games/{gid}/results")
            box = page.locator("#fairness")
            expect(box).to_contain_text("Sorteo limpio")
            expect(box).to_contain_text("Compromiso (SHA-256), publicado antes del primer sorteo")
            expect(page.locator("#commitment")).to_have_text(commitment)
            expect(box).to_contain_text("El secreto se muestra aquí cuando los resultados son definitivos")
            assert secret not in page.content()
            assert fits(page)
        shot(desk, "results-running-es")
        shot(phone, "results-running-es-phone")

        with Journal(db, actor="arbiter") as j:
            Session(j, gid, load_lexicon(LEXICON, "es")).end_game("fin")
        for page in (desk, phone):
            page.goto(f"/games/{gid}/results")
            box = page.locator("#fairness")
            expect(box).to_contain_text("El secreto, revelado ahora que los resultados son definitivos")
            expect(page.locator("#secret")).to_have_text(secret)
            expect(page.locator("#verify")).to_have_text(f"arbitru journal verify-draw {gid}.jsonl {gid}")
            expect(page.locator("#journal-download")).to_have_text("descargue el diario de la partida")
            assert fits(page)
        # the whole results page on the phone: its tables scroll in their own boxes, the page never sideways
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert hashlib.sha256(f"{gid}:{desk.locator('#secret').inner_text()}".encode()).hexdigest() == commitment
        shot(desk, "results-final-es")
        shot(phone, "results-final-es-phone")
        with desk.expect_download() as download:
            desk.locator("#journal-download").click()
        assert download.value.suggested_filename == f"{gid}.jsonl"
