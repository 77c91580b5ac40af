"""Fuzzing every parser the CLI reaches: boards (text and CGP), positions, placements, racks, words, both slip
formats, groups, seating and entrants, prepared games, GCG files, notes and word lists for ``lexicon import``.

Valid inputs are mutated by a seeded generator (the same cases on every run): characters inserted, deleted,
doubled and swapped, digits that are not ASCII, byte-order marks, CR and NUL, quotes and separators, huge
numbers. Every input is either accepted or refused with the project's own error (:class:`ArbitruError`),
never a traceback; every accepted slip file, seating and prepared game is stored in a game and then
``results`` / ``export`` (or the anticipation correction) runs to the end. A sample goes through the CLI,
where a refusal is one ``error:`` line and exit status 2.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from anticipation_support import COLUMNS, csv_text, lexicon, new_game
from arbitru.cli import cli
from arbitru.engine.board import Board
from arbitru.engine.notation import CONVENTIONS, Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import alphabet
from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.draw import parse_group, parse_groups
from arbitru.formats.anticipation.game import AnticipationGame, read_seating_csv
from arbitru.formats.anticipation.seating import read_entrants_csv, seat
from arbitru.formats.anticipation.slips import parse_notes, read_slips_csv
from arbitru.formats.duplicate import export, gcg, racks, results
from arbitru.formats.duplicate.game import Session, Settings, read_prepared
from arbitru.formats.duplicate.rulesets import ruleset
from arbitru.formats.duplicate.slips import read_slips
from arbitru.journal.store import Journal
from arbitru.lexicons import catalog
from journal_support import DUPLICATE_LIST, copy_game, duplicate_lexicon, events_of
from test_anticipation_correction import GROUPS, LOTS

#: what mutations insert: digits that are not ASCII, marks, line ends, separators, letters of other sets
POOL = [
    "²", "①", "٣", "١٢", "߅", "\ufeff", "\r", "\n", "\r\n", "\x00", "\t", '"', ",", ";", "|", "?", "#", "[",
    "]", "/", "-", "+", ":", " ", "ă", "Ș", "Ñ", "Ç", "ﬁ", "\u0301", "Σ", "ς", "CH", "ll", "0", "15", "16",
    "A", "h", "O", "K", "H", "V", "*", "\\", "'", "=", "@", "\u200b", "\U0001f600",
]


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of ``text``."""
    for _ in range(rng.randint(1, 3)):
        i = rng.randint(0, len(text))
        j = min(len(text), i + rng.randint(0, 8))
        op = rng.randrange(9)
        if op == 0:
            text = text[:i] + rng.choice(POOL) + text[i:]
        elif op == 1:
            text = text[:i] + text[j:]
        elif op == 2:
            text = text[:j] + text[i:j] + text[j:]
        elif op == 3 and i < len(text):
            text = text[:i] + rng.choice(POOL) + text[i + 1 :]
        elif op == 4:
            lines = text.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif op == 5:
            text = text[:i]
        elif op == 6:
            text = text[:i] + rng.choice("0123456789²") * rng.choice([2, 10, 40, 5000]) + text[i:]
        elif op == 7:
            text = text[:i] + text[i:j].swapcase() + text[j:]
        else:
            text = text[:i] + "".join(rng.choice(POOL) for _ in range(rng.randint(1, 6))) + text[i:]
    return text


def cases(seeds: list[str], n: int, seed: int) -> Iterator[str]:
    """``n`` inputs: each seed as it is, then mutations of random seeds (deterministic)."""
    rng = random.Random(seed)
    yield from seeds
    for _ in range(n - len(seeds)):
        yield mutate(rng.choice(seeds), rng)


