"""The anticipation maximum: the best total the groups and lots allowed, where a player lost points, and a
computer player.

Everything runs on the compiled generator's boards (:class:`arbitru.engine.movegen.CoreBoard`), on raw
placement records, and decodes placements only for the line it returns.

- :func:`maximum` — a beam search over the 14 turns (turn 1: group 1 then its 7-letter group, or one of them
  alone, RO-5.3; letters not placed are lost, RO-5.3), ordered by total plus a look-ahead: the best score of the
  next turn's group on the board a placement leaves. Deterministic for a seed (ties broken by a seeded draw).
- :func:`upper_bound` — a bound no line can beat (see its doc: provable, loose).
- :func:`losses` — for each turn of a corrected game, the best placement on the player's own board.
- :func:`computer_game` — a player who knows the groups but not the lots to come.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitru.engine.board import Board
from arbitru.engine.layout import SIZE, STANDARD
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.movegen import RECORD, CoreBoard, Placements
from arbitru.engine.rules import BINGO_BONUS, BINGO_TILES
from arbitru.engine.tiles import BLANK, Alphabet, Rack
from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.slips import Slip, SlipRow
from arbitru.formats.anticipation.variants import TURNS
from arbitru.formats.anticipation.verdicts import PlayerResult

_FLAG_USE_ALL = 1  # the core's FLAG_USE_ALL (RO-8.2, RO-8.3)


@dataclass
class Step:
    """One placement of a line: the turn, the group it takes its letters from, where, what, how much."""

    turn: int
    group: int
    position: str
    word: str
    score: int

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "group": self.group, "position": self.position, "word": self.word,
                "score": self.score}


@dataclass
class Line:
    """A whole game as one player could have played it."""

    steps: list[Step]
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total, "steps": [s.to_dict() for s in self.steps]}


@dataclass
class MaximumResult:
    total: int
    bound: int
    line: Line
    beam: int
    seed: int
    seconds: float
    lots: list[int]
    lexicon: str

    @property
    def gap(self) -> float:
        """How far from proven: the share of the bound the line does not reach."""
        return 1 - self.total / self.bound if self.bound else 0.0

    def to_payload(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "bound": self.bound,
            "beam": self.beam,
            "seed": self.seed,
            "seconds": round(self.seconds, 2),
            "lots": list(self.lots),
            "lexicon": self.lexicon,
            "line": self.line.to_dict(),
        }


# --- the search ---------------------------------------------------------------------------------------------


@dataclass
class _Node:
    """A beam state: the moves of its last turn (group, record) and the way back to the empty board."""

    parent: _Node | None
    turn: int
    moves: tuple[tuple[int, bytes], ...]
    total: int
    core: Any = None  # the compiled board, kept only while the node is in the beam
    ahead: list[bytes] | None = None  # the next turn's best placements here, found by the look-ahead


class Searcher:
    """The game's groups and lots on the compiled generator (classic and RO-8.3 'total' rules)."""

    def __init__(self, lexicon: Lexicon, groups: Sequence[Sequence[int]], *, use_all: bool = False) -> None:
        self.lexicon = lexicon
        self.alpha: Alphabet = lexicon.alphabet
        self.groups = [list(g) for g in groups]
        self.use_all = use_all  # RO-8.3: a 7-letter group is placed whole or not at all
        self.empty = CoreBoard(lexicon, Board(self.alpha))._core
        self.racks = [bytes(Rack(self.alpha, g).counts) for g in self.groups]

    def gen(self, core: Any, group: int, top: int) -> list[bytes]:
        """Up to ``top`` best placement records of a group on a board (ties at the cut may be left out)."""
        flags = _FLAG_USE_ALL if self.use_all and group != 1 else 0
        recs: bytes = core.generate(self.racks[group - 1], top, flags)
        size = RECORD.size
        out = [recs[i : i + size] for i in range(0, len(recs), size)]
        out.sort(key=lambda r: -_score(r))
        return out[:top] if top else out

    def best(self, core: Any, group: int) -> int:
        recs = self.gen(core, group, 1)
        return _score(recs[0]) if recs else 0

    def turn_one(
        self, core: Any, group: int, branch: int, firsts: int | None = None
    ) -> list[tuple[tuple[tuple[int, bytes], ...], int, Any]]:
        """Turn 1's choices (RO-5.3): nothing, group 1 alone, the drawn group alone, or group 1 then it
        (``firsts`` group-1 placements, default ``branch``; 0: all)."""
        out: list[tuple[tuple[tuple[int, bytes], ...], int, Any]] = [((), 0, core)]
        for rec in self.gen(core, group, branch):
            out.append((((group, rec),), _score(rec), _placed(core, rec)))
        for first in self.gen(core, 1, branch if firsts is None else firsts):
            after = _placed(core, first)
            out.append((((1, first),), _score(first), after))
            for rec in self.gen(after, group, branch):
                out.append((((1, first), (group, rec)), _score(first) + _score(rec), _placed(after, rec)))
        return out

    def decode(self, node: _Node) -> Line:
        chain: list[_Node] = []
        n: _Node | None = node
        while n is not None and n.turn > 0:
            chain.append(n)
            n = n.parent
        core = self.empty.copy()
        steps: list[Step] = []
        for n in reversed(chain):
            for group, rec in n.moves:
                placement, score = Placements(rec, bytes(core.squares()))[0]
                steps.append(Step(n.turn, group, placement.coord.format(), self.alpha.format(placement.word), score))
                _place(core, rec)
        return Line(steps, sum(s.score for s in steps))


