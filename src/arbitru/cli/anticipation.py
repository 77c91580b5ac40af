"""``arbitru anticipation``: the Romanian *partida de anticipație* from the draw to the ranking.

Every command works on a game in a journal (``--db``, default ``$ARBITRU_JOURNAL`` or ``arbitru.db``) and
stores
each event before computing anything from it; boards, scores and rankings are replayed from the events.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from arbitru.cli.common import (
    EVENT,
    POINTS,
    SEED,
    TABLE,
    Number,
    OneLineGroup,
    emit_json,
    journal_option,
    json_option,
    read_text,
)
from arbitru.errors import ArbitruError
from arbitru.formats import drawcheck
from arbitru.formats.anticipation.announce import announcement_script
from arbitru.formats.anticipation.draw import (
    GroupRules,
    draw_groups,
    format_group,
    manual_draw,
    parse_groups,
    read_sealed_groups_csv,
)
from arbitru.formats.anticipation.forms import write_forms
from arbitru.formats.anticipation.game import (
    AnticipationGame,
    GameState,
    read_seating_csv,
    resolve_lexicon,
    secret_draw,
)
from arbitru.formats.anticipation.hall import hall_state
from arbitru.formats.anticipation.hints import slip_hints
from arbitru.formats.anticipation.notices import notices
from arbitru.formats.anticipation.seating import read_entrants_csv, seat
from arbitru.formats.anticipation.slips import Slip, read_slips_csv
from arbitru.formats.anticipation.turns import drawer
from arbitru.formats.anticipation.variants import BLANK_COUNTS, GROUPS, TURNS, VARIANTS, Settings
from arbitru.formats.anticipation.verdicts import PlayerResult, SlipVerdict
from arbitru.journal.backends import journal_exists
from arbitru.journal.store import Journal
from arbitru.messages import Text, joined
from arbitru.textinput import ascii_number


def _db_option(f: Any) -> Any:
    return journal_option("db")(f)




def _open(db: str, game_id: str) -> AnticipationGame:
    if not journal_exists(db):
        raise ArbitruError(f"no journal {db}: create a game with 'arbitru anticipation new'")
    return AnticipationGame(Journal(db), game_id)


def _read(path: str) -> str:
    return read_text(path)


@click.group("anticipation", cls=OneLineGroup)
def anticipation() -> None:
    """The partida de anticipație (Romanian rules RO-*): draw, lots, slips, correction, ranking, forms."""


@anticipation.command("new")
@click.option(
    "--seed",
    type=SEED,
    help="Draw the groups and lots from this known seed (RO-5.2.d–f): anyone who knows it knows the lots "
    "(default: from a secret the journal keeps until the final results).",
)
@click.option(
    "--groups",
    "groups_file",
    type=click.Path(exists=True, dir_okay=False),
    help="Groups drawn in the hall, one per line (group 1 first).",
)
@click.option(
    "--variant",
    type=click.Choice(VARIANTS),
    default="classic",
    show_default=True,
    help="RO-8.1 avocalic, RO-8.2 endurance, RO-8.3 total, RO-8.4 blind.",
)
@click.option(
    "--lexicon",
    "lexicon_name",
    help="The official list (catalog name or file); default the Romanian default of the catalog.",
)
@click.option(
    "--blank-counts",
    type=click.Choice(BLANK_COUNTS),
    default="neither",
    show_default=True,
    help="Whether a blank counts as a vowel, a consonant or neither in the draw conditions.",
)
@click.option(
    "--players",
    "players_file",
    type=click.Path(exists=True, dir_okay=False),
    help="Seating: CSV player,table[,name] (RO-5.1).",
)
@click.option("--lots", "all_lots", is_flag=True, help="Draw every turn's lot now as well (RO-4.4).")
@click.option("--no-clock", is_flag=True, help="No visible clock: announce time every 2 minutes (RO-5.5.d).")
@click.option("--id", "game_id", help="The game's id (default: generated).")
@click.option("--tournament", "tournament_id", default=None,
              help="The tournament's next game: its enrolled players seated by rating (RO-5.1).")
@click.option("--absent", "absent", multiple=True,
              help="With --tournament: an enrolled player (registry id) absent from this game, not seated.")
@json_option()
@_db_option
def new_cmd(
    seed: int | None,
    groups_file: str | None,
    variant: str,
    lexicon_name: str | None,
    blank_counts: str,
    players_file: str | None,
    all_lots: bool,
    no_clock: bool,
    game_id: str | None,
    as_json: bool,
    db: str,
    tournament_id: str | None = None,
    absent: tuple[str, ...] = (),
) -> None:
    """Create a game: its groups (seeded draw or entered by hand), settings and seating. With --tournament, the
    tournament's next game, as on the web: its enrolled players seated by rating (RO-5.1), but those --absent."""
    if absent and not tournament_id:
        raise click.UsageError("--absent is for a game of a tournament (--tournament)")
    if tournament_id and players_file:
        raise click.UsageError("a tournament's game seats its enrolled players: no --players")
    if seed is not None and groups_file:
        raise click.UsageError("give --seed or --groups, not both")
    if lexicon_name is None:
        from arbitru.lexicons.catalog import default_name

        lexicon_name = default_name("ro")
    elif Path(lexicon_name).is_file():
        lexicon_name = str(Path(lexicon_name).resolve())  # later commands may run elsewhere
    settings = Settings(
        variant=variant,
        lexicon=lexicon_name,
        blank_counts=blank_counts,
        seed=seed,
        clock_visible=not no_clock,
    )
    game_draw = None
    seal = None
    lexicon = resolve_lexicon(lexicon_name)
    rules = GroupRules.for_settings(settings, lexicon.alphabet, lexicon)
    if variant != "blind":
        if groups_file:
            game_draw = manual_draw(rules, parse_groups(lexicon.alphabet, _read(groups_file)))
        elif seed is not None:
            game_draw = draw_groups(rules, seed)
        else:  # drawn from a secret the journal keeps until the final results (RO-5.3)
            seal, game_draw = secret_draw(rules, game_id)
    seating = read_seating_csv(_read(players_file)) if players_file else []
    journal = Journal(db)
    if tournament_id:
        from arbitru.season import tournament

        made = tournament.create_anticipation_game(journal, tournament_id, settings, game_draw, lexicon=lexicon,
                                                   game_id=game_id, absent=absent, seal=seal)
        game = AnticipationGame(journal, made)
    else:
        game = AnticipationGame.create(
            journal, settings, game_draw, lexicon=lexicon, seating=seating, game_id=game_id, seal=seal
        )
    lots = game.draw_all_lots() if all_lots else []
    if as_json:
        emit_json(
            {
                "game": game.id,
                "journal": db,
                "variant": variant,
                "lexicon": lexicon.name,
                "groups": game_draw.labels(lexicon.alphabet) if game_draw is not None else None,
                "lots": [lot.to_payload() for lot in lots],
                "draw": drawcheck.account(journal, game.id).to_dict(),
            }
        )
        return
    made = Text("game %(game)s (%(variant)s, list %(list)s) in %(db)s", game=game.id, variant=Text(variant),
                list=lexicon.name, db=db)
    click.echo(f"{made}")
    click.echo(f"  {_draw_line(drawcheck.account(journal, game.id))}")
    if game_draw is not None:
        for i, g in enumerate(game_draw.labels(lexicon.alphabet), 1):
            click.echo(f"  {Text('group %(n)s: %(letters)s', n=f'{i:2}', letters=g)}")
        for entry in game_draw.log:
            if "regroup" in entry:
                click.echo(f"  regrouped {entry['regroup']}: {entry['why']} (RO-5.2.e)")
    for lot in lots:
        click.echo(f"  {Text('turn %(turn)s: group %(group)s', turn=f'{lot.turn:2}', group=lot.group)}")


