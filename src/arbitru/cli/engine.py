"""``arbitru check|score|moves|demo``: the engine from the command line.

Every result names the word list it used (RO-2): the text output says it, the JSON has a ``lexicon`` object.
Bad input (an unknown list, a malformed board file, an impossible rack, a letter outside the tile set) is an
:class:`~arbitru.errors.ArbitruError`: one line on stderr, exit status 2.
"""

from __future__ import annotations

import random
import re
import sys
from importlib import resources
from pathlib import Path
from typing import TypedDict

import click

from arbitru.cli.common import SEED, TOP, Number, OneLineCommand, emit_json, json_option
from arbitru.engine import movegen
from arbitru.engine.board import Board
from arbitru.engine.layout import ROW_LETTERS, SIZE
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.notation import CONVENTIONS, Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.rules import check as check_placement
from arbitru.engine.tiles import BLANK, LANGUAGES, Alphabet, Bag, Rack, alphabet, is_blank, letter_of
from arbitru.errors import ArbitruError, BoardFileError, TileError
from arbitru.lexicons import catalog

RACK_SIZE = 7
DEMO_BOARD = "demo-ro.txt"

lexicon_option = click.option(
    "--lexicon", "lexicon_name", metavar="NAME|PATH", help="Word list: a catalog name, a .kwg or a .txt file."
)
lang_option = click.option(
    "--lang", type=click.Choice(LANGUAGES), help="Tile set (default: the word list's language, else ro)."
)
convention_option = click.option(
    "--convention",
    type=click.Choice(CONVENTIONS),
    default="ro",
    show_default=True,
    help="Coordinates: ro (H8 across, 8H down), fise (also H B3 / V B3), gr (H8 O / H8 K), en (8H across, H8 down).",
)
engine_option = click.option(
    "--engine",
    type=click.Choice(movegen.ENGINES),
    default=None,
    help="Move generator (default: compiled when the core is built, else reference).",
)


# --- shared helpers ----------------------------------------------------------------------------------------


def open_lexicon(name: str | None, lang: str | None) -> tuple[Lexicon, catalog.ListInfo]:
    """The list a command uses, and its record; ``name`` None is ``lang``'s default list."""
    found = catalog.resolve(name, lang)
    return catalog.open_list(found), found


def read_board(path: str, alpha: Alphabet) -> Board:
    """A board file: 15 lines of 15 squares, or one CGP line (detected); ``-`` reads standard input.

    :raises BoardFileError: for a malformed board or more tiles of a letter than the set holds.
    """
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise BoardFileError(f"board file {path} is not UTF-8 text") from None
    except OSError as e:
        raise BoardFileError(f"cannot read board file {path}: {e.strerror or e}") from None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    cgp = len(lines) == 1 and "/" in lines[0]
    board = Board.from_cgp(lines[0], alpha) if cgp else Board.from_text(text, alpha)
    used = board_tile_counts(board)
    for t, n in enumerate(used):
        if n > alpha.counts[t]:
            raise BoardFileError(
                f"board file {path} has {n} × {_tile_name(alpha, t)}; "
                f"the {alpha.name} set has {alpha.counts[t]}"
            )
    return board


def _tile_name(alpha: Alphabet, tile: int) -> str:
    return "blank" if tile == BLANK else alpha.label(tile)


def board_tile_counts(board: Board) -> list[int]:
    """Tiles on the board as a count vector (index 0 = blanks)."""
    counts = [0] * (board.alphabet.size + 1)
    for sq in board.occupied():
        t = board.squares[sq]
        counts[BLANK if is_blank(t) else letter_of(t)] += 1
    return counts


def unseen(board: Board) -> list[int]:
    """Tile counts not on the board: what the bag and the racks hold between them."""
    on_board = board_tile_counts(board)
    return [total - used for total, used in zip(board.alphabet.counts, on_board, strict=True)]


