"""What the arbiter says and shows, as timed data (RO-4.3, RO-5.2.f–h, RO-5.3, RO-5.5.b–d, RO-8.1).

The script is a list of :class:`Cue` in time order, seconds from the start of the draw's announcement. Each
group is
announced by its number, then its letters (alphabetical, blanks last) by the names of the spelling table
(Annex 2),
about 2.5 s apart, and written on the projected grid; then all groups are read again quickly and the analysis
timer
starts (45 min, remaining time announced at 30, 20, 10 and 1 minutes). Each turn: the lot, the group(s), the
thinking time, "1 minute" before the end (every 2 minutes and the last minute without a visible clock),
"Stop".
The spoken texts are Romanian: they are read out in the hall.

>>> from arbitru.engine.tiles import alphabet
>>> from arbitru.formats.anticipation.draw import Draw, parse_group
>>> ro = alphabet("ro")
>>> groups = [parse_group(ro, "AL")] + [parse_group(ro, "ACEIRT?")] * 14
>>> script = announcement_script(ro, Draw(groups, "manual"))
>>> [c.text for c in script[1:4]], script[3].at - script[2].at
(['Grupa 1', 'ANA', 'LUCA'], 2.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from arbitru.engine.tiles import BLANK, Alphabet
from arbitru.formats.anticipation.draw import Draw, format_group
from arbitru.formats.anticipation.turns import ANALYSIS_MINUTES, TURN_MINUTES, TurnOrder
from arbitru.formats.anticipation.variants import TURNS
from arbitru.messages import Plural, Text, say

PACE = 2.5  # RO-5.2.f: seconds between letters
QUICK_PACE = 0.8  # RO-5.2.g: the second reading, "în ritm alert"
GROUP_GAP = 2.5
ANALYSIS_CALLS = (30, 20, 10, 1)  # RO-5.2.h, RO-5.5.b
LOT_GAP = 60.0  # between two turns: collecting slips, drawing the next lot


@dataclass(frozen=True)
class Cue:
    """A thing said or shown at ``at`` seconds; ``kind``: ``say``, ``show``, ``timer``, ``time``, ``stop``."""

    at: float
    kind: str
    text: str
    group: int | None = None
    turn: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def announced_tiles(alpha: Alphabet, tiles: Sequence[int], variant: str) -> list[int]:
    """The letters read out: all of them, or only consonants and blanks in the avocalic variant (RO-8.1)."""
    if variant == "avocalic":
        return [t for t in tiles if t == BLANK or not alpha.is_vowel(t)]
    return list(tiles)


def minutes_left(n: int) -> Text:
    return Plural("%(n)s minute left.", "%(n)s minutes left.", n=n)


def analysis_starts(minutes: int) -> Text:
    return Plural("The analysis time starts: %(n)s minute.", "The analysis time starts: %(n)s minutes.", n=minutes)


ANALYSIS_OVER = Text("Stop. The analysis time is over.")


def thinking_time(minutes: int) -> Text:
    return Plural("Thinking time: %(n)s minute.", "Thinking time: %(n)s minutes.", n=minutes)


def slips_collected(turn: int) -> Text:
    return Text("Stop. The slips of turn %(turn)s are collected.", turn=turn)


def announcement_script(
    alpha: Alphabet,
    draw: Draw,
    variant: str = "classic",
    order: TurnOrder | None = None,
    *,
    pace: float = PACE,
    quick_pace: float = QUICK_PACE,
    clock_visible: bool = True,
    lot_gap: float = LOT_GAP,
) -> list[Cue]:
    """The whole game's announcements; turns whose lot is not drawn yet name the table that will draw it."""
    cues: list[Cue] = []
    t = 0.0

    def add(
        kind: str, text: str, group: int | None = None, turn: int | None = None, step: float = 0.0
    ) -> None:
        nonlocal t
        cues.append(Cue(round(t, 1), kind, say(text, "ro"), group, turn))  # the hall's script: Romanian
        t += step

    add("say", "Începe extragerea grupelor de litere.", step=pace)
    for number, tiles in enumerate(draw.groups, 1):
        said = announced_tiles(alpha, tiles, variant)
        add("say", f"Grupa {number}", group=number, step=pace)
        for tile in said:
            add("say", alpha.spelling(tile), group=number, step=pace)
        add(
            "show",
            f"Grupa {number}: {' '.join(alpha.label(x) for x in said) or '—'}",
            group=number,
            step=GROUP_GAP,
        )
    # RO-5.2.g: the second reading, quickly, then the analysis timer starts
    add("say", "Recapitulare.", step=quick_pace)
    for number, tiles in enumerate(draw.groups, 1):
        said = announced_tiles(alpha, tiles, variant)
        names = ", ".join(alpha.spelling(x) for x in said)
        add("say", f"Grupa {number}: {names}.", group=number, step=quick_pace * (len(said) + 1))
    start = t
    add("timer", analysis_starts(ANALYSIS_MINUTES))
    for left in ANALYSIS_CALLS:
        t = start + (ANALYSIS_MINUTES - left) * 60
        add("time", minutes_left(left))
    t = start + ANALYSIS_MINUTES * 60
    add("stop", ANALYSIS_OVER, step=lot_gap)

    order = order or TurnOrder()
    for turn in range(1, TURNS + 1):
        lot = order.lots.get(turn)
        if lot is None:
            add("say", f"Turul {turn}: tragerea la sorți, masa {turn}.", turn=turn)
            add("show", f"Turul {turn}: grupa {'1 și grupa ' if turn == 1 else ''}extrasă", turn=turn)
        else:
            by = "arbitrul" if lot.drawn_by == "arbiter" else lot.drawn_by.replace("table", "masa")
            add("say", f"Turul {turn}: tragerea la sorți, {by}.", turn=turn)
            for g in order.groups_of(turn):
                said = announced_tiles(alpha, draw.groups[g - 1], variant)
                add("show", f"Turul {turn}, grupa {g}: {format_group(alpha, said)}", group=g, turn=turn)
                add("say", f"Grupa {g}: {', '.join(alpha.spelling(x) for x in said)}.", group=g, turn=turn)
        minutes = TURN_MINUTES[turn]
        begin = t
        add("timer", thinking_time(minutes), turn=turn)
        calls = (
            sorted({m for m in range(minutes - 2, 0, -2)} | {1}, reverse=True) if not clock_visible else [1]
        )
        for left in calls:
            t = begin + (minutes - left) * 60
            add("time", minutes_left(left), turn=turn)
        t = begin + minutes * 60
        add("stop", slips_collected(turn), turn=turn, step=lot_gap)
    return cues
