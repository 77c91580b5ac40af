"""Every word the hall sees in the hall's language (issue 33, item 4): a real browser walks every page of a
duplicate game and of an anticipation game in each of ro, es, fr, pl, el (console, desks, review, phone,
projection, results, PDFs, codes, confirmations, refusals, error pages) and finds no English word on them.

A visible token (letters only, two or more, lower-cased) is English when it is an English word (a word of the
catalogs' English messages, or of the English list ``twl``) and not a word of the page's language (its official
list, or a word of its catalog's translations) and not an allowed token (:data:`ALLOWED`: the product's name,
the formats' and lists' names; rule IDs, list names, coordinates, the game's own tiles and the players' names are
taken out of the text before it is read). ``test_the_checker_finds_english_on_a_made_up_page`` proves that the
checker fails on English. Screenshots: ``tests/output/walk-<lang>-*.png``.
"""

from __future__ import annotations

import io
import json
import os
import re
import time
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page
from pypdf import PdfReader

from arbitru.engine.lexicon import Lexicon
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons import catalog as lists
from arbitru.lexicons.sources import OFFICIAL_LISTS
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import LANGUAGES, LOCALES
from test_web_anticipation import desk_client, lot, read_all, type_slip
from test_web_anticipation_browser import FAR_DEADLINE, OUTPUT, PHONE, browser  # noqa: F401
from test_web_languages_browser import site_on
from web_anticipation_support import form, groups_text, imported_words
from web_server import running_server
from web_support import Site, confirmation, csrf, login, post

LANGS = ("ro", "es", "fr", "pl", "el")
#: each language's official list (installed by the set-up into ~/.cache/arbitru/lexicons)
OFFICIAL = {"ro": "loc-6.0", "es": "file-2017", "fr": "ods8", "pl": "sjp-growy", "el": "el-hunspell"}
ENGLISH_LIST = "twl"
RULES = {"ro": "romanian", "el": "greek", "es": "fise", "pl": "fise", "fr": "fise"}
DUPLICATE_PLAYERS = (("1", "Ana"), ("2", "Bo"), ("3", "Cleo"))
ANTICIPATION_PLAYERS = "Ana,1,Ana Popescu\nBo,2,Bogdan Ionescu\nCleo,3,Carmen Dima\n"
#: the players' names the test gives (a name is no word of any language)
NAMES = {"ana", "bo", "cleo", "popescu", "bogdan", "ionescu", "carmen", "dima"}

#: the tokens a page may show whatever its language, each for a reason:
ALLOWED = frozenset({
    "arbitru",  # the product's name
    "fise",  # the federation's name (FISE-17 and "FISE" in the rule sets' titles)
    "csv", "pdf", "gcg", "jsonl", "json", "api",  # file formats, named as they are
    "htmx",  # the library the pages load, named in the API page
})
#: rule IDs (FISE-17, RO-6.1b, RO-5.5.j, GR-7, G-6), list names (loc-5.0, synthetic:100, test-ro-words) and
#: coordinates (H8, 8H, A1): taken out of the text before its words are read
RULE_ID = re.compile(r"\b[A-Z]{1,4}-\d+(?:\.\d+)*(?:\.?[a-z])?\b")
LIST_NAME = re.compile(r"\b(?:synthetic:\d+|test-ro(?:-words)?|"
                       + "|".join(re.escape(n) for n in sorted(OFFICIAL_LISTS, key=len, reverse=True)) + r")(?![\w.])")
#: a secret or a digest in hexadecimal (the draw's secret revealed with the final results), and a command to type
#: as it is (the draw's check: ``arbitru journal verify-draw``)
HEX = re.compile(r"\b[0-9a-f]{16,}\b")
#: a character encoding's name, as the files' encodings are offered (UTF-8, Windows-1250)
ENCODING = re.compile(r"\bWindows-\d+\b")
COMMAND = re.compile(r"\barbitru journal verify-draw\b")
URL = re.compile(r"(?:https?://|/)[\w.:/?=&%-]+")
COORDINATE = re.compile(r"\b(?:[A-O]\d{1,2}|\d{1,2}[A-O])\b")
#: a placement (``G7 AA``, the master move's candidates, a board's words): the coordinate and the tiles after it
PLACEMENT = re.compile(r"\b(?:[A-O]\d{1,2}|\d{1,2}[A-O])[ \t]+([^\W\d_]+)")
#: a player's code in an address broken over two lines of a PDF (``…/play?`` then ``code=GEQ7KGR9``)
CODE = re.compile(r"\bcode=\w*")
WORD = re.compile(r"[^\W\d_]{2,}")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")

