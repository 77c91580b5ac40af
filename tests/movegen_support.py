"""Test helpers shared by the move-generator test files (imported as a plain module, like anticipation_support)."""

from __future__ import annotations

import random


def random_words(
    rnd: random.Random, letters: list[int], count: int, max_len: int, pair_chance: float = 0.5
) -> set[tuple[int, ...]]:
    """A random lexicon over ``letters``: about ``count`` words of 2..``max_len`` tiles."""
    words: set[tuple[int, ...]] = set()
    # plenty of two-letter words, so that words hook onto the board
    for a in letters:
        for b in letters:
            if rnd.random() < pair_chance:
                words.add((a, b))
    tries = 0
    while len(words) < count and tries < 20 * count:
        tries += 1
        words.add(tuple(rnd.choice(letters) for _ in range(rnd.randint(2, max_len))))
    return words
