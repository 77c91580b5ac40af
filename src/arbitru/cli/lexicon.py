"""``arbitru lexicon list|install|import|build|default``: the word lists of the catalog."""

from __future__ import annotations

from pathlib import Path

import click

from arbitru.cli.common import OneLineCommand, OneLineGroup, emit_json, json_option
from arbitru.engine.tiles import LANGUAGES
from arbitru.lexicons import catalog


def _record(info: catalog.ListInfo, defaults: dict[str, str] | None = None) -> dict[str, object]:
    out = dict(vars(info))
    out["default"] = (defaults or catalog.defaults()).get(info.lang) == info.name
    return out


@click.group("lexicon", cls=OneLineGroup)
def lexicon() -> None:
    """Word lists: list, install the official ones, import a new edition, rebuild, pick the default."""


@lexicon.command("list", cls=OneLineCommand)
@json_option("One JSON object per list.")
def list_cmd(as_json: bool) -> None:
    """The known word lists: built-in (installed or not) and imported."""
    rows = catalog.list_lexicons()
    defaults = catalog.defaults()
    if as_json:
        for info in rows:
            emit_json(_record(info, defaults))
        return
    click.echo(f"{'NAME':<12} {'LANG':<4} {'OFFICIAL':<8} {'DEFAULT':<7} {'WORDS':>9}  EDITION")
    for info in rows:
        words = f"{info.words:,}" if info.installed else "-"
        click.echo(
            f"{info.name:<12} {info.lang:<4} {'yes' if info.official else 'no':<8} "
            f"{'yes' if defaults.get(info.lang) == info.name else '':<7} {words:>9}  {info.edition}"
            + ("" if info.installed else "  (not installed)")
        )
    click.echo(f"lists in {catalog.lexicon_dir()}")


@lexicon.command("install", cls=OneLineCommand)
@click.argument("names", nargs=-1)
@click.option("--quiet", is_flag=True, help="Say nothing about lists already installed.")
@json_option("One JSON object per list.")
def install_cmd(names: tuple[str, ...], quiet: bool, as_json: bool) -> None:
    """Fetch and compile built-in lists (all by default); lists already built are skipped."""
    done = catalog.install(list(names) or None, quiet=quiet, echo=lambda line: click.echo(line, err=True))
    if as_json:
        for info in done:
            emit_json(_record(info))


@lexicon.command("import", cls=OneLineCommand)
@click.argument("file")
@click.option("--lang", required=True, type=click.Choice(LANGUAGES), help="Tile set of the list.")
@click.option("--name", required=True, help="Name in the catalog, e.g. loc-7.0.")
@click.option("--official", is_flag=True, help="Mark it as a list a federation published.")
@click.option("--default", "make_default", is_flag=True, help="Use it from now on when no list is named.")
@json_option("The list's record as JSON.")
def import_cmd(file: str, lang: str, name: str, official: bool, make_default: bool, as_json: bool) -> None:
    """Compile a one-word-per-line UTF-8 file into the catalog (next year's LOC, say)."""
    info = catalog.import_list(Path(file), lang, name, official=official)
    if make_default:
        catalog.set_default(name)
    _report(info, as_json)


@lexicon.command("default", cls=OneLineCommand)
@click.argument("name")
@json_option("The list's record as JSON.")
def default_cmd(name: str, as_json: bool) -> None:
    """Make the installed list NAME its language's default (RO-2: the arbiter picks the list)."""
    info = catalog.set_default(name)
    if as_json:
        emit_json(_record(info))
        return
    click.echo(f"{info.label()} is now the default {info.lang} list")


@lexicon.command("build", cls=OneLineCommand)
@click.argument("name")
@json_option("The list's record as JSON.")
def build_cmd(name: str, as_json: bool) -> None:
    """Rebuild one list from its source (package or imported file)."""
    _report(catalog.build(name), as_json)


def _report(info: catalog.ListInfo, as_json: bool) -> None:
    if as_json:
        emit_json(_record(info))
        return
    click.echo(
        f"{info.label()}: {info.entries:,} entries, built in {info.build_seconds:.1f} s -> {info.path}"
    )
    for reason, count in info.rejected_by_reason.items():
        examples = ", ".join(info.rejected_examples.get(reason, []))
        why = "letters outside the tile set" if reason == "letters" else "not 2–15 tiles"
        click.echo(f"  rejected ({why}): {count:,}, e.g. {examples}")


commands = [lexicon]
