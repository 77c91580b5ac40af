"""An anticipation slip sent twice is one slip, and a key never hides a different slip (RO-3.3: a slip per turn),
through the web: the API over real HTTP (uvicorn on a real SQLite journal) answers the same slip sent again with
its ``Idempotency-Key`` with the first receipt (its ``seq``) and another slip with that key 422 ``field: "key"``,
``stored: false``, the journal unchanged; the phone's slip form carries a key per rendering (``forms.new_slip_key``),
so the form sent twice is one slip, the page after a stored slip has a new key, the stale form sent with other
fields and a key that is none are refused beside the form in the page's language. The core:
``test_anticipation_keys.py``.
"""

from __future__ import annotations

import re

import httpx
import pytest
from markupsafe import escape

from arbitru.formats.receipt import KEY_FORM, KEY_REUSED
from arbitru.messages import Text, gettext_for
from arbitru.textinput import LIMITS
from arbitru.web.forms import STALE_FORM
from test_web_anticipation import lot, read_all
from web_anticipation_support import create_game
from web_server import running_server
from web_support import csrf, join, login, make_site

# --- the API, over real HTTP -----------------------------------------------------------------------------------


TURN_1 = {"turn": 1, "placements": [{"position": "H7", "word": "AL", "score": 4}], "turn_total": 4}


@pytest.fixture
def site(tmp_path):  # type: ignore[no-untyped-def]
    return make_site(tmp_path)


@pytest.fixture
def hall(site):  # type: ignore[no-untyped-def]
    """A game whose groups the arbiter read out and turn 1 drawn: its id."""
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    read_all(site, arbiter, gid)
    lot(arbiter, gid, 1, 2)
    return gid


def test_RO_4_4_every_refusal_at_the_anticipation_api_slip_door_says_stored_false(site, hall):
    """Whatever refuses a slip (its shape, its key, the code, the turn), the answer says ``"stored": false`` and
    nothing is stored."""
    gid = hall
    url = f"/api/games/{gid}/slips"
    mine = {"Authorization": f"Bearer {site.code(gid, 'Ana')}"}
    with running_server(site.db) as base, httpx.Client(base_url=base, timeout=30) as c:
        journal = len(site.events(gid))
        refusals = [
            (401, c.post(url, json=TURN_1)),
            (400, c.post(url, json={**TURN_1, "turn": 0}, headers=mine)),
            (400, c.post(url, json={**TURN_1, "placements": "H7 AL 4"}, headers=mine)),
            (400, c.post(url, json={**TURN_1, "placements": [{"position": "H" * 300}]}, headers=mine)),
            (400, c.post(url, json={**TURN_1, "turn_total": [4]}, headers=mine)),
            (400, c.post(url, json=TURN_1, headers={**mine, "Idempotency-Key": "a key"})),
            (403, c.post(url, json={**TURN_1, "player": "Bob"}, headers=mine)),
            (409, c.post(url, json={**TURN_1, "turn": 5}, headers=mine)),  # its lot not drawn
            (401, c.post(url, json=TURN_1, headers={"Authorization": "Bearer NOT-A-CODE"})),
        ]
        for status, r in refusals:
            assert r.status_code == status and r.json()["stored"] is False and r.json()["error"], r.text
        assert len(site.events(gid)) == journal


def test_RO_3_3_the_api_refuses_a_key_sent_with_another_slip_422_and_answers_a_resend_with_its_first_seq(site, hall):
    gid = hall
    headers = {"Authorization": f"Bearer {site.code(gid, 'Ana')}", "Idempotency-Key": "ana-turn-1"}
    url = f"/api/games/{gid}/slips"
    with running_server(site.db) as base, httpx.Client(base_url=base, timeout=30) as c:
        first = c.post(url, json=TURN_1, headers=headers)
        assert first.status_code == 201, first.text
        journal = [(e.seq, e.kind, e.payload) for e in site.events(gid)]
        again = c.post(url, json=TURN_1, headers=headers)
        assert again.status_code == 201 and again.json() == first.json()  # the first seq, received, replaces
        seq = first.json()["seq"]
        others = [
            {**TURN_1, "turn": 2},
            {**TURN_1, "placements": [{"position": "H7", "word": "LA", "score": 4}]},
            {**TURN_1, "placements": [*TURN_1["placements"], {"position": "7G", "word": "BAT", "score": 21}]},
            {**TURN_1, "turn_total": 5},
            {**TURN_1, "note": "Verificare"},
        ]
        for other in others:
            r = c.post(url, json=other, headers=headers)  # said in the game's language, Romanian
            assert r.status_code == 422, (other, r.text)
            assert r.json() == {"error": gettext_for("ro")(Text(KEY_REUSED, seq=seq)), "field": "key",
                                "stored": False}
        r = c.post(f"{url}?lang=en", json={**TURN_1, "turn_total": 5}, headers=headers)
        assert r.status_code == 422 and r.json()["error"] == Text(KEY_REUSED, seq=seq)
        assert [(e.seq, e.kind, e.payload) for e in site.events(gid)] == journal
        new = c.post(url, json={**TURN_1, "turn_total": 5}, headers={**headers, "Idempotency-Key": "ana-turn-1b"})
        assert new.status_code == 201 and new.json()["replaces"] == seq