def _draw_line(shown: drawcheck.Account) -> str:
    """Where the game's lots come from, as announced (docs/fairness.md)."""
    if shown.known:
        return f"{shown.note} (seed {shown.seed})"
    said = Text("lots drawn from a secret shown with the final ranking; commitment (%(hash)s): %(commitment)s",
                hash="SHA-256", commitment=shown.commitment)
    return f"{said}" + (f"; {Text('secret: %(secret)s', secret=shown.secret)}" if shown.secret else "")


@anticipation.command("show")
@click.argument("game_id", metavar="GAME")
@json_option()
@_db_option
def show_cmd(game_id: str, as_json: bool, db: str) -> None:
    """Settings, groups, lots and slips stored so far."""
    game = _open(db, game_id)
    state = game.replay()
    s = state.settings
    hall = game.hall()
    if as_json:
        emit_json(
            {
                "game": game.id,
                "phase": hall.phase.value,
                "timer": hall.timer(),
                "variant": s.variant,
                "lexicon": state.lexicon_name,
                "blank_counts": s.blank_counts,
                "seed": s.seed,
                "draw": drawcheck.account(game.journal, game.id).to_dict(),
                "groups": state.groups_text(),
                "lots": [state.order.lots[t].to_payload() for t in sorted(state.order.lots)],
                "players": len(state.players()),
                "slips": len(state.slips) + len(state.unattributed),
                "events": state.last_seq,
            }
        )
        return
    settings = Text("game %(game)s: %(variant)s, list %(list)s, blanks count as %(blanks)s, seed %(seed)s",
                    game=game.id, variant=Text(s.variant), list=state.lexicon_name, blanks=Text(s.blank_counts),
                    seed=s.seed)
    click.echo(f"{settings}")
    click.echo(f"  {_draw_line(drawcheck.account(game.journal, game.id))}")
    for i, g in enumerate(state.groups_text(), 1):
        turn = state.order.turn_of_group(i)
        played = f"{Text('turn %(n)s', n=turn)}" if turn else ""
        click.echo(f"  {Text('group %(n)s: %(letters)s', n=f'{i:2}', letters=f'{g:8}')} {played}")
    click.echo(f"  in the hall: {hall.phase.value} (the {hall.timer()} timer)")
    for t in sorted(state.order.lots):
        lot = state.order.lots[t]
        by = Text("arbiter") if lot.drawn_by == "arbiter" else drawer(lot.drawn_by)
        said = Text("turn %(turn)s: group %(group)s (drawn by %(by)s)", turn=f"{t:2}", group=lot.group, by=by)
        click.echo(f"  {said}")
    counts = Text("players: %(players)s, slips: %(slips)s, events: %(events)s", players=len(state.players()),
                  slips=len(state.slips) + len(state.unattributed), events=state.last_seq)
    click.echo(f"  {counts}")


