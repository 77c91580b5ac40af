"""``arbitru duplicate``: run a duplicate game (FISE, Greek, Romanian practice) from the racks to the
standings.

Every command works on a game in a journal (``--journal``, default ``$ARBITRU_JOURNAL`` or ``arbitru.db``;
``--game``, default the latest duplicate game there) and writes each decision to it before showing anything.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from arbitru.cli.common import BONUS, MOVE, POINTS, Number, OneLineGroup, emit_json, json_option, read_text
from arbitru.cli.common import journal_option as common_journal_option
from arbitru.engine.tiles import alphabet
from arbitru.formats import DUPLICATE
from arbitru.formats.duplicate import decisions, export, gcg, racks, results, seats
from arbitru.formats.duplicate.game import (
    ENGINES,
    SOURCES,
    VARIANTS,
    GameError,
    Session,
    Settings,
    Step,
    parse_player,
    read_players_csv,
)
from arbitru.formats.duplicate.prepared import read_prepared
from arbitru.formats.duplicate.rulesets import BLANK_MODES, BONUS_MODES, RULESETS, ruleset
from arbitru.formats.duplicate.slips import Slip, Verdict, read_slips
from arbitru.journal.backends import journal_exists
from arbitru.journal.store import Journal
from arbitru.lexicons.synthetic import load_lexicon
from arbitru.messages import Text, joined
from arbitru.season import tournament

#: the largest stand-in list (``synthetic:N``) made on demand




def _open(journal: str, game: str | None, with_lexicon: bool = True) -> Session:
    if not journal_exists(journal):
        raise GameError(f"no journal {journal}: create a game with 'arbitru duplicate new'")
    session = Session.open_path(journal, game)
    if with_lexicon:
        session.lexicon = load_lexicon(session.settings.lexicon, session.settings.lang)
    return session


journal_option = common_journal_option()
game_option = click.option("--game", "-g", default=None, help="Game id (default: the latest duplicate game).")


@click.group(cls=OneLineGroup)
def duplicate() -> None:
    """Duplicate Scrabble: racks, master moves, slips, results (FISE, Greek, Romanian practice)."""


@duplicate.command()
@journal_option
@click.option("--rules", "rules_name", type=click.Choice(sorted(RULESETS)), default=None,
              help="The rule set (default: the tournament's, else fise).")
@click.option("--lang", default=None, help="Tile set: ro, es, pl, el, en, fr (default by rule set).")
@click.option("--tournament", "tournament_id", default=None,
              help="The tournament's next game: its players the enrolled ones (entry numbers, registry names).")
@click.option("--absent", "absent", multiple=True,
              help="With --tournament: an enrolled player (registry id) absent from this game, not seated.")
@click.option("--lexicon", default=None, help="Word list: catalog name, .kwg/.txt path, or synthetic:N.")
@click.option(
    "--seed",
    default=None,
    help="Draw the racks from this known seed: anyone who knows it knows the racks (default: from a secret the "
    "journal keeps until the game is over, committed to at creation).",
)
@click.option("--moves", type=MOVE, default=None, help="Planned number of moves (FISE-3).")
@click.option("--seconds", type=Number(1, 3_600), default=None, help="Time per move (FISE-5, GR-5C).")
@click.option(
    "--min-each",
    type=Number(1, 2),
    default=None,
    help="Greek rack rule: 1 (GR-8.2) or 2 (GR-5A) vowels and consonants.",
)
@click.option(
    "--blanks", type=click.Choice(BLANK_MODES), default=None, help="How a blank counts in rack rules."
)
@click.option("--bonus", type=click.Choice(BONUS_MODES), default=None, help="FISE-11 bonus mode.")
@click.option("--bonus-top", type=BONUS, default=None, help="Automatic bonus for a sole top (default 10).")
@click.option("--bonus-best", type=BONUS, default=None, help="Automatic bonus for a sole best (default 5).")
@click.option("--bonus-manual", type=click.Choice(["5", "10"]), default=None, help="Manual bonus (FISE-11).")
@click.option(
    "--racks",
    "source",
    type=click.Choice(SOURCES),
    default="seed",
    show_default=True,
    help="Where racks come from: the seed, the hall (hand), a prepared file (FISE-7b).",
)
@click.option(
    "--prepared",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Prepared racks and moves: RACK [POSITION WORD] per line, or a GCG file.",
)
@click.option("--variant", type=click.Choice(VARIANTS), default="standard", show_default=True)
@click.option("--engine", type=click.Choice(ENGINES), default="compiled", show_default=True)
@click.option(
    "--new-order",
    type=click.Choice(["draw", "vowels-first"]),
    default="draw",
    show_default=True,
    help="Order the new tiles are announced in (FISE-8).",
)
@click.option("--player", "players", multiple=True, help="NUMBER:NAME[:TABLE], a pair NUMBER:A+B (GR-1).")
@click.option(
    "--players",
    "players_file",
    type=click.Path(exists=True, dir_okay=False),
    help="The players from CSV number,name[,table] (a pair: A + B), as the web's form takes them.",
)
@click.option("--title", default="", help="Title of the game for the results.")
@json_option()
def new(
    journal: str,
    rules_name: str,
    lang: str | None,
    lexicon: str | None,
    seed: str | None,
    moves: int | None,
    seconds: int | None,
    min_each: int | None,
    blanks: str | None,
    bonus: str | None,
    bonus_top: int | None,
    bonus_best: int | None,
    bonus_manual: str | None,
    source: str,
    prepared: str | None,
    variant: str,
    engine: str,
    new_order: str,
    players: tuple[str, ...],
    players_file: str | None,
    title: str,
    as_json: bool,
    tournament_id: str | None = None,
    absent: tuple[str, ...] = (),
) -> None:
    """Create a game and print the settings to announce (FISE-3). With --tournament, the tournament's next game,
    as the web's "New game in this tournament": its rule set, language and title, the enrolled players seated
    (but those --absent), its results in the tournament's table."""
    if absent and not tournament_id:
        raise click.UsageError("--absent is for a game of a tournament (--tournament)")
    if tournament_id:
        if players or players_file:
            raise click.UsageError("a tournament's game seats its enrolled players: no --player or --players")
        with Journal(journal) as j:
            t = tournament.replay(j, tournament_id)
        if rules_name and rules_name != t.event.rules:
            raise click.UsageError(f"{t.event.name} plays the rule set {t.event.rules}, not {rules_name}")
        rules_name = t.event.rules
        lang = lang or t.event.language
        title = title or f"{t.event.name} · {len(t.games) + 1}"
    rules_name = rules_name or "fise"
    lang = lang or {"fise": "es", "greek": "el", "romanian": "ro"}[rules_name]
    rs = ruleset(
        rules_name,
        moves=moves,
        seconds=seconds,
        min_each=min_each,
        blanks=blanks,
        bonus_mode=bonus,
        bonus_top=bonus_top,
        bonus_best=bonus_best,
        bonus_manual=int(bonus_manual) if bonus_manual else None,
    )
    lex = load_lexicon(lexicon, lang)
    prepared_moves: tuple[Any, ...] = ()
    if source == "prepared" or prepared:
        if not prepared:
            raise click.UsageError("--racks prepared needs --prepared FILE")
        text = _read_text(prepared)
        prepared_moves = read_prepared(text, alphabet(lang), rs.notation)
        source = "prepared"
    if seed == "":
        raise click.BadParameter("a typed seed is not empty (leave --seed out to draw from a secret)",
                                 param_hint="--seed")
    settings = Settings(
        rs,
        lang,
        lexicon or lex.name,
        seed=seed or "",
        racks=source,
        variant=variant,
        engine=engine,
        new_order=new_order,
        prepared=prepared_moves,
        title=title,
    )
    with Journal(journal) as j:
        if tournament_id:
            session = Session(j, tournament.create_duplicate_game(j, tournament_id, settings, lex, absent=absent), lex)
        else:
            registered = [parse_player(p) for p in players]
            if players_file:
                registered += read_players_csv(_read_text(players_file), players_file)
            session = Session.create(j, settings, lex, registered)
        settings = session.settings  # with its commitment
        if as_json:
            emit_json(
                {
                    "game": session.id,
                    "journal": journal,
                    "settings": settings.to_dict(),
                    "announcement": settings.announcement(),
                }
            )
            return
        click.echo(f"game {session.id} in {journal}")
        for line in settings.announcement():
            click.echo(line)
        click.echo("no rack yet: 'arbitru duplicate next' draws the first one")


