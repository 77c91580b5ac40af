"""Nothing stored that replay cannot read, and stored exactly as written.

At the door (the parsers and the CLI's options), numbers are ASCII digits only, every stored text has a
bounded length (:data:`arbitru.textinput.LIMITS`), arguments that are not UTF-8 and CSV files that cannot be
read are refused with one ``error:`` line and exit status 2, and nothing is stored. What is stored is what was
written: a CR inside a quoted field stays a CR, a duplicate slip keeps its surrounding spaces.
"""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from anticipation_support import COLUMNS, csv_text, new_game
from arbitru.cli import cli
from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.slips import SlipFileError as AnticipationSlipFileError
from arbitru.formats.anticipation.slips import parse_notes, read_slips_csv
from arbitru.formats.duplicate.slips import SlipFileError, read_slips
from arbitru.journal.store import Journal
from arbitru.textinput import LIMITS, InputError, ascii_number, check_payload, parse_number
from journal_support import DUPLICATE_LIST
from test_anticipation_correction import GROUPS, LOTS

NOT_ASCII_DIGITS = ["²", "①", "١٢", "٣", "۵", "߅", "𝟙"]


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def refused(result: Result, *words: str) -> str:
    """The one ``error:`` line of a refusal (exit status 2, no traceback)."""
    assert result.exit_code == 2, result.output
    assert not result.exception or isinstance(result.exception, SystemExit), result.exception
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def event_count(path: Path) -> int:
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        (n,) = db.execute("SELECT COUNT(*) FROM event").fetchone()
        (g,) = db.execute("SELECT COUNT(*) FROM game").fetchone()
    return int(n) + int(g)


@pytest.fixture
def duplicate_journal(tmp_path: Path) -> Path:
    """A duplicate game with players 1 and 2 and move 1 open."""
    path = tmp_path / "dup.db"
    new = ["duplicate", "new", "-j", str(path), "--lexicon", DUPLICATE_LIST, "--seed", "3"]
    assert invoke(*new, "--player", "1:Ana", "--player", "2:Bob").exit_code == 0
    assert invoke("duplicate", "next", "-j", str(path)).exit_code == 0
    return path


# --- numbers are ASCII digits only ------------------------------------------------------------------------


@pytest.mark.parametrize("digits", NOT_ASCII_DIGITS)
def test_numbers_ascii_helper_refuses_other_digits(digits: str) -> None:
    assert not digits.isascii() and ascii_number(digits) is None
    with pytest.raises(InputError):
        parse_number(digits, "table")
    assert ascii_number(" 12 ") == 12 and ascii_number("1" * 10) is None


@pytest.mark.parametrize("number", ["²", "①", "١"])
def test_duplicate_player_number_in_ascii_digits(tmp_path: Path, number: str) -> None:
    path = tmp_path / "dup.db"
    result = invoke("duplicate", "new", "-j", str(path), "--lexicon", DUPLICATE_LIST, "--player", f"{number}:Ana")
    refused(result, "digits 0-9")
    assert event_count(path) == 0


@pytest.mark.parametrize("digits", NOT_ASCII_DIGITS)
def test_numeric_options_in_ascii_digits(tmp_path: Path, digits: str) -> None:
    """click reads Unicode digits with int(): the options' own type refuses them, before anything is stored."""
    path = tmp_path / "dup.db"
    refused(invoke("duplicate", "new", "-j", str(path), "--lexicon", DUPLICATE_LIST, "--seconds", digits),
            "--seconds", "ASCII digits")
    refused(invoke("anticipation", "maximum", "x", "-j", str(path), "--beam", digits), "--beam", "ASCII")
    refused(invoke("moves", "--top", digits, "H8"), "--top", "ASCII")
    assert not path.exists() or event_count(path) == 0
    assert invoke("duplicate", "new", "-j", str(path), "--lexicon", DUPLICATE_LIST, "--seconds", " 60").exit_code == 0


def test_duplicate_synthetic_list_size_in_ascii_digits(tmp_path: Path) -> None:
    path = tmp_path / "dup.db"
    refused(invoke("duplicate", "new", "-j", str(path), "--lexicon", "synthetic:²"), "synthetic list size")
    refused(invoke("duplicate", "new", "-j", str(path), "--lexicon", "synthetic:99999999999"), "synthetic")
    assert event_count(path) == 0


