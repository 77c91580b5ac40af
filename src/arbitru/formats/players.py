"""Who an action is about, in both formats: a seated player's number, or a name that matches exactly one seated
player. Anything else is refused with the seating at hand, so that a warning, a decision or a withdrawal is never
stored for someone who does not play (a name typed where the number goes, a number nobody has)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbitru.errors import ArbitruError

#: how many seats a refusal lists (a hall of 150 players is not printed whole on one line)
LISTED = 20


class PlayerError(ArbitruError):
    """No seated player, or more than one, answers to what was given."""


@dataclass(frozen=True)
class Seat:
    """A seated player: ``number`` as the game knows him, his ``name`` and ``table`` (either may be empty)."""

    number: str
    name: str = ""
    table: str = ""

    def label(self) -> str:
        name = f" {self.name}" if self.name and self.name != self.number else ""
        table = f" (table {self.table})" if self.table else ""
        return f"{self.number}{name}{table}"


def seating_text(seats: Sequence[Seat]) -> str:
    listed = ", ".join(s.label() for s in seats[:LISTED])
    more = f", … and {len(seats) - LISTED} more" if len(seats) > LISTED else ""
    return f"seated: {listed}{more}" if seats else "nobody is seated"


def resolve(who: str, seats: Sequence[Seat]) -> Seat:
    """The seat ``who`` names: a number exactly, else a name (case and outer spaces apart) of one player.

    :raises PlayerError: naming the seating when nobody, or more than one, answers.
    """
    text = who.strip()
    for seat in seats:
        if seat.number == text:
            return seat
    key = " ".join(text.split()).casefold()
    named = [s for s in seats if s.name and " ".join(s.name.split()).casefold() == key]
    if len(named) == 1:
        return named[0]
    if named:
        raise PlayerError(f"{who!r} is the name of {len(named)} seated players: give the number; {seating_text(named)}")
    raise PlayerError(f"no player {text or '(none)'} in this game; {seating_text(seats)}")
