"""The new-game forms (duplicate ``/games/new``, anticipation ``/anticipation/new``) refused: every field shows
again what the arbiter typed (chosen options, ticked boxes, the player lists), and the refusal is said beside the
field it concerns, in the page's language, nothing created. Over HTTP with the app."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from arbitru.messages import Text, gettext_for
from arbitru.textinput import MAX_INT, REASONS
from arbitru.web.forms import MAX_FIELD
from test_web_anticipation import arbiter, site  # noqa: F401  (the web tests' fixtures)
from web_support import LEXICON, Site, post


class Fields(HTMLParser):
    """What each field of a page's first ``<form method="post">`` under ``action`` holds, as a browser sends it: a
    text's value, a ticked box's or chosen radio's value, a select's chosen option (else its first), a textarea's
    text."""

    def __init__(self, action: str) -> None:
        super().__init__(convert_charrefs=True)
        self.action, self.inside, self.done = action, False, False
        self.values: dict[str, str] = {}
        self.select: str | None = None
        self.first: str | None = None
        self.area: str | None = None
        self.option: tuple[str | None, bool] | None = None  # an option open: its value (None: its text), chosen

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and not self.done and a.get("action", "").startswith(self.action):
            self.inside = True
        if not self.inside:
            return
        name = a.get("name", "")
        if tag == "input" and name and name != "csrf":
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.values[name] = a.get("value", "on")
            else:
                self.values[name] = a.get("value", "")
        elif tag == "select":
            self.select, self.first = name, None
        elif tag == "option" and self.select is not None:
            self.option = (a.get("value"), "selected" in a)
            if "value" not in a:
                return  # its value is its text
            self.chosen(*self.option)
        elif tag == "textarea":
            self.area = name
            self.values[name] = ""

    def chosen(self, value: str, selected: bool) -> None:
        assert self.select is not None
        if self.first is None:
            self.first = value
            self.values.setdefault(self.select, value)
        if selected:  # the last option marked selected is the one chosen, as in a browser
            self.values[self.select] = value

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "textarea":
            self.area = None
        elif tag == "form" and self.inside:
            self.inside, self.done = False, True

    def handle_data(self, data: str) -> None:
        if self.area is not None:
            self.values[self.area] += data
        elif self.option is not None and self.option[0] is None and self.select is not None:
            self.chosen(data.strip(), self.option[1])
            self.option = None


def fields(page: str, action: str) -> dict[str, str]:
    parser = Fields(action)
    parser.feed(page)
    parser.close()
    return parser.values


def drawn_action(page: str, path: str) -> str:
    """Where the page's form to ``path`` sends it, as drawn (the language its reader asked for kept)."""
    m = re.search(rf'<form method="post" action="({re.escape(path)}[^"]*)"', page)
    assert m, page[-2000:]
    return html.unescape(m.group(1))


def beside(page: str, field: str) -> str:
    m = re.search(rf'id="{field}-error">([^<]*)<', page)
    assert m, page[-3000:]
    return html.unescape(m.group(1))


def said(lang: str, message: str, **values: object) -> str:
    return gettext_for(lang)(Text(message, **values))


def games(site: Site) -> int:  # noqa: F811
    from arbitru.journal.store import Journal

    with Journal(site.db) as j:
        return len(j.games())


#: a duplicate game's form as the arbiter fills it: every field away from its default
DUPLICATE = {"title": "Cupa Iernii", "rules": "greek", "lang": "ro", "lexicon": LEXICON, "moves": "12",
             "seconds": "150", "bonus": "manual", "racks": "hand", "seed": "tare", "variant": "joker",
             "new_order": "vowels-first", "players": "1,Ana,1\n2,Bo,1\n3,Cleo,2"}
WHOLE = "%(text)s: a whole number from %(low)s to %(high)s"


@pytest.mark.parametrize(("lang", "change", "field", "message"), [
    ("ro", {"seconds": "-5"}, "seconds", Text(WHOLE, text="'-5'", low=1, high=MAX_INT)),
    ("fr", {"seconds": "9" * 30}, "seconds", Text(WHOLE, text=repr("9" * 30), low=1, high=MAX_INT)),
    ("el", {"moves": "0"}, "moves", Text(WHOLE, text="'0'", low=1, high=MAX_INT)),
    # a Greek game's time per move outside its rule's (GR-5C: 2 to 3 minutes), beside the seconds
    ("ro", {"seconds": "90"}, "seconds", Text("GR-5C: time per move is 2 to 3 minutes, not %(seconds)s s",
                                              seconds=90)),
    ("pl", {"title": "T" * 300}, "title", Text(REASONS[0], n=MAX_FIELD)),  # a name too long, at the form's door
    ("es", {"players": "1,Ana\n1,Bo"}, "players", Text("%(source)s: player number %(numbers)s appears twice",
                                                       source=Text("players"), numbers="1")),
    ("en", {"lexicon": "../../etc/words"}, "lexicon", None),  # a word list no page offers
])
def test_new_duplicate_game_refused_keeps_every_field_typed_and_says_why_beside_it(
        site, arbiter, lang, change, field, message):  # noqa: F811
    sent = {**DUPLICATE, **change}
    shown = _refused(site, arbiter, "/games/new", lang, sent, field, message)
    typed = {k: v[:MAX_FIELD] if k == "title" else v for k, v in sent.items() if k != "lexicon" or field != k}
    assert {k: shown.get(k) for k in typed} == typed


def _refused(at: Site, staff: Any, path: str, lang: str, sent: dict[str, str], field: str, message: Text | None
             ) -> dict[str, str]:
    """The form at ``path`` sent as ``sent``: refused beside ``field`` alone (with ``message`` in ``lang``, when
    given), in that language, no game made; the fields the refusal's page shows again."""
    page = f"{path}?lang={lang}"
    before = games(at)
    r = post(staff, drawn_action(staff.get(page).text, path), sent, page, confirm=False)
    assert r.status_code in (400, 422), r.status_code
    assert f'<html lang="{lang}">' in r.text
    refusal = beside(r.text, field)
    if message is not None:
        assert refusal == said(lang, message.message, **message.values)
    assert len(re.findall(r'class="error"', r.text)) == 1  # beside that field alone
    assert games(at) == before
    return fields(r.text, path)


#: an anticipation game's form as the arbiter fills it: every field away from its default
ANTICIPATION = {"variant": "avocalic", "lexicon": LEXICON, "blank_counts": "vowel", "no_clock": "1", "source": "seed",
                "seed": "4242", "seating": "ratings", "players": "1,1500,CSM\n2,1400,Rapid\n3,1300,CSM",
                "groups": ""}


@pytest.mark.parametrize(("lang", "change", "field", "message"), [
    ("ro", {"seed": "abc"}, "seed", Text("the seed is a whole number (at most 12 digits)")),
    ("fr", {"seed": "7" * 300}, "seed", Text(REASONS[0], n=MAX_FIELD)),  # at the form's door
    ("pl", {"players": "1,x"}, "players", None),
])
def test_new_anticipation_game_refused_keeps_every_field_typed_and_says_why_beside_it(
        site, arbiter, lang, change, field, message):  # noqa: F811
    sent = {**ANTICIPATION, **change}
    shown = _refused(site, arbiter, "/anticipation/new", lang, sent, field, message)
    typed = {k: v[:MAX_FIELD] for k, v in sent.items()}
    assert {k: shown.get(k) for k in typed} == typed
