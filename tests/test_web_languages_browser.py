"""Every word in the reader's language, seen in a real browser against the real server: a
Romanian player's corrected slips on his phone (an inverted position, a cancellation), a Spanish phone's verdicts,
a Greek and a Polish results page. Screenshots go to ``tests/output/`` (``lang-*.png``)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.web import auth
from arbitru.web.app import create_app
from test_web_anticipation import desk_client, lot, read_all, type_slip
from test_web_anticipation_browser import OUTPUT, PHONE, browser, new_page, no_horizontal_scroll  # noqa: F401
from test_web_i18n import english_left
from web_anticipation_support import form, groups_text, imported_words
from web_server import running_server
from web_support import ARBITER_PASSWORD, Site, csrf, login, post

#: English words that must not be on a translated page (the verdicts' and results' words)
ENGLISH = re.compile(
    r"\b(?:position signs|written|scored|technical penalty|capped|cancelled by|formed with the help|alone matched|"
    r"wrong-position|not-on-rack|not-in-list|no-slip|main word|cross word|not on the rack|the player|Greek|"
    r"Thessaloniki)\b"
)


def shot(page: Page, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"lang-{name}.png"), full_page=True)


def text_of(page: Page) -> str:
    return page.locator("body").inner_text()


def site_on(db: str) -> Site:
    app = create_app(db)
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        secret = auth.server_secret(j)
    return Site(db, secret, app)


def anticipation_game(site: Site) -> tuple[Any, str]:
    """The arbiter's client and a Romanian anticipation game of Ana and Bo on the imported list, its groups read
    out and read again (RO-5.2.f–g)."""
    arbiter = site.client()
    login(arbiter)
    token = re.search(r'name="csrf" value="([^"]+)"', arbiter.get("/anticipation/new").text)
    assert token
    r = arbiter.post("/anticipation/new", data={
        "csrf": token.group(1), "variant": "classic", "lexicon": "test-ro-words", "source": "hall",
        "groups": groups_text(), "seating": "tables", "players": "Ana,1,Ana Popescu\nBo,2,Bogdan Ionescu"})
    assert r.status_code == 303, r.text
    gid = str(r.headers["location"]).rsplit("/", 1)[1]
    read_all(site, arbiter, gid)
    return arbiter, gid


def duplicate_game(site: Site, lang: str, rules: str) -> str:
    """A duplicate game of three moves in ``lang``: move 1 with a slip at a wrong position, one with letters not
    on the rack and a word not in the list, one missing; then closed with the master move."""
    lex = load_lexicon("synthetic:100", lang)
    settings = Settings(ruleset(rules, moves=3, seconds=120), lang, "synthetic:100", seed="3")
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player("1", "Ana"), Player("2", "Bo"), Player("3", "Cleo")])
        s.draw()
        s.add_slips([Slip(1, "1", "A1", "ZZ", 12), Slip(1, "2", "H8", "QQQQQQQ", 90)])
        gid = s.id
    c = site.client()
    login(c)
    post(c, f"/games/{gid}/close", {"choice": "1"}, f"/games/{gid}")
    return gid


def test_issue_19_every_word_in_the_readers_language_in_a_browser(browser, tmp_path, monkeypatch):  # noqa: F811
    imported_words(tmp_path, monkeypatch)
    monkeypatch.setenv("ARBITRU_WEB_TEST_LISTS", "synthetic:100")
    db = str(tmp_path / "hall.db")
    site = site_on(db)
    arbiter, ant = anticipation_game(site)
    for turn in (1, 2, 3, 4):
        lot(arbiter, ant, turn, turn + 1)
    desk = desk_client(site, arbiter)
    # Ana's turns (the boards of test_anticipation_correction.py): turn 3 written G9 for 9G (RO-6.3a) with a wrong
    # score (RO-6.2d), turn 4 cancels turn 2 (RO-5.3)
    for turn, position, word, score, note in ((1, "H7", "AL", "4", ""), (2, "H6", "CAL", "3", ""),
                                              (3, "G9", "VEST", "20", ""), (4, "", "", "", "Anulez turul 2")):
        r = type_slip(desk, ant, turn, table="1", position1=position, word1=word, score1=score, total=score,
                      note=note)
        assert r.status_code == 303, r.text
    r = form(arbiter, f"/games/{ant}/publish", {"stage": "provisional", "deadline": "18:30", "view_turn": "4"},
             f"/games/{ant}/review?turn=4")
    assert r.status_code == 303, r.text
    es = duplicate_game(site, "es", "fise")
    el = duplicate_game(site, "el", "greek")
    pl = duplicate_game(site, "pl", "fise")

    with running_server(db) as base:
        phone = new_page(browser, base, PHONE, mobile=True)
        phone.goto(f"/games/{ant}/play?code={site.code(ant, 'Ana')}")
        phone.click("#join")
        expect(phone.locator("#own")).to_contain_text("semnele poziției inversate")
        shot(phone, "ro-phone-corrected-slips")
        ro_text = text_of(phone)
        assert "anulată de jucător în turul 4 (Anulez turul 2)" in ro_text
        assert not ENGLISH.search(ro_text), ENGLISH.search(ro_text)
        assert no_horizontal_scroll(phone)

        es_phone = new_page(browser, base, PHONE, mobile=True)
        es_phone.goto(f"/games/{es}/play?code={site.code(es, '1')}")
        es_phone.click("button")
        expect(es_phone.locator("body")).to_contain_text("posición errónea")
        shot(es_phone, "es-phone-verdicts")
        assert not ENGLISH.search(text_of(es_phone)), ENGLISH.search(text_of(es_phone))
        assert no_horizontal_scroll(es_phone)

        for lang, gid in (("el", el), ("pl", pl)):
            results = new_page(browser, base, {"width": 1280, "height": 900})
            results.goto(f"/games/{gid}/results")
            shot(results, f"{lang}-results")
            words = text_of(results)
            assert not ENGLISH.search(words), (lang, ENGLISH.search(words))
            assert not re.search(r"\b(?:TW|DW|TL|DL)\b", words), lang  # the premium squares in the language


def test_FISE_13_a_slip_from_a_phone_left_open_past_the_games_end_is_refused_where_its_form_was(browser, tmp_path):  # noqa: F811
    """The finding "a stale phone's refusal is never shown": a phone whose page still shows the slip form hands
    in after the game has ended (FISE-13); the page it gets has no form any more, and the refusal stood under the
    form. Now it stands where the form was, in the page's language, and nothing is stored."""
    db = str(tmp_path / "hall.db")
    site = site_on(db)
    lex = load_lexicon("synthetic:100", "es")
    settings = Settings(ruleset("fise", moves=3, seconds=120), "es", "synthetic:100", seed="3")
    with Journal(db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player("1", "Ana"), Player("2", "Bo")])
        s.draw()
        gid = s.id
    with running_server(db) as base:
        phone = new_page(browser, base, PHONE, mobile=True)
        phone.goto(f"/games/{gid}/play?code={site.code(gid, '1')}")
        phone.click("button")
        expect(phone.locator("form.phoneslip")).to_be_visible()
        with Journal(db, actor="arbiter") as j:
            Session(j, gid).end_game("partida corta")
        phone.fill("form.phoneslip input[name=position]", "H8")
        phone.fill("form.phoneslip input[name=word]", "CASA")
        with phone.expect_navigation():
            phone.click("form.phoneslip > button")
        expect(phone.locator("#slip-form #slip-error")).to_have_text("la partida ha terminado")
        assert not phone.locator("form.phoneslip").count()
        shot(phone, "es-phone-slip-after-the-end")
        assert "game is over" not in text_of(phone) and no_horizontal_scroll(phone)
    assert not site.events(gid, "slip"), "nothing stored"


