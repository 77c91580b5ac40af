"""Correcting each player's own board, placement by placement (RO-5.3, RO-6, RO-7.1, RO-8).

Every placement is judged on the board the player really has: an invalid placement (RO-6.1) scores 0 and stays off
the board, so later placements are judged without it. A position that does not fit the board is searched for the
placement the player must have meant: signs inverted (RO-6.3a) or one sign wrong (RO-6.3b) cost a technical penalty
of 20 points, capped by the placement's value plus the values of the later placements formed with its help; two
wrong signs (RO-6.1c) or a missing sign (RO-6.1d) make it invalid. A slip gets at most one technical warning
(RO-6.2), the first three free, −5 from the fourth. ``Anulez turul X`` removes that turn's placement; later
placements formed with its help are cancelled, those that only touched it are rescored (RO-5.3). Disciplinary
warnings cost 20 points and the second eliminates (RO-6.4): the correction stops, the turns before it stay
corrected; a cheater is eliminated uncorrected (RO-7.1).

Every verdict carries a rule ID and a reason in plain English an arbiter can read out.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbitru.engine.board import Board
from arbitru.engine.layout import SIZE
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.notation import Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.rules import Check, check
from arbitru.engine.tiles import BLANK, BLANK_BIT, Alphabet, is_blank, letter_of
from arbitru.errors import IllegalPlacementError, TileError
from arbitru.formats.anticipation.draw import format_group
from arbitru.formats.anticipation.positions import WrittenPosition, all_coords, one_error, read_position, relation
from arbitru.formats.anticipation.slips import Slip, SlipRow, fold
from arbitru.formats.anticipation.variants import GROUP_SIZE, TURNS, Settings
from arbitru.formats.anticipation.verdicts import Decision, Fault, PlayerResult, Sanction, SlipVerdict, Verdict
from arbitru.messages import Text, joined
from arbitru.textinput import InputError, ascii_number, parse_signed

VALID_RULE = "G-3"  # a valid placement: scored by the general rules (G-3, G-4)
PENALTY = 20  # RO-6.3: a technical penalty = 4 technical warnings
DISCIPLINARY = 20  # RO-6.4
WARNING_COST = 5  # RO-6.2: from the 4th technical warning
FREE_WARNINGS = 3


# --- the letters a placement may use ------------------------------------------------------------------------


@dataclass
class Pool:
    """The tiles a placement may take: a group's letters (index 0 = blanks); in the avocalic variant, vowels
    from the player's stock, at most ``vowel_cap`` of them (RO-8.1)."""

    counts: list[int]
    label: str
    group: int
    size: int = GROUP_SIZE
    vowel_stock: list[int] | None = None
    vowel_cap: int = 0


@dataclass
class Assignment:
    tiles: tuple[int, ...]  # the main word with blanks as 0x80|letter on new squares
    unmarked: int  # blanks the player did not mark (RO-6.2c)
    choices: int  # how many ways the unmarked blanks could lie (>1: verify at the table, RO-5.5.i)
    vowels: list[int]  # vowels taken from the stock (RO-8.1)


def _assign(
    alpha: Alphabet, pool: Pool, coord: Coordinate, word: Sequence[int], new: list[tuple[int, int]]
) -> tuple[list[Assignment], list[int]]:
    """Ways to take the new tiles from the pool; returns (assignments, tiles missing from the pool)."""
    counts = list(pool.counts)
    stock = list(pool.vowel_stock) if pool.vowel_stock is not None else None
    cap = pool.vowel_cap
    missing: list[int] = []
    vowels: list[int] = []
    unmarked: dict[int, list[int]] = {}  # letter -> squares written in upper case
    short: dict[int, int] = {}  # letter -> how many of those must be blanks
    for sq, tile in new:
        if is_blank(tile):
            if counts[BLANK]:
                counts[BLANK] -= 1
            else:
                missing.append(tile)
            continue
        unmarked.setdefault(tile, []).append(sq)
        if stock is not None and alpha.is_vowel(tile):
            if stock[tile] and cap:
                stock[tile] -= 1
                cap -= 1
                vowels.append(tile)
                continue
        elif counts[tile] and alpha.has_tiles(tile):
            counts[tile] -= 1
            continue
        short[tile] = short.get(tile, 0) + 1
    blanks_needed = sum(short.values())
    if blanks_needed > counts[BLANK]:
        over = blanks_needed - counts[BLANK]
        for letter, n in short.items():
            take = min(n, over)
            missing.extend([letter] * take)
            over -= take
        return [], missing
    if missing:
        return [], missing
    if not short:
        return [Assignment(tuple(word), 0, 1, vowels)], []
    squares = coord.squares(len(word))
    options = [list(itertools.combinations(unmarked[letter], n)) for letter, n in sorted(short.items())]
    out = []
    for combo in itertools.product(*options):
        blank_squares = {sq for part in combo for sq in part}
        tiles = tuple(
            (BLANK_BIT | t) if sq in blank_squares else t for sq, t in zip(squares, word, strict=True)
        )
        out.append(Assignment(tiles, blanks_needed, 0, vowels))
    for a in out:
        a.choices = len(out)
    return out, []


# --- judging one placement ----------------------------------------------------------------------------------


@dataclass
class Attempt:
    """A placement tried at one coordinate: legal or not, with every reason (rule, text)."""

    coord: Coordinate
    ok: bool
    reasons: list[tuple[str, str]]
    check: Check | None = None
    assignment: Assignment | None = None

    @property
    def score(self) -> int:
        return self.check.score if self.check else 0


