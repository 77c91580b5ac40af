"""What the engine and lexicon commands share: one-line usage errors and JSON output."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

#: what a click decorator takes and gives back: a command's function, or a command
Decorated = TypeVar("Decorated", bound=Callable[..., Any] | click.Command)


class UsageLineError(click.ClickException):
    """A usage error told in one line, with the exit status of click's own usage errors."""

    exit_code = 2


class OneLineCommand(click.Command):
    """A command whose usage errors (a missing option, a bad choice) are one line, like every other error."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            raise UsageLineError(f"{e.format_message()} (see: {ctx.command_path} --help)") from None


def emit_json(obj: Any) -> None:
    """One JSON object on one line, non-ASCII letters as they are."""
    click.echo(json.dumps(obj, ensure_ascii=False))


DEFAULT_JOURNAL = "arbitru.db"


def journal_option(dest: str = "journal") -> Callable[[Decorated], Decorated]:
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
