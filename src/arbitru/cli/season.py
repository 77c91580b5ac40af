"""The season on the command line: ``arbitru registry``, ``tournament``, ``championship``, ``ratings``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from arbitru.cli.common import Number, OneLineGroup, emit_json, journal_option, json_option, read_text
from arbitru.engine.tiles import LANGUAGES
from arbitru.figures import percent
from arbitru.formats import DUPLICATE
from arbitru.journal.store import Journal
from arbitru.season import championship, csvfile, ratings, registry, tournament
from arbitru.season.registry import Entry, RegistryError
from arbitru.season.table import TIE_ORDER, Row, general_table, table_csv, table_text
from arbitru.season.tournament import METHODS
from arbitru.textinput import InputError, parse_signed

YEAR = Number(1850, 2200)
GAMES = Number(0, 10_000)
#: ``--map HEADER=FIELD`` for CSV imports
MAP_HELP = "Read a column as a field, e.g. 'Nume=name' (fields: name, licence, federation, club, birth_year, " \
    "categories, rating)."


def _mapping(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        header, sep, field = pair.partition("=")
        if not sep or not header.strip() or not field.strip():
            raise InputError(f"--map {pair!r}: write HEADER=FIELD")
        out[header.strip()] = field.strip()
    return out


def _ratings(pairs: tuple[str, ...]) -> dict[str, float]:
    out = {}
    for pair in pairs:
        system, sep, value = pair.partition("=")
        if not sep or not system.strip():
            raise InputError(f"--rating {pair!r}: write SYSTEM=VALUE, e.g. elod=1850")
        out[system.strip()] = float(parse_signed(value, f"--rating {system}"))
    return out


#: ``--delimiter`` names -> the character
SEPARATORS = {"comma": ",", "semicolon": ";", "tab": "\t"}


def _decoded(path: str, encoding: str | None) -> str:
    """A CSV file's text (``-``: standard input), in ``encoding`` or the one detected (:func:`csvfile.decode`)."""
    import sys

    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    return csvfile.decode(data, encoding or "")


def _write(text: str, output: str | None) -> None:
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


# --- registry -------------------------------------------------------------------------------------------


@click.group(cls=OneLineGroup)
def registry_() -> None:
    """The player registry: one record per person across games, tournaments and years."""


@registry_.command("add")
@click.argument("name")
@click.option("--licence", default="", help="The federation's licence id (none: arbitru's own id).")
@click.option("--federation", default="")
@click.option("--club", default="")
@click.option("--born", type=YEAR, default=None, help="Birth year.")
@click.option("--category", "categories", multiple=True, help="An age category, series or division (repeatable).")
@click.option("--rating", "rating_pairs", multiple=True, help="SYSTEM=VALUE, e.g. elod=1850 (repeatable).")
@journal_option()
@json_option()
def registry_add(name: str, licence: str, federation: str, club: str, born: int | None, categories: tuple[str, ...],
                 rating_pairs: tuple[str, ...], journal: str, as_json: bool) -> None:
    """Register one player."""
    with Journal(journal) as j:
        pid = registry.register(j, [Entry(name, licence, federation, club, born, categories,
                                          _ratings(rating_pairs))])[0]
        record = registry.load(j).get(pid)
    emit_json(record.to_dict()) if as_json else click.echo(f"{pid} {record.name}")


@registry_.command("import")
@click.argument("file")
@click.option("--map", "maps", multiple=True, help=MAP_HELP)
@click.option("--rating-system", default="elod", show_default=True, help="What a 'rating' column rates.")
@click.option("--encoding", type=click.Choice(csvfile.ENCODINGS), default=None,
              help="The file's encoding (default: UTF-8, else the legacy one its letters show).")
@click.option("--delimiter", type=click.Choice(["comma", "semicolon", "tab"]), default=None,
              help="The cells' separator (default: the header line's).")
