"""What the referee says and when, as data a screen or a voice can play (FISE-3, FISE-5, FISE-7, FISE-8,
GR-5A, GR-5C).

After the master move (FISE-8): the leave in alphabetical order, then the new tiles (in the order they were
drawn, or vowels first then consonants), slowly, each by the spelling table of the tile set; then the whole
rack again, faster; then the start word (FISE-8: "tiempo"; "start" in a Romanian hall) starts the clock. The
clock announces the time left at the rule set's warnings (FISE-5: 1 minute and 30 seconds; GR-5C: 30 seconds)
and "time" at the end.

>>> from arbitru.engine.tiles import alphabet
>>> from arbitru.formats.duplicate.rulesets import ruleset
>>> ro = alphabet("ro")
>>> a = rack_announcement(ro, 2, ro.split("TA"), ro.split("EIRS"), ruleset("romanian"))
>>> print(a.script())
move 2: leave: ANA, TUDOR
move 2: new tiles: ELENA, ION, RADU, SANDU
move 2: rack: ANA, ELENA, ION, RADU, SANDU, TUDOR
[0:00] start
[2:00] 1 minute left
[2:30] 30 seconds left
[3:00] time
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from arbitru.engine.tiles import Alphabet
from arbitru.formats.duplicate.racks import sort_tiles
from arbitru.formats.duplicate.rulesets import RuleSet, cited
from arbitru.messages import Plural, Text

NEW_ORDERS = ("draw", "vowels-first")


@dataclass(frozen=True)
class Cue:
    """One thing to show or say. ``at`` is seconds after the clock starts (None: said before it starts, in
    order); ``pace`` is ``slow`` (letters one by one) or ``fast``; ``tiles`` are the labels spoken."""

    kind: str
    text: str
    at: int | None = None
    pace: str = ""
    tiles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Announcement:
    move: int
    cues: tuple[Cue, ...] = field(default_factory=tuple)

    def script(self) -> str:
        """The announcement as lines of text: timed cues carry ``[m:ss]``."""
        lines = []
        for c in self.cues:
            if c.at is None:
                lines.append(f"move {self.move}: {c.text}")
            else:
                lines.append(f"[{c.at // 60}:{c.at % 60:02d}] {c.text}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "cues": [asdict(c) for c in self.cues]}


def spell(alpha: Alphabet, tiles: Sequence[int]) -> str:
    """Tiles by the spelling table (RO Annex 2 for Romanian; letter names elsewhere)."""
    return ", ".join(alpha.spelling(t) for t in tiles)


def clock_schedule(rules: RuleSet) -> list[Cue]:
    """The clock of one move: start, each warning of time left, time (FISE-5, GR-5C)."""
    seconds = rules.clock.seconds
    cues = [Cue("clock-start", Text(rules.clock.start_word), at=0)]  # "tiempo", "start": words of the catalogs
    for left in sorted(rules.clock.warnings, reverse=True):
        text = (
            (Text("1 minute left") if left == 60 else Text("%(n)s minutes left", n=left // 60))
            if left % 60 == 0
            else Text("%(n)s seconds left", n=left)
        )
        cues.append(Cue("warning", text, at=seconds - left))
    cues.append(Cue("time", Text("time"), at=seconds))
    return cues


def rack_announcement(
    alpha: Alphabet,
    move: int,
    kept: Sequence[int],
    drawn: Sequence[int],
    rules: RuleSet,
    *,
    new_order: str = "draw",
    exchanges: int = 0,
    fixed: Sequence[int] = (),
) -> Announcement:
    """The announcement of the rack of ``move`` (FISE-8): ``kept`` the leave, ``drawn`` the new tiles in draw
    order, ``exchanges`` the number of whole redraws before it (FISE-10)."""
    cues: list[Cue] = []
    if exchanges:
        cues.append(
            Cue(
                "exchange",
                Plural(
                    "rack drawn again whole %(n)s time: no legal rack before (%(rules)s)",
                    "rack drawn again whole %(n)s times: no legal rack before (%(rules)s)",
                    n=exchanges,
                    rules=cited(rules, "redraw"),
                ),
            )
        )
    leave = sort_tiles([*fixed, *kept])
    if leave:
        said = Text("leave: %(tiles)s", tiles=spell(alpha, leave))
        cues.append(Cue("leave", said, pace="slow", tiles=_labels(alpha, leave)))
    new = list(drawn)
    if new_order == "vowels-first":
        new.sort(key=lambda t: not alpha.is_vowel(t))
    if new:
        said = Text("new tiles: %(tiles)s", tiles=spell(alpha, new))
        cues.append(Cue("new", said, pace="slow", tiles=_labels(alpha, new)))
    rack = sort_tiles([*fixed, *kept, *drawn])
    cues.append(Cue("rack", Text("rack: %(tiles)s", tiles=spell(alpha, rack)), pace="fast", tiles=_labels(alpha, rack)))
    cues.extend(clock_schedule(rules))
    return Announcement(move, tuple(cues))


def master_announcement(
    alpha: Alphabet,
    move: int,
    position: str,
    word: Sequence[int],
    score: int,
    *,
    ties: int = 1,
    by: str = "program",
) -> Announcement:
    """The master move: its word, position and score, the word spelled (FISE-7a), how many moves tied."""
    shown = alpha.format(word)
    text = Text("master move: %(word)s at %(position)s, %(score)s points", word=shown, position=position, score=score)
    if ties > 1:
        text = Text(
            "master move: %(word)s at %(position)s, %(score)s points (%(ties)s moves tied; chosen by %(by)s)",
            word=shown,
            position=position,
            score=score,
            ties=ties,
            by=Text(by),
        )
    cues = (
        Cue("master", text),
        Cue("spelling", Text("spelled: %(tiles)s", tiles=spell(alpha, word)), pace="slow", tiles=_labels(alpha, word)),
    )
    return Announcement(move, cues)


def _labels(alpha: Alphabet, tiles: Sequence[int]) -> tuple[str, ...]:
    return tuple(alpha.label(t) for t in tiles)