@pytest.mark.parametrize("field,value", [("player", "²"), ("table", "①"), ("move", "١"), ("score", "٣")])
def test_FISE_14_duplicate_slip_numbers_in_ascii_digits(duplicate_journal: Path, tmp_path: Path, field: str,
                                                        value: str) -> None:
    cells = {"move": "1", "player": "1", "position": "H8", "word": "CASA", "score": "5", "table": "1"}
    cells[field] = value
    slips = tmp_path / "slips.csv"
    slips.write_text(",".join(cells) + "\n" + ",".join(cells.values()) + "\n", encoding="utf-8")
    before = event_count(duplicate_journal)
    refused(invoke("duplicate", "slips", "-j", str(duplicate_journal), str(slips)), "line 2")
    assert event_count(duplicate_journal) == before
    refused(invoke("duplicate", "slips", "-j", str(duplicate_journal), "--player", "²", "--position", "H8",
                   "--word", "CASA"), "digits 0-9")
    assert event_count(duplicate_journal) == before


@pytest.mark.parametrize("field", ["table", "turn", "collected", "score", "turn_total"])
def test_RO_5_3_anticipation_slip_numbers_in_ascii_digits(field: str) -> None:
    row = {"player": "Ana", "table": "1", "turn": "1", "position": "H7", "word": "AL", "score": "4",
           "turn_total": "4", "note": "", "collected": "1"}
    row[field] = "²"
    text = ",".join(row) + "\n" + ",".join(row.values()) + "\n"
    with pytest.raises(AnticipationSlipFileError, match=f"line 2, field '{field}'"):
        read_slips_csv(text)


def test_RO_5_1_seating_table_in_ascii_digits(tmp_path: Path) -> None:
    game = new_game(tmp_path, GROUPS, LOTS)
    seating = tmp_path / "seating.csv"
    seating.write_text("player,table\nAna,²\n", encoding="utf-8")
    before = event_count(tmp_path / "games.db")
    refused(invoke("anticipation", "players", game.id, str(seating), "--db", str(tmp_path / "games.db")),
            "line 2", "table")
    assert event_count(tmp_path / "games.db") == before


def test_RO_5_3_cancel_note_with_a_huge_number_cannot_break_results(tmp_path: Path) -> None:
    assert parse_notes("Anulez turul " + "7" * 5000)[0].turns == ()
    assert parse_notes("Anulez turul ²")[0].turns == ()
    game = new_game(tmp_path, GROUPS, LOTS)
    with pytest.raises(ArbitruError, match=r"line 2.*at most"):
        game.import_slips_csv(csv_text([("Ana", 1, 1, "H7", "AL", 4, 4, "Anulez turul " + "7" * 5000)]))
    assert game.journal.events(game.id, "slip") == []
    game.import_slips_csv(csv_text([("Ana", 1, 1, "H7", "AL", 4, 4, "Anulez turul " + "7" * 400)]))
    assert game.replay().results["Ana"].total == 4


def test_cgp_empty_runs_in_ascii_digits(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("CAT\nAT\n", encoding="utf-8")
    board = tmp_path / "b.cgp"
    for run in ("²", "١٥", "99999999999999999999"):
        board.write_text("/".join(["15"] * 14 + [run]) + " / 0 0\n", encoding="utf-8")
        result = invoke("score", "--lexicon", str(words), "--lang", "en", "--board", str(board), "--play", "8H CAT")
        refused(result, "CGP row 15")


# --- bounded lengths ---------------------------------------------------------------------------------------


def test_every_stored_text_is_bounded(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        game = journal.create_game("duplicate", {})
        with pytest.raises(InputError, match="note"):
            journal.append(game, "slip", {"note": "x" * (LIMITS["note"] + 1)})
        with pytest.raises(InputError, match="out of range"):
            journal.append(game, "slip", {"move": 10**12})
        with pytest.raises(InputError, match="nested"):
            journal.append(game, "slip", {"rows": [[[[[[[[[["x"]]]]]]]]]]})
        assert journal.events(game) == []
    check_payload({"note": "x" * LIMITS["note"], "totals": {"Ana": 12}}, "slip")


def test_FISE_14_duplicate_slip_fields_bounded(duplicate_journal: Path) -> None:
    before = event_count(duplicate_journal)
    refused(invoke("duplicate", "slips", "-j", str(duplicate_journal), "--player", "1", "--position", "H8",
                   "--word", "A" * 500), "word", "at most")
    refused(invoke("duplicate", "rule", "-j", str(duplicate_journal), "CASA", "--valid", "--reason", "r" * 5000),
            "reason", "at most")
    assert event_count(duplicate_journal) == before


# --- undecodable bytes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["duplicate", "new", "--player", "1:\udcff"],
    ["duplicate", "results", "--game", "x\udcff"],
    ["anticipation", "results", "x\udcff"],
])
def test_arguments_that_are_not_utf8_are_refused(tmp_path: Path, args: list[str]) -> None:
    refused(invoke(*args, "--db" if args[0] == "anticipation" else "-j", str(tmp_path / "j.db")), "not UTF-8")
    assert event_count(tmp_path / "j.db") == 0


