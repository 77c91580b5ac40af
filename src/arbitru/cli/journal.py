"""``arbitru journal``: check a journal file, and move games in and out of it as JSON lines.

``check`` runs SQLite's integrity check, then replays every game as the formats do (results included) and names
each damaged game and event; the others stay readable. ``export`` writes one game as JSON lines (a first line
for the game, then one per event, every field as stored) that any tool can read; ``import`` stores such a file
as a new game, all or nothing, after replaying it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from arbitru.cli.common import OneLineGroup, emit_json, journal_option, json_option
from arbitru.errors import ArbitruError, JournalError
from arbitru.formats import ANTICIPATION, DUPLICATE, Format, drawcheck, fairness, format_of
from arbitru.journal import sealed
from arbitru.journal.backends import journal_exists
from arbitru.journal.store import Event, GameInfo, Journal

#: the first line of an export names what follows
EXPORT_KIND = "arbitru-journal-game"
EXPORT_VERSION = 1


@dataclass(frozen=True)
class Replayed:
    """A game replayed to its end: ``digest`` is the same for the same events, on any store."""

    game: str
    format: str
    events: int
    digest: str


def replay_game(journal: Journal, game_id: str) -> Replayed:
    """Replay one game as its format does, results included.

    :raises ArbitruError: naming the game (and the event) when it cannot be replayed.
    """
    info = journal.game(game_id)
    try:
        fmt = format_of(info)
        if fmt is not None:
            digest, events = DIGESTS[fmt](journal, game_id)
        elif info.format in ("registry", "tournament", "championship"):
            digest, events = _season_digest(journal, game_id, info.format)
        else:
            raise JournalError(f"unknown format {info.format!r}")
    except ArbitruError as e:
        text = str(e)
        raise JournalError(text if text.startswith(f"game {game_id}") else f"game {game_id}: {text}") from None
    return Replayed(game_id, info.format, events, digest)


def _season_digest(journal: Journal, game_id: str, format: str) -> tuple[str, int]:
    """The registry, a tournament or a championship folded from its events."""
    from arbitru.season import championship, registry, tournament

    state: object
    if format == "registry":
        state = registry.load(journal)
    elif format == "tournament":
        state = tournament.replay(journal, game_id)
    else:
        state = championship.replay(journal, game_id)
    return hashlib.sha256(repr(state).encode()).hexdigest()[:16], journal.last_seq(game_id)


def _duplicate_digest(journal: Journal, game_id: str) -> tuple[str, int]:
    from arbitru.formats.duplicate import export, gcg, results
    from arbitru.formats.duplicate.game import Session
    from arbitru.lexicons.synthetic import load_lexicon

    session = Session(journal, game_id)
    lexicon = load_lexicon(session.settings.lexicon, session.settings.lang)
    session.lexicon = lexicon
    text = gcg.write(session.game) + export.render(results.compute(session.game, lexicon), "csv")
    return hashlib.sha256(text.encode()).hexdigest()[:16], session.game.last_seq


def _anticipation_digest(journal: Journal, game_id: str) -> tuple[str, int]:
    from arbitru.formats.anticipation.game import AnticipationGame

    state = AnticipationGame(journal, game_id).replay()
    return state.digest(), state.last_seq


#: each format's digest of its replayed game
DIGESTS: dict[Format, Callable[[Journal, str], tuple[str, int]]] = {
    DUPLICATE: _duplicate_digest,
    ANTICIPATION: _anticipation_digest,
}


# --- export and import -------------------------------------------------------------------------------------


def export_lines(journal: Journal, game_id: str) -> list[str]:
    """One game as JSON lines: the game, then each event with its seq, kind, payload, time and actor. A game
    whose draws came from a secret carries it (``secret``) once its results are final, never before."""
    info = journal.game(game_id)
    head = {
        "kind": EXPORT_KIND,
        "version": EXPORT_VERSION,
        "id": info.id,
        "format": info.format,
        "created": info.created,
        "settings": info.settings,
    }
    revealed = _revealed(journal, info)
    if revealed:
        head["secret"] = revealed
    lines = [json.dumps(head, ensure_ascii=False, sort_keys=True)]
    for e in journal.iter_events(game_id):
        record = {"seq": e.seq, "kind": e.kind, "payload": e.payload, "recorded": e.recorded, "actor": e.actor}
        lines.append(json.dumps(record, ensure_ascii=False, sort_keys=True))
    return lines


def read_export(text: str) -> tuple[GameInfo, list[Event]]:
    """Read :func:`export_lines`' output back.

    :raises JournalError: naming the line that cannot be read.
    """
    rows = [line for line in text.splitlines() if line.strip()]
    if not rows:
        raise JournalError("the file is empty: no game to import")
    records = []
    for n, line in enumerate(rows, 1):
        try:
            value = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            raise JournalError(f"line {n}: not JSON ({e})") from None
        if not isinstance(value, dict):
            raise JournalError(f"line {n}: not a JSON object")
        records.append(value)
    head = records[0]
    if head.get("kind") != EXPORT_KIND or head.get("version") != EXPORT_VERSION:
        raise JournalError(f"line 1: not an arbitru game export (version {EXPORT_VERSION})")
    try:
        info = GameInfo(_str(head, "id"), _str(head, "format"), _str(head, "created"), _obj(head, "settings"))
        events = [
            Event(_int(r, "seq"), _str(r, "kind"), _obj(r, "payload"), _str(r, "recorded"), _str(r, "actor"))
            for r in records[1:]
        ]
    except KeyError as e:
        raise JournalError(f"the export is missing or mistypes {e.args[0]}") from None
    return info, events


def _revealed(journal: Journal, info: GameInfo) -> str:
    """A game's secret once its results are final ("" before, or for a game without one)."""
    if format_of(info) is None or not info.settings.get("commitment"):
        return ""
    return drawcheck.account(journal, info.id).secret


