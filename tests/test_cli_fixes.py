"""Fixes found while judging real cases, through the whole command line: letters a language does not have,
usage errors, ``--json`` everywhere, numeric options in range."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from arbitru.cli import cli
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
        (("duplicate", "next", "--choose", "x"), "'x' is not a valid integer"),
        (("anticipation", "new"), "give --seed N"),  # raised by the command itself
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
