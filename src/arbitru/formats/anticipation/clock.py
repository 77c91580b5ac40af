"""The game's timers as journal events (RO-4.3, RO-5.2.h, RO-5.5.b–d): no timer runs in any process.

A ``clock`` event holds ``timer`` (``analysis`` or ``turn N``), ``action`` (start, pause, resume) and ``at``
(the server's time, seconds since the epoch). Every page, worker or restarted server folds the same events and
computes the same time left at the time it is asked about; a slip handed in after its turn's time is stored and
flagged late by that clock, never refused.

An ``announced`` event records how far the arbiter has read the draw (RO-5.2.f–g): ``group`` N (announced and
written on the projected grid), or ``recap`` (the quick second reading, after which the analysis timer starts).

>>> c = fold_timers([{"timer": "turn 1", "action": "start", "at": 100.0}])["turn 1"]
>>> c.remaining(160.0), c.over(100.0 + 8 * 60)
(420.0, True)
>>> [q.text for q in timer_cues("turn 3", clock_visible=True)]
['Timp de gândire: 7 minute.', 'Mai este 1 minut.', 'Stop. Se strâng fluturașii turului 3.']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from arbitru.errors import ArbitruError
from arbitru.formats.anticipation.announce import ANALYSIS_CALLS, Cue, minutes_left
from arbitru.formats.anticipation.turns import ANALYSIS_MINUTES, TURN_MINUTES
from arbitru.formats.anticipation.variants import GROUPS, TURNS
from arbitru.textinput import ascii_number

CLOCK_ACTIONS = ("start", "pause", "resume")
ANALYSIS = "analysis"


class ClockError(ArbitruError):
    """A clock action that does not fit the timer's state (start twice, pause a paused clock...)."""


def turn_timer(turn: int) -> str:
    return f"turn {turn}"


def timer_turn(timer: str) -> int | None:
    """The turn a timer belongs to (None for the analysis)."""
    name, _, number = timer.partition(" ")
    turn = ascii_number(number) if name == "turn" else None
    if turn is not None and 1 <= turn <= TURNS:
        return turn
    return None


def check_timer(timer: str) -> None:
    if timer != ANALYSIS and timer_turn(timer) is None:
        raise ClockError(f"no timer {timer!r}: 'analysis' or 'turn 1' to 'turn {TURNS}' (RO-4.3)")


def timer_seconds(timer: str) -> int:
    """RO-4.3: 45 minutes of analysis; each turn its own thinking time."""
    turn = timer_turn(timer)
    return ANALYSIS_MINUTES * 60 if turn is None else TURN_MINUTES[turn] * 60


@dataclass
class Timer:
    """One timer folded from its events: time left at any server time."""

    name: str
    seconds: int
    state: str = "idle"  # idle | running | paused
    used: float = 0.0  # seconds run before ``since``
    since: float | None = None  # server time of the last start or resume

    def elapsed(self, now: float) -> float:
        return self.used + (now - self.since if self.since is not None else 0.0)

    def remaining(self, now: float) -> float:
        return max(0.0, self.seconds - self.elapsed(now)) if self.state != "idle" else float(self.seconds)

    def over(self, now: float) -> bool:
        """The time is up: a slip handed in now is late."""
        return self.state != "idle" and self.elapsed(now) >= self.seconds

    def apply(self, action: str, at: float) -> None:
        """:raises ClockError: for an action the timer's state does not allow."""
        allowed = {"start": "idle", "pause": "running", "resume": "paused"}
        if action not in allowed:
            raise ClockError(f"clock action {action!r}; known: {', '.join(CLOCK_ACTIONS)}")
        if self.state != allowed[action]:
            raise ClockError(f"the {self.name} timer is {self.state}: it cannot {action}")
        if action == "pause":
            self.used, self.since = self.elapsed(at), None
            self.state = "paused"
        else:
            self.since, self.state = at, "running"


def fold_timers(payloads: Iterable[Mapping[str, Any]]) -> dict[str, Timer]:
    """Every timer's state from its ``clock`` events, in journal order."""
    timers: dict[str, Timer] = {}
    for p in payloads:
        name = str(p["timer"])
        check_timer(name)
        timer = timers.setdefault(name, Timer(name, timer_seconds(name)))
        timer.apply(str(p["action"]), float(p["at"]))
    return timers


def timer_cues(timer: str, clock_visible: bool = True) -> list[Cue]:
    """What is said during a timer, in seconds from its start (RO-5.2.h, RO-5.5.b–d)."""
    turn = timer_turn(timer)
    if turn is None:
        total = ANALYSIS_MINUTES
        cues = [Cue(0.0, "timer", f"Începe timpul de analiză: {ANALYSIS_MINUTES} de minute.")]
        cues += [Cue(float((total - m) * 60), "time", minutes_left(m)) for m in ANALYSIS_CALLS]
        cues.append(Cue(float(total * 60), "stop", "Stop. Timpul de analiză s-a încheiat."))
        return cues
    total = TURN_MINUTES[turn]
    calls = sorted({m for m in range(total - 2, 0, -2)} | {1}, reverse=True) if not clock_visible else [1]
    cues = [Cue(0.0, "timer", f"Timp de gândire: {total} minute.", turn=turn)]
    cues += [Cue(float((total - m) * 60), "time", minutes_left(m), turn=turn) for m in calls]
    cues.append(Cue(float(total * 60), "stop", f"Stop. Se strâng fluturașii turului {turn}.", turn=turn))
    return cues


def announced_groups(payloads: Iterable[Mapping[str, Any]]) -> tuple[int, bool]:
    """(how many groups are announced, whether the second reading is done), from ``announced`` events."""
    groups, recap = 0, False
    for p in payloads:
        if p.get("step") == "recap":
            recap = True
        else:
            groups = max(groups, int(p["group"]))
    return min(groups, GROUPS), recap
