"""Every command of the command line: letters a language does not have (G-6), usage errors as one line,
``--json`` everywhere, numeric options in range."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from arbitru.cli import cli
from arbitru.cli.common import Number
from arbitru.engine.tiles import alphabet

WORDS = "casa\nmasa\nas\nam\nsa\nca\nac\nma\ncasam\nmasca\ncar\nfir\nnar\n"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, prog_name="arbitru")


def fails(*args: str) -> str:
    """A refused command: one ``error:`` line on stderr, nothing on stdout, exit status 2."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.fixture
def words(tmp_path: Path) -> str:
    path = tmp_path / "words.txt"
    path.write_text(WORDS, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("word", ["Ćar", "Çar", "Ñar", "ﬁr"])
def test_G_6_check_refuses_letters_outside_the_romanian_alphabet(words: str, word: str) -> None:
    # CAR, FIR and NAR are in the list: folding Ć, Ç, Ñ or ﬁ into Romanian letters would call them valid
    line = fails("check", "--lexicon", words, "--lang", "ro", word)
    assert "outside the Romanian tile set" in line and word[0] in line


def test_G_6_check_folds_only_the_languages_own_diacritics(words: str) -> None:
    result = run("check", "--lexicon", words, "--lang", "ro", "casă", "CAȘA", "cașă", "ŞAŢĂ", "masca")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:3] == ["casă (CASA): valid", "CAȘA (CASA): valid", "cașă (CASA): valid"]
    ro, es = alphabet("ro"), alphabet("es")
    assert ro.fold("ĂÂÎȘȚŞŢăâîșțşţ", strict=True) == "AAISTSTAAISTST"
    assert [es.fold(w, strict=True) for w in ("pingüino", "canción", "niño")] == ["PINGUINO", "CANCION", "NIÑO"]
    assert es.fold("Ćar", strict=True) is None and ro.fold("curaçao") == "CURACAO"  # word lists keep loans


