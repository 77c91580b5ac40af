"""A phone's own lines (:mod:`arbitru.web.phone_lines`) escape every value exactly as the templates did before they
were drawn cheaper (a value with nothing to escape passed as it is, the receipt's words said once): the reference
below is the escaping of the lines before that change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup, escape

from arbitru.formats.duplicate.game import Session
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import LANGUAGES, gettext_for
from arbitru.textinput import INVISIBLE, shown_raw
from arbitru.web import phone_lines
from web_support import LEXICON, csrf, make_game, make_site, own_lines, phone_after_a_close

#: characters the escaping and the raw showing of a stored text turn on: HTML's, control characters (NUL, C1's
#: U+0085), line ends, the invisible ones, a lone surrogate (an older journal's undecodable byte)
_HOSTILE = "&<>\"'\x00\t\n\r\x0b\x1f\x7f\x85\x9f\ud800\udcff\u00a0é\u0219" + INVISIBLE.replace("-", "")
texts = st.text(alphabet=st.sampled_from(_HOSTILE) | st.characters(codec=None, categories=None), max_size=30)


def _old_e(value: Any) -> Markup:
    """phone_lines._e before it passed a text with nothing to escape as it is (commit acf5b5e)."""
    return escape(shown_raw(value) if isinstance(value, str) else value)


@settings(max_examples=400, deadline=None)
@given(st.one_of(texts, texts.map(Markup), st.integers(), st.none(), st.booleans()))
def test_a_phones_value_is_escaped_as_before(value: Any) -> None:
    assert str(phone_lines._e(value)) == str(_old_e(value))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(LANGUAGES)), texts, st.integers(min_value=0, max_value=10**9))
def test_a_phones_receipt_line_is_said_and_escaped_as_before(lang: str, time: str, seq: int) -> None:
    message = "Received %(time)s UTC (no. %(seq)s)"
    _ = gettext_for(lang)
    words = phone_lines.Words(_, lang)
    words("move")  # other words said first share the same cache
    new = phone_lines._e(words.raw(message) % {"time": time, "seq": seq})
    assert str(new) == str(_old_e(_(message, time=time, seq=seq)))
    # said twice: the same
    assert str(phone_lines._e(words.raw(message) % {"time": time, "seq": seq})) == str(new)


def test_fise_5_a_hostile_players_name_on_the_phone_is_escaped_alike_on_the_page_and_its_live_part(
        tmp_path: Path) -> None:
    """A name with a script, both quotes and an ampersand: the page and its live part draw the same lines, the
    name written as text (never markup), the receipt and the verdicts' table in the player's language."""
    name = "<script>alert(\"x\")</script> O'Hara & <b>"
    site = make_site(tmp_path)
    gid, phone, _ = phone_after_a_close(site, name)
    for lang in ("en", "fr", "ro"):
        page = phone.get(f"/games/{gid}/play?lang={lang}").text
        live = phone.get(f"/games/{gid}/play/live?lang={lang}").text
        assert own_lines(page) == live.strip()
        assert str(escape(name)) in live
        assert "<script" not in live and "O'Hara" not in live
        assert 'id="verdicts"' in live and 'id="receipt"' in live


def test_fise_5_a_replaced_and_a_late_slip_draw_the_same_receipt_on_the_page_and_its_live_part_in_every_language(
        tmp_path: Path) -> None:
    """The receipt's line said once per language (``Words.raw``), the late slip kept apart beside it (FISE-5):
    the page and its live part draw the same bytes, in each of the pages' languages, before and after the close."""
    site = make_site(tmp_path)
    gid = make_game(site, players=(("07", "Zoë \"Z\" d'Arc"), ("7", "Bo & Co")))
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(LEXICON, "en")
        good = [c.describe(s.game.rules.notation).split(" ") for c in s.candidates()[:2]]
        s.add_slips([Slip(1, "07", good[0][0], good[0][1], int(good[0][2])), Slip(1, "7", "A1", "ZZ", 3)])
        s.add_slips([Slip(1, "07", good[1][0], good[1][1], None, late=True)], replace=True)
    phone = site.client()
    token = csrf(phone.get(f"/games/{gid}/play").text)
    assert phone.post(f"/games/{gid}/join", data={"csrf": token, "code": site.code(gid, "07")}).status_code == 303

    def same_in_every_language() -> None:
        for lang in sorted(LANGUAGES):
            page = phone.get(f"/games/{gid}/play?lang={lang}").text
            live = phone.get(f"/games/{gid}/play/live?lang={lang}").text
            assert own_lines(page) == live.strip(), lang
            assert "Zoë &#34;Z&#34; d&#39;Arc" in live and 'id="receipt"' in live and "aside-note" in live, lang
            assert "ZZ" not in live and "Bo &amp; Co" not in live, lang

    same_in_every_language()
    with Journal(site.db, actor="arbiter") as j:
        s = Session(j, gid)
        s.lexicon = load_lexicon(LEXICON, "en")
        s.place_master()
        s.close_collection()
    same_in_every_language()
