"""Bad input gets a clear error and changes nothing (the audit "guard"), over real HTTP (uvicorn, httpx):

- a player's slip that cannot be read (a position that is none, no word, a score below 0) is refused by the API
  with 422 naming the field, why in the game's language (or ``?lang=``), and by the phone's form beside the same
  field, by the one check of the duplicate format (``slips.readable``); nothing stored. A slip that reads but is
  wrong is stored and judged as before;
- the desk's slip form refuses a move or a score that is no number (or out of range) beside its field, keeps what
  the clerk typed, and never types over a slip stored for a closed move: that is the arbiter's decision (FISE-17);
- the console's choice of the master move is checked before the close is asked;
- an unknown clock action is refused in the game's language.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator

import httpx
import pytest

from arbitru.engine.notation import Coordinate
from arbitru.engine.tiles import alphabet
from arbitru.errors import ArbitruError
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import Text, gettext_for
from arbitru.web.forms import FORM_OF_A_CLOSED_MOVE, FORM_OF_A_REPLACED_RACK
from web_server import running_server
from web_support import Site, confirmation, csrf, join, login, make_site, post

LEXICON = "synthetic:2000"


def game_in(site: Site, lang: str, *, seconds: int = 120) -> str:
    """A FISE game in ``lang`` with move 1's rack on the stand, players 1 to 3."""
    lex = load_lexicon(LEXICON, lang)
    settings = Settings(ruleset("fise", moves=3, seconds=seconds), lang, LEXICON, seed="3")
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player("1", "Ana"), Player("2", "Bo"), Player("3", "Cleo")])
        s.draw()
        return s.id


@pytest.fixture
def site(tmp_path) -> Site:
    return make_site(tmp_path)


@pytest.fixture
def http(site) -> Iterator[httpx.Client]:
    with running_server(site.db) as base, httpx.Client(base_url=base) as c:
        yield c


def beside(page: str, field: str) -> str:
    """The refusal shown beside a form's field (``id="FIELD-error"``), unescaped."""
    m = re.search(rf'id="{field}-error">([^<]*)<', page)
    assert m, page
    return html.unescape(m.group(1))


def said(lang: str, message: str, **values: object) -> str:
    return gettext_for(lang)(Text(message, **values))


def send(http: httpx.Client, site: Site, gid: str, player: str, body: dict[str, object],
         query: str = "") -> httpx.Response:
    return http.post(f"/api/games/{gid}/slips{query}", json={"move": 1, **body},
                     headers={"Authorization": f"Bearer {site.code(gid, player)}"})


def refusal_of(reading: Callable[[], object]) -> Text:
    """The duplicate format's own refusal of what ``reading`` reads (a position, a word): its message."""
    with pytest.raises(ArbitruError) as e:
        reading()
    message = e.value.args[0]
    assert isinstance(message, Text)
    return message


NOT_A_SCORE = "%(text)s is not a whole number from %(low)s to %(high)s"
UNREADABLE = [
    # (the slip, the field refused, the English message)
    ({"position": "Z99", "word": "CASA", "score": 10}, "position",
     refusal_of(lambda: Coordinate.parse("Z99", ruleset("fise").notation))),
    ({"position": "H8", "word": "", "score": 10}, "word", Text("no word")),
    ({"position": "H8", "word": "WAGON", "score": 10}, "word",
     refusal_of(lambda: alphabet("es").split("WAGON", blanks=True))),
    ({"position": "H8", "word": "CASA", "score": -5}, "score",
     Text(NOT_A_SCORE, text="-5", low=0, high=999_999_999)),
]


def test_fise_14_the_api_refuses_an_unreadable_slip_with_422_naming_the_field_in_the_games_language(site, http):
    gid = game_in(site, "es")
    before = len(site.events(gid))
    for body, field, english in UNREADABLE:
        r = send(http, site, gid, "1", body)
        assert r.status_code == 422, (body, r.text)
        answer = r.json()
        assert answer["field"] == field and answer["stored"] is False, answer
        assert answer["error"] == gettext_for("es")(english) != str(english), answer
    # the request's language wins over the game's
    r = send(http, site, gid, "1", UNREADABLE[1][0], "?lang=fr")
    assert r.status_code == 422 and r.json()["error"] == said("fr", "no word") == "pas de mot", r.text
    assert len(site.events(gid)) == before  # nothing stored
    # readable but wrong: a word not in the list on letters not on the rack, a wrong score: stored and judged
    for player, body in (("2", {"position": "H8", "word": "QZXJ", "score": 99}),
                         ("3", {"position": "H8", "word": "casa", "score": 0})):
        r = send(http, site, gid, player, body)
        assert r.status_code == 201 and r.json()["stored"] is True, r.text
    assert len(site.events(gid, "slip")) == 2