def parse_rack(text: str, board: Board) -> Rack:
    """A rack of 1–7 tiles that the tile set can still provide with ``board``'s tiles out of the bag.

    :raises TileError: for a foreign letter, a letter without tiles, too many tiles of a kind.
    """
    alpha = board.alphabet
    rack = alpha.parse_rack(text)
    if not 1 <= len(rack) <= RACK_SIZE:
        raise TileError(f"a rack holds 1 to {RACK_SIZE} tiles, {text!r} has {len(rack)}")
    left = unseen(board)
    for t, n in enumerate(rack.counts):
        if n > left[t]:
            on_board = alpha.counts[t] - left[t]
            where = f", {on_board} of them on the board" if on_board else ""
            raise TileError(
                f"rack {text!r} asks for {n} × {_tile_name(alpha, t)}; "
                f"the {alpha.name} set has {alpha.counts[t]}{where}"
            )
    return rack


def placement_fields(placement: Placement, alpha: Alphabet, convention: str = "ro") -> dict[str, object]:
    """``pos`` (in the convention), ``row``, ``col`` (0-based), ``dir`` and the whole main word."""
    coord = placement.coord
    return {
        "pos": coord.format(convention),
        "row": coord.row,
        "col": coord.col,
        "dir": coord.direction,
        "word": alpha.format(placement.word),
    }


def square_name(square: int) -> str:
    return f"{ROW_LETTERS[square // SIZE]}{square % SIZE + 1}"


def leave(rack: Rack, placed: list[int]) -> str:
    return str(rack.take(placed))


def render(board: Board, highlight: set[int], color: bool) -> str:
    """The board for a terminal, ``highlight`` squares in colour, or marked ``*`` without colour."""
    text = board.render(highlight=highlight, color=True)
    if color:
        return text
    # without colour, the highlighted cell's padding space becomes a '*' (" A" -> "*A")
    return re.sub(
        r"\x1b\[[0-9;]*m(.{2})\x1b\[0m",
        lambda m: "*" + m.group(1)[1:] if m.group(1)[0] == " " else m.group(1),
        text,
    )


def generate(
    board: Board, rack: Rack, lexicon: Lexicon, top: int, engine: str | None
) -> list[tuple[Placement, int]]:
    engine = engine or ("compiled" if movegen.core_available() else "reference")
    try:
        return movegen.generate(board, rack, lexicon, top=top, engine=engine)
    except ImportError:
        raise ArbitruError("the compiled core is not built: use --engine reference") from None


def list_line(found: catalog.ListInfo) -> str:
    return f"word list: {found.label()}"


# --- check -------------------------------------------------------------------------------------------------


@click.command("check", cls=OneLineCommand)
@lexicon_option
@lang_option
@json_option("Machine-readable output.")
@click.argument("words", nargs=-1, required=True)
def check_cmd(lexicon_name: str | None, lang: str | None, as_json: bool, words: tuple[str, ...]) -> None:
    """Is each WORD in the word list? Diacritics fold as the language says (Romanian: G-6)."""
    lexicon, found = open_lexicon(lexicon_name, lang)
    alpha = lexicon.alphabet
    results = []
    for word in words:
        # only the language's own diacritics fold (G-6): a Ç or Ñ in a Romanian word is no Romanian letter
        folded = alpha.fold(word, strict=True)
        if not folded:
            foreign = " ".join(alpha.foreign_letters(word))
            raise TileError(
                f"{word!r} has a character outside the {alpha.name} tile set" + (f": {foreign}" if foreign else "")
            )
        tiles = alpha.split(folded)
        results.append({"word": word, "tiles": alpha.format(tiles), "valid": lexicon.contains_tiles(tiles)})
    if as_json:
        emit_json({"lexicon": found.summary(), "words": results})
        return
    for r in results:
        shown = r["word"] if r["word"] == r["tiles"] else f"{r['word']} ({r['tiles']})"
        click.echo(f"{shown}: {'valid' if r['valid'] else 'NOT in the list'}")
    click.echo(list_line(found))


# --- score -------------------------------------------------------------------------------------------------


class WordLine(TypedDict):
    """One word a placement forms, as ``score`` shows it."""

    word: str
    pos: str
    main: bool
    letters: int
    word_mult: int
    score: int
    valid: bool | None


