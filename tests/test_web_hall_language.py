"""The pages no game fixes the language of (the index, logging in, security) in the hall's language: the server's
(``arbitru --lang ro serve``), else the browser's (``Accept-Language``), ``?lang=`` over both, kept through the
login form and its refusals; their dates as that language writes them; French punctuation with its no-break
space (issue 33's leftovers, items 1, 2 and 4). Real HTTP on a real app over a fresh journal.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from arbitru import figures
from arbitru.cli import cli
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import LOCALES, Plural, Text, gettext_for
from arbitru.web import auth, notices
from arbitru.web.app import create_app
from arbitru.web.i18n import accepted
from web_support import ARBITER_PASSWORD, LEXICON, PLAYERS, TEST_LISTS, Site, csrf, login, make_game, make_site, post

TEMPLATES = Path(__file__).parent.parent / "src" / "arbitru" / "web" / "templates"


def hall_site(tmp: Path, lang: str | None) -> Site:
    """A site whose server was started in the hall's language ``lang`` (None: none given)."""
    db = str(tmp / "hall.db")
    app = create_app(db, test_lists=TEST_LISTS, lang=lang)
    with Journal(db, actor="arbiter") as j:
        auth.set_password(j, auth.ARBITER, ARBITER_PASSWORD, auth.ARBITER)
        secret = auth.server_secret(j)
    return Site(db, secret, app)


def html_lang(html: str) -> str:
    m = re.search(r'<html lang="(\w+)"', html)
    assert m, html[:200]
    return m.group(1)