@anticipation.command("announce")
@click.argument("game_id", metavar="GAME")
@json_option("The cues as JSON.")
@_db_option
def announce_cmd(game_id: str, as_json: bool, db: str) -> None:
    """The announcement script: groups by the spelling table, second reading, timers (RO-5.2.f–h, RO-5.5)."""
    game = _open(db, game_id)
    state = game.replay()
    if state.draw is None:
        raise ArbitruError("this game has no common draw (blind variant): nothing to announce but the lots")
    cues = announcement_script(
        game.alpha,
        state.draw,
        state.settings.variant,
        state.order,
        clock_visible=state.settings.clock_visible,
    )
    if as_json:
        click.echo(json.dumps([c.to_dict() for c in cues], ensure_ascii=False, indent=1))
        return
    for c in cues:
        minutes, seconds = divmod(c.at, 60)
        click.echo(f"{int(minutes):4}:{seconds:04.1f}  {c.kind:5}  {c.text}")


@anticipation.command("lot")
@click.argument("game_id", metavar="GAME")
@click.argument("turn", type=Number(1, TURNS), required=False)
@click.option(
    "--group", type=Number(1, GROUPS), help="The group drawn in the hall (else drawn now from the game's seed)."
)
@click.option("--arbiter", is_flag=True, help="The arbiter drew the lot (RO-5.3).")
@click.option("--table", type=TABLE, help="The table whose player drew (default: table = turn).")
@click.option("--all", "all_lots", is_flag=True, help="Draw every remaining lot now (RO-4.4).")
@json_option()
@_db_option
def lot_cmd(
    game_id: str,
    turn: int | None,
    group: int | None,
    arbiter: bool,
    table: int | None,
    all_lots: bool,
    as_json: bool,
    db: str,
) -> None:
    """Record the lot of a turn: the 7-letter group it plays (RO-5.3)."""
    game = _open(db, game_id)
    by = "arbiter" if arbiter else (f"table {table}" if table else None)
    lots = game.draw_all_lots(by) if all_lots else [game.draw_lot(turn, group, by)]
    draw = game.draw()
    if as_json:
        emit_json(
            [
                {**lot.to_payload(), "letters": format_group(game.alpha, draw.groups[lot.group - 1]) if draw else None}
                for lot in lots
            ]
        )
        return
    for lot in lots:
        letters = f" {format_group(game.alpha, draw.groups[lot.group - 1])}" if draw else ""
        by = Text("arbiter") if lot.drawn_by == "arbiter" else drawer(lot.drawn_by)  # "drawn by arbiter", as before
        said = Text("turn %(turn)s: group %(group)s (drawn by %(by)s)", turn=lot.turn, group=f"{lot.group}{letters}",
                    by=by)
        click.echo(f"{said}")


@anticipation.command("players")
@click.argument("game_id", metavar="GAME")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@json_option()
@_db_option
def players_cmd(game_id: str, file: str, as_json: bool, db: str) -> None:
    """Register the seating: CSV player,table[,name] (RO-5.1)."""
    game = _open(db, game_id)
    seating = read_seating_csv(_read(file))
    seq = game.add_seating(seating)
    if as_json:
        emit_json({"event": seq, "seating": [{"player": p, "table": t, "name": n} for p, t, n in seating]})
        return
    click.echo(f"{Text('%(n)s players seated', n=len(seating))}")


@anticipation.command("seat")
@click.argument("game_id", metavar="GAME")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@json_option()
@_db_option
def seat_cmd(game_id: str, file: str, as_json: bool, db: str) -> None:
    """Seat the players (RO-5.1) from CSV player,rating[,club[,late[,name]]] and register the seating."""
    game = _open(db, game_id)
    seating = seat(read_entrants_csv(_read(file)))
    seq = game.add_seating(seating)
    if as_json:
        emit_json({"event": seq, "seating": [{"player": p, "table": t, "name": n} for p, t, n in seating]})
        return
    for player, table, name in seating:
        click.echo(f"table {table:3}: {name}" + (f" ({player})" if name != player else ""))


@anticipation.command("late-entry")
@click.argument("game_id", metavar="GAME")
@click.argument("player")
@click.option("--name", default="", help="His name as it should be written (RO-6.2a).")
@json_option()
@_db_option
def late_entry_cmd(game_id: str, player: str, name: str, as_json: bool, db: str) -> None:
    """A late entry sits at the last table (RO-5.1); the turns played before he came score 0."""
    game = _open(db, game_id)
    player, table, name = game.enter_late(player, name)
    if as_json:
        emit_json({"player": player, "table": table, "name": name, "late": True})
        return
    click.echo(f"table {table}: {name}" + (f" ({player})" if name != player else "") + " (late entry, RO-5.1)")


