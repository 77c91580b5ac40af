"""Every refusal on the duplicate console beside its own form, in the page's language, nothing stored (the audit of
the console's refusals), over HTTP with the app:

- a decision's reason longer than a decision keeps (FISE-17) is refused beside the decision form, what the arbiter
  typed shown again, never a page with the refusal nowhere; a reason a decision keeps is not refused at the door;
- a reversal that does not say which decision it reverses is refused saying so (never "event None");
- a desk's slip for a closed move sent by a form that does not say which move it showed (FISE-8) is refused as a
  stale page or an incomplete form, never asked about "move —"; a slip with no move typed lands in the move its
  form showed, never in the next one;
- a refused console form gives back the grid's find text; a field whose name several console forms share is
  refused beside the form it was sent with.
"""

from __future__ import annotations

import html
import re
import time
from html.parser import HTMLParser

import pytest

from arbitru.formats.duplicate import decisions
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import Text, gettext_for
from arbitru.textinput import REASONS
from test_web_anticipation import arbiter, desk_client, site  # noqa: F401  (the web tests' fixtures)
from test_web_grid_cap import capped, national, rows  # noqa: F401  (a national game, its grid capped)
from web_support import LEXICON, Site, confirmation, csrf, post

PLAYERS = (("1", "Ana"), ("2", "Bo"), ("3", "Cleo"))
STALE = ("this form does not say which move it showed: the page is stale or the form incomplete; reload the page "
         "and type the slip again")
WHICH = "say which decision is reversed: its no. in the list of decisions"


def game_in(site: Site, lang: str, *, collected: bool) -> tuple[str, str]:  # noqa: F811
    """A FISE game in ``lang`` whose move 1 is closed (its master move placed) and move 2 open; with
    ``collected``, move 1's collection closed too: (its id, the position and word of move 1's master move)."""
    lex = load_lexicon(LEXICON, lang)
    settings = Settings(ruleset("fise", moves=5, seconds=60), lang, LEXICON, seed="7")
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player(n, name) for n, name in PLAYERS])
        s.draw()
        s.clock("start", time.time() - 100)
        s.clock("stop", time.time())
        s.place_master()
        s.draw()
        if collected:
            s.close_collection(1)
        master = s.game.moves[0].master
        assert master is not None
        return s.id, f"{master.placement.coord.format()} {s.game.alphabet.format(master.placement.word)}"


def beside(page: str, where: str) -> str:
    """The refusal the page shows at ``id="WHERE-error"``, unescaped."""
    m = re.search(rf'id="{where}-error">([^<]*)<', page)
    assert m, page[-3000:]
    return html.unescape(m.group(1))


def value(page: str, form_class: str, name: str) -> str:
    """The value of field ``name`` of the page's form of class ``form_class``."""
    form = page[page.index(f'class="{form_class}"'):]
    form = form[: form.index("</form>")]
    m = re.search(rf'name="{name}"[^>]*value="([^"]*)"', form)
    assert m, (name, form[:2000])
    return html.unescape(m.group(1))


def found(page: str) -> str:
    """The text the console's find box holds."""
    m = re.search(r'id="grid-filter"[^>]*value="([^"]*)"', page)
    assert m, page[-3000:]
    return html.unescape(m.group(1))


def said(lang: str, message: str, **values: object) -> str:
    return gettext_for(lang)(Text(message, **values))


def events(site: Site, gid: str) -> int:  # noqa: F811
    return len(site.events(gid))


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_FISE_17_a_reason_longer_than_a_decision_keeps_is_refused_beside_the_decision_form_typed_kept(
        site, arbiter, lang):  # noqa: F811
    gid, master = game_in(site, lang, collected=True)
    page = f"/games/{gid}"
    position, word = master.split(" ")
    reason = "la papeleta dice " * 300  # 5,100 characters pasted from a report
    sent = {"move": "1", "player": "2", "action": "slip", "position": position, "word": word, "score": "12",
            "rule": "GR-5D", "reason": reason, "find": "Bo"}
    before = events(site, gid)
    r = post(arbiter, f"{page}/decide", sent, page, confirm=False)
    # the console again, the refusal beside the decision form in the page's language; never a confirmation
    assert r.status_code == 400 and confirmation(r.text) is None and f'<html lang="{lang}">' in r.text, r.status_code
    assert beside(r.text, "decide") == said(lang, REASONS[0], n=decisions.MAX_REASON)
    # what the arbiter typed, shown again to be shortened rather than typed again
    for name in ("move", "player", "position", "word", "score"):
        assert value(r.text, "decide", name) == sent[name], name
    assert value(r.text, "decide", "reason") == reason.strip()[: decisions.MAX_REASON]
    assert '<option value="GR-5D" selected>' in r.text
    assert found(r.text) == "Bo"  # the grid's find box, as it was
    assert events(site, gid) == before and not site.events(gid, "decision")


