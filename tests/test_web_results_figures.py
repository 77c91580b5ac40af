"""The duplicate results page and PDF in the game's language: percentages and totals as the language writes them
(Babel's formats, through :mod:`arbitru.figures`), the rule set by its title, and the GR-7 citation in the
percentage note only on the games of the Greek rules."""

from __future__ import annotations

import pytest

from arbitru import figures
from arbitru.formats.duplicate.game import Player, Session, Settings
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import Slip
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import Text, gettext_for
from test_web_documents import pdf_pages
from web_support import LEXICON, document, make_site

GR_7_NOTE = "%: the points scored without bonuses, as a share of the master total (GR-7); the total adds the bonuses."
PLAIN_NOTE = "%: the points scored without bonuses, as a share of the master total; the total adds the bonuses."


def one_move_game(site, rules: str, lang: str) -> str:  # type: ignore[no-untyped-def]
    """A game of one move in ``lang`` under ``rules``: Ana writes the master move (100 %), Bo nothing (0 %)."""
    lex = load_lexicon(LEXICON, lang)
    settings = Settings(ruleset(rules, moves=1), lang, LEXICON, seed="7", title="Cupa")
    with Journal(site.db, actor="arbiter") as j:
        s = Session.create(j, settings, lex, [Player("1", "Ana"), Player("2", "Bo")])
        s.draw()
        top = s.candidates()[0]
        s.add_slips([Slip(1, "1", top.placement.coord.format(settings.rules.notation), top.word(),
                          top.score if settings.rules.declared_score else None)])
        s.place_master()
        return s.id


@pytest.mark.parametrize(("lang", "rules"), [("ro", "romanian"), ("es", "fise"), ("fr", "fise"), ("pl", "fise"),
                                             ("el", "greek"), ("en", "fise")])
def test_fise_17_the_results_page_writes_percentages_as_the_games_language_does(tmp_path, lang, rules):
    site = make_site(tmp_path)
    gid = one_move_game(site, rules, lang)
    page = site.client().get(f"/games/{gid}/results").text
    hundred, zero = ("100.00", "0.00") if lang == "en" else ("100,00", "0,00")
    assert f"<td>{hundred}</td>" in page and f"<td>{zero}</td>" in page
    if lang != "en":
        assert "100.00" not in page and "<td>0.00</td>" not in page
    # the live fragment the page refetches says the same
    assert f"<td>{hundred}</td>" in site.client().get(f"/games/{gid}/results/live").text


@pytest.mark.parametrize(("rules", "lang"), [("fise", "es"), ("romanian", "ro"), ("fise", "pl")])
def test_gr_7_is_not_cited_in_the_percentage_note_of_games_under_other_rules(tmp_path, rules, lang):
    site = make_site(tmp_path)
    gid = one_move_game(site, rules, lang)
    page = site.client().get(f"/games/{gid}/results").text
    _ = gettext_for(lang)
    assert 'id="percent-note"' in page and "GR-7" not in page
    assert _(PLAIN_NOTE) in page


def test_gr_7_is_cited_in_the_percentage_note_of_a_greek_game(tmp_path):
    site = make_site(tmp_path)
    gid = one_move_game(site, "greek", "el")
    page = site.client().get(f"/games/{gid}/results").text
    assert gettext_for("el")(GR_7_NOTE) in page and "(GR-7)" in page


@pytest.mark.parametrize(("lang", "rules", "title", "not_shown"), [
    ("pl", "fise", "belgijka FISE", "duplicada"),
    ("el", "greek", "Duplicate Scrabble, βελγική παραλλαγή (Όμιλος Σκραμπλ Θεσσαλονίκης", "Greek duplicate"),
])
def test_the_results_page_and_pdf_name_the_rule_set_by_its_title_with_figures_in_the_language(
        tmp_path, lang, rules, title, not_shown):
    site = make_site(tmp_path)
    gid = one_move_game(site, rules, lang)
    assert gettext_for(lang)(Text(ruleset(rules).title)).startswith(title)
    page = site.client().get(f"/games/{gid}/results").text
    assert title in page and not_shown not in page
    pdf = document(site.client(), f"/games/{gid}/download/results.pdf")
    assert pdf.status_code == 200
    text = " ".join(" ".join(pdf_pages(pdf.content)).split())
    assert title in text and not_shown not in text
    assert "100,00" in text and "100.00" not in text
    assert ("GR-7" in text) == (rules == "greek")


def test_figures_are_written_as_each_language_writes_them():
    """Babel's formats for the locale, with CLDR's minimum grouping (Spanish and Polish group from 10 000 only)."""
    from fractions import Fraction

    assert [figures.percentage(Fraction(2, 3), lang) for lang in ("en", "ro", "fr")] == ["66.67", "66,67", "66,67"]
    assert figures.percentage(Fraction(1), "el") == "100,00"
    assert figures.number(1234, "en") == "1,234" and figures.number(1234, "ro") == "1.234"
    assert figures.number(1234, "es") == "1234" and figures.number(12345, "es") == "12.345"
    assert figures.number(1234, "pl") == "1234" and figures.number(12345, "pl") == "12\xa0345"
    assert figures.number(1234, "fr") == "1\u202f234"
    assert figures.number(Fraction(5, 2), "ro", 2) == "2,50" and figures.number(1512.25, "en", 1) == "1,512.3"
    assert figures.date("2026-05-01", "ro") == "1 mai 2026" and figures.date("2026-05-01", "en") == "May 1, 2026"
    assert figures.date("2026-11-26", "pl") == "26 lis 2026"
    assert figures.moment("2026-11-26 13:05:00", "ro") == "26.11.2026, 13:05"
    assert figures.date("tomorrow", "ro") == "tomorrow"  # a typed text that is no date, as typed