def export_secret(text: str) -> str | None:
    """The revealed secret an export's first line carries (None: none)."""
    first = text.split("\n", 1)[0]
    try:
        head = json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        return None
    secret = head.get("secret") if isinstance(head, dict) else None
    return secret if isinstance(secret, str) and fairness.well_formed(secret) else None


def _str(record: dict[str, Any], key: str) -> str:
    value = record.get(key)
    if not isinstance(value, str):
        raise KeyError(f"{key!r} (text)")
    return value


def _int(record: dict[str, Any], key: str) -> int:
    value = record.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise KeyError(f"{key!r} (a whole number)")
    return value


def _obj(record: dict[str, Any], key: str) -> dict[str, Any]:
    value = record.get(key)
    if not isinstance(value, dict):
        raise KeyError(f"{key!r} (an object)")
    return value


def import_game(journal: Journal, info: GameInfo, events: list[Event]) -> Replayed:
    """Store an exported game, then replay it inside the same transaction: a game that does not replay is
    not stored."""
    with journal.transaction():
        journal.import_game(info, events)
        return replay_game(journal, info.id)


def copy_games(source: Journal, target: Journal, games: list[str] | None = None) -> list[tuple[Replayed, Replayed]]:
    """Copy games between journals, each replayed on both sides; raises when a replay differs."""
    pairs = []
    for gid in games or source.game_ids():
        info = source.game(gid)
        before = replay_game(source, gid)
        with target.transaction():
            after = import_game(target, info, source.events(gid))
            secret = sealed.secret_of(source, gid) if info.settings.get("commitment") else None
            if secret is not None:  # a game moved mid-way still draws from the secret it committed to
                sealed.keep(target, gid, secret)
        if (before.digest, before.events) != (after.digest, after.events):
            raise JournalError(f"game {gid}: the copy does not replay as the original")
        pairs.append((before, after))
    return pairs


# --- commands ----------------------------------------------------------------------------------------------


def _existing(path: str) -> Journal:
    if not journal_exists(path):
        raise JournalError(f"no journal {path}")
    return Journal(path)


@click.group(cls=OneLineGroup)
def journal() -> None:
    """The journal file: check it, export and import games as JSON lines."""


