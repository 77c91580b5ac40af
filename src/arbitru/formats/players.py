"""Who an action is about, in both formats: a seated player's number, or a name that matches exactly one seated
player. Anything else is refused with the seating at hand, so that a warning, a decision or a withdrawal is never
stored for someone who does not play (a name typed where the number goes, a number nobody has)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arbitru.errors import ArbitruError
from arbitru.messages import Text, joined

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
        seat = f"{self.number} {self.name}" if self.name and self.name != self.number else self.number
        return Text("%(seat)s (table %(table)s)", seat=seat, table=self.table) if self.table else seat


def seating_text(seats: Sequence[Seat]) -> Text:
    if not seats:
        return Text("nobody is seated")
    listed = joined([s.label() for s in seats[:LISTED]], ", ")
    if len(seats) > LISTED:
        return Text("seated: %(seats)s, … and %(n)s more", seats=listed, n=len(seats) - LISTED)
    return Text("seated: %(seats)s", seats=listed)


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
        raise PlayerError(Text("%(who)s is the name of %(n)s seated players: give the number; %(seating)s",
                               who=repr(who), n=len(named), seating=seating_text(named)))
    raise PlayerError(Text("no player %(who)s in this game; %(seating)s", who=text or Text("(none)"),
                           seating=seating_text(seats)))