@journal_option()
@json_option()
def registry_import(file: str, maps: tuple[str, ...], rating_system: str, encoding: str | None,
                    delimiter: str | None, journal: str, as_json: bool) -> None:
    """Register every player of a CSV file (a header line; UTF-8 with or without BOM, cp1250 or cp1253; cells
    separated by commas, semicolons or tabs), all or none."""
    text = _decoded(file, encoding)
    with Journal(journal) as j:
        ids = csvfile.import_players(j, text, mapping=_mapping(maps), rating_system=rating_system,
                                     map_option="--map", delimiter=SEPARATORS.get(delimiter or "", ""))
    emit_json({"registered": ids}) if as_json else click.echo(f"{len(ids)} players registered")


@registry_.command("rating-list")
@click.argument("file")
@click.option("--system", default="elod", show_default=True, help="The rating system of the list.")
@click.option("--date", required=True, help="The list's date, YYYY-MM-DD.")
@click.option("--federation", default="", help="Whose licence ids the list gives.")
@click.option("--register", "register_unknown", is_flag=True, help="Register players not yet in the registry.")
@journal_option()
@json_option()
def registry_rating_list(file: str, system: str, date: str, federation: str, register_unknown: bool,
                         journal: str, as_json: bool) -> None:
    """Import a federation's published rating list (CSV: licence, name, rating): the season starts from it."""
    text = read_text(file)
    with Journal(journal) as j:
        rated, added = csvfile.import_rating_list(j, registry.load(j), text, system=system, date=date,
                                                  federation=federation, register_unknown=register_unknown,
                                                  source=Path(file).name)
    if as_json:
        emit_json({"rated": rated, "registered": added})
    else:
        click.echo(f"{len(rated)} ratings stored, {len(added)} players registered")


@registry_.command("list")
@journal_option()
@json_option()
def registry_list(journal: str, as_json: bool) -> None:
    """Every record (merged ones point at the record kept)."""
    with Journal(journal) as j:
        reg = registry.load(j)
    if as_json:
        emit_json({"players": [r.to_dict() for r in reg.records.values()]})
        return
    for r in reg.active():
        rated = " ".join(f"{k}={v:g}" for k, v in r.ratings.items())
        click.echo(f"{r.id:<6} {r.licence_id:<12} {r.federation:<5} {r.name:<30} {r.club:<20} {rated}".rstrip())


@registry_.command("export")
@click.option("-o", "--output", default=None, help="Write to this file (default: standard output).")
@journal_option()
@json_option("The records as JSON (the ones not merged), not CSV.")
def registry_export(output: str | None, journal: str, as_json: bool) -> None:
    """The registry as CSV (a spreadsheet opens it safely), or as JSON: the records the CSV holds."""
    with Journal(journal) as j:
        reg = registry.load(j)
    if as_json:
        text = json.dumps({"players": [r.to_dict() for r in reg.active()]}, ensure_ascii=False) + "\n"
    else:
        text = csvfile.write_players(reg)
    _write(text, output)


@registry_.command("correct")
@click.argument("player")
@click.option("--name")
@click.option("--licence")
@click.option("--federation")
@click.option("--club")
@click.option("--born", type=YEAR)
@click.option("--category", "categories", multiple=True)
@click.option("--rating", "rating_pairs", multiple=True, help="SYSTEM=VALUE (replaces the record's ratings).")
@click.option("--reason", default="")
@journal_option()
@json_option()
def registry_correct(player: str, name: str | None, licence: str | None, federation: str | None, club: str | None,
                     born: int | None, categories: tuple[str, ...], rating_pairs: tuple[str, ...], reason: str,
                     journal: str, as_json: bool) -> None:
    """Correct a record: a new event, the old values stay in the journal; every table shows the new name."""
    fields: dict[str, object] = {k: v for k, v in (("name", name), ("licence", licence), ("federation", federation),
                                                   ("club", club), ("birth_year", born)) if v is not None}
    if categories:
        fields["categories"] = list(categories)
    if rating_pairs:
        fields["ratings"] = _ratings(rating_pairs)
    if not fields:
        raise RegistryError("nothing to correct: give --name, --club, ...")
    with Journal(journal) as j:
        registry.correct(j, player, fields, reason)
        if as_json:  # the record as it now stands
            emit_json(registry.load(j).get(player).to_dict())
        else:
            click.echo(f"{player} corrected")