class Tally:
    """Counts accepted and refused inputs; anything but an :class:`ArbitruError` is a failure, named."""

    def __init__(self) -> None:
        self.accepted = 0
        self.refused = 0

    def run(self, what: str, text: str, parse: Callable[[str], Any]) -> Any:
        try:
            value = parse(text)
        except ArbitruError as e:
            assert "\n" not in str(e).strip() or what.startswith("multi"), f"{what}: {e!r}"
            self.refused += 1
            return None
        except Exception as e:  # the test is that nothing else escapes: show the input that broke it
            raise AssertionError(f"{what}: {type(e).__name__}: {e} for input {text[:300]!r}") from e
        self.accepted += 1
        return value

    def check(self, n: int) -> None:
        assert self.accepted + self.refused == n
        assert self.accepted > 0 and self.refused > 0, (self.accepted, self.refused)


def cli_refusal_or_success(args: list[str], stdin: str | None = None) -> int:
    result = CliRunner().invoke(cli, args, input=stdin)
    assert not result.exception or isinstance(result.exception, SystemExit), (args, result.exception)
    assert result.exit_code in (0, 2), (args, result.output)
    if result.exit_code == 2:
        lines = [ln for ln in result.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:"), (args, result.output)
    return result.exit_code


# --- positions, placements, racks, words -------------------------------------------------------------------

POSITIONS = ["H8", "8H", "h 8", "A1", "O15", "H B3", "V B3", "B3 H", "H8 O", "A5K", "8 H", "15O", "Η8 Ο", "A5 Κ"]
RACKS = {
    "ro": ["CASA?", "ȘARPE", "ÎȚ?A", "abc"],
    "es": ["[CH]ALE?", "CHLLRR", "ÑU?", "C H"],
    "en": ["QUIZ?", "AEIOU??"],
    "el": ["ΛΕΞΗ?", "ΣΩΜΑ"],
    "pl": ["ŹDŹBŁO?", "ŻÓŁW"],
    "fr": ["ÉTÉ?", "ZYTHUM"],
}


def test_fuzz_positions_and_placements() -> None:
    tally, n = Tally(), 1500
    for text in cases(POSITIONS, n // len(CONVENTIONS), 1):
        for convention in CONVENTIONS:
            tally.run("position", text, lambda t, c=convention: Coordinate.parse(t, c))
    tally.check(n // len(CONVENTIONS) * len(CONVENTIONS))
    placed, m = Tally(), 600
    for text in cases([f"{p} CASA" for p in POSITIONS[:8]] + ["8H ca[ch]e", "H8 oso"], m, 2):
        placed.run("placement", text, lambda t: Placement.parse(t, alphabet("es"), "fise"))
    placed.check(m)


def test_fuzz_racks_words_and_groups() -> None:
    tally, n = Tally(), 0
    for k, (lang, seeds) in enumerate(RACKS.items()):
        alpha = alphabet(lang)
        for text in cases(seeds, 250, 10 + k):
            n += 4
            tally.run("rack", text, alpha.parse_rack)
            tally.run("word", text, lambda t, a=alpha: a.split(t, blanks=True))
            tally.run("tiles", text, lambda t, a=alpha: racks.parse_tiles(a, t))
            tally.run("group", text, lambda t, a=alpha: parse_group(a, t))
    tally.check(n)
    notes = Tally()
    for text in cases(["Anulez turul 3", "Verificare: CASA, ASE", "PAS", "anulez tur 5 si 6 | Verificare"], 500, 3):
        notes.run("notes", text, parse_notes)
    assert notes.accepted == 500  # a note is never refused: it is kept as written and read as it can be


# --- boards -----------------------------------------------------------------------------------------------


def test_fuzz_boards_text_and_cgp(tmp_path: Path) -> None:
    es = alphabet("es")
    board = Board(es)
    board.play(Placement.parse("H8 CASA", es))
    board.play(Placement.parse("8H CaRRO", es))
    text_seeds = [board.to_text(), Board(es).to_text(), "# comment\n" + board.to_text()]
    cgp_seeds = [board.to_cgp() + " / 0 0 lex FISE2;", Board(es).to_cgp(), "15/" * 14 + "7[CH]7"]
    tally = Tally()
    for text in cases(text_seeds, 300, 4):
        tally.run("board", text, lambda t: Board.from_text(t, es))
    for text in cases(cgp_seeds, 500, 5):
        tally.run("cgp", text, lambda t: Board.from_cgp(t, es))
    tally.check(800)
    words = tmp_path / "words.txt"
    words.write_text("CASA\nCASAS\nOSO\n", encoding="utf-8")
    for i, text in enumerate(cases(cgp_seeds + text_seeds, 30, 6)):
        path = tmp_path / f"board{i}.txt"
        path.write_text(text, encoding="utf-8")
        cli_refusal_or_success(
            ["score", "--lexicon", str(words), "--lang", "es", "--board", str(path), "--play", "H12 OSO"]
        )


# --- duplicate: slips, prepared games, GCG ----------------------------------------------------------------

DUPLICATE_SLIPS = [
    "move,player,position,word,score\n1,1,H8,CASA,12\n1,2,8H,casa,\n",
    "player;position;word;late;illegible;table;note\n1;H8;CASA;no;;1;bien\n2; 8G ;CASAS;yes;x;2;\"a;b\"\n",
    "\ufeffplayer\tposition\tword\n1\tH8\tC[CH]A\n",
    'move,player,position,word,note\r\n1,1,H8,CASA,"two\r\nlines"\r\n',
]


def test_fuzz_duplicate_slip_files_then_results(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "dup.db")
    lex = duplicate_lexicon()
    settings = Settings(ruleset("fise"), "es", DUPLICATE_LIST, seed="5")
    from arbitru.formats.duplicate.game import Player

    session = Session.create(journal, settings, lex, [Player("1", "Ana"), Player("2", "Bob")])
    session.draw()
    base = events_of(journal, session.id)
    tally, stored = Tally(), 0
    for i, text in enumerate(cases(DUPLICATE_SLIPS, 2000, 7)):
        slips = tally.run("duplicate slips", text, lambda t: read_slips(t, move=1))
        if slips:  # every accepted file is stored in a game of its own, then the results are computed
            game = Session(journal, copy_game(journal, session.id, base), lex)
            if Tally().run("store", text, lambda _t, g=game, s=slips: g.add_slips(s)) is not None:
                stored += 1
                game.place_master()
                again = Session(journal, game.id, lex).game  # replayed from the journal
                export.render(results.compute(again, lex), "csv")
                gcg.write(again)
        if i % 40 == 0:
            path = tmp_path / f"slips{i}.csv"
            path.write_bytes(text.encode("utf-8"))
            cli_refusal_or_success(["duplicate", "slips", "-j", str(journal.path), "-g", session.id, str(path)])
            cli_refusal_or_success(["duplicate", "results", "-j", str(journal.path), "-g", session.id])
    tally.check(2000)
    assert stored > 200


PREPARED = [
    "CASAOSO\nAEIOU?? H8 OSO\n# comment\nRRLLCHS\n",
    "[CH]ALEOS H8 CHALE\nQUESO?\n",
    ">Ana: CASAOSO H8 CASA +12 12\n>Ana: OSOAEIU 8H OSO +3 15\n",
]


def test_fuzz_prepared_games_and_gcg(tmp_path: Path) -> None:
    es = alphabet("es")
    lex = duplicate_lexicon()
    journal = Journal(tmp_path / "prep.db")
    tally, played = Tally(), 0
    for text in cases(PREPARED, 400, 8):
        moves = tally.run("prepared", text, lambda t: read_prepared(t, es, "fise"))
        if moves:
            settings = Settings(ruleset("fise"), "es", DUPLICATE_LIST, racks="prepared", prepared=moves)
            session = Tally().run("new game", text, lambda _t, s=settings: Session.create(journal, s, lex))
            if session is not None:
                played += 1
                Tally().run("play", text, lambda _t, s=session: s.play_auto(max_moves=2))
                again = Session(journal, session.id, lex)
                export.render(results.compute(again.game, lex), "text")
                gcg.write(again.game)
    tally.check(400)
    assert played > 30
    parsed = Tally()
    for text in cases([PREPARED[2], "#player1 Ana Ana\n" + PREPARED[2]], 400, 9):
        parsed.run("gcg", text, lambda t: gcg.read(t, es))
    parsed.check(400)


# --- anticipation: slips, groups, seating, entrants -------------------------------------------------------

ANTICIPATION_SLIPS = [
    csv_text([("Ana", 1, 1, "H7", "AL", 4, 4, "Verificare AL"), ("Ana", 1, 2, "H6", "CAL", 3, 3, "")]),
    csv_text([("Ana", " 1 ", 1, " h7", "al", "4 ", "", "Anulez turul 3; PAS")]),
    csv_text([("Dan", 2, 3, "", "PAS", "", "", "")], header=COLUMNS),
    csv_text([("Ana", 1, 2, "H6", "CAL", 3, 3, "", 2)], header=COLUMNS + ",collected"),
    csv_text([("Ana", 1, 1, "H7", "AL", 4, 4, "", "Ana Pop")], header=COLUMNS + ",name"),
]


def test_fuzz_anticipation_slip_files_then_correction(tmp_path: Path) -> None:
    base = new_game(tmp_path, GROUPS, LOTS)
    journal, lex = base.journal, lexicon()
    events = events_of(journal, base.id)
    tally, corrected = Tally(), 0
    for i, text in enumerate(cases(ANTICIPATION_SLIPS, 2000, 11)):
        slips = tally.run("anticipation slips", text, read_slips_csv)
        if slips:  # every accepted file is stored in a game of its own, then corrected
            game = AnticipationGame(journal, copy_game(journal, base.id, events), lex)
            if Tally().run("store", text, game.import_slips_csv) is not None:
                corrected += 1
                state = AnticipationGame(journal, game.id, lex).replay()
                state.to_dict()
        if i % 50 == 0:
            path = tmp_path / f"slips{i}.csv"
            path.write_bytes(text.encode("utf-8"))
            gid = copy_game(journal, base.id, events)
            db = str(journal.path)
            cli_refusal_or_success(["anticipation", "slips", gid, str(path), "--db", db])
            cli_refusal_or_success(["anticipation", "results", gid, "--db", db])
    tally.check(2000)
    assert corrected > 300


def test_fuzz_groups_seating_and_entrants(tmp_path: Path) -> None:
    ro = alphabet("ro")
    groups_seed = "\n".join(f"{i}: {g}" for i, g in enumerate(["AL", "BDEIOTU", "ACEINRT", "AEINSTV"], 1))
    tally = Tally()
    for text in cases([groups_seed, "AL\nBDEIOTU\n# x\n3 ACEINRT\n", "grupa 1: ĂL\n"], 400, 12):
        tally.run("groups", text, lambda t: parse_groups(ro, t))
    tally.check(400)
    base = new_game(tmp_path, GROUPS, LOTS)
    journal, lex = base.journal, lexicon()
    events = events_of(journal, base.id)
    seating, stored = Tally(), 0
    for text in cases(["player,table,name\nAna,1,Ana Pop\nDan,2,\n", "Ana,1\nDan,2,Dan I\n"], 400, 13):
        seated = seating.run("seating", text, read_seating_csv)
        if seated:
            game = AnticipationGame(journal, copy_game(journal, base.id, events), lex)
            if Tally().run("store", text, lambda _t, g=game, s=seated: g.add_seating(s)) is not None:
                stored += 1
                AnticipationGame(journal, game.id, lex).replay().to_dict()
    seating.check(400)
    assert stored > 50
    entrants = Tally()
    for text in cases(["player,rating,club,late,name\nAna,1900,A,,Ana P\nDan,1800.5,A,yes,\n", "Ion,0\n"], 400, 14):
        found = entrants.run("entrants", text, read_entrants_csv)
        if found:
            seat(found)
    entrants.check(400)


# --- word lists for ``lexicon import`` --------------------------------------------------------------------


@pytest.mark.parametrize(
    "lang,seed", [("ro", "CASĂ\nșarpe\n# comment\nÎNTÂI\n\nab\n"), ("es", "\ufeffchaleco\nÑANDÚ\r\nllama\n")]
)
def test_fuzz_word_lists_for_lexicon_import(tmp_path: Path, lang: str, seed: str) -> None:
    tally = Tally()
    path = tmp_path / "words.txt"
    for i, text in enumerate(cases([seed], 60, 15 if lang == "ro" else 16)):
        data = text.encode("utf-8")
        if i % 7 == 3:
            data = data[: len(data) // 2] + b"\xff\xfe" + data[len(data) // 2 :]  # a byte that is not UTF-8
        path.write_bytes(data)
        info = tally.run(
            "word list", text, lambda _t, name=f"fuzz-{lang}-{i}": catalog.import_list(path, lang, name, home=tmp_path)
        )
        if info is not None:
            assert catalog.load(f"fuzz-{lang}-{i}", home=tmp_path).alphabet.lang == lang
    tally.check(60)


# --- the CLI's own arguments ------------------------------------------------------------------------------


def test_fuzz_cli_arguments_then_results(tmp_path: Path) -> None:
    """Option values typed at the command line (undecodable bytes included): each command stores or refuses
    with one ``error:`` line, and ``results`` then runs."""
    dup = str(tmp_path / "dup.db")
    new = ["duplicate", "new", "-j", dup, "--lexicon", DUPLICATE_LIST, "--seed", "2", "--player", "1:Ana"]
    assert cli_refusal_or_success([*new, "--player", "2:Bob"]) == 0
    assert cli_refusal_or_success(["duplicate", "next", "-j", dup]) == 0
    game = new_game(tmp_path, GROUPS, LOTS, seating=[("Ana", 1, ""), ("Dan", 2, "")])
    ant = str(tmp_path / "games.db")
    rng = random.Random(17)
    seeds = ["1", "H8", "CASA", "casa?", "Anulez turul 3", "dictionary", "2", "Ana"]
    # values as --option=VALUE and positional arguments after "--": a value may start with "-" (usage errors
    # are another matter: here every value reaches the command)
    commands = [
        lambda a, b, c: ["duplicate", "slips", "-j", dup, f"--player={a}", f"--position={b}", f"--word={c}"],
        lambda a, b, c: ["duplicate", "rule", "-j", dup, "--valid", f"--reason={b}", "--", a],
        lambda a, b, c: ["duplicate", "results", "-j", dup, f"--player={a}"],
        lambda a, b, c: ["duplicate", "new", "-j", dup + "-new", f"--lexicon=synthetic:{a}", f"--player={b}:{c}"],
        lambda a, b, c: ["anticipation", "warn", f"--reason={b}", "--db", ant, "--", game.id, a],
        lambda a, b, c: ["anticipation", "decide", "--target", "total", "--action", "adjust", "--points", "5",
                         f"--reason={b}", "--db", ant, "--", game.id, a],
        lambda a, b, c: ["anticipation", "publish", "--provisional", f"--deadline={c}", "--db", ant, "--", game.id],
    ]
    stored = 0
    for i in range(280):
        values = [mutate(rng.choice(seeds), rng) for _ in range(3)]
        if i % 9 == 0:
            values[rng.randrange(3)] += "\udcff"  # an argument that was not UTF-8
        if stored and i % 13 == 0:
            values[rng.randrange(3)] = "x" * 3000
        args = commands[i % len(commands)](*values)
        if cli_refusal_or_success(args) == 0:
            stored += 1
            assert cli_refusal_or_success(["duplicate", "results", "-j", dup]) == 0
            assert cli_refusal_or_success(["anticipation", "results", game.id, "--db", ant]) == 0
    assert 0 < stored < 280
