"""``arbitru --lang LANG anticipation results`` (``correct``, ``notices``, ``desk``, ``show``): every heading, reason
and hint they print in the reader's language, on a game with a cancelled turn, an invalid placement, a corrected
one with its penalty, a warning and a disciplinary warning (RO-5.5, RO-6.1–6.4); English as before without
``--lang``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from anticipation_support import RO, WORDS_RO, csv_text, groups_with
from arbitru.cli import cli
from test_anticipation_correction import AL, CAL, GROUPS, row


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """``results`` of one game, by language (the game is played once)."""
    tmp = tmp_path_factory.mktemp("cli-lang")
    (tmp / "words.txt").write_text(" ".join(WORDS_RO), "utf-8")
    (tmp / "groups.txt").write_text(
        "\n".join(f"{i}: {RO.format(g)}" for i, g in enumerate(groups_with(GROUPS), 1)), "utf-8")
    runner = CliRunner()

    def run(*args: str, lang: str = "en") -> str:
        result = runner.invoke(cli, ["--lang", lang, "anticipation", *args, "--db", str(tmp / "t.db")])
        assert result.exit_code == 0, (result.output, result.exception)
        return result.output

    (tmp / "seating.csv").write_text("Ana,1,Ana Popescu\nBo,2,Bogdan Ionescu\nCleo,3,Carmen Dima\nDan,4,Dan Sava\n",
                                     "utf-8")
    run("new", "--groups", str(tmp / "groups.txt"), "--lexicon", str(tmp / "words.txt"), "--id", "g")
    run("players", "g", str(tmp / "seating.csv"))
    for turn, group in enumerate(range(2, 6), 1):
        run("lot", "g", str(turn), "--group", str(group))
    bo = {"player": "Bo", "table": 2}
    cleo = {"player": "Cleo", "table": 3}
    dan = {"player": "Dan", "table": 4}
    slips = [AL, CAL, row(3, "G9", "VEST", 24, note="Verificare: VESTX"),  # Ana: position inverted (RO-6.3a)
             row(1, "H7", "AL", 4, 4, **bo), row(2, "H6", "CALX", 3, **bo),  # Bo: CALX invalid (RO-6.1)
             row(3, "9G", "VEST", 24, **bo),  # scored 24 for 23: a warning (RO-6.2d)
             row(1, "H7", "AL", 4, 4, **cleo), row(2, "H6", "CAL", 3, **cleo),
             row(3, "", "", note="Anulez turul 2", **cleo),  # Cleo cancels turn 2 (RO-6.1)
             row(1, "H7", "AL", 4, 4, **dan), row(2, "H8", "CAL", 3, **dan)]  # Dan: a coordinate wrong (RO-6.3b)
    (tmp / "s.csv").write_text(csv_text(slips), "utf-8")
    run("slips", "g", str(tmp / "s.csv"))
    run("warn", "g", "Bo", "--reason", "zgomot")
    langs = ("en", "ro", "es", "fr", "pl", "el")
    said = {lang: [run(*command, lang=lang) for command in (
        ("correct", "g", "--turn", "3"), ("notices", "g", "--turn", "2"), ("desk", "g", "--turn", "3"), ("show", "g"))]
        for lang in langs}  # before the publication: correct refuses after it (RO-6.5)
    run("publish", "g", "--provisional", "--deadline", "18:30", "--confirm")
    return {lang: "\n".join([run("results", "g", lang=lang), *said[lang]]) for lang in langs}


#: what ``results`` printed in English before ``--lang`` covered its headings (and the reasons beside them)
ENGLISH = ("(table ", "placements ", "penalties ", "warnings ", "disciplinary ", "provisional results",
           "contests until", "no slip handed in", "technical penalty", "technical warning", "not corrected",
           "turn 3", "cancelled", "the score of", "penalty capped", "position signs inverted",
           "Verification requests", "NOT in", "table 2 ", "slips in", "missing", "check: ", "this slip has",
           "placement", "blanks count as", "players: ", "lots drawn from a secret")
#: the same, said in each language (the glossary's terms: ro depunere, es colocación, fr pose, pl ułożenie, el
#: τοποθέτηση)
SAID = {
    "ro": ("Ana Popescu (masa 1): 11", "depuneri 31, penalizări −20, avertismente 0 (−0), disciplinar −0",
           "avertismente 1 (−0), disciplinar −20", "rezultate provizorii, contestații până la 18:30",
           "fluturaș nepredat: turul 4", "turul 3: turul 2 anulat",
           "Cereri de verificare (RO-5.3):\n  Ana Popescu (masa 1), turul 3: VESTX: NU este în words",
           "masa 2 Bogdan Ionescu: H6 CALX nu este validă (RO-6.1a)", "turul 3: 3 fluturași sosiți, 1 lipsă",
           "    de verificat: turul 3 are 1 depunere; acest fluturaș are 0", "lipsesc: Dan Sava (Dan) (masa 4)",
           "  grupa  1: AL       turul 1", "  jucători: 4, fluturași: 11, evenimente: "),
    "es": ("Ana Popescu (mesa 1): 11", "colocaciones 31, penalizaciones −20, amonestaciones 0 (−0), disciplinarias −0",
           "resultados provisionales, reclamaciones hasta 18:30", "papeleta no entregada: turno 4"),
    "fr": ("Ana Popescu (table 1): 11", "poses 31, pénalités −20, avertissements 0 (−0)",
           "résultats provisoires, réclamations jusqu'à 18:30", "bulletin non rendu\u00a0: tour 4"),
    "pl": ("Ana Popescu (stół 1): 11", "ułożenia 31, kary −20, ostrzeżenia 0 (−0), dyscyplinarne −0",
           "wyniki tymczasowe"),
    "el": ("Ana Popescu (τραπέζι 1): 11", "τοποθετήσεις 31, ποινές −20, προειδοποιήσεις 0 (−0), πειθαρχικές −0",
           "προσωρινά αποτελέσματα"),
}


def test_RO_6_6_results_in_english_without_lang(results):
    out = results["en"]
    assert out.splitlines()[0] == "provisional results, contests until 18:30"
    assert "1.   Ana Popescu (table 1): 11" in out
    assert "placements 31, penalties −20, warnings 0 (−0), disciplinary −0" in out
    assert "placements 27, penalties −0, warnings 1 (−0), disciplinary −20" in out
    assert "RO-6.1a: main word CALX is not in the official list" in out and "turn 3: turn 2 cancelled" in out
    assert "Verification requests (RO-5.3):\n  Ana Popescu (table 1), turn 3: VESTX: NOT in words" in out
    assert "table 2 Bogdan Ionescu: H6 CALX is not valid (RO-6.1a)" in out
    assert "turn 3: 3 slips in, 1 missing" in out and "    check: turn 3 has 1 placement; this slip has 0" in out
    assert "missing: Dan Sava (Dan) (table 4)" in out
    assert "  group  1: AL       turn 1" in out and "  players: 4, slips: 11, events: " in out


@pytest.mark.parametrize("lang", sorted(SAID))
def test_RO_6_6_results_print_every_heading_and_reason_in_the_readers_language(results, lang):
    out = results[lang]
    for english in ENGLISH:
        if not (lang == "fr" and english in ("(table ", "table 2 ")):  # "table" is French too
            assert english not in out, (lang, english)
    for said in SAID[lang]:
        assert said in out, (lang, said)
    assert "Anulez turul 2" in out  # the player's own note, as written