def _words_text(alpha: Alphabet, chk: Check) -> str:
    parts: list[str] = [f"{alpha.format(w.tiles).upper()} {w.score}" for w in chk.words]
    if chk.bingo:
        parts.append(Text("bonus %(n)s", n=chk.bingo))
    return joined(parts, " + ")


class Judge:
    """Judges placements against a word list: no state of its own."""

    def __init__(self, alpha: Alphabet, lexicon: Lexicon) -> None:
        self.alpha = alpha
        self.lexicon = lexicon
        self._touch_key = b""
        self._touch = b""

    def attempt(
        self, board: Board, coord: Coordinate, word: Sequence[int], pool: Pool, lexicon: Lexicon | None
    ) -> Attempt:
        """Try the word at a coordinate on the player's board with tiles from the pool."""
        placement = Placement(coord, tuple(word))
        try:
            new = board.new_tiles(placement)
        except IllegalPlacementError as e:
            return Attempt(coord, False, [("RO-6.1b", text) for _, text in e.reasons])
        assignments, missing = _assign(self.alpha, pool, coord, word, new)
        reasons: list[tuple[str, str]] = []
        if missing:
            letters = joined(
                (self.alpha.label(letter_of(t)) if not is_blank(t) else Text("? (blank)") for t in missing), " "
            )
            reasons.append(
                ("RO-6.1b", Text("letters not from %(group)s: %(letters)s", group=pool.label, letters=letters))
            )
            assignments = [Assignment(tuple(word), 0, 1, [])]
        best: Attempt | None = None
        for a in assignments:
            chk = check(board, Placement(coord, a.tiles), lexicon)
            rs = list(reasons)
            for code, text in chk.reasons:
                if code == "no-such-tile" and missing:
                    continue
                rs.append(("RO-6.1a" if code == "not-in-list" else "RO-6.1b", text))
            attempt = Attempt(coord, not rs, _sort_reasons(rs), chk, a)
            if best is None or (attempt.ok, -attempt.score) > (best.ok, -best.score):
                best = attempt
        assert best is not None
        return best

    def quick_fit(self, board: Board, coord: Coordinate, word: Sequence[int]) -> bool:
        """Cheap test before a full attempt: on the board, letters agree, a new tile, touches the build."""
        n = len(word)
        if (coord.col if coord.horizontal else coord.row) + n > SIZE:
            return False
        squares = board.squares
        touch = self._touch_map(board)
        step = 1 if coord.horizontal else SIZE
        sq = coord.square
        placed = touching = False
        for tile in word:
            here = squares[sq]
            if here:
                if here & 0x7F != tile & 0x7F:
                    return False
                touching = True
            else:
                placed = True
                touching = touching or bool(touch[sq])
            sq += step
        return placed and touching

    def _touch_map(self, board: Board) -> bytes:
        """Squares a new tile may connect through: next to a tile (the centre on an empty board)."""
        key = bytes(board.squares)
        if key != self._touch_key:
            squares = board.squares
            touch = bytearray(SIZE * SIZE)
            if not any(squares):
                touch[board.layout.centre] = 1
            for sq in range(SIZE * SIZE):
                if squares[sq]:
                    r, c = divmod(sq, SIZE)
                    if r > 0:
                        touch[sq - SIZE] = 1
                    if r < SIZE - 1:
                        touch[sq + SIZE] = 1
                    if c > 0:
                        touch[sq - 1] = 1
                    if c < SIZE - 1:
                        touch[sq + 1] = 1
            self._touch_key, self._touch = key, bytes(touch)
        return self._touch


def _sort_reasons(reasons: list[tuple[str, str]]) -> list[tuple[str, str]]:
    def rank(r: tuple[str, str]) -> int:
        if r[0] == "RO-6.1b" and not r[1].startswith("letters not from"):
            return 0
        return 1 if r[0] == "RO-6.1b" else 2

    return sorted(reasons, key=rank)


# --- the correction of one player ---------------------------------------------------------------------------


@dataclass
class Setup:
    """What every player's correction shares: settings, tiles, word list, groups, lots."""

    settings: Settings
    alpha: Alphabet
    lexicon: Lexicon
    groups: list[list[int]]  # index 0 = group 1 (empty list in the blind variant)
    lots: dict[int, int]  # turn -> group drawn (turn 1: the 7-letter group)
    seating: dict[str, int] = field(default_factory=dict)  # player -> table
    names: dict[str, str] = field(default_factory=dict)  # player -> full name, when registered
    blind: dict[str, list[list[int]]] = field(default_factory=dict)  # RO-8.4: each player's own groups

    def groups_of(self, turn: int) -> list[int]:
        lot = self.lots.get(turn)
        if lot is None:
            return []
        return [1, lot] if turn == 1 else [lot]


