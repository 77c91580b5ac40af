"""The one countdown of both formats: an anticipation timer (RO-4.3) and a duplicate move's clock (FISE-5,
GR-5C) are the same thing, folded from ``clock`` events (start, pause, resume at the server's time).

No timer runs in any process: every page, worker or restarted server folds the same events and computes the
same time left at the time it is asked about.

>>> c = Countdown("turn 1", 480)
>>> c.apply("start", 100.0); c.remaining(160.0), c.over(580.0)
(420.0, True)
>>> c.why_not("start")
'the turn 1 timer is running: it cannot start'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arbitru.errors import ArbitruError
from arbitru.messages import Text, recognised

CLOCK_ACTIONS = ("start", "pause", "resume", "stop")
#: the states each action needs; ``stop`` ends the time early (a trainee done, every slip in)
_NEEDS = {"start": ("idle",), "pause": ("running",), "resume": ("paused",), "stop": ("running", "paused")}
#: the timers' names with a number (a timer's name is a message, said in the page's language)
_NAMES = ("turn %(n)s", "move %(n)s")
#: why an action does not fit a clock's state, a message for each pair (said in the page's language)
_REFUSED: dict[tuple[str, str], Callable[[Text], Text]] = {
    ("start", "running"): lambda clock: Text("%(clock)s is running: it cannot start", clock=clock),
    ("start", "paused"): lambda clock: Text("%(clock)s is paused: it cannot start", clock=clock),
    ("start", "stopped"): lambda clock: Text("%(clock)s is stopped: it cannot start", clock=clock),
    ("pause", "idle"): lambda clock: Text("%(clock)s is idle: it cannot pause", clock=clock),
    ("pause", "paused"): lambda clock: Text("%(clock)s is paused: it cannot pause", clock=clock),
    ("pause", "stopped"): lambda clock: Text("%(clock)s is stopped: it cannot pause", clock=clock),
    ("resume", "idle"): lambda clock: Text("%(clock)s is idle: it cannot resume", clock=clock),
    ("resume", "running"): lambda clock: Text("%(clock)s is running: it cannot resume", clock=clock),
    ("resume", "stopped"): lambda clock: Text("%(clock)s is stopped: it cannot resume", clock=clock),
    ("stop", "idle"): lambda clock: Text("%(clock)s is idle: it cannot stop", clock=clock),
    ("stop", "stopped"): lambda clock: Text("%(clock)s is stopped: it cannot stop", clock=clock),
}


def refused(action: str, state: str, clock: Text) -> Text:
    """Why ``clock`` (a timer, a move's clock) cannot ``action`` in ``state``."""
    return _REFUSED[action, state](clock)


def unknown_action(action: str) -> Text:
    """The refusal of an action no countdown has (:data:`CLOCK_ACTIONS`), as a page says it in its language."""
    return Text("%(action)s is not something a clock does: it starts, pauses, resumes or stops", action=repr(action))


class ClockError(ArbitruError):
    """A clock action that does not fit the countdown's state (start twice, pause a paused clock...)."""


@dataclass
class Countdown:
    """One countdown: idle, running or paused; time left at any server time."""

    name: str = ""
    seconds: int = 0
    state: str = "idle"  # idle | running | paused | stopped
    used: float = 0.0  # seconds run before ``since`` (the pauses apart)
    since: float | None = None  # server time of the last start or resume (None while idle or paused)

    def elapsed(self, now: float) -> float:
        return self.used + (now - self.since if self.since is not None else 0.0)

    def remaining(self, now: float) -> float:
        return max(0.0, self.seconds - self.elapsed(now)) if self.state != "idle" else float(self.seconds)

    def over(self, now: float) -> bool:
        """The time is up: a slip handed in now is late (RO-4.3, FISE-5, GR-5C)."""
        return self.state == "stopped" or (self.state != "idle" and self.elapsed(now) >= self.seconds)

    def running(self, now: float) -> bool:
        """Started and with time left (running or paused): the players are still thinking."""
        return self.state != "idle" and not self.over(now)

    def why_not(self, action: str) -> str | None:
        """Why ``action`` does not fit the state (None when it does)."""
        if action not in _NEEDS:
            return f"clock action {action!r}; known: {', '.join(CLOCK_ACTIONS)}"
        if self.state not in _NEEDS[action]:
            return refused(action, self.state, Text("the %(timer)s timer", timer=recognised(self.name, _NAMES)))
        return None

    def apply(self, action: str, at: float) -> None:
        """:raises ClockError: for an action the state does not allow."""
        problem = self.why_not(action)
        if problem:
            raise ClockError(problem)
        if action in ("pause", "stop"):
            self.used, self.since = self.elapsed(at), None
            self.state = "paused" if action == "pause" else "stopped"
        else:
            self.since, self.state = at, "running"