@click.command("score", cls=OneLineCommand)
@lexicon_option
@lang_option
@click.option(
    "--board", "board_file", metavar="FILE", help="Board: 15 lines of 15 squares, or CGP (default: empty)."
)
@click.option(
    "--play", "play", required=True, metavar="PLACEMENT", help='Position and whole word, e.g. "H8 CASA".'
)
@click.option(
    "--rack", "rack_text", metavar="RACK", help="Check the new tiles against this rack (? = blank)."
)
@convention_option
@json_option("Machine-readable output.")
def score_cmd(
    lexicon_name: str | None,
    lang: str | None,
    board_file: str | None,
    play: str,
    rack_text: str | None,
    convention: str,
    as_json: bool,
) -> None:
    """Judge one placement: legal or not with every reason, and its score word by word (G-2 to G-6)."""
    lexicon, found = open_lexicon(lexicon_name, lang)
    alpha = lexicon.alphabet
    board = read_board(board_file, alpha) if board_file else Board(alpha)
    placement = Placement.parse(play, alpha, convention)
    rack = parse_rack(rack_text, board) if rack_text else None
    result = check_placement(board, placement, lexicon, rack)
    words: list[WordLine] = [
        {
            "word": alpha.format(w.tiles),
            "pos": Coordinate(w.start // SIZE, w.start % SIZE, "H" if w.horizontal else "V").format(
                convention
            ),
            "main": w.main,
            "letters": w.letter_sum,
            "word_mult": w.word_mult,
            "score": w.score,
            "valid": w.valid,
        }
        for w in result.words
    ]
    out = {
        **placement_fields(placement, alpha, convention),
        "legal": result.legal,
        "reasons": [{"code": code, "text": text} for code, text in result.reasons],
        "new_tiles": [{"square": square_name(sq), "tile": alpha.label(t)} for sq, t in result.new],
        "words": words,
        "bingo": result.bingo,
        "score": result.score,
        "lexicon": found.summary(),
    }
    if as_json:
        emit_json(out)
        return
    click.echo(f"{placement.format(alpha, convention)}: {'legal' if result.legal else 'NOT legal'}")
    for code, text in result.reasons:
        click.echo(f"  - {text} [{code}]")
    for w in words:
        kind = "main " if w["main"] else "cross"
        mark = "" if w["valid"] is not False else "  (not in the list)"
        mult = f" x{w['word_mult']}" if w["word_mult"] > 1 else ""
        click.echo(
            f"  {kind} {w['pos']:<5} {w['word']:<15} {w['letters']:>3}{mult:<4} = {w['score']:>4}{mark}"
        )
    if result.bingo:
        click.echo(f"  bingo (all {RACK_SIZE} tiles){'':>12} +{result.bingo}")
    if result.words:
        click.echo(f"score: {result.score}{'' if result.legal else ' (if it were legal)'}")
    click.echo(list_line(found))


# --- moves -------------------------------------------------------------------------------------------------


def move_records(
    moves: list[tuple[Placement, int]], board: Board, rack: Rack, convention: str = "ro"
) -> list[dict[str, object]]:
    alpha = board.alphabet
    out = []
    for rank, (placement, score) in enumerate(moves, start=1):
        placed = [t for _sq, t in board.new_tiles(placement)]
        out.append(
            {
                "rank": rank,
                **placement_fields(placement, alpha, convention),
                "score": score,
                "tiles": len(placed),
                "leave": leave(rack, placed),
            }
        )
    return out


def print_moves(records: list[dict[str, object]]) -> None:
    click.echo(f"{'#':>3}  {'POS':<6} {'WORD':<15} {'SCORE':>5}  LEAVE")
    for r in records:
        click.echo(f"{r['rank']:>3}  {r['pos']!s:<6} {r['word']!s:<15} {r['score']:>5}  {r['leave']}")


