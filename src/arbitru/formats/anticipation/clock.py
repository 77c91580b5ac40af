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
>>> [str(q.text) for q in timer_cues("turn 3", clock_visible=True)]
['Thinking time: 7 minutes.', '1 minute left.', 'Stop. The slips of turn 3 are collected.']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from arbitru.formats.anticipation.announce import (
    ANALYSIS_CALLS,
    ANALYSIS_OVER,
    Cue,
    analysis_starts,
    minutes_left,
    slips_collected,
    thinking_time,
)
from arbitru.formats.anticipation.turns import ANALYSIS_MINUTES, TURN_MINUTES
from arbitru.formats.anticipation.variants import GROUPS, TURNS
from arbitru.formats.countdown import ClockError, Countdown
from arbitru.textinput import ascii_number

ANALYSIS = "analysis"
#: an anticipation timer is the countdown both formats share
Timer = Countdown


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
        cues = [Cue(0.0, "timer", analysis_starts(ANALYSIS_MINUTES))]
        cues += [Cue(float((total - m) * 60), "time", minutes_left(m)) for m in ANALYSIS_CALLS]
        cues.append(Cue(float(total * 60), "stop", ANALYSIS_OVER))
        return cues
    total = TURN_MINUTES[turn]
    calls = sorted({m for m in range(total - 2, 0, -2)} | {1}, reverse=True) if not clock_visible else [1]
    cues = [Cue(0.0, "timer", thinking_time(total), turn=turn)]
    cues += [Cue(float((total - m) * 60), "time", minutes_left(m), turn=turn) for m in calls]
    cues.append(Cue(float(total * 60), "stop", slips_collected(turn), turn=turn))
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