#: English that the anticipation console's own fix (helper ``antconsole``, issue 33) takes away: allowed on the
#: anticipation arbiter's pages only, until that branch is merged; the lead empties this set then.
KNOWN_ANTICIPATION_CONSOLE: frozenset[str] = frozenset()


@cache
def official(lang: str) -> Lexicon:
    return lists.load(OFFICIAL[lang], lang, home=Path.home() / ".cache" / "arbitru")


@cache
def english_list() -> Lexicon:
    return lists.load(ENGLISH_LIST, "en", home=Path.home() / ".cache" / "arbitru")


def words_of(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}


@cache
def catalog_words(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of a catalog's English messages, and of its translations."""
    english: set[str] = set()
    said: set[str] = set()
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        for m in read_po(f, locale=lang):
            if not m.id:
                continue
            for text in (m.id if isinstance(m.id, tuple) else (m.id,)):
                english |= words_of(text)
            for text in (m.string if isinstance(m.string, tuple | list) else (m.string,)):
                said |= words_of(text or "")
    return frozenset(english), frozenset(said)


@cache
def english_messages() -> frozenset[str]:
    return catalog_words("ro")[0]


def is_english(word: str) -> bool:
    return word in english_messages() or word.upper() in english_list()


def in_language(word: str, lang: str) -> bool:
    return word in catalog_words(lang)[1] or word.upper() in official(lang)


def english_in(text: str, lang: str, game: Iterable[str] = ()) -> list[str]:
    """The English words of a page's text in ``lang``; ``game``: strings of the game shown as they are (its id,
    the players' codes, its racks and words), taken out first."""
    # the language chooser names each language in its own words (arbitru.messages.LANGUAGES)
    shown = sorted({*game, *LANGUAGES.values()} - {""}, key=len, reverse=True)
    text = re.sub("|".join(rf"(?<!\w){re.escape(s)}(?!\w)" for s in shown), " ", text)
    text = PLACEMENT.sub(lambda m: " " if m.group(1).isupper() else m.group(0), text)
    for pattern in (HEX, ENCODING, COMMAND, URL, CODE, RULE_ID, LIST_NAME, COORDINATE):
        text = pattern.sub(" ", text)
    found = []
    for word in sorted(words_of(text)):
        if word in ALLOWED or word in NAMES or not is_english(word) or in_language(word, lang):
            continue
        found.append(word)
    return found


def line_of(text: str, word: str) -> str:
    return next((line.strip()[:160] for line in text.splitlines()
                 if word in words_of(line)), "")


def test_the_checker_finds_english_on_a_made_up_page():
    """A test that cannot fail is a defect: an English word on a page in each language is found, the language's
    own words, the allowed tokens, rule IDs, list names and coordinates are not."""
    pages = {
        "ro": "Mutarea 2 închisă: 24 de puncte (RO-6.1b, loc-5.0) H8 CASA, arbitrul Ana, arbitru",
        "es": "Jugada 2 cerrada: 24 puntos (FISE-17, file-2017) 8H CASA, el árbitro Bo",
        "fr": "Coup 2 clos : 24 points (FISE-17, ods8) H8 MAISON, l'arbitre Cleo",
        "pl": "Ruch 2 zamknięty: 24 punkty (FISE-17, sjp-growy) H8 DOM, sędzia Ana",
        "el": "Η κίνηση 2 έκλεισε: 24 πόντοι (GR-7, el-hunspell) H8 ΣΠΙΤΙ, ο διαιτητής Ana",
    }
    for lang, page in pages.items():
        assert english_in(page, lang, ["CASA", "MAISON", "DOM", "ΣΠΙΤΙ"]) == [], (lang, english_in(page, lang))
        assert {"closed", "holds"} <= set(english_in(page + " move closed, holds I, not F", lang)), lang
    assert english_in("el árbitro: the arbiter", "es") == ["arbiter", "the"]
    # a word both languages have is the page's word: "not" (I swim) and "rate" are Romanian too
    assert english_in("not rate", "ro") == [] and english_in("not rate", "es") == ["not", "rate"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_registry_pages_example_header_is_one_the_import_reads(lang):
    """The players' file's example header is shown in the page's language: each of its columns is one the import
    maps to the same field as the English header's."""
    from arbitru.messages import gettext_for
    from arbitru.season.csvfile import REGISTRY_HEADER, read_players

    english = read_players(REGISTRY_HEADER + "\nL1,Ana Pop,Club,ROU,1990,S,1500\n")
    said = gettext_for(lang)(REGISTRY_HEADER)
    assert said != REGISTRY_HEADER
    assert read_players(said + "\nL1,Ana Pop,Club,ROU,1990,S,1500\n") == english, (lang, said)


# --- what a page shows -----------------------------------------------------------------------------------------

#: everything a person sees or hears from a page: its text, title, placeholders, buttons' values, labels for
#: screen readers, the options of its lists, images' alternatives, tooltips, the questions its scripts ask
VISIBLE = """() => {
  const out = [document.title, document.body ? document.body.innerText : ""];
  for (const e of document.querySelectorAll("[placeholder]")) out.push(e.getAttribute("placeholder"));
  for (const e of document.querySelectorAll("[aria-label]")) out.push(e.getAttribute("aria-label"));
  for (const e of document.querySelectorAll("[title]")) out.push(e.getAttribute("title"));
  for (const e of document.querySelectorAll("[alt]")) out.push(e.getAttribute("alt"));
  for (const e of document.querySelectorAll("[data-ask-blanks]")) out.push(e.getAttribute("data-ask-blanks"));
  for (const e of document.querySelectorAll("[data-say]")) out.push(e.getAttribute("data-say"));
  for (const e of document.querySelectorAll("[data-label]")) out.push(e.getAttribute("data-label"));
  for (const e of document.querySelectorAll("input[type=submit], input[type=button], input[type=reset]"))
    out.push(e.value);
  for (const e of document.querySelectorAll("option")) out.push(e.textContent);
  return out.join("\\n");
}"""


class Walk:
    """One language's walk: the pages read, what each showed in English."""

    def __init__(self, page: Page, base: str, lang: str, game: Iterable[str], site: Site, gids: Iterable[str]) -> None:
        self.page, self.base, self.lang, self.game = page, base, lang, set(game)
        self.site, self.gids = site, tuple(gids)
        self.found: dict[str, list[str]] = {}
        self.read = 0

    def check(self, name: str, text: str, known: frozenset[str] = frozenset()) -> None:
        self.read += 1
        for gid in self.gids:  # the game moved on: its new racks and words
            self.game |= tiles_of(self.site, gid)
        english = [w for w in english_in(text, self.lang, self.game) if w not in known]
        if english and os.environ.get("WALK_DUMP"):  # the page's text beside its screenshots, to read it whole
            (OUTPUT / f"walk-{self.lang}-{name.replace('/', '_')}.txt").write_text(text)
        if english:  # each word with the first line that says it
            self.found[name] = [f"{w!r} in {line_of(text, w)!r}" for w in english]

    def visit(self, url: str, name: str = "", status: int = 200, shot: str = "", phone: bool = False,
              known: frozenset[str] = frozenset()) -> None:
        self.page.set_viewport_size(PHONE if phone else {"width": 1280, "height": 900})
        r = self.page.goto(url)
        assert r is not None and r.status == status, (url, r and r.status)
        if shot:
            OUTPUT.mkdir(exist_ok=True)
            self.page.screenshot(path=str(OUTPUT / f"walk-{self.lang}-{shot}.png"), full_page=True)
        self.check(name or url, self.page.evaluate(VISIBLE), known)

    def answer(self, url: str, data: dict[str, str], page: str, name: str, status: int,
               confirm: bool = True) -> None:
        """A form sent from ``page`` as its browser sends it, and the answer shown (a refusal beside its field, a
        confirmation page): the answer's text read as the page shows it. An action that asks to be confirmed
        (``web/confirm.py``): its confirmation page read, then confirmed, and the answer read."""
        self.page.goto(page)
        token = csrf(self.page.content())
        r = self.page.request.post(self.base + url, form={"csrf": token, **data}, max_redirects=0)
        offered = confirmation(r.text()) if r.status == 200 else None
        if offered is not None and not confirm:  # the confirmation page alone: the action is not taken
            self.page.set_content(r.text())
            self.check(name, self.page.evaluate(VISIBLE))
            return
        if offered is not None:
            self.page.set_content(r.text())
            self.check(f"{name}: its confirmation", self.page.evaluate(VISIBLE))
            r = self.page.request.post(self.base + url, form={"csrf": token, **data, "confirm": offered},
                                       max_redirects=0)
        assert r.status // 100 == 4 if status == 400 else r.status == status, (url, r.status, r.text()[:500])
        if status < 300 or status >= 400:
            self.page.set_content(r.text())
            self.check(name, self.page.evaluate(VISIBLE))

    def pdf(self, url: str, name: str) -> None:
        for _ in range(600):  # made in the background: asked again while it is being made (202)
            r = self.page.request.get(self.base + url)
            if r.status != 202:
                break
            time.sleep(0.1)
        assert r.status == 200 and r.body().startswith(b"%PDF-"), (url, r.status)
        text = "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(r.body())).pages)
        assert text.strip(), url
        self.check(name, text)


# --- the games -------------------------------------------------------------------------------------------------


def duplicate_game(site: Site, arbiter: Any, lang: str) -> tuple[str, set[str]]:
    """A duplicate game in ``lang`` of three players over two moves: move 1 with slips invalid in several ways
    (a word not in the list, letters not on the rack, a wrong position, one missing) and one of the top moves;
    move 2 with a slip typed at the desk; then ended. Returns its id and its tiles' strings (racks, words)."""
    lex = load_lexicon("synthetic:100", lang)
    settings = Settings(ruleset(RULES[lang], moves=4, seconds=120), lang, "synthetic:100", seed="3")
    tiles: set[str] = set()
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player(n, name) for n, name in DUPLICATE_PLAYERS])
        s.draw()
        gid = s.id
        top = s.candidates()[0].describe().split()
        tiles |= {s.game.alphabet.format(s.game.rack), top[1]}
        s.add_slips([Slip(1, "1", top[0], "Q" * len(top[1]) if lang != "el" else "Ψ" * len(top[1]), 40),
                     Slip(1, "2", "A1" if top[0] != "A1" else "O15", top[1], int(top[2]))])
    page = f"/games/{gid}"
    r = post(arbiter, f"{page}/desk", {"move": "1", "player": "3", "position": top[0], "word": top[1],
                                         "score": top[2]}, page)
    assert r.status_code in (200, 303), r.text  # type: ignore[attr-defined]
    r = post(arbiter, f"{page}/close", {"choice": "1"}, page)
    assert r.status_code == 303, r.text  # type: ignore[attr-defined]
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid, lex)
        if s.game.phase == "rack":
            s.draw()
        tiles.add(s.game.alphabet.format(s.game.rack))
        top = s.candidates()[0].describe().split()
        tiles.add(top[1])
    return gid, tiles


