"""The ``arbitru`` command: a thin click group; each area's commands live in a module of this package.

Commands parse options, call the library and print; user errors (any :class:`ArbitruError`) become one line on
stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from arbitru.cli.common import OneLineGroup
from arbitru.errors import ArbitruError
from arbitru.messages import LANGUAGES, reader
from arbitru.textinput import one_line, undecodable

# module -> attribute: each is a click command or group added to the main group
AREAS = (
    ("arbitru.cli.engine", "commands"),
    ("arbitru.cli.lexicon", "commands"),
    ("arbitru.cli.anticipation", "commands"),
    ("arbitru.cli.duplicate", "commands"),
    ("arbitru.cli.journal", "commands"),
    ("arbitru.cli.season", "commands"),
    ("arbitru.cli.web", "commands"),
)


class ArbitruGroup(OneLineGroup):
    """The main group: every error of every command below it is one ``error:`` line and exit status 2."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # an argument that is not UTF-8 reaches Python as lone surrogates, which nothing can store or look up
        for arg in args:
            if undecodable(arg):
                shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                click.echo(f"error: argument {shown!r} holds bytes that are not UTF-8", err=True)
                sys.exit(2)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except ArbitruError as e:
            click.echo(f"error: {one_line(str(e))}", err=True)
            sys.exit(2)
        except OSError as e:
            click.echo(one_line(f"error: {e.strerror or e}: {e.filename or ''}".rstrip(": ")), err=True)
            sys.exit(2)


@click.group(cls=ArbitruGroup)
@click.version_option(package_name="arbitru")
@click.option(
    "--lang",
    type=click.Choice(sorted(LANGUAGES)),
    default="en",
    show_default=True,
    help="The language verdicts, notes and results are printed in (the catalogs of the web pages); for 'serve', "
         "the language of the pages no game fixes (else each visitor's browser's).",
)
def cli(lang: str) -> None:
    """arbitru: referee software for tournament Scrabble (anticipation and duplicate)."""
    # the language lasts for this command only: a program that runs commands one after another (the tests, a
    # script through click's runner) is back in English after one run with --lang
    token = reader.set(lang)
    click.get_current_context().call_on_close(lambda: reader.reset(token))


for _module, _attr in AREAS:
    for _cmd in getattr(importlib.import_module(_module), _attr):
        cli.add_command(_cmd)


def main() -> None:
    cli(prog_name="arbitru")