@anticipation.command("publish")
@click.argument("game_id", metavar="GAME")
@click.option("--provisional", "stage", flag_value="provisional", help="Provisional results (RO-5.5.j).")
@click.option("--final", "stage", flag_value="final", help="The final ranking: no more decisions.")
@click.option(
    "--deadline", default="", help="Provisional: until when contests may be lodged (18:30, or 2026-05-01 18:30)."
)
@click.option("--title", default="", help="The competition's title, printed on the ranking (Annex 3).")
@click.option("--date", default="", help="The game's date as printed (default: today).")
@click.option("--points", "points_text", default="", help="Final: the ranking points by place, e.g. 25,20,16,13.")
@click.option("--confirm", is_flag=True, help="Publish although the game is not over (it ends: the turns not played "
              "are named), or the final ranking before the deadline for contests (RO-5.5.j).")
@json_option()
@_db_option
def publish_cmd(
    game_id: str,
    stage: str | None,
    deadline: str,
    title: str,
    date: str,
    points_text: str,
    confirm: bool,
    as_json: bool,
    db: str,
) -> None:
    """Publish provisional results with the deadline for contests, then, once it is over, the final ranking
    with the ranking points (RO-5.5.j). The first publication ends the game: while turns are not played or slips
    are missing it asks for --confirm. Afterwards, ranking points are corrected by a decision
    (``decide GAME PLAYER --target points --action set --points N --reason …``)."""
    if stage is None:
        raise click.UsageError("give --provisional --deadline TIME, or --final")
    points = []
    for cell in points_text.split(",") if points_text.strip() else []:
        number = ascii_number(cell.strip())
        if number is None:
            raise click.BadParameter(f"{cell.strip()!r} is not a number of points", param_hint="--points")
        points.append(number)
    game = _open(db, game_id)
    seq = game.publish(stage, deadline, title=title, date=date, points=points, confirmed=confirm)
    published = game.replay().publications[-1]
    if as_json:
        emit_json({"event": seq, "stage": stage, "deadline": deadline, "points": published.get("points", {})})
        return
    published_said = Text("provisional results published (event #%(seq)s)", seq=seq) if stage == "provisional" \
        else Text("final results published (event #%(seq)s)", seq=seq)
    until = f"; {Text('contests until %(t)s', t=deadline)}" if deadline else ""
    click.echo(f"{published_said}{until}")


@anticipation.command("blind")
@click.argument("game_id", metavar="GAME")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@json_option()
@_db_option
def blind_cmd(game_id: str, file: str, as_json: bool, db: str) -> None:
    """Store the players' sealed groups (RO-8.4): CSV player,group,letters, 15 rows per player."""
    game = _open(db, game_id)
    sets = read_sealed_groups_csv(game.alpha, _read(file), file)
    # every player's set is checked before any is stored: a file refused for one player stores nothing
    seqs = game.hand_in_blind_groups(sets)
    if as_json:
        emit_json({"events": seqs, "players": list(sets)})
        return
    for player in sets:
        click.echo(f"{player}: 15 groups stored")


@anticipation.command("slips")
@click.argument("game_id", metavar="GAME")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--turn", type=Number(1, TURNS), help="The turn these slips were collected in.")
@click.option(
    "--replace", is_flag=True, help="Re-enter slips already stored (the old entries stay in the journal)."
)
@json_option()
@_db_option
def slips_cmd(game_id: str, file: str, turn: int | None, replace: bool, as_json: bool, db: str) -> None:
    """Store slips exactly as written (CSV: player,table,turn,position,word,score,turn_total,note)."""
    game = _open(db, game_id)
    seqs = game.import_slips_csv(_read(file), turn=turn, replace=replace, source=Path(file).name)
    if as_json:
        emit_json({"events": seqs})
        return
    click.echo(f"{Text('%(n)s slips stored (events #%(first)s–#%(last)s)', n=len(seqs), first=seqs[0], last=seqs[-1])}")


@anticipation.command("desk")
@click.argument("game_id", metavar="GAME")
@click.option("--turn", type=Number(1, TURNS), help="The turn (default: the last one whose lot is drawn).")
@json_option()
@_db_option
def desk_cmd(game_id: str, turn: int | None, as_json: bool, db: str) -> None:
    """The slip desk's view of a turn: the slips in, each with the desk's hints (RO-6.2), and who is missing."""
    game = _open(db, game_id)
    hall = hall_state(game.journal, game)
    turn = turn or hall.current_turn or 1
    entered = sorted(((p, info) for (p, t), info in hall.slips.items() if t == turn), key=lambda x: x[1]["seq"])
    rows = [
        {"player": p, "table": hall.seating.get(p), "event": info["seq"], "late": info["late"],
         "hints": slip_hints(Slip.from_payload(info["payload"]), turn)}  # messages: English in the JSON
        for p, info in entered
    ]
    missing = [p for p in hall.players() if (p, turn) not in hall.slips]
    if as_json:
        emit_json({"turn": turn, "slips": rows, "missing": missing})
        return
    count = Text("turn %(turn)s: %(n)s slips in, %(missing)s missing", turn=turn, n=len(rows), missing=len(missing))
    click.echo(f"{count}")
    for row in rows:
        late = f" ({Text('late')})" if row["late"] else ""
        click.echo(f"  #{row['event']} {hall.label(row['player'])}{late}")
        for hint in row["hints"]:
            click.echo(f"    {Text('check: %(hint)s', hint=hint)}")
    if missing:
        tables = [Text("%(name)s (table %(table)s)", name=hall.label(p), table=hall.seating[p]) for p in missing]
        click.echo(f"{Text('missing: %(players)s', players=joined(tables, ', '))}")


