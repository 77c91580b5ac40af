"""GCG, the game record of Quackle, Macondo and Woogles, for a duplicate game's master moves.

Written as the Poslfit GCG format reads: ``#character-encoding UTF-8`` first, then pragmata (``#player1 nick
Full name``, ``#title``, ``#description``, ``#lexicon``), then one line per master move::

    >master: AEIRSTU 8D AUTRES +72 72

- the rack before the move (alphabet order, ``?`` a blank);
- the position in GCG's own convention — rows are *numbers*, columns *letters*: a horizontal move is written
  row first (``8D``), a vertical one column first (``D8``). arbitru's boards name rows with letters (G-1), so
  arbitru's ``H4`` (row H, column 4, horizontal) is GCG's ``8D``;
- the word with the squares played through written ``.``, blanks in lower case;
- ``+score`` and the running total.

Tiles of more than one letter (Spanish CH, LL, RR) are written in brackets, ``[CH]`` (``[ch]`` a blank), as in
arbitru's board files and CGP. Tied moves, referee choices, rack redraws (FISE-10) and the FISE-20 blank are
``#note`` lines after their move.

:func:`read` takes such a file back (a prepared game, FISE-7b), replaying it on a board to check that each
move fits and that each rack holds the tiles played; every faulty line is named.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from arbitru.engine.board import Board
from arbitru.engine.notation import Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.rules import check
from arbitru.engine.tiles import BLANK, Alphabet, Rack
from arbitru.errors import ArbitruError, NotationError, TileError
from arbitru.formats.duplicate.game import Game
from arbitru.textinput import one_line


class GcgError(ArbitruError):
    """A GCG file that cannot be read; the message names the line."""


@dataclass(frozen=True)
class GcgMove:
    line: int
    nick: str
    rack: tuple[int, ...]
    placement: Placement
    score: int
    total: int

    def placement_text(self, alpha: Alphabet) -> str:
        """The move in arbitru's own notation (``H4 WORD``)."""
        return self.placement.format(alpha, "ro")


def tile_text(alpha: Alphabet, tile: int) -> str:
    label = alpha.label(tile)
    return label if len(label) == 1 else f"[{label}]"


def rack_text(alpha: Alphabet, rack: Sequence[int]) -> str:
    ordered = sorted(rack, key=lambda t: (t == BLANK, t))
    return "".join(tile_text(alpha, t) for t in ordered) or "-"


def play_text(alpha: Alphabet, board: Board, placement: Placement) -> str:
    """The word with played-through squares as ``.`` (``board`` is the board before the move)."""
    out = []
    for sq, tile in zip(placement.squares(), placement.word, strict=True):
        out.append("." if board.squares[sq] else tile_text(alpha, tile))
    return "".join(out)


def write(game: Game, *, nick: str = "master", name: str = "Master moves") -> str:
    """The GCG record of a game's master moves."""
    alpha = game.alphabet
    s = game.settings
    lines = [
        "#character-encoding UTF-8",
        f"#player1 {nick} {name}",
        f"#title {s.title or 'Duplicate ' + game.id}",
        f"#description {s.rules.title}; {alpha.name} tiles; variant {s.variant}; arbitru game {game.id}",
        f"#lexicon {s.lexicon}",
    ]
    total = 0
    for state in game.moves:
        m = state.master
        if m is None:
            continue
        total += m.score
        position = m.placement.coord.format("en")
        word = play_text(alpha, state.board, m.placement)
        lines.append(f">{nick}: {rack_text(alpha, state.rack)} {position} {word} +{m.score} {total}")
        rejected = [d for d in state.draws if not d.legal]
        if rejected:
            lines.append(
                f"#note move {state.number}: rack drawn again whole {len(rejected)} time(s) (FISE-10)"
            )
        if len(m.ties) > 1:
            tied = ", ".join(f"{t['position']} {''.join(t['word'])} {t['score']}" for t in m.ties)
            lines.append(f"#note move {state.number}: {len(m.ties)} tied top moves: {tied}")
        if m.by != "program":
            lines.append(f"#note move {state.number}: master chosen by the {m.by}")
        for remark in m.remarks:
            lines.append(f"#note move {state.number}: {remark}")
        if m.joker:
            j = m.joker
            what = "replaced by the real letter" if j["replaced"] else "stays on the board"
            lines.append(
                f"#note move {state.number}: blank for {j['letter']} at {j['square']} {what} (FISE-20)"
            )
    if game.end is not None:
        lines.append(f"#note end after move {game.end.after_move}: {game.end.reason}")
    # each record on its own line whatever a stored text holds (a title or reason from an older journal)
    return "\n".join(one_line(line) for line in lines) + "\n"


