"""What the engine and lexicon commands share: one-line usage errors and JSON output."""

from __future__ import annotations

import json
from typing import IO, Any

import click


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


def emit_json(obj: Any) -> None:
    """One JSON object on one line, non-ASCII letters as they are."""
    click.echo(json.dumps(obj, ensure_ascii=False))


DEFAULT_JOURNAL = "arbitru.db"


def journal_option(dest: str = "journal") -> Any:
    """``--journal`` / ``--db`` / ``-j``: the SQLite journal holding the games, for every format's commands."""
    return click.option(
        "--journal",
        "--db",
        "-j",
        dest,
        envvar="ARBITRU_JOURNAL",
        default=DEFAULT_JOURNAL,
        show_default=True,
        help="The journal (SQLite) holding the games ($ARBITRU_JOURNAL).",
    )