def _read_text(path: str) -> str:
    return read_text(path)


def _show_step(session: Session, step: Step, as_json: bool) -> None:
    if as_json:
        data: dict[str, Any] = {"kind": step.kind, "move": step.move, "message": step.message}
        if step.announcement:
            data["announcement"] = step.announcement.to_dict()
        if step.end:
            data["end"] = {
                "after_move": step.end.after_move,
                "reason": step.end.reason,
                "rules": step.end.rules,
            }
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    alpha = session.game.alphabet
    if step.kind == "master" and step.master:
        m = step.master
        click.echo(
            f"move {step.move}: master {m.placement.coord.format(session.settings.rules.notation)} "
            f"{alpha.format(m.placement.word)} {m.score} (total {session.game.master_total()}, by {m.by})"
        )
        if len(step.candidates) > 1:
            click.echo(f"  {len(step.candidates)} tied top moves (choose another with --choose N):")
            for i, c in enumerate(step.candidates, 1):
                click.echo(f"  {i:>3}. {c.describe(session.settings.rules.notation)}")
        for remark in m.remarks:
            click.echo(f"  note: {remark}")
        if m.joker:
            j = m.joker
            click.echo(
                f"  FISE-20: blank for {j['letter']} at {j['square']} "
                f"{'replaced by the real letter' if j['replaced'] else 'stays on the board'}"
            )
    elif step.kind in ("rack",) and step.announcement:
        click.echo(step.announcement.script())
    elif step.kind == "end" and step.end:
        click.echo(
            f"game over after move {step.end.after_move}: {step.end.reason} ({', '.join(step.end.rules)})"
        )
    else:
        click.echo(f"move {step.move}: {step.message}")