@anticipation.command("notices")
@click.argument("game_id", metavar="GAME")
@click.option("--turn", type=Number(1, TURNS), required=True, help="The turn whose slips the notices are about.")
@click.option("--arbiter", "arbiters", multiple=True,
              help="An arbiter, in the order of the tables announced (RO-5.5.g); repeat for each.")
@json_option()
@_db_option
def notices_cmd(game_id: str, turn: int, arbiters: tuple[str, ...], as_json: bool, db: str) -> None:
    """What to tell the players during the next turn (RO-5.5.f, h, i), by table, split by arbiter (RO-5.5.g)."""
    said = notices(_open(db, game_id).replay(), turn, arbiters)
    if as_json:
        emit_json([n.to_dict() for n in said])
        return
    arbiter = None
    for n in said:
        if arbiters and n.arbiter != arbiter:
            arbiter = n.arbiter
            click.echo(f"{arbiter}:")
        click.echo(f"{'  ' if arbiters else ''}{Text('table %(n)s', n=n.table or '?')} {n.player}: {n.text} ({n.rule})")
    if not said:
        click.echo(f"{Text('turn %(n)s: nothing to tell', n=turn)}")


@anticipation.command("correct")
@click.argument("game_id", metavar="GAME")
@click.option(
    "--turn", type=Number(1, TURNS), help="Show this turn only (the correction runs on all)."
)
@json_option("The turn's verdicts as JSON.")
@_db_option
def correct_cmd(game_id: str, turn: int | None, as_json: bool, db: str) -> None:
    """Correct: verification requests first, then every placement's verdict (rule and reason)."""
    game = _open(db, game_id)
    state = game.replay()
    if not state.ranking and not as_json:
        click.echo(f"{no_slips(game.id)}")
        return
    game.record_correction(state, turn)
    turns = [turn] if turn else list(range(1, TURNS + 1))
    if as_json:
        out = {r.player: [r.slips[t].to_dict() for t in turns if t in r.slips] for r in state.ranking}
        click.echo(json.dumps(out, ensure_ascii=False, indent=1))
        return
    # RO-5.3, RO-5.5.h: verification requests are answered before the correction
    asked = [(r, t, sv) for r in state.ranking for t in turns if (sv := r.slips.get(t)) and sv.verifications]
    if asked:
        click.echo(f"{Text('Verification requests (RO-5.3):')}")
        for r, t, sv in asked:
            answers = joined(v["answer"] for v in sv.verifications)
            click.echo(f"  {_who(state, r)}, {Text('turn %(n)s', n=t)}: {answers}")
    for r in state.ranking:
        lines = _player_lines(r, turns)
        if lines:
            click.echo(_who(state, r))
            for line in lines:
                click.echo("  " + line)


#: what ``correct`` and ``results`` say of a game no slip has reached yet (rather than nothing at all)
NO_SLIPS = "no slips yet: %(command)s stores them"


def no_slips(game_id: str) -> Text:
    """:data:`NO_SLIPS` for game ``game_id``, the command as the reader types it."""
    return Text(NO_SLIPS, command=f"'arbitru anticipation slips {game_id} FILE.csv'")


@anticipation.command("results")
@click.argument("game_id", metavar="GAME")
@json_option("Everything as JSON.")
@click.option("--player", help="One player only.")
@_db_option
def results_cmd(game_id: str, as_json: bool, player: str | None, db: str) -> None:
    """Per player: each turn's placements with verdicts, warnings and penalties, total and place (RO-6.6)."""
    game = _open(db, game_id)
    state = game.replay()
    if as_json:
        data = state.to_dict()
        if player:
            data["players"] = [p for p in data["players"] if p["player"] == player]
        click.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return
    # every heading and reason is a message, printed in the reader's language (``arbitru --lang``)
    if state.maximum:
        m = state.maximum_summary()
        click.echo(f"{Text('maximum: %(total)s (beam %(beam)s, event #%(seq)s)', **m)}")
    if not state.ranking:
        click.echo(f"{no_slips(game.id)}")
    if state.publications:
        last = state.publications[-1]
        stage = Text("provisional results") if last["stage"] == "provisional" else Text("final results")
        until = Text("contests until %(t)s", t=last["deadline"]) if last["deadline"] else ""
        click.echo(f"{stage}" + (f", {until}" if until else ""))
    out_of_ranking = state.eliminated()
    for r in [*state.ranked(), *out_of_ranking]:
        if player and r.player != player:
            continue
        if out_of_ranking and r is out_of_ranking[0]:
            click.echo(f"{Text('eliminated, not in the ranking (RO-5.5.k):')}")
        place = f"{r.place}." if r.place else "—"
        share = ""
        if state.maximum and state.maximum["total"]:
            share = f" = {100 * r.total / state.maximum['total']:.1f} %"
        dropped = Text("dropped out in turn %(n)s", n=r.dropped_out) if r.dropped_out else ""
        click.echo(
            f"{place:4} {_who(state, r)}: {r.total}{share}"
            + (f"  [{r.eliminated}]" if r.eliminated else "")
            + (f"  [{dropped}]" if dropped else "")
        )
        if player or len(state.ranking) <= 20:
            for line in _player_lines(r, sorted(r.slips)):
                click.echo("       " + line)
            summary = Text("placements %(placements)s, penalties −%(penalties)s, warnings %(warnings)s "
                           "(−%(costs)s), disciplinary −%(disciplinary)s", placements=r.placement_points,
                           penalties=r.penalties, warnings=sum(1 for sv in r.slips.values() if sv.warning),
                           costs=r.warning_costs, disciplinary=r.disciplinary)
            click.echo(f"       {summary}")


