"""A game prepared in advance (FISE-7b): one move per line, read from a plain file or a GCG record.

Above :mod:`~arbitru.formats.duplicate.gcg` (whose reader it uses) and :mod:`~arbitru.formats.duplicate.game`
(whose settings hold the prepared moves).
"""

from __future__ import annotations

from arbitru.engine.placement import Placement
from arbitru.engine.tiles import Alphabet
from arbitru.errors import ArbitruError
from arbitru.formats.duplicate import gcg
from arbitru.formats.duplicate.game import GameError, PreparedMove
from arbitru.formats.duplicate.racks import labels, parse_tiles


def read_prepared(text: str, alpha: Alphabet, convention: str = "ro") -> tuple[PreparedMove, ...]:
    """A prepared game (FISE-7b): one move per line, ``RACK`` or ``RACK POSITION WORD`` (``#`` comments). A
    GCG file (``>name: RACK POS WORD +score total``) is read too, its positions in GCG's own notation.

    :raises GameError: naming every line that cannot be read.
    """
    if any(line.startswith(">") for line in text.splitlines()):
        moves = gcg.read(text, alpha)
        return tuple(PreparedMove(tuple(labels(alpha, m.rack)), m.placement_text(alpha)) for m in moves)
    out, errors = [], []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        try:
            tiles = parse_tiles(alpha, fields[0])
            if not 1 <= len(tiles) <= 7:
                raise GameError(f"a rack has 1 to 7 tiles, not {len(tiles)}")
            move = None
            if len(fields) > 1:
                placement = Placement.parse(" ".join(fields[1:]), alpha, convention)
                move = placement.format(alpha, "ro")
            out.append(PreparedMove(tuple(labels(alpha, tiles)), move))
        except (ArbitruError, IndexError) as e:
            errors.append(f"line {lineno}: {e}")
    if errors:
        raise GameError("; ".join(errors))
    if not out:
        raise GameError("the prepared game has no move")
    return tuple(out)
