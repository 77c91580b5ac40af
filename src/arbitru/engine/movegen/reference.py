"""The reference move generator: slow, plain Python, obviously correct. The oracle for the compiled core.

For every line and every start square whose predecessor is empty (and from which the rack can reach a tile
of the board, or the centre of an empty board), it walks the DAWG square by square, following tiles already on
the board and trying rack tiles (blanks as every letter) on empty squares, keeping a letter on an empty square
only when its cross word is a word. A word is kept when it ends before an empty square or the edge, places at
least one tile and connects (or covers the centre on an empty board). Scores come from
:func:`arbitru.engine.rules.score_words`, the same function that judges players' placements.
"""

from __future__ import annotations

from arbitru.engine.board import Board
from arbitru.engine.layout import SIZE
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.notation import HORIZONTAL, VERTICAL, Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.rules import BINGO_BONUS, BINGO_TILES, score_words
from arbitru.engine.tiles import BLANK, BLANK_BIT, Rack, letter_of


def generate(
    board: Board,
    rack: Rack,
    lexicon: Lexicon,
    *,
    use_all: bool = False,
    bingo_tiles: int = BINGO_TILES,
    bingo_bonus: int = BINGO_BONUS,
) -> list[tuple[Placement, int]]:
    """Every legal placement of ``rack`` on ``board`` with its score, best first, then by placement.

    ``use_all`` keeps only placements that use every tile of the rack (RO-8.2, RO-8.3).
    """
    squares = board.squares
    empty_board = board.is_empty()
    rack_size = len(rack)
    counts = list(rack.counts)
    has_tiles = [board.alphabet.has_tiles(t) for t in range(board.alphabet.size + 1)]
    found: list[tuple[Placement, int]] = []
    cross_cache: dict[tuple[int, bool], int] = {}

    def cross_ok(sq: int, letter: int, horizontal: bool) -> bool:
        # letters allowed on sq by the perpendicular word (all letters when no neighbour)
        key = (sq, horizontal)
        if key not in cross_cache:
            start, tiles = board.word_through(sq, not horizontal, {sq: 1})
            if len(tiles) == 1:
                cross_cache[key] = -1
            else:
                pos = (sq - start) // (SIZE if horizontal else 1)
                cross_cache[key] = lexicon.cross_set(tiles[:pos], tiles[pos + 1 :])
        return bool(cross_cache[key] >> letter & 1)

    def touches(sq: int) -> bool:
        r, c = divmod(sq, SIZE)
        return any(
            0 <= nr < SIZE and 0 <= nc < SIZE and squares[nr * SIZE + nc]
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        )

    # squares where a word links to the board (G-2): a tile, a square next to one, or the centre of an
    # empty board
    links = [bool(squares[sq]) or touches(sq) for sq in range(SIZE * SIZE)]
    if empty_board:
        links[board.layout.centre] = True

    def can_link(line: list[int], start: int) -> bool:
        """Can a word starting here reach a linking square before the rack runs out? (saves hopeless walks)"""
        # every square before the first link is empty and takes a tile
        for empties, sq in enumerate(line[start:], 1):
            if links[sq]:
                return True
            if empties >= rack_size:
                return False
        return False

    def record(start_sq: int, word: list[int], new: list[tuple[int, int]], horizontal: bool) -> None:
        if use_all and len(new) != rack_size:
            return
        if len(new) == 1 and len(word) >= 2:
            # one tile forms up to two words: report it once (docs/ENGINE.md)
            wanted = _single_tile_direction(board, new[0][0])
            if (wanted == HORIZONTAL) != horizontal:
                return
        coord = Coordinate(start_sq // SIZE, start_sq % SIZE, HORIZONTAL if horizontal else VERTICAL)
        placement = Placement(coord, tuple(word))
        words, _ = score_words(board, placement, new)
        bingo = bingo_bonus if len(new) == bingo_tiles else 0
        found.append((placement, sum(w.score for w in words) + bingo))

    def extend(
        line: list[int],
        horizontal: bool,
        start: int,
        i: int,
        node: int,
        word: list[int],
        new: list[tuple[int, int]],
        linked: bool,
    ) -> None:
        """Go on with square ``line[i]`` and the DAWG list ``node``; ``word`` began on ``line[start]``."""
        if i >= SIZE:
            return
        sq = line[i]
        here = squares[sq]
        # (tile, accepts, child) for each tile that may go here and continues a word
        options: list[tuple[int, bool, int]] = []
        if here:
            step_ = lexicon.follow(node, letter_of(here))
            if step_ is not None:
                options.append((here, *step_))
        else:
            for t, accepts, child in lexicon.arcs(node):
                if not cross_ok(sq, t, horizontal):
                    continue
                # a letter without tiles (Romanian K, Q, W, Y) only ever comes from a blank (G-6)
                if counts[t] and has_tiles[t]:
                    options.append((t, accepts, child))
                if counts[BLANK]:
                    options.append((BLANK_BIT | t, accepts, child))
        for tile, accepts, child in options:
            key = BLANK if tile & BLANK_BIT else tile
            if not here:
                counts[key] -= 1
                new.append((sq, tile))
            word.append(tile)
            now_linked = linked or links[sq]
            ends = i + 1 >= SIZE or not squares[line[i + 1]]
            if accepts and ends and new and now_linked and len(word) >= 2:
                record(line[start], list(word), list(new), horizontal)
            if child:
                extend(line, horizontal, start, i + 1, child, word, new, now_linked)
            word.pop()
            if not here:
                new.pop()
                counts[key] += 1

    for horizontal in (True, False):
        for line_no in range(SIZE):
            line = [line_no * SIZE + i if horizontal else i * SIZE + line_no for i in range(SIZE)]
            for start in range(SIZE):
                if (start > 0 and squares[line[start - 1]]) or not can_link(line, start):
                    continue
                extend(line, horizontal, start, start, lexicon.dawg_root, [], [], False)

    found.sort(key=lambda pair: (-pair[1], pair[0]))
    return found


def _single_tile_direction(board: Board, sq: int) -> str:
    """A one-tile placement is reported horizontally when it forms a horizontal word (docs/ENGINE.md)."""
    c = sq % SIZE
    left = c > 0 and board.squares[sq - 1]
    right = c < SIZE - 1 and board.squares[sq + 1]
    return HORIZONTAL if left or right else VERTICAL