@anticipation.command("decide")
@click.argument("game_id", metavar="GAME")
@click.argument("player", required=False, default="")
@click.option(
    "--target", type=click.Choice(["placement", "warning", "penalty", "discipline", "total", "late", "slip", "points",
                                   "publication", "decision"]), required=True
)
@click.option(
    "--action",
    required=True,
    help="placement: valid|invalid|as; warning: cancel; penalty: cancel|set; "
    "discipline: cancel; total: adjust; late (a slip after time, RO-6.5): accept|refuse; slip (typed again once "
    "results are published, --file): replace; points (of the final ranking): set; publication (the provisional "
    "results, no PLAYER): withdraw; decision (--event, no PLAYER): revoke.",
)
@click.option("--file", "slip_file", type=click.Path(exists=True, dir_okay=False),
              help="'slip': the slip typed again, as a slips CSV (one slip).")
@click.option("--reason", required=True, help="Why: it is kept with the decision (RO-6.5).")
@click.option("--by", default="chief arbiter", show_default=True, help="Who decided (or 'appeal committee').")
@click.option("--turn", type=Number(1, TURNS))
@click.option("--index", type=Number(1, 2), help="Placement 1 or 2 of the slip (turn 1).")
@click.option("--position", help="'as': the position the player meant.")
@click.option("--word", help="'as': the word as meant (blanks in lower case).")
@click.option("--points", type=POINTS, help="'set' penalty or ranking points, or 'adjust' total.")
@click.option("--event", type=EVENT, help="'discipline': the sanction's event number; 'decision': the decision's.")
@json_option()
@_db_option
def decide_cmd(
    game_id: str,
    player: str,
    target: str,
    action: str,
    reason: str,
    by: str,
    turn: int | None,
    index: int | None,
    position: str | None,
    word: str | None,
    points: int | None,
    event: int | None,
    slip_file: str | None,
    as_json: bool,
    db: str,
) -> None:
    """Record a contest or appeal decision (RO-6.5): a new entry with its reason; the old verdict stays. Once
    results are published every change is one: a slip typed again, ranking points, the provisional results
    withdrawn, an earlier decision revoked."""
    game = _open(db, game_id)
    if target in ("publication", "decision"):
        seq = game.decide(player, target, action, reason, by=by, event=event)
        if as_json:
            emit_json({"event": seq})
            return
        click.echo(f"{Text('decision #%(seq)s stored', seq=seq)}")
        return
    if not player:
        raise click.UsageError(f"a {target} decision names the PLAYER")
    seat = game.seat(player)  # a seated player's id, or a name that is his alone
    if target == "slip":
        if not slip_file:
            raise click.UsageError("a slip decision gives the slip typed again: --file SLIP.csv")
        slips = read_slips_csv(_read(slip_file), turn=turn, players=[seat.number], source=Path(slip_file).name)
        if len(slips) != 1:
            raise click.BadParameter(f"{len(slips)} slips in the file, not one", param_hint="--file")
        seq = game.decide_slip(slips[0], reason, by=by)
        if as_json:
            emit_json({"event": seq, "player": seat.number})
            return
        click.echo(f"{Text('decision #%(seq)s stored for %(who)s', seq=seq, who=seat.label())}")
        return
    seq = game.decide(
        seat.number,
        target,
        action,
        reason,
        by=by,
        turn=turn,
        index=index,
        position=position,
        word=word,
        points=points,
        event=event,
    )
    if as_json:
        emit_json({"event": seq, "player": seat.number})
        return
    click.echo(f"{Text('decision #%(seq)s stored for %(who)s', seq=seq, who=seat.label())}")


@anticipation.command("warn")
@click.argument("game_id", metavar="GAME")
@click.argument("player")
@click.option("--reason", required=True)
@click.option("--turn", type=Number(1, TURNS),
              help="The turn it was given in (default: after the player's last slip stored).")
@json_option()
@_db_option
def warn_cmd(game_id: str, player: str, reason: str, turn: int | None, as_json: bool, db: str) -> None:
    """A disciplinary warning: −20; the second eliminates (RO-6.4)."""
    game = _open(db, game_id)
    seat = game.seat(player)
    seq = game.sanction(seat.number, "disciplinary", reason, turn)
    if as_json:
        emit_json({"event": seq, "player": seat.number})
        return
    click.echo(f"{Text('disciplinary warning #%(seq)s stored for %(who)s', seq=seq, who=seat.label())}")


