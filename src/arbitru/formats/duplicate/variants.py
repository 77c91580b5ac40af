"""Duplicate variants: sudden death (FISE-19), duplicate with a blank (FISE-20), pairs (GR-1).

- **Sudden death** (FISE-19): a player stays in while his score equals the best among the players still in
  that move; the ranking is by the number of moves played (the move that put him out counts), then by the
  score of his last move. A game is played as usual (``variant="sudden-death"``); :func:`sudden_death` ranks
  it, and the same function breaks a single game's tie as FISE-15's third criterion (a playoff).
- **Duplicate with a blank** (FISE-20, ``variant="joker"``): both blanks are kept out of the bag; one is on
  every rack. When the master move uses it, the real letter is taken from the bag and put on the board in its
  place, and the blank goes back on the rack. When that letter is no longer in the bag, the blank stays on the
  board and the second blank comes onto the rack; after both, play goes on without a blank. The master move's
  score is the score it made with the blank (worth 0); the letter that replaces it scores its value in later
  moves. See :func:`joker_after_master`.
- **Pairs** (GR-1): two players share a board and hand in one slip; a pair is one :class:`Player` with two
  ``members`` (:func:`pair`), ranked like a player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arbitru.engine.notation import Coordinate
from arbitru.engine.tiles import Alphabet, is_blank, letter_of

if TYPE_CHECKING:
    from arbitru.formats.duplicate.game import Player
    from arbitru.formats.duplicate.results import GameResult


def joker_after_master(
    alpha: Alphabet, new: Sequence[tuple[int, int]], bag: Sequence[int], reserve: int
) -> dict[str, Any] | None:
    """What FISE-20 does after a master move placing ``new`` tiles: None when it placed no blank, else the
    square, the letter, whether the real letter replaces the blank (it is still in the bag) and whether a
    blank is on the next racks (the same one, or the second from the ``reserve``)."""
    blanks = [(sq, t) for sq, t in new if is_blank(t)]
    if not blanks:
        return None
    sq, tile = blanks[0]
    letter = letter_of(tile)
    replaced = letter in bag
    return {
        "square": Coordinate(sq // 15, sq % 15, "H").format(),
        "letter": alpha.label(letter),
        "replaced": replaced,
        "blank_on_rack": replaced or reserve > 0,
    }


def pair(number: str, first: str, second: str, table: str = "") -> Player:
    """Two players sharing a board (GR-1)."""
    from arbitru.formats.duplicate.game import Player

    return Player(number, f"{first} + {second}", table, (first, second))


@dataclass
class SuddenDeathLine:
    player: str
    name: str
    moves: int
    last_score: int
    out_at: int | None
    place: int = 0


def sudden_death(result: GameResult, among: Sequence[str] | None = None) -> list[SuddenDeathLine]:
    """Rank players by FISE-19: moves survived, then the score of the last move. ``among`` limits it to some
    players (a playoff between tied players, FISE-15)."""
    lines = [ln for ln in result.lines if among is None or ln.player.number in among]
    alive = {ln.player.number for ln in lines}
    out: dict[str, SuddenDeathLine] = {}
    moves = len(result.masters)
    for i in range(moves):
        scores = {ln.player.number: ln.moves[i].score for ln in lines if ln.player.number in alive}
        if not scores:
            break
        best = max(scores.values())
        for number, score in scores.items():
            if score < best:
                alive.discard(number)
                ln = next(x for x in lines if x.player.number == number)
                out[number] = SuddenDeathLine(number, ln.player.label(), i + 1, score, i + 1)
    for ln in lines:
        if ln.player.number in alive:
            last = ln.moves[moves - 1].score if moves else 0
            out[ln.player.number] = SuddenDeathLine(ln.player.number, ln.player.label(), moves, last, None)
    ranked = sorted(out.values(), key=lambda s: (-s.moves, -s.last_score, s.player))
    for i, s in enumerate(ranked):
        prev = ranked[i - 1] if i else None
        s.place = prev.place if prev and (prev.moves, prev.last_score) == (s.moves, s.last_score) else i + 1
    return ranked
