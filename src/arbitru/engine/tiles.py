"""Tiles, alphabets, racks and bags.

Tile codes follow docs/ENGINE.md: 0 is a blank on a rack (or an empty square), letters are 1..n in the
order of the alphabet file, and ``0x80 | t`` is a blank standing for letter ``t``.

>>> ro = alphabet("ro")
>>> ro.size, ro.total_tiles
(26, 100)
>>> ro.fold("Țară")
'TARA'
>>> ro.format(ro.split("CASĂ"))
'CASA'
>>> es = alphabet("es")
>>> [es.label(t) for t in es.split("CHURRO")]
['CH', 'U', 'RR', 'O']
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from arbitru.errors import TileError
from arbitru.messages import Text

BLANK = 0
BLANK_BIT = 0x80
LANGUAGES = ("ro", "es", "pl", "el", "en", "fr")
#: the refusal of a language with no tile set (a form's too)
UNKNOWN_LANGUAGE = "unknown language %(lang)s; known: %(known)s"


def is_blank(tile: int) -> bool:
    """True for a placed blank (``0x80 | letter``)."""
    return bool(tile & BLANK_BIT)


def letter_of(tile: int) -> int:
    """The letter a placed tile shows, blank or not."""
    return tile & ~BLANK_BIT


@dataclass(frozen=True)
class TileSpec:
    label: str
    count: int
    value: int
    vowel: bool
    spelling: str | None


class Alphabet:
    """A language's tile set: letters, counts, values, vowels, folding and spelling names.

    Loaded from ``alphabets/<lang>.txt``; use :func:`alphabet` to get the shared instance.
    """

    def __init__(self, text: str) -> None:
        self.name = ""
        self.lang = ""
        self.source = ""
        self.spelling_official = False
        self.blank_count = 0
        self.blank_spelling = ""
        self._folds: dict[str, str] = {}
        #: the accented letters of the language itself, both cases: all a strict fold takes (G-6)
        self._diacritics: set[str] = set()
        self._fold_cache: dict[str, str | None] = {}
        specs: list[TileSpec] = []
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            key, _, rest = line.partition(" ")
            if key == "name":
                self.name = rest
            elif key == "lang":
                self.lang = rest
            elif key == "source":
                self.source = rest
            elif key == "spelling":
                self.spelling_official = rest == "official"
            elif key == "fold":
                src, dst = rest.split()
                self._folds[src] = dst
            elif key == "diacritics":
                self._diacritics |= {c for letter in rest.split() for c in (letter, letter.lower())}
            elif key == "blank":
                _label, count, _value, spelling = rest.split(maxsplit=3)
                self.blank_count = int(count)
                self.blank_spelling = spelling
            elif key == "tile":
                label, count, value, kind, spelling = rest.split(maxsplit=4)
                name = None if spelling == "-" else spelling
                specs.append(TileSpec(label, int(count), int(value), kind == "V", name))
            else:
                raise ValueError(f"unknown alphabet line: {line!r}")
        self.specs: tuple[TileSpec, ...] = tuple(specs)
        self.size = len(specs)
        self.labels: tuple[str, ...] = ("?", *(s.label for s in specs))
        self._code = {s.label: i + 1 for i, s in enumerate(specs)}
        self._max_label = max(len(s.label) for s in specs)
        # index 0 is the blank: worth 0 (G-3)
        self.values: tuple[int, ...] = (0, *(s.value for s in specs))
        self.counts: tuple[int, ...] = (self.blank_count, *(s.count for s in specs))
        self.vowels = frozenset(i + 1 for i, s in enumerate(specs) if s.vowel)
        self.total_tiles = sum(self.counts)

    def __repr__(self) -> str:
        return f"alphabet({self.lang!r})"

    @property
    def title(self) -> Text:
        """The tile set's name (its file's ``name``) as a message, said in a page's language (:data:`NAMES`)."""
        return NAMES.get(self.name, Text(self.name))

    # --- letters -------------------------------------------------------------------------------------------

    def code(self, label: str) -> int:
        """The tile code of a letter label (upper case, already folded)."""
        try:
            return self._code[label]
        except KeyError:
            raise TileError(Text("%(letter)s is not a letter of the %(set)s tile set", letter=repr(label),
                                  set=self.title)) from None

    def label(self, tile: int) -> str:
        """A tile's letter label; a placed blank is shown in lower case."""
        if tile == BLANK:
            return "?"
        text = self.labels[letter_of(tile)]
        return text.lower() if is_blank(tile) else text

    def is_vowel(self, tile: int) -> bool:
        return letter_of(tile) in self.vowels

    def has_tiles(self, letter: int) -> bool:
        """False for letters only a blank can stand for (Romanian K, Q, W, Y: G-6)."""
        return self.counts[letter] > 0

    # --- text ----------------------------------------------------------------------------------------------

    def _fold_char(self, ch: str) -> str | None:
        # memoized: folding a 3-million-word list asks about the same few dozen characters
        try:
            return self._fold_cache[ch]
        except KeyError:
            folded = self._fold_cache[ch] = self._fold_char_uncached(ch)
            return folded

    def _fold_char_uncached(self, ch: str) -> str | None:
        if unicodedata.combining(ch):
            # a lone accent (Python upper-cases ΐ to Ϊ and a separate U+0301): drop it
            return ""
        up = ch.upper()
        if up in self._code or up in self._folds:
            return self._folds.get(up, up)
        # strip accents and other combining marks: Ă->A, Ș->S, Ά->Α (G-6, Greek accents)
        base = "".join(c for c in unicodedata.normalize("NFD", up) if not unicodedata.combining(c))
        base = unicodedata.normalize("NFC", base)
        if base and all(c in self._code for c in base):
            return base
        return None

    def fold(self, raw: str, *, strict: bool = False) -> str | None:
        """Upper-case a word and fold its diacritics the way this language does; None if a letter is foreign.

        Polish and Spanish keep the letters that are tiles of their own (Ą, Ñ); Romanian folds every
        diacritic. Word lists keep their loan letters playable (Romanian ``curaçao``: any accent is stripped);
        ``strict`` (a word a person types) folds only the language's own diacritics, so ``Ç``, ``Ñ`` or the
        ligature ``ﬁ`` in a Romanian word are foreign, not Romanian letters (G-6).
        """
        out = []
        for ch in unicodedata.normalize("NFC", raw.strip()):
            if strict and not self._own_letter(ch):
                return None
            folded = self._fold_char(ch)
            if folded is None:
                return None
            out.append(folded)
        return "".join(out)

    def foreign_letters(self, raw: str) -> list[str]:
        """The characters of ``raw`` a strict :meth:`fold` refuses, each once."""
        text = unicodedata.normalize("NFC", raw.strip())
        return list(dict.fromkeys(ch for ch in text if not self._own_letter(ch) or self._fold_char(ch) is None))

    def _own_letter(self, ch: str) -> bool:
        """A tile's letter (either case), a fold of the tile set's own (French Œ), one of the language's
        diacritics, or a lone combining mark (dropped)."""
        up = ch.upper()
        return up in self._code or up in self._folds or ch in self._diacritics or bool(unicodedata.combining(ch))

    def split(self, text: str, *, blanks: bool = False) -> list[int]:
        """Split a word into tile codes, longest letter first (Spanish CH, LL, RR).

        The split is greedy: in Spanish a C followed by an H is always the tile CH, two Rs always the tile RR,
        two Ls always LL (``CHURRO`` -> CH U RR O). Letters are folded first, so a fold into several letters
        works too (French ``CŒUR`` -> C O E U R).

        With ``blanks=True`` lower-case letters are blanks (``0x80 | letter``), as on slips and board files;
        a multi-letter tile is a blank when all its letters are in lower case (``ch``).

        :raises TileError: for a character that is not a letter of this tile set.
        """
        text = unicodedata.normalize("NFC", text.strip())
        # fold first, character by character: a fold may give several letters (French Œ -> O E), each
        # remembering whether it was written in lower case (a blank)
        letters: list[str] = []
        lower: list[bool] = []
        for ch in text:
            folded = self._fold_char(ch)
            if folded is None:
                raise TileError(Text("%(letter)s in %(text)s is not a letter of the %(set)s tile set", letter=repr(ch),
                                      text=repr(text), set=self.title))
            letters.extend(folded)
            lower.extend([ch == ch.lower() and ch != ch.upper()] * len(folded))
        tiles: list[int] = []
        i = 0
        while i < len(letters):
            # greedy, longest label first: Spanish C H is always the tile CH, R R always RR
            for width in range(min(self._max_label, len(letters) - i), 0, -1):
                chunk = "".join(letters[i : i + width])
                if chunk in self._code:
                    blank = blanks and all(lower[i : i + width])
                    tiles.append(self._code[chunk] | (BLANK_BIT if blank else 0))
                    i += width
                    break
            else:
                raise TileError(Text("%(letter)s in %(text)s is not a letter of the %(set)s tile set",
                                      letter=repr(letters[i]), text=repr(text), set=self.title))
        return tiles

    def format(self, tiles: Iterable[int]) -> str:
        """Tile codes as text, placed blanks in lower case."""
        return "".join(self.label(t) for t in tiles)

    def spelling(self, tile: int) -> str:
        """The name a spelling table announces for a tile (RO Annex 2 for Romanian)."""
        if tile == BLANK:
            return self.blank_spelling
        name = self.specs[letter_of(tile) - 1].spelling
        return name if name is not None else self.labels[letter_of(tile)]

    def parse_rack(self, text: str) -> Rack:
        """A rack from text such as ``"CASA??"``: ``?`` is a blank.

        :raises TileError: for a foreign letter, or a letter that has no tile (Romanian K, Q, W, Y: G-6).
        """
        tiles: list[int] = []
        for part in text.replace(" ", "").split("?"):
            tiles.extend(self.split(part.upper()) if part else [])
        for t in tiles:
            if not self.has_tiles(t):
                label = self.label(t)
                raise TileError(Text("%(letter)s has no tile in the %(set)s set: only a blank can stand for it",
                                      letter=label, set=self.title))
        tiles.extend([BLANK] * text.count("?"))
        return Rack(self, tiles)


