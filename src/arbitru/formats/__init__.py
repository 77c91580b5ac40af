"""Game formats (anticipation, duplicate) built on the engine; each reports its decisions as journal events.

Every format fills the same roles, under the names of its own rulebook, and is registered here (as python-chess
registers its variants): its journal name, its *state* (the game as replayed from its events), its *actions*
(the game in a journal: each action checks the state, then appends), its *slip* and its *settings*. A hand-in
answers with one :class:`~arbitru.formats.receipt.Receipt` in every format. The web and the CLI find a game's
format with :func:`format_of` (or :func:`by_name`) and never compare format names themselves; a third format
plugs in with one more :class:`Format` in :data:`FORMATS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from arbitru.errors import ArbitruError
from arbitru.formats.anticipation import game as anticipation
from arbitru.formats.anticipation.slips import Slip as AnticipationSlip
from arbitru.formats.anticipation.variants import Settings as AnticipationSettings
from arbitru.formats.duplicate import game as duplicate
from arbitru.formats.duplicate.slips import Slip as DuplicateSlip
from arbitru.formats.receipt import Receipt
from arbitru.journal.store import GameInfo, Journal


class Actions(Protocol):
    """A game in a journal, as each format's actions class is (``Session``, ``AnticipationGame``)."""

    @property
    def journal(self) -> Journal: ...

    @property
    def id(self) -> str: ...

    def hand_in(self, slip: Any, now: float) -> Receipt[Any]: ...

    def refresh(self) -> None: ...

    def reload(self) -> None: ...


@dataclass(frozen=True, eq=False)
class Format:
    """One format's entry: the same roles under each rulebook's names."""

    name: str
    #: the game as replayed from its events
    state: type
    #: the game in a journal: opened with ``actions(journal, game_id)``; each action checks, then appends
    actions: Callable[[Journal, str], Actions]
    slip: type
    settings: type
    #: what the format's players' or seating CSV reads into (the CLI and the web read it the same way)
    players_csv: Callable[[str], list[Any]]
    #: whether a game is over (its players' codes no longer matter): ``over(journal, game_id)``
    over: Callable[[Journal, str], bool]

    def open(self, journal: Journal, game_id: str) -> Actions:
        return self.actions(journal, game_id)


class UnknownFormat(ArbitruError):
    """A format name no entry of :data:`FORMATS` has."""


def _duplicate_over(journal: Journal, game_id: str) -> bool:
    return bool(journal.events(game_id, "end"))


def _anticipation_over(journal: Journal, game_id: str) -> bool:
    """Over once the final results are published (RO-5.5.j)."""
    return any(e.payload.get("stage") == "final" for e in journal.iter_events(game_id, "publication"))


DUPLICATE = Format(duplicate.FORMAT, duplicate.Game, duplicate.Session, DuplicateSlip, duplicate.Settings,
                   duplicate.read_players_csv, _duplicate_over)
ANTICIPATION = Format(anticipation.FORMAT, anticipation.GameState, anticipation.AnticipationGame,
                      AnticipationSlip, AnticipationSettings, anticipation.read_seating_csv, _anticipation_over)

#: every playable format, by its name in the journal
FORMATS: dict[str, Format] = {f.name: f for f in (DUPLICATE, ANTICIPATION)}


def by_name(name: str) -> Format:
    """The format called ``name``. :raises UnknownFormat: no such format."""
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownFormat(f"no game format {name!r} (formats: {', '.join(FORMATS)})") from None


def format_of(game: GameInfo) -> Format | None:
    """The format of a journal's game (None: not a game of a playable format, e.g. a tournament's record)."""
    return FORMATS.get(game.format)
