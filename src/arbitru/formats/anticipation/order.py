"""The order of an anticipation game in the hall as a state machine (RO-4.3, RO-5.2.f–h, RO-5.3):

groups read out → analysis timer → lot → turn timer → collection → next lot … → the 14th turn collected
→ provisional results (RO-5.5.j) → contests decided (RO-6.5) → the final ranking with its ranking points.

:func:`hall_order` folds the state from the game's groups, reading, timers and lots at a server time; the
console, the CLI and the library ask it what is allowed (:meth:`HallOrder.why_not`), and a refusal names its
rule. The screen shows the timer of the current state only (:meth:`HallOrder.timer`).

After the game, what may still change a result and how (:func:`why_not_change`, RO-5.5.j, RO-6.5): while the
game is in play, slips come in (handed in, typed at a desk, read from a file); once provisional results are
published, every change is a *decision* of the chief arbiter on a contest, with its reason, kept in the journal and
itself reversible by a later decision; the provisional results themselves may be withdrawn by a decision (the game
then goes on); once the ranking is final, only its ranking points are corrected, by a decision. The publications
in force are folded by :class:`Published`; the hall's actions are refused once results are published
(:meth:`HallOrder.why_not`): a game is never left half played behind its results.

The order binds once the game keeps the hall's time (a timer was started): a game entered after the event from
paper slips, or one whose groups and lots are sent ahead (RO-4.4), has no timers and draws its lots freely.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arbitru.formats.anticipation.clock import ANALYSIS, Timer, timer_seconds, timer_turn, turn_timer
from arbitru.formats.anticipation.variants import GROUPS, TURNS
from arbitru.formats.refusal import OrderError as OrderError
from arbitru.formats.refusal import Refusal
from arbitru.messages import Text


class Phase(enum.Enum):
    """Where the game stands in the hall."""

    READING = "reading"  # the groups are being read out, or read again (RO-5.2.f–g)
    ANALYSIS_DUE = "analysis due"  # read out and read again: the analysis timer is next (RO-5.2.h)
    ANALYSIS = "analysis"  # the 45 minutes of analysis run (RO-4.3)
    LOT_DUE = "lot due"  # the next turn's lot is drawn now (RO-5.3)
    TURN_DUE = "turn due"  # the lot is drawn: the turn's timer is next (RO-4.3)
    TURN = "turn"  # the turn's thinking time runs (RO-4.3)
    COLLECTION = "collection"  # the turn's time is up: slips are collected, then the next lot (RO-5.3)
    OVER = "over"  # every turn is played
    PUBLISHED = "published"  # results are published: the game is over, whatever turns were played (RO-5.5.j)
    UNTIMED = "untimed"  # the game keeps no time: lots are drawn as the arbiter says (RO-4.4, paper)


class Action(enum.Enum):
    """What the arbiter or a player does that the order allows or not."""

    ANNOUNCE = "announce"  # read out the next group, or read them all again
    START_ANALYSIS = "start analysis"
    LOT = "lot"  # draw the next turn's lot
    ALL_LOTS = "all lots"  # every remaining lot at once (RO-4.4)
    START_TURN = "start turn"  # start the timer of the turn whose lot was drawn last
    HAND_IN = "hand in"  # a slip of the current turn


@dataclass(frozen=True)
class HallOrder:
    """The game's state in the hall at the server time ``now``."""

    blind: bool
    announced: int
    recap: bool
    timers: Mapping[str, Timer]
    lots: frozenset[int]
    now: float
    #: a training game: the trainee goes at his own pace, a lot ends the time before it
    own_pace: bool = False
    #: the stage of publication in force (:attr:`Published.stage`): once results are published, nothing is played
    stage: str = "in play"

    @property
    def turn(self) -> int:
        """The last turn whose lot is drawn (0 before the first lot)."""
        return max(self.lots, default=0)

    @property
    def timed(self) -> bool:
        """The game keeps the hall's time: some timer was started."""
        return any(t.state != "idle" for t in self.timers.values())

    def _timer(self, name: str) -> Timer:
        return self.timers.get(name) or Timer(name, timer_seconds(name))

    @property
    def read_out(self) -> bool:
        return self.blind or (self.announced >= GROUPS and self.recap)

    @property
    def phase(self) -> Phase:
        if self.stage != "in play":
            return Phase.PUBLISHED
        analysis = self._timer(ANALYSIS)
        if analysis.running(self.now):
            return Phase.ANALYSIS
        turn = self.turn
        if not self.timed:
            if turn == 0 and not self.read_out and self.announced:
                return Phase.READING
            if turn == 0 and self.read_out and self.announced:
                return Phase.ANALYSIS_DUE
            return Phase.OVER if turn == TURNS else Phase.UNTIMED
        if turn == 0:
            return Phase.LOT_DUE
        clock = self._timer(turn_timer(turn))
        if clock.state == "idle":
            return Phase.TURN_DUE
        if clock.running(self.now):
            return Phase.TURN
        return Phase.OVER if turn == TURNS else Phase.COLLECTION

    def timer(self) -> str:
        """The timer the screen shows: the analysis until the first lot, then the last lot's turn."""
        return turn_timer(self.turn) if self.turn and self.phase is not Phase.ANALYSIS else ANALYSIS

    def why_not(self, action: Action, timer: str = "") -> Refusal | None:
        """Why ``action`` is not allowed now (None when it is); ``timer`` names the timer a start is for."""
        phase = self.phase
        if phase is Phase.PUBLISHED:
            return Refusal("RO-5.5.j", Text(
                "the results are published: the game is over; a contest goes to the chief arbiter (RO-6.5)"))
        if action is Action.ANNOUNCE:
            if self.blind:
                return Refusal("RO-8.4", Text("the blind variant has no common draw to read out"))
            if self.recap:
                return Refusal("RO-5.2.h", Text("every group is read out, and read again: start the analysis timer"))
            return None
        if action is Action.START_ANALYSIS:
            if not self.read_out:
                return Refusal("RO-5.2.g-h", Text("the analysis starts after the groups are read out and read again"))
            if any(t.state != "idle" for name, t in self.timers.items() if name != ANALYSIS):
                return Refusal("RO-4.3", Text("the turns have begun: the analysis comes before the first lot"))
            return None
        if self.own_pace and action not in (Action.HAND_IN, Action.ANNOUNCE):
            return None
        if action in (Action.LOT, Action.ALL_LOTS):
            if phase is Phase.ANALYSIS:
                return Refusal("RO-4.3", Text("the analysis time still runs: the first lot is drawn after it"))
            if phase is Phase.TURN:
                return Refusal("RO-4.3", Text("the thinking time of turn %(turn)s still runs", turn=self.turn))
            if phase is Phase.TURN_DUE:
                return Refusal("RO-4.3", Text("turn %(turn)s is not played yet: start its timer first", turn=self.turn))
            if action is Action.ALL_LOTS and self.timed:  # the second lot would wait for the first one's turn
                return Refusal("RO-5.3", Text(
                    "this game keeps the hall's time: each lot is drawn in its turn; every lot at once is for a game "
                    "without timers (RO-4.4)"))
            return None
        # a turn's timer or slip: the turn's lot first (RO-5.3)
        turn = timer_turn(timer)
        if turn is None or turn not in self.lots:
            if action is Action.HAND_IN:
                return Refusal("RO-5.3", Text("the lot of turn %(turn)s is not drawn yet: its slip cannot be handed in",
                                              turn=turn))
            return Refusal("RO-5.3", Text("the lot of turn %(turn)s is not drawn yet", turn=turn))
        if action is Action.HAND_IN:
            return None
        if phase is Phase.ANALYSIS:
            return Refusal("RO-4.3", Text("the analysis time still runs"))
        before = self._timer(turn_timer(turn - 1)) if turn > 1 else None
        if before is not None and before.running(self.now):
            return Refusal("RO-4.3", Text("the thinking time of turn %(turn)s still runs", turn=turn - 1))
        return None



