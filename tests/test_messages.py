"""Every word in the reader's language: the library's verdicts, refusals, notes and
announcements are messages with values, said in English by the CLI and in each catalog's language by the pages."""

from __future__ import annotations

import re

import pytest

from anticipation_support import play
from arbitru.messages import LANGUAGES, Plural, Text, gettext_for, recognised
from messages_support import VALUES, catalog, library_messages, library_plurals, plural_catalog
from test_anticipation_correction import AL, CAL, CASCADE, GROUPS, LOTS, row

TRANSLATED = sorted(lang for lang in LANGUAGES if lang != "en")
NAMED = re.compile(r"%\((\w+)\)s")
#: words a translation may share with the English: rule IDs' letters, the player's own note ("Anulez turul"), the
#: PAS note, a recorded result's "master" line, a file's format (CSV), an encoding (UTF-8, ASCII), the grid's mark
#: "out", names of things that are the same word in that language
SHARED = {"anulez", "turul", "pas", "scrabble", "program", "valid", "blank", "joker", "top", "turn", "total", "bonus",
          "rack", "start", "tiempo", "fise", "duplicate", "duplicada", "nul", "utf", "ascii",
          "master", "csv", "out"}
#: words that are the same in a language and in English
SAME = {
    "fr": {"minute", "minutes", "score", "maximum", "place", "change", "points", "stock", "position", "positions",
           "table", "note", "total", "club", "final", "journal", "projection", "lot", "lots", "tables", "code", "date",
           "licence", "anticipation", "endurance", "page", "mode", "stop", "absent", "secret",
           "tops", "notes", "places", "corrections", "disqualification"},
    "es": {"total", "club", "final", "control", "manual"},
    "ro": {"minute", "total", "note", "final", "control", "avocalic", "rating", "set", "stop", "absent", "secret",
           "club", "manual"},
    "pl": {"ranking", "stop"},
    "el": set(),
}


def english_words(text: str, lang: str) -> set[str]:
    """The English words of a message, less its values and rule IDs and the words ``lang`` shares with English."""
    text = NAMED.sub(" ", text)
    text = re.sub(r"\b(?:RO|FISE|GR|G)-[\w.]+", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text) if w.lower() not in SHARED | SAME[lang]}


def test_the_library_says_its_messages_in_english_as_before():
    t = Text("position signs inverted: written %(written)s, scored %(score)s", written="G13", score=90)
    assert t == "position signs inverted: written G13, scored 90" and isinstance(t, str)
    assert gettext_for("en")(t) == t
    assert "%(a)s" not in (t + "; more") and (t + "; more") == f"{t}; more"
    assert recognised("the 12 planned moves are played", ["the %(n)s planned moves are played"]).values == {"n": "12"}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_library_message_is_translated_in_every_catalog(lang):
    """A message the library can put on a page (a verdict, a refusal, a note, an announcement, a premium square,
    a verdict's code) has a translation in each catalog, with the same named values."""
    used = library_messages() | set(VALUES)
    assert len(used) > 150 and "position signs inverted" in " ".join(used)
    translated = catalog(lang)
    missing = sorted(m for m in used if not translated.get(m))
    assert not missing, (lang, missing)
    for m in used:
        assert sorted(set(NAMED.findall(m))) == sorted(set(NAMED.findall(translated[m]))), (lang, m)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_count_message_has_each_plural_form_of_the_language(lang):
    """A message whose words follow a count (``Plural``) has every plural form of the language in its catalog
    (Romanian and Polish three, the others two), none empty, each with the message's named values (the count
    itself may be said in words: "o dată", "Un jucător")."""
    plurals = library_plurals()
    assert len(plurals) >= 6
    forms, translated = plural_catalog(lang)
    assert forms == (3 if lang in ("ro", "pl") else 2)
    for key in plurals:
        said = translated.get(key)
        assert said and len(said) == forms and all(said), (lang, key, said)
        names = set(NAMED.findall(key[0])) | set(NAMED.findall(key[1]))
        for form in said:
            assert names - {"n"} <= set(NAMED.findall(form)) <= names, (lang, key, form)


