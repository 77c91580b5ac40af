"""Move generation: every legal placement of a rack on a board, or the best ones.

Two engines share one contract (docs/ENGINE.md): ``compiled`` (the C core, :mod:`arbitru._core`) and
``reference`` (plain Python, :mod:`arbitru.engine.movegen.reference`), the oracle the core is tested against.
"""

from __future__ import annotations

from arbitru.engine.board import Board
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import Rack

ENGINES = ("compiled", "reference")


def generate(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    *,
    top: int = 0,
    use_all: bool = False,
    engine: str = "compiled",
) -> list[tuple[Placement, int]]:
    """Placements with scores, best first; ``top=k`` keeps those scoring at least the k-th best (ties too)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    from arbitru.engine.movegen import reference

    moves = reference.generate(board, rack, lexicon, use_all=use_all)
    if top and len(moves) > top:
        cut = moves[top - 1][1]
        moves = [m for m in moves if m[1] >= cut]
    return moves