def _score(rec: bytes) -> int:
    return int(RECORD.unpack_from(rec)[0])


def _place(core: Any, rec: bytes) -> None:
    _, row, col, direction, length, tiles, _ = RECORD.unpack_from(rec)
    core.place(row, col, direction, tiles[:length])


def _placed(core: Any, rec: bytes) -> Any:
    child = core.copy()
    _place(child, rec)
    return child


def maximum(
    lexicon: Lexicon,
    groups: Sequence[Sequence[int]],
    lots: Sequence[int],
    *,
    beam: int = 100,
    seed: int = 0,
    branch: int = 12,
    lookahead: float = 0.5,
    use_all: bool = False,
    computer: bool = True,
) -> MaximumResult:
    """The best line the beam finds: ``lots[k]`` is the group of turn k+1 (turn 1: the 7-letter group).

    ``computer``: the computer player's line (same seed) is played too, and the better of the two is returned:
    a narrow beam can miss a line the computer player finds, and the maximum is never below a line known to be
    playable (False: the beam's line alone, e.g. the greedy line).

    ``beam``: boards kept per turn; ``branch``: placements tried per board; ``lookahead``: the weight of the
    next group's best score on the board a placement leaves, in the ordering (0: by total only, the greedy line
    at ``beam=1``).
    """
    started = time.perf_counter()
    search = Searcher(lexicon, groups, use_all=use_all)
    rng = random.Random(seed)
    lots = list(lots)
    root = _Node(None, 0, (), 0, search.empty.copy())
    beam_nodes: list[_Node] = [root]
    for turn in range(1, len(lots) + 1):
        group = lots[turn - 1]
        following = lots[turn] if turn < len(lots) else None
        # children as (total, tie-break, parent, moves, board or None until made)
        children: list[tuple[int, float, _Node, tuple[tuple[int, bytes], ...], Any]] = []
        for node in beam_nodes:
            if turn == 1:
                for moves, score, core in search.turn_one(node.core, group, branch):
                    children.append((node.total + score, rng.random(), node, moves, core))
                continue
            children.append((node.total, rng.random(), node, (), node.core))
            recs = node.ahead if node.ahead is not None else search.gen(node.core, group, branch)
            for rec in recs:
                children.append((node.total + _score(rec), rng.random(), node, ((group, rec),), None))
        children.sort(key=lambda c: (-c[0], c[1]))
        pool = children[: max(2 * beam, 8)] if lookahead else children[: beam * 4]
        seen: set[bytes] = set()
        ranked: list[tuple[float, float, _Node]] = []
        for total, tie, parent, moves, core in pool:
            if core is None:
                core = _placed(parent.core, moves[-1][1])
            key = bytes(core.squares())
            if key in seen:
                continue
            seen.add(key)
            value = float(total)
            child = _Node(parent, turn, moves, total, core)
            if lookahead and following is not None:
                # the next turn's placements here: their best orders this board, and they are its children
                child.ahead = search.gen(core, following, branch)
                value += lookahead * (_score(child.ahead[0]) if child.ahead else 0)
            ranked.append((value, tie, child))
        ranked.sort(key=lambda r: (-r[0], r[1]))
        for node in beam_nodes:
            node.core = node.ahead = None  # only the beam's boards stay in memory
        beam_nodes = [r[2] for r in ranked[:beam]]
    best = max(beam_nodes, key=lambda n: n.total)
    lines = [search.decode(best)]
    if computer:
        lines.append(computer_game(lexicon, groups, lots, seed=seed, use_all=use_all))
    line = max(lines, key=lambda candidate: candidate.total)
    bound = upper_bound(lexicon.alphabet, groups, lots)
    return MaximumResult(
        line.total, bound, line, beam, seed, time.perf_counter() - started, lots, lexicon.name
    )