@journal.command()
@click.argument("file", required=False)
@journal_option()
@json_option("Print the report as JSON data.")
def check(file: str | None, journal: str, as_json: bool) -> None:
    """SQLite's integrity check (on SQLite), then a full replay of every game; exit 1 when anything is damaged."""
    with _existing(file or journal) as j:
        path, store = j.path, j.backend.name  # the address without its password
        problems = j.integrity()
        report: list[dict[str, Any]] = []
        try:
            ids = j.game_ids()
        except JournalError as e:
            problems.append(str(e))
            ids = []
        for gid in ids:
            try:
                r = replay_game(j, gid)
                report.append({"game": gid, "format": r.format, "events": r.events, "digest": r.digest, "ok": True})
            except ArbitruError as e:
                report.append({"game": gid, "ok": False, "error": str(e)})
    damaged = bool(problems) or any(not g["ok"] for g in report)
    if as_json:
        emit_json({"journal": path, "integrity": problems or ["ok"], "games": report, "ok": not damaged})
    else:
        checked = "SQLite integrity" if store == "sqlite" else "PostgreSQL"
        click.echo(f"journal {path}: {checked} {'ok' if not problems else 'FAILED'}")
        for p in problems:
            click.echo(f"  {p}")
        for g in report:
            if g["ok"]:
                click.echo(f"  game {g['game']} ({g['format']}): {g['events']} events replay, digest {g['digest']}")
            else:
                click.echo(f"  game {g['game']}: DAMAGED: {g['error']}")
        good = sum(1 for g in report if g["ok"])
        click.echo(f"{good} of {len(report)} games replay" + ("; the journal is damaged" if damaged else ""))
    if damaged:
        sys.exit(1)


@journal.command(name="export")
@click.argument("file")
@click.option("--game", "-g", "game_id", required=True, help="The game to export.")
@click.option("--out", type=click.Path(dir_okay=False, allow_dash=True), default="-", help="Where (default: stdout).")
@json_option("The export is JSON lines already; this says so.")
def export_cmd(file: str, game_id: str, out: str, as_json: bool) -> None:
    """Write one game as JSON lines: the game, then every event as stored (a backup any tool can read)."""
    with _existing(file) as j:
        text = "\n".join(export_lines(j, game_id)) + "\n"
    _write(out, text)


@journal.command(name="import")
@click.argument("file")
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
@json_option("Print the result as JSON data.")
def import_cmd(file: str, source: str, as_json: bool) -> None:
    """Store a game exported as JSON lines (SOURCE, or - for stdin) in the journal FILE, all or nothing."""
    text = _read(source)
    info, events = read_export(text)
    secret = export_secret(text)
    with Journal(file) as j, j.transaction():
        r = import_game(j, info, events)
        if secret is not None and info.settings.get("commitment") == fairness.commitment(info.id, secret):
            sealed.keep(j, info.id, secret)
    if as_json:
        emit_json(_replayed_dict(r))
        return
    click.echo(f"game {r.game} ({r.format}): {r.events} events imported and replayed, digest {r.digest}")


def _replayed_dict(r: Replayed) -> dict[str, Any]:
    return {"game": r.game, "format": r.format, "events": r.events, "digest": r.digest}


@journal.command(name="copy")
@click.argument("source")
@click.argument("target")
@click.option("--game", "-g", "games", multiple=True, help="Only these games (default: all).")
@json_option("Print the result as JSON data.")
def copy_cmd(source: str, target: str, games: tuple[str, ...], as_json: bool) -> None:
    """Copy games from one journal to another, each replayed on both sides and compared."""
    with _existing(source) as src, Journal(target) as dst:
        pairs = copy_games(src, dst, list(games) or None)
    if as_json:
        emit_json({"copied": [_replayed_dict(before) for before, _ in pairs]})
        return
    for before, _after in pairs:
        click.echo(f"game {before.game} ({before.format}): {before.events} events, digest {before.digest}: same")
    click.echo(f"{len(pairs)} games copied")