@duplicate.command(name="next")
@journal_option
@game_option
@click.option("--draw", "drawn", default=None, help="Tiles drawn in the hall (hand racks), e.g. 'CASA?'.")
@click.option("--choose", type=Number(1, 100_000), default=None, help="Place the N-th tied top move (FISE-7).")
@click.option(
    "--move",
    "move_text",
    default=None,
    help="Place this move as master instead (FISE-16: a weaker one stays), e.g. 'H8 CASA'.",
)
@json_option()
def next_(
    journal: str,
    game: str | None,
    drawn: str | None,
    choose: int | None,
    move_text: str | None,
    as_json: bool,
) -> None:
    """Close the open move with its master move, then draw and announce the next rack."""
    session = _open(journal, game)
    tiles = racks.parse_tiles(session.game.alphabet, drawn) if drawn else None
    for step in session.next(tiles, choose, move_text):
        _show_step(session, step, as_json)


@duplicate.command()
@journal_option
@game_option
@json_option()
def ties(journal: str, game: str | None, as_json: bool) -> None:
    """List the tied top moves for the rack on the stand, in tie-break order (FISE-7, GR-5E)."""
    session = _open(journal, game)
    if session.game.phase == "rack":
        raise GameError("no rack is on the stand yet: 'arbitru duplicate next' draws it")
    cands = session.candidates()
    from arbitru.formats.duplicate.master import deciding_criterion

    order = session.settings.rules.master_order
    if as_json:
        notation = session.settings.rules.notation
        emit_json(
            {
                "move": session.game.move,
                "ties": [
                    {
                        "position": c.placement.coord.format(notation),
                        "word": c.word(),
                        "score": c.score,
                        "behind": deciding_criterion(cands[i - 1], c, order) if i else None,
                    }
                    for i, c in enumerate(cands)
                ],
            }
        )
        return
    for i, c in enumerate(cands, 1):
        why = f"  (after {i - 1}: {deciding_criterion(cands[i - 2], c, order)})" if i > 1 else ""
        click.echo(f"{i:>3}. {c.describe(session.settings.rules.notation)}{why}")
    if not cands:
        click.echo("the rack cannot be played")


@duplicate.command(name="new-rack")
@journal_option
@game_option
@click.option("--draw", "drawn", default=None, help="The new rack drawn in the hall (hand racks).")
@json_option()
def new_rack(journal: str, game: str | None, drawn: str | None, as_json: bool) -> None:
    """Replace the rack on the stand with a new one (FISE-16)."""
    session = _open(journal, game, with_lexicon=False)
    tiles = racks.parse_tiles(session.game.alphabet, drawn) if drawn else None
    step = session.new_rack(tiles)
    if step.kind == "illegal-rack":
        # the attempt is journaled (every draw is), but the rack is refused: the referee draws again
        if as_json:
            _show_step(session, step, as_json)
        raise GameError(f"move {step.move}: {step.message}")
    _show_step(session, step, as_json)