#: the tile sets' names as messages (a rule set of the same name shows them too)
NAMES = {name: Text(name) for name in ("Romanian", "Spanish", "Polish", "Greek", "French", "English")}


@cache
def alphabet(lang: str) -> Alphabet:
    """The tile set of a language: ``ro``, ``es``, ``pl``, ``el``, ``en``, ``fr``.

    :raises TileError: for an unknown language.
    """
    if lang not in LANGUAGES:
        raise TileError(Text(UNKNOWN_LANGUAGE, lang=repr(lang), known=", ".join(LANGUAGES)))
    text = resources.files("arbitru.engine").joinpath(f"alphabets/{lang}.txt").read_text("utf-8")
    return Alphabet(text)


class Rack:
    """Tiles in hand as a count vector (index 0 = blanks), the form both generators use."""

    __slots__ = ("alphabet", "counts")

    def __init__(self, alpha: Alphabet, tiles: Iterable[int] = ()) -> None:
        self.alphabet = alpha
        self.counts = [0] * (alpha.size + 1)
        for t in tiles:
            self.counts[t] += 1

    @classmethod
    def from_counts(cls, alpha: Alphabet, counts: Sequence[int]) -> Rack:
        rack = cls(alpha)
        rack.counts = list(counts)
        return rack

    def tiles(self) -> list[int]:
        """The tiles in alphabet order, blanks last."""
        out = [t for t in range(1, len(self.counts)) for _ in range(self.counts[t])]
        return out + [BLANK] * self.counts[0]

    def __len__(self) -> int:
        return sum(self.counts)

    def __str__(self) -> str:
        return "".join(self.alphabet.label(t) for t in self.tiles())

    def __repr__(self) -> str:
        return f"Rack({self.alphabet.lang!r}, {str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rack) and self.counts == other.counts

    def __hash__(self) -> int:
        return hash(tuple(self.counts))

    def copy(self) -> Rack:
        return Rack.from_counts(self.alphabet, self.counts)

    def take(self, placed: Iterable[int]) -> Rack:
        """The rack left after placing these tiles (blanks as ``0x80|t``); raises if a tile is missing."""
        left = self.copy()
        for t in placed:
            key = BLANK if is_blank(t) else t
            if left.counts[key] == 0:
                raise TileError(Text("%(tile)s is not on the rack %(rack)s", tile=self.alphabet.label(key),
                                     rack=str(self)))
            left.counts[key] -= 1
        return left

    def vowels(self) -> int:
        return sum(self.counts[t] for t in self.alphabet.vowels)

    def consonants(self) -> int:
        return len(self) - self.counts[0] - self.vowels()


class Bag:
    """The tiles not yet drawn, with a seeded generator so a draw can be replayed."""

    def __init__(
        self, alpha: Alphabet, seed: int | str | None = None, tiles: Iterable[int] | None = None
    ) -> None:
        self.alphabet = alpha
        if tiles is None:
            tiles = [t for t, n in enumerate(alpha.counts) for _ in range(n)]
        self.tiles: list[int] = sorted(tiles)
        self.random = random.Random(seed)

    def __len__(self) -> int:
        return len(self.tiles)

    def draw(self, n: int) -> list[int]:
        """Draw up to ``n`` tiles at random."""
        out = []
        for _ in range(min(n, len(self.tiles))):
            out.append(self.tiles.pop(self.random.randrange(len(self.tiles))))
        return out

    def remove(self, tiles: Iterable[int]) -> None:
        """Take named tiles out (a draw made by hand in the hall)."""
        for t in tiles:
            try:
                self.tiles.remove(t)
            except ValueError:
                raise TileError(Text("%(tile)s is not left in the bag", tile=self.alphabet.label(t))) from None

    def put_back(self, tiles: Iterable[int]) -> None:
        self.tiles.extend(tiles)
        self.tiles.sort()