def test_RO_5_5_j_a_slip_from_a_phone_left_open_past_the_results_is_refused_where_its_form_was(
        browser, tmp_path, monkeypatch):  # noqa: F811
    """The finding "an anticipation slip is still taken after the results": phones left open on the slip form of
    the last turn (a game with no hall clock keeps it open) hand in after the provisional results are published.
    The slip is refused (RO-5.5.j: a contest goes to the chief arbiter, RO-6.5) where its form was, in the page's
    language (the game's Romanian, a phone that chose Polish), nothing stored; the API over real HTTP says the
    same with 409."""
    import json
    import urllib.error
    import urllib.request

    imported_words(tmp_path, monkeypatch)
    db = str(tmp_path / "hall.db")
    site = site_on(db)
    arbiter, gid = anticipation_game(site)
    lot(arbiter, gid, 1, 2)
    refusals = {"ro": "rezultatele sunt publicate: nu se mai predau fluturași; o contestație se înaintează "
                      "arbitrului principal (RO-5.5.j)",
                "pl": "wyniki są ogłoszone: kart już się nie oddaje; protest składa się sędziemu głównemu (RO-5.5.j)"}
    with running_server(db) as base:
        phones = {}
        for player, lang in (("Ana", "ro"), ("Bo", "pl")):
            phone = new_page(browser, base, PHONE, mobile=True)
            phone.goto(f"/games/{gid}/play?code={site.code(gid, player)}" + ("&lang=pl" if lang == "pl" else ""))
            phone.click("#join")
            expect(phone.locator("form.antslip")).to_be_visible()
            phones[lang] = phone
        r = form(arbiter, f"/games/{gid}/publish", {"stage": "provisional", "deadline": "2099-05-01 18:30"},
                 f"/games/{gid}/review")
        assert r.status_code == 303, r.text
        for lang, phone in phones.items():
            phone.fill("form.antslip input[name=position1]", "H7")
            phone.fill("form.antslip input[name=word1]", "AL")
            phone.fill("form.antslip input[name=score1]", "4")
            with phone.expect_navigation():
                phone.click("#hand-in")
            expect(phone.locator("#slip-form #slip-error")).to_have_text(refusals[lang])
            assert not phone.locator("form.antslip").count()
            shot(phone, f"{lang}-anticipation-slip-after-the-results")
            assert "published" not in text_of(phone) and no_horizontal_scroll(phone)
        body = json.dumps({"turn": 1, "placements": [{"position": "H7", "word": "AL", "score": 4}]}).encode()
        sent = urllib.request.Request(f"{base}/api/games/{gid}/slips", data=body, method="POST", headers={
            "Authorization": f"Bearer {site.code(gid, 'Ana')}", "Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(sent, timeout=10)
        assert answer.value.code == 409
        said = json.loads(answer.value.read())
        assert said["stored"] is False and "RO-5.5.j" in said["error"]
    assert not site.events(gid, "slip"), "nothing stored"


def test_an_anticipation_phone_in_spanish_over_real_http(tmp_path, monkeypatch):
    """The finding "anticipation pages in English for a Spanish player": a phone that asked for Spanish (``?lang=es``)
    on a Romanian game's play page, over real HTTP, shows its turn, its slip and, once the provisional results are
    published, its corrected board in Spanish, none of the English headings."""
    imported_words(tmp_path, monkeypatch)
    db = str(tmp_path / "hall.db")
    site = site_on(db)
    arbiter, gid = anticipation_game(site)
    lot(arbiter, gid, 1, 2)
    code = site.code(gid, "Bo")
    with running_server(db) as base, httpx.Client(base_url=base, follow_redirects=True, timeout=10) as phone:
        page = phone.get(f"/games/{gid}/play?code={code}&lang=es").text
        assert "Entrar en la partida de anticipación" in page and "Join anticipation game" not in page
        r = phone.post(f"/games/{gid}/join?lang=es", data={"csrf": csrf(page), "code": code})
        assert r.status_code == 200, r.text
        page = phone.get(f"/games/{gid}/play?lang=es").text
        assert '<html lang="es">' in page
        for spanish in ("Turno 1", "grupo 2", "Tu papeleta, turno 1", "Entregar", "Toca una letra para marcarla"):
            assert spanish in page, spanish
        assert not english_left(page, "Turn 1", "group 2", "Your slip", "Hand in", "Tap a letter"), page
        r = phone.post(f"/games/{gid}/slip?lang=es", data={
            "csrf": csrf(page), "turn": "1", "position1": "H7", "word1": "AL", "score1": "4", "total": "4"})
        assert r.status_code == 200, r.text
        r = form(arbiter, f"/games/{gid}/publish", {"stage": "provisional", "deadline": "2099-05-01 18:30"},
                 f"/games/{gid}/review")
        assert r.status_code == 303, r.text
        page = phone.get(f"/games/{gid}/play?lang=es").text
        for spanish in ("Tus papeletas", "recibida", "Tu tablero corregido", "Resultados provisionales",
                        "reclamaciones hasta 2099-05-01 18:30"):
            assert spanish in page, spanish
        assert not english_left(page, "Your slips", "received", "Your corrected board", "Provisional results",
                                "contests until", " points", "place "), page
