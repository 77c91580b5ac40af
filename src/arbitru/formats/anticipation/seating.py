"""Seating (RO-5.1): tables by descending individual rating, late entries at the last tables, no two
players of the same club side by side.

>>> seat([Entrant("Ana", 1900, "A"), Entrant("Dan", 1800, "A"), Entrant("Ion", 1700, "B"),
...       Entrant("Eva", 2000, "C", late=True)])
[('Ana', 1, 'Ana'), ('Ion', 2, 'Ion'), ('Dan', 3, 'Dan'), ('Eva', 4, 'Eva')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from arbitru.formats.anticipation.slips import SlipFileError
from arbitru.textinput import InputError, check_text, csv_rows


@dataclass(frozen=True)
class Entrant:
    player: str
    rating: float
    club: str = ""
    late: bool = False  # entered after the seating was fixed (30 minutes before the start)
    name: str = ""


# a rating in ASCII digits (no "nan", "inf" or exponent, which would break the order of the tables)
_RATING = re.compile(r"-?[0-9]{1,9}(?:\.[0-9]{1,6})?")


def seat(entrants: Iterable[Entrant]) -> list[tuple[str, int, str]]:
    """(player, table, name) for every entrant (RO-5.1).

    On-time entrants by descending rating (ties by name), then the late ones in the order they came. Where two
    players of a club would sit side by side, the second swaps with the nearest player further down who breaks
    the pair without making a new one (within the same part, on time or late, when possible).
    """
    entrants = list(entrants)
    on_time = sorted((e for e in entrants if not e.late), key=lambda e: (-e.rating, e.player))
    order = on_time + [e for e in entrants if e.late]
    boundary = len(on_time)

    def clash(i: int) -> bool:
        return 0 < i < len(order) and bool(order[i].club) and order[i].club == order[i - 1].club

    for i in range(1, len(order)):
        if not clash(i):
            continue
        same_part = range(i + 1, boundary) if i < boundary else range(i + 1, len(order))
        for j in [*same_part, *range(i + 1, len(order))]:
            order[i], order[j] = order[j], order[i]
            if not clash(i) and not clash(i + 1) and not clash(j) and not clash(j + 1):
                break
            order[i], order[j] = order[j], order[i]
    return [(e.player, table, e.name or e.player) for table, e in enumerate(order, 1)]


def read_entrants_csv(text: str) -> list[Entrant]:
    """``player,rating[,club[,late[,name]]]`` per line; a header line is allowed; ``late`` is ``yes``/``1``.

    :raises SlipFileError: naming the line and field of a problem.
    """
    out: list[Entrant] = []
    try:
        rows = csv_rows(text, "entrants file")
    except InputError as e:
        raise SlipFileError(str(e)) from None
    for lineno, cells in rows:
        if not cells or not any(c.strip() for c in cells):
            continue
        if lineno == 1 and cells[0].strip().lower() == "player":
            continue
        if len(cells) > 5:
            raise SlipFileError(f"line {lineno}: {len(cells)} fields, expected player,rating[,club[,late[,name]]]")
        cells = [c.strip() for c in cells] + [""] * 5
        if not cells[0]:
            raise SlipFileError(f"line {lineno}, field 'player': empty")
        for field, cell in zip(("player", "rating", "club", "late", "name"), cells, strict=False):
            try:
                check_text(cell, f"line {lineno}, field {field!r}", field)
            except InputError as e:
                raise SlipFileError(str(e)) from None
        if not _RATING.fullmatch(cells[1] or "0"):
            raise SlipFileError(f"line {lineno}, field 'rating': {cells[1]!r} is not a number")
        rating = float(cells[1] or 0)
        late = cells[3].lower() in ("1", "yes", "da", "true", "late")
        out.append(Entrant(cells[0], rating, cells[2], late, cells[4]))
    return out