_MOVE = re.compile(
    # scores in ASCII digits, at most 9 of them (a regex digit class would also take "²" or "٣")
    r">(?P<nick>\S+):\s+(?P<rack>\S+)\s+(?P<pos>\w+)\s+(?P<play>\S+)\s+"
    r"\+(?P<score>[0-9]{1,9})\s+(?P<total>-?[0-9]{1,9})\s*$"
)


def _tiles(alpha: Alphabet, text: str, *, blanks: bool) -> list[int | None]:
    """GCG tiles: letters, ``[CH]`` groups, ``?`` (a blank on a rack), ``.`` (played through: None)."""
    out: list[int | None] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "[":
            j = text.find("]", i)
            if j < 0:
                raise TileError(f"unclosed bracket in {text!r}")
            out.append(alpha.split(text[i + 1 : j], blanks=blanks)[0])
            i = j + 1
        elif ch == ".":
            out.append(None)
            i += 1
        elif ch == "?" and not blanks:
            out.append(BLANK)
            i += 1
        else:
            # one character is one tile in GCG (multi-letter tiles are bracketed)
            out.extend(alpha.split(ch, blanks=blanks))
            i += 1
    return out


def read(text: str, alpha: Alphabet) -> list[GcgMove]:
    """The moves of a GCG file, replayed on a board.

    :raises GcgError: naming each line that cannot be read or does not fit the board.
    """
    if "\x00" in text:
        raise GcgError("not a text file")
    board = Board(alpha)
    moves: list[GcgMove] = []
    errors: list[str] = []
    total = 0
    for lineno, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _MOVE.match(line)
        if not m:
            if line.startswith(">"):
                errors.append(
                    f"line {lineno}: not a placement (exchanges, passes and challenges have no place in "
                    "a duplicate record)"
                )
            else:
                errors.append(f"line {lineno}: not a GCG line")
            continue
        try:
            rack_tiles = [t for t in _tiles(alpha, m["rack"], blanks=False) if t is not None]
            coord = Coordinate.parse(m["pos"], "en")
            play = _tiles(alpha, m["play"], blanks=True)
            squares = coord.squares(len(play))
            if squares[-1] >= 225 or (coord.horizontal and coord.col + len(play) > 15):
                raise GcgError("the word runs off the board")
            word = []
            for sq, t in zip(squares, play, strict=True):
                if t is None:
                    if not board.squares[sq]:
                        raise GcgError(
                            f"'.' on an empty square ({Coordinate(sq // 15, sq % 15, 'H').format()})"
                        )
                    word.append(board.squares[sq])
                else:
                    word.append(t)
            placement = Placement(coord, tuple(word))
            result = check(board, placement, None, Rack(alpha, rack_tiles))
            if result.reasons:
                raise GcgError("; ".join(text for _, text in result.reasons))
            score = result.score
            declared = int(m["score"])
            if declared != score:
                raise GcgError(f"the move scores {score}, the file says {declared}")
            total += declared
            if int(m["total"]) != total:
                raise GcgError(f"running total {m['total']}, the moves add up to {total}")
            board.play(placement)
            moves.append(GcgMove(lineno, m["nick"], tuple(rack_tiles), placement, declared, total))
        except (GcgError, NotationError, TileError, IndexError) as e:
            errors.append(f"line {lineno}: {e}")
            break  # later moves depend on this one
    if errors:
        raise GcgError("; ".join(errors))
    if not moves:
        raise GcgError("the file holds no move")
    return moves