@registry_.command("merge")
@click.argument("player")
@click.argument("into")
@click.option("--reason", default="")
@journal_option()
@json_option()
@click.option("--keep", "keeps", multiple=True,
              help="GAME=PLAYER: where both records have a result in one game, whose line stands (repeatable).")
def registry_merge(player: str, into: str, reason: str, keeps: tuple[str, ...], journal: str, as_json: bool) -> None:
    """Two records of one person: PLAYER's results count for INTO in every table from now on. A game where both
    have a result is refused, named, unless --keep says whose line stands there (kept in the history)."""
    kept = {}
    for pair in keeps:
        game, sep, who = pair.partition("=")
        if not sep or not game.strip() or not who.strip():
            raise InputError(f"--keep {pair!r}: write GAME=PLAYER, e.g. t1.2=A4")
        kept[game.strip()] = who.strip()
    with Journal(journal) as j:
        decided = tournament.merge(j, player, into, reason, kept)
        record = registry.load(j).get(into)
    if as_json:
        emit_json({"merged": player, "into": record.to_dict(), "kept": kept, "games": [g.game_id for g in decided]})
    else:
        click.echo(f"{player} merged into {into}")


@registry_.command("unmerge")
@click.argument("player")
@click.option("--reason", default="")
@journal_option()
@json_option()
def registry_unmerge(player: str, reason: str, journal: str, as_json: bool) -> None:
    """Undo a merge: PLAYER (the record merged into another) stands for himself again, in every table."""
    with Journal(journal) as j:
        registry.unmerge(j, player, reason)
    emit_json({"unmerged": player}) if as_json else click.echo(f"{player} unmerged")


# --- tournament -----------------------------------------------------------------------------------------


@click.group(cls=OneLineGroup)
def tournament_() -> None:
    """Tournaments: named events holding games of either format."""


@tournament_.command("create")
@click.argument("name")
@click.option("--start", required=True, help="First day, YYYY-MM-DD.")
@click.option("--end", default="", help="Last day, YYYY-MM-DD.")
@click.option("--place", default="")
@click.option("--organiser", default="")
@click.option("--rules", type=click.Choice(tournament.RULE_SETS), default="fise", show_default=True)
@click.option("--format", "game_format", type=click.Choice(tournament.GAME_FORMATS), default=DUPLICATE.name,
              show_default=True)
@click.option("--method", type=click.Choice(METHODS), default=None, help="The general table's method (FISE-15).")
@click.option("--lang", type=click.Choice(LANGUAGES), default=None,
              help="The language of its pages and games (default: the rule set's).")
@click.option("--rating-system", default="elod", show_default=True,
              help="The registry's rating system read for seating (RO-5.1) and rated (FISE-21).")
@click.option("--id", "tournament_id", default=None)
@journal_option()
@json_option()
def tournament_create(name: str, start: str, end: str, place: str, organiser: str, rules: str, game_format: str,
                      method: str | None, lang: str | None, rating_system: str, tournament_id: str | None,
                      journal: str, as_json: bool) -> None:
    """Create a tournament."""
    event = tournament.Event(name, start, end, place, organiser, rules, game_format, method or "",
                             rating_system=rating_system, lang=lang or "")
    with Journal(journal) as j:
        tid = tournament.create(j, event, tournament_id)
    emit_json({"tournament": tid} | event.to_dict()) if as_json else click.echo(tid)


@tournament_.command("enrol")
@click.argument("tournament_id")
@click.argument("players", nargs=-1)
@click.option("--new", "new_names", multiple=True, help="Register a player on the spot by name (repeatable).")
@click.option("--late", is_flag=True, help="Came after the seating was fixed (RO-5.1: last tables).")
@journal_option()
@json_option()
def tournament_enrol(tournament_id: str, players: tuple[str, ...], new_names: tuple[str, ...], late: bool,
                     journal: str, as_json: bool) -> None:
    """Enrol registered PLAYERS (registry ids) and new ones, all or none."""
    with Journal(journal) as j:
        ids = tournament.enrol(j, tournament_id, players, new=[Entry(n) for n in new_names], late=late)
    emit_json({"enrolled": ids}) if as_json else click.echo(f"{len(ids)} players enrolled")


