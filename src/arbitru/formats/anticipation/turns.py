"""Turns and lots (RO-4.3, RO-5.3): which group is played in which turn, and the time for each.

Turn 1 plays group 1 and one 7-letter group drawn by lot; each later turn one of the remaining groups drawn by
lot,
14 turns in all. The lot of turn ``k`` is drawn by the player at table ``k``, or by the arbiter (said
publicly).
Lots drawn by the program are reproducible: the lot of turn ``k`` depends only on the game's secret (or known
seed), ``k`` and the groups left (:mod:`arbitru.formats.fairness`); it is recorded with its label.

>>> order = TurnOrder()
>>> order.draw(1, seed=3).group in range(2, 16)
True
>>> order.groups_of(1)[0]
1
>>> TURN_MINUTES[1], TURN_MINUTES[14], ANALYSIS_MINUTES
(8, 3, 45)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arbitru.errors import ArbitruError
from arbitru.formats import fairness, payload
from arbitru.formats.anticipation.variants import GROUPS, TURNS
from arbitru.messages import Text
from arbitru.textinput import is_ascii_number

#: RO-4.3: time for the analysis and for each turn, in minutes
ANALYSIS_MINUTES = 45
TURN_MINUTES = {1: 8, 2: 8, 3: 7, 4: 7, 5: 6, 6: 6, 7: 5, 8: 5, 9: 5, 10: 4, 11: 4, 12: 4, 13: 3, 14: 3}


def drawer(who: str) -> Text:
    """Who drew a lot (a :class:`Lot`'s ``drawn_by``), as a page or the CLI says it: the arbiter, or a table."""
    number = who.rsplit(" ", 1)[-1]
    if who == "arbiter":
        return Text("the arbiter")
    return Text("table %(n)s", n=number) if who.startswith("table ") and is_ascii_number(number) else Text(who)


class LotError(ArbitruError):
    """A lot that does not fit the game: a turn out of range, a group already played."""


@dataclass(frozen=True)
class Lot:
    """The group drawn for a turn, and who drew it (``table k`` or ``arbiter``); ``label`` names a lot the program
    drew (:func:`arbitru.formats.fairness.lot_label`), "" for one drawn in the hall."""

    turn: int
    group: int
    drawn_by: str
    label: str = ""

    def to_payload(self) -> dict[str, Any]:
        labelled = {"label": self.label} if self.label else {}
        return {"turn": self.turn, "group": self.group, "drawn_by": self.drawn_by} | labelled

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> Lot:
        """:raises PayloadError: for a field of the wrong type (:meth:`TurnOrder.add` checks the order)."""
        return cls(payload.integer(data, "turn"), payload.integer(data, "group"), payload.text(data, "drawn_by"),
                   payload.text(data, "label", ""))


@dataclass
class TurnOrder:
    """The lots drawn so far, turn by turn."""

    lots: dict[int, Lot] = field(default_factory=dict)

    def remaining(self) -> list[int]:
        used = {lot.group for lot in self.lots.values()}
        return [g for g in range(2, GROUPS + 1) if g not in used]

    def next_turn(self) -> int | None:
        for turn in range(1, TURNS + 1):
            if turn not in self.lots:
                return turn
        return None

    def check(self, turn: int, group: int) -> None:
        """:raises LotError: when the lot cannot be drawn (RO-5.3)."""
        if not 1 <= turn <= TURNS:
            raise LotError(f"turn {turn} does not exist: turns are 1 to {TURNS} (RO-5.3)")
        if turn in self.lots:
            raise LotError(f"turn {turn} already has its lot: group {self.lots[turn].group}")
        if turn != self.next_turn():
            raise LotError(f"the lot of turn {self.next_turn()} comes before turn {turn}")
        if not 2 <= group <= GROUPS:
            raise LotError(f"group {group} cannot be drawn: the lot is among groups 2 to {GROUPS} (RO-5.3)")
        if group not in self.remaining():
            played = next(t for t, lot in self.lots.items() if lot.group == group)
            raise LotError(f"group {group} was already played in turn {played}")

    def add(self, lot: Lot) -> None:
        self.check(lot.turn, lot.group)
        self.lots[lot.turn] = lot

    def draw(self, turn: int, seed: fairness.Source | int | str, drawn_by: str | None = None) -> Lot:
        """Draw the lot of ``turn`` from the remaining groups, reproducibly from the game's secret or seed, and
        record it."""
        left = self.remaining()
        if not left:
            raise LotError("every group has been drawn")
        label = fairness.lot_label(turn, left)
        group = fairness.source_of(seed).rng(label).choice(left)
        lot = Lot(turn, group, drawn_by or f"table {turn}", label)
        self.add(lot)
        return lot

    def groups_of(self, turn: int) -> list[int]:
        """The groups played in a turn: turn 1 is group 1 and its lot (RO-5.3); [] before the lot is drawn."""
        lot = self.lots.get(turn)
        if lot is None:
            return []
        return [1, lot.group] if turn == 1 else [lot.group]

    def turn_of_group(self, group: int) -> int | None:
        if group == 1:
            return 1 if 1 in self.lots else None
        return next((t for t, lot in self.lots.items() if lot.group == group), None)
