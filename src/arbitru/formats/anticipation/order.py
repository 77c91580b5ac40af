"""The order of an anticipation game in the hall as a state machine (RO-4.3, RO-5.2.f–h, RO-5.3):

groups read out → analysis timer → lot → turn timer → collection → next lot … → the 14th turn collected.

:func:`hall_order` folds the state from the game's groups, reading, timers and lots at a server time; the
console, the CLI and the library ask it what is allowed (:meth:`HallOrder.why_not`), and a refusal names its
rule. The screen shows the timer of the current state only (:meth:`HallOrder.timer`).

The order binds once the game keeps the hall's time (a timer was started): a game entered after the event from
paper slips, or one whose groups and lots are sent ahead (RO-4.4), has no timers and draws its lots freely.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

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