# --- after the game: what may change a result, and how (RO-5.5.j, RO-6.5) --------------------------------------


class Change(enum.Enum):
    """What changes a result once a turn is played."""

    SLIP = "slip"  # a slip handed in, typed at a desk or read from a file, as written
    DECISION = "decision"  # the chief arbiter's decision on a contest, with its reason (RO-6.5)
    POINTS = "points"  # the ranking points of a final ranking, corrected by a decision (RO-5.5.j)
    WITHDRAW = "withdraw"  # the provisional results withdrawn by a decision: the game goes on
    PROVISIONAL = "provisional"  # publish the provisional results
    FINAL = "final"  # publish the final ranking


def why_not_change(stage: str, change: Change) -> Refusal | None:
    """Why ``change`` is not allowed at this ``stage`` of publication (``in play``, ``provisional``, ``final``);
    None when it is. The web and the CLI ask this; the game's actions refuse with it."""
    if change is Change.SLIP:
        if stage == "in play":
            return None
        return Refusal("RO-6.5", Text(
            "the results are published: a slip changes only by a decision of the chief arbiter on a contest, with "
            "its reason"))
    if change is Change.DECISION:
        if stage == "final":
            return Refusal("RO-5.5.j", Text(
                "the ranking is final: only its ranking points may still be corrected, by a decision"))
        return None
    if change is Change.POINTS:
        if stage == "final":
            return None
        return Refusal("RO-5.5.j", Text("ranking points are given with the final ranking"))
    if change is Change.WITHDRAW:
        if stage == "provisional":
            return None
        if stage == "final":
            return Refusal("RO-5.5.j", Text("a final ranking cannot be withdrawn"))
        return Refusal("RO-5.5.j", Text("no results are published"))
    if stage == "final":
        return Refusal("RO-5.5.j", Text(
            "the ranking is final already: its ranking points are corrected by a decision"))
    if change is Change.PROVISIONAL and stage == "provisional":
        return Refusal("RO-5.5.j", Text(
            "the provisional results are published already: withdraw them by a decision, or publish the final "
            "ranking"))
    return None


