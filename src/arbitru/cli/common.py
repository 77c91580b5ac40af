"""What the engine and lexicon commands share: one-line usage errors and JSON output."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

import click

from arbitru.errors import ArbitruError

#: what a click decorator takes and gives back: a command's function, or a command
Decorated = TypeVar("Decorated", bound=Callable[..., Any] | click.Command)


class OneLineUsageError(click.ClickException):
    """A usage error shown as every other error: one ``error:`` line on stderr, exit status 2."""

    exit_code = 2

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True, file=file)


def one_line(e: click.UsageError, ctx: click.Context | None = None) -> OneLineUsageError:
    """The one-line form of a usage error (a missing option, a bad choice, an unknown command), naming the
    command whose ``--help`` says more (``ctx``: the command that raised it, when the error does not say)."""
    where = e.ctx or ctx
    path = where.command_path if where is not None else "arbitru"
    return OneLineUsageError(f"{e.format_message()} (see: {path} --help)")


class OneLineCommand(click.Command):
    """A command whose usage errors (a missing option, a bad choice) are one line, like every other error."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            raise one_line(e, ctx) from None

    def invoke(self, ctx: click.Context) -> Any:
        # a usage error found by the command itself (two options that exclude each other)
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            raise one_line(e, ctx) from None


class OneLineGroup(click.Group):
    """A group of commands whose usage errors, and those of every command and group under it, are one line."""

    command_class = OneLineCommand
    group_class = type  # groups made with ``@group.group()`` are OneLineGroup too

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            raise one_line(e, ctx) from None

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as e:
            raise one_line(e, ctx) from None


class Number(click.IntRange):
    """A whole number in a range, written in ASCII digits: click's ``int()`` also reads ``١٠`` and other Unicode
    digits, which the door refuses everywhere else."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not re.fullmatch(r"[+-]?[0-9]+", value.strip()):
            self.fail(f"{value!r} is not a whole number in ASCII digits", param, ctx)
        return super().convert(value, param, ctx)


# Every numeric option is range-checked at the door (one error line, nothing stored): a number the journal
# (SQLite: 64-bit integers) or the compiled core (32-bit counts) cannot hold never gets in.
#: seeds: any non-negative 64-bit integer
SEED = Number(0, 2**63 - 1)
#: how many placements to list (0: all)
TOP = Number(0, 100_000)
#: a move number of a duplicate game (at most one tile placed per move, and few tile sets have 104 tiles)
MOVE = Number(1, 1_000)
#: a score written on a slip, a bonus, points set by a decision
POINTS = Number(-10_000, 10_000)
#: a FISE-11 bonus
BONUS = Number(0, 1_000)
#: a table number, a journal event number
TABLE = Number(1, 100_000)
EVENT = Number(1, 2**63 - 1)


def emit_json(obj: Any) -> None:
    """One JSON object on one line, non-ASCII letters as they are."""
    click.echo(json.dumps(obj, ensure_ascii=False))


def json_option(help: str = "Print the result as JSON data.") -> Callable[[Decorated], Decorated]:
    """``--json``: the command prints its result as one JSON object (:func:`emit_json`) into ``as_json``."""
    return click.option("--json", "as_json", is_flag=True, help=help)


DEFAULT_JOURNAL = "arbitru.db"


def journal_option(dest: str = "journal") -> Callable[[Decorated], Decorated]:
    """``--journal`` / ``--db`` / ``-j``: the journal holding the games (a SQLite file, or ``postgresql://…``),
    for every command."""
    return click.option(
        "--journal",
        "--db",
        "-j",
        dest,
        envvar="ARBITRU_JOURNAL",
        default=DEFAULT_JOURNAL,
        show_default=True,
        help="The journal holding the games: a SQLite file or postgresql://… ($ARBITRU_JOURNAL).",
    )


def read_text(path: str) -> str:
    """A UTF-8 text file (``-``: standard input) exactly as written: no newline is translated, so a CR inside
    a quoted CSV field stays a CR (the CSV readers split the lines themselves).

    :raises ArbitruError: when it is not UTF-8 text.
    """
    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ArbitruError(f"{path}: not UTF-8 text (byte {e.start})") from None