def every_command(group: click.Group = cli, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The path of every command and group of the CLI."""
    out = [path] if path else []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            out.extend(every_command(command, (*path, name)))
        else:
            out.append((*path, name))
    return out


@pytest.mark.parametrize("path", every_command(), ids=" ".join)
def test_usage_errors_of_every_command_are_one_error_line(path: tuple[str, ...]) -> None:
    line = fails(*path, "--no-such-option")
    assert "No such option" in line and f"(see: arbitru {' '.join(path)} --help)" in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("duplicate", "nosuch"), "No such command 'nosuch'"),
        (("nosuch",), "No such command 'nosuch'"),
        (("duplicate", "next", "--choose", "x"), "'x' is not a whole number in ASCII digits"),
        # raised by the command itself (issue 28: "anticipation new" alone now draws from a secret)
        (("duplicate", "new", "--seed", ""), "a typed seed is not empty"),
        (("duplicate", "new", "--player", "Ana"), "NUMBER:NAME"),
        (("moves", "--rack"), "requires an argument"),
    ],
)
def test_usage_errors_found_anywhere_are_one_error_line(args: tuple[str, ...], message: str) -> None:
    assert message in fails(*args)


def numeric_parameters() -> list[tuple[str, click.Parameter]]:
    out = []
    for path in every_command():
        command: click.Command = cli
        for name in path:
            assert isinstance(command, click.Group)
            command = command.commands[name]
        out.extend((" ".join(path), p) for p in command.params if isinstance(p.type, click.types.IntParamType))
    return out


def test_every_numeric_option_has_a_range() -> None:
    found = numeric_parameters()
    assert len(found) > 20
    unbounded = [
        f"{path} {p.name}"
        for path, p in found
        if not isinstance(p.type, click.IntRange) or p.type.min is None or p.type.max is None
    ]
    assert not unbounded
    # and every one reads ASCII digits only (click's int() takes other Unicode digits)
    assert not [f"{path} {p.name}" for path, p in found if not isinstance(p.type, Number)]
    # nothing above what SQLite's 64-bit integers hold gets into a journal
    assert all(p.type.max is not None and p.type.max < 2**63 for _, p in found if isinstance(p.type, click.IntRange))


@pytest.mark.parametrize(
    "args",
    [
        ("moves", "--lang", "ro", "--lexicon", "{words}", "--rack", "AS", "--top", "99999999999"),
        ("demo", "--top", "99999999999"),
        ("demo", "--seed", str(2**64)),
        ("duplicate", "slips", "--player", "1", "--score", "99999999999"),
        ("duplicate", "new", "--moves", "99999999999"),
        ("anticipation", "new", "--seed", str(2**64)),
        ("anticipation", "lot", "g", "99999999999"),
    ],
)
def test_numeric_options_out_of_range_are_one_error_line(words: str, args: tuple[str, ...]) -> None:
    line = fails(*(a.replace("{words}", words) for a in args))
    assert "is not in the range" in line


@pytest.mark.parametrize("path", every_command(), ids=" ".join)
def test_every_command_takes_json(path: tuple[str, ...]) -> None:
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    if isinstance(command, click.Group):
        return
    assert any("--json" in p.opts for p in command.params if isinstance(p, click.Option)), path


def json_of(*args: str) -> object:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_duplicate_commands_print_json(tmp_path: Path) -> None:
    db = str(tmp_path / "d.db")

    def d(*args: str) -> Any:
        return json_of("duplicate", args[0], "-j", db, *args[1:], "--json")

    game = d("new", "--lexicon", "fise-2", "--racks", "hand", "--moves", "2", "--player", "1:Ana", "--player", "2:Ion")
    assert game["settings"]["racks"] == "hand" and game["announcement"]
    assert d("next", "--draw", "CASAXYZ")["kind"] == "rack"
    assert d("ties")["ties"][0]["score"] > 0
    verdicts = d("slips", "--player", "1", "--position", "H4", "--word", "CASA", "--score", "12")
    assert verdicts[0]["player"] == "1" and "valid" in verdicts[0]
    assert d("rule", "CASA", "--valid", "--reason", "checked")["word"] == "CASA"
    assert d("withdraw", "2")["after_move"] == 0
    assert d("show")["phase"] == "play"
    result = d("results")
    assert [r["player"] for r in result["ranking"]] and result["masters"] == []
    assert d("results", "--player", "1")["ranking"][0]["player"] == "1"
    assert d("export")["game"] == game["game"]
    assert d("standings")["standings"] is not None
    assert d("end", "power cut")["reason"] == "power cut"


def test_anticipation_commands_print_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from anticipation_support import RO, WORDS_RO, groups_with

    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text(" ".join(WORDS_RO), "utf-8")
    groups = groups_with({1: "AL", 2: "BDEIOTU", 3: "ACEINRT"})
    (tmp_path / "groups.txt").write_text("\n".join(f"{i}: {RO.format(g)}" for i, g in enumerate(groups, 1)), "utf-8")
    (tmp_path / "seating.csv").write_text("player,table,name\nAna,1,Ana\nDan,2,Dan\n", "utf-8")
    (tmp_path / "entrants.csv").write_text("player,rating\nAna,1500\nDan,1400\n", "utf-8")
    (tmp_path / "s.csv").write_text(
        "player,table,turn,position,word,score,turn_total,note\nAna,1,1,H7,AL,4,4,\n", "utf-8"
    )

    def a(*args: str) -> Any:
        return json_of("anticipation", *args, "--db", "t.db", "--json")

    assert a("new", "--groups", "groups.txt", "--lexicon", "words.txt", "--id", "g")["game"] == "g"
    assert a("show", "g")["groups"][0] == "AL"
    assert a("lot", "g", "1", "--group", "2")[0]["group"] == 2
    assert a("players", "g", "seating.csv")["seating"][0]["player"] == "Ana"
    assert a("seat", "g", "entrants.csv")["seating"][0]["table"] == 1
    assert len(a("slips", "g", "s.csv")["events"]) == 1
    assert a("warn", "g", "Dan", "--reason", "noise")["event"] > 0
    assert a("decide", "g", "Ana", "--target", "total", "--action", "adjust", "--points", "1", "--reason", "x")
    assert a("eliminate", "g", "Dan", "--reason", "phone")["event"] > 0
    assert len(a("board", "g", "Ana")["board"]) == 15
    assert a("publish", "g", "--final", "--confirm")["stage"] == "final"
    assert a("forms", "g", "--out", "forms")["files"]
    assert json_of("anticipation", "new", "--variant", "blind", "--lexicon", "words.txt", "--id", "b", "--json")
    (tmp_path / "blind.csv").write_text("".join(f"Ana,{i},{RO.format(g)}\n" for i, g in enumerate(groups, 1)), "utf-8")
    assert json_of("anticipation", "blind", "b", "blind.csv", "--json")["players"] == ["Ana"]