def _verdict_dict(v: Verdict) -> dict[str, Any]:
    s = v.slip
    return {
        "move": s.move,
        "player": s.player,
        "position": s.position,
        "word": s.word,
        "declared": s.score,
        "valid": v.valid,
        "score": v.score,
        "computed": v.computed,
        "reasons": v.codes(),
        "rules": v.rules(),
        "why": [text for _, text in v.reasons],
        "notes": list(v.notes),
    }


def _show_verdicts(verdicts: list[Verdict]) -> None:
    for v in verdicts:
        s = v.slip
        head = f"move {s.move} player {s.player or '?'}: {s.position} {s.word}".rstrip()
        if v.valid:
            click.echo(f"{head}: {v.score}")
        else:
            rules = ", ".join(v.rules())
            click.echo(
                f"{head}: 0 — {joined(text for _, text in v.reasons)}" + (f" ({rules})" if rules else "")
            )
        for note in v.notes:
            click.echo(f"    {Text('note: %(text)s', text=note)}")


@duplicate.command()
@journal_option
@game_option
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--move", type=MOVE, default=None, help="Move of the slips (default: the open one)."
)
@click.option("--player", default=None, help="One slip: the player's number.")
@click.option("--position", default="", help="One slip: the position as written.")
@click.option("--word", default="", help="One slip: the main word, a circled blank in lower case.")
@click.option("--score", type=POINTS, default=None, help="One slip: the score written (FISE-6).")
@click.option("--late", is_flag=True, help="One slip: handed in after time.")
@click.option("--illegible", is_flag=True, help="One slip: unreadable.")
@click.option(
    "--replace", is_flag=True, help="Re-enter slips already stored (the old entries stay in the journal)."
)
@json_option()
def slips(
    journal: str,
    game: str | None,
    file: str | None,
    move: int | None,
    player: str | None,
    position: str,
    word: str,
    score: int | None,
    late: bool,
    illegible: bool,
    replace: bool,
    as_json: bool,
) -> None:
    """Enter slips (a CSV file, or one with --player ...), store them, and print each verdict."""
    session = _open(journal, game)
    g = session.game
    # without --move a slip goes to the open move; once that move is closed, a late slip must not replace the
    # slips judged against it unless the referee says which move (0: no move given, caught below)
    number = move if move is not None else g.move if g.phase == "play" or not g.move else 0
    if file:
        text = _read_text(file)
        entered = read_slips(text, move=number)
    elif player is not None:
        entered = [Slip(number, player, position, word, score, late, illegible)]
    else:
        raise click.UsageError("give a CSV file of slips or one slip with --player")
    if any(s.move == 0 for s in entered) and g.move:
        raise GameError(f"move {g.move} is closed; give --move {g.move} to re-enter")
    verdicts = session.add_slips(entered, replace=replace)
    if as_json:
        emit_json([_verdict_dict(v) for v in verdicts])
        return
    _show_verdicts(verdicts)


@duplicate.command()
@journal_option
@game_option
@click.argument("word")
@click.option("--valid/--invalid", required=True, help="The referee's decision on the word.")
@click.option("--reason", default="", help="Why (kept with the decision).")
@click.option(
    "--rule", "rule_id", type=click.Choice(["FISE-16", "GR-5D"]), default="FISE-16", show_default=True
)
@json_option()
def rule(journal: str, game: str | None, word: str, valid: bool, reason: str, rule_id: str, as_json: bool) -> None:
    """Rule on a word after the fact: scores change, the board does not (FISE-16, GR-5D)."""
    session = _open(journal, game, with_lexicon=False)
    session.rule(word, valid, reason, rule_id)
    if as_json:
        emit_json({"word": word.upper(), "valid": valid, "reason": reason, "rule": rule_id})
        return
    click.echo(f"{word.upper()} ruled {'valid' if valid else 'invalid'}; results are recomputed")


@duplicate.command()
@journal_option
@game_option
@click.argument("player")
@click.option(
    "--after", type=Number(0, MOVE.max), default=None, help="Last move played (default: moves closed)."
)
@json_option()
def withdraw(journal: str, game: str | None, player: str, after: int | None, as_json: bool) -> None:
    """A player leaves the game: 0 for the remaining moves (GR-7)."""
    session = _open(journal, game, with_lexicon=False)
    seat = session.seat(player)  # a number, or a name that is one player's alone
    player = seat.number
    seats.withdraw(session, player, after)
    if as_json:
        emit_json({"player": player, "after_move": session.game.players[player].withdrawn_after})
        return
    click.echo(f"player {seat.label()} withdrawn")