# --- a bound ------------------------------------------------------------------------------------------------


def _line_multipliers() -> list[int]:
    """For n = 0..7 new tiles: the largest product of word multipliers n squares of one line can cover."""
    best = [1] * (BINGO_TILES + 1)
    mult = STANDARD.word_mult
    for line in range(SIZE):
        for squares in ([line * SIZE + c for c in range(SIZE)], [r * SIZE + line for r in range(SIZE)]):
            ms = sorted((mult[sq] for sq in squares), reverse=True)
            prod = 1
            for n in range(1, BINGO_TILES + 1):
                prod *= ms[n - 1]
                best[n] = max(best[n], prod)
    return best


def placement_bound(alpha: Alphabet, tiles: Sequence[int], on_board: int) -> int:
    """No placement of these tiles scores more, whatever the board holding ``on_board`` face points.

    The main word is (its old tiles + the new tiles × letter multiplier) × the word multipliers the new tiles
    cover in its line; each new tile forms at most one cross word, (its old tiles + the tile × 3) × 3 at most.
    Old tiles of the main word and of the cross words are distinct tiles, so together they are worth at most
    ``on_board``.
    """
    values = [0 if t == BLANK else alpha.values[t] for t in tiles]
    new = 3 * sum(values)
    m = _line_multipliers()[len(tiles)]
    bonus = BINGO_BONUS if len(tiles) == BINGO_TILES else 0
    return on_board * max(m, 3) + new * (m + 3) + bonus


def upper_bound(alpha: Alphabet, groups: Sequence[Sequence[int]], lots: Sequence[int]) -> int:
    """A total no line can exceed: per placement, :func:`placement_bound` with every tile of the groups of
    earlier turns on the board. Provable but loose (a late turn's bound counts the whole board at ×27)."""
    def face(g: Sequence[int]) -> int:
        return sum(0 if t == BLANK else alpha.values[t] for t in g)

    on_board = 0
    total = 0
    for turn, group in enumerate(lots, 1):
        if turn == 1:
            total += placement_bound(alpha, groups[0], 0)
            on_board += face(groups[0])
        total += placement_bound(alpha, groups[group - 1], on_board)
        on_board += face(groups[group - 1])
    return total


# --- where a player lost points -----------------------------------------------------------------------------


@dataclass
class Loss:
    turn: int
    played: int
    best: int
    best_line: list[Step] = field(default_factory=list)

    @property
    def lost(self) -> int:
        return max(0, self.best - self.played)

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "played": self.played, "best": self.best, "lost": self.lost,
                "best_placements": [s.to_dict() for s in self.best_line]}


def _best_turn(search: Searcher, core: Any, turn: int, group: int) -> tuple[int, list[Step]]:
    """The best this turn allows on this board: turn 1 with every group-1 placement tried (RO-5.3)."""
    if turn == 1:
        # every group-1 placement, each followed by the drawn group's best: exact, and no more boards than that
        options = search.turn_one(core, group, 1, firsts=0)
        moves, score, _ = max(options, key=lambda o: o[1])
    else:
        recs = search.gen(core, group, 1)
        if not recs:
            return 0, []
        moves, score = ((group, recs[0]),), _score(recs[0])
    steps = []
    board = core.copy()
    for g, rec in moves:
        placement, s = Placements(rec, bytes(board.squares()))[0]
        steps.append(Step(turn, g, placement.coord.format(), search.alpha.format(placement.word), s))
        _place(board, rec)
    return score, steps


