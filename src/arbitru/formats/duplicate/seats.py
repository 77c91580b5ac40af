"""Seats that change mid-game (FISE-18, GR-7): a late entry, a new name, a withdrawal from a chosen move and its
undo, a disqualification and the reinstatement.

The changes are journal events, each with its actor (the arbiter's; a desk never):

- ``seat`` with ``change``:

  - ``enter``: ``player``, ``name``, ``table``, ``from_move``: a latecomer plays from ``from_move``; the moves
    played before it score 0 for him (``not-entered``), nobody's bonus changes;
  - ``rename``: ``player``, ``name``: a new name (a typo, a pair's members); the old one is kept and shown;
  - ``disqualify``: ``player``, ``after_move``, ``reason``: FISE-18, a player who left his seat without telling
    the referee: 0 for every move after ``after_move`` (``disqualified``);
  - ``reinstate``: ``player``: a withdrawal or a disqualification undone: his moves count again (slips he could
    not hand in meanwhile were never stored);

- ``withdraw`` (GR-7, :meth:`Session.withdraw`): ``player``, ``after_move``.

Where a seat stands at a move is :func:`absent_at`; the phone, the API, the verdicts and the results ask it. A
player whose seat is out is told so on his phone, which refuses his slips (:class:`SeatClosed`); a desk still
types his paper slips (stored, and judged 0 for a move he did not play).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arbitru.journal.store import action
from arbitru.messages import Text
from arbitru.textinput import check_digits, check_text

if TYPE_CHECKING:
    from arbitru.formats.duplicate.game import Player, Session

# what a seat's state says (the game folds it: :mod:`.game`), said again here for the seat's readers
from arbitru.formats.duplicate.game import (
    ABSENCES,
    CHANGES,
    SeatClosed,
    absent_at,
    refusal,
    status,
)

__all__ = ["ABSENCES", "CHANGES", "SeatClosed", "absent_at", "refusal", "status"]


# --- the arbiter's actions ---------------------------------------------------------------------------------------


def _closed(s: Session) -> int:
    return sum(1 for m in s.game.moves if m.master)


def _seat(s: Session, who: str) -> Player:
    return s.game.players[s.seat(who).number]


def _after(s: Session, after_move: int | None) -> int:
    """The last move a leaving player plays: given, or the moves closed so far; never past the moves opened."""
    from arbitru.formats.duplicate.game import GameError

    after = _closed(s) if after_move is None else after_move
    if not 0 <= after <= s.game.move:
        raise GameError(Text("after move %(after)s: a move between 0 and %(last)s", after=after, last=s.game.move))
    return after


@action
def enter(s: Session, number: str, name: str, table: str = "", from_move: int | None = None, *,
          dry: bool = False) -> Player:
    """A latecomer takes a seat (RO-5.1's "late entries" in a duplicate hall): he plays from ``from_move``
    (default: the move open now, or the next one), 0 for the moves played before it."""
    from arbitru.formats.duplicate.game import GameError, Player, player_of

    if s.game.phase == "over":
        raise GameError(Text("the game is over"))
    new = player_of(number, name, table)
    if new.number in s.game.players:
        raise GameError(Text("player number %(number)s is taken: %(who)s", number=new.number,
                             who=s.game.players[new.number].label()))
    first = s.game.move if s.game.phase == "play" else s.game.move + 1
    start = first if from_move is None else from_move
    if not 1 <= start <= first:
        raise GameError(Text("from move %(move)s: a move between 1 and %(last)s", move=start, last=first))
    check_digits(new.table, "table")
    if dry:
        return Player(new.number, new.name, new.table, entered_at=start)
    s._append([("seat", {"change": "enter", "player": new.number, "name": new.name, "table": new.table,
                         "from_move": start})])
    return s.game.players[new.number]


@action
def rename(s: Session, who: str, name: str, *, dry: bool = False) -> Player:
    """A player's new name (a typo on the list); his number, slips and results stay his."""
    from arbitru.formats.duplicate.game import GameError

    seat = _seat(s, who)
    name = name.strip()
    if not name:
        raise GameError(Text("the new name"))
    check_text(name, "name")
    if name == seat.name:
        raise GameError(Text("player %(number)s is %(name)s already", number=seat.number, name=name))
    if not dry:
        s._append([("seat", {"change": "rename", "player": seat.number, "name": name})])
    return seat


@action
def withdraw(s: Session, who: str, after_move: int | None = None, *, dry: bool = False) -> Player:
    """A player leaves, telling the referee (GR-7): 0 for every move after ``after_move`` (default: the moves
    closed so far), so a slip he handed in before leaving still counts."""
    from arbitru.formats.duplicate.game import GameError

    seat = _seat(s, who)
    if seat.withdrawn_after is not None or seat.disqualified_after is not None:
        raise GameError(Text("player %(who)s has left the game already", who=seat.label()))
    after = _after(s, after_move)
    if not dry:
        s._append([("withdraw", {"player": seat.number, "after_move": after})])
    return seat


@action
def disqualify(s: Session, who: str, after_move: int | None = None, reason: str = "", *,
               dry: bool = False) -> Player:
    """FISE-18: a player who left his seat without telling the referee is disqualified: 0 for every move after
    ``after_move`` (default: the moves closed so far)."""
    from arbitru.formats.duplicate.game import GameError

    seat = _seat(s, who)
    if seat.disqualified_after is not None:
        raise GameError(Text("player %(who)s is disqualified already", who=seat.label()))
    reason = reason.strip() or "FISE-18"
    check_text(reason, "reason")
    after = _after(s, after_move)
    if not dry:
        s._append([("seat", {"change": "disqualify", "player": seat.number, "after_move": after,
                             "reason": reason})])
    return seat


@action
def reinstate(s: Session, who: str, *, dry: bool = False) -> Player:
    """A withdrawal or a disqualification undone (a mistake, a decision on appeal): the player's moves count
    again from where they stopped."""
    from arbitru.formats.duplicate.game import GameError

    seat = _seat(s, who)
    if seat.withdrawn_after is None and seat.disqualified_after is None:
        raise GameError(Text("player %(who)s is in the game", who=seat.label()))
    if not dry:
        s._append([("seat", {"change": "reinstate", "player": seat.number})])
    return seat


#: what the web's and the CLI's seat changes are called (``withdraw`` is GR-7's event, the others ``seat``)
ACTIONS = ("enter", "rename", "withdraw", "disqualify", "reinstate")


def change(s: Session, what: str, player: str, *, name: str = "", table: str = "", move: int | None = None,
           reason: str = "", dry: bool = False) -> Player:
    """One seat change by name (the web's form, the CLI): ``move`` is the late entry's first move, or the last
    move played before a withdrawal or a disqualification. ``dry``: every check, nothing stored (what a
    confirmation describes)."""
    from arbitru.formats.duplicate.game import GameError

    if what == "enter":
        return enter(s, player, name, table, move, dry=dry)
    if what == "rename":
        return rename(s, player, name, dry=dry)
    if what == "withdraw":
        return withdraw(s, player, move, dry=dry)
    if what == "disqualify":
        return disqualify(s, player, move, reason, dry=dry)
    if what == "reinstate":
        return reinstate(s, player, dry=dry)
    raise GameError(Text("a seat change: one of %(names)s", names=", ".join(ACTIONS)))


def last_played(s: Session, move: int | None) -> int:
    """The last move a leaving player plays when none is given: the moves closed so far."""
    return _closed(s) if move is None else move