def test_journal_game_id_with_undecodable_bytes(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal, pytest.raises(ArbitruError, match="not UTF-8"):
        journal.game("x\udcff")


# --- CSV files --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,words", [
    ("\ufeff", ["empty"]),
    ("\ufeff\n\n", ["empty"]),
    ("move,player,player,position,word\n1,1,2,H8,CASA\n", ["line 1", "player", "twice"]),
    ("move,player,position,word,score\n1,1,H8\n", ["line 2", "3 fields", "header has 5"]),
    ("move,player,position,word\n1,1,H8,CASA,extra\n", ["line 2", "5 fields"]),
    ("move,player,position,word\n1,1,H8,\"" + "A" * 200_000 + "\"\n", ["line 2"]),
])
def test_FISE_14_duplicate_slip_file_refused_with_its_line(text: str, words: list[str]) -> None:
    with pytest.raises(SlipFileError) as e:
        read_slips(text)
    for word in words:
        assert word in str(e.value)


@pytest.mark.parametrize("text,words", [
    ("\ufeff", ["empty"]),
    (COLUMNS + ",turn\nAna,1,1,H7,AL,4,4,,1\n", ["twice"]),
    (COLUMNS + "\nAna,1,1,H7\n", ["line 2", "4 fields"]),
    (COLUMNS + "\nAna,1,1,H7,\"" + "A" * 200_000 + "\",4,4,\n", ["line 2"]),
])
def test_RO_5_3_anticipation_slip_file_refused_with_its_line(text: str, words: list[str]) -> None:
    with pytest.raises(AnticipationSlipFileError) as e:
        read_slips_csv(text)
    for word in words:
        assert word in str(e.value)


def test_FISE_14_duplicate_bom_only_file_through_the_cli(duplicate_journal: Path, tmp_path: Path) -> None:
    slips = tmp_path / "slips.csv"
    slips.write_bytes(b"\xef\xbb\xbf")
    before = event_count(duplicate_journal)
    refused(invoke("duplicate", "slips", "-j", str(duplicate_journal), str(slips)), "empty")
    assert event_count(duplicate_journal) == before


# --- stored exactly as written ----------------------------------------------------------------------------


def test_FISE_6_duplicate_slip_kept_as_written_cr_and_spaces(duplicate_journal: Path, tmp_path: Path) -> None:
    slips = tmp_path / "slips.csv"
    slips.write_bytes(b'move,player,position,word,note\r\n1, 1 , H8 ,casa ,"a\rb\r\nc"\r\n')
    result = invoke("duplicate", "slips", "-j", str(duplicate_journal), str(slips))
    assert result.exit_code == 0, result.output
    with Journal(duplicate_journal) as journal:
        (slip,) = [e.payload for e in journal.events(journal.games()[0].id, "slip")]
    assert (slip["player"], slip["position"], slip["word"], slip["note"]) == (" 1 ", " H8 ", "casa ", "a\rb\r\nc")
    results = invoke("duplicate", "results", "-j", str(duplicate_journal), "--player", "1")
    assert results.exit_code == 0, results.output


def test_RO_5_3_anticipation_slip_keeps_a_cr_inside_a_quoted_field(tmp_path: Path) -> None:
    game = new_game(tmp_path, GROUPS, LOTS)
    slips = tmp_path / "slips.csv"
    slips.write_bytes((COLUMNS + '\r\nAna,1,1,H7,AL,4,4,"Verificare\rAL"\r\n').encode())
    result = invoke("anticipation", "slips", game.id, str(slips), "--db", str(tmp_path / "games.db"))
    assert result.exit_code == 0, result.output
    (slip,) = game.journal.events(game.id, "slip")
    assert slip.payload["rows"][0]["note"] == "Verificare\rAL"