# --- the phone's form ------------------------------------------------------------------------------------------


def key_of(page: str) -> str:
    """The idempotency key the slip form of the phone's page carries."""
    found = re.findall(r'<form method="post" action="/games/\w+/slip[^"]*" class="antslip">\s*'
                       r'<input type="hidden" name="key" value="([^"]+)">', page)
    assert len(found) == 1, "the slip form carries one key"
    return str(found[0])


def error(page: str, field: str) -> str:
    return page.split(f'id="{field}-error">')[1].split("</p>")[0]


def test_RO_3_3_the_phone_form_sent_twice_is_one_slip_and_the_page_after_it_has_a_new_key(site, hall):
    gid = hall
    phone = site.client()
    join(phone, site, gid, "Ana")
    page = phone.get(f"/games/{gid}/play").text
    key = key_of(page)
    assert key_of(phone.get(f"/games/{gid}/play").text) != key  # one per rendering
    form = {"csrf": csrf(page), "key": key, "turn": "1", "position1": "H7", "word1": "AL", "score1": "4",
            "total": "4"}
    first = phone.post(f"/games/{gid}/slip", data=form)
    assert first.status_code == 303
    again = phone.post(f"/games/{gid}/slip", data=form)  # a double tap, or its answer lost: sent again
    assert again.status_code == 303 and again.headers["location"] == first.headers["location"]
    stored = site.events(gid, "slip")
    assert len(stored) == 1 and stored[0].payload["key"] == key and stored[0].actor == "player:Ana"
    after = phone.get(first.headers["location"]).text
    assert "tur 1:" in after and key_of(after) != key  # the next slip is a new one: a new key
    # the stale form sent again with other fields: refused beside the form, in the page's language
    for lang, query in (("ro", ""), ("es", "?lang=es")):
        r = phone.post(f"/games/{gid}/slip{query}", data={**form, "word1": "LA"})
        assert r.status_code == 422
        # said as a player reads it, who sees no key (forms.STALE_FORM), not as the API's sender (KEY_REUSED)
        assert error(r.text, "key") == str(escape(gettext_for(lang)(Text(STALE_FORM, seq=stored[0].seq))))
        assert key_of(r.text) != key
    # the new page's key hands in a new slip, which replaces the first
    r = phone.post(f"/games/{gid}/slip", data={**form, "key": key_of(after), "word1": "LA"})
    assert r.status_code == 303 and len(site.events(gid, "slip")) == 2


def test_RO_3_3_a_phone_key_that_is_none_is_refused_beside_the_form_in_the_pages_language(site, hall):
    gid = hall
    phone = site.client()
    join(phone, site, gid, "Ana")
    page = phone.get(f"/games/{gid}/play").text
    form = {"csrf": csrf(page), "turn": "1", "position1": "H7", "word1": "AL", "score1": "4", "total": "4"}
    for key in ("two words", "x" * (LIMITS["key"] + 1), "clé"):
        for lang, query in (("ro", ""), ("fr", "?lang=fr")):
            r = phone.post(f"/games/{gid}/slip{query}", data={**form, "key": key})
            assert r.status_code == 422, (key, lang)
            said = gettext_for(lang)(Text(KEY_FORM, n=LIMITS["key"]))
            assert said != Text(KEY_FORM, n=LIMITS["key"]) and error(r.text, "key") == str(escape(said))
    assert site.events(gid, "slip") == []
    assert phone.post(f"/games/{gid}/slip", data=form).status_code == 303  # no key: stored as before