def test_FISE_17_a_reason_a_decision_keeps_is_not_refused_at_the_door(site, arbiter):  # noqa: F811
    """A decision keeps a reason of :data:`decisions.MAX_REASON` characters: the form's door took 200 only."""
    gid, master = game_in(site, "es", collected=True)
    page = f"/games/{gid}"
    position, word = master.split(" ")
    reason = ("r" * 9 + " ") * (decisions.MAX_REASON // 10)
    assert len(reason.strip()) == decisions.MAX_REASON - 1
    sent = {"move": "1", "player": "2", "action": "slip", "position": position, "word": word, "reason": reason}
    assert post(arbiter, f"{page}/decide", sent, page).status_code == 303
    (d,) = site.events(gid, "decision")
    assert d.payload["reason"] == reason.strip()


@pytest.mark.parametrize("lang", ["es", "el"])
def test_FISE_17_a_reversal_that_does_not_say_which_decision_is_refused_saying_so_beside_the_form(
        site, arbiter, lang):  # noqa: F811
    gid, master = game_in(site, lang, collected=True)
    page = f"/games/{gid}"
    position, word = master.split(" ")
    taken = {"move": "1", "player": "2", "action": "slip", "position": position, "word": word,
             "reason": "read again"}
    assert post(arbiter, f"{page}/decide", taken, page).status_code == 303
    before = events(site, gid)
    for sent in ({"action": "reverse", "reason": "wrong slip", "rule": "FISE-17"},
                 {"action": "reverse", "reverses": "", "reason": "wrong slip"}):
        r = post(arbiter, f"{page}/decide", sent, page, confirm=False)
        assert r.status_code == 422 and confirmation(r.text) is None, r.status_code
        assert beside(r.text, "decide") == said(lang, WHICH) != WHICH
        assert "None" not in beside(r.text, "decide")
    assert events(site, gid) == before and len(site.events(gid, "decision")) == 1


@pytest.mark.parametrize("lang", ["ro", "fr"])
def test_FISE_8_a_desk_slip_for_a_closed_move_from_a_form_that_does_not_say_what_it_showed_is_refused(
        site, arbiter, lang):  # noqa: F811
    """Never a confirmation naming move "—": the page is stale or the form incomplete, said beside the desk form;
    nothing stored. The form as the page sends it (``shown``) is asked and stored as before."""
    gid, _master = game_in(site, lang, collected=False)  # move 1 closed, its paper slips being typed
    page = f"/games/{gid}"
    desk = desk_client(site, arbiter)
    slip = {"player": "2", "position": "H8", "word": "AB", "score": "4"}
    before = events(site, gid)
    for sent in ({**slip, "move": "1"}, {**slip, "move": "1", "shown": ""}, slip, {**slip, "shown": "x"}):
        r = post(desk, f"{page}/desk", sent, page, confirm=False)
        assert r.status_code == 422 and confirmation(r.text) is None, (sent, r.status_code)
        assert beside(r.text, "desk-desk") == said(lang, STALE) != STALE, sent
        assert "—" not in r.text.split('id="desk"')[1].split("</form>")[0]
    assert events(site, gid) == before and not site.events(gid, "slip")
    # as the page's form sends it: the move it showed, stored with no question (the move shown is the move typed)
    r = post(desk, f"{page}/desk", {**slip, "move": "1", "shown": "1"}, page, confirm=False)
    assert r.status_code == 303, r.status_code
    assert [(e.payload["move"], e.payload["player"]) for e in site.events(gid, "slip")] == [(1, "2")]


def test_FISE_8_a_desk_slip_with_no_move_typed_lands_in_the_move_its_form_showed_never_the_next(
        site, arbiter):  # noqa: F811
    """The form showed move 1; the arbiter closed its collection since: a slip sent with the move field emptied is
    refused beside the move (it went into move 2, open, asking nothing); nothing stored."""
    gid, _master = game_in(site, "es", collected=True)
    page = f"/games/{gid}"
    desk = desk_client(site, arbiter)
    before = events(site, gid)
    r = post(desk, f"{page}/desk", {"shown": "1", "move": "", "player": "2", "position": "H8", "word": "CASA",
                                    "score": "4"}, page, confirm=False)
    assert r.status_code == 422 and confirmation(r.text) is None, r.status_code
    assert "(FISE-17)" in beside(r.text, "move") and "1" in beside(r.text, "move")
    assert events(site, gid) == before and not site.events(gid, "slip")
    # the page as drawn now shows move 2: its slip lands there
    assert 'name="shown" value="2"' in desk.get(page).text
    r = post(desk, f"{page}/desk", {"shown": "2", "move": "", "player": "2", "position": "H8", "word": "CASA",
                                    "score": "4"}, page)
    assert r.status_code == 303 and [e.payload["move"] for e in site.events(gid, "slip")] == [2]


@pytest.mark.parametrize(("action", "sent", "where"), [
    ("decide", {"move": "1", "player": "2", "action": "void", "reason": ""}, "decide"),
    ("decide", {"move": "1", "player": "2", "action": "void", "reason": "x" * 5000}, "decide"),
    ("desk", {"shown": "2", "move": "1", "player": "2", "position": "H8", "word": "AB"}, "move"),
    ("seat", {"change": "withdraw", "player": "99"}, "seat"),
    ("collected", {"move": "x"}, "decide"),
    ("close", {"choice": "9"}, "close"),
    ("end", {"reason": "x" * 500}, "end"),
])
def test_a_refused_console_form_gives_back_the_grids_find_text(site, arbiter, action, sent, where):  # noqa: F811
    """Whichever console form is refused (by its check, the session, or the form's door), the console comes back
    finding what its find box held (app.js sends it with every console form) and says why beside that form."""
    gid, _master = game_in(site, "ro", collected=True)
    page = f"/games/{gid}"
    before = events(site, gid)
    r = post(arbiter, f"{page}/{action}", {**sent, "find": "Cleo"}, page, confirm=False)
    assert r.status_code in (400, 422) and confirmation(r.text) is None, r.status_code
    assert beside(r.text, where) and '<html lang="ro">' in r.text
    assert 'id="grid-filter"' in r.text and found(r.text) == "Cleo"
    assert events(site, gid) == before


def test_a_console_action_done_goes_back_to_the_console_finding_the_same(site, arbiter):  # noqa: F811
    gid, master = game_in(site, "en", collected=True)
    page = f"/games/{gid}"
    position, word = master.split(" ")
    r = post(arbiter, f"{page}/decide", {"move": "1", "player": "2", "action": "slip", "position": position,
                                         "word": word, "reason": "read again", "find": "Bo Ana"}, page)
    assert r.status_code == 303 and r.headers["location"].startswith(f"{page}?find=Bo%20Ana&done="), r.headers
    assert found(arbiter.get(r.headers["location"]).text) == "Bo Ana"


def test_a_refused_form_on_a_national_console_draws_the_rows_its_find_found(site, arbiter, capped):  # noqa: F811
    """A grid of more players than it draws finds on the server: the console a refusal comes back to draws the
    rows its find box found, not the first ones."""
    gid = national(site)
    page = f"/games/{gid}"
    r = post(arbiter, f"{page}/close", {"choice": "9", "find": "kira"}, page, confirm=False)
    assert r.status_code == 422 and beside(r.text, "close")
    assert rows(r.text) == ["11"] and found(r.text) == "kira"


@pytest.mark.parametrize(("action", "sent", "where", "not_at"), [
    # a decision's word past the door's limit: beside the decision form, not the desk's word
    ("decide", {"move": "1", "player": "2", "action": "slip", "position": "H8", "word": "A" * 300,
                "reason": "read again"}, "decide", "desk-word"),
    # the collection's move that is no number: beside the claims card, not the desk's move
    ("collected", {"move": "x"}, "decide", "move"),
    # a seat's player past the door's limit: beside the seats card, not the desk's player
    ("seat", {"change": "withdraw", "player": "9" * 300}, "seat", "player"),
])
def test_a_field_whose_name_console_forms_share_is_refused_beside_the_form_it_was_sent_with(
        site, arbiter, action, sent, where, not_at):  # noqa: F811
    gid, _master = game_in(site, "pl", collected=True)
    page = f"/games/{gid}"
    before = events(site, gid)
    token = csrf(arbiter.get(page).text)
    r = arbiter.post(f"{page}/{action}", data={"csrf": token, **sent})
    assert r.status_code in (400, 422), r.status_code
    assert beside(r.text, where) and f'id="{not_at}-error"' not in r.text
    assert events(site, gid) == before


@pytest.mark.parametrize(("lang", "sent", "label"), [
    ("ro", {"change": "withdraw", "player": "3", "reason": "a plecat"}, "Withdrawal"),
    ("el", {"change": "enter", "player": "4", "name": "Dora", "table": "2", "from": "2"}, "Late entry"),
])
def test_a_seat_change_done_is_said_in_the_consoles_language(site, arbiter, lang, sent, label):  # noqa: F811
    """The seats card's notice once a change is done was English on every console ("player 3: withdraw")."""
    gid, _master = game_in(site, lang, collected=True)
    page = f"/games/{gid}"
    r = post(arbiter, f"{page}/seat", sent, page)
    assert r.status_code == 303, r.status_code
    done = arbiter.get(r.headers["location"]).text.split('class="done">', 1)[1].split("</p>", 1)[0]
    assert html.unescape(done) == said(lang, "player %(player)s: %(change)s", player=sent["player"],
                                       change=Text(label))
    assert sent["change"] not in done and label not in done, done


STANDS_ON = "a later decision (event %(seq)s) stands on this slip: reverse it first"


def decided_twice(site: Site, client, lang: str) -> tuple[str, int, int]:  # type: ignore[no-untyped-def]  # noqa: F811
    """A game whose player 2's slip of move 1 was decided twice (read as the master move, then struck out): (its
    id, the first decision's event, the second's). The second stands on the first."""
    gid, master = game_in(site, lang, collected=True)
    page = f"/games/{gid}"
    position, word = master.split(" ")
    for sent in ({"action": "slip", "position": position, "word": word, "reason": "read again"},
                 {"action": "void", "reason": "signed by another"}):
        assert post(client, f"{page}/decide", {"move": "1", "player": "2", **sent}, page).status_code == 303
    first, second = (d.seq for d in site.events(gid, "decision"))
    return gid, first, second


def decision_item(page: str, seq: int) -> str:
    """The list item of the decision of event ``seq`` in the console's list of decisions."""
    item = page[page.index(f'<li id="decision-{seq}">'):]
    return item[: item.index("</li>")]


def reverse_reason(page: str, seq: int) -> str:
    """What the reason field of decision ``seq``'s reverse form holds."""
    m = re.search(r'<form[^>]*class="reverse".*?name="reason"[^>]*value="([^"]*)"', decision_item(page, seq), re.S)
    assert m, decision_item(page, seq)
    return html.unescape(m.group(1))


@pytest.mark.parametrize("lang", ["ro", "el"])
def test_console_reversal_refused_beside_its_form(site, arbiter, lang):  # noqa: F811
    """A reversal the session refuses (a later decision stands on the slip) is said beside the reverse form it was
    sent with, in the page's language, the reason typed kept in that form alone and the grid's find text kept; not
    under the decision form (where it was shown, the reason lost); nothing stored."""
    gid, first, second = decided_twice(site, arbiter, lang)
    page = f"/games/{gid}"
    before = events(site, gid)
    sent = {"action": "reverse", "reverses": str(first), "rule": "FISE-17", "reason": "citit greșit", "find": "Bo"}
    r = post(arbiter, f"{page}/decide", sent, page, confirm=False)
    assert r.status_code == 422 and confirmation(r.text) is None, r.status_code
    assert beside(r.text, f"reverse-{first}") == said(lang, STANDS_ON, seq=second) != STANDS_ON % {"seq": second}
    assert f'id="reverse-{first}-error"' in decision_item(r.text, first)  # beside its own form, in its item
    assert 'id="decide-error"' not in r.text and f'id="reverse-{second}-error"' not in r.text
    assert reverse_reason(r.text, first) == "citit greșit" and reverse_reason(r.text, second) == ""
    assert value(r.text, "decide", "reason") == ""  # the decision form is not filled with it
    assert found(r.text) == "Bo"
    assert events(site, gid) == before and len(site.events(gid, "decision")) == 2


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_console_reversal_refused_at_the_door_beside_its_form_reason_kept(site, arbiter, lang):  # noqa: F811
    """A reason pasted past what a decision keeps, sent by a reverse form: refused by the form's door beside that
    form, as much of it as a decision keeps shown again in it."""
    gid, first, second = decided_twice(site, arbiter, lang)
    page = f"/games/{gid}"
    before = events(site, gid)
    reason = "la papeleta dice " * 300
    sent = {"action": "reverse", "reverses": str(second), "rule": "FISE-17", "reason": reason, "find": "Cleo"}
    r = post(arbiter, f"{page}/decide", sent, page, confirm=False)
    assert r.status_code == 400 and confirmation(r.text) is None, r.status_code
    assert beside(r.text, f"reverse-{second}") == said(lang, REASONS[0], n=decisions.MAX_REASON)
    assert f'id="reverse-{second}-error"' in decision_item(r.text, second)
    assert 'id="decide-error"' not in r.text
    assert reverse_reason(r.text, second) == reason.strip()[: decisions.MAX_REASON]
    assert reverse_reason(r.text, first) == ""
    assert found(r.text) == "Cleo"
    assert events(site, gid) == before


def test_console_reversal_of_no_listed_decision_is_refused_beside_the_decision_form(site, arbiter):  # noqa: F811
    """A reversal naming an event that is no decision of the list (a forged or mistyped number) has no reverse form
    to be shown beside: it is said beside the decision form, never nowhere."""
    gid, _first, _second = decided_twice(site, arbiter, "es")
    page = f"/games/{gid}"
    before = events(site, gid)
    sent = {"action": "reverse", "reverses": "99999", "reason": "x", "find": "Ana"}
    r = post(arbiter, f"{page}/decide", sent, page, confirm=False)
    assert r.status_code == 422, r.status_code
    form = r.text[r.text.index('class="decide"'):]
    form = form[: form.index("</form>")]
    assert 'id="reverse-99999-error"' in form
    assert beside(r.text, "reverse-99999") == said("es", "no decision was taken at event %(seq)s", seq=99999)
    assert found(r.text) == "Ana" and events(site, gid) == before


class Cards(HTMLParser):
    """The console's cards (``<section class="card">``) as the HTML nests them: for each card's id, the ids of the
    cards it lies within; every section opened is closed (an end tag for every start)."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []  # the sections open, innermost last (a card's id, or "" for another section)
        self.within: dict[str, list[str]] = {}
        self.unmatched = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "section":
            return
        a = dict(attrs)
        card = "card" in (a.get("class") or "").split()
        name = (a.get("id") or "(card)") if card else ""
        if card:
            self.within[name] = [s for s in self.open if s]
        self.open.append(name)

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            if self.open:
                self.open.pop()
            else:
                self.unmatched += 1


def test_console_every_card_is_its_own(site, arbiter):  # noqa: F811
    """The seats card was never closed: the claims and the end-of-game cards were drawn inside it. Each card is
    its own, none within another, and every section opened is closed."""
    gid, _first, _second = decided_twice(site, arbiter, "ro")
    cards = Cards()
    cards.feed(arbiter.get(f"/games/{gid}").text)
    cards.close()
    assert {"draw", "desk", "ruling", "seat", "decide", "end"} <= set(cards.within), cards.within
    assert {name: within for name, within in cards.within.items() if within} == {}
    assert cards.open == [] and cards.unmatched == 0
