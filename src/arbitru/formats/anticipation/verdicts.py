"""The verdict records of a correction: one placement (:class:`Verdict`), one slip (:class:`SlipVerdict`), one
player's whole game (:class:`PlayerResult`), and the arbiters' decisions and sanctions applied on top (RO-6.4,
RO-6.5, RO-7.1).

Records only: they are filled in by :mod:`~arbitru.formats.anticipation.correction` and read by the ranking, the
forms, the CLI and the journal's replay. Every verdict carries a rule ID and a reason in plain English an arbiter
can read out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arbitru.engine.board import Board
from arbitru.engine.notation import Coordinate
from arbitru.formats import payload
from arbitru.formats.anticipation.variants import TURNS

#: what a verdict's summary shows: the judgement, without what was written or the bookkeeping
_SUMMARY_KEYS = ("status", "rule", "reason", "position", "word", "score", "points", "penalty_rule")


@dataclass
class Verdict:
    """The judgement of one placement written on a slip."""

    turn: int
    index: int
    line: int | None
    written_position: str
    written_word: str
    written_score: str
    group: int | None
    status: str  # valid | corrected | invalid | cancelled | void
    rule: str
    reason: str
    position: str | None = None
    word: str | None = None
    score: int = 0  # when it was played
    points: int = 0  # now (after cancellations and rescoring)
    penalty: int = 0  # RO-6.3, after the cap
    penalty_rule: str = ""
    unmarked_blanks: int = 0
    notes: list[str] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    original: dict[str, Any] | None = None
    # the placement on the board
    coord: Coordinate | None = None
    tiles: tuple[int, ...] = ()
    new: list[tuple[int, int]] = field(default_factory=list)
    depends: set[tuple[int, int]] = field(default_factory=set)
    vowels: list[int] = field(default_factory=list)
    foreign: bool = False  # judged invalid partly because of letters not from the group

    @property
    def pid(self) -> tuple[int, int]:
        return (self.turn, self.index)

    @property
    def on_board(self) -> bool:
        return self.status in ("valid", "corrected")

    @property
    def penalised(self) -> bool:
        return self.status == "corrected" and self.penalty_rule != ""

    def summary(self) -> dict[str, Any]:
        """The verdict alone: what :meth:`to_dict` says, less what was written and the bookkeeping."""
        full = self.to_dict()
        return {key: full[key] for key in _SUMMARY_KEYS}

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "index": self.index,
            "line": self.line,
            "group": self.group,
            "written": {
                "position": self.written_position,
                "word": self.written_word,
                "score": self.written_score,
            },
            "status": self.status,
            "rule": self.rule,
            "reason": self.reason,
            "position": self.position,
            "word": self.word,
            "score": self.score,
            "points": self.points,
            "penalty": self.penalty,
            "penalty_rule": self.penalty_rule,
            "unmarked_blanks": self.unmarked_blanks,
            "notes": list(self.notes),
            "decisions": list(self.decisions),
            "original": self.original,
        }


@dataclass
class Fault:
    """A technical fault on a slip (RO-6.2): only the first one of a slip becomes its warning."""

    rule: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}


@dataclass
class SlipVerdict:
    """The judgement of one slip: its placements, its technical warning, its notes."""

    turn: int | None
    seq: int | None
    status: str = "corrected"  # corrected | missing | void
    reason: str = ""
    placements: list[Verdict] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    warning: Fault | None = None
    warning_number: int = 0  # 1-based count of the player's technical warnings
    warning_cost: int = 0
    cancellations: list[dict[str, Any]] = field(default_factory=list)
    verifications: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    passed: bool = False
    replaces: list[int] = field(default_factory=list)
    written_total: str = ""
    decisions: list[int] = field(default_factory=list)

    @property
    def points(self) -> int:
        return sum(v.points for v in self.placements if v.on_board)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "seq": self.seq,
            "status": self.status,
            "reason": self.reason,
            "placements": [v.to_dict() for v in self.placements],
            "points": self.points,
            "written_total": self.written_total,
            "faults": [f.to_dict() for f in self.faults],
            "warning": self.warning.to_dict() if self.warning else None,
            "warning_number": self.warning_number,
            "warning_cost": self.warning_cost,
            "cancellations": self.cancellations,
            "verifications": self.verifications,
            "notes": self.notes,
            "passed": self.passed,
            "replaces": self.replaces,
            "decisions": self.decisions,
        }


@dataclass(frozen=True)
class Decision:
    """A contest or appeal decision (RO-6.5), applied on top of the correction; the old verdict stays."""

    seq: int
    player: str
    target: str  # placement | warning | penalty | discipline | total | late
    action: str
    reason: str
    by: str = "chief arbiter"
    turn: int | None = None
    index: int | None = None
    position: str | None = None
    word: str | None = None
    points: int | None = None
    event: int | None = None

    @classmethod
    def from_payload(cls, seq: int, data: Mapping[str, Any]) -> Decision:
        """:raises PayloadError: for a field of the wrong type."""
        return cls(
            seq,
            payload.text(data, "player"),
            payload.text(data, "target"),
            payload.text(data, "action"),
            payload.text(data, "reason"),
            payload.text(data, "by", "chief arbiter"),
            payload.optional_integer(data, "turn", low=1, high=TURNS),
            payload.optional_integer(data, "index", low=1, high=2),
            payload.optional_text(data, "position"),
            payload.optional_text(data, "word"),
            payload.optional_integer(data, "points"),
            payload.optional_integer(data, "event", low=1),
        )


@dataclass(frozen=True)
class Sanction:
    """A disciplinary warning (RO-6.4) or an elimination for cheating (RO-7.1), as recorded."""

    seq: int
    player: str
    kind: str  # disciplinary | cheating
    reason: str
    turn: int | None = None  # the turn it was given in, when the arbiter said
    after: int = 0  # the player's last turn with a slip in the journal when it was stored (when no turn is said)


@dataclass
class PlayerResult:
    """A player's whole correction: every slip, warnings, penalties, sanctions, total."""

    player: str
    table: int | None
    slips: dict[int, SlipVerdict] = field(default_factory=dict)
    unattributed: list[SlipVerdict] = field(default_factory=list)
    sanctions: list[dict[str, Any]] = field(default_factory=list)
    adjustments: list[dict[str, Any]] = field(default_factory=list)
    eliminated: str = ""
    dropped_out: int | None = None  # RO-8.2: the turn the player could not place a scrabble
    placement_points: int = 0
    penalties: int = 0
    warning_costs: int = 0
    disciplinary: int = 0
    total: int = 0
    place: int | None = None
    board: Board | None = None
    vowels_left: dict[str, int] | None = None  # RO-8.1: the player's vowel stock at the end

    def verdicts(self) -> list[Verdict]:
        return [v for t in sorted(self.slips) for v in self.slips[t].placements]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "table": self.table,
            "place": self.place,
            "total": self.total,
            "placement_points": self.placement_points,
            "penalties": self.penalties,
            "warning_costs": self.warning_costs,
            "technical_warnings": sum(1 for s in self.slips.values() if s.warning),
            "disciplinary": self.disciplinary,
            "adjustments": self.adjustments,
            "eliminated": self.eliminated,
            "dropped_out": self.dropped_out,
            "sanctions": self.sanctions,
            "turns": [self.slips[t].to_dict() for t in sorted(self.slips)],
            "unattributed": [s.to_dict() for s in self.unattributed],
            "board": self.board.to_text() if self.board is not None else None,
            "vowels_left": self.vowels_left,
        }
