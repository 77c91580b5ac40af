"""A simulated game: many players whose slips carry a realistic mix of errors, each with what it meant.

Used by the tests (every verdict is checked against the generator's intent) and by the correction benchmark.
Each player plays on his own true board: he finds a legal placement with the turn's group (a quick randomised
search, not the best one), then may write it wrongly: a misspelt word, one coordinate sign off by one, the
signs
inverted, both signs wrong, a sign missing, a blank not marked, a wrong or missing score, a missing table or
turn
number, letters from another group, nonsense positions; he may cancel an earlier turn. The generator keeps its
own
account of each board with the engine's rules (:func:`arbitru.engine.rules.check`), independently of the
correction, and records the expected verdict of every placement, the expected warning of every slip and the
expected total of every player.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from arbitru.engine.board import Board
from arbitru.engine.layout import SIZE
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.notation import HORIZONTAL, VERTICAL, Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.rules import check
from arbitru.engine.tiles import BLANK, BLANK_BIT, Alphabet, Rack, alphabet, letter_of
from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.draw import Draw, GroupRules, draw_groups
from arbitru.formats.anticipation.slips import Slip, SlipRow
from arbitru.formats.anticipation.turns import TurnOrder
from arbitru.formats.anticipation.variants import TURNS
from arbitru.textinput import ascii_number, parse_signed

#: error kinds and their weights per placement (the rest is written correctly)
ERRORS = {
    "bad-word": 4,
    "one-sign": 5,
    "inverted": 4,
    "both-signs": 2,
    "missing-sign": 2,
    "unmarked-blank": 6,  # only when the placement has a blank
    "wrong-score": 6,
    "missing-score": 3,
    "foreign-letters": 2,
    "nonsense-position": 1,
    "empty-word": 1,
    "no-table": 2,
    "no-turn": 2,
}
NONSENSE = {"?": "RO-6.1d", "HH": "RO-6.1d", "88": "RO-6.1d", "Z99": "RO-6.1c", "H": "RO-6.1d"}


@dataclass
class Expected:
    """What the generator meant for one placement."""

    player: str
    turn: int
    index: int
    kind: str  # the error written ("ok" when none)
    status: str  # valid | corrected | invalid | cancelled
    rule: str  # the verdict's rule ("" for valid)
    score: int = 0  # when played
    points: int = 0  # final
    penalty: int = 0  # final, after the cap
    squares: tuple[int, ...] = ()
    depends: set[tuple[int, int]] = field(default_factory=set)


@dataclass
class ExpectedSlip:
    warning: str | None  # rule of the expected technical warning
    unattributed: bool = False


@dataclass
class Simulation:
    draw: Draw
    lots: list[int]
    seating: list[tuple[str, int, str]]
    slips: dict[int, list[Slip]]  # by turn collected (unattributed slips under 0)
    placements: dict[tuple[str, int, int], Expected]
    slip_warnings: dict[tuple[str, int], ExpectedSlip]
    totals: dict[str, int]
    stats: Counter[str]


@dataclass
class _Play:
    coord: Coordinate
    tiles: tuple[int, ...]
    new: list[tuple[int, int]]
    score: int


class Planner:
    """Finds some legal placements of a group on a board, quickly (randomised, budgeted; not the best)."""

    def __init__(
        self,
        alpha: Alphabet,
        lexicon: Lexicon,
        rng: random.Random,
        words: list[tuple[int, ...]] | None = None,
    ) -> None:
        self.alpha = alpha
        self.lexicon = lexicon
        self.rng = rng
        self.words = words if words is not None else [w for w in lexicon.words() if len(w) <= 8]
        self.counts = [Counter(w) for w in self.words]
        self.cache: dict[tuple[bytes, tuple[int, ...]], list[_Play]] = {}

    def plays(self, board: Board, group: list[int], want: int = 3, budget: int = 400) -> list[_Play]:
        key = (bytes(board.squares), tuple(group))
        if key in self.cache:
            return self.cache[key]
        natural = [0] * (self.alpha.size + 1)
        for t in group:
            if t != BLANK:
                natural[t] += 1
        blanks = sum(1 for t in group if t == BLANK)
        rack = Rack(self.alpha, group)
        squares = board.squares
        empty = board.is_empty()
        where: dict[int, list[int]] = {}
        anchors: list[int] = []
        for sq in range(SIZE * SIZE):
            if squares[sq]:
                where.setdefault(letter_of(squares[sq]), []).append(sq)
            elif not empty and _touches(squares, sq):
                anchors.append(sq)
        if empty:
            anchors = [board.layout.centre]
        cross: dict[tuple[int, bool], int] = {}
        n_words = len(self.words)
        start = self.rng.randrange(n_words)
        stride = self.rng.choice((1, 7, 13, 31, 61, 97))
        found: dict[tuple[Coordinate, tuple[int, ...]], _Play] = {}
        tries = 0
        for k in range(n_words):
            if len(found) >= want or tries >= budget:
                break
            wi = (start + k * stride) % n_words
            word, counts = self.words[wi], self.counts[wi]
            short = [t for t, n in counts.items() if n > natural[t]]
            shortage = sum(counts[t] - natural[t] for t in short)
            if shortage > blanks and not all(t in where for t in short):
                continue
            coords: list[Coordinate] = []
            if shortage > blanks:
                for t in short:
                    for i, letter in enumerate(word):
                        if letter == t:
                            for sq in self.rng.sample(where[t], min(2, len(where[t]))):
                                coords.extend(_coords_through(sq, i))
            else:
                for sq in self.rng.sample(anchors, min(3, len(anchors))):
                    i = self.rng.randrange(len(word))
                    coords.extend(_coords_through(sq, i))
            for coord in coords:
                tries += 1
                play = self._try(board, coord, word, natural, blanks, rack, cross)
                if play is not None:
                    found[(play.coord, play.tiles)] = play
        plays = sorted(found.values(), key=lambda p: (-p.score, p.coord, p.tiles))
        self.cache[key] = plays
        return plays

    def _try(
        self,
        board: Board,
        coord: Coordinate,
        word: tuple[int, ...],
        natural: list[int],
        blanks: int,
        rack: Rack,
        cross: dict[tuple[int, bool], int],
    ) -> _Play | None:
        n = len(word)
        horizontal = coord.horizontal
        if coord.row < 0 or coord.col < 0 or (coord.col if horizontal else coord.row) + n > SIZE:
            return None
        squares = board.squares
        step = coord.step()
        first, last = coord.square, coord.square + (n - 1) * step
        # the word must be whole: nothing just before or after it
        if (coord.col if horizontal else coord.row) > 0 and squares[first - step]:
            return None
        if (coord.col if horizontal else coord.row) + n < SIZE and squares[last + step]:
            return None
        left = list(natural)
        spare = blanks
        tiles = []
        placed = False
        for i, t in enumerate(word):
            sq = first + i * step
            here = squares[sq]
            if here:
                if letter_of(here) != t:
                    return None
                tiles.append(t)
                continue
            placed = True
            mask = cross.get((sq, horizontal))
            if mask is None:
                start, run = board.word_through(sq, not horizontal, {sq: 1})
                if len(run) == 1:
                    mask = -1
                else:
                    pos = (sq - start) // (SIZE if horizontal else 1)
                    mask = self.lexicon.cross_set(run[:pos], run[pos + 1 :])
                cross[(sq, horizontal)] = mask
            if not mask >> t & 1:
                return None
            if left[t] > 0 and self.alpha.has_tiles(t):
                left[t] -= 1
                tiles.append(t)
            elif spare:
                spare -= 1
                tiles.append(BLANK_BIT | t)
            else:
                return None
        if not placed:
            return None
        chk = check(board, Placement(coord, tuple(tiles)), self.lexicon, rack)
        if chk.reasons:
            return None
        return _Play(coord, tuple(tiles), chk.new, chk.score)


def _touches(squares: bytearray, sq: int) -> bool:
    r, c = divmod(sq, SIZE)
    return any(
        0 <= nr < SIZE and 0 <= nc < SIZE and squares[nr * SIZE + nc]
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    )


def _coords_through(sq: int, i: int) -> list[Coordinate]:
    r, c = divmod(sq, SIZE)
    return [Coordinate(r, c - i, HORIZONTAL), Coordinate(r - i, c, VERTICAL)]


# --- the generator's own view of the rules ------------------------------------------------------------------


def _legal(
    board: Board, coord: Coordinate, tiles: tuple[int, ...], group: list[int], lexicon: Lexicon
) -> bool:
    """Is the word, written with these blank marks, a legal placement at coord with the group's tiles?"""
    if (coord.col if coord.horizontal else coord.row) + len(tiles) > SIZE:
        return False
    squares = board.squares
    new = touching = False
    for i, t in enumerate(tiles):
        sq = coord.square + i * coord.step()
        if squares[sq]:
            if letter_of(squares[sq]) != letter_of(t):
                return False
            touching = True
        else:
            new = True
            touching = touching or _touches(squares, sq) or (sq == board.layout.centre and board.is_empty())
    if not (new and touching):
        return False
    # the tiles: marked blanks need blanks; a letter the group lacks may be an unmarked blank (RO-6.2c)
    naturals = Counter(t for t in group if t != BLANK)
    blanks = sum(1 for t in group if t == BLANK)
    placed = list(tiles)
    for i, t in enumerate(tiles):
        sq = coord.square + i * coord.step()
        if squares[sq]:
            continue
        if t & BLANK_BIT:
            blanks -= 1
        elif naturals[t] > 0 and board.alphabet.has_tiles(t):
            naturals[t] -= 1
        else:
            blanks -= 1
            placed[i] = BLANK_BIT | t
    if blanks < 0:
        return False
    chk = check(board, Placement(coord, tuple(placed)), lexicon)
    return not chk.reasons


