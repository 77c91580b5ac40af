"""The order of a duplicate move as a state machine (FISE-5, FISE-7, FISE-16, GR-5C): rack → clock → close.

:func:`move_order` reads it from the game's state at a server time; the console, the CLI and the library ask
:meth:`MoveOrder.why_not` what is allowed, and a refusal names its rule.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from arbitru.formats.countdown import Countdown, refused
from arbitru.formats.refusal import Refusal
from arbitru.messages import Text


def move_clock(move: int) -> Text:
    """A move's clock, as a refusal names it."""
    return Text("the clock of move %(move)s", move=move)


class Phase(enum.Enum):
    RACK_DUE = "rack due"  # the next rack is drawn now (FISE-7)
    CLOCK_DUE = "clock due"  # the rack is on the stand: the clock is next (FISE-5)
    PLAY = "play"  # the clock runs: the players think (FISE-5, GR-5C)
    TIME_UP = "time up"  # "Time!": slips are collected, the master move closes the move (FISE-5)
    OVER = "over"


class Action(enum.Enum):
    DRAW = "draw"  # the next move's rack
    NEW_RACK = "new rack"  # FISE-16: nobody found a valid move on the rack on the stand
    START_CLOCK = "start clock"
    PAUSE_CLOCK = "pause or resume the clock"
    CLOSE = "close"  # the master move
    HAND_IN = "hand in"


@dataclass(frozen=True)
class MoveOrder:
    """A duplicate game's state at the server time ``now``: ``stage`` is the game's ``over``, ``play`` or
    ``rack``, ``move`` the last move opened, ``clock`` its clock, ``time_rule`` FISE-5 or GR-5C."""

    stage: str
    move: int
    clock: Countdown
    now: float
    time_rule: str = "FISE-5"

    @property
    def phase(self) -> Phase:
        if self.stage == "over":
            return Phase.OVER
        if self.stage == "rack":
            return Phase.RACK_DUE
        if self.clock.state == "idle":
            return Phase.CLOCK_DUE
        return Phase.PLAY if self.clock.running(self.now) else Phase.TIME_UP

    def why_not(self, action: Action) -> Refusal | None:
        """Why ``action`` is not allowed now (None when it is)."""
        phase = self.phase
        if phase is Phase.OVER:
            return Refusal("FISE-13", Text("the game is over"))
        if action is Action.DRAW:
            if phase is not Phase.RACK_DUE:
                return Refusal("FISE-7", Text("move %(move)s has its rack already: place its master move first",
                                              move=self.move))
            return None
        if phase is Phase.RACK_DUE:
            return Refusal("FISE-7", Text("no rack is on the stand: draw one first"))
        if action is Action.NEW_RACK and phase is Phase.PLAY:
            return Refusal(
                "FISE-16", Text("a new rack replaces one nobody found a valid move on: after the time (%(rule)s)",
                                rule=self.time_rule)
            )
        if action is Action.START_CLOCK and phase is not Phase.CLOCK_DUE:
            return Refusal(self.time_rule, refused("start", self.clock.state, move_clock(self.move)))
        return None