def tiles_of(site: Site, gid: str) -> set[str]:
    """The game's own letters as its journal holds them (racks, groups, words of slips and master moves), shown
    as they are on any page: every word in capitals of its events."""
    said = json.dumps([e.payload for e in site.events(gid)], ensure_ascii=False)
    return {t for t in WORD.findall(said) if t.isupper()}


def anticipation_game(site: Site, arbiter: Any) -> str:
    """The Romanian anticipation game of three tables, its groups read out, two turns drawn and played at the
    desk (a slip with a wrong score and a placement written the wrong way round), its provisional results out."""
    token = csrf(arbiter.get("/anticipation/new").text)
    r = arbiter.post("/anticipation/new", data={
        "csrf": token, "variant": "classic", "lexicon": "test-ro-words", "source": "hall",
        "groups": groups_text(), "seating": "tables", "players": ANTICIPATION_PLAYERS})
    assert r.status_code == 303, r.text
    gid = str(r.headers["location"]).rsplit("/", 1)[1]
    read_all(site, arbiter, gid)
    for turn in (1, 2):
        lot(arbiter, gid, turn, turn + 1)
    desk = desk_client(site, arbiter)
    for table, turn, position, word, score in (("1", 1, "H7", "AL", "4"), ("1", 2, "G9", "CAL", "30"),
                                               ("2", 2, "H7", "LA", "2")):
        r = type_slip(desk, gid, turn, table=table, position1=position, word1=word, score1=score, total=score)
        assert r.status_code == 303, r.text
    r = form(arbiter, f"/games/{gid}/decide", {"player": "Ana", "target": "total", "action": "adjust", "points": "5",
                                               "reason": "eroare de adunare"}, f"/games/{gid}/review?turn=2")
    assert r.status_code == 303, r.text
    r = form(arbiter, f"/games/{gid}/publish", {"stage": "provisional", "deadline": FAR_DEADLINE, "view_turn": "2"},
             f"/games/{gid}/review?turn=2")
    assert r.status_code == 303, r.text
    return gid


