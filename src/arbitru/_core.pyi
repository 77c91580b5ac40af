"""Typed stub of the compiled core (csrc/, documented in csrc/README.md)."""

from typing import Final, final

from typing_extensions import Buffer  # collections.abc.Buffer from Python 3.12

FLAG_USE_ALL: Final[int]
"""generate() flag: only placements that use every tile of the rack."""
RECORD_SIZE: Final[int]
"""Size in bytes of one placement record (24): ``struct.Struct("<iBBBB15sB")``."""
BLANK: Final[int]
"""0x80, the blank bit of a tile code."""
H: Final[int]
"""0, horizontal."""
V: Final[int]
"""1, vertical."""
KWG_MAGIC: Final[bytes]
"""b"ARBKWG01", the first 8 bytes of a .kwg file."""

def build_kwg(words: Buffer, alphabet_size: int, /) -> bytes:
    """KWG (DAWG + GADDAG, minimized) of tile strings separated by zero bytes; releases the GIL.

    :raises ValueError: a byte above ``alphabet_size``, ``alphabet_size`` outside 1..63, or a list too large
        for 24-bit arc indices.
    """

def kwg_words(kwg: Buffer, alphabet_size: int = -1, /) -> list[bytes]:
    """Every word of the DAWG, in ascending tile order. ``kwg``: the array, or a .kwg file image."""

def contains(kwg: Buffer, word: Buffer, /) -> bool:
    """Is ``word`` (letter codes, no blank bit) in the DAWG?"""

@final
class Board:
    """15×15 board with per-square cross-sets over a KWG; generates placements.

    ``kwg`` is any buffer (bytes, mmap, memoryview), bare array or .kwg file image; the board keeps a
    reference to it. Not thread-safe per object; different boards may generate in parallel threads.
    """

    def __init__(
        self,
        kwg: Buffer,
        alphabet_size: int,
        letter_scores: Buffer,
        letter_mult: Buffer,
        word_mult: Buffer,
        bingo_tiles: int = 7,
        bingo_bonus: int = 50,
        centre: int = 112,
        tileless: int = 0,
    ) -> None: ...
    @property
    def centre(self) -> int:
        """Square (row-major) the first placement must cover."""
    @property
    def tileless(self) -> int:
        """Bit mask of the letters without tiles: a natural one on a rack is never placed (G-6)."""
    @property
    def alphabet_size(self) -> int: ...
    @property
    def tile_count(self) -> int:
        """Tiles on the board."""
    @property
    def bingo_tiles(self) -> int: ...
    @property
    def bingo_bonus(self) -> int: ...
    def set_squares(self, squares: Buffer, /) -> None:
        """Load 225 squares (row-major, ENGINE.md codes) and compute every cross-set."""
    def squares(self) -> bytes:
        """The 225 squares, row-major."""
    def place(self, row: int, col: int, dir: int, tiles: Buffer, /) -> None:
        """Put a placement on the board (0 = square already occupied) and update the cross-sets it changes.

        Checks squares (on the board, 0 only over tiles, tiles only on empty squares, valid codes), not words.
        """
    def generate(self, rack: Buffer, top: int = 0, flags: int = 0) -> bytes:
        """Placements as RECORD_SIZE-byte records; ``rack`` holds alphabet_size + 1 counts (index 0: blanks).

        ``top=0``: every legal placement, in no particular order. ``top=k``: every placement scoring at least
        the k-th best score (ties at the cut included), best first. Releases the GIL.
        """
    def cross_set(self, row: int, col: int, dir: int, /) -> int:
        """Bit t set: letter t may go on the square in a ``dir`` placement (all letters if no cross word,
        0 if occupied)."""
    def cross_score(self, row: int, col: int, dir: int, /) -> int:
        """Face value of the cross word's existing tiles; -1 without a cross word (or on a tile)."""
    def copy(self) -> Board:
        """An independent board with the same squares, sharing the KWG buffer."""