# what a desk may type in a slip's note: any printable text, spaces, CR and LF included; in its other fields one
# line (a control character in a word or position is refused at the door)
_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff") | st.sampled_from(" \r\n\t,;\""),
    max_size=12,
)
_LINE = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff") | st.sampled_from(" ,;\""),
    max_size=12,
)


def _csv(rows: list[list[str]], delimiter: str = ",") -> str:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n", quoting=csv.QUOTE_ALL).writerows(rows)
    return out.getvalue()


@given(st.lists(st.tuples(st.sampled_from(["1", "2", " 1", "2 "]), _LINE, _LINE, _TEXT), min_size=1, max_size=4))
def test_FISE_6_duplicate_slips_round_trip_through_the_cli_unchanged(tmp_path_factory: pytest.TempPathFactory,
                                                                      slips: list[tuple[str, str, str, str]]) -> None:
    rows = [[player, position, word, note] for player, position, word, note in slips]
    if not any(cell.strip() for row in rows for cell in row[1:]) and not rows:
        return
    path = tmp_path_factory.mktemp("dup") / "dup.db"
    assert invoke("duplicate", "new", "-j", str(path), "--lexicon", DUPLICATE_LIST, "--seed", "1",
                  "--player", "1:Ana", "--player", "2:Bob").exit_code == 0
    assert invoke("duplicate", "next", "-j", str(path)).exit_code == 0
    text = _csv([["player", "position", "word", "note"], *rows])
    # --replace: a player may have several slips in the file (the last counts; each is stored as written)
    result = invoke("duplicate", "slips", "-j", str(path), "--replace", "-", stdin=text)
    assert result.exit_code == 0, result.output
    with Journal(path) as journal:
        stored = [e.payload for e in journal.events(journal.games()[0].id, "slip")]
    # rows with no text at all are blank lines, not slips
    kept = [row for row in rows if any(cell.strip() for cell in row)]
    assert [[s["player"], s["position"], s["word"], s["note"]] for s in stored] == kept
    assert invoke("duplicate", "results", "-j", str(path)).exit_code == 0
    assert invoke("duplicate", "export", "-j", str(path)).exit_code == 0


@given(st.lists(st.tuples(st.sampled_from(["Ana", "Dan"]), _LINE, _LINE, _LINE, _TEXT), min_size=1, max_size=4))
def test_RO_5_3_anticipation_slips_round_trip_through_the_cli_unchanged(tmp_path_factory: pytest.TempPathFactory,
                                                                         slips: list[tuple[str, ...]]) -> None:
    tmp = tmp_path_factory.mktemp("ant")
    game = new_game(tmp, GROUPS, LOTS)
    rows = [[player, "1", "1", position, word, score, "", note] for player, position, word, score, note in slips]
    path = tmp / "slips.csv"
    path.write_bytes(_csv([COLUMNS.split(","), *rows]).encode())
    result = invoke("anticipation", "slips", game.id, str(path), "--db", str(tmp / "games.db"))
    kept = [row for row in rows if any(cell.strip() for cell in row)]
    if any(c.isnumeric() and c not in "0123456789" for row in kept for c in row[5]):
        refused(result, "score")
        return
    assert result.exit_code == 0, result.output
    stored = [row for e in game.journal.events(game.id, "slip") for row in e.payload["rows"]]
    fields = ("table", "turn", "position", "word", "score", "turn_total", "note")
    by_player = {p: [r for r in kept if r[0] == p] for p in ("Ana", "Dan")}
    assert sorted([[e.payload["player"], *(r[f] for f in fields)]
                   for e in game.journal.events(game.id, "slip") for r in e.payload["rows"]]) == sorted(kept)
    assert len(stored) == sum(len(v) for v in by_player.values())
    assert invoke("anticipation", "results", game.id, "--db", str(tmp / "games.db")).exit_code == 0


@pytest.mark.parametrize("cell", ["AB\x00C", "A\tB", '"A\nB"'])
def test_control_characters_in_a_slip_files_word_are_refused_naming_the_field(duplicate_journal: Path,
                                                                              tmp_path: Path, cell: str) -> None:
    slips = tmp_path / "slips.csv"
    slips.write_text(f"move,player,position,word\n1,1,H8,{cell}\n")
    before = event_count(duplicate_journal)
    refused(invoke("duplicate", "slips", "-j", str(duplicate_journal), str(slips)), "word", "control")
    assert event_count(duplicate_journal) == before