# --- the walk --------------------------------------------------------------------------------------------------


def walk_duplicate_phone(w: Walk, site: Site, gid: str) -> None:
    g = f"/games/{gid}"
    # the phone (before the arbiter logs in on this browser): its join page, a wrong code, a slip from a phone
    # that has not joined, then the player's page and a refused slip
    w.visit(f"{g}/play", "phone's join page", phone=True)
    w.visit(g, "console asked for without a login", status=401)
    w.answer(f"{g}/join", {"code": "WRONG1"}, f"{g}/play", "phone's wrong code", 400)
    w.answer(f"{g}/slip", {"position": "H8", "word": "AB"}, f"{g}/play", "slip of a phone not joined", 400)
    w.visit(f"{g}/play?code={site.code(gid, '1')}", "phone's code page", phone=True)
    with w.page.expect_navigation():
        w.page.click("form[action$='/join'] button")
    w.visit(f"{g}/play", "phone", phone=True)
    w.answer(f"{g}/slip", {"position": "", "word": ""}, f"{g}/play", "phone's refused slip", 400)
    w.answer(f"{g}/slip", {"position": "Z99", "word": "QX"}, f"{g}/play", "phone's unreadable slip", 422)
    # readable (in the hall's notation and alphabet) but wrong: stored, and judged
    wrong = {"position": "H8 O", "word": "ΑΑΑΑ"} if w.lang == "el" else {"position": "H8", "word": "AAAA"}
    w.answer(f"{g}/slip", wrong, f"{g}/play", "phone's slip off its rack", 303)
    w.visit(f"{g}/play", "phone with its slip", phone=True, shot="phone")