class PlayerCorrection:
    """One player's board and verdicts, advanced turn by turn."""

    def __init__(
        self,
        setup: Setup,
        player: str,
        decisions: Sequence[Decision] = (),
        sanctions: Sequence[Sanction] = (),
    ) -> None:
        self.setup = setup
        self.alpha = setup.alpha
        self.judge = Judge(setup.alpha, setup.lexicon)
        self.player = player
        self.board = Board(setup.alpha)
        self.alive: list[Verdict] = []  # placements on the board, in order
        self.result = PlayerResult(player, setup.seating.get(player))
        self.decisions = list(decisions)
        self.stopped = ""  # why correction stopped (dropped out)
        # RO-6.4, RO-7.1: the first turn not corrected and its rule (a cheater: turn 1; a second disciplinary
        # warning: its turn, the turns before it stay corrected)
        self.uncorrected: tuple[int, str] | None = None
        self.stock: list[int] | None = None
        if setup.settings.variant == "avocalic":
            # RO-8.1: every vowel of the tile set, each usable once over the game
            self.stock = [
                setup.alpha.counts[t] if setup.alpha.is_vowel(t) else 0 for t in range(setup.alpha.size + 1)
            ]
        self._sanctions(sanctions)

    def _sanctions(self, sanctions: Sequence[Sanction]) -> None:
        """RO-6.4, RO-7.1: known before the correction, since an eliminated player is not corrected."""
        r = self.result
        withdrawn = {d.event for d in self.decisions if d.target == "discipline"}
        disciplinary = 0
        given_in: list[int] = []  # the turn each standing disciplinary warning was given in
        for s in sanctions:
            r.sanctions.append(
                {
                    "seq": s.seq,
                    "kind": s.kind,
                    "reason": s.reason,
                    "turn": s.turn,
                    "withdrawn": s.seq in withdrawn,
                }
            )
            if s.seq in withdrawn:
                continue
            if s.kind == "cheating":
                r.eliminated = r.eliminated or Text("eliminated for cheating (RO-7.1): %(reason)s", reason=s.reason)
                self._stop(1, "RO-7.1")
            else:
                disciplinary += 1
                given_in.append(s.turn if s.turn is not None else s.after + 1)
                if disciplinary == 2:
                    # "corectura se oprește": the correction stops from the turn he has both warnings in
                    turn = max(given_in)
                    r.eliminated = r.eliminated or (
                        Text(
                            "eliminated in turn %(turn)s: second disciplinary warning (RO-6.4): %(reason)s",
                            turn=turn,
                            reason=s.reason,
                        )
                    )
                    self._stop(turn, "RO-6.4")
        r.disciplinary = disciplinary * DISCIPLINARY

    def _stop(self, turn: int, rule: str) -> None:
        if self.uncorrected is None or turn < self.uncorrected[0]:
            self.uncorrected = (turn, rule)

    # --- helpers --------------------------------------------------------------------------------------------

    def _decision(self, target: str, turn: int | None = None, index: int | None = None) -> list[Decision]:
        return [d for d in self.decisions if d.target == target and d.turn == turn and d.index == index]

    def _group_tiles(self, group: int) -> list[int] | None:
        if self.setup.settings.variant == "blind":
            own = self.setup.blind.get(self.player)
            return own[group - 1] if own else None
        return self.setup.groups[group - 1]

    def pool(self, group: int) -> Pool | None:
        tiles = self._group_tiles(group)
        if tiles is None:
            return None
        counts = [0] * (self.alpha.size + 1)
        label: str = Text("group %(n)s (%(letters)s)", n=group, letters=format_group(self.alpha, tiles))
        if self.stock is not None:
            kept = [t for t in tiles if t == BLANK or not self.alpha.is_vowel(t)]
            for t in kept:
                counts[t] += 1
            label = Text(
                "group %(n)s (%(letters)s and vowels from the stock)",
                n=group,
                letters=format_group(self.alpha, kept) or "—",
            )
            return Pool(counts, label, group, len(tiles), self.stock, len(tiles) - len(kept))
        for t in tiles:
            counts[t] += 1
        return Pool(counts, label, group, len(tiles))

    # --- a turn ---------------------------------------------------------------------------------------------

    def correct_turn(
        self, turn: int, slip: Slip | None, seq: int | None = None, replaced: Sequence[int] = ()
    ) -> SlipVerdict:
        sv = SlipVerdict(turn, seq, replaces=list(replaced))
        self.result.slips[turn] = sv
        void: tuple[str, str] | None = None
        groups = self.setup.groups_of(turn)
        if self.uncorrected is not None and turn >= self.uncorrected[0]:
            void = (self.uncorrected[1], Text("not corrected: %(why)s", why=self.result.eliminated))
        elif self.stopped:
            void = ("RO-8.2", Text("not corrected: %(why)s", why=self.stopped))
        elif not groups:
            void = ("RO-5.3", Text("no lot has been drawn for turn %(turn)s yet (RO-5.3): not corrected", turn=turn))
        elif slip is None:
            sv.status, sv.reason = "missing", Text("no slip handed in")
            self._exclusive_turn_end(turn, sv)
            return sv
        elif self.setup.settings.variant == "blind" and self.player not in self.setup.blind:
            void = ("RO-8.4", Text("no sealed groups were handed in by this player (RO-8.4): not corrected"))
        if void is not None:
            sv.status, sv.reason = "void", void[1]
            if slip is not None:
                sv.placements = [self._void(turn, i, r, *void) for i, r in enumerate(slip.placements(), 1)]
            return sv
        assert slip is not None
        sv.written_total = slip.first("turn_total")

        # notes: verifications are answered first (RO-5.3, RO-5.5.h), then cancellations take effect
        for note in slip.notes():
            if note.kind == "verify":
                sv.verifications.extend(self._verify(note.words, slip))
            elif note.kind == "cancel":
                sv.cancellations.extend(self._cancel_note(note.turns, note.raw, turn))
            elif note.kind == "pass":
                sv.passed = True
            else:
                sv.notes.append(Text("note not understood, no effect: %(note)s", note=repr(note.raw)))

        rows = slip.placements()
        allowed = 2 if turn == 1 else 1
        for i, row in enumerate(rows, 1):
            if i > allowed:
                sv.placements.append(
                    self._invalid(
                        turn,
                        i,
                        row,
                        None,
                        "RO-5.3",
                        Text("only 1 placement may be written in turn %(turn)s", turn=turn)
                        if allowed == 1
                        else Text("only %(n)s placements may be written in turn %(turn)s", n=allowed, turn=turn),
                    )
                )
                continue
            if turn == 1 and len(rows) >= 2:
                group = groups[0] if i == 1 else groups[1]
                v = self._judge_row(turn, i, row, [group])
            else:
                v = self._judge_row(turn, i, row, groups)
            sv.placements.append(v)
        if sv.passed and rows:
            sv.notes.append(Text("PAS is written together with a placement: the placement is judged"))
        self._faults(turn, slip, sv)
        self._exclusive_turn_end(turn, sv)
        return sv

    def _void(self, turn: int, index: int, row: SlipRow, rule: str, reason: str) -> Verdict:
        return Verdict(turn, index, row.line, row.position, row.word, row.score, None, "void", rule, reason)

    def _invalid(
        self, turn: int, index: int, row: SlipRow, group: int | None, rule: str, reason: str, **extra: Any
    ) -> Verdict:
        return Verdict(
            turn, index, row.line, row.position, row.word, row.score, group, "invalid", rule, reason, **extra
        )

    # --- verification (RO-5.3) ------------------------------------------------------------------------------

    def _verify(self, words: Sequence[str], slip: Slip) -> list[dict[str, Any]]:
        asked = list(words) or [r.word for r in slip.placements() if r.word.strip()]
        out = []
        for w in asked:
            folded = self.alpha.fold(w) or ""
            valid = bool(folded) and folded in self.setup.lexicon
            out.append(
                {
                    "word": w,
                    "valid": valid,
                    "answer": Text("%(word)s: valid", word=folded or w)
                    if valid
                    else Text("%(word)s: NOT in %(list)s", word=folded or w, list=self.setup.lexicon.name),
                }
            )
        return out

    # --- one placement --------------------------------------------------------------------------------------

    def _judge_row(self, turn: int, index: int, row: SlipRow, groups: Sequence[int]) -> Verdict:
        decisions = self._decision("placement", turn, index)
        decision = decisions[-1] if decisions else None
        verdicts = []
        for group in self._likely_first(row, groups):
            pool = self.pool(group)
            assert pool is not None
            verdicts.append(self._judge_with(turn, index, row, pool, None))
            if verdicts[-1].on_board:
                break
        verdict = _prefer(verdicts)
        if decision is not None:
            original = verdict.summary()
            pools = {g: self.pool(g) for g in groups}
            if decision.action == "invalid":
                verdict = self._invalid(
                    turn,
                    index,
                    row,
                    verdict.group,
                    "RO-6.5",
                    Text(
                        "decision #%(seq)s (%(by)s): %(reason)s",
                        seq=decision.seq,
                        by=Text(decision.by),
                        reason=decision.reason,
                    ),
                )
            else:
                candidates = [self._judge_with(turn, index, row, p, decision) for p in pools.values() if p]
                verdict = _prefer(candidates)
                verdict.notes.append(
                    Text(
                        "decision #%(seq)s (%(by)s): %(reason)s (RO-6.5)",
                        seq=decision.seq,
                        by=Text(decision.by),
                        reason=decision.reason,
                    )
                )
                if verdict.status == "valid":
                    verdict.rule = "RO-6.5"
            verdict.original = original
            verdict.decisions = [d.seq for d in decisions]
        if verdict.on_board:
            verdict = self._exclusive_check(verdict)
        if verdict.on_board:
            self._place(verdict)
        return verdict

    def _likely_first(self, row: SlipRow, groups: Sequence[int]) -> list[int]:
        """Turn 1, one placement: group 1 first when the word places at most 2 tiles where it is written."""
        if len(groups) < 2:
            return list(groups)
        written = read_position(row.position)
        try:
            word = self.alpha.split(row.word.strip(), blanks=True)
        except TileError:
            return list(groups)
        placed = len(word)
        if written.coord is not None:
            squares = [sq for sq in written.coord.squares(len(word)) if sq < SIZE * SIZE]
            placed -= sum(1 for sq in squares if self.board.squares[sq])
        return list(groups) if placed <= len(self._group_tiles(groups[0]) or ()) else list(reversed(groups))

    def _judge_with(
        self, turn: int, index: int, row: SlipRow, pool: Pool, decision: Decision | None
    ) -> Verdict:
        alpha = self.alpha
        lexicon: Lexicon | None = self.setup.lexicon
        position_text, word_text = row.position, row.word
        if decision is not None and decision.action == "as":
            position_text = decision.position or position_text
            word_text = decision.word or word_text
        if decision is not None and decision.action == "valid":
            lexicon = None  # the decision accepts the words
        if not word_text.strip():
            return self._invalid(turn, index, row, pool.group, "RO-6.1a", Text("no main word is written"))
        try:
            word = alpha.split(word_text.strip(), blanks=True)
        except TileError as e:
            return self._invalid(
                turn, index, row, pool.group, "RO-6.1a", Text("the main word cannot be read: %(why)s", why=str(e))
            )
        if len(word) < 2:
            return self._invalid(
                turn,
                index,
                row,
                pool.group,
                "RO-6.1a",
                Text("%(word)s is not a word: a word has at least two letters", word=repr(word_text.strip())),
            )
        shown = alpha.format(word).upper()
        if lexicon is not None and not lexicon.contains_tiles(word):
            return self._invalid(
                turn,
                index,
                row,
                pool.group,
                "RO-6.1a",
                Text("main word %(word)s is not in the official list (%(list)s)", word=shown, list=lexicon.name),
            )
        written = read_position(row.position)
        meant = read_position(position_text) if decision is not None and decision.action == "as" else written
        if written.missing:
            return self._invalid(
                turn,
                index,
                row,
                pool.group,
                "RO-6.1d",
                Text("a coordinate sign is missing: %(why)s", why=written.problem),
            )

        # the placement as written (or as a decision says it was meant)
        first: Attempt | None = None
        if meant.coord is not None:
            first = self.judge.attempt(self.board, meant.coord, word, pool, lexicon)
            if first.ok:
                kind = relation(written, meant.coord)
                if kind == "both":
                    return self._invalid(
                        turn,
                        index,
                        row,
                        pool.group,
                        "RO-6.1c",
                        Text(
                            "both coordinate signs are wrong: written %(written)s, meant %(meant)s",
                            written=written.text.strip(),
                            meant=meant.coord.format(),
                        ),
                    )
                return self._accepted(turn, index, row, pool, first, kind, written, candidates=1)
        # search the player's board for what he must have meant (RO-6.3)
        candidates: list[tuple[tuple[int, int, Coordinate], str, Attempt]] = []
        for coord, kind, distance in one_error(written):
            if not self.judge.quick_fit(self.board, coord, word):
                continue
            a = self.judge.attempt(self.board, coord, word, pool, lexicon)
            if a.ok:
                candidates.append(((0 if kind == "inverted" else 1, distance, coord), kind, a))
        if candidates:
            candidates.sort(key=lambda c: c[0])
            _, kind, a = candidates[0]
            return self._accepted(turn, index, row, pool, a, kind, written, candidates=len(candidates))
        # nothing with one error: does the word fit the board at exactly one position, with both signs wrong
        # (RO-6.1c)? With several fits nothing says what the player meant: the written position is judged.
        fits: list[Coordinate] = []
        for coord in all_coords():
            if coord in (meant.coord, written.coord) or relation(written, coord) != "both":
                continue
            if not self.judge.quick_fit(self.board, coord, word):
                continue
            if self.judge.attempt(self.board, coord, word, pool, lexicon).ok:
                fits.append(coord)
                if len(fits) > 1:
                    break
        if len(fits) == 1:
            return self._invalid(
                turn,
                index,
                row,
                pool.group,
                "RO-6.1c",
                Text(
                    "both coordinate signs are wrong: %(word)s fits the player's board only at %(fits)s, "
                    "not at %(written)s",
                    word=shown,
                    fits=fits[0].format(),
                    written=written.text.strip(),
                ),
            )
        if first is not None:
            rule, text = first.reasons[0]
            more = [t for _, t in first.reasons[1:3]]
            fix = Text("%(why)s (no position with one sign changed fits the board either, RO-6.3)", why=text)
            if rule == "RO-6.1b":
                text = fix
            foreign = any(t.startswith("letters not from") for _, t in first.reasons)
            return self._invalid(
                turn,
                index,
                row,
                pool.group,
                rule,
                Text("%(why)s; also: %(more)s", why=text, more=more) if more else text,
                foreign=foreign,
            )
        if written.row is None and written.col is None:
            return self._invalid(
                turn,
                index,
                row,
                pool.group,
                "RO-6.1c",
                Text("both coordinate signs are wrong: %(why)s", why=written.problem or written.text),
            )
        return self._invalid(
            turn,
            index,
            row,
            pool.group,
            "RO-6.1b",
            Text("%(why)s, and no position with that sign changed fits the board (RO-6.3)", why=written.problem),
        )

    def _accepted(
        self,
        turn: int,
        index: int,
        row: SlipRow,
        pool: Pool,
        a: Attempt,
        kind: str,
        written: WrittenPosition,
        candidates: int,
    ) -> Verdict:
        assert a.check is not None and a.assignment is not None
        alpha = self.alpha
        chk = a.check
        position = a.coord.format()
        word = alpha.format(a.assignment.tiles)
        breakdown = _words_text(alpha, chk)
        v = Verdict(
            turn,
            index,
            row.line,
            row.position,
            row.word,
            row.score,
            pool.group,
            "valid",
            VALID_RULE,
            Text("valid: %(words)s = %(score)s", words=breakdown, score=chk.score),
            position,
            word,
            chk.score,
            chk.score,
            unmarked_blanks=a.assignment.unmarked,
            coord=a.coord,
            tiles=a.assignment.tiles,
            new=chk.new,
            vowels=list(a.assignment.vowels),
        )
        if kind in ("inverted", "one-sign"):
            rule = "RO-6.3a" if kind == "inverted" else "RO-6.3b"
            v.status, v.rule, v.penalty_rule = "corrected", rule, rule
            v.reason = Text(
                "%(fault)s: written %(written)s, the player's board has %(position)s; scored %(score)s "
                "(%(words)s); technical penalty −%(penalty)s, capped by the placement's value and the later "
                "placements formed with its help",
                fault=Text("position signs inverted") if kind == "inverted" else Text("one coordinate sign wrong"),
                written=written.text.strip(),
                position=position,
                score=chk.score,
                words=breakdown,
                penalty=PENALTY,
            )
        if candidates > 1:
            v.notes.append(
                Text(
                    "%(n)s positions fit the player's board; %(position)s was taken: verify the player's grid "
                    "at the table (RO-5.5.i)",
                    n=candidates,
                    position=position,
                )
            )
        if a.assignment.unmarked:
            n = a.assignment.unmarked
            v.notes.append(
                Text("%(n)s blanks not marked (RO-6.2c)", n=n) if n > 1 else Text("1 blank not marked (RO-6.2c)")
            )
            if a.assignment.choices > 1:
                v.notes.append(
                    Text(
                        "the unmarked blank could stand on more than one square; the lowest score was "
                        "taken: verify at the table (RO-5.5.i)"
                    )
                )
        return v

    def _exclusive_check(self, v: Verdict) -> Verdict:
        """RO-8.2, RO-8.3: with a 7-letter group, all 7 letters must be placed."""
        settings = self.setup.settings
        if not settings.exclusive or v.group == 1 or len(v.new) == GROUP_SIZE:
            return v
        v.status, v.rule = "invalid", settings.rule
        v.reason = Text(
            "%(word)s places %(n)s of the 7 letters: every turn must place all 7 letters of the group (%(rule)s)",
            word=v.word,
            n=len(v.new),
            rule=settings.rule,
        )
        v.points = 0
        v.penalty_rule = ""
        return v

    def _place(self, v: Verdict) -> None:
        for sq, tile in v.new:
            self.board.squares[sq] = tile
        self.alive.append(v)
        v.depends = self._dependencies(v)
        if self.stock is not None:
            for t in v.vowels:
                self.stock[t] -= 1

    def _dependencies(self, v: Verdict) -> set[tuple[int, int]]:
        """The earlier placements whose tiles are in a word this one forms (it is formed with their help)."""
        own = {sq for sq, _ in v.new}
        owner = {sq: p.pid for p in self.alive if p is not v for sq, _ in p.new}
        squares: set[int] = set()
        assert v.coord is not None
        squares.update(v.coord.squares(len(v.tiles)))
        for sq in own:
            start, tiles = self.board.word_through(sq, not v.coord.horizontal)
            if len(tiles) >= 2:
                step = SIZE if v.coord.horizontal else 1
                squares.update(start + i * step for i in range(len(tiles)))
        return {owner[sq] for sq in squares - own if sq in owner}

    # --- cancellation (RO-5.3) ------------------------------------------------------------------------------

    def _cancel_note(self, turns: Sequence[int], raw: str, current: int) -> list[dict[str, Any]]:
        if not turns:
            return [
                {
                    "turn": None,
                    "done": False,
                    "text": Text("%(note)s: the turn to cancel cannot be read; no effect", note=repr(raw)),
                }
            ]
        return [self.cancel(t, current) for t in turns]

    def cancel(self, target: int, current: int) -> dict[str, Any]:
        if not 1 <= target < current:
            text = (
                Text("turn %(turn)s does not exist: nothing to cancel (RO-5.3)", turn=target)
                if not 1 <= target <= TURNS
                else Text("turn %(turn)s has not been played before this slip: nothing to cancel (RO-5.3)", turn=target)
            )
            return {"turn": target, "done": False, "text": text}
        gone = [v for v in self.alive if v.turn == target]
        if not gone:
            return {
                "turn": target,
                "done": False,
                "text": Text(
                    "turn %(turn)s has no placement on the board (invalid, cancelled or not played): "
                    "nothing to cancel",
                    turn=target,
                ),
            }
        for v in gone:
            v.status, v.points = "cancelled", 0
            v.rule = "RO-5.3"
            v.reason = Text(
                "cancelled by the player in turn %(turn)s (Anulez turul %(target)s)", turn=current, target=target
            )
            if self.stock is not None:
                v.notes.append(Text("its letters are lost (RO-8.1)"))
        self.alive = [v for v in self.alive if v.turn != target]
        effects = self._rebuild(target, current)
        text = (
            Text("turn %(turn)s cancelled; %(effects)s", turn=target, effects=effects)
            if effects
            else Text("turn %(turn)s cancelled", turn=target)
        )
        return {"turn": target, "done": True, "text": text, "effects": effects}

    def _rebuild(self, cause: int, current: int) -> list[str]:
        """Lay the remaining placements again; those after the cancelled one are judged again."""
        board = Board(self.alpha)
        effects: list[str] = []
        kept: list[Verdict] = []
        self.board = board
        for v in self.alive:
            if v.turn < cause:
                for sq, tile in v.new:
                    board.squares[sq] = tile
                kept.append(v)
                self.alive = kept
                v.depends = self._dependencies(v)
                continue
            assert v.coord is not None
            extra = dict(v.new)
            start, run = board.word_through(v.coord.square, v.coord.horizontal, extra)
            same = start == v.coord.square and [letter_of(t) for t in run] == [letter_of(t) for t in v.tiles]
            reason: str = ""
            chk = None
            if not same:
                reason = Text(
                    "formed with the help of turn %(cause)s, cancelled in turn %(turn)s: its main word %(word)s "
                    "is no longer on the board",
                    cause=cause,
                    turn=current,
                    word=v.word.upper() if v.word else "",
                )
            else:
                chk = check(board, Placement(v.coord, v.tiles), self.setup.lexicon)
                if chk.reasons:
                    reason = Text(
                        "no longer legal once turn %(cause)s is cancelled (turn %(turn)s): %(why)s",
                        cause=cause,
                        turn=current,
                        why=chk.reasons[0][1],
                    )
            if reason:
                v.status, v.points, v.rule, v.reason = "cancelled", 0, "RO-5.3", reason
                effects.append(Text("turn %(turn)s cancelled with it", turn=v.turn))
                continue
            assert chk is not None
            if chk.score != v.points:
                note = Text(
                    "rescored %(before)s → %(after)s once turn %(cause)s was cancelled in turn %(turn)s "
                    "(%(words)s) (RO-5.3)",
                    before=v.points,
                    after=chk.score,
                    cause=cause,
                    turn=current,
                    words=_words_text(self.alpha, chk),
                )
                v.notes.append(note)
                effects.append(
                    Text("turn %(turn)s rescored %(before)s → %(after)s", turn=v.turn, before=v.points, after=chk.score)
                )
                v.points = chk.score
            for sq, tile in v.new:
                board.squares[sq] = tile
            kept.append(v)
            self.alive = kept
            v.depends = self._dependencies(v)
        self.alive = kept
        return effects

    # --- technical warnings (RO-6.2) ------------------------------------------------------------------------

    def _faults(self, turn: int, slip: Slip, sv: SlipVerdict) -> None:
        faults: list[Fault] = []
        table = slip.first("table").strip()
        seat = self.setup.seating.get(self.player)
        written_turn = slip.first("turn").strip()
        if turn == 1:
            if not table:
                faults.append(Fault("RO-6.2a", Text("the table number is missing on the turn-1 slip")))
            elif seat is not None and not _same_number(table, seat):
                faults.append(
                    Fault(
                        "RO-6.2a",
                        Text(
                            "wrong table number on the turn-1 slip: %(table)s, the player sits at table %(seat)s",
                            table=table,
                            seat=seat,
                        ),
                    )
                )
            if slip.has_column("name"):
                name = slip.first("name").strip()
                expected = self.setup.names.get(self.player, self.player)
                if not name:
                    faults.append(Fault("RO-6.2a", Text("the player's name is missing on the turn-1 slip")))
                elif fold(name) != fold(expected):
                    faults.append(Fault("RO-6.2a", Text("wrong name on the turn-1 slip: %(name)s", name=repr(name))))
        if not table and turn != 1:
            faults.append(Fault("RO-6.2b", Text("the table number is missing")))
        elif table and seat is not None and not _same_number(table, seat) and turn != 1:
            sv.notes.append(
                Text(
                    "table written %(table)s, the player sits at table %(seat)s (no warning: RO-6.2b counts only "
                    "a missing number)",
                    table=table,
                    seat=seat,
                )
            )
        if not written_turn:
            faults.append(Fault("RO-6.2b", Text("the turn number is missing")))
        elif written_turn != str(turn):
            sv.notes.append(
                Text("turn written %(written)s, collected in turn %(turn)s", written=repr(written_turn), turn=turn)
            )
        for v in sv.placements:
            if v.on_board and v.unmarked_blanks:
                faults.append(
                    Fault("RO-6.2c", Text("blank not marked in %(word)s (placement %(n)s)", word=v.word, n=v.index))
                )
        rows = slip.placements()
        several = len(rows) > 1
        expected_total = 0
        for v, row in zip(sv.placements, rows, strict=False):
            declared = row.score.strip() or ("" if several else slip.first("turn_total").strip())
            if v.on_board:
                real = v.score
                expected_total += real
                if not declared:
                    missing = Text("the score of %(word)s is missing (it is %(real)s)", word=v.word, real=real)
                    faults.append(Fault("RO-6.2d", missing))
                elif _int(declared) != real:
                    faults.append(Fault(
                            "RO-6.2d",
                            Text(
                                "the score of %(word)s is %(real)s, not %(declared)s",
                                word=v.word,
                                real=real,
                                declared=declared,
                            ),
                        ))
            else:
                expected_total += _int(row.score) or 0
        total = slip.first("turn_total").strip()
        accepted = [v for v in sv.placements if v.on_board]
        if accepted:
            if several and not total:
                faults.append(Fault("RO-6.2d", Text("the turn total is missing (it is %(real)s)", real=expected_total)))
            elif total and _int(total) != expected_total:
                wrong = Text("the turn total is %(real)s, not %(declared)s", real=expected_total, declared=total)
                faults.append(Fault("RO-6.2d", wrong))
        sv.faults = faults
        if faults:
            sv.warning = faults[0]
            if len(faults) > 1:
                sv.notes.append(Text("one technical warning per slip (RO-6.2): the other faults cost nothing"))

    # --- exclusive variants ---------------------------------------------------------------------------------

    def _exclusive_turn_end(self, turn: int, sv: SlipVerdict) -> None:
        if self.setup.settings.variant != "endurance":
            return
        scrabble = any(v.on_board and v.group != 1 and len(v.new) == GROUP_SIZE for v in sv.placements)
        if not scrabble:
            self.result.dropped_out = turn
            self.stopped = Text("dropped out in turn %(turn)s: no scrabble placed (RO-8.2)", turn=turn)
            sv.notes.append(self.stopped)

    # --- the end --------------------------------------------------------------------------------------------

    def finish(self) -> PlayerResult:
        r = self.result
        r.board = self.board
        if self.stock is not None:
            r.vowels_left = {
                self.alpha.label(t): n for t, n in enumerate(self.stock) if self.alpha.is_vowel(t)
            }
        every = r.verdicts()
        # RO-6.3: the penalty is capped by the value of the placement and of the later ones formed with its
        # help
        for v in every:
            if not v.penalty_rule:
                continue
            dependents = self._dependents(v.pid)
            cap = v.points + sum(d.points for d in self.alive if d.pid in dependents)
            v.penalty = min(PENALTY, cap)
            if v.penalty < PENALTY:
                names = (
                    joined([Text("turn %(turn)s", turn=t) for t, _ in sorted(dependents)], ", ")
                    if dependents
                    else Text("none")
                )
                v.notes.append(
                    Text(
                        "penalty capped at %(penalty)s: the placement is worth %(points)s, the later placements "
                        "formed with its help (%(turns)s) %(later)s (RO-6.3)",
                        penalty=v.penalty,
                        points=v.points,
                        turns=names,
                        later=cap - v.points,
                    )
                )
        for d in self.decisions:
            if d.target == "penalty":
                for v in every:
                    if v.turn == d.turn and (d.index is None or v.index == d.index) and v.penalty_rule:
                        v.original = v.original or v.summary() | {"penalty": v.penalty}
                        v.penalty = 0 if d.action == "cancel" else max(0, int(d.points or 0))
                        v.decisions.append(d.seq)
                        v.notes.append(
                            Text(
                                "penalty set to %(penalty)s by decision #%(seq)s (%(by)s): %(reason)s (RO-6.5)",
                                penalty=v.penalty,
                                seq=d.seq,
                                by=Text(d.by),
                                reason=d.reason,
                            )
                        )
        # RO-6.2: one warning per slip, the first three free
        count = 0
        for turn in sorted(r.slips):
            sv = r.slips[turn]
            cancel = [d for d in self.decisions if d.target == "warning" and d.turn == turn]
            if sv.warning and cancel:
                sv.decisions = [d.seq for d in cancel]
                sv.notes.append(
                    Text(
                        "technical warning (%(rule)s) withdrawn by decision #%(seq)s (%(by)s): %(reason)s (RO-6.5)",
                        rule=sv.warning.rule,
                        seq=cancel[-1].seq,
                        by=Text(cancel[-1].by),
                        reason=cancel[-1].reason,
                    )
                )
                sv.warning = None
            if sv.warning:
                count += 1
                sv.warning_number = count
                sv.warning_cost = WARNING_COST if count > FREE_WARNINGS else 0
        for d in self.decisions:
            if d.target == "total":
                r.adjustments.append(
                    {"seq": d.seq, "points": int(d.points or 0), "reason": d.reason, "by": d.by}
                )
        r.placement_points = sum(v.points for v in self.alive)
        r.penalties = sum(v.penalty for v in every)
        r.warning_costs = sum(sv.warning_cost for sv in r.slips.values())
        r.total = (
            r.placement_points
            - r.penalties
            - r.warning_costs
            - r.disciplinary
            + sum(a["points"] for a in r.adjustments)
        )
        return r

    def _dependents(self, pid: tuple[int, int]) -> set[tuple[int, int]]:
        """Later placements formed with the help of ``pid``, directly or through one another."""
        found: set[tuple[int, int]] = set()
        frontier = {pid}
        while frontier:
            nxt = {v.pid for v in self.alive if v.depends & frontier and v.pid not in found and v.pid != pid}
            found |= nxt
            frontier = nxt
        return found