@click.command("moves", cls=OneLineCommand)
@lexicon_option
@lang_option
@click.option(
    "--board", "board_file", metavar="FILE", help="Board: 15 lines of 15 squares, or CGP (default: empty)."
)
@click.option("--rack", "rack_text", required=True, metavar="RACK", help="1 to 7 tiles, ? for a blank.")
@click.option(
    "--top", type=TOP, default=10, show_default=True, help="Show the best N (0 = all); ties are counted."
)
@engine_option
@convention_option
@json_option("Machine-readable output.")
def moves_cmd(
    lexicon_name: str | None,
    lang: str | None,
    board_file: str | None,
    rack_text: str,
    top: int,
    engine: str | None,
    convention: str,
    as_json: bool,
) -> None:
    """The legal placements of RACK on the board, best first. --json: one object per line.

    Placements that tie with the N-th are not listed, only counted: the JSON lines are exactly N.
    """
    lexicon, found = open_lexicon(lexicon_name, lang)
    board = read_board(board_file, lexicon.alphabet) if board_file else Board(lexicon.alphabet)
    rack = parse_rack(rack_text, board)
    moves = generate(board, rack, lexicon, top, engine)
    shown = moves[:top] if top else moves
    records = move_records(shown, board, rack, convention)
    if as_json:
        for r in records:
            emit_json({**r, "lexicon": found.name})
        return
    if not records:
        click.echo(f"no legal placement for {rack}")
    else:
        print_moves(records)
    if len(moves) > len(shown):
        click.echo(f"... and {len(moves) - len(shown)} more scoring {shown[-1][1]} (tied with #{len(shown)})")
    click.echo(list_line(found))


# --- demo --------------------------------------------------------------------------------------------------


def demo_board() -> Board:
    """The demo's mid-game Romanian board (``cli/data/demo-ro.txt``; every word on it is in LOC 5.0)."""
    text = resources.files("arbitru.cli").joinpath(f"data/{DEMO_BOARD}").read_text("utf-8")
    return Board.from_text(text, alphabet("ro"))


def draw_group(board: Board, seed: int) -> Rack:
    """Seven tiles from the bag (the set minus the board's tiles), redrawn until the group holds a vowel and a
    consonant (RO-5.2.e; a blank counts as neither)."""
    alpha = board.alphabet
    tiles = [t for t, n in enumerate(unseen(board)) for _ in range(n)]
    bag = Bag(alpha, seed=seed, tiles=tiles)
    while True:
        drawn = bag.draw(RACK_SIZE)
        rack = Rack(alpha, drawn)
        if rack.vowels() and rack.consonants():
            return rack
        bag.put_back(drawn)


@click.command("demo", cls=OneLineCommand)
@click.option(
    "--seed", type=SEED, help="Seed of the draw (default: a random one, printed so it can be replayed)."
)
@click.option("--rack", "rack_text", metavar="RACK", help="Play this rack instead of drawing one.")
@click.option("--lexicon", "lexicon_name", metavar="NAME|PATH", help="Romanian word list (default: loc-5.0).")
@click.option(
    "--top", type=Number(1, TOP.max), default=10, show_default=True, help="How many placements to list."
)
@engine_option
@click.option("--color/--no-color", default=None, help="Colour the best placement (default: on a terminal).")
@json_option("Machine-readable output.")
def demo_cmd(
    seed: int | None,
    rack_text: str | None,
    lexicon_name: str | None,
    top: int,
    engine: str | None,
    color: bool | None,
    as_json: bool,
) -> None:
    """Draw a Romanian rack and show its best placements on a mid-game board, with the official list."""
    lexicon, found = open_lexicon(lexicon_name, "ro")
    board = demo_board()
    if rack_text:
        rack, seed = parse_rack(rack_text, board), None
    else:
        seed = seed if seed is not None else random.SystemRandom().randrange(10**6)
        rack = draw_group(board, seed)
    moves = generate(board, rack, lexicon, top, engine)[:top]
    records = move_records(moves, board, rack)
    best = records[0] if records else None
    after = board.copy()
    highlight = {sq for sq, _t in after.play(moves[0][0])} if moves else set()
    if as_json:
        emit_json(
            {
                "seed": seed,
                "rack": str(rack),
                "board": board.to_cgp(),
                "moves": records,
                "lexicon": found.summary(),
            }
        )
        return
    color = sys.stdout.isatty() if color is None else color
    drawn = "given" if seed is None else f"seed {seed}"
    click.echo(f"Romanian anticipation, mid-game board; rack {rack} ({drawn})")
    click.echo(list_line(found))
    click.echo()
    click.echo(render(after, highlight, color), color=color)
    click.echo()
    if best is None:
        click.echo(f"no legal placement for {rack}")
        return
    marked = "highlighted" if color else "marked *"
    click.echo(f"best: {best['pos']} {best['word']}, {best['score']} points (new tiles {marked})")
    click.echo()
    print_moves(records)


commands = [check_cmd, score_cmd, moves_cmd, demo_cmd]
