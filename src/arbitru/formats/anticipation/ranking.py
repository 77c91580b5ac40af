"""The ranking (RO-6.6, RO-8.2): totals in descending order, ties share the higher place, eliminated out.

>>> places([("Ana", 120), ("Dan", 150), ("Ion", 120), ("Eva", 90)])
{'Dan': 1, 'Ana': 2, 'Ion': 2, 'Eva': 4}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

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
