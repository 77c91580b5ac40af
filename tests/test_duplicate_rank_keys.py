"""FISE-15: the ranking made with each line's key made once (:func:`results.rank`) places, shares places and flags
playoffs exactly as the ranking before it did (the reference below, commit acf5b5e), numbers such as "7" and "07"
and "B" among them."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from arbitru.formats.duplicate.game import Player
from arbitru.formats.duplicate.results import PlayerLine, rank, tie_key
from arbitru.textinput import number_order

TIE_BREAKS = ("top-moves", "best-move", "playoff")


def _old_rank(lines: list[PlayerLine], tie_breaks: tuple[str, ...]) -> None:
    """results.rank before its keys were made once (commit acf5b5e): each key made anew at each look."""

    def key(line: PlayerLine) -> tuple[int, ...]:
        return tie_key(line, tie_breaks)

    lines.sort(key=lambda line: (key(line), number_order(line.player.number)))
    for i, line in enumerate(lines):
        line.place = lines[i - 1].place if i and key(lines[i - 1]) == key(line) else i + 1
    if "playoff" in tie_breaks:
        shared = Counter(key(line) for line in lines)
        for line in lines:
            line.playoff = shared[key(line)] > 1


numbers = st.sampled_from(["7", "07", "007", "1", "10", "2", "B", "b", "²", "", " 3", "3 ", "٣", "+5", "-1"])
line_values = st.tuples(numbers, st.integers(0, 4), st.integers(0, 3), st.integers(0, 2), st.integers(0, 3))


def _lines(values: list[tuple[str, int, int, int, int]]) -> list[PlayerLine]:
    return [PlayerLine(Player(n, f"p{i}"), [], points, bonus, Fraction(0), top, best)
            for i, (n, points, bonus, top, best) in enumerate(values)]


@settings(max_examples=400, deadline=None)
@given(st.lists(line_values, max_size=40), st.sets(st.sampled_from(TIE_BREAKS)).flatmap(
    lambda chosen: st.permutations(sorted(chosen))))
def test_fise_15_ranking_with_keys_made_once_places_as_before(values: list[tuple[str, int, int, int, int]],
                                                              tie_breaks: list[str]) -> None:
    new, old = _lines(values), _lines(values)
    rank(new, tuple(tie_breaks))
    _old_rank(old, tuple(tie_breaks))
    assert [(line.player.name, line.place, line.playoff) for line in new] == \
        [(line.player.name, line.place, line.playoff) for line in old]
