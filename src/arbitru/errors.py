"""The errors arbitru raises. Each is a ValueError, so a caller can catch bad input in one place.

A referee needs the split python-chess makes between a typo and an illegal move: text that cannot be read
(:class:`NotationError`), a placement that breaks the rules (:class:`IllegalPlacementError`), a word not in the
list (a reason of :class:`IllegalPlacementError`), and bad data or files (:class:`TileError`, :class:`LexiconError`,
:class:`BoardFileError`).
"""

from __future__ import annotations


class ArbitruError(ValueError):
    """Base class: every message is one line an arbiter can read."""

    def __str__(self) -> str:
        # a message with values (arbitru.messages.Text) stays one, so that a page says it in its language
        first = self.args[0] if len(self.args) == 1 else None
        return first if isinstance(first, str) else super().__str__()


class TileError(ArbitruError):
    """A letter that is not in the tile set, a tile that is not on the rack or in the bag."""


class NotationError(ArbitruError):
    """A position or placement that cannot be read; ``kind`` says which part is wrong."""

    def __init__(self, message: str, kind: str = "syntax") -> None:
        super().__init__(message)
        #: ``missing-sign``, ``unknown-row``, ``column-out-of-range``, ``syntax``, ...
        self.kind = kind


class IllegalPlacementError(ArbitruError):
    """A placement that breaks a rule; ``reasons`` lists every rule broken, first the decisive one."""

    def __init__(self, reasons: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(text for _, text in reasons))
        #: ``(code, text)`` pairs, e.g. ``("not-in-list", "QZX is not in the word list")``
        self.reasons = reasons


class LexiconError(ArbitruError):
    """An unknown word list, a broken list file, a list for another tile set."""


class BoardFileError(ArbitruError):
    """A board file that is not 15 lines of 15 squares, or a bad CGP string."""


class JournalError(ArbitruError):
    """A game journal that cannot be opened or an event that does not fit the game."""


class GameNotFound(JournalError):
    """No game of that id in the journal (a 404 on the web); ``game``: the id asked for."""

    def __init__(self, message: str, game: str = "") -> None:
        super().__init__(message)
        self.game = game