@anticipation.command("eliminate")
@click.argument("game_id", metavar="GAME")
@click.argument("player")
@click.option("--reason", required=True)
@click.option("--turn", type=Number(1, TURNS))
@json_option()
@_db_option
def eliminate_cmd(game_id: str, player: str, reason: str, turn: int | None, as_json: bool, db: str) -> None:
    """Eliminate a cheater: not corrected, no ranking points (RO-7.1)."""
    game = _open(db, game_id)
    seat = game.seat(player)
    seq = game.sanction(seat.number, "cheating", reason, turn)
    if as_json:
        emit_json({"event": seq, "player": seat.number})
        return
    click.echo(f"{Text('elimination #%(seq)s stored for %(who)s', seq=seq, who=seat.label())}")


@anticipation.command("board")
@click.argument("game_id", metavar="GAME")
@click.argument("player")
@json_option()
@_db_option
def board_cmd(game_id: str, player: str, as_json: bool, db: str) -> None:
    """A player's board as corrected (invalid and cancelled placements are not on it)."""
    state = _open(db, game_id).replay()
    r = state.results.get(player)
    if r is None or r.board is None:
        raise ArbitruError(f"no player {player!r} in this game")
    if as_json:
        emit_json({"player": player, "board": r.board.to_text().splitlines()})
        return
    click.echo(r.board.render())


@anticipation.command("forms")
@click.argument("game_id", metavar="GAME")
@click.option(
    "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Directory to write into."
)
@click.option("--with-groups", is_flag=True, help="Fill the groups in the annotation forms.")
@json_option()
@_db_option
def forms_cmd(game_id: str, out_dir: str, with_groups: bool, as_json: bool, db: str) -> None:
    """Write the Annex 3 forms as printable HTML: slips, annotation form, results sheets, ranking (RO-3.3)."""
    state = _open(db, game_id).replay()
    paths = write_forms(state, Path(out_dir), with_groups=with_groups)
    if as_json:
        emit_json({"files": [str(p) for p in paths]})
        return
    for path in paths:
        click.echo(str(path))


@anticipation.command("codes")
@click.argument("game_id", metavar="GAME")
@click.option("--base-url", default=None,
              help="Address the players use (default: the one 'arbitru serve' last served this journal at).")
