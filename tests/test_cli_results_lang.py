"""``arbitru --lang L duplicate results``: the printed results in the reader's language, headings included, through
the catalogs of the pages; figures as the language writes them ("100,00"), through the same place as the pages
(:mod:`arbitru.figures`)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from arbitru.cli import cli
from arbitru.messages import gettext_for

TRANSLATED = ("ro", "es", "fr", "pl", "el")
#: the English words of the printed results: none may come back in another language
ENGLISH = ("Master moves", "Ranking", "place", "player", "points", "Move by move", "playoff", "Master total",
           "word list", "notes", "tied", "move", "rack", "position", "score", "see the CSV", "Bonuses")
#: the words French writes as English does
SAME = {"fr": {"place", "points", "notes", "position", "score"}}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A hand game of one move: Ana alone writes the master move (100 %, and the FISE-11 bonus), Ion and Eva
    nothing (0 %, tied: FISE-15 flags them for a playoff)."""
    db = str(tmp_path_factory.mktemp("cli") / "t.db")
    runner = CliRunner()

    def run(*args: str) -> str:
        done = runner.invoke(cli, ["duplicate", args[0], "-j", db, *args[1:]])
        assert done.exit_code == 0, done.output
        return done.output

    run("new", "--rules", "fise", "--lang", "es", "--lexicon", "fise-2", "--racks", "hand", "--moves", "1",
        "--player", "1:Ana", "--player", "2:Ion", "--player", "3:Eva")
    run("next", "--draw", "CASAXYZ")
    position, word, _score = run("ties").splitlines()[0].split()[1:4]
    run("slips", "--player", "1", "--position", position, "--word", word)
    run("next")
    return db


def results(db: str, lang: str, *more: str) -> str:
    done = CliRunner().invoke(cli, ["--lang", lang, "duplicate", "results", "-j", db, *more])
    assert done.exit_code == 0, done.output
    return done.output


def test_fise_17_results_print_in_english_by_default_with_a_decimal_point(game):
    out = results(game, "en")
    for word in ("Master moves", "Ranking", "Move by move (FISE-17)", "Master total: 54", "playoff",
                 "Bonuses (FISE-11)", "End after move 1"):
        assert word in out, word
    assert re.search(r"^\s+1  1 Ana\s+54\s+10\s+64\s+100\.00\b", out, re.M), out


@pytest.mark.parametrize("lang", TRANSLATED)
def test_fise_17_results_print_their_headings_and_figures_in_the_readers_language(game, lang):
    out = results(game, lang)
    _ = gettext_for(lang)
    for english in set(ENGLISH) - SAME.get(lang, set()):
        assert not re.search(rf"\b{english}\b", out), (lang, english, out)
    # the same words as the pages (the catalogs), and the percentage with the language's decimal comma
    assert _("Master moves") in out and _("Ranking") in out and _("Move by move (FISE-17)") in out
    assert _("playoff") in out and _("Master total: %(n)s", n=54) in out and _("Bonuses (FISE-11)") in out
    assert _("alone matched the program's top score") in out  # a bonus's reason, a library message
    assert re.search(r"^\s+1  1 Ana\s+54\s+10\s+64\s+100,00\b", out, re.M), out
    assert "100.00" not in out and "0,00" in out
    # each column as wide as its heading: the figures stand under their headings
    heading = next(line for line in out.splitlines() if line.lstrip().startswith(_("place")))
    row = next(line for line in out.splitlines() if "1 Ana" in line and "100,00" in line)
    assert row.index("100,00") + len("100,00") == heading.index("%") + 1, (heading, row)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_fise_6b_a_players_record_sheet_prints_its_headings_in_the_readers_language(game, lang):
    out = results(game, lang, "--player", "1")
    _ = gettext_for(lang)
    head = out.splitlines()[2]
    assert _("move") in head and _("master") in head and _("score") in head
    for english in {"move", "position", "word", "score", "master"} - SAME.get(lang, set()):
        assert not re.search(rf"\b{english}\b", head), (lang, head)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_fise_17_the_html_results_are_in_the_readers_language(game, lang):
    out = results(game, lang, "--format", "html")
    _ = gettext_for(lang)
    assert f'<html lang="{lang}">' in out
    for heading in ("Ranking", "Master moves", "Bonuses (FISE-11)", "Move by move (FISE-17)"):
        assert f"<h2>{_(heading)}</h2>" in out and f"<h2>{heading}</h2>" not in out
    assert "<td>100,00</td>" in out and "100.00" not in out


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_fise_15_standings_print_their_headings_and_figures_in_the_readers_language(game, lang):
    done = CliRunner().invoke(cli, ["--lang", lang, "duplicate", "standings", "-j", game])
    assert done.exit_code == 0, done.output
    _ = gettext_for(lang)
    head, first = done.output.splitlines()[:2]
    assert _("mean place") in head and _("mean %") in head
    if lang != "en":
        assert "mean place" not in head
    point = "." if lang == "en" else ","
    assert first.split()[:2] == ["1", "Ana"] and f"1{point}00" in first and f"100{point}00" in first


def test_the_readers_language_lasts_for_one_command(game):
    """``--lang`` says one command in its language; the next, run in the same program, is in English again."""
    from arbitru.messages import reader

    results(game, "el")
    assert reader.get() == "en"
    assert "Master moves" in results(game, "en")
