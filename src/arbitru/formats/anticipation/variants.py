"""Game settings and the variants of RO-8: what changes from the classic *partida de anticipație*.

A game's settings are fixed when it is created (they are the journal's ``game.settings``):

>>> s = Settings(variant="avocalic")
>>> s.variant, s.blank_counts, Settings.from_dict(s.to_dict()) == s
('avocalic', 'neither', True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from arbitru.errors import ArbitruError

#: classic (RO-5, RO-6); avocalic (RO-8.1); endurance = exclusive scrabble, endurance (RO-8.2);
#: total = exclusive scrabble, total score (RO-8.3); blind (RO-8.4)
VARIANTS = ("classic", "avocalic", "endurance", "total", "blind")
VARIANT_RULES = {
    "classic": "RO-5",
    "avocalic": "RO-8.1",
    "endurance": "RO-8.2",
    "total": "RO-8.3",
    "blind": "RO-8.4",
}
#: how a blank counts in the draw conditions (RO-5.2.e, RO-8.1): FISE-4 says blanks do not count
BLANK_COUNTS = ("neither", "vowel", "consonant")

GROUPS = 15
TURNS = 14
GROUP1_SIZE = 2
GROUP_SIZE = 7


class SettingsError(ArbitruError):
    """A setting that is not one of the allowed values."""


@dataclass(frozen=True)
class Settings:
    """Everything fixed for a game's life."""

    variant: str = "classic"
    lang: str = "ro"
    #: the official list used (RO-2): a catalog name (``loc-6.0``) or a word-list file
    lexicon: str = ""
    #: whether a blank counts as a vowel, a consonant or neither in draw conditions (a setting: docs/rules.md)
    blank_counts: str = "neither"
    #: a known seed of the draw and of the lots drawn by the program, typed by the arbiter (None: groups entered
    #: by hand, or drawn from the game's secret)
    seed: int | None = None
    #: RO-5.5.d: without a visible clock, time is announced every 2 minutes in a turn
    clock_visible: bool = True
    #: a game played alone for training (kept apart from the hall's games in the lists)
    training: bool = False
    #: the game whose lots this one draws again, turn by turn (training on a past draw); "" for none
    lots_from: str = ""
    #: that game's lots, turn by turn (a training game, stored apart from the game it names, keeps them)
    past_lots: tuple[int, ...] = ()
    #: the commitment to the game's draw secret (:mod:`arbitru.formats.fairness`): groups and lots the program
    #: draws come from the secret; "" for a known ``seed`` (or, in journals before secrets, the game's id)
    commitment: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "past_lots", tuple(self.past_lots))  # a JSON list when read back
        if len(self.past_lots) > TURNS or not all(isinstance(g, int) and not isinstance(g, bool)
                                                   for g in self.past_lots):
            raise SettingsError(f"past_lots is at most {TURNS} group numbers")
        if self.variant not in VARIANTS:
            raise SettingsError(f"unknown variant {self.variant!r}; known: {', '.join(VARIANTS)}")
        if self.blank_counts not in BLANK_COUNTS:
            raise SettingsError(
                f"blank_counts must be one of {', '.join(BLANK_COUNTS)}, not {self.blank_counts!r}"
            )
        if len(self.lots_from) > 64:
            raise SettingsError("lots_from is a game id (at most 64 characters)")
        if self.lang != "ro":
            raise SettingsError("the partida de anticipație is played with the Romanian tile set (RO-3.1)")

    def to_dict(self) -> dict[str, Any]:
        return {"format": "anticipation", **asdict(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    @property
    def rule(self) -> str:
        return VARIANT_RULES[self.variant]

    @property
    def exclusive(self) -> bool:
        """RO-8.2, RO-8.3: every turn all 7 letters of the group."""
        return self.variant in ("endurance", "total")