def test_counts_are_said_with_the_languages_own_plural_rule():
    """ro "o dată" / "de 19 ori" / "de 20 de ori"; el "1 φορά" / "19 φορές"; English "1 time" / "7 times" —
    never "time(s)" or "φορά(ές)"."""
    tile = ("%(tile)s drawn %(n)s time but only %(left)s left in the bag",
            "%(tile)s drawn %(n)s times but only %(left)s left in the bag")
    def said(lang: str, n: int) -> str:
        return gettext_for(lang)(Plural(*tile, tile="Z", n=n, left=0))
    assert str(Plural(*tile, tile="Z", n=1, left=0)) == "Z drawn 1 time but only 0 left in the bag"
    assert said("en", 7) == "Z drawn 7 times but only 0 left in the bag"
    assert "a fost tras o dată," in said("ro", 1) and "de 19 ori," in said("ro", 19)
    assert "de 20 de ori," in said("ro", 20) and "de 26 de ori," in said("ro", 26) and "de 101 ori," in said("ro", 101)
    assert "1 φορά," in said("el", 1) and "19 φορές," in said("el", 19)
    assert "1 raz," in said("pl", 1) and "3 razy," in said("pl", 3)
    assert "1 vez," in said("es", 1) and "5 veces," in said("es", 5)


def test_a_list_of_messages_is_said_with_the_languages_separator():
    """In Greek ";" is the question mark: the messages of a list stand apart with "·", elsewhere with ";"."""
    parts = [Text("at least 1 vowel"), Text("at least 1 consonant")]
    assert ";" not in gettext_for("el")(Text("%(parts)s", parts=parts))
    assert "; " in gettext_for("ro")(Text("%(parts)s", parts=parts))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_kind_is_said_with_no_english_left(lang):
    """Each message said in the language, its values filled in with numbers: none of its English words is left."""
    _ = gettext_for(lang)
    for m in sorted(library_messages()):
        said = _(Text(m, **{name: 7 for name in NAMED.findall(m)}))
        left = {w for w in english_words(m, lang) if re.search(rf"\b{w}\b", said, re.IGNORECASE)}
        assert not left, (lang, m, said, left)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_RO_5_3_RO_6_3_a_corrected_slips_in_every_language(tmp_path, lang):
    """The issue's Romanian player: a placement with its position signs inverted (RO-6.3a, its penalty capped), a
    cascade of cancellations (RO-5.3), technical warnings (RO-6.2): every reason, note, warning and cancellation
    said in the language, no English word left."""
    rows = [*CASCADE, row(6, "", "", note="Anulez turul 2; Anulez turul 9")]
    rows += [("Dan", 2, *AL[2:]), ("Dan", 2, *CAL[2:]), row(3, "G9", "VEST", 20, player="Dan", table=2)]
    _, st = play(tmp_path, GROUPS, LOTS, rows)
    said = gettext_for(lang)
    texts: list[str] = []
    for result in st.results.values():
        for sv in result.slips.values():
            texts += [sv.reason, *sv.notes, *(c["text"] for c in sv.cancellations)]
            texts += [f.text for f in sv.faults]
            for v in sv.placements:
                texts += [v.reason, *v.notes, v.status]
    english = [t for t in texts if t]
    assert any("position signs inverted" in t for t in english) and any("Anulez turul 2" in t for t in english)
    assert any("formed with the help of turn 2" in t for t in english)
    for text in english:
        out = said(text)
        left = {w for w in english_words(getattr(text, "message", text), lang) if re.search(rf"\b{w}\b", out, re.I)}
        assert not left, (lang, text, out, left)


def test_RO_6_3_a_the_cli_prints_english_and_the_readers_language_with_lang(tmp_path, monkeypatch):
    """``arbitru anticipation correct`` says its verdicts in English; ``arbitru --lang ro …`` in Romanian."""
    from click.testing import CliRunner

    from anticipation_support import RO, WORDS_RO, csv_text, groups_with
    from arbitru.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text(" ".join(WORDS_RO), "utf-8")
    groups = "\n".join(f"{i}: {RO.format(g)}" for i, g in enumerate(groups_with(GROUPS), 1))
    (tmp_path / "groups.txt").write_text(groups, "utf-8")
    runner = CliRunner()

    def run(*args: str, lang: str = "en") -> str:
        result = runner.invoke(cli, ["--lang", lang, "anticipation", *args, "--db", str(tmp_path / "t.db")])
        assert result.exit_code == 0, (result.output, result.exception)
        return result.output

    run("new", "--groups", "groups.txt", "--lexicon", "words.txt", "--id", "g")
    for turn, group in enumerate(range(2, 6), 1):
        run("lot", "g", str(turn), "--group", str(group))
    (tmp_path / "s.csv").write_text(csv_text([AL, CAL, row(3, "G9", "VEST", 20)]), "utf-8")
    run("slips", "g", "s.csv")
    english = run("correct", "g", "--turn", "3")
    assert "position signs inverted: written G9, the player's board has 9G" in english
    romanian = run("correct", "g", "--turn", "3", lang="ro")
    assert "semnele poziției inversate: scris G9, pe tabla jucătorului este 9G" in romanian
    assert "avertisment tehnic" in romanian and "penalizare tehnică −20" in romanian
    assert "position signs" not in romanian and "technical" not in romanian