def test_fise_6_every_refusal_at_the_api_slip_door_says_stored_false_and_stores_nothing(site, http):
    """A client retries or gives up by one field: every refusal of a slip carries ``"stored": false``, whatever
    refused it (the door's reading, the code, the move), not only the library's."""
    gid = game_in(site, "es")
    before = len(site.events(gid))
    url = f"/api/games/{gid}/slips"
    mine = {"Authorization": f"Bearer {site.code(gid, '1')}"}
    slip = {"move": 1, "position": "H8", "word": "CASA", "score": 10}
    refusals = [
        (401, http.post(url, json=slip)),  # no code
        (400, http.post(url, content=b"move=1", headers=mine)),  # not JSON
        (400, http.post(url, json=[slip], headers=mine)),  # not an object
        (413, http.post(url, content=b"{" + b" " * 70_000 + b"}", headers=mine)),
        (400, http.post(url, json={**slip, "position": 8}, headers=mine)),
        (400, http.post(url, json=slip, headers={**mine, "Idempotency-Key": ""})),
        (403, http.post(url, json={**slip, "player": "2"}, headers=mine)),
        (409, http.post(url, json={**slip, "move": 2}, headers=mine)),  # not open
        (422, http.post(url, json={**slip, "word": ""}, headers=mine)),
        (401, http.post(url, json=slip, headers={"Authorization": "Bearer NOT-A-CODE"})),
    ]
    for status, r in refusals:
        assert r.status_code == status and r.json()["stored"] is False and r.json()["error"], r.text
    assert len(site.events(gid)) == before


def test_fise_6_a_slip_sent_to_the_api_for_no_such_game_says_stored_false(site, http):
    """A client's slip for a game id that is not one (a typo, a game removed) is refused 404 and, as every other
    refusal at the slip door, says ``"stored": false``; it used to answer ``{"error": ...}`` alone."""
    gid = game_in(site, "es")
    slip = {"move": 1, "position": "H8", "word": "CASA", "score": 10}
    for headers in ({"Authorization": f"Bearer {site.code(gid, '1')}"}, {}):
        r = http.post("/api/games/no-such-game/slips", json=slip, headers=headers)
        assert r.status_code == 404 and r.json()["stored"] is False and r.json()["error"], r.text
    r = http.get("/api/games/no-such-game")  # a reading, not a slip: nothing to say of storing
    assert r.status_code == 404 and "stored" not in r.json()


def test_fise_14_the_phone_refuses_the_same_slips_beside_the_same_fields(site, http):
    """The phone's form and the API are checked by one and the same reading (the duplicate format's)."""
    gid = game_in(site, "es")
    join(http, site, gid, "1")
    page = f"/games/{gid}/play"
    for body, field, english in UNREADABLE:
        token = csrf(http.get(page).text)
        r = http.post(f"/games/{gid}/slip", data={"csrf": token, **{k: str(v) for k, v in body.items()}})
        assert r.status_code == 422, r.text
        if field == "score":  # a form's score is said as it was typed, as text
            english = Text(NOT_A_SCORE, text="'-5'", low=0, high=999_999_999)
        assert beside(r.text, field) == gettext_for("es")(english), (field, r.text)
    token = csrf(http.get(page).text)
    r = http.post(f"/games/{gid}/slip", data={"csrf": token, "position": "H8", "word": "ZZ", "score": "x"})
    assert r.status_code == 422 and beside(r.text, "score") == said(
        "es", NOT_A_SCORE, text="'x'", low=0, high=999_999_999)
    assert not site.events(gid, "slip")


def desk_login(http: httpx.Client) -> None:
    """``http`` becomes desk1's browser (an account the arbiter makes in another browser)."""
    with httpx.Client(base_url=http.base_url) as arbiter:
        login(arbiter)
        assert post(arbiter, "/desks", {"name": "desk1", "password": "desk-pass-1"}, "/").status_code == 303
    login(http, "desk1", "desk-pass-1")