@tournament_.command("withdraw")
@click.argument("tournament_id")
@click.argument("player")
@click.option("--after", type=GAMES, default=None, help="The last game he plays (default: the games so far).")
@click.option("--undo", is_flag=True, help="Undo his withdrawal: he plays the next games again.")
@journal_option()
@json_option()
def tournament_withdraw(tournament_id: str, player: str, after: int | None, undo: bool, journal: str,
                        as_json: bool) -> None:
    """A player withdraws: he plays no later game of the tournament (refused before a game he has a result in)."""
    with Journal(journal) as j:
        if undo:
            tournament.undo_withdrawal(j, tournament_id, player)
        else:
            tournament.withdraw(j, tournament_id, player, after)
        e = tournament.replay(j, tournament_id).enrolment(registry.load(j).resolve(player))
    if as_json:
        emit_json({"tournament": tournament_id, "player": e.player, "entry": e.entry, "after_game": e.withdrawn_after})
    else:
        click.echo(f"{player} back in" if undo else f"{player} withdrawn")


@tournament_.command("absent")
@click.argument("tournament_id")
@click.argument("number", type=GAMES)
@click.argument("player")
@click.option("--reason", default="")
@click.option("--undo", is_flag=True, help="Undo the absence: his line counts again.")
@journal_option()
@json_option()
def tournament_absent(tournament_id: str, number: int, player: str, reason: str, undo: bool, journal: str,
                      as_json: bool) -> None:
    """Mark PLAYER absent from game NUMBER: not in its field (FISE-21), last in the table (FISE-15), not in his
    FISE-22 history. Refused for a player who scored in it."""
    with Journal(journal) as j:
        if undo:
            tournament.undo_absence(j, tournament_id, number, player)
        else:
            tournament.mark_absent(j, tournament_id, number, player, reason)
    if as_json:
        emit_json({"tournament": tournament_id, "game": number, "player": player, "absent": not undo})
    else:
        click.echo(f"{player} {'present' if undo else 'absent'} in game {number}")


@tournament_.command("set-aside")
@click.argument("tournament_id")
@click.argument("number", type=GAMES)
@click.option("--reason", required=True)
@journal_option()
@json_option()
def tournament_set_aside(tournament_id: str, number: int, reason: str, journal: str, as_json: bool) -> None:
    """Set aside game NUMBER's result that cannot be read (an old journal): a decision kept with its reason."""
    with Journal(journal) as j:
        tournament.set_aside(j, tournament_id, number, reason)
    emit_json({"tournament": tournament_id, "game": number, "set_aside": reason}) if as_json \
        else click.echo(f"game {number} set aside")


@tournament_.command("record")
@click.argument("tournament_id")
@click.argument("file")
@click.option("--title", default="")
@journal_option()
@json_option()
def tournament_record(tournament_id: str, file: str, title: str, journal: str, as_json: bool) -> None:
    """Record a game's result from a CSV file: a line ``master,<score of move 1>,…`` and a line per player
    ``<registry id>,<points of move 1>,…`` or ``<registry id>,absent`` (a game played elsewhere or on paper).
    Every player of the game has his line; points from 0 to the master's in each move."""
    result = tournament.read_result(read_text(file))
    with Journal(journal) as j:
        number = tournament.record(j, tournament_id, result.scores, result.masters, title=title,
                                   absent=result.absent, lines=result.lines)
    emit_json({"game": number}) if as_json else click.echo(f"game {number} recorded")


