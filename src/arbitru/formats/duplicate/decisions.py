"""The arbiter's decisions on closed moves (FISE-17, GR-5D): once a move's collection is closed, or the game is
over, a slip changes only by a decision (:mod:`.order`, :class:`~.order.Window`).

A ``decision`` event names the move and the player, what is decided and why:

- ``slip``: the slip as it is to be read (a claim upheld: the desk mistyped it, a slip collected at time was
  left out; a referee's error: a late flag, an illegible note); it counts from then on;
- ``void``: the slip counting is struck out: the move scores 0 for the player;
- ``reverse``: an earlier decision (``reverses``: its event) is undone: the slip that counted before it counts
  again. Only the latest decision still standing on a slip can be reversed (a later one would be undone with it).

with ``reason`` (free text, kept) and ``rule``: ``FISE-17`` (a claim during the claim period) or ``GR-5D`` (a
referee's error found later: it changes the player's score, never the board). The slip replaced stays in the
journal; the results list every decision with its effect on the move's points (:func:`effects`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from arbitru.formats import payload
from arbitru.formats.duplicate.slips import Slip
from arbitru.messages import Text

ACTIONS = ("slip", "void", "reverse")
#: the rules a decision is taken under, and what each is
RULES = {"FISE-17": Text("a claim"), "GR-5D": Text("a referee's error")}
#: the longest reason kept
MAX_REASON = 300


@dataclass
class Decision:
    """One decision as folded: ``before`` is the slip that counted until it (None: no slip), ``after`` the one
    that counts from it (None: none); ``before_seq`` the event that had stored ``before``."""

    seq: int
    move: int
    player: str
    action: str
    reason: str
    rule: str
    actor: str
    recorded: str
    before: Slip | None
    before_seq: int | None
    after: Slip | None
    reverses: int | None = None
    reversed_by: int | None = None

    @property
    def standing(self) -> bool:
        return self.reversed_by is None

    @property
    def slot(self) -> tuple[int, str]:
        return (self.move, self.player)


def read(p: Mapping[str, Any]) -> tuple[int, str, str, str, str, Slip | None, int | None]:
    """A decision's fields: move, player, action, reason, rule, the slip decided (``slip``), the decision reversed
    (``reverse``).

    :raises PayloadError: for a field of the wrong type or an unknown action or rule."""
    move = payload.integer(p, "move", low=1)
    player = payload.text(p, "player").strip()
    act = payload.text(p, "action")
    if act not in ACTIONS:
        raise payload.PayloadError(f"decision {act!r}; known: {', '.join(ACTIONS)}")
    rule = payload.text(p, "rule")
    if rule not in RULES:
        raise payload.PayloadError(f"decision under {rule!r}; known: {', '.join(RULES)}")
    slip = None
    if act == "slip":
        slip = Slip.from_payload(payload.mapping(p.get("slip"), "field 'slip'"))
        if slip.move != move or slip.player.strip() != player:
            raise payload.PayloadError("the slip decided is another move's or player's")
    reverses = payload.integer(p, "reverses", low=1) if act == "reverse" else None
    return move, player, act, payload.text(p, "reason"), rule, slip, reverses


@dataclass(frozen=True)
class Effect:
    """What a decision did to the move's points for the player (bonuses apart: they follow from every score)."""

    decision: Decision
    points_before: int
    points_after: int

    @property
    def change(self) -> int:
        return self.points_after - self.points_before


def effects(decisions: Iterable[Decision], score: Callable[[Slip], int]) -> list[Effect]:
    """Every decision, in order, with the move's points before and after it, ``score`` judging a slip as the game
    does now (a ruling on a word taken later judges both)."""

    def points(slip: Slip | None) -> int:
        return score(slip) if slip is not None else 0

    return [Effect(d, points(d.before), points(d.after)) for d in decisions]


def written(slip: Slip | None) -> str:
    """A slip as the results show it (— for none)."""
    if slip is None:
        return "—"
    parts = [slip.position, slip.word, "" if slip.score is None else str(slip.score)]
    flags = [f for f, on in (("late", slip.late), ("illegible", slip.illegible)) if on]
    return " ".join(x for x in [*parts, *flags] if x) or "—"
