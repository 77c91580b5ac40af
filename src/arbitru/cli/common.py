"""What the engine and lexicon commands share: one-line usage errors and JSON output."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from arbitru.errors import ArbitruError


class OneLineCommand(click.Command):
    """A command whose usage errors (a missing option, a bad choice) are one line, like every other error."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            error = click.ClickException(f"{e.format_message()} (see: {ctx.command_path} --help)")
            error.exit_code = 2
            raise error from None


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
