"""Duplicate rule sets as data: one value per game, fixed when the game is created and announced before it
starts (FISE-3: number of moves, time per move, bonuses, procedures).

Three rule sets ship, each a :class:`RuleSet` any field of which can be changed per game (:func:`ruleset` with
overrides, or :meth:`RuleSet.from_dict` on the journal's copy):

- ``fise`` — FISE duplicate: rack rule FISE-4 (fewer than 6 vowels and fewer than 6 consonants up to move 15,
  at least one of each from move 16), 3 minutes with warnings at 1 minute and 30 seconds (FISE-5), automatic
  bonuses +10/+5 (FISE-11), master-move ties in FISE-7 order, single-game tie-breaks FISE-15.
- ``greek`` — Thessaloniki rules: at least one vowel and one consonant on every rack (GR-8.2; ``min_each=2``
  gives GR-5A's "at least two"), 2–3 minutes with a 30-second warning (GR-5C), no bonuses, ties broken by the
  program's order (GR-5E), no score on the slip (GR-8.1), a blank always circled (GR-6).
- ``romanian`` — Romanian duplicate practice: at least 2 vowels and 2 consonants up to move 15, then 1 and 1;
  the rest as FISE (the practice has no written rulebook; every FISE default is a setting).

>>> r = ruleset("fise")
>>> r.racks.condition(1, (30, 60, 2)).describe()
'fewer than 6 vowels and fewer than 6 consonants'
>>> r.racks.condition(16, (30, 60, 2)).describe()
'at least 1 vowel and at least 1 consonant'
>>> ruleset("greek", seconds=150).clock.warnings
(30,)
>>> RuleSet.from_dict(ruleset("romanian").to_dict()) == ruleset("romanian")
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from arbitru.errors import ArbitruError
from arbitru.messages import Text, joined

BLANK_MODES = ("neither", "vowel", "consonant", "either")
MASTER_ORDERS = ("fise", "program")
BONUS_MODES = ("none", "automatic", "manual")
BLANK_MARKING = ("ambiguous", "always")
TIE_BREAKS = ("top-moves", "best-move", "playoff")
NOTATIONS = ("fise", "ro", "gr")
RACK_SIZE = 7


class RuleSetError(ArbitruError):
    """A rule set or a setting that cannot be used (unknown name, a value out of its range); ``field``: the
    setting it concerns (``moves``, ``seconds``, ``bonus``; ``rules``: the rule set itself), where a form that
    chose it shows the refusal."""

    def __init__(self, message: str, field: str = "rules") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Mix:
    """A condition on the vowels and consonants of a rack; ``None`` bounds are open."""

    min_vowels: int = 0
    min_consonants: int = 0
    max_vowels: int | None = None
    max_consonants: int | None = None

    def holds(self, vowels: int, consonants: int) -> bool:
        return (
            vowels >= self.min_vowels
            and consonants >= self.min_consonants
            and (self.max_vowels is None or vowels <= self.max_vowels)
            and (self.max_consonants is None or consonants <= self.max_consonants)
        )

    def describe(self) -> str:
        parts: list[str] = []
        if self.min_vowels:
            one, more = Text("at least 1 vowel"), Text("at least %(n)s vowels", n=self.min_vowels)
            parts.append(one if self.min_vowels == 1 else more)
        if self.min_consonants:
            one, more = Text("at least 1 consonant"), Text("at least %(n)s consonants", n=self.min_consonants)
            parts.append(one if self.min_consonants == 1 else more)
        if self.max_vowels is not None:
            parts.append(Text("fewer than %(n)s vowels", n=self.max_vowels + 1))
        if self.max_consonants is not None:
            parts.append(Text("fewer than %(n)s consonants", n=self.max_consonants + 1))
        return joined(parts, " and ") if parts else Text("any tiles")


@dataclass(frozen=True)
class RackRule:
    """Which racks are legal at which move (FISE-4, GR-5A, GR-8.2, Romanian practice).

    ``early`` holds for moves before ``late_from``, ``late`` from it on (``late_from=None``: the late
    condition comes only when the tiles left call for it). ``blanks`` says how a blank counts (a setting,
    docs/rules.md, default ``neither``: FISE-4 "blanks not counted"); ``either`` lets it count as whichever
    helps. Before
    ``late_from``, the late condition applies as soon as the tiles not yet on the board (bag and rack) hold
    fewer than ``pool_switch`` vowels or consonants (FISE-4's third clause: "only one left"), or the early
    condition cannot be met from them at all. When the late condition cannot be met either, no legal rack
    exists and the game ends (FISE-4 last clause, FISE-13, GR-5B, GR-8.2).
    """

    early: Mix
    late: Mix
    late_from: int | None = 16
    blanks: str = "neither"
    pool_switch: int = 2
    size: int = RACK_SIZE

    def holds(self, mix: Mix, vowels: int, consonants: int, blanks: int) -> bool:
        """Does a rack with these counts meet ``mix``, blanks counted as the rule says?"""
        if self.blanks == "vowel":
            return mix.holds(vowels + blanks, consonants)
        if self.blanks == "consonant":
            return mix.holds(vowels, consonants + blanks)
        if self.blanks == "either":
            return any(mix.holds(vowels + k, consonants + blanks - k) for k in range(blanks + 1))
        return mix.holds(vowels, consonants)

    def feasible(self, mix: Mix, pool: tuple[int, int, int], fixed: tuple[int, int, int] = (0, 0, 0)) -> bool:
        """Can a rack meeting ``mix`` be drawn whole from ``pool`` (vowels, consonants, blanks), on top of the
        ``fixed`` tiles that never go back (FISE-20's blank)? A rack holds ``size`` tiles, or all there
        are."""
        pv, pc, pb = pool
        fv, fc, fb = fixed
        k = min(self.size - (fv + fc + fb), pv + pc + pb)
        for v in range(min(pv, k) + 1):
            for c in range(min(pc, k - v) + 1):
                b = k - v - c
                if b <= pb and self.holds(mix, v + fv, c + fc, b + fb):
                    return True
        return False

    def condition(
        self, move: int, pool: tuple[int, int, int], fixed: tuple[int, int, int] = (0, 0, 0)
    ) -> Mix | None:
        """The condition a rack of ``move`` must meet, given the tiles not yet on the board: ``pool`` counts
        the bag and the rack, ``fixed`` the tiles that never go back. None when no legal rack can be formed
        (the game ends)."""
        vowels, consonants = pool[0] + fixed[0], pool[1] + fixed[1]
        if (
            (self.late_from is None or move < self.late_from)
            and min(vowels, consonants) >= self.pool_switch
            and self.feasible(self.early, pool, fixed)
        ):
            return self.early
        return self.late if self.feasible(self.late, pool, fixed) else None

    def describe(self) -> str:
        blanks = f"blanks count as {self.blanks}"
        if self.early == self.late:
            return f"{self.early.describe()}; {blanks}"
        switch = f"fewer than {self.pool_switch} vowels or consonants are left"
        if self.late_from is None:
            return f"{self.early.describe()}; {self.late.describe()} once {switch}; {blanks}"
        return (
            f"moves 1–{self.late_from - 1}: {self.early.describe()}; from move {self.late_from} "
            f"(or once {switch}): {self.late.describe()}; {blanks}"
        )


@dataclass(frozen=True)
class Clock:
    """Time per move and the announcements of time left (FISE-5, GR-5C)."""

    seconds: int = 180
    warnings: tuple[int, ...] = (60, 30)
    #: the word that starts the clock (FISE-8: "tiempo")
    start_word: str = "tiempo"


@dataclass(frozen=True)
class Bonus:
    """FISE-11 bonuses, announced before the game.

    ``automatic``: ``top`` to a player who alone matches the program's top score; when nobody matched,
    ``best`` to a player who alone has the best score among the players (and scored). ``manual``: ``manual``
    to a player who alone reached the round's maximum among the players. ``none``: no bonus (GR).
    """

    mode: str = "automatic"
    top: int = 10
    best: int = 5
    manual: int = 10


@dataclass(frozen=True)
class RuleSet:
    """Everything that differs between duplicate rulebooks, as one value stored with the game."""

    name: str
    title: str
    racks: RackRule
    clock: Clock = field(default_factory=Clock)
    bonus: Bonus = field(default_factory=Bonus)
    #: planned number of moves (FISE-3, FISE-13); None plays until no legal rack is left
    moves: int | None = None
    #: master-move ties: ``fise`` (FISE-7 criteria) or ``program`` (GR-5E, the program's listing order)
    master_order: str = "fise"
    #: slip coordinates: ``fise`` (FISE-6 ``B3`` / ``3B`` and the alternative ``H B3``), ``ro`` (``B3`` / ``3B``
    #: only) or ``gr`` (GR-4 ``A5 O`` / ``A5 K``)
    notation: str = "fise"
    #: does the slip carry the player's score (FISE-6) or not (GR-8.1)? The engine's score counts either way.
    declared_score: bool = True
    #: an unmarked blank voids the move where it is ambiguous (FISE-14) or always (GR-6)
    blank_marking: str = "ambiguous"
    #: single-game ranking after the total (FISE-15); empty: tied players share the place
    tie_breaks: tuple[str, ...] = ("top-moves", "best-move", "playoff")
    #: the 7-tile bonus (G-4)
    bingo_bonus: int = 50
    #: whole redraws of a rack the master cannot play before the game ends (FISE-13, FISE-16)
    no_move_redraws: int = 10
    #: the rule IDs this set comes from, for the settings announcement
    sources: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _validate(self)

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some settings changed (validated)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Rebuild a rule set from :meth:`to_dict` output (a journal's settings).

        :raises RuleSetError: for a missing or malformed field.
        """
        try:
            d = dict(data)
            racks = dict(d.pop("racks"))
            racks["early"] = Mix(**racks["early"])
            racks["late"] = Mix(**racks["late"])
            clock = dict(d.pop("clock"))
            clock["warnings"] = tuple(clock["warnings"])
            return cls(
                racks=RackRule(**racks),
                clock=Clock(**clock),
                bonus=Bonus(**d.pop("bonus")),
                tie_breaks=tuple(d.pop("tie_breaks")),
                sources=tuple(d.pop("sources", ())),
                **d,
            )
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, RuleSetError):
                raise
            raise RuleSetError(f"malformed rule set: {e}") from None

    def announcement(self) -> list[str]:
        """The settings the referee announces before the game (FISE-3)."""
        b = self.bonus
        if b.mode == "automatic":
            bonus = f"+{b.top} to a sole player matching the top score, else +{b.best} to a sole best player"
        elif b.mode == "manual":
            bonus = f"+{b.manual} to a sole player reaching the round's maximum"
        else:
            bonus = "none"
        warnings = ", ".join(_seconds(w) for w in self.clock.warnings)
        if self.notation == "fise":
            notation = "row first = horizontal, column first = vertical; or H/V then the start square"
        elif self.notation == "ro":
            notation = "row first = horizontal, column first = vertical"
        else:
            notation = "letter, number, then O (horizontal) or K (vertical)"
        return [
            f"Rules: {self.title}",
            f"Moves: {self.moves if self.moves else 'until no legal rack is left'}",
            f"Time per move: {_seconds(self.clock.seconds)} (announced: {warnings} left, then time)",
            f"Racks: {self.racks.describe()}",
            f"Bonuses: {bonus}",
            f"Master-move ties: {'FISE-7 order' if self.master_order == 'fise' else 'program order (GR-5E)'}",
            f"Slips: {notation}; {'score written' if self.declared_score else 'no score written'}"
            f"; blanks circled {'where ambiguous' if self.blank_marking == 'ambiguous' else 'always'}",
        ]


def _seconds(s: int) -> str:
    if s % 60 == 0:
        return f"{s // 60} min"
    return f"{s // 60} min {s % 60} s" if s > 60 else f"{s} s"


def _validate(r: RuleSet) -> None:
    def bad(msg: str) -> RuleSetError:
        return RuleSetError(f"rule set {r.name}: {msg}")

    if r.racks.blanks not in BLANK_MODES:
        raise bad(f"blanks count as {r.racks.blanks!r}; known: {', '.join(BLANK_MODES)}")
    if r.master_order not in MASTER_ORDERS:
        raise bad(f"master order {r.master_order!r}; known: {', '.join(MASTER_ORDERS)}")
    if r.bonus.mode not in BONUS_MODES:
        raise bad(f"bonus mode {r.bonus.mode!r}; known: {', '.join(BONUS_MODES)}")
    if r.blank_marking not in BLANK_MARKING:
        raise bad(f"blank marking {r.blank_marking!r}; known: {', '.join(BLANK_MARKING)}")
    if r.notation not in NOTATIONS:
        raise bad(f"notation {r.notation!r}; known: {', '.join(NOTATIONS)}")
    for t in r.tie_breaks:
        if t not in TIE_BREAKS:
            raise bad(f"tie-break {t!r}; known: {', '.join(TIE_BREAKS)}")
    # the settings a form chooses: said in its language, beside the setting (RuleSetError.field)
    if r.moves is not None and r.moves < 1:
        raise RuleSetError(Text("the number of moves must be at least 1"), "moves")
    if r.clock.seconds < 1 or any(not 0 < w < r.clock.seconds for w in r.clock.warnings):
        raise RuleSetError(Text("time per move must be positive and every warning inside it"), "seconds")
    if r.name == "greek" and not 120 <= r.clock.seconds <= 180:
        raise RuleSetError(Text("GR-5C: time per move is 2 to 3 minutes, not %(seconds)s s",
                                seconds=r.clock.seconds), "seconds")
    if r.bonus.manual not in (5, 10) and r.bonus.mode == "manual":
        raise RuleSetError(Text("FISE-11: the manual bonus is 5 or 10 points"), "bonus")
    if not 1 <= r.racks.size <= 7 or (r.racks.late_from is not None and r.racks.late_from < 1):
        raise bad("rack size is 1 to 7 and the late rule starts at move 1 or later")
    if r.no_move_redraws < 0 or r.bingo_bonus < 0:
        raise bad("counts and bonuses cannot be negative")


FISE = RuleSet(
    name="fise",
    title=Text("FISE duplicate (duplicada)"),
    racks=RackRule(early=Mix(max_vowels=5, max_consonants=5), late=Mix(min_vowels=1, min_consonants=1)),
    sources=("FISE-3", "FISE-4", "FISE-5", "FISE-7", "FISE-11", "FISE-14", "FISE-15"),
)

GREEK = RuleSet(
    name="greek",
    title=Text("Greek duplicate (Thessaloniki Scrabble Club, 2nd ed. 2019)"),
    racks=RackRule(early=Mix(min_vowels=1, min_consonants=1), late=Mix(min_vowels=1, min_consonants=1)),
    clock=Clock(seconds=180, warnings=(30,), start_word="start"),
    bonus=Bonus(mode="none"),
    master_order="program",
    notation="gr",
    declared_score=False,
    blank_marking="always",
    tie_breaks=(),
    sources=("GR-5A", "GR-5B", "GR-5C", "GR-5E", "GR-6", "GR-7", "GR-8.1", "GR-8.2"),
)

ROMANIAN = RuleSet(
    name="romanian",
    title=Text("Romanian duplicate practice"),
    racks=RackRule(early=Mix(min_vowels=2, min_consonants=2), late=Mix(min_vowels=1, min_consonants=1)),
    # the FISE clock, started with the word a Romanian hall uses (FISE-8's "tiempo" is Spanish)
    clock=Clock(seconds=180, warnings=(60, 30), start_word="start"),
    bonus=Bonus(mode="none"),
    notation="ro",
    sources=("docs/rules.md: Romanian practice", "FISE-5", "FISE-7", "FISE-14", "FISE-15"),
)

RULESETS = {r.name: r for r in (FISE, GREEK, ROMANIAN)}

#: the Romanian duplicate practice has no rulebook with article numbers: its rack rule is cited by this name
RO_PRACTICE = "Romanian practice"

_FISE_CITES: dict[str, tuple[str, ...]] = {
    # racks and the end of the game
    "redraw": ("FISE-10",),
    "no-legal-rack": ("FISE-4", "FISE-13"),
    "tiles-out": ("FISE-1", "FISE-13"),
    "no-word": ("FISE-13",),
    "planned": ("FISE-3", "FISE-13"),
    # why a slip scores 0 (the codes of :class:`~arbitru.formats.duplicate.slips.Verdict`)
    "late": ("FISE-5", "FISE-14"),
    "unsigned": ("FISE-14",),
    "unknown-player": ("FISE-14",),
    "withdrawn": ("GR-7",),  # FISE has no rule on a player who leaves: the Greek one is applied
    "disqualified": ("FISE-18",),
    "illegible": ("FISE-14",),
    "no-move": ("FISE-12",),
    "bad-position": ("FISE-14",),
    "bad-word": ("FISE-14",),
    "wrong-position": ("FISE-14",),
    "not-on-rack": ("FISE-12",),
    "blank-unmarked": ("FISE-14",),
    "not-in-list": ("FISE-12",),
}

#: the rule IDs each rule set cites for what the program decides: a rack drawn again, why the game ends, why
#: a slip scores 0. Greek games cite the Greek rules only; the Romanian practice cites its own rack rule and
#: FISE for the rest (it follows FISE wherever it has no rule of its own); a rule set not listed cites FISE's.
CITATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "fise": _FISE_CITES,
    "greek": {
        "redraw": ("GR-5A",),
        "no-legal-rack": ("GR-5B", "GR-8.2"),
        "tiles-out": ("GR-5B",),
        "no-word": ("GR-5B",),
        "planned": ("GR-5B",),
        "late": ("GR-5C", "GR-6"),
        "unsigned": ("GR-4",),
        "unknown-player": ("GR-4",),
        "withdrawn": ("GR-7",),
        "disqualified": ("GR-7",),  # a player who leaves gets 0 for the remaining rounds
        "illegible": ("GR-4",),
        "no-move": ("GR-4",),
        "bad-position": ("GR-4", "GR-6"),
        "bad-word": ("GR-6",),
        "wrong-position": ("GR-6",),
        "not-on-rack": ("GR-6",),
        "blank-unmarked": ("GR-6",),
        "not-in-list": ("GR-6",),
    },
    "romanian": {
        **_FISE_CITES,
        "redraw": (RO_PRACTICE,),
        "no-legal-rack": (RO_PRACTICE, "FISE-13"),
    },
}


