"""The arbiter's console, the slip desk, the correction review with its decisions, a refusal beside its field and
an error page of an anticipation game, over HTTP, in the game's language (Romanian) and in each language an
address asks for (``?lang=``: an arbiter or a clerk from abroad): on a game with a cancelled turn (RO-6.1), an
invalid placement, a corrected one with its penalty (RO-6.3a), a technical warning (RO-6.2d), a disciplinary
warning (RO-6.4) and two decisions (RO-6.5), none of the English these pages used to show is left, and the
translated words are there."""

from __future__ import annotations

import html

import pytest

from arbitru.messages import BEFORE_COLON, Plural, Text, gettext_for
from test_web_anticipation import play_three_turns
from web_anticipation_support import create_game, form
from web_support import login, make_site

#: what these pages showed in English on a Romanian (or any) game before they went through the catalogs
ENGLISH = (
    "has 2 placement(s); this slip has", "has 2 placements",  # the desk's hint beside a slip
    "desk:desk1",  # who typed the slip
    "classic (RO-5)",  # the variant on the console
    ">ranking.csv<",  # a link's text
    "chief arbiter",  # who decided, in the decisions list and the form
    "penalty cancel", "placement valid",  # a decision's target and action as codes
    "no player 'Nobody'",  # an error page on a game's address
    "a decision needs its reason",  # a refusal beside its field
    "log out", ">arbiter<",
)
LANGS = ("ro", "es", "fr", "pl", "el")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Each page of one game as text, by language (played once)."""
    site = make_site(tmp_path_factory.mktemp("langs"))
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    play_three_turns(site, arbiter, gid)
    desk = site.client()
    login(desk, "desk1", "desk-pass-1")
    review = f"/games/{gid}/review"
    assert form(arbiter, f"/games/{gid}/sanction", {"player": "Bo", "kind": "disciplinary", "reason": "zgomot",
                                                     "turn": "3"}, review).status_code == 303
    assert form(arbiter, f"/games/{gid}/decide", {"player": "Bo", "target": "placement", "action": "valid",
                                                   "turn": "2", "index": "1", "reason": "CALX e în supliment",
                                                   "view_turn": "2"}, review).status_code == 303
    assert form(arbiter, f"/games/{gid}/decide", {"player": "Ana", "target": "penalty", "action": "cancel",
                                                   "turn": "3", "index": "1", "reason": "iertată"},
                review).status_code == 303
    got: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        q = "" if lang == "ro" else f"lang={lang}"
        sep = "&" if q else ""
        said = {
            "console": arbiter.get(f"/games/{gid}?{q}"),
            "desk": desk.get(f"/games/{gid}/slips?turn=1{sep}{q}"),
            "review": arbiter.get(f"{review}?turn=3{sep}{q}"),
            "error": arbiter.get(f"/games/{gid}/board/Nobody?{q}"),
            # refused beside its field: a decision without its reason, sent from the page in this language
            "refusal": form(arbiter, f"/games/{gid}/decide?{q}", {"player": "Ana", "target": "total",
                                                                   "action": "adjust", "points": "5",
                                                                   "reason": ""}, f"{review}?{q}"),
        }
        assert said["error"].status_code == 404 and said["refusal"].status_code == 422
        got[lang] = {k: html.unescape(r.text) for k, r in said.items()}
    return got


@pytest.mark.parametrize("lang", LANGS)
def test_RO_6_5_the_console_desk_review_and_refusals_have_no_english_left(pages, lang):
    for page, text in pages[lang].items():
        for english in ENGLISH:
            assert english not in text, (lang, page, english)


@pytest.mark.parametrize("lang", LANGS)
def test_RO_6_5_the_console_desk_review_and_refusals_say_it_in_the_language(pages, lang):
    _ = gettext_for(lang)

    def said(message: str, **values: object) -> str:
        text = _(Text(message, **values))
        assert text != Text(message, **values), (lang, message)  # translated
        return text

    p = pages[lang]
    assert f'<html lang="{lang}">' in p["console"] and f'<html lang="{lang}">' in p["desk"]
    assert said("classic") + " (RO-5)" in p["console"]
    assert said("ranking") + " (CSV)</a>" in p["console"]
    hint = _(Text("%(expected)s; this slip has %(n)s", n=1, expected=Plural(
        "turn %(turn)s has %(n)s placement", "turn %(turn)s has %(n)s placements", n=2, turn=1)))
    assert hint in p["desk"] and "placement" not in hint, (lang, hint)  # through the catalog's plural forms
    assert said("desk %(name)s", name="desk1") in p["desk"]
    decisions = p["review"].split('id="decisions"')[1].split("</section>")[0]
    colon = BEFORE_COLON.get(lang, "") + ":"  # French: "pose : valable" with a no-break space
    assert f"{said('placement')}{colon} {_('valid')}, {said('turn')} 2" in decisions  # 'valid' is Romanian too
    assert f"{said('penalty')}{colon} {said('cancel')}, {said('turn')} 3" in decisions
    assert f"({said('chief arbiter')})" in decisions
    assert f'placeholder="{said("chief arbiter")}"' in p["review"]  # the form's default, said in the page
    assert said("a decision needs its reason (RO-6.5)") in p["refusal"]
    assert 'id="decide-error"' in p["refusal"] and f'<html lang="{lang}">' in p["refusal"]
    assert said("no player %(player)s in this game", player="'Nobody'") in p["error"]
    assert f'<html lang="{lang}">' in p["error"]


def test_RO_5_2_f_an_action_from_a_page_in_another_language_comes_back_to_it_said_in_it(tmp_path):
    """The console read in Polish (``?lang=pl``): the group read out is told in Polish after the redirect, which
    keeps the language; the forms and links of the page keep it too."""
    site = make_site(tmp_path)
    arbiter = site.client()
    login(arbiter)
    gid = create_game(site, arbiter)
    console = arbiter.get(f"/games/{gid}?lang=pl").text
    assert f'action="/games/{gid}/announce?lang=pl"' in console and f'href="/games/{gid}/review?lang=pl"' in console
    r = form(arbiter, f"/games/{gid}/announce?lang=pl", {}, f"/games/{gid}?lang=pl")
    assert r.status_code == 303 and r.headers["location"].startswith(f"/games/{gid}?lang=pl&done=")
    page = html.unescape(arbiter.get(r.headers["location"]).text)
    told = gettext_for("pl")(Text("group %(n)s read out", n=1))
    assert '<html lang="pl">' in page and told in page and told != "group 1 read out"
    assert "group 1 read out" not in page
    # without ?lang= the console stays in the game's language, and so does what it tells
    r = form(arbiter, f"/games/{gid}/announce", {}, f"/games/{gid}")
    page = html.unescape(arbiter.get(r.headers["location"]).text)
    assert '<html lang="ro">' in page and gettext_for("ro")(Text("group %(n)s read out", n=2)) in page