@pytest.mark.parametrize("lang", TRANSLATED)
def test_RO_4_3_RO_5_3_the_orders_refusals_and_the_seating_are_said_with_no_english_left(tmp_path, lang):
    """A refusal of the order of the hall (a lot while the analysis time runs, RO-4.3; a timer started twice), a
    refusal of someone not seated, a slip before its turn's lot (RO-5.3), a duplicate move's clock (FISE-5) and a
    receipt: each stays a message through its error (``str(e)``, what a page shows), in English as before and in
    the language with no English left."""
    from anticipation_support import new_game
    from arbitru.errors import ArbitruError
    from arbitru.formats.anticipation.slips import Slip, SlipRow
    from arbitru.formats.countdown import Countdown
    from arbitru.formats.duplicate.order import Action, MoveOrder
    from arbitru.formats.receipt import Receipt
    from arbitru.formats.refusal import OrderError
    from test_anticipation_correction import GROUPS

    t0 = 1_000_000.0
    game = new_game(tmp_path, GROUPS, seating=[("d7", 1, "Dana Țurcanu"), ("a2", 2, "Ana Pop"), ("a3", 3, "Ana Pop")])
    for _ in range(16):
        game.announce_next()
    game.clock("analysis", "start", t0)
    refused: list[ArbitruError] = []
    for act in (lambda: game.draw_lot(1, 2, now=t0 + 60), lambda: game.clock("analysis", "start", t0 + 60),
                lambda: game.sanction("Ana Pop", "disciplinary", "talking"),
                lambda: game.sanction("Zoe", "disciplinary", "talking"),
                lambda: game.hand_in(Slip("d7", 1, [SlipRow(line=1, table="1", turn="1", position="H8", word="AL",
                                                             score="4")]), t0)):
        with pytest.raises(ArbitruError) as e:
            act()
        refused.append(e.value)
    texts = [str(e) for e in refused]
    assert texts[0] == "the analysis time still runs: the first lot is drawn after it (RO-4.3)"
    assert texts[1] == "the analysis timer is running: it cannot start"
    assert texts[2].startswith("'Ana Pop' is the name of 2 seated players: give the number; seated: a2 Ana Pop (table")
    assert texts[3] == ("no player Zoe in this game; seated: d7 Dana Țurcanu (table 1), a2 Ana Pop (table 2), "
                        "a3 Ana Pop (table 3)")
    assert texts[4] == "the lot of turn 1 is not drawn yet: its slip cannot be handed in (RO-5.3)"
    clock = Countdown("move 3", 60, state="running")
    texts.append(MoveOrder("play", 3, clock, 0.0).why_not(Action.START_CLOCK).reason)
    texts.append(Receipt(None, 12, True, replaces=9).text())
    assert texts[-1] == "slip stored (event #12); late; replaces the slip of event #9, which stays in the journal"
    assert isinstance(refused[0], OrderError) and refused[0].rule == "RO-4.3"
    said = gettext_for(lang)
    for text in texts:
        assert isinstance(text, Text), text
        out = said(text)
        words = english_words(text, lang) - {"ana", "pop", "zoe", "dana"}  # the players' names
        left = {w for w in words if re.search(rf"\b{w}\b", out, re.I)}
        assert not left, (lang, text, out, left)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_draw_players_csv_and_position_errors_are_said_with_no_english_left(lang):
    """The finding "English errors on non-English pages": a draw that cannot be made (``DrawError``), a bad
    players' CSV (``GameError``) and the position-reading problems inside the RO-6.1c/d reasons were English
    f-strings; each is a message now, said in the language with no English word left."""
    from anticipation_support import rules
    from arbitru.formats.anticipation.draw import DrawError, draw_groups
    from arbitru.formats.anticipation.positions import read_position
    from arbitru.formats.duplicate.game import GameError, read_players_csv

    texts: list[str] = []
    for players in ("1\n", "1,Ana\n1,Bo\n", "1,Ana\nx-y,Bo\n", "1,Ana\n2,B\x01o\n"):
        with pytest.raises(GameError) as e:
            read_players_csv(players)
        texts.append(str(e.value))
    assert texts[0] == "players, line 1: write number,name[,table]"
    assert texts[1] == "players: player number 1 appears twice"
    assert texts[2] == "players, line 2: player number 'x-y': letters and digits, at most 10"
    with pytest.raises(DrawError) as drawn:
        draw_groups(rules(), seed=1, max_attempts=0)
    texts.append(str(drawn.value))
    assert texts[-1] == "no group 1 meeting the condition in 0 draws"
    for written in ("", "H", "8", "Z99", "H8H8"):
        texts.append(read_position(written).problem)
    assert texts[-2] == "row 'Z' does not exist (rows are A to O); column 99 does not exist (columns are 1 to 15)"
    said = gettext_for(lang)
    for text in texts:
        assert isinstance(text, Text), text
        out = said(text)
        left = {w for w in english_words(text.message, lang) if re.search(rf"\b{w}\b", out, re.I)}
        assert not left and "%(" not in out, (lang, text, out, left)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_rack_position_and_season_refusals_are_said_with_no_english_left(tmp_path, lang):
    """The finding "English errors on non-English pages", continued: a hand rack the arbiter types that the bag
    cannot give (``RackError``), the other position-reading faults (``NotationError``: syntax, a row or column out
    of range, a Greek direction sign) and the season's refusals (a championship's stages and eliminations, a
    tournament's enrolments, the registry) were English f-strings; each is a message now, English on the CLI, said
    in the language with no English word left."""
    from arbitru.engine.notation import Coordinate
    from arbitru.engine.placement import Placement
    from arbitru.engine.tiles import BLANK, Bag, alphabet
    from arbitru.errors import ArbitruError
    from arbitru.formats.duplicate.racks import hand_draw
    from arbitru.formats.duplicate.rulesets import ruleset
    from arbitru.journal.store import Journal
    from arbitru.season import championship, csvfile, registry, tournament
    from arbitru.season.tournament import Event

    def refusal(call, *args) -> str:
        with pytest.raises(ArbitruError) as e:
            call(*args)
        return str(e.value)

    es = alphabet("es")
    rule = ruleset("fise").racks
    texts = [refusal(hand_draw, Bag(es), [], [], 1, rule, es.split("AB"), 1),
             refusal(hand_draw, Bag(es), [], [], 1, rule, es.split("ZZZZZZZ"), 1),
             refusal(hand_draw, Bag(es), [], [BLANK], 1, rule, es.split("ABCDEFG"), 1)]
    assert texts[:2] == ["move 1: 7 tile(s) must be drawn, not 2", "Z drawn 7 times but only 1 left in the bag"]
    for written, convention in (("%%", "ro"), ("H8H8", "ro"), ("H99", "ro"), ("Z8", "ro"), ("8Z", "en"),
                                ("H99", "en"), ("A5", "gr"), ("A5 X", "gr"), ("A B C", "gr")):
        texts.append(refusal(Coordinate.parse, written, convention))
    assert texts[5] == "column 99 out of range in 'H99': columns are 1 to 15"
    texts += [refusal(Placement.parse, "H8", es), refusal(Placement.of, "H8", " ", es)]
    with Journal(str(tmp_path / "season.db"), actor="arbiter") as j:
        csvfile.import_players(j, "licence,name\nL1,Ana Pop\nL2,Dan Ene\n")
        tid = tournament.create(j, Event("Cupa", "2026-05-01", rules="fise", format="duplicate"), "t1")
        tournament.enrol(j, tid, ["A1"])
        cid = championship.create(j, "Nationala", championship_id="c1")
        championship.add_stage(j, cid, tid)
        championship.eliminate(j, cid, "A1", 1, "RO-7.1")
        texts += [refusal(championship.eliminable, j, cid, "A1", 1), refusal(championship.eliminable, j, cid, "A2", 1),
                  refusal(championship.eliminable, j, cid, "A1", 2), refusal(championship.add_stage, j, cid, tid),
                  refusal(championship.create, j, " "), refusal(tournament.enrol, j, tid, ["A1"]),
                  refusal(tournament.replay(j, tid).enrolment, "A2"), refusal(registry.load(j).get, "A9")]
    assert texts[-8:-5] == ["A1 is eliminated from stage 1 already", "A2 does not play stage 1 (Cupa)",
                            "no stage 2 (stages: 1)"]
    said = gettext_for(lang)
    for text in texts:
        assert isinstance(text, Text), text
        out = said(text)
        left = {w for w in english_words(text.message, lang) if re.search(rf"\b{w}\b", out, re.I)}
        assert not left and "%(" not in out and out != text, (lang, text, out, left)
