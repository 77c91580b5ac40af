"""The console grid's server find (``?find=`` on ``/games/{id}`` and ``/games/{id}/grid``) at a national game,
asked hostile texts: markup that would close the find box's attribute, a percent-encoded NUL, bytes that are not
UTF-8, 10 KB, unicode: always written as text, cut at ``views.FIND_LONGEST``; a desk finds as the arbiter does; a
stranger and a player's phone get no grid at all. Real HTTP (ASGI) over a real journal."""

from __future__ import annotations

from typing import Any

from arbitru.web import views
from test_web_grid_cap import capped, national, rows  # noqa: F401  (the capped grid's fixture)
from test_web_http import arbiter, site  # noqa: F401  (the web tests' fixtures)
from web_support import Site, join, login, post

HOSTILE = ('"><script>alert(1)</script>', "' autofocus onfocus='alert(1)", "&amp;lt;", "x" * 10_000, "ΑΒΓ ß ﬁ İ")


def test_fise_8_a_hostile_find_is_text_for_the_arbiter_and_a_desk_and_no_grid_for_others(
        site: Site, arbiter: Any, capped: None) -> None:  # noqa: F811
    gid = national(site)
    assert post(arbiter, "/desks", {"name": "desk1", "password": "desk-pass-1"}, "/").status_code == 303  # type: ignore[attr-defined]
    desk = site.client()
    login(desk, "desk1", "desk-pass-1")
    for client in (arbiter, desk):
        for find in HOSTILE:
            for page in (f"/games/{gid}", f"/games/{gid}/grid"):
                r = client.get(page, params={"find": find})
                assert r.status_code == 200, (page, find[:20])
                assert "<script>alert" not in r.text and "onfocus='" not in r.text
                assert rows(r.text) == [] and "<b>7 in, 5 missing</b>" in r.text
                note = r.text.split('id="grid-note">')[1].split("</p>")[0]
                assert note.startswith("0 players found for “") and len(note) < views.FIND_LONGEST + 80
            box = client.get(f"/games/{gid}", params={"find": HOSTILE[0]}).text.split('id="grid-filter"')[1]
            assert box.split(">")[0].endswith('hx-sync="#grid:replace"')  # the attribute was not closed early
            assert 'value="&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in box
        # a NUL, a lone surrogate's bytes, a byte that is not UTF-8: shown raw and flagged, or replaced; never a 500
        for query in ("find=%00", "find=%ED%A0%80", "find=%FF", "find=Kira%00"):
            for page in (f"/games/{gid}", f"/games/{gid}/grid"):
                r = client.get(f"{page}?{query}")
                assert r.status_code == 200 and "\x00" not in r.text, (page, query)
                assert rows(r.text) == [], (page, query)
        # what a desk finds is what the arbiter finds
        assert rows(client.get(f"/games/{gid}/grid", params={"find": "kira"}).text) == ["11"]
    stranger = site.client()
    phone = site.client()
    join(phone, site, gid, "1")
    for client, status in ((stranger, 401), (phone, 403)):
        for page in (f"/games/{gid}", f"/games/{gid}/grid"):
            r = client.get(page, params={"find": "kira"})
            assert r.status_code == status, page
            assert 'id="slip-' not in r.text and "Kira" not in r.text and "grid-note" not in r.text, page


def test_fise_8_the_servers_find_splits_words_where_the_pages_find_does() -> None:
    """app.js's gridFilter splits a row's words and the find text at JavaScript's ``\\s`` (a no-break space, an
    em space, U+FEFF, a zero-width no-break space a pasted name may carry), not at Python's ``str.split``
    whitespace (which also splits at U+001C-U+001F and U+0085, and not at U+FEFF): the server's find
    (:func:`views.found`) finds the rows the page's own find shows."""
    assert views.found("1 \ufeffAna Pop table 20", "ana")  # the page's find shows Ana
    assert views.found("1 Ana Pop table 20", "\ufeff")  # nothing but a space asked: every row, as on the page
    assert views.found("1 Ana\u2003Pop\u00a0table 20", "pop table 20")
    assert not views.found("1 Ana\x85Pop table 20", "pop")  # one word to JavaScript
    assert not views.found("1 Ana Pop table 20", "ana\x1fpop")
    rows_ = [{"player": views.Player(str(n), name, "20"), "slip": None, "others": [], "plays": True}
             for n, name in enumerate(("\ufeffAna Pop", "Bo"), 1)]
    assert views.grid_view(rows_, "\ufeff").note is None  # an empty find: no note, as the page says none
    view = views.grid_view(rows_, "\ufeffana\ufeff")
    assert [r["player"].number for r in view.rows] == ["1"]
    assert str(view.note) == "1 player found for “ana”."