@tournament_.command("list")
@journal_option()
@json_option()
def tournament_list(journal: str, as_json: bool) -> None:
    with Journal(journal) as j:
        ts = [tournament.replay(j, tid) for tid in tournament.tournaments(j)]
    if as_json:
        emit_json({"tournaments": [{"id": t.id, "games": len(t.games), "players": len(t.enrolments)}
                                   | t.event.to_dict() for t in ts]})
        return
    for t in ts:
        click.echo(f"{t.id}  {t.event.start}  {t.event.name}  ({len(t.games)} games, {len(t.enrolments)} players)")


@tournament_.command("table")
@click.argument("tournament_id")
@click.option("--method", type=click.Choice(METHODS), default=None, help="Default: the rule set's (FISE-15).")
@click.option("--category", default=None, help="Only this category (places counted within it).")
@click.option("--club", default=None, help="Only this club.")
@click.option("--csv", "as_csv", is_flag=True)
@journal_option()
@json_option()
def tournament_table(tournament_id: str, method: str | None, category: str | None, club: str | None, as_csv: bool,
                     journal: str, as_json: bool) -> None:
    """The general table, recomputed from the journal, with the rule set's tie order. A result that cannot be
    read is named and left out."""
    with Journal(journal) as j:
        t = tournament.replay(j, tournament_id)
        results = tournament.outcomes(j, t)
        rows = general_table(t, registry.load(j), results, method, category=category, club=club)
    chosen = method or t.event.table_method
    unreadable = [{"game": s.number, "why": s.unreadable, "set_aside": s.set_aside} for s in t.games if s.unreadable]
    if as_json:
        emit_json({"tournament": t.id, "method": chosen, "category": category, "club": club,
                   "tie_order": list(TIE_ORDER[chosen]), "games": [o.number for o in results],
                   "unreadable": unreadable, "rows": [r.to_dict() for r in rows]})
    elif as_csv:
        click.echo(table_csv(rows, results, chosen, category=category, club=club), nl=False)
    else:
        click.echo(f"{t.event.name} ({t.event.start})")
        for u in unreadable:
            what = f"set aside: {u['set_aside']}" if u["set_aside"] is not None else u["why"]
            click.echo(f"game {u['game']}: a result that cannot be read, left out ({what})")
        click.echo(table_text(rows, chosen, results), nl=False)


# --- championship ---------------------------------------------------------------------------------------


@click.group(cls=OneLineGroup)
def championship_() -> None:
    """Championships: ranking points per place over stages (RO-6.6), best N of M."""


@championship_.command("create")
@click.argument("name")
@click.option("--points", default=",".join(map(str, championship.DEFAULT_POINTS)), show_default=True,
              help="Points of the 1st, 2nd, … place.")
@click.option("--best", type=GAMES, default=0, help="How many stages count (0: all).")
@click.option("--id", "championship_id", default=None)
@journal_option()
@json_option()
def championship_create(name: str, points: str, best: int, championship_id: str | None, journal: str,
                        as_json: bool) -> None:
    table = [parse_signed(p, "--points") for p in points.split(",") if p.strip()]
    with Journal(journal) as j:
        cid = championship.create(j, name, table, best, championship_id)
    emit_json({"championship": cid, "name": name, "points": table, "best": best}) if as_json else click.echo(cid)


@championship_.command("stage")
@click.argument("championship_id")
@click.argument("tournament_id")
@journal_option()
@json_option()
def championship_stage(championship_id: str, tournament_id: str, journal: str, as_json: bool) -> None:
    """Add a tournament as the next stage."""
    with Journal(journal) as j:
        n = championship.add_stage(j, championship_id, tournament_id)
    if as_json:
        emit_json({"championship": championship_id, "stage": n, "tournament": tournament_id})
    else:
        click.echo(f"stage {n}")


@championship_.command("eliminate")
@click.argument("championship_id")
@click.argument("player")
@click.argument("stage", type=GAMES)
@click.option("--reason", required=True)
@journal_option()
@json_option()
def championship_eliminate(championship_id: str, player: str, stage: int, reason: str, journal: str,
                           as_json: bool) -> None:
    """No ranking points for PLAYER from STAGE (RO-6.4, RO-7.1)."""
    with Journal(journal) as j:
        championship.eliminate(j, championship_id, player, stage, reason)
        pid = registry.load(j).get(player).id
    if as_json:
        emit_json({"championship": championship_id, "player": pid, "stage": stage, "reason": reason})
    else:
        click.echo(f"{player} eliminated from stage {stage}")