@duplicate.command()
@journal_option
@game_option
@click.argument("change", type=click.Choice(seats.ACTIONS))
@click.argument("player")
@click.option("--name", default="", help="enter, rename: the player's name.")
@click.option("--table", default="", help="enter: his table.")
@click.option("--move", type=Number(0, MOVE.max), default=None,
              help="enter: his first move (default: the move open, or the next); withdraw, disqualify: the last "
                   "move he played (default: moves closed).")
@click.option("--reason", default="", help="disqualify: why (FISE-18).")
@json_option()
def seat(journal: str, game: str | None, change: str, player: str, name: str, table: str, move: int | None,
         reason: str, as_json: bool) -> None:
    """A seat that changes mid-game: a late entry, a new name, a withdrawal (GR-7), a disqualification
    (FISE-18: he left without telling the referee), a reinstatement (undoes either)."""
    session = _open(journal, game, with_lexicon=False)
    p = seats.change(session, change, player, name=name, table=table, move=move, reason=reason)
    p = session.game.players[p.number]
    if as_json:
        emit_json({"player": p.number, "name": p.name, "change": change, "entered_at": p.entered_at,
                   "withdrawn_after": p.withdrawn_after, "disqualified_after": p.disqualified_after,
                   "former_names": list(p.former_names), "status": seats.status(p)})
        return
    click.echo(f"player {p.label()}: {change}" + (f" ({seats.status(p)})" if seats.status(p) else ""))


@duplicate.command(name="end")
@journal_option
@game_option
@click.argument("reason")
@json_option()
def end_(journal: str, game: str | None, reason: str, as_json: bool) -> None:
    """End the game now (FISE-13: the referee says so)."""
    session = _open(journal, game, with_lexicon=False)
    end = session.end_game(reason)
    if as_json:
        emit_json({"after_move": end.after_move, "reason": end.reason, "rules": list(end.rules), "kind": end.kind})
        return
    click.echo(f"game over after move {end.after_move}: {end.reason}")


@duplicate.command()
@journal_option
@game_option
@json_option()
def show(journal: str, game: str | None, as_json: bool) -> None:
    """Show the board, the rack, the move and the clock of the game (FISE-2)."""
    session = _open(journal, game, with_lexicon=False)
    g = session.game
    if as_json:
        clock = session.settings.rules.clock
        emit_json(
            {
                "game": g.id,
                "move": g.move,
                "phase": g.phase,
                "rack": racks.labels(g.alphabet, racks.sort_tiles(g.rack)),
                "bag": len(g.bag),
                "master_total": g.master_total(),
                "board": g.board.to_text().splitlines(),
                "clock": {"seconds": clock.seconds, "warnings": list(clock.warnings)},
                "end": None if g.end is None else {"after_move": g.end.after_move, "reason": g.end.reason},
            }
        )
        return
    click.echo(g.board.render())
    click.echo(
        f"move {g.move} ({g.phase}); rack {racks.labels(g.alphabet, racks.sort_tiles(g.rack))}; "
        f"bag {len(g.bag)}; master total {g.master_total()}"
    )
    clock = session.settings.rules.clock
    click.echo(
        f"clock: {clock.seconds} s per move; warnings at {', '.join(str(w) for w in clock.warnings)} s left"
    )
    if g.end:
        click.echo(f"game over after move {g.end.after_move}: {g.end.reason}")


def _out(text: str, out: str | None) -> None:
    if out:
        Path(out).write_text(text, encoding="utf-8")
        click.echo(f"written {out}", err=True)
    else:
        click.echo(text, nl=False)