def typed(page: str, name: str) -> str:
    """The value the desk form's field ``name`` shows."""
    form = page[page.index('class="desk"'):]
    m = re.search(rf'name="{name}"[^>]*value="([^"]*)"', form)
    assert m, (name, form[:2000])
    return html.unescape(m.group(1))


@pytest.mark.parametrize(("data", "field", "message", "values"), [
    ({"move": "abc"}, "move", "%(text)s: a whole number from %(low)s to %(high)s",
     {"text": "'abc'", "low": 1, "high": 999_999_999}),
    ({"move": "0"}, "move", "%(text)s: a whole number from %(low)s to %(high)s",
     {"text": "'0'", "low": 1, "high": 999_999_999}),
    ({"score": "x"}, "desk-score", NOT_A_SCORE,
     {"text": "'x'", "low": 0, "high": 999_999_999}),
    ({"score": "-5"}, "desk-score", NOT_A_SCORE,
     {"text": "'-5'", "low": 0, "high": 999_999_999}),
])
def test_fise_6_the_desk_refuses_a_move_or_score_that_is_no_number_beside_it_and_keeps_the_fields(
        site, http, data, field, message, values):
    gid = game_in(site, "es")
    desk_login(http)
    page = f"/games/{gid}"
    # as the page's form sends it: with the move it showed
    slip = {"shown": "1", "move": "1", "player": "2", "position": "H8", "word": "CASA", "score": "12", "late": "1",
            **data}
    # a slip stored already: a confirmation would be offered for a readable form; none for this one
    assert post(http, f"{page}/desk", {**slip, **{"move": "1", "score": "12"}}, page).status_code == 303
    stored = len(site.events(gid))
    r = post(http, f"{page}/desk", slip, page, confirm=False)
    assert r.status_code == 422 and confirmation(r.text) is None, r.text
    assert beside(r.text, field) == said("es", message, **values), r.text
    for name in ("move", "player", "position", "word", "score"):  # what the clerk typed, to correct it
        assert typed(r.text, name) == slip[name], name
    assert 'name="late" value="1" checked' in r.text
    assert len(site.events(gid)) == stored


def test_fise_6_a_phone_slip_pressed_before_the_next_rack_reached_its_page_is_refused_not_stored_as_that_moves(
        site, http):
    """The phone's form sends the move its page showed (the live part's ``data-move``, followed by the page's
    script): a slip written for move 1 and pressed after the arbiter drew move 2 is refused beside the form in the
    page's language, what the player typed kept, nothing stored; it used to be stored as his slip for move 2. The
    same slip sent with the move the page now shows is stored for move 2; a form without the field (a page from
    before) is taken for the open move as before."""
    gid = game_in(site, "es")
    phone = httpx.Client(base_url=str(http.base_url))
    join(phone, site, gid, "1")
    page = phone.get(f"/games/{gid}/play").text
    assert re.search(r'name="move" value="1" data-shown-move', page) and 'data-move="1"' in page
    form = {"csrf": csrf(page), "key": re.findall(r'name="key" value="([^"]+)"', page)[0], "move": "1",
            "position": "H8", "word": "CASA", "score": "10"}
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid, load_lexicon(LEXICON, "es"))
        s.place_master()
        s.draw()
    before = len(site.events(gid))
    for lang in ("es", "ro", "fr", "pl", "el"):
        r = phone.post(f"/games/{gid}/slip?lang={lang}", data=form)
        assert r.status_code == 409, (lang, r.text)
        refusal = said(lang, FORM_OF_A_CLOSED_MOVE, n=1, m=2)
        assert refusal != Text(FORM_OF_A_CLOSED_MOVE, n=1, m=2).message and beside(r.text, "slip") == refusal
        assert 'value="CASA"' in r.text and re.search(r'name="move" value="2" data-shown-move', r.text)
    assert len(site.events(gid)) == before
    r = phone.post(f"/games/{gid}/slip", data={**form, "move": "2"})
    assert r.status_code == 303 and [e.payload["move"] for e in site.events(gid, "slip")] == [2]
    older = {k: v for k, v in form.items() if k != "move"}
    r = phone.post(f"/games/{gid}/slip", data={**older, "key": "an-older-page", "word": "CASO"})
    assert r.status_code == 303 and [e.payload["move"] for e in site.events(gid, "slip")] == [2, 2]