@click.option("--sheet", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the printable sheet with QR codes (HTML) to this file.")
@json_option()
@_db_option
def codes_cmd(game_id: str, base_url: str | None, sheet: str | None, as_json: bool, db: str) -> None:
    """Each seated player's code for the web app (derived: the same every time), and the sheet to hand out."""
    import html

    import segno

    from arbitru.web import auth

    game = _open(db, game_id)
    state = game.replay()
    secret = auth.server_secret(game.journal)
    base_url = base_url or auth.served_address(game.journal)
    rows = []
    for player in sorted(state.seating, key=lambda p: (state.seating[p], p)):
        code = auth.player_code(secret, game.id, player)
        url = f"{base_url.rstrip('/')}/games/{game.id}/play?code={code}"
        rows.append({"player": player, "table": state.seating[player], "name": state.names.get(player, player),
                     "code": code, "url": url})
    if sheet:
        cells = "".join(
            f"<tr><td>{r['table']}</td><td>{html.escape(str(r['name']))}</td><td><code>{r['code']}</code></td>"
            f"<td>{segno.make(str(r['url']), error='m').svg_inline(scale=3)}</td></tr>"
            for r in rows
        )
        Path(sheet).write_text(
            f"<!doctype html><meta charset=utf-8><title>codes {html.escape(game.id)}</title><table>{cells}</table>\n",
            "utf-8",
        )
    if as_json:
        emit_json(rows)
        return
    for r in rows:
        click.echo(f"{r['table']}\t{r['player']}\t{r['code']}\t{r['name']}\t{r['url']}")


def _who(state: GameState, r: PlayerResult) -> str:
    name = state.names.get(r.player, r.player)
    return f"{Text('%(name)s (table %(table)s)', name=name, table=r.table)}" if r.table else name


def _player_lines(r: PlayerResult, turns: list[int]) -> list[str]:
    lines = []
    missing = []
    for t in turns:
        sv = r.slips.get(t)
        if sv is None:
            continue
        if sv.status == "missing":
            missing.append(str(t))
            continue
        lines.extend(_slip_lines(t, sv))
    for sv in r.unattributed:
        lines.append(f"{Text('slip #%(seq)s: %(reason)s', seq=sv.seq, reason=sv.reason)}")
    if missing:
        listed = ", ".join(missing)
        none = Text("no slip handed in: turns %(turns)s", turns=listed) if len(missing) > 1 else Text(
            "no slip handed in: turn %(turns)s", turns=listed
        )
        lines.append(f"{none}")
    return lines


def _slip_lines(turn: int, sv: SlipVerdict) -> list[str]:
    lines = []
    if sv.status != "corrected":
        lines.append(f"{Text('turn %(turn)s: %(text)s', turn=turn, text=sv.reason)}")
    for c in sv.cancellations:
        lines.append(f"{Text('turn %(turn)s: %(text)s', turn=turn, text=c['text'])}")
    for v in sv.placements:
        written = f"{v.written_position.strip() or '∅'} {v.written_word.strip() or '∅'}"
        rule = f"{v.rule}: " if v.rule else ""
        points = v.points if v.on_board else 0
        which = Text("turn %(turn)s", turn=f"{turn}.{v.index}")
        lines.append(f"{which} {written:22} {Text(v.status):9} {points:4}  {rule}{v.reason}")
        for note in v.notes:
            lines.append(f"{'':12}{note}")
        if v.original:
            lines.append(
                f"{'':12}{Text('before the decision')}: {Text(v.original['status'])} {v.original['rule']} "
                f"{v.original['reason']}"
            )
        if v.penalty:
            lines.append(f"{'':12}{Text('technical penalty −%(n)s (%(rule)s)', n=v.penalty, rule=v.penalty_rule)}")
    if sv.warning:
        cost = f"−{sv.warning_cost}" if sv.warning_cost else Text("free")
        warning = Text(
            "turn %(turn)s: technical warning %(n)s (%(cost)s), %(rule)s: %(text)s",
            turn=turn,
            n=sv.warning_number,
            cost=cost,
            rule=sv.warning.rule,
            text=sv.warning.text,
        )
        lines.append(f"{warning}")
    if sv.passed:
        lines.append(f"turn {turn}: PAS")
    for note in sv.notes:
        lines.append(f"{Text('turn %(turn)s: %(text)s', turn=turn, text=note)}")
    return lines


commands = [anticipation]


# --- the maximum, losses, the computer player ----------------------------------------------------


@anticipation.command("maximum")
@click.argument("game_id", metavar="GAME")
@click.option("--beam", type=Number(1, 100_000), default=100, show_default=True, help="Boards kept per turn.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Breaks ties (the search is deterministic).")
@json_option("The line and figures as JSON.")
@_db_option
def maximum_cmd(game_id: str, beam: int, seed: int, as_json: bool, db: str) -> None:
    """The best total the groups and lots allowed (a beam search), stored so the results show it."""
    from arbitru.formats.anticipation.maximum import game_inputs, maximum

    game = _open(db, game_id)
    state = game.replay()
    groups, lots, use_all = game_inputs(state)
    result = maximum(game.lexicon, groups, lots, beam=beam, seed=seed, use_all=use_all)
    payload = result.to_payload()
    seq = game.record_maximum(payload)
    if as_json:
        click.echo(json.dumps({"event": seq, **payload}, ensure_ascii=False, indent=1))
        return
    click.echo(
        f"maximum found: {result.total} (beam {beam}, seed {seed}, {result.seconds:.1f} s); "
        f"no line can exceed {result.bound} (a loose bound)"
    )
    for s in result.line.steps:
        click.echo(f"  turn {s.turn:2}  group {s.group:2}  {s.position:4} {s.word:15} {s.score:4}")
    for r in state.ranking:
        if result.total:
            click.echo(f"  {_who(state, r)}: {r.total} = {100 * r.total / result.total:.1f} %")
    click.echo(f"stored as event #{seq}")


@anticipation.command("losses")
@click.argument("game_id", metavar="GAME")
@click.option("--player", required=True, help="The player.")
@json_option("As JSON.")
@_db_option
def losses_cmd(game_id: str, player: str, as_json: bool, db: str) -> None:
    """Turn by turn: what the player scored and the best the group allowed on his own board."""
    from arbitru.formats.anticipation.maximum import game_inputs, losses

    game = _open(db, game_id)
    state = game.replay()
    result = state.results.get(player)
    if result is None:
        raise ArbitruError(f"no player {player!r} in this game")
    groups, lots, use_all = game_inputs(state)
    rows = losses(game.lexicon, groups, dict(enumerate(lots, 1)), result, use_all=use_all)
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in rows], ensure_ascii=False, indent=1))
        return
    for r in rows:
        best = ", ".join(f"{s.position} {s.word} {s.score}" for s in r.best_line) or "nothing"
        click.echo(f"turn {r.turn:2}: you played {r.played}, the group allowed {r.best} here: {best}"
                   + (f"  (−{r.lost})" if r.lost else ""))
    click.echo(f"lost in all: {sum(r.lost for r in rows)}")


@anticipation.command("computer")
@click.argument("game_id", metavar="GAME")
@click.option("--seed", type=SEED, default=0, show_default=True)
@json_option("As JSON.")
@_db_option
def computer_cmd(game_id: str, seed: int, as_json: bool, db: str) -> None:
    """The computer player's game: it knows the groups, not the lots to come."""
    from arbitru.formats.anticipation.maximum import computer_game, game_inputs

    game = _open(db, game_id)
    state = game.replay()
    groups, lots, use_all = game_inputs(state)
    line = computer_game(game.lexicon, groups, lots, seed=seed, use_all=use_all)
    if as_json:
        click.echo(json.dumps(line.to_dict(), ensure_ascii=False, indent=1))
        return
    for s in line.steps:
        click.echo(f"  turn {s.turn:2}  group {s.group:2}  {s.position:4} {s.word:15} {s.score:4}")
    click.echo(f"computer player: {line.total}")