@dataclass
class Published:
    """The publications in force (RO-5.5.j), folded from the journal's ``publication`` events and the decisions
    that withdraw one (``decision`` events, target ``publication``)."""

    #: the publications in force, in order (each its payload with its ``seq``)
    standing: list[dict[str, Any]] = field(default_factory=list)
    #: the publications a decision withdrew (each with ``withdrawn_by``: the decision's seq, and its ``reason``)
    withdrawn: list[dict[str, Any]] = field(default_factory=list)

    def fold(self, kind: str, seq: int, p: Mapping[str, Any]) -> None:
        """Take one event in (those of other kinds change nothing)."""
        if kind == "publication":
            self.standing.append({**p, "seq": seq})
        elif kind == "decision" and p.get("target") == "publication" and p.get("action") == "withdraw":
            kept = [x for x in self.standing if x["seq"] != p.get("event")]
            self.withdrawn += [{**x, "withdrawn_by": seq, "reason": p.get("reason", "")}
                               for x in self.standing if x["seq"] == p.get("event")]
            self.standing = kept

    @property
    def last(self) -> dict[str, Any] | None:
        return self.standing[-1] if self.standing else None

    @property
    def stage(self) -> str:
        """``in play``, ``provisional`` or ``final``."""
        last = self.last
        return str(last["stage"]) if last is not None else "in play"

    def final(self) -> int | None:
        """The seq of the final ranking, when it is published."""
        return next((int(x["seq"]) for x in self.standing if x.get("stage") == "final"), None)
