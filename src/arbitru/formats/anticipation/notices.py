"""What the arbiters tell the players during the next turn (RO-5.5.f, h, i), true to each slip and its group:

- RO-5.5.h: the answers to the verification requests, given first, by a discreet sign from the arbiters' table;
- RO-5.5.f: a placement that is not valid, so that the player takes it off his own grid;
- RO-5.5.i: a wrong position and its technical penalty (RO-6.3); a written position that fits the player's
  grid in more than one place; a blank not marked that could stand on more than one square — only when the
  turn's group has a blank.

Notices are sorted by table and split by arbiter, each arbiter taking a block of consecutive tables, as the
distribution announced before the game says (RO-5.5.g).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbitru.engine.tiles import BLANK
from arbitru.formats.anticipation.game import GameState
from arbitru.formats.anticipation.verdicts import Verdict
from arbitru.messages import Text


@dataclass(frozen=True)
class Notice:
    """One thing to tell one player: at ``table`` (None: not seated), by ``arbiter`` (RO-5.5.g)."""

    table: int | None
    player: str
    turn: int
    rule: str
    text: Text
    arbiter: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"table": self.table, "player": self.player, "turn": self.turn, "rule": self.rule,
                "text": str(self.text), "arbiter": self.arbiter}


def arbiter_tables(tables: Sequence[int], arbiters: Sequence[str]) -> dict[int, str]:
    """RO-5.5.g: each arbiter takes a block of consecutive tables, the blocks as even as they can be.

    >>> arbiter_tables([1, 2, 3, 4, 5], ["Ana", "Ion"])
    {1: 'Ana', 2: 'Ana', 3: 'Ana', 4: 'Ion', 5: 'Ion'}
    """
    ordered = sorted(set(tables))
    if not arbiters:
        return {}
    size, extra = divmod(len(ordered), len(arbiters))
    out: dict[int, str] = {}
    start = 0
    for i, arbiter in enumerate(arbiters):
        end = start + size + (1 if i < extra else 0)
        out.update({t: arbiter for t in ordered[start:end]})
        start = end
    return out


def _has_blank(state: GameState, player: str, v: Verdict) -> bool:
    """Whether the group the placement was played with holds a blank (blind games: the player's own group)."""
    if v.group is None:
        return False
    groups = state.draw.groups if state.draw is not None else state.blind.get(player, [])
    return 0 < v.group <= len(groups) and BLANK in groups[v.group - 1]


def _placement_notices(state: GameState, player: str, v: Verdict) -> list[tuple[str, Text]]:
    written = f"{v.written_position} {v.written_word}".strip()
    out: list[tuple[str, Text]] = []
    if v.status in ("invalid", "void"):
        out.append(("RO-5.5.f", Text("%(written)s is not valid (%(rule)s): take it off your grid", written=written,
                                     rule=v.rule)))
    elif v.penalty_rule:
        out.append(("RO-5.5.i", Text(
            "%(written)s: the position on your grid is %(position)s; technical penalty −%(n)s (%(rule)s)",
            written=written, position=v.position or "?", n=v.penalty, rule=v.penalty_rule)))
    if any("positions fit the player's board" in n for n in v.notes):
        out.append(("RO-5.5.i", Text(
            "%(written)s fits your grid in more than one place; %(position)s was taken: the arbiter checks your grid",
            written=written, position=v.position or "?")))
    if v.unmarked_blanks and _has_blank(state, player, v) and any("unmarked blank" in n for n in v.notes):
        out.append(("RO-5.5.i", Text(
            "%(written)s: the blank is not marked and may stand on more than one square: the arbiter checks your grid",
            written=written)))
    return out


def notices(state: GameState, turn: int, arbiters: Sequence[str] = ()) -> list[Notice]:
    """What to tell each player about his slip of ``turn`` during the next turn (RO-5.5.f, h, i), sorted by
    table and split by ``arbiters`` (RO-5.5.g): the verification answers first for each player."""
    by_arbiter = arbiter_tables([t for t in state.seating.values()], arbiters)
    order = {a: i for i, a in enumerate(arbiters)}
    out: list[Notice] = []
    for r in state.ranking:
        sv = r.slips.get(turn)
        if sv is None:
            continue
        who = state.names.get(r.player, r.player)
        arbiter = by_arbiter.get(r.table or 0, "")
        said: list[tuple[str, Text]] = [
            ("RO-5.5.h", Text("verification: %(answer)s", answer=ver["answer"])) for ver in sv.verifications
        ]
        for v in sv.placements:
            said.extend(_placement_notices(state, r.player, v))
        out.extend(Notice(r.table, who, turn, rule, text, arbiter) for rule, text in said)
    # a stable sort keeps each player's notices in the order said: verifications first
    out.sort(key=lambda n: (order.get(n.arbiter, len(order)), n.table if n.table is not None else 10**9))
    return out