def walk_duplicate(w: Walk, site: Site, gid: str, lang: str) -> None:
    g = f"/games/{gid}"
    # the doors no game fixes the language of: in the browser's (its Accept-Language, the context's locale)
    w.visit("/login", "login in the browser's language")
    w.page.fill("input[name=name]", "Ana")  # no account: refused (the security page lists the name as typed)
    w.page.fill("input[name=password]", "not-the-password")
    with w.page.expect_navigation():
        w.page.click("form[action^='/login'] button")
    assert w.page.get_attribute("html", "lang") == lang and w.page.locator("#password-error").count() == 1
    w.check("login refused in the browser's language", w.page.evaluate(VISIBLE))
    w.page.fill("input[name=name]", "arbiter")
    w.page.fill("input[name=password]", "arbiter-pass-1")
    with w.page.expect_navigation():
        w.page.click("form[action^='/login'] button")
    w.visit("/", "index in the browser's language")
    w.visit("/security", "security in the browser's language")
    assert w.page.get_attribute("html", "lang") == lang
    w.visit(f"/?lang={lang}", "index")
    w.visit(f"/games/new?lang={lang}", "new duplicate game")
    w.answer(f"/games/new?lang={lang}", {"players": "1,Ana\n1,Bo", "lexicon": "synthetic:100", "rules": RULES[lang],
                                         "lang": lang}, f"/games/new?lang={lang}", "new game refused", 422)
    for url in ("/security", "/train", "/train/anticipation", "/registry", "/tournaments", "/ratings"):
        w.visit(f"{url}?lang={lang}", url)
    w.visit(g, "console", shot="console")
    w.visit(f"{g}/grid", "console's grid")
    w.visit(f"{g}/codes", "codes")
    w.pdf(f"{g}/codes.pdf", "codes PDF")
    w.visit(f"{g}/screen", "projection", shot="projection")
    w.visit(f"{g}/screen/live", "projection's live part")
    # refusals beside their fields
    w.answer(f"{g}/desk", {"move": "2", "player": "9", "position": "Z99", "word": "", "score": "x"}, g,
             "desk slip refused", 422)
    w.answer(f"{g}/close", {"move_text": "Z8 XX"}, g, "master move refused", 422)
    w.answer(f"{g}/seat", {"change": "withdraw", "player": "77", "name": "", "reason": ""}, g, "seat refused", 422)
    w.answer(f"{g}/rule", {"word": "", "valid": "1", "reason": ""}, g, "ruling refused", 422)
    w.answer(f"{g}/decide", {"move": "1", "player": "9", "action": "slip", "position": "H8", "word": "",
                             "rule": "FISE-17", "reason": ""}, g, "decision refused", 422)
    w.answer(f"{g}/draw", {"new": "1"}, g, "new rack's confirmation", 200, confirm=False)
    # move 2 closed, the game ended: each confirmed on its page first
    w.answer(f"{g}/close", {"choice": "1"}, g, "move 2 closed", 303)
    w.visit(g, "console after move 2")
    w.answer(f"{g}/end", {"reason": ""}, g, "game ended", 303)
    w.visit(g, "console of the ended game", shot="console-ended")
    w.visit(f"{g}/results", "results", shot="results")
    w.visit(f"{g}/results/live", "results' live part")
    w.visit(f"/standings?game={gid}", "standings")
    w.pdf(f"{g}/download/results.pdf", "results PDF")
    w.visit(f"/games/nope?lang={lang}", "unknown game", status=404)
    w.visit(f"/games/nope/play?lang={lang}", "unknown game's phone", status=404)
    w.visit(f"{g}/download/nothing.txt", "unknown download", status=404)


