"""The ranking (RO-6.6, RO-8.2): totals in descending order, ties share the higher place, eliminated out.

>>> places([("Ana", 120), ("Dan", 150), ("Ion", 120), ("Eva", 90)])
{'Dan': 1, 'Ana': 2, 'Ion': 2, 'Eva': 4}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from arbitru.formats.anticipation.variants import TURNS
from arbitru.formats.anticipation.verdicts import PlayerResult


def places(scores: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Competition ranking: equal keys share the higher place, the next place skips (1, 2, 2, 4)."""
    ordered = sorted(scores, key=lambda ps: (-ps[1], ps[0]))
    out: dict[str, int] = {}
    previous: int | None = None
    place = 0
    for i, (player, key) in enumerate(ordered, 1):
        if key != previous:
            place = i
            previous = key
        out[player] = place
    return out


def rank(results: Mapping[str, PlayerResult], variant: str = "classic") -> list[PlayerResult]:
    """Give every player not eliminated a place; returns players in ranking order, the eliminated last.

    RO-8.2 (endurance): reverse order of dropping out (a player who never drops out ranks above all who did);
    players dropping out in the same turn tie. Otherwise by total (RO-6.6, RO-8.3, RO-8.4).
    """
    ranked = [r for r in results.values() if not r.eliminated]
    if variant == "endurance":
        keys = [(r.player, r.dropped_out if r.dropped_out is not None else TURNS + 1) for r in ranked]
    else:
        keys = [(r.player, r.total) for r in ranked]
    placed = places(keys)
    for r in results.values():
        r.place = placed.get(r.player)
    out = sorted(ranked, key=lambda r: (r.place or 0, r.player))
    out.extend(sorted((r for r in results.values() if r.eliminated), key=lambda r: r.player))
    return out


def ranking_points(ranking: Iterable[PlayerResult], scale: Sequence[int]) -> dict[str, int]:
    """RO-5.5.j, RO-6.6: the ranking points of each placed player from the organiser's ``scale`` (place 1
    first; places beyond it get 0); tied players each get the points of the higher place; an eliminated player
    gets none (RO-6.4, RO-7.1).

    >>> tied = [PlayerResult("Ana", 1, place=1), PlayerResult("Dan", 2, place=2), PlayerResult("Ion", 3, place=2)]
    >>> ranking_points(tied, [25, 20, 16])
    {'Ana': 25, 'Dan': 20, 'Ion': 20}
    """
    return {
        r.player: (scale[r.place - 1] if r.place <= len(scale) else 0)
        for r in ranking
        if r.place is not None and not r.eliminated
    }