@championship_.command("table")
@click.argument("championship_id")
@journal_option()
@json_option()
def championship_table(championship_id: str, journal: str, as_json: bool) -> None:
    """The championship's table: each stage's points, the counted ones, the total."""
    with Journal(journal) as j:
        reg = registry.load(j)

        def table_of(tid: str) -> list[Row]:
            t = tournament.replay(j, tid)
            return list(general_table(t, reg, tournament.outcomes(j, t)))

        rows = championship.compute(j, championship_id, table_of)
    if as_json:
        emit_json({"championship": championship_id, "rows": [r.to_dict() for r in rows]})
        return
    for r in rows:
        stages = " ".join("-" if p is None else str(p) for p in r.stage_points)
        click.echo(f"{r.place:>4}  {r.player:<6} {r.name:<30} [{stages}]  {r.total}")


# --- ratings --------------------------------------------------------------------------------------------


@click.group(cls=OneLineGroup)
def ratings_() -> None:
    """The FISE ratings (FISE-21 expected performance, FISE-22 mean of percentages)."""


@ratings_.command("list")
@click.option("--as-of", default=None, help="Only tournaments ending on or before this date (YYYY-MM-DD), "
              "from the rating lists dated on or before it.")
@click.option("--system", default=ratings.SYSTEM, show_default=True, help="The rating system listed.")
@click.option("--csv", "as_csv", is_flag=True)
@journal_option()
@json_option()
def ratings_list(as_of: str | None, system: str, as_csv: bool, journal: str, as_json: bool) -> None:
    """The rating list, recomputed from the journal: FISE-21 from the ratings in force at each game's date,
    FISE-22 with the games it keeps (* : from fewer than 3 games)."""
    if as_of:
        registry.check_date(as_of, "--as-of")
    with Journal(journal) as j:
        rows = ratings.rating_list(j, as_of, system=system)
    if as_json:
        emit_json({"as_of": as_of, "system": system, "players": [r.to_dict() for r in rows]})
    elif as_csv:
        click.echo(ratings.rating_list_csv(rows), nl=False)
    else:
        for r in rows:
            d = r.to_dict()
            pct = "-" if r.percentage is None else f"{percent(r.percentage)}%{'*' if r.provisional else ''}"
            elod = "-" if d["elod"] is None else d["elod"]
            click.echo(f"{d['player']:<6} {d['name']:<30} {elod:>8} ({d['elod_games']})  {pct} "
                       f"({d['percentage_kept']} of {d['percentage_games']} games kept)")


@ratings_.command("player")
@click.argument("player")
@click.option("--as-of", default=None)
@journal_option()
@json_option()
def ratings_player(player: str, as_of: str | None, journal: str, as_json: bool) -> None:
    """A player's history: games, places, percentages, rating after each."""
    with Journal(journal) as j:
        pid = registry.load(j).get(player).id
        found = next((r for r in ratings.rating_list(j, as_of) if r.player == pid), None)
    if found is None:
        raise RegistryError(f"{player} has played no game")
    if as_json:
        emit_json(found.to_dict(history=True))
        return
    click.echo(f"{found.player} {found.name}")
    for g in found.history:
        d = g.to_dict()
        pct = "-" if g.percentage is None else f"{percent(g.percentage)}%"
        place = "-" if d["place"] is None else d["place"]
        click.echo(f"  {d['date']} {d['tournament_name']} game {d['game']}: place {place}/{d['field']}, "
                   f"{pct}, rating {d['rating_before']} -> {d['rating_after']}")


registry_.name, tournament_.name, championship_.name, ratings_.name = (
    "registry", "tournament", "championship", "ratings")
commands = [registry_, tournament_, championship_, ratings_]