def walk_anticipation_phone(w: Walk, site: Site, gid: str, lang: str) -> None:
    g = f"/games/{gid}"
    q = f"?lang={lang}"
    w.visit(f"{g}/play{q}", "anticipation phone's join page", phone=True)
    w.visit(f"{g}/play?code={site.code(gid, 'Bo')}&lang={lang}", "anticipation phone's code page", phone=True)
    with w.page.expect_navigation():
        w.page.click("form[action*='/join'] button")
    w.visit(f"{g}/play{q}", "anticipation phone", phone=True, shot="anticipation-phone")


def walk_anticipation(w: Walk, site: Site, gid: str, lang: str) -> None:
    g = f"/games/{gid}"
    q = f"?lang={lang}"
    w.visit(f"{g}/screen{q}", "anticipation projection", shot="anticipation-projection")
    w.visit(f"{g}/screen/live{q}", "anticipation projection's live part")
    w.visit(f"/anticipation/new{q}", "new anticipation game")
    if lang != "ro":
        return
    # the arbiter's and the desks' pages: in the game's language (the anticipation game is Romanian)
    known = KNOWN_ANTICIPATION_CONSOLE
    w.visit(f"{g}/results", "anticipation results")  # in the game's language (no ?lang: a phone's choice)
    w.visit(g, "anticipation console", shot="console-anticipation", known=known)
    w.visit(f"{g}/slips?turn=2", "anticipation desk", known=known)
    w.visit(f"{g}/review?turn=2", "anticipation review", shot="review", known=known)
    w.visit(f"{g}/codes", "anticipation codes", known=known)
    w.visit(f"{g}/board/Ana", "anticipation board", known=known)
    w.visit(f"{g}/sheet/Ana", "anticipation sheet", known=known)
    for what in ("slips", "annotation", "ranking", "results"):
        w.visit(f"{g}/forms/{what}.html", f"anticipation form {what}", known=known)
    w.pdf(f"{g}/forms/results.pdf", "anticipation results PDF")
    w.answer(f"{g}/slips", {"collected": "2", "turn": "2", "table": "9", "position1": "Z99", "word1": "x",
                            "score1": "x", "total": ""}, f"{g}/slips?turn=2", "anticipation desk refusal", 422)
    w.answer(f"{g}/lot", {"turn": "9", "group": "99", "by": "table", "table": ""}, g,
             "anticipation lot refused", 422)
    w.answer(f"{g}/publish", {"stage": "final", "deadline": ""}, f"{g}/review", "final results published", 303)
    w.visit(f"{g}/results", "anticipation final results", shot="anticipation-results")
    w.visit(f"/anticipation{q}", "anticipation games")