def cited(rules: RuleSet, topic: str) -> str:
    """The rules cited for ``topic`` as a page says them: rule IDs as they are, the Romanian practice (no rule ID
    of its own) said in the page's language."""
    return joined([Text(c) if c == RO_PRACTICE else c for c in cites(rules, topic)], ", ")


def cites(rules: RuleSet, topic: str) -> tuple[str, ...]:
    """The rule IDs ``rules`` cites for ``topic`` (a slip's reason code, ``redraw``, an end kind)."""
    return CITATIONS.get(rules.name, _FISE_CITES).get(topic, ())

#: overrides :func:`ruleset` accepts besides the dataclass fields
SHORTCUTS = ("seconds", "min_each", "blanks", "bonus_mode", "bonus_top", "bonus_best", "bonus_manual")


def ruleset(name: str, **overrides: Any) -> RuleSet:
    """A shipped rule set with per-game settings changed.

    Besides any :class:`RuleSet` field, these shortcuts are understood: ``seconds`` (time per move; the
    warnings keep their seconds-left values), ``min_each`` (GR: 1 for GR-8.2, 2 for GR-5A, both phases),
    ``blanks`` (how a blank counts in rack rules), ``bonus_mode``, ``bonus_top``, ``bonus_best``,
    ``bonus_manual`` (FISE-11 values).

    :raises RuleSetError: for an unknown rule set or setting, or a value out of range.
    """
    try:
        base = RULESETS[name]
    except KeyError:
        raise RuleSetError(f"unknown rule set {name!r}; known: {', '.join(RULESETS)}") from None
    changes: dict[str, Any] = {}
    racks, clock, bonus = base.racks, base.clock, base.bonus
    for key, value in overrides.items():
        if value is None:
            continue
        if key == "seconds":
            seconds = int(value)
            warnings = tuple(w for w in clock.warnings if w < seconds)
            clock = dataclasses.replace(clock, seconds=seconds, warnings=warnings)
        elif key == "min_each":
            n = int(value)
            if n not in (1, 2):
                raise RuleSetError(f"min_each is 1 (GR-8.2) or 2 (GR-5A), not {n}")
            # GR-5A's "two of each" while the tiles left allow it, then GR-8.2's one of each: the game
            # ends only when only vowels or only consonants are left (GR-5B, GR-8.2)
            mix = Mix(min_vowels=n, min_consonants=n)
            late = Mix(min_vowels=1, min_consonants=1)
            if name == "greek":
                racks = dataclasses.replace(racks, early=mix, late=late, late_from=None if n > 1 else 16)
            else:
                racks = dataclasses.replace(racks, early=mix)
        elif key == "blanks":
            racks = dataclasses.replace(racks, blanks=str(value))
        elif key == "bonus_mode":
            bonus = dataclasses.replace(bonus, mode=value)
        elif key == "bonus_top":
            bonus = dataclasses.replace(bonus, top=int(value))
        elif key == "bonus_best":
            bonus = dataclasses.replace(bonus, best=int(value))
        elif key == "bonus_manual":
            bonus = dataclasses.replace(bonus, manual=int(value))
        elif key in {f.name for f in dataclasses.fields(RuleSet)}:
            changes[key] = value
        else:
            raise RuleSetError(f"unknown setting {key!r}")
    try:
        return dataclasses.replace(base, racks=racks, clock=clock, bonus=bonus, **changes)
    except TypeError as e:
        raise RuleSetError(str(e)) from None