@journal.command(name="verify-draw")
@click.argument("source", metavar="JOURNAL")
@click.argument("game_id", metavar="GAME")
@click.option("--lexicon", default=None, help="The word list the groups were drawn under (default: the game's).")
@json_option("Print the report as JSON data.")
def verify_draw_cmd(source: str, game_id: str, lexicon: str | None, as_json: bool) -> None:
    """Check every draw of GAME against its revealed secret (or its known seed): JOURNAL is the journal file (or
    address) or the game's export (JSON lines, from the results page or 'journal export'). Says, draw by draw,
    whether each matches, names the first that differs; exit 1 when one differs or the secret is not the one
    committed to."""
    info, events, secret = _game_to_check(source, game_id)

    def word_list() -> Any:
        from arbitru.formats.anticipation.game import resolve_lexicon

        return resolve_lexicon(lexicon or str(info.settings.get("lexicon", "")))

    report = drawcheck.verify(info, events, secret, word_list)
    if as_json:
        emit_json(report.to_dict())
    else:
        _show_report(report, info, secret)
    if not report.ok:
        sys.exit(1)


def _game_to_check(source: str, game_id: str) -> tuple[GameInfo, list[Event], str | None]:
    """The game, its events and its revealed secret, from a journal or an export file."""
    path = Path(source)
    if path.is_file() and path.read_bytes()[:1] == b"{":
        text = _read(source)
        info, events = read_export(text)
        if info.id != game_id:
            raise JournalError(f"{source} holds game {info.id}, not {game_id}")
        return info, events, export_secret(text)
    with _existing(source) as j:
        info = j.game(game_id)
        shown = drawcheck.account(j, game_id)
        return info, j.events(game_id), shown.secret or None


def _show_report(report: drawcheck.Report, info: GameInfo, secret: str | None) -> None:
    what = "racks" if info.format == "duplicate" else "groups and lots"
    said = {"secret": f"{what} drawn from a secret, revealed after the results",
            "known-seed": f"{what} drawn from a known seed ({drawcheck.account_of(info).seed}): anyone who knows it "
                          "knows them",
            "hall": f"{what} drawn by hand in the hall: the program drew none of them",
            "prepared": "racks prepared in advance (FISE-7b): the program drew none of them"}
    click.echo(f"game {report.game} ({report.format}): {said[report.source]}")
    if report.commitment_ok is not None:
        commitment = str(info.settings.get("commitment"))
        verdict = ("matches the secret" if report.commitment_ok
                   else "does NOT match the secret: not the one committed to")
        click.echo(f"commitment {commitment}: {verdict}")
        click.echo(f"  (SHA-256 of \"{report.game}:{secret}\")")
    for c in report.checks:
        if c.ok is None:
            verdict = {"hall": "from the hall (typed, not drawn by the program)", "prepared": "prepared (FISE-7b)",
                       "past": "a past game's (training)"}.get(c.origin, "not recomputed")
            if c.note:
                verdict += f": {c.note}"
        elif c.ok:
            verdict = "matches"
        else:
            verdict = f"DIFFERS: the secret gives {c.expected}" if report.source == "secret" else \
                f"DIFFERS: the seed gives {c.expected}"
            if c.note:
                verdict += f" ({c.note})"
        click.echo(f"  event {c.seq:>4}  {c.what:<44} {c.recorded:<26} {verdict}")
    if report.problem:
        click.echo(f"the journal does not replay: {report.problem}")
    program = [c for c in report.checks if c.ok is not None]
    first = report.first_difference
    if first is not None:
        click.echo(f"FIRST DIFFERENCE: event {first.seq}, {first.what}: the journal says {first.recorded}, "
                   f"the {'secret' if report.source == 'secret' else 'seed'} gives {first.expected}")
    elif report.ok:
        typed = len(report.checks) - len(program)
        click.echo(f"every draw the program made matches: {len(program)} of {len(program)}"
                   + (f" ({typed} not drawn by the program, listed above)" if typed else ""))


def _read(source: str) -> str:
    data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JournalError(f"{source}: not UTF-8 (byte {e.start})") from None


def _write(out: str, text: str) -> None:
    if out == "-":
        click.echo(text, nl=False)
    else:
        Path(out).write_text(text, encoding="utf-8")


commands = [journal]