@duplicate.command(name="results")
@journal_option
@game_option
@click.option("--format", "fmt", type=click.Choice(export.FORMATS), default="text", show_default=True)
@click.option("--player", default=None, help="Print this player's record sheet (FISE-6b).")
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Write to a file.")
@json_option("The results as JSON data (the same as --format json).")
def results_(
    journal: str, game: str | None, fmt: str, player: str | None, out: str | None, as_json: bool
) -> None:
    """Results move by move with bonuses, ranking and percentages (FISE-11, FISE-15, FISE-17, GR-7)."""
    session = _open(journal, game)
    assert session.lexicon is not None
    result = results.compute(session.game, session.lexicon)
    fmt = "json" if as_json else fmt
    if player is not None:
        try:
            line = result.line(player)
        except KeyError:
            raise GameError(f"no player {player} in the results") from None
        if fmt == "json":
            data = export.result_dict(result)
            data["ranking"] = [r for r in data["ranking"] if r["player"] == player]
            _out(json.dumps(data, ensure_ascii=False) + "\n", out)
            return
        _out(export.player_sheet(result, line), out)
        return
    _out(export.render(result, fmt), out)


@duplicate.command(name="export")
@journal_option
@game_option
@click.option(
    "--format", "fmt", type=click.Choice(["gcg", *export.FORMATS]), default="gcg", show_default=True
)
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Write to a file.")
@json_option("The results as JSON data (the same as --format json).")
def export_(journal: str, game: str | None, fmt: str, out: str | None, as_json: bool) -> None:
    """Export the master moves as GCG (Quackle, Macondo, Woogles) or the results as CSV, HTML, text or JSON."""
    fmt = "json" if as_json else fmt
    session = _open(journal, game, with_lexicon=fmt != "gcg")
    if fmt == "gcg":
        _out(gcg.write(session.game), out)
        return
    assert session.lexicon is not None
    _out(export.render(results.compute(session.game, session.lexicon), fmt), out)


@duplicate.command(name="standings")
@journal_option
@click.argument("games", nargs=-1)
@click.option(
    "--method", type=click.Choice(results.STANDING_METHODS), default="mean-place", show_default=True
)
@click.option("--format", "fmt", type=click.Choice(["text", "csv"]), default="text", show_default=True)
@json_option()
def standings_(journal: str, games: tuple[str, ...], method: str, fmt: str, as_json: bool) -> None:
    """Standings over several games: mean place (absent = last) or mean percentage (FISE-15); a tournament's
    players are matched by registry id, others by name."""
    with Journal(journal) as j:
        ids = list(games) or [g.id for g in j.games(DUPLICATE.name)]
        registered = tournament.registered_players(j, ids)  # a tournament's players: by registry id
    found = []
    for gid in ids:
        session = _open(journal, gid)
        assert session.lexicon is not None
        found.append(results.compute(session.game, session.lexicon))
    rows = results.standings(found, method, registered)
    if as_json:
        emit_json({"method": method, "standings": export.standings_dict(rows)})
        return
    click.echo(export.standings_text(rows) if fmt == "text" else export.standings_csv(rows), nl=False)


@duplicate.command()
@click.option("--auto", is_flag=True, required=True, help="Play the whole game alone (the only mode so far).")
@click.option("--journal", "--db", "-j", default=None, help="Keep the game in this journal (default: in memory).")
@click.option("--rules", "rules_name", type=click.Choice(sorted(RULESETS)), default="fise", show_default=True)
@click.option("--lang", default=None, help="Tile set (default by rule set).")
@click.option("--lexicon", default=None, help="Word list: catalog name, path, or synthetic:N.")
@click.option("--seed", default="1", show_default=True)
@click.option("--moves", type=MOVE, default=None)
@click.option("--variant", type=click.Choice(VARIANTS), default="standard", show_default=True)
@click.option("--engine", type=click.Choice(ENGINES), default="compiled", show_default=True)
@json_option()
def play(
    auto: bool,
    journal: str | None,
    rules_name: str,
    lang: str | None,
    lexicon: str | None,
    seed: str,
    moves: int | None,
    variant: str,
    engine: str,
    as_json: bool,
) -> None:
    """Play a whole game alone, printing each rack, master move and running total (FISE-1)."""
    lang = lang or {"fise": "es", "greek": "el", "romanian": "ro"}[rules_name]
    lex = load_lexicon(lexicon, lang)
    settings = Settings(
        ruleset(rules_name, moves=moves),
        lang,
        lexicon or lex.name,
        seed=seed,
        variant=variant,
        engine=engine,
        title=f"auto {rules_name} {lang} seed {seed}",
    )
    j = Journal(journal or ":memory:")
    session = Session.create(j, settings, lex)
    alpha = session.game.alphabet
    if not as_json:
        for line in settings.announcement():
            click.echo(line)

    def show_step(step: Step) -> None:
        if as_json:
            _show_step(session, step, True)
            return
        if step.kind == "rack":
            rack = racks.labels(alpha, racks.sort_tiles(session.game.rack))
            redrawn = sum(1 for d in step.draws if not d.legal)
            click.echo(
                f"move {step.move:>2}  rack {' '.join(rack):<22}"
                + (f" (redrawn {redrawn})" if redrawn else "")
            )
        elif step.kind == "master" and step.master:
            m = step.master
            ties_note = f" [{len(step.candidates)} tied]" if len(step.candidates) > 1 else ""
            click.echo(
                f"         master {m.placement.coord.format(settings.rules.notation):<6} "
                f"{alpha.format(m.placement.word):<15} {m.score:>4}  total {session.game.master_total():>5}"
                f"{ties_note}"
            )
        elif step.kind == "end" and step.end:
            click.echo(f"game over after move {step.end.after_move}: {step.end.reason}")

    try:
        session.play_auto(show_step)
    finally:
        if journal:
            click.echo(f"game {session.id} in {journal}", err=True)
        j.close()