def test_accept_language_picks_the_first_language_the_pages_speak_by_weight() -> None:
    assert accepted("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == "fr"
    assert accepted("de-DE,de;q=0.9,ro;q=0.8,en;q=0.7") == "ro"
    assert accepted("en;q=0.5, el;q=0.9") == "el"
    assert accepted("es;q=0, pl") == "pl"  # q=0 refuses Spanish
    assert accepted("de, ja") == "en" and accepted("") == "en" and accepted("fr;q=oops, ro") == "ro"


@pytest.mark.parametrize("lang", ["ro", "es", "fr", "pl", "el"])
def test_the_doors_are_in_the_browsers_language_when_the_server_has_none(tmp_path: Path, lang: str) -> None:
    site = make_site(tmp_path)
    c = site.client()
    head = {"Accept-Language": f"de-DE, {lang};q=0.8, en;q=0.5"}
    index, page = c.get("/", headers=head), c.get("/login", headers=head)
    assert html_lang(index.text) == lang and html_lang(page.text) == lang
    assert "Duplicate games" not in index.text and "Log in" not in page.text
    assert index.headers["vary"] == "Accept-Language"
    # ?lang= is over the browser's
    assert html_lang(c.get("/login?lang=fr", headers={"Accept-Language": "ro"}).text) == "fr"


def test_the_doors_are_in_the_servers_language_over_the_browsers(tmp_path: Path) -> None:
    site = hall_site(tmp_path, "ro")
    c = site.client()
    assert html_lang(c.get("/", headers={"Accept-Language": "fr"}).text) == "ro"
    assert html_lang(c.get("/login", headers={"Accept-Language": "pl"}).text) == "ro"
    assert html_lang(c.get("/login?lang=el").text) == "el"  # a reader may still ask for another
    with pytest.raises(ValueError):
        hall_site(tmp_path / "x", "de")


def test_arbitru_lang_serve_gives_the_server_its_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``arbitru --lang pl serve`` starts the app in Polish; ``arbitru serve`` with none (the browser's)."""
    import uvicorn

    started: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: started.append(app))
    db = str(tmp_path / "serve.db")
    for args, lang in ((["--lang", "pl", "serve"], "pl"), (["serve"], None)):
        r = CliRunner().invoke(cli, [*args, "--db", db, "--json"])
        assert r.exit_code == 0, r.output
        assert started.pop().state.web.lang == lang  # type: ignore[attr-defined]


def test_the_login_form_and_its_refusals_keep_the_chosen_language(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    c = site.client()
    page = c.get("/login?lang=es")
    assert 'action="/login?lang=es"' in page.text
    refused = c.post("/login?lang=es", data={"csrf": csrf(page.text), "name": "arbiter", "password": "wrong-one"})
    assert refused.status_code == 401 and html_lang(refused.text) == "es"
    assert 'action="/login?lang=es"' in refused.text and "Iniciar sesión" in refused.text
    error = re.search(r'id="password-error">([^<]*)<', refused.text)
    assert error and "password" not in error.group(1).lower(), error
    ok = c.post("/login?lang=es", data={"csrf": csrf(refused.text), "name": "arbiter", "password": ARBITER_PASSWORD})
    assert ok.status_code == 303 and ok.headers["location"] == "/?lang=es"
    index = c.get(ok.headers["location"])
    assert html_lang(index.text) == "es" and 'href="/security?lang=es"' in index.text
    security = c.get("/security", headers={"Accept-Language": "el"})
    assert html_lang(security.text) == "el" and "Security" not in security.text
    # the browser's language carries through the login form without ?lang=
    c2 = site.client()
    page = c2.get("/login", headers={"Accept-Language": "pl"})
    refused = c2.post("/login", data={"csrf": csrf(page.text), "password": "wrong-one"},
                      headers={"Accept-Language": "pl"})
    assert refused.status_code == 401 and html_lang(refused.text) == "pl"


@pytest.mark.parametrize("lang", ["ro", "fr", "pl"])
def test_the_index_writes_a_games_date_as_its_language_does(tmp_path: Path, lang: str) -> None:
    site = make_site(tmp_path)
    gid = make_game(site)
    with Journal(site.db) as j:
        created = next(g.created for g in j.games() if g.id == gid)
    said = figures.moment(created, lang)
    assert said != figures.moment(created, "en")
    html = site.client().get("/", headers={"Accept-Language": lang}).text
    assert f"<td>{said}</td>" in html, (said, html)
    assert f"<td>{figures.moment(created, 'en')}</td>" not in html


#: a clause's mark in a message: followed by a space, the message's end, a line end or a tag (never "18:30",
#: "synthetic:2000", "?lang=")
CLAUSE_MARK = re.compile(r"(.)([:;?!])(?=\s|$|<)")


def test_fr_every_colon_semicolon_question_and_exclamation_mark_has_its_no_break_space() -> None:
    """French typography: a no-break space before ':' and a narrow one (or a no-break one) before ';', '?', '!'."""
    with open(LOCALES / "fr" / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f)
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            for m in CLAUSE_MARK.finditer(text or ""):
                if m.group(1) not in "\u00a0\u202f":
                    wrong.append((message.id, text))
    assert not wrong, wrong[:10]


def test_no_template_writes_a_colon_after_a_printed_value() -> None:
    """A label's colon is written by ``|colon`` (the page's language's typography), never after ``}}`` or ``%}``."""
    wrong = [f"{p.relative_to(TEMPLATES)}: {m.group(0)}" for p in TEMPLATES.rglob("*.html")
             for m in re.finditer(r".{0,40}[}%]\}:(?=[ <])", p.read_text(encoding="utf-8"))]
    assert not wrong, wrong


def test_fr_a_label_and_its_colon_on_the_console_and_screen(tmp_path: Path) -> None:
    """"Fin de la partie : …" on a French game's console, "Total des tops : …" on its screen (no-break spaces)."""
    site = make_site(tmp_path)
    settings = Settings(ruleset("fise", moves=1, seconds=60), "fr", LEXICON, seed="7")
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, load_lexicon(LEXICON, "fr"), [Player(n, name) for n, name in PLAYERS])
        s.draw()
        gid = s.id
    c = site.client()
    login(c)
    r = post(c, f"/games/{gid}/close", {}, f"/games/{gid}")
    assert r.status_code == 303, r.text  # type: ignore[attr-defined]
    r = post(c, f"/games/{gid}/end", {"reason": "la salle ferme"}, f"/games/{gid}")
    assert r.status_code == 303, r.text  # type: ignore[attr-defined]
    console = c.get(f"/games/{gid}").text
    assert "Fin de la partie\u00a0: " in console, re.findall(r'id="status">[^<]*', console)
    screen = site.client().get(f"/games/{gid}/screen").text
    assert "Total des tops\u00a0: " in screen


# --- item 3: what an action did, carried as a code ----------------------------------------------------------------


def test_a_notice_goes_by_its_code_and_values_and_comes_back_as_its_message() -> None:
    hints = [Text("%(expected)s; this slip has %(n)s",
                  expected=Plural("turn %(turn)s has %(n)s placement", "turn %(turn)s has %(n)s placements", n=2,
                                  turn=1), n=1),
             Text("no table number written (RO-6.2)")]
    message = Text("slip of %(player)s, turn %(turn)s stored — check: %(hints)s", player="Ana", turn=1, hints=hints)
    carried = notices.carry(message)
    assert re.fullmatch(r"[0-9a-f]{8}\{.*\}", carried) and "stored" not in carried and "check" not in carried
    back = notices.said(carried)
    assert isinstance(back, Text) and back == message
    assert gettext_for("fr")(back) == gettext_for("fr")(message) != str(message)
    assert notices.carry(Text("game over")) == notices.code("game over")
    assert notices.said("0000000g") == "0000000g"  # no code: an old link's text, shown as it is
    assert notices.said("deadbeef") == "" and notices.said('deadbeef{"x":') == ""  # unknown or broken: nothing


def test_every_catalog_message_has_its_own_code() -> None:
    with open(LOCALES / "ro" / "LC_MESSAGES" / "messages.po", "rb") as f:
        ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(f) if m.id}
    assert len({notices.code(i) for i in ids}) == len(ids) and len(notices.known()) >= len(ids)


