"""Word lists by name: the catalog's official lists, a file, or ``synthetic:N``, a seeded stand-in list of N
words for trying the software (and for tests) where no official list is installed."""

from __future__ import annotations

import random

from arbitru.engine.lexicon import Lexicon
from arbitru.engine.tiles import alphabet
from arbitru.errors import LexiconError
from arbitru.textinput import InputError, parse_number

#: the largest stand-in list (its build is in memory)
SYNTHETIC_MAX = 100_000

def synthetic_lexicon(lang: str, size: int = 800, seed: int = 1, *, name: str | None = None) -> Lexicon:
    """A seeded word list for a tile set: every two-letter word, then random words of 3–8 tiles drawn with the
    set's letter frequencies, ``size`` words in all (at least the pairs). Not a language: a stand-in that
    exercises digraphs, blanks and every letter where no official list is installed (its games often end
    early, the board blocked: FISE-13)."""
    alpha = alphabet(lang)
    rng = random.Random(f"{lang}:{size}:{seed}")
    letters = [t for t in range(1, alpha.size + 1) if alpha.has_tiles(t)]
    weights = [alpha.counts[t] for t in letters]
    words: set[tuple[int, ...]] = {(a, b) for a in letters for b in letters}
    while len(words) < size:
        length = rng.choice((3, 3, 4, 4, 5, 5, 6, 7, 8))
        words.add(tuple(rng.choices(letters, weights, k=length)))
    return Lexicon.from_tiles(sorted(words), alpha, name or f"synthetic-{lang}-{size}")


def load_lexicon(spec: str | None, lang: str) -> Lexicon:
    """A word list by catalog name or path (:func:`arbitru.lexicons.catalog.load`; None: the language's
    default), or ``synthetic:N``.

    :raises LexiconError: when the list cannot be found or loaded.
    """
    if spec and spec.startswith("synthetic"):
        _, _, size = spec.partition(":")
        try:
            words = parse_number(size, "synthetic list size", low=1, high=SYNTHETIC_MAX) if size else 800
        except InputError as e:
            raise LexiconError(str(e)) from None
        return synthetic_lexicon(lang, words)
    from arbitru.lexicons.catalog import load

    return load(spec, lang)
