"""Duplicate variants: duplicate with a blank (FISE-20); sudden death (FISE-19) and pairs (GR-1) are told here,
and live where they act.

- **Duplicate with a blank** (FISE-20, ``variant="joker"``): both blanks are kept out of the bag; one is on
  every rack. When the master move uses it, the real letter is taken from the bag and put on the board in its
  place, and the blank goes back on the rack. When that letter is no longer in the bag, the blank stays on the
  board and the second blank comes onto the rack; after both, play goes on without a blank. The master move's
  score is the score it made with the blank (worth 0); the letter that replaces it scores its value in later
  moves. See :func:`joker_after_master`.
- **Sudden death** (FISE-19): a player stays in while his score equals the best among the players still in
  that move; the ranking is by the number of moves played (the move that put him out counts), then by the
  score of his last move. A game is played as usual (``variant="sudden-death"``);
  :func:`~arbitru.formats.duplicate.results.sudden_death` ranks it, and the same function breaks a single
  game's tie as FISE-15's third criterion (a playoff).
- **Pairs** (GR-1): two players share a board and hand in one slip; a pair is one
  :class:`~arbitru.formats.duplicate.game.Player` with two ``members``
  (:func:`~arbitru.formats.duplicate.game.pair`), ranked like a player.

This module stands below :mod:`~arbitru.formats.duplicate.game`, which applies FISE-20 after each master move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arbitru.engine.notation import Coordinate
from arbitru.engine.tiles import Alphabet, is_blank, letter_of


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