def _neighbours(coord: Coordinate) -> tuple[list[Coordinate], list[Coordinate]]:
    """(one error away: inverted or one sign changed, the rest of the board's coordinates)."""
    one = [coord.transposed()]
    one += [Coordinate(coord.row, c, coord.direction) for c in range(SIZE) if c != coord.col]
    one += [Coordinate(r, coord.col, coord.direction) for r in range(SIZE) if r != coord.row]
    rest = [Coordinate(r, c, d) for d in (HORIZONTAL, VERTICAL) for r in range(SIZE) for c in range(SIZE)]
    skip = set(one) | {coord}
    return one, [x for x in rest if x not in skip]


class _PlayerSim:
    def __init__(self, name: str, table: int) -> None:
        self.name = name
        self.table = table
        self.board: Board | None = None
        self.alive: list[Expected] = []
        self.plays: dict[tuple[int, int], _Play] = {}
        self.warnings: list[tuple[int, str]] = []


def simulate(
    lexicon: Lexicon,
    players: int = 200,
    seed: int = 1,
    *,
    error_rate: float = 0.35,
    cancel_rate: float = 0.03,
    unattributed_rate: float = 0.003,
    draw: Draw | None = None,
    family: int = 10,
    planner_words: list[tuple[int, ...]] | None = None,
) -> Simulation:
    """Generate a whole game's slips and the verdicts they should get.

    ``planner_words``: the words players look for (default: the whole list; a sample of a large official list
    keeps the search quick, every word being judged against the whole list all the same).
    """
    alpha = alphabet("ro")
    rng = random.Random(seed)
    if draw is None:
        draw = draw_groups(GroupRules(alpha, lexicon), seed=seed)
    order = TurnOrder()
    lots = [order.draw(t, seed).group for t in range(1, TURNS + 1)]
    planner = Planner(alpha, lexicon, random.Random(seed + 1), planner_words)
    seating = [(f"P{i:03d}", i, f"Player {i}") for i in range(1, players + 1)]
    sims = [_PlayerSim(name, table) for name, table, _ in seating]
    for s in sims:
        s.board = Board(alpha)
    slips: dict[int, list[Slip]] = {}
    placements: dict[tuple[str, int, int], Expected] = {}
    slip_warnings: dict[tuple[str, int], ExpectedSlip] = {}
    stats: Counter[str] = Counter()
    kinds = list(ERRORS)
    weights = [ERRORS[k] for k in kinds]

    for turn in range(1, TURNS + 1):
        group_numbers = [1, lots[0]] if turn == 1 else [lots[turn - 1]]
        for s in sims:
            assert s.board is not None
            rows: list[SlipRow] = []
            notes: list[str] = []
            faults: list[str] = []
            # a slip entered with a turn that does not exist is not corrected: nothing on it takes effect
            lost = turn > 1 and rng.random() < unattributed_rate
            # a cancellation of an earlier turn, written on this slip (RO-5.3)
            if turn > 2 and rng.random() < cancel_rate and not lost:
                targets = sorted({e.turn for e in s.alive})
                if targets:
                    target = rng.choice(targets)
                    notes.append(f"Anulez turul {target}")
                    _cancel(s, target, lexicon)
                    stats["cancel"] += 1
            table = str(s.table)
            written_turn = str(turn)
            two = turn == 1 and rng.random() < 0.7
            plan = group_numbers if two else ([group_numbers[-1]] if turn == 1 else group_numbers)
            total_declared = 0
            total_expected = 0
            any_on_board = False
            for g in plan:
                index = len(rows) + 1  # the placement's place on the slip
                group = draw.groups[g - 1]
                plays = planner.plays(s.board, group)
                if not plays:
                    stats["no-play"] += 1
                    continue
                # players of a family whose boards are alike choose alike (so the search is shared)
                pick = random.Random(zlib.crc32(bytes(s.board.squares)) ^ (s.table // family) ^ (turn << 20))
                play = plays[0] if pick.random() < 0.5 else pick.choice(plays)
                kind = "ok"
                if rng.random() < error_rate:
                    kind = rng.choices(kinds, weights)[0]
                row, exp, fault = _write(s, turn, index, g, group, play, kind, lexicon, alpha, draw, rng)
                stats[exp.kind] += 1
                rows.append(row)
                placements[(s.name, turn, index)] = exp
                if fault:
                    faults.append(fault)
                if exp.status in ("valid", "corrected"):
                    any_on_board = True
                    _place(s, exp, play)
                    total_expected += play.score
                else:
                    total_expected += ascii_number(row.score) or 0
                total_declared += _signed(row.score)
            # slip-level faults, one kind at most
            if rows and rng.random() < 0.04:
                if rng.random() < 0.5:
                    table = ""
                    faults.append("RO-6.2a" if turn == 1 else "RO-6.2b")
                    stats["no-table"] += 1
                else:
                    written_turn = ""
                    faults.append("RO-6.2b")
                    stats["no-turn"] += 1
            turn_total = ""
            if len(rows) > 1:
                turn_total = str(total_declared)
                if any_on_board and total_declared != total_expected:
                    faults.append("RO-6.2d")
            rows = [
                SlipRow(
                    r.line,
                    table,
                    written_turn,
                    r.position,
                    r.word,
                    r.score,
                    turn_total,
                    "; ".join(notes) if i == 0 else "",
                )
                for i, r in enumerate(rows)
            ]
            if not rows and notes:
                rows = [SlipRow(0, table, written_turn, "", "", "", "", "; ".join(notes))]
            if not rows:
                continue
            if lost:
                # a turn that does not exist, entered without the turn it was collected in
                rows = [
                    SlipRow(r.line, r.table, "17", r.position, r.word, r.score, r.turn_total, r.note)
                    for r in rows
                ]
                slips.setdefault(0, []).append(Slip(s.name, None, rows, "simulation", "17"))
                slip_warnings[(s.name, -turn)] = ExpectedSlip(None, unattributed=True)
                stats["unattributed"] += 1
                _unplay(s, turn, placements, lexicon)
                continue
            slips.setdefault(turn, []).append(Slip(s.name, turn, rows, "simulation", written_turn))
            order_rank = {"RO-6.2a": 0, "RO-6.2b": 1, "RO-6.2c": 2, "RO-6.2d": 3}
            warning = min(faults, key=lambda f: order_rank[f]) if faults else None
            slip_warnings[(s.name, turn)] = ExpectedSlip(warning)
            if warning:
                s.warnings.append((turn, warning))

    totals = {}
    for s in sims:
        _finish_penalties(s)
        points = sum(e.points for e in s.alive)
        penalties = sum(e.penalty for e in placements.values() if e.player == s.name)
        costs = sum(5 for n, _ in enumerate(s.warnings, 1) if n > 3)
        totals[s.name] = points - penalties - costs
    return Simulation(draw, lots, seating, slips, placements, slip_warnings, totals, stats)


def _write(
    s: _PlayerSim,
    turn: int,
    index: int,
    g: int,
    group: list[int],
    play: _Play,
    kind: str,
    lexicon: Lexicon,
    alpha: Alphabet,
    draw: Draw,
    rng: random.Random,
) -> tuple[SlipRow, Expected, str | None]:
    """Write a placement on the slip with the chosen error; returns the row, the expectation, a 6.2 fault."""
    assert s.board is not None
    board = s.board
    coord = play.coord
    word = alpha.format(play.tiles)
    position = coord.format()
    score = str(play.score)
    fault: str | None = None
    ok = Expected(
        s.name,
        turn,
        index,
        "ok",
        "valid",
        "G-3",
        play.score,
        play.score,
        squares=tuple(sq for sq, _ in play.new),
    )
    spare_blank = sum(1 for t in group if t == BLANK) > sum(1 for _, t in play.new if t & BLANK_BIT)

    def expect(status: str, rule: str) -> Expected:
        e = Expected(
            s.name,
            turn,
            index,
            kind,
            status,
            rule,
            play.score if status != "invalid" else 0,
            play.score if status != "invalid" else 0,
            squares=ok.squares,
        )
        return e

    if kind == "bad-word":
        for _ in range(20):
            i = rng.randrange(len(play.tiles))
            letter = rng.choice([t for t in range(1, alpha.size + 1) if alpha.has_tiles(t)])
            tiles = list(play.tiles)
            tiles[i] = letter
            if not lexicon.contains_tiles(tiles):
                return (
                    SlipRow(0, "", "", position, alpha.format(tiles), score, "", ""),
                    expect("invalid", "RO-6.1a"),
                    None,
                )
        kind = "ok"
    elif kind in ("one-sign", "inverted", "both-signs") and not spare_blank:
        one, rest = _neighbours(coord)
        if kind == "inverted":
            wrong_options = [coord.transposed()]
        elif kind == "one-sign":
            wrong_options = [c for c in one[1:] if abs(c.row - coord.row) + abs(c.col - coord.col) == 1]
        else:
            wrong_options = [
                c
                for c in rest
                if c.row != coord.row
                and c.col != coord.col
                and c.direction == coord.direction
                and abs(c.row - coord.row) <= 2
                and abs(c.col - coord.col) <= 2
            ]
        rng.shuffle(wrong_options)
        for wrong in wrong_options:
            if _legal(board, wrong, play.tiles, group, lexicon):
                continue
            w_one, w_rest = _neighbours(wrong)
            fits_one = [c for c in w_one if _legal(board, c, play.tiles, group, lexicon)]
            if kind == "both-signs":
                fits_rest = [c for c in w_rest if c != wrong and _legal(board, c, play.tiles, group, lexicon)]
                if fits_one or fits_rest != [coord]:
                    continue
                return (
                    SlipRow(0, "", "", wrong.format(), word, score, "", ""),
                    expect("invalid", "RO-6.1c"),
                    None,
                )
            if fits_one == [coord]:
                rule = "RO-6.3a" if kind == "inverted" else "RO-6.3b"
                return (
                    SlipRow(0, "", "", wrong.format(), word, score, "", ""),
                    expect("corrected", rule),
                    None,
                )
        kind = "ok"
    elif kind == "missing-sign":
        only = (
            "".join(ch for ch in position if ch.isalpha())
            if rng.random() < 0.5
            else "".join(ch for ch in position if ch in "0123456789")
        )
        return SlipRow(0, "", "", only, word, score, "", ""), expect("invalid", "RO-6.1d"), None
    elif kind == "nonsense-position":
        text = rng.choice(sorted(NONSENSE))
        return SlipRow(0, "", "", text, word, score, "", ""), expect("invalid", NONSENSE[text]), None
    elif kind == "empty-word":
        return SlipRow(0, "", "", position, "", score, "", ""), expect("invalid", "RO-6.1a"), None
    elif kind == "unmarked-blank":
        blanks = [i for i, t in enumerate(play.tiles) if t & BLANK_BIT]
        new_squares = {sq for sq, _ in play.new}
        squares = coord.squares(len(play.tiles))
        new_blanks = [i for i in blanks if squares[i] in new_squares]
        if len(new_blanks) == 1:
            i = new_blanks[0]
            letter = letter_of(play.tiles[i])
            same = [
                j for j, sq in enumerate(squares) if sq in new_squares and letter_of(play.tiles[j]) == letter
            ]
            naturals_left = sum(1 for t in group if t == letter) - (len(same) - 1)
            if len(same) == 1 and naturals_left <= 0:
                written = (
                    alpha.format(play.tiles[:i]) + alpha.label(letter) + alpha.format(play.tiles[i + 1 :])
                )
                e = expect("valid", "G-3")
                return SlipRow(0, "", "", position, written, score, "", ""), e, "RO-6.2c"
        kind = "ok"
    elif kind == "wrong-score":
        delta = rng.choice([-3, -2, -1, 1, 2, 5, 10])
        return (
            SlipRow(0, "", "", position, word, str(play.score + delta), "", ""),
            expect("valid", "G-3"),
            "RO-6.2d",
        )
    elif kind == "missing-score":
        return SlipRow(0, "", "", position, word, "", "", ""), expect("valid", "G-3"), "RO-6.2d"
    elif kind == "foreign-letters" and not any(t == BLANK for t in group):
        # the same word written with a letter the group does not have
        other = [t for t in range(1, alpha.size + 1) if alpha.has_tiles(t) and t not in group]
        new_index = [
            i for i, sq in enumerate(coord.squares(len(play.tiles))) if sq in {q for q, _ in play.new}
        ]
        for _ in range(20):
            i = rng.choice(new_index)
            tiles = list(play.tiles)
            tiles[i] = rng.choice(other)
            if not lexicon.contains_tiles(tiles):
                continue
            if any(_legal(board, c, tuple(tiles), group, lexicon) for c in _all(board, tiles)):
                continue
            expected = "RO-6.1b"
            chk = check(board, Placement(coord, tuple(tiles)), lexicon)
            if any(code == "not-in-list" for code, _ in chk.reasons):
                continue
            return (
                SlipRow(0, "", "", position, alpha.format(tiles), score, "", ""),
                expect("invalid", expected),
                None,
            )
        kind = "ok"
    if kind in (
        "no-table",
        "no-turn",
        "one-sign",
        "inverted",
        "both-signs",
        "foreign-letters",
        "unmarked-blank",
    ):
        kind = "ok"  # slip-level faults are drawn per slip; the others could not be written unambiguously
    ok.kind = kind
    return SlipRow(0, "", "", position, word, score, "", ""), ok, fault


def _all(board: Board, tiles: list[int]) -> list[Coordinate]:
    n = len(tiles)
    out = []
    for d in (HORIZONTAL, VERTICAL):
        for r in range(SIZE):
            for c in range(SIZE):
                if (c if d == HORIZONTAL else r) + n <= SIZE:
                    out.append(Coordinate(r, c, d))
    return out


def _place(s: _PlayerSim, exp: Expected, play: _Play) -> None:
    assert s.board is not None
    for sq, tile in play.new:
        s.board.squares[sq] = tile
    s.plays[(exp.turn, exp.index)] = play
    exp.depends = _depends(s, play)
    s.alive.append(exp)


def _depends(s: _PlayerSim, play: _Play) -> set[tuple[int, int]]:
    """Earlier placements with a tile in a word this one forms."""
    assert s.board is not None
    chk = check(_without(s.board, play), Placement(play.coord, play.tiles), None)
    squares: set[int] = set()
    for w in chk.words:
        step = 1 if w.horizontal else SIZE
        squares.update(w.start + i * step for i in range(len(w.tiles)))
    owner = {sq: (e.turn, e.index) for e in s.alive for sq in e.squares}
    return {owner[sq] for sq in squares if sq in owner}


def _without(board: Board, play: _Play) -> Board:
    b = board.copy()
    for sq, _ in play.new:
        b.squares[sq] = 0
    return b


def _cancel(s: _PlayerSim, target: int, lexicon: Lexicon) -> None:
    """The player cancels a turn: remove it, then lay the later placements again (RO-5.3)."""
    assert s.board is not None
    alpha = s.board.alphabet
    for e in s.alive:
        if e.turn == target:
            e.status, e.rule, e.points = "cancelled", "RO-5.3", 0
    keep = [e for e in s.alive if e.turn != target]
    board = Board(alpha)
    s.alive = []
    s.board = board
    for e in keep:
        play = s.plays[(e.turn, e.index)]
        if e.turn < target:
            for sq, tile in play.new:
                board.squares[sq] = tile
            e.depends = _depends_on_board(s, play, board)
            s.alive.append(e)
            continue
        trial = board.copy()
        for sq, tile in play.new:
            trial.squares[sq] = tile
        start, run = trial.word_through(play.coord.square, play.coord.horizontal)
        same = start == play.coord.square and [letter_of(t) for t in run] == [
            letter_of(t) for t in play.tiles
        ]
        chk = check(board, Placement(play.coord, play.tiles), lexicon) if same else None
        if chk is None or chk.reasons:
            e.status, e.rule, e.points = "cancelled", "RO-5.3", 0
            continue
        e.points = chk.score
        for sq, tile in play.new:
            board.squares[sq] = tile
        e.depends = _depends_on_board(s, play, board)
        s.alive.append(e)


def _depends_on_board(s: _PlayerSim, play: _Play, board: Board) -> set[tuple[int, int]]:
    saved = s.board
    s.board = board
    try:
        return _depends(s, play)
    finally:
        s.board = saved


def _unplay(
    s: _PlayerSim, turn: int, placements: dict[tuple[str, int, int], Expected], lexicon: Lexicon
) -> None:
    """A slip that will not be corrected (unattributed): its placements never reach the board."""
    gone = [e for e in s.alive if e.turn == turn]
    if not gone:
        for key in [k for k in placements if k[0] == s.name and k[1] == turn]:
            del placements[key]
        return
    _cancel(s, turn, lexicon)
    for key in [k for k in placements if k[0] == s.name and k[1] == turn]:
        del placements[key]


def _finish_penalties(s: _PlayerSim) -> None:
    alive = {(e.turn, e.index): e for e in s.alive}
    every = list(alive.values())
    for e in every:
        if e.status != "corrected":
            continue
        found: set[tuple[int, int]] = set()
        frontier = {(e.turn, e.index)}
        while frontier:
            nxt = {
                (d.turn, d.index)
                for d in every
                if d.depends & frontier
                and (d.turn, d.index) not in found
                and (d.turn, d.index) != (e.turn, e.index)
            }
            found |= nxt
            frontier = nxt
        cap = e.points + sum(alive[k].points for k in found)
        e.penalty = min(20, cap)


def summary(sim: Simulation) -> dict[str, Any]:
    return {
        "slips": sum(len(v) for v in sim.slips.values()),
        "placements": len(sim.placements),
        "kinds": dict(sim.stats),
    }


def _signed(text: str) -> int:
    try:
        return parse_signed(text, "score")
    except ArbitruError:
        return 0
