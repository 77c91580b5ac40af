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


# --- what may change in a move's slips, and how (FISE-5, FISE-8, FISE-17, GR-5D) ------------------------------


class Window(enum.Enum):
    """How a move's slips may change now.

    open → typing → decided: while the move is open slips are handed in (phones, desks; late by the clock); once
    its master move is placed the paper slips collected at time may still be typed (FISE-8: the clerks type move
    N's slips while move N+1 is played) until the arbiter closes the collection of that move; after that, and once
    the game is over (its results final), every change is the arbiter's decision with a reason (FISE-17, GR-5D)."""

    UNSEEN = "unseen"  # the move's rack was not shown yet: no slip for it can exist
    OPEN = "open"  # the rack is on the stand: slips are handed in
    TYPING = "typing"  # closed: the paper slips collected at time are being typed
    DECIDED = "decided"  # the collection is closed or the game over: a change is a decision


class SlipAction(enum.Enum):
    HAND_IN = "hand in"  # a phone's slip, as it arrives
    TYPE = "type"  # a paper slip typed by a desk (or the CLI)
    REPLACE = "replace"  # a paper slip typed over one stored for the move (a desk, the CLI)
    DECIDE = "decide"  # the arbiter's decision on a closed move's slip, with its reason
    CLOSE_COLLECTION = "close the collection"


@dataclass(frozen=True)
class SlipOrder:
    """Move ``move``'s slips in a game whose last opened move is ``opened``: ``closed``: its master move is placed;
    ``collected``: the moves whose collection the arbiter closed (1 to it); ``over``: the game is over."""

    move: int
    opened: int
    closed: bool
    collected: int
    over: bool

    @property
    def window(self) -> Window:
        if not 1 <= self.move <= self.opened:
            return Window.UNSEEN
        if self.over or self.move <= self.collected:
            return Window.DECIDED
        return Window.TYPING if self.closed else Window.OPEN

    def why_not(self, action: SlipAction, actor: str = "") -> Refusal | None:
        """Why ``action`` on this move's slips is not allowed now (None when it is); ``actor`` as the journal
        names him (``desk:NAME`` is a desk clerk)."""
        window = self.window
        if window is Window.UNSEEN:
            if self.move < 1:
                return Refusal("FISE-6", Text("a slip names its move: 1 or more"))
            if not self.opened:
                return Refusal("FISE-8", Text("no move is open yet: no slip can be written"))
            return Refusal("FISE-8", Text("the rack of move %(move)s has not been shown yet: no slip can be written "
                                          "for it (moves open: 1–%(opened)s)", move=self.move, opened=self.opened))
        if action is SlipAction.DECIDE:
            if actor.startswith("desk:"):
                return Refusal("FISE-17", Text("a change to a closed move is the arbiter's decision: a desk cannot "
                                               "make it"))
            if window is Window.OPEN:
                return Refusal("FISE-17", Text("move %(move)s is open: its slips are still handed in, no decision "
                                               "is needed", move=self.move))
            return None
        if action is SlipAction.CLOSE_COLLECTION:
            if self.over:
                return Refusal("FISE-13", Text("the game is over"))
            if window is Window.OPEN:
                return Refusal("FISE-5", Text("move %(move)s is open: place its master move first", move=self.move))
            if window is Window.DECIDED:
                return Refusal("FISE-17", Text("the collection of move %(move)s is closed already", move=self.move))
            return None
        if action is SlipAction.REPLACE and window is Window.TYPING:
            # the move is closed: its stored slip is judged and shown; a result changes only by a decision
            return Refusal("FISE-17", Text("move %(move)s is closed: a slip stored for it changes only by the "
                                           "arbiter's decision with a reason, on the console's Claims and "
                                           "corrections card", move=self.move))
        if window is Window.DECIDED:
            if self.over:
                return Refusal("FISE-17", Text("the game is over: its results are final, a change to move %(move)s "
                                               "is the arbiter's decision with a reason", move=self.move))
            return Refusal("FISE-17", Text("the collection of move %(move)s is closed: a change is the arbiter's "
                                           "decision with a reason", move=self.move))
        return None


def collecting(opened: int, collected: int, over: bool) -> int | None:
    """The move whose slips are being collected and typed now: the first closed move whose collection is still
    open, else the open move; None when there is none (no rack yet, every collection closed, the game over)."""
    if over:
        return None
    move = collected + 1
    return move if move <= opened else None