def test_fise_6_a_phone_slip_naming_the_open_move_in_other_digits_is_that_moves_not_refused_as_a_closed_ones(
        site, http):
    """The move a phone's form names is a number: ``02`` (or ``002``) sent while move 2 is open is move 2's slip,
    stored; it used to be refused as "written for move 2, which is closed; move 2 is open now", a refusal that
    contradicts itself."""
    gid = game_in(site, "es")
    phone = httpx.Client(base_url=str(http.base_url))
    join(phone, site, gid, "1")
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid, load_lexicon(LEXICON, "es"))
        s.place_master()
        s.draw()
    page = phone.get(f"/games/{gid}/play").text
    assert re.search(r'name="move" value="2" data-shown-move', page)
    form = {"csrf": csrf(page), "key": re.findall(r'name="key" value="([^"]+)"', page)[0], "move": "02",
            "position": "H8", "word": "CASA", "score": "10"}
    r = phone.post(f"/games/{gid}/slip", data=form)
    assert r.status_code == 303, r.text
    r = phone.post(f"/games/{gid}/slip", data={**form, "key": "another-press", "word": "CASO", "move": "002"})
    assert r.status_code == 303, r.text
    assert [e.payload["move"] for e in site.events(gid, "slip")] == [2, 2]


def test_fise_16_a_phone_slip_written_for_a_rack_replaced_before_it_reached_the_page_is_refused_not_stored(
        site, http):
    """A new rack for the open move (FISE-16) sets aside the slips written for the old one; a slip written for the
    old rack and pressed before the new one reached the page is the same move's, so it used to be stored as a slip
    for the new rack. The form sends the rack its page shows: refused beside the form, nothing stored."""
    gid = game_in(site, "es")
    phone = httpx.Client(base_url=str(http.base_url))
    join(phone, site, gid, "1")
    page = phone.get(f"/games/{gid}/play").text
    rack = re.findall(r'name="rack" value="([^"]*)" data-shown-rack', page)
    assert rack and re.search(r'data-rack="' + re.escape(rack[0]) + '"', page)
    form = {"csrf": csrf(page), "key": re.findall(r'name="key" value="([^"]+)"', page)[0], "move": "1",
            "rack": rack[0], "position": "H8", "word": "CASA", "score": "10"}
    with Journal(site.db, actor="arbiter") as j:
        Session(j, gid, load_lexicon(LEXICON, "es")).new_rack()
    before = len(site.events(gid))
    page = phone.get(f"/games/{gid}/play").text
    now = re.findall(r'name="rack" value="([^"]*)" data-shown-rack', page)[0]
    assert now != rack[0]  # the seed draws other letters
    for lang in ("es", "fr"):
        r = phone.post(f"/games/{gid}/slip?lang={lang}", data=form)
        assert r.status_code == 409 and beside(r.text, "slip") == said(lang, FORM_OF_A_REPLACED_RACK), r.text
        assert said(lang, FORM_OF_A_REPLACED_RACK) != FORM_OF_A_REPLACED_RACK and 'value="CASA"' in r.text
    assert len(site.events(gid)) == before
    r = phone.post(f"/games/{gid}/slip", data={**form, "rack": now})
    assert r.status_code == 303 and len(site.events(gid, "slip")) == 1


def test_fise_17_a_desk_never_types_over_a_slip_stored_for_a_closed_move(site, http):
    """After the close a result changes only by the arbiter's decision: the desk is refused before any
    confirmation, the refusal names the console's decisions card, nothing is stored; a first paper slip for the
    closed move is still typed while its collection is open (FISE-8)."""
    gid = game_in(site, "es")
    desk_login(http)
    page = f"/games/{gid}"
    with Journal(site.db, actor="desk:desk1") as j:
        s = Session(j, gid, load_lexicon(LEXICON, "es"))
        s.store_slips([Slip(1, "1", "H8", "CASA", 12)])
        s.place_master()
    stored = len(site.events(gid))
    again = {"shown": "1", "move": "1", "player": "1", "position": "H8", "word": "CASO", "score": "12"}
    r = post(http, f"{page}/desk", again, page, confirm=False)
    assert r.status_code == 422 and confirmation(r.text) is None, r.text
    refusal = said("es", "move %(move)s is closed: a slip stored for it changes only by the arbiter's decision "
                         "with a reason, on the console's Claims and corrections card", move=1)
    assert beside(r.text, "move") == f"{refusal} (FISE-17)" and "Reclamaciones y correcciones" in refusal
    assert typed(r.text, "word") == "CASO"
    # confirming it anyway (a token from elsewhere, a replayed form) changes nothing either
    r = post(http, f"{page}/desk", {**again, "replace": "1"}, page)
    assert r.status_code == 422 and len(site.events(gid)) == stored
    # a first paper slip for the closed move is still typed (FISE-8: while move 2 is played), by the form as the
    # page sends it: with the move it showed (one that does not say is refused: the console refusals' audit)
    first = {"shown": "1", "move": "1", "player": "2", "position": "H8", "word": "CASO", "score": "12"}
    assert post(http, f"{page}/desk", first, page).status_code == 303
    assert len(site.events(gid, "slip")) == 2