def fr_game(site: Site, moves: int = 3) -> str:
    settings = Settings(ruleset("fise", moves=moves, seconds=60), "fr", LEXICON, seed="7")
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, load_lexicon(LEXICON, "fr"), [Player(n, name) for n, name in PLAYERS])
        s.draw()
        return s.id


def test_the_duplicate_console_is_told_by_a_code_in_its_language(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    gid = fr_game(site)
    c = site.client()
    login(c)
    r = post(c, f"/games/{gid}/close", {}, f"/games/{gid}")
    where = r.headers["location"]  # type: ignore[attr-defined]
    done = parse_qs(urlsplit(where).query)["done"][0]
    assert re.fullmatch(r"[0-9a-f]{8}\{.*\}", done) and "closed" not in done, done
    told = re.search(r'<p class="done">([^<]*)<', c.get(where).text)
    assert told and told.group(1).startswith("coup 1 clos\u00a0: "), told
    # an old link's English sentence is still said in the page's language; anything else is harmless
    old = c.get(f"/games/{gid}?done=move 1 closed: 24 points").text
    assert '<p class="done">coup 1 clos\u00a0: 24 points</p>' in old
    odd = c.get(f"/games/{gid}?done=<b>hi</b>").text
    assert "<b>hi</b>" not in odd and "&lt;b&gt;hi&lt;/b&gt;" in odd
    assert '<p class="done">' not in c.get(f"/games/{gid}?done=deadbeef").text


def test_RO_5_2_f_an_anticipation_notice_is_said_in_the_language_of_the_page_that_reads_it(tmp_path: Path) -> None:
    from web_anticipation_support import create_game, form

    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    r = form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}")
    where = r.headers["location"]
    assert "read" not in where and re.search(r"done=[0-9a-f]{8}%7B", where), where
    for lang in ("ro", "pl", "el"):
        url = where.replace("?", f"?lang={lang}&") if lang != "ro" else where
        page = html.unescape(arbiter.get(url).text)
        assert gettext_for(lang)(Text("group %(n)s read out", n=1)) in page and "group 1 read out" not in page