def losses(
    lexicon: Lexicon, groups: Sequence[Sequence[int]], lots: dict[int, int], result: PlayerResult,
    *, use_all: bool = False,
) -> list[Loss]:
    """Per corrected turn: what the player scored and the best the group allowed on his own board.

    His board before turn t holds his placements of earlier turns that stand at the end of the correction
    (a placement cancelled later is taken off from the start: a small approximation).
    """
    search = Searcher(lexicon, groups, use_all=use_all)
    board = Board(lexicon.alphabet)
    out = []
    for turn in sorted(result.slips):
        if turn not in lots:
            continue
        sv = result.slips[turn]
        core = CoreBoard(lexicon, board)._core
        best, steps = _best_turn(search, core, turn, lots[turn])
        played = sum(v.score for v in sv.placements if v.on_board)
        out.append(Loss(turn, played, best, steps))
        for v in sv.placements:
            if v.on_board:
                for sq, tile in v.new:
                    board.squares[sq] = tile
    return out


# --- the computer player ------------------------------------------------------------------------------------


def computer_game(
    lexicon: Lexicon,
    groups: Sequence[Sequence[int]],
    lots: Sequence[int],
    *,
    seed: int = 0,
    branch: int = 8,
    samples: int = 3,
    weight: float = 0.5,
    use_all: bool = False,
) -> Line:
    """A player who knows the groups but not the lots to come: each turn, among the ``branch`` best
    placements, the one with the best score + ``weight`` × the mean best score, on the board it leaves, of
    ``samples`` groups drawn at random among those still to come."""
    search = Searcher(lexicon, groups, use_all=use_all)
    rng = random.Random(seed)
    core = search.empty.copy()
    remaining = sorted(set(lots))
    root = _Node(None, 0, (), 0)
    node = root
    for turn, group in enumerate(lots, 1):
        remaining.remove(group)
        if turn == 1:
            options = search.turn_one(core, group, branch)
        else:
            options = [((), 0, core)] + [(((group, r),), _score(r), None) for r in search.gen(core, group, branch)]
        ahead = rng.sample(remaining, min(samples, len(remaining))) if remaining else []
        best: tuple[float, tuple[tuple[int, bytes], ...], int, Any] | None = None
        for moves, score, after in options:
            if after is None:
                after = _placed(core, moves[-1][1])
            value = score + (weight * sum(search.best(after, g) for g in ahead) / len(ahead) if ahead else 0)
            if best is None or value > best[0]:
                best = (value, moves, score, after)
        assert best is not None
        node = _Node(node, turn, best[1], node.total + best[2])
        core = best[3]
    return search.decode(node)


def line_slips(line: Line, player: str, table: int, turns: int = TURNS) -> list[Slip]:
    """The line written as slips, correctly (a player who makes no slip), for the correction."""
    slips = []
    for turn in range(1, turns + 1):
        steps = [s for s in line.steps if s.turn == turn]
        total = str(sum(s.score for s in steps)) if len(steps) > 1 else ""
        rows = [
            SlipRow(i, str(table), str(turn), s.position, s.word, str(s.score), total, "")
            for i, s in enumerate(steps, 1)
        ]
        if not rows:
            rows = [SlipRow(1, str(table), str(turn), "", "PAS", "", "", "")]
        slips.append(Slip(player, turn, rows, "computer", str(turn)))
    return slips


# --- a game's groups and lots -------------------------------------------------------------------------------


def game_inputs(state: Any) -> tuple[list[list[int]], list[int], bool]:
    """Groups, the 14 lots and the all-letters rule of a replayed game (``GameState``).

    :raises ArbitruError: for a game whose maximum means nothing here (no common draw, lots missing, a variant
        whose letters are not the groups').
    """
    variant = state.settings.variant
    if variant not in ("classic", "total"):
        raise ArbitruError(f"the maximum is computed for the classic and 'total' games, not {variant!r}")
    if state.draw is None:
        raise ArbitruError("the game has no groups drawn")
    lots = [state.order.lots[t].group for t in sorted(state.order.lots)]
    if len(lots) < TURNS:
        raise ArbitruError(f"the maximum needs all {TURNS} lots; {len(lots)} are drawn")
    return [list(g) for g in state.draw.groups], lots, variant == "total"