def test_RO_3_3_a_phone_slip_refused_for_its_stale_key_keeps_what_the_player_typed_with_a_new_key(site, hall):
    """The stale form (its answer lost, then corrected) is refused beside the form; what the player typed stays in
    it, under a new key, so that handing it in again is one tap (a phone against the clock retypes nothing)."""
    gid = hall
    phone = site.client()
    join(phone, site, gid, "Ana")
    page = phone.get(f"/games/{gid}/play").text
    form = {"csrf": csrf(page), "key": key_of(page), "turn": "1", "position1": "H7", "word1": "AL", "score1": "4",
            "total": "4"}
    assert phone.post(f"/games/{gid}/slip", data=form).status_code == 303
    other = {**form, "word1": "LA", "position2": "7G", "word2": "BAT", "score2": "21", "total": "25",
             "note": "Verificare"}
    r = phone.post(f"/games/{gid}/slip", data=other)
    assert r.status_code == 422 and error(r.text, "key")
    for name in ("position1", "word1", "score1", "position2", "word2", "score2", "total", "note"):
        assert re.search(rf'name="{name}" value="{re.escape(other[name])}"', r.text), name
    assert len(site.events(gid, "slip")) == 1  # nothing stored
    again = {**other, "csrf": csrf(r.text), "key": key_of(r.text)}  # handed in again from the page as it is
    assert phone.post(f"/games/{gid}/slip", data=again).status_code == 303
    stored = site.events(gid, "slip")
    assert len(stored) == 2 and stored[1].payload["key"] == again["key"]


def test_RO_3_3_and_FISE_6_an_idempotency_key_header_sent_empty_is_refused_400_nothing_stored(site, hall):
    """An ``Idempotency-Key`` header sent empty (or blank: HTTP strips its spaces) is no key: its sender believes a
    retry safe, yet a slip sent twice without a key is two slips. Refused 400 ``field: key``, nothing stored, in
    both formats; without the header a slip is stored as ever."""
    from web_support import make_game

    dup = make_game(site, seconds=600)
    sent = ((f"/api/games/{hall}/slips", TURN_1, site.code(hall, "Ana")),
            (f"/api/games/{dup}/slips", {"move": 1, "position": "H8", "word": "ABC", "score": 10},
             site.code(dup, "1")))
    c = site.client()
    for url, slip, code in sent:
        gid = url.split("/")[3]
        for empty in ("", " ", "  "):
            r = c.post(url, json=slip, headers={"Authorization": f"Bearer {code}", "Idempotency-Key": empty})
            assert r.status_code == 400, (url, repr(empty), r.text)
            assert r.json()["field"] == "key" and "Idempotency-Key" in r.json()["error"]
            assert site.events(gid, "slip") == []
        r = c.post(url, json=slip, headers={"Authorization": f"Bearer {code}"})
        assert r.status_code == 201 and len(site.events(gid, "slip")) == 1


def test_FISE_6_the_duplicate_phone_form_sent_again_with_other_fields_is_refused_as_a_player_reads_it(site):
    """The duplicate phone's stale form (handed in, then corrected and sent again with its key) is refused beside
    the form in the page's language, said as the player reads it (he sees no key), what he typed kept under a new
    key; sent twice as it was, it is one slip."""
    from web_support import make_game

    gid = make_game(site, seconds=600)
    phone = site.client()
    join(phone, site, gid, "1")
    page = phone.get(f"/games/{gid}/play").text
    key = re.findall(r'name="key" value="([^"]+)"', page)[0]
    form = {"csrf": csrf(page), "key": key, "position": "H8", "word": "ABC"}
    assert phone.post(f"/games/{gid}/slip", data=form).status_code == 303
    assert phone.post(f"/games/{gid}/slip", data=form).status_code == 303
    stored = site.events(gid, "slip")
    assert len(stored) == 1
    for lang in ("ro", "fr", "pl", "el", "es"):
        r = phone.post(f"/games/{gid}/slip?lang={lang}", data={**form, "word": "ABD"})
        assert r.status_code == 422, lang
        said = gettext_for(lang)(Text(STALE_FORM, seq=stored[0].seq))
        assert said != Text(STALE_FORM, seq=stored[0].seq) and error(r.text, "key") == str(escape(said))
        assert 'name="word"' in r.text and 'value="ABD"' in r.text
        assert re.findall(r'name="key" value="([^"]+)"', r.text)[0] != key
    assert len(site.events(gid, "slip")) == 1
