"""arbitru: referee software for tournament Scrabble (anticipation and duplicate).

The engine's vocabulary is re-exported here; formats, the journal and the CLI are sibling packages.
"""

from arbitru.engine.board import Board
from arbitru.engine.layout import Layout
from arbitru.engine.lexicon import Lexicon
from arbitru.engine.notation import Coordinate
from arbitru.engine.placement import Placement
from arbitru.engine.tiles import Alphabet, Bag, Rack, alphabet
from arbitru.errors import (
    ArbitruError,
    BoardFileError,
    IllegalPlacementError,
    LexiconError,
    NotationError,
    TileError,
)

__all__ = [
    "Alphabet",
    "ArbitruError",
    "Bag",
    "Board",
    "BoardFileError",
    "Coordinate",
    "IllegalPlacementError",
    "Layout",
    "Lexicon",
    "LexiconError",
    "NotationError",
    "Placement",
    "Rack",
    "TileError",
    "alphabet",
]
__version__ = "0.1.0"