def walk_desk(w: Walk, dup: str, ant: str, lang: str) -> None:
    """The desk's pages: the duplicate console as a desk sees it, the anticipation desk (Romanian games only)."""
    w.page.goto("/")
    with w.page.expect_navigation():
        w.page.click("form[action='/logout'] button")
    w.visit(f"/login?lang={lang}", "login")
    w.page.fill("input[name=name]", "desk1")
    w.page.fill("input[name=password]", "desk-pass-1")
    with w.page.expect_navigation():
        w.page.click("form[action^='/login'] button")
    w.visit(f"/games/{dup}", "the desk's console", shot="desk")
    w.answer(f"/games/{dup}/desk", {"move": "2", "player": "9", "position": "Z99", "word": "", "score": "x"},
             f"/games/{dup}", "the desk's refused slip", 400)
    if lang == "ro":
        w.visit(f"/games/{ant}/slips?turn=2", "the desk's anticipation desk", known=KNOWN_ANTICIPATION_CONSOLE)


@pytest.mark.parametrize("lang", LANGS)
def test_issue_33_every_page_of_a_game_in_the_halls_language(browser: Browser, tmp_path, monkeypatch, lang):  # noqa: F811
    started = time.monotonic()
    for name in (lang, "en"):  # read before the test's home replaces the cache's
        english_in("", name) if name != "en" else english_list()
    imported_words(tmp_path, monkeypatch)
    monkeypatch.setenv("ARBITRU_WEB_TEST_LISTS", "synthetic:100")
    site = site_on(str(tmp_path / "hall.db"))
    arbiter = site.client()
    login(arbiter)
    dup, tiles = duplicate_game(site, arbiter, lang)
    ant = anticipation_game(site, arbiter)
    game = {dup, ant, *tiles, *(site.code(dup, n) for n, _ in DUPLICATE_PLAYERS),
            *(site.code(ant, n) for n in ("Ana", "Bo", "Cleo")), "nope", "nothing.txt", "desk1"}
    built = time.monotonic() - started
    with running_server(site.db) as base:
        # the browser speaks the hall's language (Accept-Language): the doors follow it without ?lang=
        ctx = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900}, locale=lang)
        ctx.set_default_timeout(15_000)
        w = Walk(ctx.new_page(), base, lang, game, site, (dup, ant))
        try:
            walk_duplicate_phone(w, site, dup)
            walk_anticipation_phone(w, site, ant, lang)
            walk_duplicate(w, site, dup, lang)
            walk_anticipation(w, site, ant, lang)
            walk_desk(w, dup, ant, lang)
        finally:
            ctx.close()
    for name, words in w.found.items():
        print(f"{lang} | {name}: {' | '.join(words)}")
    print(f"{lang}: {w.read} pages read in {time.monotonic() - started:.1f} s (games built in {built:.1f} s)")
    assert not w.found, (lang, w.found)