def _prefer(verdicts: list[Verdict]) -> Verdict:
    """Of a placement judged against each possible group (turn 1, one placement), the one that stands."""
    rank = {"valid": 0, "corrected": 1}

    def key(v: Verdict) -> tuple[int, int, int]:
        standing = rank.get(v.status, 2)
        # a valid placement with group 1 rather than the 7-letter group; an invalid one with the 7-letter
        # group
        return (standing, int(v.foreign), (v.group or 0) if standing < 2 else -(v.group or 0))

    return min(verdicts, key=key)


def _same_number(written: str, number: int) -> bool:
    return written.strip() == str(number) or ascii_number(written) == number


def _int(text: str) -> int | None:
    """A number as written (a sign allowed, ASCII digits only), None when it is none."""
    try:
        return parse_signed(text, "number")
    except InputError:
        return None


# --- the whole game -----------------------------------------------------------------------------------------


@dataclass
class SlipEntry:
    """A slip as the journal holds it: the event's seq, and earlier entries it replaces."""

    seq: int | None
    slip: Slip
    replaces: list[int] = field(default_factory=list)


class Correction:
    """Every player's correction, advanced turn by turn (the bench times one turn of it)."""

    def __init__(
        self,
        setup: Setup,
        players: Iterable[str],
        decisions: Sequence[Decision] = (),
        sanctions: Sequence[Sanction] = (),
    ) -> None:
        self.setup = setup
        self.players: dict[str, PlayerCorrection] = {}
        by_player: dict[str, list[Decision]] = {}
        for d in decisions:
            by_player.setdefault(d.player, []).append(d)
        sanctioned: dict[str, list[Sanction]] = {}
        for s in sanctions:
            sanctioned.setdefault(s.player, []).append(s)
        for p in players:
            self.players[p] = PlayerCorrection(setup, p, by_player.get(p, []), sanctioned.get(p, []))

    def correct_turn(self, turn: int, entries: dict[str, SlipEntry]) -> dict[str, SlipVerdict]:
        out = {}
        for player, pc in self.players.items():
            entry = entries.get(player)
            if entry is None:
                out[player] = pc.correct_turn(turn, None)
            else:
                out[player] = pc.correct_turn(turn, entry.slip, entry.seq, entry.replaces)
        return out

    def add_unattributed(self, player: str, entry: SlipEntry) -> None:
        pc = self.players[player]
        slip = entry.slip
        reason = (
            Text(
                "the slip cannot be placed in a turn: turn %(turn)s does not exist (turns are 1 to %(last)s)",
                turn=repr(slip.written_turn.strip()),
                last=TURNS,
            )
            if slip.written_turn.strip()
            else Text("the slip has no turn number and was not entered with the turn it was collected in (RO-6.2b)")
        )
        sv = SlipVerdict(None, entry.seq, "void", Text("%(why)s: not corrected; re-enter it with --turn", why=reason))
        rule = "RO-5.3" if slip.written_turn.strip() else "RO-6.2b"
        sv.placements = [pc._void(0, i, r, rule, sv.reason) for i, r in enumerate(slip.placements(), 1)]
        pc.result.unattributed.append(sv)

    def finish(self) -> dict[str, PlayerResult]:
        return {p: pc.finish() for p, pc in self.players.items()}
