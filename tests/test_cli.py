"""The ``arbitru`` engine and lexicon commands through click's runner: output, ``--json`` shapes, and bad
input (one line on stderr, exit status 2, never a traceback).

Most tests use small word lists written in the test; ``demo`` and the default-list tests use LOC 5.0 as
``./arbitru`` installs it under the real home, and fail (never skip) when it is missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arbitru.cli import cli
from arbitru.cli.engine import demo_board, draw_group, unseen
from arbitru.engine.layout import SIZE
from arbitru.engine.tiles import BLANK
from arbitru.errors import LexiconError
from arbitru.lexicons import catalog, sources

WORDS = "casa\nmasa\nas\nam\nsa\nca\nac\nma\ncasam\nmasca\n"

BOARD = """\
# H8 CASA across
...............
...............
...............
...............
...............
...............
...............
.......CASA....
...............
...............
...............
...............
...............
...............
...............
"""


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def fails(*args: str, stdin: str | None = None) -> str:
    """Run a command that must refuse its input: one line on stderr, nothing on stdout, exit status 2."""
    result = run(*args, stdin=stdin)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.fixture
def words(tmp_path: Path) -> str:
    path = tmp_path / "words.txt"
    path.write_text(WORDS, encoding="utf-8")
    return str(path)


@pytest.fixture
def board(tmp_path: Path) -> str:
    path = tmp_path / "board.txt"
    path.write_text(BOARD, encoding="utf-8")
    return str(path)


@pytest.fixture
def loc5() -> catalog.ListInfo:
    try:
        return catalog.info("loc-5.0")
    except LexiconError as e:
        pytest.fail(f"{e} (./arbitru installs it)")


# --- check -------------------------------------------------------------------------------------------------


def test_check_says_valid_or_not_per_word_and_names_the_list(words: str) -> None:
    out = ok("check", "--lexicon", words, "--lang", "ro", "casă", "CASE", "Masa")
    assert out.splitlines() == [
        "casă (CASA): valid",
        "CASE: NOT in the list",
        "Masa (MASA): valid",
        f"word list: words ({Path(words).resolve()}, unofficial, 10 words)",
    ]


def test_check_json(words: str) -> None:
    data = json.loads(ok("check", "--lexicon", words, "--lang", "ro", "--json", "casă", "case"))
    assert data["words"] == [
        {"word": "casă", "tiles": "CASA", "valid": True},
        {"word": "case", "tiles": "CASE", "valid": False},
    ]
    assert data["lexicon"]["name"] == "words" and data["lexicon"]["lang"] == "ro"


def test_check_defaults_to_the_official_romanian_list_ro_2(loc5: catalog.ListInfo) -> None:
    data = json.loads(ok("check", "--json", "țară", "ţară", "tarz"))
    assert [w["valid"] for w in data["words"]] == [True, True, False]
    assert data["lexicon"] == loc5.summary() and data["lexicon"]["official"] is True


# --- score -------------------------------------------------------------------------------------------------


def test_score_legal_placement_word_by_word(words: str, board: str) -> None:
    out = ok("score", "--lexicon", words, "--lang", "ro", "--board", board, "--play", "9G MASCA")
    assert out.splitlines()[0] == "9G MASCA: legal"
    assert "score: " in out and "word list: words" in out


def test_score_json_lists_every_word_and_reason(words: str, board: str) -> None:
    data = json.loads(
        ok("score", "--lexicon", words, "--lang", "ro", "--board", board, "--play", "I8 AM", "--json")
    )
    assert {k: data[k] for k in ("pos", "row", "col", "dir", "word", "legal")} == {
        "pos": "I8",
        "row": 8,
        "col": 7,
        "dir": "H",
        "word": "AM",
        "legal": True,
    }
    # AM across, then the cross words CA and AM down (G-3)
    assert [(w["word"], w["main"]) for w in data["words"]] == [("AM", True), ("CA", False), ("AM", False)]
    assert data["score"] == sum(w["score"] for w in data["words"]) and data["bingo"] == 0
    assert data["new_tiles"] == [{"square": "I8", "tile": "A"}, {"square": "I9", "tile": "M"}]
    assert data["lexicon"]["name"] == "words"


def test_score_illegal_placement_gives_every_reason(words: str, board: str) -> None:
    data = json.loads(
        ok("score", "--lexicon", words, "--lang", "ro", "--board", board, "--play", "A1 CASE", "--json")
    )
    assert not data["legal"]
    assert [r["code"] for r in data["reasons"]] == ["not-connected", "not-in-list"]
    out = ok("score", "--lexicon", words, "--lang", "ro", "--board", board, "--play", "A1 CASE")
    assert out.splitlines()[:3] == [
        "A1 CASE: NOT legal",
        "  - CASE does not touch any tile on the board [not-connected]",
        "  - main word CASE is not in words [not-in-list]",
    ]


def test_score_bingo_and_blank_on_an_empty_board_g_4(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_text("casamas\n", encoding="utf-8")
    data = json.loads(ok("score", "--lexicon", str(path), "--lang", "ro", "--play", "H2 CASAMAs", "--json"))
    assert data["legal"] and data["bingo"] == 50 and data["word"] == "CASAMAs"
    assert data["score"] == data["words"][0]["score"] + 50


def test_score_reads_a_cgp_board_from_stdin_and_other_conventions(words: str) -> None:
    cgp = "15/15/15/15/15/15/15/7CASA4/15/15/15/15/15/15/15 AM/ 0/0 0\n"
    args = ["score", "--lexicon", words, "--lang", "ro", "--board", "-", "--json"]
    greek = run(*args, "--play", "I8 O AM", "--convention", "gr", stdin=cgp)
    english = run(*args, "--play", "9H AM", "--convention", "en", stdin=cgp)
    for result, pos in ((greek, "I8 O"), (english, "9H")):
        data = json.loads(result.stdout)
        assert data["legal"] and data["pos"] == pos and (data["row"], data["col"], data["dir"]) == (8, 7, "H")


# --- moves -------------------------------------------------------------------------------------------------


def test_moves_json_one_object_per_line(words: str, board: str) -> None:
    out = ok(
        "moves", "--lexicon", words, "--lang", "ro", "--board", board, "--rack", "MS?", "--json", "--top", "3"
    )
    moves = [json.loads(line) for line in out.splitlines()]
    assert len(moves) == 3
    for m in moves:
        assert {"pos", "row", "col", "dir", "word", "score", "leave", "lexicon"} <= set(m)
        assert m["dir"] in ("H", "V") and 0 <= m["row"] < SIZE and 0 <= m["col"] < SIZE
        assert m["lexicon"] == "words"
    scores = [m["score"] for m in moves]
    assert scores == sorted(scores, reverse=True)
    # the whole main word, a blank in lower case, and the RO position matching row/col/dir
    best = moves[0]
    row_letter = "ABCDEFGHIJKLMNO"[best["row"]]
    assert best["pos"] == (
        f"{row_letter}{best['col'] + 1}" if best["dir"] == "H" else f"{best['col'] + 1}{row_letter}"
    )
    assert any(c.islower() for m in moves for c in m["word"])


def test_moves_text_and_engines_agree(words: str, board: str) -> None:
    ref, comp = (
        ok("moves", "--lexicon", words, "--lang", "ro", "--board", board, "--rack", "AMS", "--engine", engine)
        for engine in ("reference", "compiled")
    )
    assert ref.splitlines()[0].split() == ["#", "POS", "WORD", "SCORE", "LEAVE"]
    assert ref.splitlines()[-1].startswith("word list: words")
    assert comp == ref


def test_moves_with_nothing_to_play(words: str, board: str) -> None:
    out = ok("moves", "--lexicon", words, "--lang", "ro", "--board", board, "--rack", "Z")
    assert out.splitlines()[0] == "no legal placement for Z"


# --- demo --------------------------------------------------------------------------------------------------


def test_demo_board_words_are_all_in_loc_5_g_5(loc5: catalog.ListInfo) -> None:
    b = demo_board()
    lex = catalog.open_list(loc5)
    words = []
    for horizontal in (True, False):
        for line in range(SIZE):
            run_: list[int] = []
            for i in range(SIZE + 1):
                sq = (line * SIZE + i if horizontal else i * SIZE + line) if i < SIZE else None
                if sq is not None and b.squares[sq]:
                    run_.append(b.squares[sq])
                    continue
                if len(run_) >= 2:
                    words.append(tuple(run_))
                run_ = []
    assert len(words) == 8
    assert [b.alphabet.format(w) for w in words if not lex.contains_tiles(w)] == []
    assert b.squares[b.layout.centre] and min(unseen(b)) >= 0 and unseen(b)[BLANK] == 1


def test_demo_draw_follows_ro_5_2_e_and_replays_with_its_seed() -> None:
    b = demo_board()
    for seed in range(30):
        rack = draw_group(b, seed)
        assert len(rack) == 7 and rack.vowels() >= 1 and rack.consonants() >= 1
        assert all(n <= left for n, left in zip(rack.counts, unseen(b), strict=True))
        assert draw_group(b, seed) == rack


def test_demo_shows_board_best_placement_and_list(loc5: catalog.ListInfo) -> None:
    out = ok("demo", "--seed", "1", "--top", "3", "--no-color")
    lines = out.splitlines()
    assert lines[0].startswith("Romanian anticipation, mid-game board; rack ") and lines[0].endswith(
        "(seed 1)"
    )
    assert lines[1] == f"word list: {loc5.label()}"
    assert "*" in "\n".join(lines[3:19]) and any(line.startswith("best: ") for line in lines)
    assert "\x1b[" not in out
    assert "\x1b[1;33m" in ok("demo", "--seed", "1", "--top", "3", "--color")


def test_demo_json(loc5: catalog.ListInfo) -> None:
    data = json.loads(ok("demo", "--seed", "7", "--json", "--top", "5"))
    assert data["seed"] == 7 and len(data["rack"]) == 7 and data["lexicon"] == loc5.summary()
    assert 1 <= len(data["moves"]) <= 5 and data["moves"][0]["rank"] == 1
    assert {"pos", "row", "col", "dir", "word", "score", "leave"} <= set(data["moves"][0])
    again = json.loads(ok("demo", "--seed", "7", "--json", "--top", "5"))
    assert again == data


# --- lexicon -----------------------------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ARBITRU_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_lexicon_import_build_list(home: Path, words: str) -> None:
    out = ok("lexicon", "import", words, "--lang", "ro", "--name", "loc-7.0", "--official")
    assert out.startswith(f"loc-7.0 ({Path(words).resolve()}, official, 10 words): 10 entries, built in ")
    record = json.loads(ok("lexicon", "build", "loc-7.0", "--json"))
    assert record["name"] == "loc-7.0" and record["words"] == 10 and record["source"]["kind"] == "file"
    rows = [json.loads(line) for line in ok("lexicon", "list", "--json").splitlines()]
    assert {r["name"] for r in rows} == {*sources.OFFICIAL_LISTS, "loc-7.0"}
    table = ok("lexicon", "list")
    assert table.splitlines()[0].split() == ["NAME", "LANG", "OFFICIAL", "DEFAULT", "WORDS", "EDITION"]
    assert "loc-7.0      ro   yes" in table and "(not installed)" in table
    assert json.loads(ok("check", "--lexicon", "loc-7.0", "--json", "masca"))["words"][0]["valid"]
    assert ok("lexicon", "default", "loc-7.0").startswith("loc-7.0 (")
    assert json.loads(ok("check", "--json", "masca"))["lexicon"]["name"] == "loc-7.0"
    assert "loc-7.0      ro   yes      yes" in ok("lexicon", "list")


def test_lexicon_install_quiet_says_nothing_when_installed(
    home: Path, monkeypatch: pytest.MonkeyPatch, tiny_list_spec: sources.ListSpec
) -> None:
    spec = tiny_list_spec
    monkeypatch.setattr(sources, "OFFICIAL_LISTS", {spec.name: spec})
    monkeypatch.setattr(sources, "raw_words", lambda name, cache: ["casă", "masă"])
    first = run("lexicon", "install", "--quiet")
    assert first.exit_code == 0 and "tiny-1.0" in first.stderr
    again = run("lexicon", "install", "--quiet")
    assert again.exit_code == 0 and again.output == ""
    data = json.loads(ok("lexicon", "install", "tiny-1.0", "--json"))
    assert data["name"] == "tiny-1.0" and data["words"] == 2 and data["default"] is False


# --- bad input: one line, exit 2 ---------------------------------------------------------------------------


def test_unknown_list_lists_the_known_ones() -> None:
    line = fails("check", "--lexicon", "nosuch", "casa")
    assert line.startswith("error: unknown word list 'nosuch'; known: loc-5.0,")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("...............\n" * 14, "15 lines of squares, this one has 14"),
        ("...............\n" * 14 + "....\n", "has 4 squares, not 15"),
        ("...............\n" * 14 + "......Ł........\n", "'Ł' is not a letter of the Romanian tile set"),
        ("...............\n" * 14 + ".....XX........\n", "has 2 × X; the Romanian set has 1"),
        ("...............\n" * 14 + ".....abc.......\n", "has 3 × blank; the Romanian set has 2"),
        ("...............\n" * 14 + "K..............\n", "K has no tile"),
        ("15/15/15\n", "CGP board has 3 rows, not 15"),
        (b"\xff\xfe".decode("latin-1"), None),
    ],
)
def test_malformed_board_file(tmp_path: Path, words: str, content: str, message: str | None) -> None:
    path = tmp_path / "bad.txt"
    if message is None:
        path.write_bytes(b"\xff\xfe\x00")
        message = "is not UTF-8"
    else:
        path.write_text(content, encoding="utf-8")
    line = fails("moves", "--lexicon", words, "--lang", "ro", "--board", str(path), "--rack", "AS")
    assert line.startswith("error: ") and message in line


@pytest.mark.parametrize(
    ("rack", "message"),
    [
        ("???", "asks for 3 × blank; the Romanian set has 2"),
        ("XX", "asks for 2 × X; the Romanian set has 1"),
        ("CASAMASA", "a rack holds 1 to 7 tiles"),
        ("KA", "K has no tile"),
        ("ŁA", "not a letter of the Romanian tile set"),
        ("", "a rack holds 1 to 7 tiles"),
        ("H", "asks for 1 × H; the Romanian set has 1, 1 of them on the board"),
    ],
)
def test_impossible_rack(words: str, tmp_path: Path, rack: str, message: str) -> None:
    path = tmp_path / "h.txt"
    path.write_text("...............\n" * 7 + ".......HA......\n" + "...............\n" * 7, encoding="utf-8")
    line = fails("moves", "--lexicon", words, "--lang", "ro", "--board", str(path), "--rack", rack)
    assert message in line


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--lang", "ro", "--lexicon", "{words}", "żółw"),
        ("check", "--lexicon", "{words}", "casa"),
        ("check", "--lexicon", "{tmp}/gone.kwg", "casa"),
        ("check", "--lexicon", "{words}", "--lang", "es", "ñandú", "kiwi"),
        ("score", "--lexicon", "{words}", "--lang", "ro", "--play", "Z9 CASA"),
        ("score", "--lexicon", "{words}", "--lang", "ro", "--play", "CASA"),
        ("score", "--lexicon", "{words}", "--lang", "ro", "--play", "H8 CAŁA"),
        ("score", "--lexicon", "{words}", "--lang", "ro", "--board", "{tmp}/none.txt", "--play", "H8 CASA"),
        ("moves", "--lexicon", "{words}", "--lang", "ro", "--rack", "AS", "--top", "-1"),
        ("moves", "--lexicon", "{words}", "--lang", "ro", "--rack", "AS", "--engine", "fast"),
        ("moves", "--lexicon", "{words}", "--lang", "ro"),
        ("moves", "--lexicon", "{words}", "--lang", "xx", "--rack", "AS"),
        ("demo", "--lexicon", "fise-2"),
        ("lexicon", "import", "{tmp}/none.txt", "--lang", "ro", "--name", "x"),
        ("lexicon", "import", "{words}", "--lang", "ro", "--name", "loc-5.0"),
        ("lexicon", "import", "{words}", "--lang", "ro"),
        ("lexicon", "build", "nosuch"),
        ("lexicon", "default", "nosuch"),
        ("lexicon", "install", "nosuch"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: tuple[str, ...], words: str, tmp_path: Path, home: Path
) -> None:
    fails(*(a.format(words=words, tmp=tmp_path) for a in args))


def test_demo_refuses_an_impossible_rack(loc5: catalog.ListInfo) -> None:
    # the demo board already holds one of the two blanks
    assert "asks for 2 × blank; the Romanian set has 2, 1 of them on the board" in fails(
        "demo", "--rack", "A??"
    )