@pytest.mark.parametrize("choice", ["99", "x", "0"])
def test_fise_7_the_master_move_choice_is_refused_before_the_close_is_asked(site, http, choice):
    gid = game_in(site, "es")
    login(http)
    page = f"/games/{gid}"
    assert post(http, f"{page}/clock", {"action": "start"}, page).status_code == 303
    stored = len(site.events(gid))
    r = post(http, f"{page}/close", {"choice": choice}, page, confirm=False)
    assert r.status_code == 422 and confirmation(r.text) is None, r.text
    with Journal(site.db) as j:
        tied = len(Session(j, gid, load_lexicon(LEXICON, "es")).candidates())
    assert beside(r.text, "close") == said("es", "choose a tied move between 1 and %(n)s", n=tied)
    assert len(site.events(gid)) == stored
    # the first tied move is still asked about (the clock runs) and placed once confirmed
    r = post(http, f"{page}/close", {"choice": "1"}, page, confirm=False)
    assert r.status_code == 200 and confirmation(r.text), r.text


def test_an_unknown_clock_action_is_refused_in_the_games_language(site, http):
    gid = game_in(site, "es")
    login(http)
    page = f"/games/{gid}"
    stored = len(site.events(gid))
    r = post(http, f"{page}/clock", {"action": "foo"}, page)
    assert r.status_code == 422, r.text
    refusal = said("es", "%(action)s is not something a clock does: it starts, pauses, resumes or stops",
                   action="'foo'")
    assert refusal.startswith("'foo' no es algo que haga el reloj") and beside(r.text, "clock") == refusal
    assert len(site.events(gid)) == stored


def test_fise_17_the_cli_refuses_a_slip_typed_over_a_closed_moves_stored_slip_as_the_desk_does(site):
    """One rule in the format (``Session.check_slips``): the CLI's ``slips --replace`` is refused alike, and so is
    a declared score below 0; nothing stored."""
    from click.testing import CliRunner

    from arbitru.cli import cli

    gid = game_in(site, "en")
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid, load_lexicon(LEXICON, "en"))
        s.store_slips([Slip(1, "1", "H8", "CASA", 12)])
        s.place_master()
    stored = len(site.events(gid))
    runner = CliRunner()
    typed = ["duplicate", "slips", "-j", site.db, "-g", gid, "--move", "1", "--position", "H8", "--word", "CASO"]
    r = runner.invoke(cli, [*typed, "--player", "1", "--score", "12", "--replace"])
    assert r.exit_code != 0 and "move 1 is closed" in r.output and "FISE-17" in r.output, r.output
    r = runner.invoke(cli, [*typed, "--player", "2", "--score", "-5"])
    assert r.exit_code != 0 and "-5 is not a whole number from 0" in r.output, r.output
    assert len(site.events(gid)) == stored
    r = runner.invoke(cli, [*typed, "--player", "2", "--score", "12"])  # a first paper slip: typed (FISE-8)
    assert r.exit_code == 0 and len(site.events(gid, "slip")) == 2, r.output


def test_fise_6_a_trainees_score_below_0_is_refused_beside_the_score_in_the_pages_language(site, http):
    """The training page reads the declared score as every slip's is (``slips.declared_score``)."""
    r = post(http, "/train", {"rules": "fise", "lang": "es", "lexicon": LEXICON, "moves": "2"}, "/train")
    assert r.status_code == 303, r.text
    gid = r.headers["location"].rsplit("/", 1)[1]
    r = post(http, f"/train/{gid}/move", {"position": "H8", "word": "CASA", "score": "-5"}, f"/train/{gid}")
    assert r.status_code == 422, r.text
    assert beside(r.text, "score") == said("es", NOT_A_SCORE, text="'-5'", low=0, high=999_999_999)
    assert 'id="master"' not in http.get(f"/train/{gid}").text  # nothing played