@duplicate.command()
@journal_option
@game_option
@click.option("--move", type=MOVE, default=None, help="The move (default: the one being collected).")
@json_option()
def collect(journal: str, game: str | None, move: int | None, as_json: bool) -> None:
    """Close the collection of a closed move's paper slips (and of the moves before it): from then on its slips
    change only by the arbiter's decision (FISE-8, FISE-17)."""
    session = _open(journal, game, with_lexicon=False)
    closed = session.close_collection(move)
    if as_json:
        emit_json({"collected": closed})
        return
    click.echo(Text("the collection of move %(move)s is closed: its slips change only by a decision", move=closed))


@duplicate.command()
@journal_option
@game_option
@click.option("--move", type=MOVE, default=None, help="The closed move the decision is about.")
@click.option("--player", default="", help="The player's number (or a name that is his alone).")
@click.option("--position", default="", help="The slip as it is to be read: its position ...")
@click.option("--word", default="", help="... its word (a circled blank in lower case) ...")
@click.option("--score", type=POINTS, default=None, help="... and its score (FISE-6).")
@click.option("--void", is_flag=True, help="Strike the slip that counts out: the move scores 0 for him.")
@click.option("--reverse", type=Number(1, 2**31 - 1), default=None, help="Reverse the decision of this event.")
@click.option("--reason", required=True, help="Why (a claim, a referee's error): kept and listed on the results.")
@click.option("--rule", "rule_id", type=click.Choice(["FISE-17", "GR-5D"]), default="FISE-17", show_default=True,
              help="FISE-17: a claim; GR-5D: a referee's error found later.")
@json_option()
def decide(journal: str, game: str | None, move: int | None, player: str, position: str, word: str,
           score: int | None, void: bool, reverse: int | None, reason: str, rule_id: str, as_json: bool) -> None:
    """The arbiter's decision on a closed move's slip (FISE-17, GR-5D): the slip as it is to be read, struck out
    (--void), or an earlier decision reversed (--reverse EVENT); always with a reason."""
    session = _open(journal, game)
    if reverse is not None:
        d = session.decide(0, "", "reverse", reason, rule_id, reverses=reverse)
    else:
        if move is None or not player:
            raise click.UsageError("give --move and --player (or --reverse EVENT)")
        if not void and not (position or word):
            raise click.UsageError("give the slip as it is to be read (--position, --word) or --void")
        slip = None if void else Slip(move, player, position, word, score)
        d = session.decide(move, player, "void" if void else "slip", reason, rule_id, slip)
    assert session.lexicon is not None
    effect = results.compute(session.game, session.lexicon).decisions[-1]
    if as_json:
        emit_json({"event": d.seq, "move": d.move, "player": d.player, "action": d.action, "rule": d.rule,
                   "reason": d.reason, "points_before": effect.points_before, "points_after": effect.points_after})
        return
    click.echo(f"decision {d.seq}: move {d.move}, player {d.player}: {decisions.written(d.before)} "
               f"({effect.points_before}) -> {decisions.written(d.after)} ({effect.points_after}); {d.reason} "
               f"({d.rule})")


def _add_codes() -> None:
    from arbitru.cli.web import codes

    duplicate.add_command(codes)


_add_codes()
commands = [duplicate]

__all__ = ["commands", "load_lexicon"]
